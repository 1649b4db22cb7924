# Compiled by Cython: declarations that type qingdao.py when the wheel is built (CMakeLists.txt).
# Augments qingdao.py when compiled: the turn and claim restrictions (asked at every turn and
# every claim window) read the Game's and the seat's fields in C.

cimport cython

from mjcore cimport _core
from mjcore.engine.actions cimport Action
from mjcore.engine.game cimport Game
from mjcore.engine.melds cimport Meld
from mjcore.engine.seat cimport SeatState


@cython.locals(st=SeatState, jk=int, a=Action)
cpdef _filter_turn(variant, Game game, int seat, actions)
@cython.locals(st=SeatState, jk=int, tile=int, a=Action, ask=bint)
cpdef list _filter_claims(variant, Game game, int seat, list actions)
@cython.locals(chis=int, m=Meld)
cpdef bint _third_chi(Game game, SeatState st) except -1
@cython.locals(m=Meld)
cpdef bint _may_gang(SeatState st, int kind) except -1
