# Compiled by Cython: declarations that type base.py when the wheel is built (CMakeLists.txt).
# Augments base.py when compiled: BaseBot's random stream lives in a C struct and integers()
# (every random pick) is a C call on it (mjcore/_prng.pxd); every bot subclass stays a Python
# class (with its own attributes) and every field stays readable and writable from Python.

cimport cython

from mjcore._prng cimport Pcg64


cdef class BaseBot:
    cdef public object _rng, _seed
    cdef public Pcg64 _fast

    cpdef reseed(self, seed)
    @cython.locals(fast=Pcg64)
    cpdef long integers(self, long n) except -1
