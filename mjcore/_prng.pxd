# The seeded generator's C-level interface (src/_prng.pyx): the bots cimport it so a random
# pick is a C call (mjcore/bots/base.pxd). Pcg64 is also an ordinary Python class.

from libc.stdint cimport uint32_t


cdef extern from "mj_random.h":
    ctypedef struct mj_pcg64:
        int has_uint32
        uint32_t uinteger


cdef class Pcg64:
    cdef mj_pcg64 g

    cpdef long integers(self, long n) except -1
    cpdef permutation(self, items)


cpdef list generate_state(seed, tuple spawn_key=*, int n_words=*)
