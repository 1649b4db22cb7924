# Compiled by Cython: declarations that type tiles.py when the wheel is built (CMakeLists.txt).
# Augments tiles.py when compiled: format_sorted and format_counts (every deal's log line)
# and kinds_mask (scoring asks it of every win) as C loops.

cimport cython


@cython.locals(raw=bytes, digit=bytes, suit=bytes, out=bytearray, i=Py_ssize_t, n=Py_ssize_t)
cpdef str format_sorted(kinds)


@cython.locals(raw=bytearray, digit=bytes, suit=bytes, out=bytearray, k=Py_ssize_t,
               n=Py_ssize_t, copies=int, letter=int, _copy=int)
cpdef str format_counts(counts)


@cython.locals(k=Py_ssize_t, n=Py_ssize_t, _copy=Py_ssize_t)
cpdef list _kinds_of(bytes raw)


@cython.locals(mask=cython.ulonglong, bit=cython.ulonglong, k=Py_ssize_t)
cpdef kinds_mask(kinds)


@cython.locals(bits=int)
cpdef int suit_bits(unsigned long long mask) noexcept
