# Compiled by Cython: declarations that type variant.py when the wheel is built
# (CMakeLists.txt). Augments variant.py when compiled: a new hand finds its shared Rules with
# C-level dict reads.

cimport cython


@cython.locals(attrs=dict, defaults=dict)
cdef object _built_defaults(object variant, object players)
