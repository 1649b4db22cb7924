"""Engine features no shipped variant uses yet (flowers, chi, kept tail, 分张, 4-gang end),
exercised through a toy variant under random play with the engine's invariants."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from mjcore.engine import Game
from mjcore.engine.actions import Action
from mjcore.engine.variant import BaseOptions, choice_values, option
from mjcore.variants import register
from mjcore.variants.xuezhan_kaxinwu import XuezhanKaxinwu


@dataclass(frozen=True)
class ToyOptions(BaseOptions):
    gang_chain: str = option("flat", ("flat", "compound"))
    must_gang: bool = option(False)
    three_suits: bool = option(True)
    kaxinwu_single_wait_only: bool = option(False)
    keep_flowers: bool = option(False)
    multi: bool = option(True)


class Toy(XuezhanKaxinwu):
    """血战 scoring on 136+8 tiles with chi, flowers, a kept tail and 分张; a win ends the hand."""

    name = "toy"
    Options = ToyOptions

    def tile_kinds(self, opts):
        return [k for k in range(34) for _ in range(4)] + list(range(34, 42))

    def kept_back(self, opts):
        return 14

    def fenzhang(self, opts):
        return True

    def gang_limit(self, opts):
        return 4

    def chi_allowed(self, opts):
        return True

    def multi_win(self, opts):
        return opts.multi

    def replace_flowers(self, game, seat):
        return not (game.opts.keep_flowers and seat == 1)

    def no_discard_after_chi(self, opts, chow, tile):
        return {tile}

    def after_wins(self, game, wins):
        return None

    def settle_end(self, game):
        return []


TOY = Toy()


@pytest.fixture(autouse=True, scope="module")
def _toy_registered():
    """The toy variant is known by name (Game.from_json) while this module runs, and only then:
    other modules list the registered variants."""
    from mjcore import variants

    register(TOY)
    yield
    variants._CACHE.pop(TOY.name, None)


def run(seed: int, **opts) -> Game:
    rng = random.Random(seed)
    g = TOY.new_game(seed=seed, options=opts)
    full = Counter(TOY.tile_kinds(g.opts))
    while not g.is_over:
        seat = rng.choice(g.to_act())
        acts = g.legal_actions(seat)
        assert acts, (seed, g.phase)
        g.apply(seat, rng.choice(acts))
        assert g.tiles_in_play() == full
        for st in g.seats:
            assert sum(st.hand) + len(st.held_flowers) + 3 * len(st.melds) <= 15
    assert sum(g.scores) == 0
    return g


@pytest.mark.parametrize("seed", range(40))
def test_random_play_invariants(seed):
    g = run(seed, keep_flowers=seed % 2 == 0, multi=seed % 3 != 0)
    h = Game.from_json(g.to_json())
    assert h.scores == g.scores and h.to_json() == g.to_json()


def test_flowers_are_replaced_or_kept():
    g = TOY.new_game(seed=3)
    assert all(not st.held_flowers for st in g.seats)
    assert sum(len(st.flowers) for st in g.seats) >= 0
    kept = TOY.new_game(seed=3, options={"keep_flowers": True})
    s1 = kept.seats[1]
    assert not s1.flowers  # seat 1 keeps (飘) its flowers
    assert all(t >= 34 for t in s1.held_flowers)


def test_chi_forbids_same_tile_discard():
    for seed in range(200):
        g = TOY.new_game(seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.to_act()[0]
            acts = g.legal_actions(seat)
            chis = [a for a in acts if a.kind == "chi"]
            if chis:
                tile = g.claim[1]
                for s in g.to_act():
                    if s != seat:
                        g.apply(s, "pass")
                g.apply(seat, chis[0])
                assert f"discard {tile}" not in map(str, g.legal_actions(seat))
                assert g.seats[seat].melds[-1].kind == "chi"
                return
            g.apply(seat, rng.choice([a for a in acts if a.kind in ("discard", "pass")] or acts))
    pytest.fail("no chi offered in 200 games")


def test_fenzhang_round_reached():
    ended_in_fenzhang = 0
    for seed in range(30):
        g = TOY.new_game(seed=seed)
        while not g.is_over:
            seat = g.to_act()[0]
            acts = g.legal_actions(seat)
            pick = next((a for a in acts if a.kind == "pass"), None) or next(
                a for a in acts if a.kind == "discard"
            )
            g.apply(seat, pick)
        if any(e["type"] == "fenzhang" for e in g.events):
            ended_in_fenzhang += 1
            tail_draws = sum(
                1
                for e in g.events
                if (e["type"] == "draw" and e["how"] == "replacement")
                or (e["type"] == "flower" and e["tile"] is not None)  # a replacement at the deal
            )
            assert g.wall.live == 0 and g.wall.kept == max(14 - tail_draws, 0)
    assert ended_in_fenzhang


class Hooked(XuezhanKaxinwu):
    """血战 with every game set-up and turn hook of its own, each counting its calls (one
    instance per test: the counts are this variant's own)."""

    name = "hooked"
    offered_choices = choice_values([Action("choose", name="sit", value=0)])  # (never offered)

    def __init__(self) -> None:
        self.calls: Counter = Counter()

    def after_deal(self, game):
        self.calls["after_deal"] += 1

    def hand_choices(self, game, seat):
        self.calls["hand_choices"] += 1
        return []

    def after_choices(self, game):
        self.calls["after_choices"] += 1

    def before_turn(self, game, seat):
        self.calls["before_turn"] += 1


def test_a_variants_own_game_hooks_are_asked():
    """The engine skips only the base hooks (Rules.own_hooks): a variant's own are each asked,
    as often as before (set-up once, choices once per seat, a turn's hook before each draw)."""
    v = Hooked()
    rules = v.rules()
    own = {"after_deal", "hand_choices", "after_choices", "before_turn"}
    assert rules.own_hooks == own | {"filter_turn", "filter_claims", "after_claim"}  # (血战's)
    game = rules.new_game(seed=4)
    assert v.calls == {"after_deal": 1, "hand_choices": 4, "after_choices": 1}
    rng = random.Random(4)
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    draws = [e for e in game.events if e["type"] == "draw" and e["how"] == "wall"]
    assert v.calls["before_turn"] == len(draws) + game.exhausted  # (the last finds no tile)
