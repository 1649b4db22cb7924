# Augments game.py when Cython compiles it (pure-Python mode): Game becomes an extension type
# whose attributes live in a C struct (no per-instance dict), so the engine's own reads and
# writes of them are C field accesses. Every attribute stays public (readable and writable from
# Python, the variants and the tests) and game.py stays the plain-Python fallback.
# Keep in step with Game.__init__ and STATE in game.py (tests/test_compiled.py checks).

from mjcore.engine.wall cimport Wall


cdef class Game:
    cdef public Wall wall
    cdef public object variant, opts, seed, carry, is_flower, shape_flags, seats, _others
    cdef public int n, dealer, current, drawn, chain, after_gang, gangs_on_table, last_drawer
    cdef public bint haidi, first_go_around, exhausted
    cdef public object phase, draw_how, draw_cause, claim, pending, decisions, _claim_wins
    cdef public object set_aside, won_pool, indicators, horses, liabilities, hidden_indicators
    cdef public object locked_choices, settlement, wins, events, history, extra
    cdef public object _answered, _legal
