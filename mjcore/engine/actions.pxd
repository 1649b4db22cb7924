# Compiled by Cython: declarations that type actions.py when the wheel is built (CMakeLists.txt).
# Augments actions.py when compiled: the legal actions' texts of every view as a C loop.

cimport cython


cdef class Action:
    # (objects, as given: __post_init__ checks their types and ranges and raises
    # IllegalActionError; a C int field would convert a bool or overflow first)
    cdef readonly object kind, tile, tiles, name, value


@cython.locals(known=dict)
cpdef list action_texts(actions)
