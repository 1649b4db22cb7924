/* The bots' hand kernels: the greedy and expert bots' questions on raw counts
 * (src/_core.pyx's greedy_* / expert_* entry points call them; mjcore/bots/hand.py holds
 * the same connectivity order in Python). Preconditions as in mj_hand.h: `h` holds 34
 * checked counts; every copy of `jk` (>= 0) is a joker. Each kernel leaves `h` as it was. */
#ifndef MJ_BOTS_H
#define MJ_BOTS_H

#include <stdint.h>

/* Shanten / waits of h with every copy of jk (>= 0) a joker. */
int mj_split_shanten(uint8_t *h, int jk, int flags);
uint64_t mj_split_waits(uint8_t *h, int jk, int flags);
/* Least shanten of h less one held tile (99 with none). */
int mj_least_after_discard(uint8_t *h, int jk, int flags);
/* shan[t] = the shanten of h less one t (wildcards split out after the discard) for each
 * held kind t of the bitmask `kinds`, other entries untouched; the least of them (99 with
 * none). */
int mj_discard_shantens(uint8_t *h, int jk, int flags, uint64_t kinds, int8_t *shan);
/* How much kind t helps its neighbours (lower goes first): 2 x (3 (c[t] - 1) + same-suit
 * kinds within two ranks, weight 2 if adjacent else 1) + 1 unless a terminal; honors 3 (c - 1). */
int mj_connectivity(const uint8_t *c, int t);
/* Keep (in order) the picks whose tile tiles[pick] has the least connectivity; their number. */
int mj_least_connected(const uint8_t *c, const int *tiles, int *picks, int n);
int mj_bits_set(uint64_t w);
/* The kinds h holds (count >= 1), ascending, into out[34]; their number. */
int mj_held_kinds(const uint8_t *h, int *out);
/* Kinds that can improve h: every held kind and its suit's kinds within two ranks. */
uint64_t mj_near_mask(const uint8_t *h);
/* Unseen copies of the `near` kinds that lower the shanten of h less one t (a drawn jk is
 * one more joker). Each hand asked is checked as mj_check does: on a bad one *code, *bad
 * and *k say why and -1 is returned. */
long mj_ukeire_one(uint8_t *h, int t, int jk, int flags, const long *unseen, uint64_t near,
                   int *code, int *bad, long *k);

#endif
