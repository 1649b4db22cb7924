/* Waits: incremental over the standard form (only the group of the added tile
 * is looked up again), closed forms for seven pairs / orphans / knitted. */
#include "mj_hand.h"

#include "mj_groups.h"

#define SUIT_BITS 0x1FFu

/* Ranks that can be a wait of a suit without jokers: within 2 of a held tile. */
static inline unsigned near_ranks(const uint8_t *c) {
    unsigned occ = 0;
    for (int r = 0; r < 9; r++)
        if (c[r]) occ |= 1u << r;
    return (occ | occ << 1 | occ << 2 | occ >> 1 | occ >> 2) & SUIT_BITS;
}

typedef struct {
    uint32_t lo[4], hi[4], a[4]; /* keys and A entries of the 4 groups */
    int sets[4], pair[4];        /* need (sets only) and need(pair) - need(sets) */
    int shift, k;
} Needs;

static void needs_init(Needs *s, const uint8_t *c, int k, int flags) {
    s->shift = mj_need_shift(flags & MJ_PAIR258);
    s->k = k;
    for (int g = 0; g < 4; g++) {
        unsigned e;
        if (g < 3) {
            s->lo[g] = mj_suit_lo(c + 9 * g);
            s->hi[g] = mj_suit_hi(c + 9 * g);
            s->a[g] = MJ_SUIT_A[s->lo[g]];
            e = MJ_SUIT_NEED[mj_suit_rank_a(s->a[g], s->hi[g])];
        } else {
            s->lo[g] = mj_hon_lo(c + 27);
            s->hi[g] = mj_hon_hi(c + 27);
            s->a[g] = MJ_HON_A[s->lo[g]];
            e = MJ_HON_NEED[mj_hon_rank_a(s->a[g], s->hi[g])];
        }
        s->sets[g] = (int)(e & 15u);
        s->pair[g] = (int)((e >> s->shift) & 15u) - s->sets[g];
    }
}

/* NEED entry of group g after adding one tile of its position r (count < 4). */
static inline unsigned need_plus(const Needs *s, int g, int r) {
    if (g == 3) {
        if (r < 4) return MJ_HON_NEED[mj_hon_rank_a(MJ_HON_A[s->lo[3] + MJ_POW5[r]], s->hi[3])];
        return MJ_HON_NEED[mj_hon_rank_a(s->a[3], s->hi[3] + MJ_POW5[r - 4])];
    }
    if (r < 5) return MJ_SUIT_NEED[mj_suit_rank_a(MJ_SUIT_A[s->lo[g] + MJ_POW5[r]], s->hi[g])];
    return MJ_SUIT_NEED[mj_suit_rank_a(s->a[g], s->hi[g] + MJ_POW5[r - 5])];
}

static uint64_t standard_waits(const uint8_t *c, int k, int flags) {
    Needs s;
    needs_init(&s, c, k, flags);
    int all_sets = s.sets[0] + s.sets[1] + s.sets[2] + s.sets[3];
    uint64_t w = 0;
    for (int g = 0; g < 4; g++) {
        int rest = all_sets - s.sets[g], rest_pair = 2;
        for (int h = 0; h < 4; h++)
            if (h != g) rest_pair = mj_min(rest_pair, s.pair[h]);
        /* need_sets >= 0 and need_pair - need_sets >= -1 (a pair plus one joker
         * is a pung), so the total is at least rest - 1: prune hopeless groups. */
        if (rest - 1 > k) continue;
        const uint8_t *cg = c + 9 * g;
        int len = g < 3 ? 9 : 7;
        unsigned cand;
        if (k) cand = (1u << len) - 1;
        else if (g < 3) cand = near_ranks(cg);
        else {
            cand = 0;
            for (int r = 0; r < 7; r++)
                if (cg[r]) cand |= 1u << r;
        }
        for (int r = 0; r < len; r++) {
            if (!(cand >> r & 1u) || cg[r] >= 4) continue;
            unsigned e = need_plus(&s, g, r);
            int sets = (int)(e & 15u), pair = (int)((e >> s.shift) & 15u) - sets;
            if (rest + sets + mj_min(pair, rest_pair) <= k) w |= 1ull << (9 * g + r);
        }
    }
    return w;
}

/* Seven pairs with T = 13: adding t changes the number of odd counts by -1/+1,
 * so nothing waits unless odd - 1 <= k (the common early exit). */
static uint64_t seven_pairs_waits(const uint8_t *c, int k, int flags) {
    MjLanes x = mj_lanes(c);
    int odd = mj_lanes_odd(&x);
    if (odd - 1 > k) return 0;
    int any258 = 0;
    for (int s = 0; s < 27; s += 9) any258 |= c[s + 1] | c[s + 4] | c[s + 7];
    uint64_t w = 0;
    for (int t = 0; t < MJ_N_KINDS; t++) {
        int odd2 = (c[t] & 1) ? odd - 1 : odd + 1;
        if (odd2 > k) continue;
        if ((flags & MJ_PAIR258) && !(any258 || mj_is258(t) || k - odd2 >= 2)) continue;
        w |= 1ull << t;
    }
    return w;
}

static uint64_t orphans_waits(const uint8_t *c) {
    int inside, dups;
    if (!mj_orphan_stats(c, &inside, &dups) || inside != mj_total(c) || dups > 1) return 0;
    uint64_t w = 0;
    for (int j = 0; j < 13; j++) {
        int t = MJ_ORPHAN_KINDS[j];
        if (c[t] == 0 || (c[t] == 1 && dups == 0)) w |= 1ull << t;
    }
    return w;
}

/* A missing kind is a wait if its suit's residue class stays single and distinct. */
static uint64_t knitted_waits(const uint8_t *c) {
    unsigned m[3];
    if (!mj_knitted_masks(c, m)) return 0;
    uint64_t w = 0;
    for (int t = 0; t < MJ_N_KINDS; t++) {
        if (c[t]) continue;
        if (t < 27) {
            int s = t / 9;
            unsigned bit = 1u << (t % 9 % 3);
            if (m[s] && m[s] != bit) continue;
            if (m[(s + 1) % 3] == bit || m[(s + 2) % 3] == bit) continue;
        }
        w |= 1ull << t;
    }
    return w;
}

uint64_t mj_waits_n(const uint8_t *c, int n, int k, int flags) {
    uint64_t w = standard_waits(c, k, flags);
    if (flags & (MJ_SEVEN_PAIRS | MJ_ORPHANS | MJ_KNITTED)) {
        if (n + k == MJ_MAX_TILES - 1) {
            if (flags & MJ_SEVEN_PAIRS) w |= seven_pairs_waits(c, k, flags);
            if (flags & MJ_ORPHANS) w |= orphans_waits(c);
            if (flags & MJ_KNITTED) w |= knitted_waits(c);
        }
    }
    for (uint64_t bits = w; bits; bits &= bits - 1) { /* drop kinds held 4 times */
        int t = __builtin_ctzll(bits);
        if (c[t] >= 4) w &= ~(1ull << t);
    }
    return w;
}

uint64_t mj_waits(const uint8_t *c, int k, int flags) {
    int n = flags & (MJ_SEVEN_PAIRS | MJ_ORPHANS | MJ_KNITTED) ? mj_total(c) : 0;
    return mj_waits_n(c, n, k, flags);
}
