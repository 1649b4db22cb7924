# Compiled by Cython: declarations that type xuezhan_kaxinwu.py when the wheel is built
# (CMakeLists.txt). Augments xuezhan_kaxinwu.py when compiled: the turn's restrictions (asked
# at every turn) read the Game's and the seat's fields in C.

cimport cython

from mjcore.engine.game cimport Game
from mjcore.engine.seat cimport SeatState


@cython.locals(st=SeatState)
cpdef list _filter_turn(variant, Game game, int seat, list actions)
