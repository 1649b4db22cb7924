# Augments seat.py when compiled: SeatState's fields live in a C struct (see game.pxd).

cdef class SeatState:
    cdef public bytearray hand
    cdef public object _waits, _np, declared, no_discard, claimed_from
    cdef public list melds, discards, flowers, held_flowers, won_tiles, wins
    cdef public dict choices, pass_hu, extra
    cdef public set pass_peng, no_bugang
    cdef public bint pass_hu_any, sealed
    cdef public int discard_count, claims
