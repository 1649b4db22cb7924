/* Private helpers shared by the kernels: group keys and table lookups.
 * A group is one suit (9 counts) or the honors (7 counts); see gen_tables.py. */
#ifndef MJ_GROUPS_H
#define MJ_GROUPS_H

#include <stdint.h>
#include <string.h>

#include "mj_tables.h"

#define MJ_RANK_MASK 0xFFFFFFu

static const uint32_t MJ_POW5[5] = {1u, 5u, 25u, 125u, 625u};

/* Base-5 keys of ranks 1..5 and 6..9 of a suit (rank 1 least significant). */
static inline uint32_t mj_suit_lo(const uint8_t *c) {
    return c[0] + 5u * (c[1] + 5u * (c[2] + 5u * (c[3] + 5u * c[4])));
}
static inline uint32_t mj_suit_hi(const uint8_t *c) {
    return c[5] + 5u * (c[6] + 5u * (c[7] + 5u * c[8]));
}
/* Rank of a suit key from its A entry and high key (two lookups, always in bounds
 * for digits 0..4: A >> 24 <= 20 and B has 21 rows). */
static inline uint32_t mj_suit_rank_a(uint32_t a, uint32_t hi) {
    return (a & MJ_RANK_MASK) + MJ_SUIT_B[(a >> 24) * 625u + hi];
}
static inline uint32_t mj_suit_rank(const uint8_t *c) {
    return mj_suit_rank_a(MJ_SUIT_A[mj_suit_lo(c)], mj_suit_hi(c));
}

static inline uint32_t mj_hon_lo(const uint8_t *c) {
    return c[0] + 5u * (c[1] + 5u * (c[2] + 5u * c[3]));
}
static inline uint32_t mj_hon_hi(const uint8_t *c) { return c[4] + 5u * (c[5] + 5u * c[6]); }
static inline uint32_t mj_hon_rank_a(uint32_t a, uint32_t hi) {
    return (a & MJ_RANK_MASK) + MJ_HON_B[(a >> 24) * 125u + hi];
}
static inline uint32_t mj_hon_rank(const uint8_t *c) {
    return mj_hon_rank_a(MJ_HON_A[mj_hon_lo(c)], mj_hon_hi(c));
}

/* NEED entries of the four groups of a hand (suits m, p, s, then honors). */
static inline void mj_group_needs(const uint8_t *c, unsigned e[4]) {
    e[0] = MJ_SUIT_NEED[mj_suit_rank(c)];
    e[1] = MJ_SUIT_NEED[mj_suit_rank(c + 9)];
    e[2] = MJ_SUIT_NEED[mj_suit_rank(c + 18)];
    e[3] = MJ_HON_NEED[mj_hon_rank(c + 27)];
}

/* Nibble offset of the pair column in NEED: 4 = any pair, 8 = 2/5/8 pair. */
static inline int mj_need_shift(int pair258) { return pair258 ? 8 : 4; }

static inline int mj_min(int a, int b) { return a < b ? a : b; }
static inline int mj_max(int a, int b) { return a > b ? a : b; }

static inline int mj_is258(int t) { return t < 27 && (t % 9 == 1 || t % 9 == 4 || t % 9 == 7); }

/* Thirteen orphans: 1/9 of each suit and the 7 honors. */
static const uint8_t MJ_ORPHAN_KINDS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

/* Orphan tiles held and kinds held twice; 0 when a kind is held 3+ times. */
static inline int mj_orphan_stats(const uint8_t *c, int *inside, int *dups) {
    *inside = *dups = 0;
    for (int j = 0; j < 13; j++) {
        int v = c[MJ_ORPHAN_KINDS[j]];
        if (v > 2) return 0;
        *dups += v == 2;
        *inside += v;
    }
    return 1;
}

/* Residue masks (rank % 3) of the suits for 十三不靠; 0 when a count exceeds 1,
 * a suit mixes residues or two suits share one. */
static inline int mj_knitted_masks(const uint8_t *c, unsigned m[3]) {
    for (int i = 27; i < 34; i++)
        if (c[i] > 1) return 0;
    for (int s = 0; s < 3; s++) {
        m[s] = 0;
        for (int r = 0; r < 9; r++) {
            if (c[9 * s + r] > 1) return 0;
            if (c[9 * s + r]) m[s] |= 1u << (r % 3);
        }
        if (m[s] & (m[s] - 1)) return 0;
    }
    return !((m[0] && (m[0] == m[1] || m[0] == m[2])) || (m[1] && m[1] == m[2]));
}

/* SWAR view of the 34 counts: 5 words of 8 byte lanes (the last one holds
 * kinds 32, 33 and zero padding). Lanes are 0..4, so lane + 0x7C..0x7F never
 * carries into the next lane. */
typedef struct {
    uint64_t w[5];
} MjLanes;

#define MJ_LANE_ONES 0x0101010101010101ull
#define MJ_LANE_HIGH 0x8080808080808080ull

static inline MjLanes mj_lanes(const uint8_t *c) {
    MjLanes x;
    memcpy(x.w, c, 32); /* lane order is irrelevant: only sums and counts are taken */
    x.w[4] = (uint64_t)c[32] | (uint64_t)c[33] << 8;
    return x;
}
/* Sum of the lanes of a word whose lanes are small enough (sum <= 255): the
 * top byte of w * 0x0101... (portable, no popcount instruction needed). */
static inline int mj_lane_sum(uint64_t w) { return (int)((w * MJ_LANE_ONES) >> 56); }
/* The lane-wise sums below add the 5 words first (lanes stay <= 5 * 4 = 20,
 * so nothing carries) and take one horizontal sum. */
static inline int mj_lanes_total(const MjLanes *x) {
    return mj_lane_sum(x->w[0] + x->w[1] + x->w[2] + x->w[3] + x->w[4]);
}
/* Number of kinds held an odd number of times. */
static inline int mj_lanes_odd(const MjLanes *x) {
    return mj_lane_sum((x->w[0] & MJ_LANE_ONES) + (x->w[1] & MJ_LANE_ONES) +
                       (x->w[2] & MJ_LANE_ONES) + (x->w[3] & MJ_LANE_ONES) +
                       (x->w[4] & MJ_LANE_ONES));
}
/* Lanes 1 where the count is at least v (1 <= v <= 4), else 0. */
static inline uint64_t mj_lane_ge(uint64_t w, int v) {
    return ((w + (uint64_t)(0x80 - v) * MJ_LANE_ONES) & MJ_LANE_HIGH) >> 7;
}
/* Number of kinds held at least v times (1 <= v <= 4). */
static inline int mj_lanes_at_least(const MjLanes *x, int v) {
    return mj_lane_sum(mj_lane_ge(x->w[0], v) + mj_lane_ge(x->w[1], v) + mj_lane_ge(x->w[2], v) +
                       mj_lane_ge(x->w[3], v) + mj_lane_ge(x->w[4], v));
}

/* Bit i of the result = count c[8 j + i] of a word w[j] whose lanes are 0 or
 * 1 (the 8 partial products land on distinct bits, so nothing carries). */
static inline unsigned mj_lane_bits(uint64_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w); /* mj_lanes copies bytes: lane order follows memory */
#endif
    return (unsigned)((w * 0x0102040810204080ull) >> 56);
}
/* Bit t of the result = kind t is held at least v times (1 <= v <= 4). */
static inline uint64_t mj_lanes_mask(const MjLanes *x, int v) {
    uint64_t occ = 0;
    for (int j = 0; j < 5; j++) occ |= (uint64_t)mj_lane_bits(mj_lane_ge(x->w[j], v)) << (8 * j);
    return occ;
}
/* Number of set bits (portable: no popcount instruction needed). */
static inline int mj_popcount(uint64_t v) {
    v -= (v >> 1) & 0x5555555555555555ull;
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((v * MJ_LANE_ONES) >> 56);
}
/* 十三不靠 on a hand whose counts are all 0 or 1: the held suited kinds of
 * each suit lie in one residue class (kind % 3, as 9 % 3 == 0) and no two
 * suits share a class; the honors are free. */
static inline int mj_lanes_knitted01(const MjLanes *x) {
    uint64_t occ = mj_lanes_mask(x, 1);
    unsigned rows[3], used = 0;
    for (int s = 0; s < 3; s++) {
        unsigned r = (unsigned)(occ >> (9 * s)) & 0x1FFu;
        rows[s] = (r | r >> 3 | r >> 6) & 7u;
        if ((rows[s] & (rows[s] - 1)) || (rows[s] & used)) return 0;
        used |= rows[s];
    }
    return 1;
}

static inline int mj_total(const uint8_t *c) {
    MjLanes x = mj_lanes(c);
    return mj_lanes_total(&x);
}

/* What the shanten of a hand is read from, kept so that the shanten after one kind's count
 * changes costs one group's rank, not four (the bots' loops over draws and discards). */
typedef struct {
    uint32_t rank[4];     /* ranks of suits m, p, s and of the honors */
    uint64_t held, held2; /* kinds held at least once / twice (the 14-tile special forms) */
    int n, n2, n1;        /* tiles; seven pairs' gains of 2 and of 1 (seven_pairs_overlap) */
    int flags;
} MjShantenBase;

/* The facts of hand c (any size: the special forms' are always kept). */
void mj_shanten_base(MjShantenBase *b, const uint8_t *c, int flags);
/* The shanten with k jokers of hand c, which is b's hand with kind u's count changed from
 * `was` to c[u] (u = -1: b's hand itself). Equal to mj_shanten(c, k, b->flags). */
int mj_shanten_after(const MjShantenBase *b, const uint8_t *c, int u, int was, int k);
/* For each kind u of `draws` (each held at most 3 times in c): the shanten with k jokers of
 * b's hand c plus one u, into out[u]; = mj_shanten_after after c[u] += 1, a draw row at a time
 * (what a draw leaves alone is looked up once). */
void mj_shanten_draws(const MjShantenBase *b, const uint8_t *c, uint64_t draws, int k,
                      int8_t *out);
/* The same for one tile fewer of each kind u of `discards` (each held at least once). */
void mj_shanten_discards(const MjShantenBase *b, const uint8_t *c, uint64_t discards, int k,
                         int8_t *out);

/* Kernels given what the batch check already computed: the lanes x of c and
 * its tile count n (mj_waits / mj_shanten compute them themselves). */
uint64_t mj_waits_n(const uint8_t *c, int n, int k, int flags);
int mj_shanten_lanes(const uint8_t *c, const MjLanes *x, int n, int k, int flags);

#endif
