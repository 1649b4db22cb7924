"""宿松 wins of bot-played hands against a slow reference written from RULES.md V3 alone.

For every win of many seeded hands (greedy bots with random deviations, random options and
player counts) the reference recomputes — from the seat's final state and the public event
log only, with the pure-Python hand reference — the 花 count, the tier, the 花奖 and every
payment (出增 and 吃三比 included), and compares them with what the engine settled.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import reference as ref
from test_susong_rules import _reference_awards

from mjcore.bots import GreedyBot
from mjcore.variants import get_variant
from mjcore.variants.susong import flower_groups

V = get_variant("susong")
WINDS = range(27, 31)
MELD_HUA = {  # (meld kind, is wind) -> 花, RULES.md V3.5
    ("peng", True): 1,
    ("zhigang", True): 2,
    ("bugang", True): 2,
    ("angang", True): 3,
    ("zhigang", False): 1,
    ("bugang", False): 1,
    ("angang", False): 2,
}


def ref_hua(seat, concealed) -> int:
    if seat.choices.get("piao") == 1:
        return 0
    melds = sum(MELD_HUA.get((m.kind, m.tiles[0] in WINDS), 0) for m in seat.melds)
    return len(seat.flowers) + melds + sum(concealed[w] >= 3 for w in WINDS)


def ref_tier(game, win, events) -> int:
    seat = game.seats[win.seat]
    c = [int(x) for x in seat.hand]
    c[win.tile] += 1
    hua = ref_hua(seat, c)
    melds = seat.melds
    kinds = [t for t in range(34) for _ in range(c[t])] + [t for m in melds for t in m.tiles]
    suits = {t // 9 for t in kinds if t < 27}
    std = ref.win_standard(c, 0)
    assert std or (not melds and ref.seven_pairs(tuple(c), 0, 7, False))
    self_draw = win.how == "self_draw"
    turn = _turn_events(events)
    draws = [e for e in turn if e["type"] == "draw" and e["seat"] == win.seat]
    gangkai = self_draw and bool(draws) and draws[-1]["how"] == "replacement"
    gangs = sum(e["type"] == "gang" for e in turn)
    before = {e["type"] for e in events}
    own_discards = any(e["type"] == "discard" and e["seat"] == win.seat for e in events)
    dealer_up = (game.dealer - 1) % game.n
    up_discarded = any(e["type"] == "discard" and e["seat"] == dealer_up for e in events)
    yisuo = [
        gangkai and hua >= 6,
        gangkai and gangs >= 2,
        not melds and ref.seven_pairs(tuple(c), 0, 7, False),
        len(suits) == 1,  # 清一色 or 混一色
        std
        and ref.win_standard(c, 0, chows=False)
        and all(m.kind != "chi" for m in melds),  # 碰碰胡
        len(melds) == 4
        and all(m.kind in ("peng", "zhigang", "bugang") for m in melds)
        and sum(c) == 2,  # 全求人
        hua == 0,
        win.how == "rob_gang",
        self_draw and win.seat == game.dealer and not before & {"discard", "gang", "claim"},
        self_draw
        and win.seat != game.dealer
        and not before & {"gang", "claim"}
        and not own_discards
        and not up_discarded,  # 地胡
    ]
    if any(yisuo):
        return 4
    if gangkai:
        return 2 if hua <= 3 else 3
    return 1 if hua <= 4 else 2 if hua <= 9 else 3


def _turn_events(events):
    """Events of the winner's current turn: after the last discard or claim."""
    start = 0
    for i, e in enumerate(events):
        if e["type"] in ("discard", "claim", "bugang_declared"):
            start = i + (e["type"] != "claim")
    return [e for e in events[start:] if e["type"] != "pay"]


def ref_payments(game, win, per_payer) -> Counter:
    claims = Counter(
        (e["seat"], e["from_seat"])
        for e in game.events
        if e["type"] == "claim" and e["kind"] in ("chi", "peng", "zhigang")
    )
    pairs = [
        {a, b}
        for a in range(game.n)
        for b in range(a + 1, game.n)
        if claims[(a, b)] >= 3 or claims[(b, a)] >= 3
    ]
    unit = game.opts.chuzeng

    def x(payer):
        zeng = game.seats[win.seat].choices.get("zeng", 0)
        return per_payer + unit * (zeng + game.seats[payer].choices.get("zeng", 0))

    out: Counter = Counter()
    if win.how == "self_draw":
        for p in game.others(win.seat):
            out[p] += x(p)
        for pair in pairs:
            if win.seat in pair:
                (partner,) = pair - {win.seat}
                out[partner] += x(partner)
        return out
    d = win.from_seat
    out[d] += x(d)
    for pair in pairs:
        if d in pair and win.seat in pair:
            out[d] += x(d)
        elif d in pair:
            (partner,) = pair - {d}
            out[partner] += x(d)
        elif win.seat in pair:
            (partner,) = pair - {win.seat}
            out[partner] += x(d)
    return out


def play(seed: int):
    rng = np.random.default_rng(seed)
    players = int(rng.integers(2, 5))
    opts = {
        "piaohua": bool(rng.integers(2)),
        "chuzeng": int(rng.choice([0, 1, 2, 5])),
        "flower_bonus_stack": bool(rng.integers(2)),
    }
    game = V.new_game(players=players, options=opts, seed=seed, dealer=int(rng.integers(players)))
    bot = GreedyBot(rng)
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if game.phase == "choose" or rng.random() < 0.9:
            action = bot.act_fast(game, seat, legal)
        else:
            action = legal[int(rng.integers(len(legal)))]
        game.apply(seat, action)
    return game


@pytest.mark.parametrize("chunk", range(3))
def test_engine_wins_match_the_reference(chunk):
    wins = 0
    for seed in range(60 * chunk, 60 * chunk + 60):
        game = play(seed)
        hu = next((i for i, e in enumerate(game.events) if e["type"] == "hu"), None)
        for win in game.wins:
            bd = win.breakdown
            tier = ref_tier(game, win, game.events[:hu])
            seat = game.seats[win.seat]
            awards = _reference_awards(flower_groups(seat.flowers))
            if not game.opts.flower_bonus_stack:
                awards = min(awards, 1)
            assert bd.points == tier + 2 * awards, (seed, win.seat, bd.formula)
            paid = Counter()
            for p in win.payments:
                assert p.payee == win.seat
                paid[p.payer] += p.amount
            assert paid == ref_payments(game, win, bd.points), (seed, win.seat)
            wins += 1
        if not game.wins:
            assert not game.settlement  # 流局: no payments
    assert wins > 20
