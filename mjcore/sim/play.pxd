# Compiled by Cython: declarations that type play.py when the wheel is built (CMakeLists.txt).
# Augments play.py when compiled: the hand loop holds the Game as the extension type, so it
# reads the phase and seat and calls legal_actions / apply as C calls (game.pxd).

cimport cython

from mjcore._prng cimport generate_state
from mjcore.bots.base cimport BaseBot
from mjcore.bots.random_bot cimport _pick
from mjcore.engine.game cimport Game


cpdef tuple game_seeds(seed, Py_ssize_t index, int players)
@cython.locals(game=Game, actions=Py_ssize_t, limit=Py_ssize_t, seat=int, picks=bytes,
               legal=tuple, bots=list, decide=list)
cpdef tuple play_hand(job, Py_ssize_t index, fault_tally=*, list kept=*)
@cython.locals(bots=list, decide=list, s=Py_ssize_t, last=tuple, replays=bint, again=BaseBot)
cdef tuple _seat_bots(list seats, list kept)
