# Compiled by Cython: declarations that type greedy.py when the wheel is built (CMakeLists.txt).
# Augments greedy.py when compiled: the turn's and the claim's choices (every decision of a
# greedy hand) read the legal actions' fields in C.

cimport cython

from mjcore.bots.base cimport BaseBot
from mjcore.bots.hand cimport Hand, hand_of
from mjcore.engine.actions cimport Action
from mjcore.engine.game cimport Game


@cython.locals(phase=str)
cpdef _act_fast(bot, Game game, int seat, legal)


@cython.locals(a=Action, others=bint, tiles=list, by_kind=dict, first=Py_ssize_t, i=Py_ssize_t,
               n=Py_ssize_t)
cpdef _turn(BaseBot bot, Hand hand, legal)
@cython.locals(a=Action)
cpdef Action _nth_discard(legal, Py_ssize_t first, Py_ssize_t i)
@cython.locals(a=Action, gang=Action, peng=Action, chis=list)
cpdef _claim(Hand hand, int tile, legal)
