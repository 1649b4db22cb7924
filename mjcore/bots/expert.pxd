# Compiled by Cython: declarations that type expert.py when the wheel is built (CMakeLists.txt).
# Augments expert.py when Cython compiles it (pure-Python mode), as game.pxd does for the
# engine: Info becomes an extension type whose fields live in a C struct, and the steps run on
# every decision (reading the engine's public state, the suits, the danger of a tile) read the
# engine's and the hand's fields in C. Only ints and objects are typed, and the float locals
# Cython would infer as C doubles are declared objects: every float stays a Python float, so
# compiled and pure-Python arithmetic are the same operations in the same order (no fused
# multiply-add on any platform). expert.py is unchanged as the plain-Python fallback.

cimport cython

from mjcore.bots.hand cimport Hand, core_hand
from mjcore.engine.actions cimport Action
from mjcore.engine.game cimport Game
from mjcore.engine.melds cimport Meld
from mjcore.engine.seat cimport SeatState


cdef class Info:
    cdef public object rules, variant, opts, phase, claim_tile, melds, _melds_key, flowers, how
    cdef public object _unseen, _threats, _threat, _game, held, tuning, wall_live
    cdef public Hand hand
    cdef public int seat, n

    cpdef _load(self)

    @cython.locals(game=Game, other=SeatState, s=int, seat=int, groups=list, rows=list,
                   melds=list)
    cpdef _load_game(self, game)

    @cython.locals(rows=list)
    cpdef _finish(self, list unseen, list rows, public)

    @cython.locals(threats=list, unseen=int, r=int, base=object, d=object, total=object,
                   waits=cython.longlong, discards=cython.ulonglong)
    cpdef danger(self, int t)


@cython.locals(c=bytearray, per=cython.int[4], t=int, m=Meld, total=int, suit=int, other=int)
cpdef tuple _flush_suit(Info info)


@cython.locals(hand=Hand, shantens=list, conns=list, best=int, flush=int, contenders=int,
               gains=list, out=list, t=int, sh=int, conn=int, off=bint, i=Py_ssize_t)
cpdef list _scores(bot, Info info, list tiles)


@cython.locals(ready=list, ask=list, t=int, sh=int, gains=list, hand=Hand, got=list,
               masks=list, lives=list, i=Py_ssize_t)
cpdef list _gains(bot, Info info, list tiles, list shantens, int best, int contenders,
                  int flush)


@cython.locals(least=int, sh=int)
cpdef tuple _least_and_top(list scored)


@cython.locals(info=Info, st=SeatState)
cpdef Info _game_info(cls, Game game, int seat)


@cython.locals(a=Action)
cpdef _decide(bot, Info info, legal)


@cython.locals(discards=list, tiles=list, groups=list, declares=list, hand=Hand,
               counts=bytearray, i=Py_ssize_t, t=int, scored=list, best_sh=int, ties=list,
               take=int, a=Action)
cpdef _turn(bot, Info info, legal)


@cython.locals(flush=int, suit=int, t=int, river=cython.ulonglong, bit=cython.ulonglong,
               kinds=int)
cpdef tuple _threat(list melds, discards, declared, won, int n_melds, shown, Info info)
