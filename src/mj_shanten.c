/* Shanten and scoring-fact kernels (see mj_hand.h for the preconditions).
 *
 * shanten = S - overlap - k - 1 with M = (T - 1) / 3 sets and S = 3M + 2 slots,
 * where overlap = the most real tiles that fit one complete shape of an
 * enabled form (copies unlimited, as jokers may be fifth copies). */
#include "mj_hand.h"

#include "mj_groups.h"

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

static int standard_overlap(const uint8_t *c, int sets, int pair258) {
    uint32_t h = MJ_HON_VEC[mj_hon_rank(c + 27)];
    uint64_t lo, hi;
    if (pair258) {
        const uint8_t *v = MJ_SUIT_VIEW_258;
        lo = MJ_PAIR_SS_258[v[mj_suit_rank(c)] * MJ_SUIT_VIEWS_258 + v[mj_suit_rank(c + 9)]];
        hi = MJ_PAIR_SH_258[v[mj_suit_rank(c + 18)] * MJ_HON_VECS + h];
    } else {
        const uint8_t *v = MJ_SUIT_VIEW_ANY;
        lo = MJ_PAIR_SS_ANY[v[mj_suit_rank(c)] * MJ_SUIT_VIEWS_ANY + v[mj_suit_rank(c + 9)]];
        hi = MJ_PAIR_SH_ANY[v[mj_suit_rank(c + 18)] * MJ_HON_VECS + h];
    }
    uint64_t half = (1ull << (4 * sets + 4)) - 1, mask = half | half << 20; /* a <= sets */
    return max_nibble10((lo & mask) + ((hi >> (4 * (4 - sets))) & mask));
}

/* Best total of the `slots` largest pair gains, n2 gains of 2 and n1 of 1. */
static inline int top_gains(int n2, int n1, int slots) {
    int a = mj_min(n2, slots);
    return 2 * a + mj_min(n1, slots - a);
}

/* Seven pairs (a kind may hold two pairs): kind with count x offers the gains
 * min(x, 2) and min(x - 2, 2). With 2/5/8 one pair is forced onto the best
 * 2/5/8 kind; the other six take the best remaining gains. */
static int seven_pairs_overlap(const uint8_t *c, const MjLanes *x, int pair258) {
    uint64_t two = 0, one = 0; /* lanes stay <= 10 and <= 5: no carries */
    for (int j = 0; j < 5; j++) {
        two += mj_lane_ge(x->w[j], 2) + mj_lane_ge(x->w[j], 4);
        one += x->w[j] & MJ_LANE_ONES;
    }
    int n2 = mj_lane_sum(two), n1 = mj_lane_sum(one), best258 = 0;
    if (!pair258) return top_gains(n2, n1, 7);
    for (int s = 0; s < 27; s += 9)
        for (int r = 1; r < 9; r += 3) best258 = mj_max(best258, mj_min(c[s + r], 2));
    if (best258 == 2) n2--;
    else if (best258 == 1) n1--;
    return best258 + top_gains(n2, n1, 6);
}

static int orphans_overlap(const uint8_t *c) {
    int distinct = 0, dup = 0;
    for (int j = 0; j < 13; j++) {
        distinct += c[MJ_ORPHAN_KINDS[j]] > 0;
        dup |= c[MJ_ORPHAN_KINDS[j]] > 1;
    }
    return distinct + dup;
}

/* 十三不靠: distinct kinds inside the 16 of the best suit/residue permutation. */
static int knitted_overlap(const uint8_t *c) {
    static const uint8_t perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                        {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int cnt[3][3] = {{0}}, honors = 0, best = 0;
    for (int t = 0; t < 27; t++) cnt[t / 9][t % 9 % 3] += c[t] > 0;
    for (int t = 27; t < MJ_N_KINDS; t++) honors += c[t] > 0;
    for (int p = 0; p < 6; p++)
        best = mj_max(best, cnt[0][perms[p][0]] + cnt[1][perms[p][1]] + cnt[2][perms[p][2]]);
    return mj_min(best + honors, MJ_MAX_TILES);
}

int mj_shanten_lanes(const uint8_t *c, const MjLanes *x, int n, int k, int flags) {
    int t = n + k, sets = (t - 1) / 3, slots = 3 * sets + 2;
    int ov = standard_overlap(c, sets, flags & MJ_PAIR258);
    if (slots == MJ_MAX_TILES) {
        if (flags & MJ_SEVEN_PAIRS) ov = mj_max(ov, seven_pairs_overlap(c, x, flags & MJ_PAIR258));
        if (flags & MJ_ORPHANS) ov = mj_max(ov, orphans_overlap(c));
        if (flags & MJ_KNITTED) ov = mj_max(ov, knitted_overlap(c));
    }
    return slots - ov - k - 1;
}

int mj_shanten(const uint8_t *c, int k, int flags) {
    MjLanes x = mj_lanes(c);
    return mj_shanten_lanes(c, &x, mj_lanes_total(&x), k, flags);
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
