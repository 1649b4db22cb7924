# Compiled by Cython: declarations that type seat.py when the wheel is built (CMakeLists.txt).
# Augments seat.py when compiled: SeatState's fields live in a C struct (see game.pxd).

cimport cython

from mjcore cimport _core


cdef class SeatState:
    cdef public bytearray hand
    cdef public object declared, no_discard, pass_peng, no_bugang
    cdef public long long _waits
    cdef public long long _waits_before_draw
    cdef public bytearray claimed_from
    cdef public list melds, discards
    cdef public tuple flowers, held_flowers, won_tiles, wins
    cdef public dict choices, extra
    cdef public object pass_hu
    cdef public bint pass_hu_any, sealed
    cdef public int discard_count, claims

    @cython.locals(total=Py_ssize_t, n=Py_ssize_t)
    cpdef Py_ssize_t tile_count(self)
    cpdef clear_locks(self)
    cpdef forget_waits(self)
