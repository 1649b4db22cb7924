/* Win and waits kernels (see mj_hand.h for the preconditions). */
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
