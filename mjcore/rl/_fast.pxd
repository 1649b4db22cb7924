# Compiled by Cython: declarations that type _fast.py when the wheel is built (CMakeLists.txt).
# Augments _fast.py when Cython compiles it (pure-Python mode, as engine/game.pxd does): Spec
# and SeatPlanes become extension types with C fields, the writers read Game / SeatState
# fields in C and write typed memoryviews (float32 observations, int8 masks, int64 seats and
# rewards).

cimport cython
from libc.stdint cimport int64_t, uint64_t

from mjcore cimport _core
from mjcore.engine.game cimport Game
from mjcore.engine.melds cimport Meld
from mjcore.engine.seat cimport SeatState
from mjcore.engine.wall cimport Wall

cdef int K, N_KINDS, LAST_DISCARDS, PINNED
cdef int TURN, CHOOSE, CLAIM, ROB, FENZHANG, WAITING, OVER
cdef double SCORE_SCALE
cdef int R_HAND, R_HELD, R_DRAWN, R_CLAIM, R_PASS_HU, R_PASS_PENG, R_NO_DISCARD, R_NO_BUGANG
cdef int S_CHI, S_PENG, S_MINGGANG, S_ANGANG, S_NIU, S_RIVER, S_LAST, S_FLOWERS, S_WON
cdef int S_REVEALED, S_WAITS, P_INDICATORS, P_JOKER, P_SET_ASIDE, P_HORSES, SEATS, ENTRIES
cdef int I_COUNT, I_VISIBLE, I_HUA, I_RIVER, I_RIVER_LEN, I_DISCARDS, I_SCORE, N_INFO
cdef int I_SHOWN_HUA, I_HUA_CHOICES
cdef int K_MELDS, K_RIVER, K_FLOWERS, K_WON, KEYS


cdef class Spec:
    cdef public int size, seat_row0, public_row0, n_seat_rows
    cdef public double total_tiles
    cdef public int s_phase, s_to_act, s_draw_how, s_claim_from, s_wall, s_first, s_locks
    cdef public int s_options, seat0, seat_stride
    cdef public int f_score, f_tiles, f_dealer, f_wind, f_current, f_sealed, f_hidden, f_wins
    cdef public int f_declared, f_choices, f_claimed, f_liable, f_hua, f_sanbi
    cdef public bint show_angang, shows_hand, shows_waits, hua, relations
    cdef public bint hu_lock_kinds, hu_lock_any
    cdef public dict declares, by_id
    cdef public tuple choice_names, actions
    cdef public size_t slot_mask
    cdef public uint64_t[::1] slot_key
    cdef public int[::1] slot_index
    cdef public list pinned
    cdef public float[::1] option_values
    cdef public object table, encoder, variant


cdef class SeatPlanes:
    cdef public object game
    cdef public int[:, ::1] entries
    cdef public int64_t[:, ::1] info
    cdef public Py_ssize_t paid, sanbi_claims
    cdef public list sanbi, keys

    @cython.locals(s=int)
    cpdef forget(self, object game)


@cython.locals(keys=list, info=int64_t[:, ::1], s=int, ss=SeatState, j=int, river=list,
               paid=list, end=Py_ssize_t, k=Py_ssize_t, payer=int, payee=int, amount=int64_t)
cpdef refresh(Spec spec, SeatPlanes cache, Game game)

@cython.locals(k=Py_ssize_t)
cdef bint _same_melds(tuple kept, list melds) except -1

@cython.locals(melds=tuple, entries="int[:, ::1]", info=int64_t[:, ::1], keys=list, k=int,
               hua=int, row=int, t=int, m=Meld)
cdef _rebuild_melds(Spec spec, SeatPlanes cache, int s, SeatState ss)

@cython.locals(discards=list, nd=Py_ssize_t, entries="int[:, ::1]", info=int64_t[:, ::1],
               row=int, k=int, i=Py_ssize_t, t=int)
cdef _rebuild_river(SeatPlanes cache, int s, SeatState ss)

cdef int _put(int[:, ::1] entries, int row, int k, int offset, int value) except -1

@cython.locals(n=int, phase=int, st=SeatState, r=int, i=int, o=int, a=int, b=int,
               values="float[::1]")
cpdef encode(Spec spec, SeatPlanes cache, Game game, int seat, float[::1] out)

cdef _zero(Spec spec, float[::1] out)

@cython.locals(pending=dict, decisions=dict, hand=bytearray, t=int, asked=bint, shown=int,
               current=int, src=int, n=int, tile=int, to_act=bint, how=int, total=double,
               wall=Wall, remaining=Py_ssize_t)
cdef _own_rows(Spec spec, Game game, SeatState st, int seat, int phase, float[::1] out)

cdef int _phase_index(str phase) except -1

cdef int _draw_index(object how) except? -2

@cython.locals(t=int, locks=object)
cdef _locks(Spec spec, SeatState st, float[::1] out)

@cython.locals(n=int, s=int, ss=SeatState, base=int, shown=bint, end=int, entries="int[:, ::1]",
               info=int64_t[:, ::1],
               k=int, e=int, hand=bytearray, count=int, t=int, o=int, dealer=int,
               s2=int, claimed=bytearray, over=bint)
cdef _seat_block(Spec spec, SeatPlanes cache, Game game, int seat, int r, int phase,
                 float[::1] out)

@cython.locals(names=tuple, j=int, v=long)
cdef _choices(Spec spec, dict choices, int o, float[::1] out)

@cython.locals(n=int, ra=int, rb=int, stride=int)
cdef _relation(Spec spec, Game game, int seat, int a, int b, int field, float[::1] out)

@cython.locals(st=SeatState)
cdef bint _any_declared(Game game) except -1

@cython.locals(n=int, r=int, a=int, b=int, s=int, st=SeatState, related=bint, hua=int,
               claims=Py_ssize_t, info=int64_t[:, ::1])
cdef _hua_relations(Spec spec, SeatPlanes cache, Game game, int seat, float[::1] out)

@cython.locals(pub=int, t=int, jk=int, extra=dict)
cdef _public_rows(Spec spec, Game game, float[::1] out)

@cython.locals(i=Py_ssize_t)
cpdef fill_mask(Spec spec, Game game, int seat, signed char[::1] out)

@cython.locals(n=Py_ssize_t)
cpdef action_indices(Spec spec, object actions, int64_t[::1] out)

@cython.locals(i=int)
cdef int _index(Spec spec, object a) except -1

cdef size_t _address(object a)

cdef size_t _slot(size_t key, size_t mask)

@cython.locals(mask=size_t, h=size_t)
cdef _insert(Spec spec, size_t key, int i)

@cython.locals(key=size_t, mask=size_t, h=size_t, k=uint64_t)
cdef int _known_index(Spec spec, object a) except -2

@cython.locals(phase=str, decisions=dict, s=int)
cpdef int seat_to_act(Game game) except? -2

@cython.locals(paid=list, end=Py_ssize_t, k=Py_ssize_t, payer=int, payee=int, amount=int64_t)
cpdef Py_ssize_t add_payments(Game game, Py_ssize_t start, int64_t[::1] rewards) except -1

@cython.locals(n_actions=Py_ssize_t, i=Py_ssize_t, a=int64_t)
cpdef Py_ssize_t first_illegal(int64_t[::1] actions, signed char[:, ::1] mask) except -2

@cython.locals(decoded=tuple, finished=list, i=Py_ssize_t, j=Py_ssize_t, players=Py_ssize_t,
               game=Game, s=int)
cpdef list step_batch(Spec spec, list tables, list caches, int64_t[::1] actions, int64_t[::1] seats,
                      float[:, ::1] obs, signed char[:, ::1] mask, int64_t[:, ::1] rewards)
