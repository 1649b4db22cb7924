/* The bots' hand kernels (see mj_bots.h). */
#include "mj_bots.h"

#include "mj_hand.h"
#include "mj_groups.h"

int mj_split_shanten(uint8_t *h, int jk, int flags) {
    int k = 0;
    if (jk >= 0) {
        k = h[jk];
        h[jk] = 0;
    }
    int s = mj_shanten(h, k, flags);
    if (jk >= 0) h[jk] = (uint8_t)k;
    return s;
}

uint64_t mj_split_waits(uint8_t *h, int jk, int flags) {
    int k = 0;
    if (jk >= 0) {
        k = h[jk];
        h[jk] = 0;
    }
    uint64_t w = mj_waits(h, k, flags);
    if (jk >= 0) h[jk] = (uint8_t)k;
    return w;
}

int mj_discard_shantens(uint8_t *h, int jk, int flags, uint64_t kinds, int8_t *shan) {
    int k = 0, best = 99;
    if (jk >= 0) {
        k = h[jk];
        h[jk] = 0;
    }
    MjShantenBase facts; /* each discard changes one kind: the row is read in one pass */
    mj_shanten_base(&facts, h, flags);
    uint64_t held = 0;
    for (int t = 0; t < MJ_N_KINDS; t++)
        if (h[t] && t != jk) held |= 1ull << t;
    mj_shanten_discards(&facts, h, kinds & held, k, shan);
    for (uint64_t bits = kinds & held; bits; bits &= bits - 1) {
        int t = __builtin_ctzll(bits);
        if (shan[t] < best) best = shan[t];
    }
    if (jk >= 0 && (kinds >> jk & 1) && k) {
        int s = mj_shanten_after(&facts, h, -1, 0, k - 1);
        shan[jk] = (int8_t)s;
        if (s < best) best = s;
    }
    if (jk >= 0) h[jk] = (uint8_t)k;
    return best;
}

int mj_least_after_discard(uint8_t *h, int jk, int flags) {
    int8_t shan[MJ_N_KINDS];
    return mj_discard_shantens(h, jk, flags, (1ull << MJ_N_KINDS) - 1, shan);
}

int mj_connectivity(const uint8_t *c, int t) {
    int score = 3 * (c[t] - 1);
    if (t >= 27) return score;
    int r = t % 9;
    if (r >= 2) score += c[t - 2];
    if (r >= 1) score += 2 * c[t - 1];
    if (r <= 7) score += 2 * c[t + 1];
    if (r <= 6) score += c[t + 2];
    return 2 * score + (r == 0 || r == 8 ? 0 : 1);
}

int mj_least_connected(const uint8_t *c, const int *tiles, int *picks, int n) {
    int m = 0, low = 1 << 30;
    for (int i = 0; i < n; i++) {
        int key = mj_connectivity(c, tiles[picks[i]]);
        if (key < low) low = key;
    }
    for (int i = 0; i < n; i++)
        if (mj_connectivity(c, tiles[picks[i]]) == low) picks[m++] = picks[i];
    return m;
}

int mj_bits_set(uint64_t w) {
    int n = 0;
    while (w) {
        w &= w - 1;
        n++;
    }
    return n;
}

int mj_held_kinds(const uint8_t *h, int *out) {
    MjLanes x = mj_lanes(h);
    uint64_t held = 0;
    for (int j = 0; j < 5; j++) held |= (uint64_t)mj_lane_bits(mj_lane_ge(x.w[j], 1)) << (8 * j);
    int n = 0;
    while (held) { /* (no branch per kind: a hand's held kinds are a random pattern) */
        out[n++] = __builtin_ctzll(held);
        held &= held - 1;
    }
    return n;
}

uint64_t mj_near_mask(const uint8_t *h) {
    uint64_t mask = 0;
    for (int t = 0; t < MJ_N_KINDS; t++) {
        if (!h[t]) continue;
        if (t >= 27) {
            mask |= (uint64_t)1 << t;
            continue;
        }
        int r = t % 9;
        for (int d = -2; d <= 2; d++)
            if (0 <= r + d && r + d <= 8) mask |= (uint64_t)1 << (t + d);
    }
    return mask;
}

long mj_ukeire_one(uint8_t *h, int t, int jk, int flags, const long *unseen, uint64_t near,
                   int *code, int *bad, long *k) {
    long total = 0;
    int jokers = 0, n = 0, s = 0;
    h[t] -= 1;
    if (jk >= 0) {
        jokers = h[jk];
        h[jk] = 0;
    }
    *k = jokers;
    *code = mj_check(h, jokers, MJ_Q_SHANTEN, bad);
    if (*code == MJ_OK) {
        MjShantenBase facts; /* each draw changes one kind: one group's rank to recompute */
        mj_shanten_base(&facts, h, flags);
        int base = mj_shanten_after(&facts, h, -1, 0, jokers);
        n = facts.n + jokers;
        /* 3m+1 tiles (a hand after its discard): one more tile is a valid 3m+2 hand whenever
         * no kind goes past 4, so mj_check can only fail on a kind already held 4 times. */
        int sure = n % 3 == 1 && n < MJ_MAX_TILES;
        uint64_t draws = 0; /* the natural kinds to try: near, unseen, not the joker kind */
        int full = 0;       /* one of them held 4 times: the check below names it */
        for (uint64_t bits = near; bits; bits &= bits - 1) {
            int u = __builtin_ctzll(bits);
            if (u == jk || !unseen[u]) continue;
            draws |= 1ull << u;
            full |= h[u] >= 4;
        }
        if (sure && !full) { /* every draw is a valid hand: the whole row in one pass */
            int8_t shan[MJ_N_KINDS];
            mj_shanten_draws(&facts, h, draws, jokers, shan);
            for (uint64_t bits = draws; bits; bits &= bits - 1) {
                int u = __builtin_ctzll(bits);
                if (shan[u] < base) total += unseen[u];
            }
            if (jk >= 0 && (near >> jk & 1) && unseen[jk]) {
                *k = jokers + 1;
                if (mj_shanten_after(&facts, h, -1, 0, jokers + 1) < base) total += unseen[jk];
            }
            near = 0; /* (done: the loop below is the checked path) */
        }
        for (int u = 0; u < MJ_N_KINDS; u++) {
            if (!(near >> u & 1) || !unseen[u]) continue;
            if (u == jk) {
                *k = jokers + 1;
                if (!sure) {
                    *code = mj_check(h, jokers + 1, MJ_Q_SHANTEN, bad);
                    if (*code != MJ_OK) break;
                }
                s = mj_shanten_after(&facts, h, -1, 0, jokers + 1);
            } else {
                h[u] += 1;
                if (!sure || h[u] > 4) *code = mj_check(h, jokers, MJ_Q_SHANTEN, bad);
                if (*code == MJ_OK) s = mj_shanten_after(&facts, h, u, h[u] - 1, jokers);
                h[u] -= 1;
                if (*code != MJ_OK) break;
            }
            if (s < base) total += unseen[u];
        }
    }
    if (jk >= 0) h[jk] = (uint8_t)jokers;
    h[t] += 1;
    return *code == MJ_OK ? total : -1;
}
