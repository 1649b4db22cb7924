# Augments hand.py when compiled: Hand's fields in a C struct (see engine/game.pxd).

cdef class Hand:
    cdef public object counts, flags, split, public
    cdef public int joker_kind, bits
