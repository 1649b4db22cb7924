# Compiled by Cython: declarations that type melds.py when the wheel is built (CMakeLists.txt).
# Augments melds.py when compiled: Meld is an extension type whose fields the engine, the
# variants and the RL encoder read in C where they type a meld (game.pxd, rl/_fast.pxd).


cdef class Meld:
    # (objects, as given: a meld is made by the engine, Meld.parse or a variant)
    cdef readonly object kind, tiles, claimed, from_seat
