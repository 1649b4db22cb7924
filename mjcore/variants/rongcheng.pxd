# Compiled by Cython: declarations that type rongcheng.py when the wheel is built (CMakeLists.txt).
# Augments rongcheng.py when compiled: the turn's restrictions, the quick 听 test (asked at
# every turn) and the win checks (asked at every discard) read the Game's and the seat's
# fields in C.

cimport cython

from mjcore cimport _core
from mjcore.engine.actions cimport Action
from mjcore.engine.game cimport Game
from mjcore.engine.melds cimport Meld
from mjcore.engine.seat cimport SeatState


@cython.locals(st=SeatState, a=Action)
cpdef _filter_turn(variant, Game game, int seat, actions)
@cython.locals(
    st=SeatState, buf=bytearray, shantens=list, feng=bint, zhang=bint, out=list, a=Action, t=int
)
cpdef list _ready_discards(Game game, int seat, actions, bint first)
@cython.locals(st=SeatState, hand=bytearray, feng=bint, zhang=bint)
cpdef bint _ready_possible(Game game, int seat) except -1
@cython.locals(feng_reach=bint, zhang_reach=bint, suited=int, off258=int, t=int, n=int)
cpdef tuple _patterns_open(bytearray counts, melds, opts, int spare)
cpdef bytearray _held_bytes(counts)
@cython.locals(honors=bint, k258=bint, t=int, m=Meld)
cpdef tuple _meld_colours(melds)
@cython.locals(honors=bint, k258=bint)
cpdef tuple _patterns_in_reach(melds, opts)
@cython.locals(held=bytearray, feng=bint, zhang=bint, t=int)
cpdef long long _with_patterns(long long mask, counts, melds, opts) except? -1
@cython.locals(bao=int)
cpdef int _drawn_bao(Game game, int seat) except? -2
@cython.locals(st=SeatState, drawn=bint)
cpdef bint _can_win(Game game, int seat, int tile, str how) except -1
@cython.locals(st=SeatState, hand=bytearray, known=cython.longlong, shape=cython.longlong)
cpdef bint _may_complete(Game game, int seat, int tile, bint drawn) except -1
cpdef bint _completes(long long shape, int tile, counts, melds, opts) except -1
@cython.locals(bao=int)
cpdef int _wild_bao(Game game, int seat, counts) except? -2
cpdef bint _bao_due(Game game, int seat) except -1
cpdef bint _locked(SeatState st) except -1
cpdef bint _tianhu(Game game, int seat, str how) except -1
cpdef bint _first_discard_win(Game game, int seat, int tile, str how) except -1
@cython.locals(src=int, st=SeatState, discards=int)
cpdef bint _dihu(Game game, int seat) except -1
