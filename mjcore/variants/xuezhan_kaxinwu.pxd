# Compiled by Cython: declarations that type xuezhan_kaxinwu.py when the wheel is built
# (CMakeLists.txt). Augments xuezhan_kaxinwu.py when compiled: the turn's and the claims'
# restrictions (asked at every turn and claim) and the 查叫 at every hand's end read the
# Game's, the seat's and the actions' fields in C.

cimport cython

from mjcore.engine.actions cimport Action
from mjcore.engine.game cimport Game
from mjcore.engine.melds cimport Meld
from mjcore.engine.seat cimport SeatState


@cython.locals(st=SeatState, kind=int)
cpdef _after_claim(Game game, int seat, Meld meld)
@cython.locals(st=SeatState, a=Action)
cpdef _filter_turn(variant, Game game, int seat, actions)
@cython.locals(st=SeatState, a=Action, b=Action, tile=int)
cpdef list _filter_claims(variant, Game game, int seat, list actions)
@cython.locals(values=list, payments=list, n=int, u=int, i=int, v=int)
cpdef list _chajiao(variant, Game game)
@cython.locals(st=SeatState)
cpdef _chajiao_value(variant, Game game, int seat)
