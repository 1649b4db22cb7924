# Compiled by Cython: declarations that type wall.py when the wheel is built (CMakeLists.txt).
# Augments wall.py when compiled: Wall's fields in a C struct and its draw methods as C calls
# for the engine (game.pxd types Game.wall as a Wall).

cdef class Wall:
    cdef bytes _order
    cdef public Py_ssize_t head, tail, kept, reserve

    cpdef bint can_draw(self)
    cpdef bint is_last_draw(self)
    cpdef int draw(self) except -1
    cpdef list draw_many(self, Py_ssize_t k)
    cpdef int draw_tail(self) except -1
    cpdef bint can_draw_tail(self)
