# Compiled by Cython: declarations that type lipu.py when the wheel is built (CMakeLists.txt).
# Augments lipu.py when compiled: 三比 (asked at every claim) reads the seat's melds in C.

cimport cython

from mjcore.engine.game cimport Game
from mjcore.engine.melds cimport Meld
from mjcore.engine.seat cimport SeatState


@cython.locals(st=SeatState, m=Meld, source=int, sets=int, listed=bint, count=int)
cpdef count_claims(Game game, int claimer, Meld meld)
