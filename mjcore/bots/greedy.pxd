# Compiled by Cython: declarations that type greedy.py when the wheel is built (CMakeLists.txt).
# Augments greedy.py when compiled: the turn's and the claim's choices (every decision of a
# greedy hand) read the legal actions' fields in C.

cimport cython

from mjcore.bots.base cimport BaseBot
from mjcore.bots.hand cimport Hand, hand_of
from mjcore.engine.actions cimport Action


@cython.locals(a=Action, others=bint, discards=list, tiles=list, by_kind=dict)
cpdef _turn(BaseBot bot, Hand hand, legal)
@cython.locals(a=Action, gang=Action, peng=Action, chis=list)
cpdef _claim(Hand hand, int tile, legal)
