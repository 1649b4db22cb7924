# Compiled by Cython: declarations that type view.py when the wheel is built (CMakeLists.txt).
# Augments view.py when compiled: a view reads the Game's and each seat's fields in C (a server
# and an agent host build one at every decision).

cimport cython

from mjcore.engine.game cimport Game
from mjcore.engine.seat cimport SeatState


cpdef str public_phase(Game game, int seat)
@cython.locals(st=SeatState, s=Py_ssize_t, over=bint, notation=tuple)
cpdef dict seat_view(Game game, int seat)
