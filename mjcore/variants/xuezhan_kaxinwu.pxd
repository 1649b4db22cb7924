# Compiled by Cython: declarations that type xuezhan_kaxinwu.py when the wheel is built
# (CMakeLists.txt). Augments xuezhan_kaxinwu.py when compiled: the turn's and the claims'
# restrictions (asked at every turn and claim) read the Game's, the seat's and the actions'
# fields in C.

cimport cython

from mjcore.engine.actions cimport Action
from mjcore.engine.game cimport Game
from mjcore.engine.seat cimport SeatState


@cython.locals(st=SeatState, a=Action)
cpdef list _filter_turn(variant, Game game, int seat, list actions)
@cython.locals(st=SeatState, a=Action, b=Action, tile=int)
cpdef list _filter_claims(variant, Game game, int seat, list actions)
