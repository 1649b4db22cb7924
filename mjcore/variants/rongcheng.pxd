# Compiled by Cython: declarations that type rongcheng.py when the wheel is built (CMakeLists.txt).
# Augments rongcheng.py when compiled: the turn's restrictions and the quick 听 test (asked at
# every turn) read the Game's and the seat's fields in C.

cimport cython

from mjcore cimport _core
from mjcore.engine.actions cimport Action
from mjcore.engine.game cimport Game
from mjcore.engine.melds cimport Meld
from mjcore.engine.seat cimport SeatState


@cython.locals(st=SeatState, a=Action)
cpdef list _filter_turn(variant, Game game, int seat, list actions)
@cython.locals(st=SeatState, honors=bint, k258=bint)
cpdef bint _ready_possible(Game game, int seat) except -1
@cython.locals(honors=bint, k258=bint, t=int, m=Meld)
cpdef tuple _meld_colours(melds)
@cython.locals(bao=int)
cpdef int _drawn_bao(Game game, int seat) except? -2
