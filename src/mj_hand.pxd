# Compiled by Cython into mjcore._core (CMakeLists.txt).
# C-level interface of the native kernels (src/mj_hand.h).
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint64_t


cdef extern from "mj_hand.h" nogil:
    enum:
        MJ_N_KINDS
        MJ_MAX_TILES
        MJ_SEVEN_PAIRS
        MJ_ORPHANS
        MJ_KNITTED
        MJ_PAIR258
        MJ_Q_WIN
        MJ_Q_WAITS
        MJ_Q_SHANTEN
        MJ_OK
        MJ_BAD_COUNT
        MJ_BAD_JOKERS
        MJ_BAD_TOTAL
        MJ_DEC_WIDTH
        MJ_OP_WIN
        MJ_OP_READY
        MJ_OP_WAITS
        MJ_OP_SHANTEN

    int mj_check(const uint8_t *c, long k, int question, int *bad) noexcept
    int mj_checked(const uint8_t *c, long k, int op, int flags, int64_t *answer,
                   int *bad) noexcept
    int mj_load_counts(const char *p, ptrdiff_t stride, int itemsize, int is_signed,
                       uint8_t *out, int *bad) noexcept
    int mj_is_win(const uint8_t *c, int k, int flags) noexcept
    int mj_is_ready(const uint8_t *c, int k, int flags) noexcept
    uint64_t mj_waits(const uint8_t *c, int k, int flags) noexcept
    int mj_shanten(const uint8_t *c, int k, int flags) noexcept
    int mj_win_standard(const uint8_t *c, int k, int flags) noexcept
    int mj_win_sets(const uint8_t *c, int k) noexcept
    int mj_win_seven_pairs(const uint8_t *c, int k, int flags) noexcept
    int mj_win_orphans(const uint8_t *c, int k) noexcept
    int mj_win_knitted(const uint8_t *c, int k) noexcept
    int mj_all_triplets(const uint8_t *c, int k, int flags) noexcept
    uint64_t mj_pair_kinds(const uint8_t *c, int k, int flags) noexcept
    long mj_decompose(const uint8_t *c, int k, int flags, uint16_t *out, long cap,
                      long *rows) noexcept
    size_t mj_table_bytes() noexcept
    const char *mj_table_checksum() noexcept


cdef extern from "mj_bots.h" nogil:
    int mj_split_shanten(uint8_t *h, int jk, int flags) noexcept
    uint64_t mj_split_waits(uint8_t *h, int jk, int flags) noexcept
    int mj_least_after_discard(uint8_t *h, int jk, int flags) noexcept
    int mj_discard_shantens(uint8_t *h, int jk, int flags, uint64_t kinds,
                            int8_t *shan) noexcept
    int mj_connectivity(const uint8_t *c, int t) noexcept
    int mj_least_connected(const uint8_t *c, const int *tiles, int *picks, int n) noexcept
    int mj_bits_set(uint64_t w) noexcept
    uint64_t mj_near_mask(const uint8_t *h) noexcept
    int mj_held_kinds(const uint8_t *h, int *out) noexcept
    long mj_ukeire_one(uint8_t *h, int t, int jk, int flags, const long *unseen,
                       uint64_t near, int *code, int *bad, long *k) noexcept
