/* numpy's default generator, bit for bit, for the few draws a game makes.
 *
 * numpy.random.default_rng(seed) is SeedSequence(seed) -> PCG64 (XSL-RR 128/64); a wall is
 * Generator.permutation (Fisher-Yates over random_interval) and a bot's pick is
 * Generator.integers(n) (Lemire's bounded method on 32-bit draws). Building that Generator
 * costs ~30 us in numpy, which is most of a simulated hand's set-up; these functions give the
 * same numbers in well under a microsecond. tests/test_random.py checks them against numpy.
 */
#ifndef MJ_RANDOM_H
#define MJ_RANDOM_H

#include <stdint.h>

#define MJ_SS_POOL 4
#define MJ_SS_INIT_A 0x43b0d7e5u
#define MJ_SS_MULT_A 0x931e8875u
#define MJ_SS_INIT_B 0x8b51f9ddu
#define MJ_SS_MULT_B 0x58f38dedu
#define MJ_SS_MIX_L 0xca01f9ddu
#define MJ_SS_MIX_R 0x4973f715u
#define MJ_SS_XSHIFT 16

typedef struct {
    __uint128_t state, inc;
    int has_uint32;
    uint32_t uinteger;
} mj_pcg64;

static inline uint32_t mj_ss_hashmix(uint32_t value, uint32_t *hash_const) {
    value ^= *hash_const;
    *hash_const *= MJ_SS_MULT_A;
    value *= *hash_const;
    value ^= value >> MJ_SS_XSHIFT;
    return value;
}

static inline uint32_t mj_ss_mix(uint32_t x, uint32_t y) {
    uint32_t r = MJ_SS_MIX_L * x - MJ_SS_MIX_R * y;
    return r ^ (r >> MJ_SS_XSHIFT);
}

/* SeedSequence's entropy pool from the assembled entropy words (run entropy padded, then the
 * spawn key), then generate_state(n_out) as uint32 words. */
static inline void mj_seedseq_state(const uint32_t *entropy, int n, uint32_t *out, int n_out) {
    uint32_t pool[MJ_SS_POOL], hc = MJ_SS_INIT_A;
    int i, j;
    for (i = 0; i < MJ_SS_POOL; i++) pool[i] = mj_ss_hashmix(i < n ? entropy[i] : 0, &hc);
    for (i = 0; i < MJ_SS_POOL; i++)
        for (j = 0; j < MJ_SS_POOL; j++)
            if (i != j) pool[j] = mj_ss_mix(pool[j], mj_ss_hashmix(pool[i], &hc));
    for (i = MJ_SS_POOL; i < n; i++)
        for (j = 0; j < MJ_SS_POOL; j++) pool[j] = mj_ss_mix(pool[j], mj_ss_hashmix(entropy[i], &hc));
    hc = MJ_SS_INIT_B;
    for (i = 0; i < n_out; i++) {
        uint32_t v = pool[i % MJ_SS_POOL] ^ hc;
        hc *= MJ_SS_MULT_B;
        v *= hc;
        out[i] = v ^ (v >> MJ_SS_XSHIFT);
    }
}

#define MJ_PCG_MULT \
    (((__uint128_t)0x2360ED051FC65DA4ULL << 64) | (__uint128_t)0x4385DF649FCCF645ULL)

/* PCG64(SeedSequence): generate_state(4, uint64) = 8 uint32 words, low word first. */
static inline void mj_pcg64_seed(mj_pcg64 *g, const uint32_t w[8]) {
    uint64_t v[4];
    int i;
    for (i = 0; i < 4; i++) v[i] = (uint64_t)w[2 * i] | ((uint64_t)w[2 * i + 1] << 32);
    __uint128_t seed = ((__uint128_t)v[0] << 64) | v[1];
    __uint128_t inc = ((__uint128_t)v[2] << 64) | v[3];
    g->inc = (inc << 1) | 1u;
    g->state = g->inc; /* 0 * MULT + inc */
    g->state += seed;
    g->state = g->state * MJ_PCG_MULT + g->inc;
    g->has_uint32 = 0;
    g->uinteger = 0;
}

static inline uint64_t mj_pcg64_next64(mj_pcg64 *g) {
    g->state = g->state * MJ_PCG_MULT + g->inc;
    uint64_t x = (uint64_t)(g->state >> 64) ^ (uint64_t)g->state;
    unsigned r = (unsigned)(g->state >> 122);
    return (x >> r) | (x << ((64 - r) & 63));
}

static inline uint32_t mj_pcg64_next32(mj_pcg64 *g) {
    if (g->has_uint32) {
        g->has_uint32 = 0;
        return g->uinteger;
    }
    uint64_t next = mj_pcg64_next64(g);
    g->has_uint32 = 1;
    g->uinteger = (uint32_t)(next >> 32);
    return (uint32_t)next;
}

/* random_interval: uniform in [0, max] by masked rejection (what shuffle uses). */
static inline uint64_t mj_pcg64_interval(mj_pcg64 *g, uint64_t max) {
    uint64_t mask = max, value;
    if (max == 0) return 0;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    if (max <= 0xffffffffULL) {
        while ((value = (mj_pcg64_next32(g) & mask)) > max) {
        }
    } else {
        while ((value = (mj_pcg64_next64(g) & mask)) > max) {
        }
    }
    return value;
}

/* Generator.permutation of n bytes in place: Fisher-Yates from the end, each j by
 * random_interval(i) as above. The generator is worked on in a local copy (the bytes may
 * alias it, so the compiler would otherwise store it back after every swap), and the mask
 * of the shrinking bound is stepped down instead of recomputed. */
static inline void mj_pcg64_shuffle_bytes(mj_pcg64 *gen, unsigned char *p, uint64_t n) {
    mj_pcg64 g = *gen;
    uint64_t i, j, mask = 0;
    unsigned char c;
    if (n < 2) return;
    if (n - 1 > 0xffffffffULL) { /* (64-bit draws: never a wall) */
        for (i = n - 1; i > 0; i--) {
            j = mj_pcg64_interval(gen, i);
            c = p[i];
            p[i] = p[j];
            p[j] = c;
        }
        return;
    }
    while (mask < n - 1) mask = (mask << 1) | 1u;
    for (i = n - 1; i > 0; i--) {
        while ((mask >> 1) >= i) mask >>= 1;
        while ((j = (mj_pcg64_next32(&g) & mask)) > i) {
        }
        c = p[i];
        p[i] = p[j];
        p[j] = c;
    }
    *gen = g;
}

/* Generator.integers(n) for 1 <= n <= 2**32 (int64 result): Lemire on 32-bit draws. */
static inline uint64_t mj_pcg64_below(mj_pcg64 *g, uint64_t n) {
    uint64_t rng = n - 1;
    if (rng == 0) return 0;
    if (rng == 0xffffffffULL) return mj_pcg64_next32(g);
    uint32_t excl = (uint32_t)rng + 1u;
    uint64_t m = (uint64_t)mj_pcg64_next32(g) * excl;
    uint32_t leftover = (uint32_t)m;
    if (leftover < excl) {
        uint32_t threshold = (uint32_t)(0xffffffffu - (uint32_t)rng) % excl;
        while (leftover < threshold) {
            m = (uint64_t)mj_pcg64_next32(g) * excl;
            leftover = (uint32_t)m;
        }
    }
    return m >> 32;
}

/* The state as numpy's PCG64.state holds it: state and inc as (high, low) 64-bit halves. */
static inline void mj_pcg64_get(const mj_pcg64 *g, uint64_t out[4]) {
    out[0] = (uint64_t)(g->state >> 64);
    out[1] = (uint64_t)g->state;
    out[2] = (uint64_t)(g->inc >> 64);
    out[3] = (uint64_t)g->inc;
}

/* The inverse of mj_pcg64_get, with the buffered half-draw (a pickled generator restored). */
static inline void mj_pcg64_set(mj_pcg64 *g, const uint64_t in[4], int has_uint32,
                                uint32_t uinteger) {
    g->state = ((__uint128_t)in[0] << 64) | in[1];
    g->inc = ((__uint128_t)in[2] << 64) | in[3];
    g->has_uint32 = has_uint32;
    g->uinteger = uinteger;
}

#endif
