# Compiled by Cython: declarations that type susong.py when the wheel is built (CMakeLists.txt).
# Augments susong.py when compiled: a seat's 飘 and 增 (asked many times a turn) read in C.

cimport cython

from mjcore.engine.actions cimport Action
from mjcore.engine.game cimport Game
from mjcore.engine.seat cimport SeatState


@cython.locals(st=SeatState)
cpdef bint is_piao(Game game, int seat) except -1
@cython.locals(st=SeatState)
cpdef zeng(Game game, int seat)
@cython.locals(tile=int, out=list, a=Action)
cpdef list _filter_claims(Game game, int seat, list actions)
