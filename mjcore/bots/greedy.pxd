# Augments greedy.py when compiled: _Hand's fields in a C struct (see engine/game.pxd).

cdef class _Hand:
    cdef public object counts, flags, split, public
    cdef public int joker_kind, bits
