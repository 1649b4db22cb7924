"""Property tests for the 荣成 宝 against a slow, obviously correct reference.

The variant asks the core once with one joker (``jokers=1``) and never enumerates what the
宝 could stand for. The reference here does exactly that enumeration: a 摸宝 win is worth the
best of the 34 natural hands the 宝 could complete (the drawn tile read as each kind in turn),
times 摸宝, times 宝中宝 when the 宝 kind itself is one of those completing kinds.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mjcore.engine.actions import HU
from mjcore.scoring import WinContext
from mjcore.variants import get_variant
from mjcore.variants.rongcheng import _pattern

RV = get_variant("rongcheng")
PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def ready_hands(draw):
    """13 concealed tiles one short of a standard / seven-pairs / 风一色 hand (≤ 3 of a kind)."""
    c = np.zeros(34, dtype=np.uint8)
    form = draw(st.sampled_from(["standard", "pairs", "honors"]))
    if form == "pairs":
        for t in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7)):
            c[t] += 2
    elif form == "honors":
        for _ in range(14):
            c[draw(st.integers(27, 33))] += 1
    else:
        for _ in range(4):
            if draw(st.booleans()):
                low = draw(st.integers(0, 26).filter(lambda t: t % 9 <= 6))
                c[low : low + 3] += 1
            else:
                c[draw(st.integers(0, 33))] += 3
        c[draw(st.sampled_from([1, 4, 7, 10, 13, 16, 19, 22, 25, 0, 9, 27]))] += 2
    assume(c.max() <= 4)
    out = draw(st.sampled_from(np.flatnonzero(c).tolist()))
    c[out] -= 1
    assume(c.max() <= 3)  # the 宝 may then stand for any kind without a fifth copy
    return c


def reference(c13, bao, opts, melds=()):
    """Best natural reading over every kind the 宝 could be, with 摸宝 and 宝中宝."""
    best, completes = None, set()
    for t in range(34):
        c = c13.copy()
        c[t] += 1
        ctx = WinContext(concealed=c, win_tile=t, how="self_draw", melds=melds)
        hits = RV._reading(ctx, opts, c, 0, t)
        if hits is None:
            continue
        completes.add(t)
        if best is None or _pattern(hits) > _pattern(best):
            best = hits
    if best is None:
        return None
    value = _pattern(best) * 2
    colour = any(h.id in ("fengyise", "zhangyise") for h in best)
    if bao in completes and (not colour or c13[bao]):
        value *= 2
    return value


@PROPS
@given(c13=ready_hands(), bao=st.integers(0, 33), luanzhang=st.booleans())
def test_mobao_equals_the_enumerated_reference(c13, bao, luanzhang):
    opts = RV.parse_options({"luanzhang": luanzhang})
    ref = reference(c13, bao, opts)
    ctx = WinContext(concealed=c13, win_tile=bao, how="self_draw", jokers=1, joker_kind=bao)
    joker = RV._reading(ctx, opts, c13, 1, -1)
    assert (joker is None) == (ref is None)
    if joker is not None:
        assert _pattern(joker) == ref, [h.id for h in joker]


@PROPS
@given(c13=ready_hands(), luanzhang=st.booleans())
def test_waits_are_the_kinds_that_win(c13, luanzhang):
    """The locked-hand and 亮听 waits = kinds whose natural reading is a win (reference)."""
    opts = RV.parse_options({"luanzhang": luanzhang})
    mask = RV.waits_mask(c13, (), opts)
    for t in range(34):
        c = c13.copy()
        c[t] += 1
        ctx = WinContext(concealed=c, win_tile=t, how="self_draw")
        assert bool(mask >> t & 1) == (RV._reading(ctx, opts, c, 0, t) is not None), t


@PROPS
@given(
    payments=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 60)), max_size=12
    )
)
def test_loss_cap_cuts_in_order(payments):
    """封顶 32: each seat's payments are cut, in the order made, to what is left of 32."""
    from mjcore.scoring import Payment

    game = RV.new_game(seed=1)
    wanted = [Payment(a, b, n, "x") for a, b, n in payments if a != b]
    settled = game.pay(wanted)
    left = dict.fromkeys(range(4), 32)
    for want, got in zip(wanted, settled, strict=True):
        expect = min(want.amount, left[want.payer])
        left[want.payer] -= expect
        assert (got.payer, got.payee, got.amount) == (want.payer, want.payee, expect)
        assert got.reason == ("x+cap" if expect < want.amount else "x")
    assert sum(game.scores) == 0
    assert all(sum(p.amount for p in game.settlement if p.payer == s) <= 32 for s in range(4))


def test_undeclared_seats_win_no_self_draw_after_the_first_go_around():
    """Variant.self_draw_wins_need_declaration, which lets the engine skip an undeclared seat's
    self-draw evaluation after the first go-around: can_win itself refuses every such win."""
    from mjcore.bots import make_bots

    asked = 0
    for i in range(30):
        game = RV.new_game(seed=i)
        bots = make_bots("random", 4, seeds=range(4))
        while not game.is_over:
            seat = game.to_act()[0]
            if game.phase == "turn" and game.drawn >= 0 and not game.first_go_around:
                if not game.seats[seat].declared:
                    asked += 1
                    assert not RV.can_win(game, seat, game.drawn, "self_draw")
                    assert not RV.can_win(game, seat, game.drawn, "fenzhang")
                    assert HU not in game.legal_actions(seat)
            game.apply(seat, bots[seat].act_fast(game, seat, game.legal_actions(seat)))
    assert asked


def test_undeclared_seats_win_no_claim_after_the_first_go_around():
    """Variant.claim_wins_need_declaration, which lets the engine skip those seats' win
    evaluation: can_win itself refuses every such claim (a discard or a robbed gang)."""
    from mjcore.bots import make_bots

    asked = 0
    for i in range(30):
        game = RV.new_game(seed=i)
        bots = make_bots("random", 4, seeds=range(4))
        while not game.is_over:
            if game.phase in ("claim", "rob") and not game.first_go_around:
                src, tile, kind = game.claim
                how = "discard" if kind == "discard" else "rob_gang"
                for s in range(4):
                    if s != src and not game.seats[s].declared:
                        asked += 1
                        assert not RV.can_win(game, s, tile, how)
            seat = game.to_act()[0]
            game.apply(seat, bots[seat].act_fast(game, seat, game.legal_actions(seat)))
    assert asked
