# The native core's C-level interface (src/_core.pyx): the functions the compiled engine calls
# on every turn, cimported by mjcore/engine/game.pxd so a call skips Python's argument passing.
# Each is also an ordinary Python function of mjcore._core (the pure-Python engine calls it so).

from libc.stdint cimport uint64_t


cpdef uint64_t waits_mask_bits(counts, jokers, int flags) except? 1
cpdef bint hand_is_win_bits(counts, int joker_kind, int flags) except -1
cpdef list held_items(tuple items, counts)
cpdef tuple held_tuple(tuple items, counts)
cpdef Py_ssize_t tiles_in(counts, kinds) except -1
cpdef uint64_t held_mask(counts) except? 1
cpdef uint64_t hand_waits_bits(counts, int joker_kind, int flags) except? 1
cpdef int shanten_bits(counts, jokers, int flags) except? -9
cpdef tuple greedy_discard(counts, int joker_kind, int flags, list tiles)
cpdef list greedy_ready_discard(counts, int joker_kind, int flags, list tiles, list picks,
                                int bao=*)
cpdef int shanten_removed(counts, int joker_kind, int flags, dict removed,
                          bint discard=*) except? -9
cpdef size_t address(object obj)
cpdef bytearray zeros(Py_ssize_t n)
cpdef counts_array(counts, int plus=*)
cpdef zero_floats(float[::1] out, Py_ssize_t n)
