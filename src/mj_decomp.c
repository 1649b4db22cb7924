/* Standard decompositions of a winning hand, enumerated in C (see mj_hand.h).
 *
 * Recursion: the lowest held kind is in some group (a pung, a chow through
 * it or the pair, with jokers standing in for missing or chosen tiles);
 * states that can no longer complete are cut with the table check
 * mj_win_standard / mj_win_sets. When no natural tile is left the remaining
 * sets and pair are free all-joker groups. A group is one uint16 code whose
 * numeric order is the order of mjcore.hand.Group tuples (see MJ_DEC_CODE), so
 * sorting the codes of each reading and then the readings gives the sorted,
 * distinct list the Python API returns. */
#include <stdlib.h>

#include "mj_hand.h"

#include "mj_groups.h"

enum { CHOW = 0, PAIR = 1, PUNG = 2 }; /* "chow" < "pair" < "pung" */

/* shape | kind + 1 (0 = free) | jokers | lexicographic rank of the wild kinds */
static inline uint16_t code(int shape, int kind, int jokers, int wild_rank) {
    return (uint16_t)(shape << 12 | (kind + 1) << 5 | jokers << 2 | wild_rank);
}

/* Rank of a chow's joker positions (bits 0..2 = base, base + 1, base + 2)
 * among the position sets of the same size, in tuple order. */
static const uint8_t WILD_RANK[8] = {0, 0, 1, 0, 2, 1, 2, 0};

typedef struct {
    uint8_t h[MJ_N_KINDS];
    int flags;
    uint16_t cur[MJ_DEC_WIDTH];
    uint16_t *out;
    long cap, leaves;
} Dec;

static void solve(Dec *d, int k, int sets, int pair, int depth, int from);

static void leaf(Dec *d, int sets, int depth) {
    uint16_t row[MJ_DEC_WIDTH] = {0};
    int n = 0;
    uint16_t pair_code = code(PAIR, -1, 2, 0); /* free unless a pair was taken */
    for (int j = 0; j < depth; j++) {
        if ((d->cur[j] >> 12) == PAIR) pair_code = d->cur[j];
        else row[n++] = d->cur[j];
    }
    for (int j = 0; j < sets; j++) row[n++] = code(PUNG, -1, 3, 0);
    for (int a = 1; a < n; a++) /* insertion sort of <= 4 set codes */
        for (int b = a; b > 0 && row[b - 1] > row[b]; b--) {
            uint16_t t = row[b];
            row[b] = row[b - 1];
            row[b - 1] = t;
        }
    row[n] = pair_code;
    if (d->leaves < d->cap)
        for (int j = 0; j < MJ_DEC_WIDTH; j++) d->out[d->leaves * MJ_DEC_WIDTH + j] = row[j];
    d->leaves++;
}

/* Take one group with natural kinds nat[0..n) and continue. */
static void take(Dec *d, uint16_t g, const int *nat, int n, int k, int sets, int pair, int depth,
                 int from) {
    for (int j = 0; j < n; j++) d->h[nat[j]]--;
    d->cur[depth] = g;
    int is_pair = (g >> 12) == PAIR;
    solve(d, k - ((g >> 2) & 3), sets - !is_pair, pair && !is_pair, depth + 1, from);
    for (int j = 0; j < n; j++) d->h[nat[j]]++;
}

static void chows(Dec *d, int t, int k, int sets, int pair, int depth) {
    int r = t % 9;
    for (int low = r > 2 ? r - 2 : 0; low <= (r < 6 ? r : 6); low++) {
        int base = t - r + low;
        for (unsigned wild = 0; wild < 8; wild++) { /* joker positions, never t itself */
            int nat[3], n = 0, jk = 0, ok = 1;
            for (int p = 0; p < 3; p++) {
                int kind = base + p;
                if (wild >> p & 1u) ok &= kind != t, jk++;
                else if (kind == t || d->h[kind]) nat[n++] = kind;
                else ok = 0; /* a missing kind must be a joker */
            }
            if (!ok || jk > k) continue;
            take(d, code(CHOW, base, jk, WILD_RANK[wild]), nat, n, k, sets, pair, depth, t);
        }
    }
}

static void solve(Dec *d, int k, int sets, int pair, int depth, int from) {
    int t = from;
    while (t < MJ_N_KINDS && !d->h[t]) t++;
    if (t == MJ_N_KINDS) {
        leaf(d, sets, depth);
        return;
    }
    if (pair ? !mj_win_standard(d->h, k, d->flags) : !mj_win_sets(d->h, k)) return;
    int c = d->h[t], nat[3] = {t, t, t};
    if (sets) {
        for (int x = 1; x <= mj_min(c, 3); x++)
            if (3 - x <= k) take(d, code(PUNG, t, 3 - x, 0), nat, x, k, sets, pair, depth, t);
        if (t < 27) chows(d, t, k, sets, pair, depth);
    }
    if (pair && (!(d->flags & MJ_PAIR258) || mj_is258(t)))
        for (int x = 1; x <= mj_min(c, 2); x++)
            if (2 - x <= k) take(d, code(PAIR, t, 2 - x, 0), nat, x, k, sets, pair, depth, t);
}

static int cmp_rows(const void *a, const void *b) {
    const uint16_t *x = a, *y = b;
    for (int j = 0; j < MJ_DEC_WIDTH; j++)
        if (x[j] != y[j]) return x[j] < y[j] ? -1 : 1;
    return 0;
}

long mj_decompose(const uint8_t *c, int k, int flags, uint16_t *out, long cap, long *rows) {
    Dec d;
    memcpy(d.h, c, MJ_N_KINDS);
    d.flags = flags & MJ_PAIR258;
    d.out = out;
    d.cap = cap;
    d.leaves = 0;
    int n = mj_total(c);
    *rows = 0;
    solve(&d, k, (n + k - 2) / 3, 1, 0, 0);
    if (d.leaves > cap) return d.leaves;
    qsort(out, (size_t)d.leaves, MJ_DEC_WIDTH * sizeof *out, cmp_rows);
    long m = 0; /* drop duplicates (the same groups taken in another order) */
    for (long i = 0; i < d.leaves; i++) {
        uint16_t *row = out + i * MJ_DEC_WIDTH;
        if (m > 0 && !cmp_rows(out + (m - 1) * MJ_DEC_WIDTH, row)) continue;
        if (m != i) memcpy(out + m * MJ_DEC_WIDTH, row, MJ_DEC_WIDTH * sizeof *out);
        m++;
    }
    *rows = m;
    return d.leaves;
}
