# Compiled by Cython: declarations that type game.py when the wheel is built (CMakeLists.txt).
# Augments game.py when Cython compiles it (pure-Python mode): Game becomes an extension type
# whose attributes live in a C struct (no per-instance dict), and the engine's internal steps
# are cpdef methods, so the game loop calls them (and reads the fields) in C. Every attribute
# stays public (readable and writable from Python, the variants and the tests), every method
# stays callable from Python, and game.py is unchanged as the plain-Python fallback.
# Keep the fields in step with STATE in game.py (tests/test_compiled.py checks).

cimport cython

from mjcore cimport _core
from mjcore._prng cimport Pcg64
from mjcore.engine.actions cimport Action
from mjcore.engine.events cimport EventLog
from mjcore.engine.melds cimport Meld
from mjcore.engine.seat cimport SeatState
from mjcore.engine.wall cimport Wall


cdef class Game:
    cdef public Wall wall
    cdef public object rules, variant, opts, seed
    cdef public dict carry
    cdef public tuple is_flower, _others
    cdef public list seats
    cdef public int shape_bits
    cdef public bint _plain_jokers, _kind_jokers, _drawn_jokers
    cdef public int _free_jokers
    cdef public bint _waits_prefilter, _wins_need_declaration, _draw_wins_need_declaration
    cdef public long long _claim_win_kinds
    cdef public bint _turn_hook, _flower_hook, _multi_win, _pass_peng, _filter_plain_claims
    cdef public int _gang_limit, _filter_plain
    cdef public unsigned long long _flowers
    cdef public int _hand_size
    cdef public bint _choices_first, _deal_hook, _choice_hook, _play_hook, _fenzhang
    cdef public object _filter_turn, _filter_claims, _before_turn, _after_claim
    cdef public frozenset _locks_end
    cdef public tuple _chi_bans
    cdef public int n, dealer, current, drawn, chain, after_gang, gangs_on_table, last_drawer
    cdef public bint haidi, first_go_around, exhausted
    cdef public str phase, draw_how, draw_cause
    cdef public tuple claim
    cdef public dict pending, decisions, _offered_wins, extra
    cdef public list set_aside, won_pool, indicators, horses, liabilities, hidden_indicators
    cdef public list locked_choices, _settlement, _wins
    cdef public EventLog _events
    cdef public bytearray _history_seats
    cdef public list _history_actions
    cdef public dict _answered
    cdef public list _legal

    cpdef int next_seat(self, int seat) except? -1
    cpdef list to_act(self)
    cpdef int first_to_act(self) except? -2
    cpdef tuple legal_actions(self, seat)
    cpdef tuple _legal_at(self, int s)
    cpdef apply(self, seat, action)
    @cython.locals(a=Action)
    cpdef _apply_at(self, int seat, action)
    cpdef _end_hand(self, bint exhausted)
    @cython.locals(st=SeatState, wall=Wall, order=bytes, first=Py_ssize_t, at=Py_ssize_t,
                   j=Py_ssize_t, i=int, size=int, t=int, flowers=cython.ulonglong, hand_size=int,
                   held=list, start=Py_ssize_t)
    cpdef _deal(self)
    @cython.locals(shuffler=Pcg64)
    cpdef _wall_order(self, seed, wall)
    cpdef _start(self)
    cpdef _after_choices(self)
    @cython.locals(i=int, s=int)
    cpdef dict _choice_round(self)
    @cython.locals(i=int, seat=int, last=int, dealer_tile=int, st=SeatState)
    cpdef _begin_play(self)
    cpdef show_indicator(self, int tile, int joker)
    @cython.locals(st=SeatState, last=int, flower=int, aside=list, top=Py_ssize_t,
                   wall=Wall, events=EventLog, flowers=cython.ulonglong)
    cpdef int _replace_flowers(self, int seat) except? -2
    @cython.locals(st=SeatState)
    cpdef long long seat_waits(self, int seat) except? -1
    @cython.locals(st=SeatState)
    cpdef long long waits_before_draw(self, int seat) except? -2
    @cython.locals(st=SeatState)
    cpdef _hand_changed(self, int seat)
    @cython.locals(st=SeatState, chain=int, after=int)
    cpdef win_context(self, int seat, int tile, str how)
    @cython.locals(st=SeatState)
    cpdef evaluate_win(self, int seat, int tile, str how)
    @cython.locals(st=SeatState, m=Meld, t=int, acts=list, plain=int, allowed=cython.ulonglong)
    cpdef _turn_actions(self, int seat)
    cpdef _filtered_turn(self, int seat, tuple acts)
    @cython.locals(free=int, jk=int, hand=bytearray, st=SeatState, known=cython.longlong)
    cpdef bint _may_self_draw(self, int seat) except -1
    cpdef int _split_kind(self) except? -2
    @cython.locals(limit=int)
    cpdef bint gang_limit_hit(self) except -1
    cpdef bint _no_drawn_joker(self) except -1
    @cython.locals(hand=bytearray, natural=bytearray, jk=int)
    cpdef tuple _split_jokers(self, int seat)
    @cython.locals(s=int)
    cpdef _run(self, int seat, action)
    cpdef _resolve_window(self)
    @cython.locals(legal=list, s=Py_ssize_t)
    cpdef _forget_legal(self)
    cpdef _apply_turn(self, int seat, Action action)
    cpdef draw_for(self, int seat)
    cpdef replacement_for(self, int seat, str cause=*)
    @cython.locals(st=SeatState, known=cython.longlong, replace=bint)
    cpdef _receive(self, int seat, int tile, str how)
    @cython.locals(st=SeatState, known=cython.longlong)
    cpdef _discard(self, int seat, int tile)
    @cython.locals(pending=dict, windows=tuple, n=int, others=int, i=int, s=int)
    cpdef _open_claims(self, int src, int tile, str kind)
    @cython.locals(st=SeatState)
    cpdef bint _plain_claim(self, int s, list acts) except -1
    @cython.locals(st=SeatState, hand=bytearray, may_win=bint, may_chi=bint,
                   waits=cython.ulonglong)
    cpdef list _claim_options(self, int s, int src, int tile, str kind)
    @cython.locals(hand=bytearray, low=int, a=int, b=int, r=int, acts=list)
    cpdef list _claim_list(self, SeatState st, int s, int tile, str kind, bint may_win,
                           bint may_chi)
    @cython.locals(banned=cython.ulonglong, hand=bytearray, t=int)
    cpdef bint _chi_leaves_discard(self, SeatState st, int a, int b, int low, int tile) except -1
    @cython.locals(src=int, tile=int, s=int, st=SeatState, hu=list, decided=dict,
                   pending=dict, dec=Action, acts=list, taker=int, take=Action)
    cpdef _resolve_claims(self)
    cpdef _no_claim(self)
    @cython.locals(st=SeatState)
    cpdef _take_discard(self, int s, int src, int tile, Action dec)


@cython.locals(a=Action)
cpdef bint _offers(list acts, str kind) except -1
@cython.locals(r=int)
cpdef bint _chow_held(bytearray hand, int tile) except -1

cdef tuple _DISCARD_WINDOWS, _ROB_WINDOWS
