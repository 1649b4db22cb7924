# Compiled by Cython: declarations that type tiles.py when the wheel is built (CMakeLists.txt).
# Augments tiles.py when compiled: format_sorted (every deal's log line) as a C loop.

cimport cython


@cython.locals(raw=bytes, suits=bytes, digits=str, out=list, i=Py_ssize_t, lo=Py_ssize_t,
               n=Py_ssize_t)
cpdef str format_sorted(kinds)
