# Compiled by Cython: declarations that type hand.py when the wheel is built (CMakeLists.txt).
# Augments hand.py when compiled: Hand's fields in a C struct (see engine/game.pxd).

cimport cython

from mjcore cimport _core
from mjcore.engine.game cimport Game
from mjcore.engine.seat cimport SeatState


cdef class Hand:
    cdef public object counts, flags, split, public, game
    cdef public int joker_kind, bits

    cpdef discard_picks(self, tiles)
    cpdef ready_picks(self, tiles, picks)
    cpdef shanten_without(self, removed)
    cpdef best_after_discard(self, removed)


@cython.locals(hand=Hand)
cpdef Hand hand_of(Game game, int seat)
@cython.locals(st=SeatState, counts=bytearray, jk=int)
cpdef Hand _split_by_core(Game game, int seat)
@cython.locals(hand=Hand)
cpdef Hand core_hand(counts, int bits, int joker_kind)
