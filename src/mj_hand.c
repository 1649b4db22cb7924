/* Win, shanten and scoring-fact kernels (see mj_hand.h for the preconditions). */
#include "mj_hand.h"

#include "mj_groups.h"

#include <string.h>

#define MJ_SPECIAL_FORMS (MJ_SEVEN_PAIRS | MJ_ORPHANS | MJ_KNITTED)

/* Some lane >= 5: a lane >= 5 either has its high bit set or gets it from
 * + 0x7B; a carry out of a lane >= 0x80 can only flag a neighbour while the
 * hand is already bad. */
static inline int lanes_big(const MjLanes *x) {
    uint64_t big = 0;
    for (int j = 0; j < 5; j++) big |= (x->w[j] | (x->w[j] + 0x7B * MJ_LANE_ONES)) & MJ_LANE_HIGH;
    return big != 0;
}

/* mj_check on the SWAR lanes of c (shared with the batch kernel, which goes on
 * with the same lanes); *n = number of tiles when the counts are fine. */
static inline int check_lanes(const uint8_t *c, const MjLanes *x, long k, int question, int *n,
                              int *bad) {
    if (lanes_big(x)) {
        int i = 0;
        while (i < MJ_N_KINDS - 1 && c[i] <= 4) i++; /* the first bad kind */
        *bad = i;
        return MJ_BAD_COUNT;
    }
    *n = mj_lanes_total(x);
    if (k < 0) return MJ_BAD_JOKERS;
    *bad = *n;
    if (k > MJ_MAX_TILES) return MJ_BAD_TOTAL;
    int t = *n + (int)k;
    int ok;
    if (question == MJ_Q_WIN) ok = t % 3 == 2 && t <= MJ_MAX_TILES;
    else if (question == MJ_Q_WAITS) ok = t % 3 == 1 && t <= MJ_MAX_TILES - 1;
    else ok = t % 3 != 0 && t <= MJ_MAX_TILES;
    return ok ? MJ_OK : MJ_BAD_TOTAL;
}

int mj_check(const uint8_t *c, long k, int question, int *bad) {
    MjLanes x = mj_lanes(c);
    int n;
    return check_lanes(c, &x, k, question, &n, bad);
}

/* Standard form: the group that holds the pair adds (need_pair - need_sets) to
 * the sum of need_sets; a pair of two jokers adds 2. Jokers left over are a
 * multiple of 3 because the total is 3m + 2, so they form free sets. Capped
 * nibbles (15) only occur with >= 8 tiles in a group, where k <= 6 and the sum
 * stays > k, so the cap never turns a loss into a win. */
static inline int std_from_needs(const unsigned e[4], int shift, int k) {
    int sets = 0, pair = 2;
    for (int g = 0; g < 4; g++) {
        int a = (int)(e[g] & 15u);
        sets += a;
        pair = mj_min(pair, (int)((e[g] >> shift) & 15u) - a);
    }
    return sets + pair <= k;
}

int mj_win_sets(const uint8_t *c, int k) {
    unsigned e[4];
    mj_group_needs(c, e);
    return (int)((e[0] & 15u) + (e[1] & 15u) + (e[2] & 15u) + (e[3] & 15u)) <= k;
}

int mj_win_standard(const uint8_t *c, int k, int flags) {
    unsigned e[4];
    mj_group_needs(c, e);
    return std_from_needs(e, mj_need_shift(flags & MJ_PAIR258), k);
}

/* Seven pairs: odd counts take one joker each; a kind held 4 times is two pairs. */
int mj_win_seven_pairs(const uint8_t *c, int k, int flags) {
    int n = 0, odd = 0;
    for (int i = 0; i < MJ_N_KINDS; i++) {
        n += c[i];
        odd += c[i] & 1;
    }
    if (n + k != MJ_MAX_TILES || odd > k) return 0;
    if (!(flags & MJ_PAIR258) || k - odd >= 2) return 1;
    for (int s = 0; s < 27; s += 9)
        if (c[s + 1] | c[s + 4] | c[s + 7]) return 1; /* odd ones pair with a joker */
    return 0;
}

int mj_win_orphans(const uint8_t *c, int k) {
    int n = mj_total(c), inside, dups;
    if (n + k != MJ_MAX_TILES || !mj_orphan_stats(c, &inside, &dups)) return 0;
    return inside == n && dups <= 1; /* jokers fill the gaps (and the duplicate) */
}

int mj_win_knitted(const uint8_t *c, int k) {
    unsigned masks[3];
    /* 16 - n = k + 2 members are missing, so the k jokers always find room. */
    return mj_total(c) + k == MJ_MAX_TILES && mj_knitted_masks(c, masks);
}

/* The 14-tile forms share one SWAR pass (total, odd counts, pairs) that
 * rejects most hands before any form-specific loop. */
/* Lane mask of the 13 orphan kinds (kinds 0, 8, 9, 17, 18, 26, 27..33). */
static const uint8_t ORPHAN_LANES[40] = {
    255, 0, 0, 0, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 255, 255, 0,
    0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0};

/* The special forms given the lanes and tile count n of c. */
static int special_win(const uint8_t *c, const MjLanes *x, int n, int k, int flags) {
    if (n + k != MJ_MAX_TILES) return 0;
    /* 14 tiles with odd <= k: seven pairs, unless the pair must be a 2/5/8 */
    if ((flags & MJ_SEVEN_PAIRS) && mj_lanes_odd(x) <= k &&
        (!(flags & MJ_PAIR258) || mj_win_seven_pairs(c, k, flags)))
        return 1;
    if (!(flags & (MJ_ORPHANS | MJ_KNITTED))) return 0;
    int pairs = mj_lanes_at_least(x, 2);
    if ((flags & MJ_ORPHANS) && pairs <= 1) {
        MjLanes m = mj_lanes(ORPHAN_LANES);
        uint64_t in = 0;
        for (int j = 0; j < 5; j++) in += x->w[j] & m.w[j];
        int inside = mj_lane_sum(in);
        if (inside == n && !mj_lanes_at_least(x, 3)) return 1; /* see mj_win_orphans */
    }
    return (flags & MJ_KNITTED) && pairs == 0 && mj_lanes_knitted01(x);
}

static inline int win_lanes(const uint8_t *c, const MjLanes *x, int n, int k, int flags) {
    if (mj_win_standard(c, k, flags)) return 1;
    return (flags & MJ_SPECIAL_FORMS) && special_win(c, x, n, k, flags);
}

int mj_is_win(const uint8_t *c, int k, int flags) {
    if (mj_win_standard(c, k, flags)) return 1;
    if (!(flags & MJ_SPECIAL_FORMS)) return 0;
    MjLanes x = mj_lanes(c);
    return special_win(c, &x, mj_lanes_total(&x), k, flags);
}

/* Ready = one more joker wins, i.e. some kind completes the hand (a fifth copy
 * included); bool(waits) differs only when the sole completion is a fifth copy. */
int mj_is_ready(const uint8_t *c, int k, int flags) { return mj_is_win(c, k + 1, flags); }

/* The batch kernel's row: mj_check and the answer in one pass over the counts
 * (the check's lanes and tile count feed the kernels). */
int mj_checked(const uint8_t *c, long k, int op, int flags, int64_t *answer, int *bad) {
    static const int question[4] = {MJ_Q_WIN, MJ_Q_WAITS, MJ_Q_WAITS, MJ_Q_SHANTEN};
    MjLanes x = mj_lanes(c);
    int n = 0, code = check_lanes(c, &x, k, question[op & 3], &n, bad);
    if (code != MJ_OK) return code;
    int j = (int)k; /* 0..14 once checked */
    if (op == MJ_OP_WIN) *answer = win_lanes(c, &x, n, j, flags);
    else if (op == MJ_OP_READY) *answer = win_lanes(c, &x, n, j + 1, flags);
    else if (op == MJ_OP_WAITS) *answer = (int64_t)mj_waits_n(c, n, j, flags);
    else *answer = mj_shanten_lanes(c, &x, n, j, flags);
    return MJ_OK;
}

/* One integer of `itemsize` bytes at p (native byte order, any alignment). */
static inline int load_ok(const char *p, int itemsize, int is_signed, uint8_t *out) {
    int64_t s = 0;
    uint64_t u = 0;
    if (itemsize == 1) {
        uint8_t v;
        memcpy(&v, p, 1);
        s = (int8_t)v, u = v;
    } else if (itemsize == 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        s = (int16_t)v, u = v;
    } else if (itemsize == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        s = (int32_t)v, u = v;
    } else {
        memcpy(&u, p, 8);
        s = (int64_t)u;
    }
    if (is_signed ? (s < 0 || s > 4) : u > 4) return 0;
    *out = (uint8_t)u;
    return 1;
}

int mj_load_counts(const char *p, ptrdiff_t stride, int itemsize, int is_signed, uint8_t *out,
                   int *bad) {
    for (int j = 0; j < MJ_N_KINDS; j++) {
        if (!load_ok(p + j * stride, itemsize, is_signed, out + j)) {
            *bad = j;
            return MJ_BAD_COUNT;
        }
    }
    return MJ_OK;
}

/* ---- shanten and scoring facts --------------------------------------------------------
 *
 * shanten = S - overlap - k - 1 with M = (T - 1) / 3 sets and S = 3M + 2 slots,
 * where overlap = the most real tiles that fit one complete shape of an
 * enabled form (copies unlimited, as jokers may be fifth copies). */

/* Standard form: the max-plus combination of the four groups' overlap views
 * (sets 0..4, pair absent/present) is read from two pairwise tables, suits m+p
 * and suit s + honors (see gen_tables.py); only the split of the `sets` sets
 * between the two halves is left: no[a] + yes[sets - a] and yes[a] +
 * no[sets - a]. The suit-s/honors word stores yes/no reversed, so shifting it
 * by 4 - sets nibbles lines those terms up with the m+p word: one masked
 * nibble add (values <= 14, no carries), then the largest of 10 nibbles. */
static inline int max_nibble10(uint64_t w) {
    int best = 0;
    for (int j = 0; j < 10; j++) best = mj_max(best, (int)((w >> (4 * j)) & 15u));
    return best;
}

/* The two pairwise tables and the suit view that index them, for a 2/5/8 pair or any pair. */
typedef struct {
    const uint8_t *view;
    uint32_t views;
    const uint64_t *ss, *sh;
} OverlapTables;

static inline OverlapTables overlap_tables(int pair258) {
    OverlapTables t;
    t.view = pair258 ? MJ_SUIT_VIEW_258 : MJ_SUIT_VIEW_ANY;
    t.views = pair258 ? MJ_SUIT_VIEWS_258 : MJ_SUIT_VIEWS_ANY;
    t.ss = pair258 ? MJ_PAIR_SS_258 : MJ_PAIR_SS_ANY;
    t.sh = pair258 ? MJ_PAIR_SH_258 : MJ_PAIR_SH_ANY;
    return t;
}

static int standard_overlap(const uint32_t rank[4], int sets, int pair258) {
    OverlapTables tb = overlap_tables(pair258);
    uint64_t lo = tb.ss[tb.view[rank[0]] * tb.views + tb.view[rank[1]]];
    uint64_t hi = tb.sh[tb.view[rank[2]] * MJ_HON_VECS + MJ_HON_VEC[rank[3]]];
    uint64_t half = (1ull << (4 * sets + 4)) - 1, mask = half | half << 20; /* a <= sets */
    return max_nibble10((lo & mask) + ((hi >> (4 * (4 - sets))) & mask));
}

/* Best total of the `slots` largest pair gains, n2 gains of 2 and n1 of 1. */
static inline int top_gains(int n2, int n1, int slots) {
    int a = mj_min(n2, slots);
    return 2 * a + mj_min(n1, slots - a);
}

/* Seven pairs (a kind may hold two pairs): kind with count x offers the gains
 * min(x, 2) and min(x - 2, 2), so n2 gains of 2 (kinds held twice, plus kinds held four
 * times) and n1 of 1 (kinds held an odd number of times). With 2/5/8 one pair is forced
 * onto the best 2/5/8 kind; the other six take the best remaining gains. */
/* The best gain, min(count, 2), of a suited 2/5/8 kind, kind u counted as `now` (u = -1: c
 * as it is). */
static int best_258_pair_with(const uint8_t *c, int u, int now) {
    int best = 0;
    for (int s = 0; s < 27; s += 9)
        for (int r = 1; r < 9; r += 3) best = mj_max(best, mj_min(s + r == u ? now : c[s + r], 2));
    return best;
}

static inline int best_258_pair(const uint8_t *c) { return best_258_pair_with(c, -1, 0); }

/* The same, the 2/5/8 kind's gain (best_258_pair) given. */
static inline int seven_pairs_given(int best258, int n2, int n1, int pair258) {
    if (!pair258) return top_gains(n2, n1, 7);
    if (best258 == 2) n2--;
    else if (best258 == 1) n1--;
    return best258 + top_gains(n2, n1, 6);
}

static int seven_pairs_overlap(const uint8_t *c, int n2, int n1, int pair258) {
    return seven_pairs_given(pair258 ? best_258_pair(c) : 0, n2, n1, pair258);
}

/* The 13 orphan kinds (1/9 of each suit and the 7 honors) as bits of a kind mask. */
#define MJ_ORPHAN_BITS \
    (1ull << 0 | 1ull << 8 | 1ull << 9 | 1ull << 17 | 1ull << 18 | 1ull << 26 | 0x7Full << 27)

/* Distinct orphan kinds held, plus one if any of them is held twice or more; `held` and
 * `held2` are the kinds held at least once and at least twice (mj_lanes_mask). */
static int orphans_overlap(uint64_t held, uint64_t held2) {
    return mj_popcount(held & MJ_ORPHAN_BITS) + ((held2 & MJ_ORPHAN_BITS) != 0);
}

/* 十三不靠: distinct kinds inside the 16 of the best suit/residue permutation. A suit's
 * kinds of residue r (kind % 3) are the bits 0x49 << r of its 9-bit row of `held`; their
 * number is bit-field 6..8 of (row >> r & 0x49) * 0x49 (b0 + b3 + b6 lands there, and the
 * lower fields, at most 2 << 3, never carry into it). */
static void knitted_counts(uint64_t held, int cnt[3][3]) {
    for (int s = 0; s < 3; s++) {
        unsigned row = (unsigned)(held >> (9 * s)) & 0x1FFu;
        for (int r = 0; r < 3; r++) cnt[s][r] = (int)(((row >> r & 0x49u) * 0x49u) >> 6 & 7u);
    }
}

/* knitted_overlap from knitted_counts and the number of honor kinds held. */
static int knitted_best(const int cnt[3][3], int honors) {
    static const uint8_t perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                        {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int best = 0;
    for (int p = 0; p < 6; p++)
        best = mj_max(best, cnt[0][perms[p][0]] + cnt[1][perms[p][1]] + cnt[2][perms[p][2]]);
    return mj_min(best + honors, MJ_MAX_TILES);
}

static int knitted_overlap(uint64_t held) {
    int cnt[3][3];
    knitted_counts(held, cnt);
    return knitted_best(cnt, mj_popcount(held >> 27));
}

/* The shanten of the hand c whose facts (as MjShantenBase) are given, with k jokers. */
static int shanten_of(const uint8_t *c, const MjShantenBase *b, int k) {
    int t = b->n + k, sets = (t - 1) / 3, slots = 3 * sets + 2, flags = b->flags;
    int ov = standard_overlap(b->rank, sets, flags & MJ_PAIR258);
    if (slots == MJ_MAX_TILES) {
        if (flags & MJ_SEVEN_PAIRS)
            ov = mj_max(ov, seven_pairs_overlap(c, b->n2, b->n1, flags & MJ_PAIR258));
        if (flags & MJ_ORPHANS) ov = mj_max(ov, orphans_overlap(b->held, b->held2));
        if (flags & MJ_KNITTED) ov = mj_max(ov, knitted_overlap(b->held));
    }
    return slots - ov - k - 1;
}

/* The facts of c given its lanes x and tile count n; the special forms' only if asked. */
static void shanten_facts(MjShantenBase *b, const uint8_t *c, const MjLanes *x, int n,
                          int flags, int special) {
    b->rank[0] = mj_suit_rank(c);
    b->rank[1] = mj_suit_rank(c + 9);
    b->rank[2] = mj_suit_rank(c + 18);
    b->rank[3] = mj_hon_rank(c + 27);
    b->n = n;
    b->flags = flags;
    b->n2 = b->n1 = 0;
    b->held = b->held2 = 0;
    if (!special) return;
    if (flags & MJ_SEVEN_PAIRS) {
        uint64_t two = 0, one = 0; /* lanes stay <= 10 and <= 5: no carries */
        for (int j = 0; j < 5; j++) {
            two += mj_lane_ge(x->w[j], 2) + mj_lane_ge(x->w[j], 4);
            one += x->w[j] & MJ_LANE_ONES;
        }
        b->n2 = mj_lane_sum(two);
        b->n1 = mj_lane_sum(one);
    }
    if (flags & (MJ_ORPHANS | MJ_KNITTED)) {
        b->held = mj_lanes_mask(x, 1);
        b->held2 = mj_lanes_mask(x, 2);
    }
}

int mj_shanten_lanes(const uint8_t *c, const MjLanes *x, int n, int k, int flags) {
    MjShantenBase b;
    shanten_facts(&b, c, x, n, flags, (n + k - 1) / 3 * 3 + 2 == MJ_MAX_TILES);
    return shanten_of(c, &b, k);
}

int mj_shanten(const uint8_t *c, int k, int flags) {
    MjLanes x = mj_lanes(c);
    return mj_shanten_lanes(c, &x, mj_lanes_total(&x), k, flags);
}

void mj_shanten_base(MjShantenBase *b, const uint8_t *c, int flags) {
    MjLanes x = mj_lanes(c);
    shanten_facts(b, c, &x, mj_lanes_total(&x), flags, 1);
}

/* The special forms' facts (MjShantenBase's n2, n1, held, held2) after kind u's count moves
 * from `was` to `now`. */
static inline void special_facts_step(int *n2, int *n1, uint64_t *held, uint64_t *held2, int u,
                                      int was, int now) {
    uint64_t bit = 1ull << u;
    *n2 += (now >= 2) + (now >= 4) - (was >= 2) - (was >= 4);
    *n1 += (now & 1) - (was & 1);
    *held = now ? *held | bit : *held & ~bit;
    *held2 = now >= 2 ? *held2 | bit : *held2 & ~bit;
}

int mj_shanten_after(const MjShantenBase *b, const uint8_t *c, int u, int was, int k) {
    if (u < 0) return shanten_of(c, b, k);
    MjShantenBase a = *b;
    int now = c[u];
    if (u < 27) a.rank[u / 9] = mj_suit_rank(c + u / 9 * 9);
    else a.rank[3] = mj_hon_rank(c + 27);
    a.n += now - was;
    special_facts_step(&a.n2, &a.n1, &a.held, &a.held2, u, was, now);
    return shanten_of(c, &a, k);
}

/* One group's rank after its count at position r moves by d (+1 or -1; lo, hi, a: the
 * group's keys and A entry; the count stays 0..4, so every key stays a base-5 string). */
static inline uint32_t rank_step(int g, int r, int d, uint32_t lo, uint32_t hi, uint32_t a) {
    if (g == 3)
        return r < 4 ? mj_hon_rank_a(MJ_HON_A[lo + d * (int)MJ_POW5[r]], hi)
                     : mj_hon_rank_a(a, hi + d * (int)MJ_POW5[r - 4]);
    return r < 5 ? mj_suit_rank_a(MJ_SUIT_A[lo + d * (int)MJ_POW5[r]], hi)
                 : mj_suit_rank_a(a, hi + d * (int)MJ_POW5[r - 5]);
}

/* mj_shanten_draws (d = +1) and mj_shanten_discards (d = -1): what a change of one kind
 * leaves alone (the other groups' words, the special forms' facts) is read once a row. */
static void shanten_row(const MjShantenBase *b, const uint8_t *c, uint64_t kinds, int k, int d,
                        int8_t *out) {
    int t = b->n + d + k, sets = (t - 1) / 3, slots = 3 * sets + 2, flags = b->flags;
    int p258 = flags & MJ_PAIR258, down = 4 * (4 - sets);
    int special = slots == MJ_MAX_TILES && (flags & (MJ_SEVEN_PAIRS | MJ_ORPHANS | MJ_KNITTED));
    OverlapTables tb = overlap_tables(p258);
    const uint8_t *view = tb.view;
    const uint64_t *ss = tb.ss, *sh = tb.sh;
    uint32_t views = tb.views;
    uint64_t half = (1ull << (4 * sets + 4)) - 1, mask = half | half << 20;
    uint32_t v0 = view[b->rank[0]], v1 = view[b->rank[1]], v2 = view[b->rank[2]];
    uint32_t hv = MJ_HON_VEC[b->rank[3]];
    /* standard_overlap's two words: suits m+p, and suit s + honors shifted into line */
    uint64_t lo_word = ss[v0 * views + v1] & mask;
    uint64_t hi_word = (sh[v2 * MJ_HON_VECS + hv] >> down) & mask;
    uint32_t lo[4], hi[4], a[4];
    for (int g = 0; g < 3; g++) {
        lo[g] = mj_suit_lo(c + 9 * g);
        hi[g] = mj_suit_hi(c + 9 * g);
        a[g] = MJ_SUIT_A[lo[g]];
    }
    lo[3] = mj_hon_lo(c + 27);
    hi[3] = mj_hon_hi(c + 27);
    a[3] = MJ_HON_A[lo[3]];
    int best258 = special && p258 ? best_258_pair(c) : 0;
    int knitted = 0, honors = 0, cnt[3][3]; /* 十三不靠: a kind leaving or joining moves one count */
    if (special && (flags & MJ_KNITTED)) {
        knitted_counts(b->held, cnt);
        honors = mj_popcount(b->held >> 27);
        knitted = knitted_best(cnt, honors);
    }
    for (uint64_t bits = kinds; bits; bits &= bits - 1) {
        int u = __builtin_ctzll(bits), g = u < 27 ? u / 9 : 3, r = u - 9 * g;
        uint32_t rank = rank_step(g, r, d, lo[g], hi[g], a[g]);
        uint64_t l = lo_word, h = hi_word;
        if (g == 0) l = ss[view[rank] * views + v1] & mask;
        else if (g == 1) l = ss[v0 * views + view[rank]] & mask;
        else if (g == 2) h = (sh[view[rank] * MJ_HON_VECS + hv] >> down) & mask;
        else h = (sh[v2 * MJ_HON_VECS + MJ_HON_VEC[rank]] >> down) & mask;
        int ov = max_nibble10(l + h);
        if (special) {
            int was = c[u], now = was + d;
            int n2 = b->n2, n1 = b->n1;
            uint64_t held = b->held, held2 = b->held2;
            special_facts_step(&n2, &n1, &held, &held2, u, was, now);
            if (flags & MJ_SEVEN_PAIRS) {
                int pair = best258;
                if (p258 && mj_is258(u) && mj_min(now, 2) != mj_min(was, 2))
                    pair = d > 0 ? mj_max(best258, mj_min(now, 2)) : best_258_pair_with(c, u, now);
                ov = mj_max(ov, seven_pairs_given(pair, n2, n1, p258));
            }
            if (flags & MJ_ORPHANS) ov = mj_max(ov, orphans_overlap(held, held2));
            if (flags & MJ_KNITTED) {
                int step = (held != b->held) * d; /* +1 a kind joins, -1 one leaves, else 0 */
                if (!step) ov = mj_max(ov, knitted);
                else if (u >= 27) ov = mj_max(ov, knitted_best(cnt, honors + step));
                else {
                    int *at = &cnt[u / 9][u % 9 % 3];
                    *at += step;
                    ov = mj_max(ov, knitted_best(cnt, honors));
                    *at -= step;
                }
            }
        }
        out[u] = (int8_t)(slots - ov - k - 1);
    }
}

void mj_shanten_draws(const MjShantenBase *b, const uint8_t *c, uint64_t draws, int k,
                      int8_t *out) {
    shanten_row(b, c, draws, k, 1, out);
}

void mj_shanten_discards(const MjShantenBase *b, const uint8_t *c, uint64_t discards, int k,
                         int8_t *out) {
    shanten_row(b, c, discards, k, -1, out);
}

/* Kinds that can be the pair of a standard decomposition: take the pair out
 * (natural copies first, jokers for the rest) and check sets only. */
uint64_t mj_pair_kinds(const uint8_t *c, int k, int flags) {
    uint8_t h[MJ_N_KINDS];
    uint64_t mask = 0;
    for (int i = 0; i < MJ_N_KINDS; i++) h[i] = c[i];
    for (int t = 0; t < MJ_N_KINDS; t++) {
        if ((flags & MJ_PAIR258) && !mj_is258(t)) continue;
        int nat = mj_min(c[t], 2), left = k - (2 - nat);
        if (left < 0) continue;
        h[t] = (uint8_t)(c[t] - nat);
        if (mj_win_sets(h, left)) mask |= 1ull << t;
        h[t] = c[t];
    }
    return mask;
}

/* All sets pungs: per count x, jokers to make pungs only / to hold the pair. */
int mj_all_triplets(const uint8_t *c, int k, int flags) {
    static const int pung[5] = {0, 2, 1, 0, 2}, pair[5] = {2, 1, 0, 2, 1};
    int sets = 0, extra = 2; /* a pair of two jokers */
    for (int t = 0; t < MJ_N_KINDS; t++) {
        sets += pung[c[t]];
        if (!(flags & MJ_PAIR258) || mj_is258(t)) extra = mj_min(extra, pair[c[t]] - pung[c[t]]);
    }
    return sets + extra <= k;
}

size_t mj_table_bytes(void) {
    return sizeof MJ_SUIT_A + sizeof MJ_SUIT_B + sizeof MJ_SUIT_NEED + sizeof MJ_HON_A +
           sizeof MJ_HON_B + sizeof MJ_HON_NEED + sizeof MJ_HON_VEC + sizeof MJ_SUIT_VIEW_ANY +
           sizeof MJ_PAIR_SS_ANY + sizeof MJ_PAIR_SH_ANY + sizeof MJ_SUIT_VIEW_258 +
           sizeof MJ_PAIR_SS_258 + sizeof MJ_PAIR_SH_258;
}

const char *mj_table_checksum(void) { return MJ_TABLES_CHECKSUM; }
