# Compiled by Cython into mjcore._prng (CMakeLists.txt).
"""Seeded draws identical to ``numpy.random.default_rng(seed)``, at C speed.

A simulated hand seeds a wall shuffle and up to four bots. Through numpy each seeding builds
a ``SeedSequence`` and a ``PCG64`` (~30 µs); the same algorithms in C (``mj_random.h``) give
the very same numbers in well under a microsecond, so seeded games, walls and statistics do
not change. Anything outside the fast path (huge seeds, numpy's own objects) goes to numpy.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.stdint cimport uint32_t, uint64_t

cdef extern from "mj_random.h":  # (mj_pcg64 itself: mjcore/_prng.pxd)
    void mj_seedseq_state(const uint32_t *entropy, int n, uint32_t *out, int n_out) noexcept nogil
    void mj_pcg64_seed(mj_pcg64 *g, const uint32_t *w) noexcept nogil
    uint64_t mj_pcg64_below(mj_pcg64 *g, uint64_t n) noexcept nogil
    uint64_t mj_pcg64_interval(mj_pcg64 *g, uint64_t max) noexcept nogil
    void mj_pcg64_shuffle_bytes(mj_pcg64 *g, unsigned char *p, uint64_t n) noexcept nogil
    void mj_pcg64_get(const mj_pcg64 *g, uint64_t *out) noexcept nogil
    void mj_pcg64_set(mj_pcg64 *g, const uint64_t *src, int has_uint32,
                      uint32_t uinteger) noexcept nogil

cdef enum:
    MAX_WORDS = 64  # entropy words handled here (2,048 bits); larger seeds go to numpy
    MAX_STATE = 64  # generate_state words handled here


cdef int _words(object value, uint32_t *out, int at) except -2:
    """Append the little-endian uint32 words of int ``value`` >= 0 (0 is one word); the new
    length, or -1 when they do not fit (the caller then asks numpy)."""
    cdef int overflow = 0
    cdef long long small
    if type(value) is int:  # (every seed a run derives: C words, no Python arithmetic)
        small = PyLong_AsLongLongAndOverflow(value, &overflow)
        if not overflow:
            return _small_words(small, out, at)
    if value < 0:
        raise ValueError(f"entropy must be a non-negative integer, got {value}")
    if value == 0:
        if at >= MAX_WORDS:
            return -1
        out[at] = 0
        return at + 1
    while value:
        if at >= MAX_WORDS:
            return -1
        out[at] = <uint32_t>(value & 0xFFFFFFFF)
        value >>= 32
        at += 1
    return at


cdef int _small_words(long long value, uint32_t *out, int at) except -2:
    """:func:`_words` of an int that fits a C long long."""
    if value < 0:
        raise ValueError(f"entropy must be a non-negative integer, got {value}")
    cdef uint64_t v = <uint64_t>value
    while True:  # (0 is one word)
        if at >= MAX_WORDS:
            return -1
        out[at] = <uint32_t>(v & 0xFFFFFFFFu)
        v >>= 32
        at += 1
        if not v:
            return at


cdef int _entropy(object seed, tuple spawn_key, uint32_t *out) except -2:
    """SeedSequence's assembled entropy: the seed's words, padded to the pool size when a
    spawn key follows, then each spawn key element's words. -1: too long for the fast path."""
    cdef int n = _words(seed, out, 0)
    if n < 0:
        return -1
    if spawn_key:
        while n < 4:
            out[n] = 0
            n += 1
        for key in spawn_key:
            n = _words(key, out, n)
            if n < 0:
                return -1
    return n


cpdef list generate_state(seed, tuple spawn_key=(), int n_words=4):
    """``SeedSequence(seed, spawn_key=spawn_key).generate_state(n_words)`` as a list of ints
    (uint32 words)."""
    cdef uint32_t ent[MAX_WORDS]
    cdef uint32_t out[MAX_STATE]
    cdef int n = _entropy(seed, spawn_key, ent)
    if n < 0 or not 0 <= n_words <= MAX_STATE:
        import numpy as np

        return [int(w) for w in np.random.SeedSequence(seed, spawn_key=spawn_key)
                .generate_state(n_words)]
    mj_seedseq_state(ent, n, out, n_words)
    return [out[i] for i in range(n_words)]


cdef class Pcg64:
    """The generator ``numpy.random.default_rng(seed)`` builds, for an int ``seed`` >= 0.

    ``integers(n)`` and ``permutation(items)`` return what the numpy Generator's methods of
    the same names return, draw for draw; ``to_generator()`` hands the stream over to a real
    numpy Generator that continues exactly where this one stands.
    """

    def __cinit__(self, seed):
        cdef uint32_t ent[MAX_WORDS]
        cdef uint32_t w[8]
        if type(seed) is not int:
            raise TypeError(f"Pcg64 takes an int seed, got {type(seed).__name__}")
        cdef int n = _entropy(seed, (), ent)
        if n < 0:
            state = self._numpy_words(seed)
            for i in range(8):
                w[i] = state[i]
        else:
            mj_seedseq_state(ent, n, w, 8)
        mj_pcg64_seed(&self.g, w)

    @staticmethod
    def _numpy_words(seed):
        import numpy as np

        return [int(x) for x in np.random.SeedSequence(seed).generate_state(8)]

    cpdef long integers(self, long n) except -1:
        """A uniform int in ``[0, n)``, as ``Generator.integers(n)`` draws it (1 <= n <= 2**32)."""
        if n < 1 or (n - 1) >> 32:  # (C arithmetic: n <= 2**32)
            raise ValueError(f"integers(n) needs 1 <= n <= 2**32, got {n}")
        return <long>mj_pcg64_below(&self.g, <uint64_t>n)

    cpdef permutation(self, items):
        """A shuffled copy of the list ``items``, as ``Generator.permutation`` shuffles an array;
        ``bytes`` in, ``bytes`` out (a wall, a byte a tile), in the same order."""
        cdef list out
        cdef unsigned char *p
        cdef Py_ssize_t i, j
        cdef bytes shuffled
        if type(items) is bytes:
            shuffled = PyBytes_FromStringAndSize(<char *>items, len(<bytes>items))
            p = <unsigned char *>PyBytes_AS_STRING(shuffled)  # (new: not yet seen by anyone)
            mj_pcg64_shuffle_bytes(&self.g, p, <uint64_t>len(shuffled))
            return shuffled
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = <Py_ssize_t>mj_pcg64_interval(&self.g, <uint64_t>i)
            out[i], out[j] = out[j], out[i]
        return out

    def numpy_state(self):
        """The state in the form of ``numpy.random.PCG64().state``."""
        cdef uint64_t s[4]
        mj_pcg64_get(&self.g, s)
        return {
            "bit_generator": "PCG64",
            "state": {"state": (<object>s[0] << 64) | s[1], "inc": (<object>s[2] << 64) | s[3]},
            "has_uint32": self.g.has_uint32,
            "uinteger": self.g.uinteger,
        }

    def __reduce__(self):
        """Pickled (and copied) by state: the copy continues the stream where this one stands."""
        cdef uint64_t s[4]
        mj_pcg64_get(&self.g, s)
        return _restored, ((s[0], s[1], s[2], s[3]), self.g.has_uint32, self.g.uinteger)

    def to_generator(self):
        """A ``numpy.random.Generator`` continuing this stream (this object is then spent:
        draw from one or the other, not both)."""
        import numpy as np

        bits = np.random.PCG64()
        bits.state = self.numpy_state()
        return np.random.Generator(bits)


def _restored(tuple words, int has_uint32, uint32_t uinteger):
    """The Pcg64 a pickle holds (:meth:`Pcg64.__reduce__`)."""
    cdef Pcg64 g = Pcg64(0)
    cdef uint64_t s[4]
    cdef int i
    if len(words) != 4:
        raise ValueError(f"a Pcg64 state is 4 words, got {len(words)}")
    for i in range(4):
        s[i] = words[i]
    mj_pcg64_set(&g.g, s, has_uint32, uinteger)
    return g
