/* Native hand kernels of mjcore: win, waits, shanten and scoring facts on raw counts.
 *
 * Preconditions of every kernel -- checked once by the Python boundary
 * (src/_core.pyx: mj_check below, or mj_checked for a batch row), never
 * here: `c` points to 34 counts, each 0..4; 0 <= k; sum(c) + k <= 14 and the
 * total fits the question. Under them no kernel reads outside its arguments
 * or the tables. Kernels never allocate, never touch Python objects and are
 * safe to call without the GIL.
 */
#ifndef MJ_HAND_H
#define MJ_HAND_H

#include <stddef.h>
#include <stdint.h>

#define MJ_N_KINDS 34
#define MJ_MAX_TILES 14

/* Form flags: the standard form (sets + pair) is always on. */
enum {
    MJ_SEVEN_PAIRS = 1,
    MJ_ORPHANS = 2,   /* thirteen orphans */
    MJ_KNITTED = 4,   /* 十三不靠 */
    MJ_PAIR258 = 8    /* pair of a standard hand / one pair of seven pairs is a suited 2/5/8 */
};

/* Questions for mj_check. */
enum { MJ_Q_WIN = 0, MJ_Q_WAITS = 1, MJ_Q_SHANTEN = 2 };

/* Results of mj_check. */
enum {
    MJ_OK = 0,
    MJ_BAD_COUNT = 1,   /* *bad = index of a count > 4 */
    MJ_BAD_JOKERS = 2,  /* negative jokers */
    MJ_BAD_TOTAL = 3    /* *bad = number of tiles; tiles + jokers do not fit the question */
};

int mj_check(const uint8_t *c, long k, int question, int *bad);

/* Batch questions for mj_checked. */
enum { MJ_OP_WIN = 0, MJ_OP_READY = 1, MJ_OP_WAITS = 2, MJ_OP_SHANTEN = 3 };

/* mj_check and, for a valid hand, the answer to `op` in one pass over the
 * counts (the batch kernel): returns MJ_OK and sets *answer (0/1, the waits
 * mask or the shanten), or the mj_check code with *bad as there. */
int mj_checked(const uint8_t *c, long k, int op, int flags, int64_t *answer, int *bad);

/* Counts of any native integer layout: the 34 integers of `itemsize` bytes
 * (1, 2, 4 or 8, signed or not, any alignment) at p, p + stride, ... are
 * copied into out when all are 0..4 (MJ_OK); else MJ_BAD_COUNT, *bad = index
 * of the first other value (never truncated: 256 or -1 is bad). */
int mj_load_counts(const char *p, ptrdiff_t stride, int itemsize, int is_signed, uint8_t *out,
                   int *bad);

int mj_is_win(const uint8_t *c, int k, int flags);
int mj_is_ready(const uint8_t *c, int k, int flags);
uint64_t mj_waits(const uint8_t *c, int k, int flags);
int mj_shanten(const uint8_t *c, int k, int flags);

/* Single forms (used by the scoring facts); flags only for MJ_PAIR258. */
int mj_win_standard(const uint8_t *c, int k, int flags);
int mj_win_sets(const uint8_t *c, int k); /* sets only, no pair: sum + k = 3m */
int mj_win_seven_pairs(const uint8_t *c, int k, int flags);
int mj_win_orphans(const uint8_t *c, int k);
int mj_win_knitted(const uint8_t *c, int k);
int mj_all_triplets(const uint8_t *c, int k, int flags);
uint64_t mj_pair_kinds(const uint8_t *c, int k, int flags);

/* Standard decompositions (mj_decomp.c): writes up to `cap` readings of
 * MJ_DEC_WIDTH group codes (sets sorted, then the pair, zero padding), sorted
 * and distinct, sets *rows to their number and returns the number of readings
 * found before removing duplicates; when that exceeds `cap` the output is
 * incomplete (*rows = 0): call again with cap >= the return value. Only
 * MJ_PAIR258 of `flags` is used. Group code: shape << 12 (0 chow, 1 pair,
 * 2 pung) | (kind + 1) << 5 (0 = free all-joker group) | jokers << 2 | rank of
 * the chow's joker positions among those of the same size. */
#define MJ_DEC_WIDTH 5
long mj_decompose(const uint8_t *c, int k, int flags, uint16_t *out, long cap, long *rows);

size_t mj_table_bytes(void);
const char *mj_table_checksum(void);

#endif
