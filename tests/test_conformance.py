"""Random-play conformance for every registered variant (OpenSpiel's random_sim_test).

Hands are played with random legal actions (and, for half the seeds, a greedy bot with
random deviations, to reach wins, 血战 play after a win and 查叫 with winners) under random
room options, player counts and dealers. At every step: tiles are conserved, scores sum to
zero, views leak nothing hidden, an illegal action raises and changes nothing; at sampled
steps (every step for the first seeds): the state round-trips through JSON and every legal
action applies without raising. At the end, replaying the history reproduces the hand.

``MJCORE_CONFORMANCE_GAMES`` (default 120 per variant) scales the run.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from collections import Counter

import numpy as np
import pytest

from mjcore import tiles
from mjcore.bots import GreedyBot
from mjcore.engine.actions import Action
from mjcore.engine.game import Game
from mjcore.errors import IllegalActionError
from mjcore.variants import get_variant, names

GAMES = int(os.environ.get("MJCORE_CONFORMANCE_GAMES", "120"))
CHUNKS = 4
DEEP = 4  # seeds per chunk checked at every step (round-trip + every legal action)

_TILES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
_PROBES = (
    [Action.parse(f"discard {t}") for t in _TILES]
    + [Action.parse(f"gang {t}") for t in _TILES]
    + [
        Action.parse(a)
        for a in (
            "hu",
            "pass",
            "peng",
            "chi 123p",
            "chi 789s",
            "declare ting",
            "choose piao 0",
            "niu 123z",
        )
    ]
)


def _variant(name):
    try:
        return get_variant(name)
    except ImportError:
        pytest.skip(f"variant {name} is registered but its module is not written yet")


def random_options(variant, rng) -> dict:
    opts = {}
    for f in dataclasses.fields(variant.Options):
        choices = f.metadata.get("choices")
        if isinstance(f.default, bool):
            opts[f.name] = bool(rng.integers(2))
        elif choices:
            opts[f.name] = choices[int(rng.integers(len(choices)))]
    return opts


# ---- per-step checks ---------------------------------------------------------------------
def tiles_in_play(game: Game) -> Counter:
    return game.tiles_in_play()


def check_state(game: Game, full: Counter) -> None:
    assert tiles_in_play(game) == full, "tiles not conserved"
    assert sum(game.scores) == 0, f"scores {game.scores} do not sum to zero"
    for seat in range(game.n):
        check_view(game, seat)


def check_view(game: Game, seat: int) -> None:
    view = game.view(seat)
    text = json.dumps(view)
    assert "wall" not in {k.lower() for k in view}, "view shows the wall"
    assert view["legal_actions"] == [str(a) for a in game.legal_actions(seat)]
    own = view["seats"][seat]
    assert own["concealed_count"] == game.seats[seat].tile_count()
    assert view["to_act"] in ([], [seat]), "a view shows who else is asked"
    if seat not in game.pending:
        assert view["phase"] not in ("claim", "rob", "fenzhang"), "a view shows another's window"
    for other, public in enumerate(view["seats"]):
        if other == seat:
            continue
        assert "drawn" not in public, f"seat {seat} sees seat {other}'s drawn tile"
        if game.is_over:  # every hand is shown at the end
            assert public["hand"] == tiles.format(game.seats[other].counts)
            continue
        assert "hand" not in public, f"seat {seat} sees seat {other}'s tiles"
        assert "legal_actions" not in public
        if not game.variant.angang_public:
            hidden = [m for m in game.seats[other].melds if m.kind == "angang"]
            assert sum(m == "angang ?" for m in public["melds"]) == len(hidden)
    assert text  # JSON-serializable


def _comparable(view: dict) -> dict:
    """A view without the viewer's own decision (it may rightly depend on hidden facts)."""
    return {k: v for k, v in view.items() if k not in ("legal_actions", "to_act")}


def _shown_seats(game: Game) -> set[int]:
    """Seats whose concealed tiles the rules show: 荣成 明搂 (the hand) and 亮听 (its waits)."""
    return {s for s, st in enumerate(game.seats) if st.declared in ("minglou", "liangting")}


def check_hidden(game: Game) -> None:
    """Nothing hidden reaches a view or an event: a hidden indicator (荣成 宝 before its
    reveal) or another seat's concealed tiles (unless the variant shows them) could be
    anything else and every other seat's view and events would be the same."""
    if game.is_over:
        return
    kinds = sorted(set(game.variant.tile_kinds(game.opts)))
    before = [(_comparable(game.view(s)), game.events_for(s)) for s in range(game.n)]
    if game.hidden_indicators:
        clone = copy.deepcopy(game, {id(game.variant): game.variant})
        for i, t in enumerate(clone.hidden_indicators):
            other = kinds[(kinds.index(t) + 1) % len(kinds)]
            clone.hidden_indicators[i] = other
            if clone.extra.get("joker_kind") == t:
                clone.extra["joker_kind"] = other
        after = [(_comparable(clone.view(s)), clone.events_for(s)) for s in range(game.n)]
        assert after == before, "a hidden indicator shows in a view or an event"
    shown = _shown_seats(game)
    for o in range(game.n):
        hand = game.seats[o].hand
        if o in shown or not any(hand):
            continue
        clone = copy.deepcopy(game, {id(game.variant): game.variant})
        t = next(k for k in kinds if hand[k])
        other = next(k for k in kinds if k != t and hand[k] < 4)
        clone.seats[o].hand[t] -= 1
        clone.seats[o].hand[other] += 1
        clone._hand_changed(o)
        for s in range(game.n):
            if s != o:
                assert _comparable(clone.view(s)) == before[s][0], (
                    f"seat {s}'s view depends on seat {o}'s concealed tiles"
                )


def check_round_trip(game: Game) -> None:
    text = game.to_json()
    back = Game.from_json(text)
    assert back.to_json() == text
    assert back.scores == game.scores and back.is_over == game.is_over
    assert back.to_act() == game.to_act()
    for seat in range(game.n):
        assert back.view(seat) == game.view(seat)


def check_illegal(game: Game, seat: int, legal: list[Action], rng) -> None:
    before = game.to_json()
    views = [game.view(s) for s in range(game.n)]
    illegal = [a for a in _PROBES if a not in legal]
    probe = illegal[int(rng.integers(len(illegal)))]
    with pytest.raises(IllegalActionError):
        game.apply(seat, probe)
    others = [s for s in range(game.n) if s not in game.to_act()]
    if others:
        with pytest.raises(IllegalActionError, match="not to act"):
            game.apply(others[int(rng.integers(len(others)))], legal[0])
    with pytest.raises(IllegalActionError):
        game.apply(seat, "discard 0p")
    assert game.to_json() == before, "an illegal action changed the game"
    assert [game.view(s) for s in range(game.n)] == views


def check_every_legal_action(game: Game, seat: int, legal: list[Action], full: Counter) -> None:
    memo = {id(game.variant): game.variant}
    for action in legal:
        clone = copy.deepcopy(game, dict(memo))
        clone.apply(seat, action)
        assert tiles_in_play(clone) == full, f"tiles not conserved after {action}"
        assert sum(clone.scores) == 0


def check_replay(game: Game) -> None:
    again = game.variant.new_game(
        players=game.n,
        options=game.opts.to_dict(),
        wall=game.wall.tiles,
        dealer=game.dealer,
        carry=game.carry,
    )
    for seat, action in game.history:
        again.apply(seat, action)
    assert again.is_over
    assert again.scores == game.scores and again.settlement == game.settlement
    assert again.events == game.events


# ---- the driver ---------------------------------------------------------------------------
def play_checked(variant, seed: int, deep: bool) -> Game:
    rng = np.random.default_rng(seed)
    players = int(rng.integers(variant.min_players, variant.max_players + 1))
    game = variant.new_game(
        players=players,
        options=random_options(variant, rng),
        seed=seed,
        dealer=int(rng.integers(players)),
    )
    full = Counter(variant.tile_kinds(game.opts))
    greedy = GreedyBot(rng) if seed % 2 else None
    sampled = set(rng.choice(400, size=6, replace=False).tolist())
    step = 0
    while not game.is_over:
        check_state(game, full)
        asked = game.to_act()
        assert asked, f"phase {game.phase}: nobody to act but the hand is not over"
        seat = asked[int(rng.integers(len(asked)))]
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} is asked but has no legal action"
        check_illegal(game, seat, legal, rng)
        if deep or step in sampled:
            check_hidden(game)
            check_round_trip(game)
            check_every_legal_action(game, seat, legal, full)
        if greedy is not None and rng.random() < 0.85:
            action = greedy.act_fast(game, seat, legal)
        else:
            action = legal[int(rng.integers(len(legal)))]
        game.apply(seat, action)
        step += 1
        assert step < 5000, "hand does not end"
    check_state(game, full)
    check_round_trip(game)
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(0, "pass")
    check_replay(game)
    assert 0 <= game.next_dealer < game.n
    return game


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", names())
def test_random_play_conformance(name, chunk):
    variant = _variant(name)
    per_chunk = max(1, GAMES // CHUNKS)
    outcomes = Counter()
    for i in range(per_chunk):
        seed = 1000 * chunk + i
        try:
            game = play_checked(variant, seed, deep=i < DEEP)
        except Exception as exc:
            raise AssertionError(f"{name} conformance failed at seed {seed}: {exc}") from exc
        outcomes["win" if game.wins else "no win"] += 1
    assert sum(outcomes.values()) == per_chunk


def test_tiles_in_play_counts_a_multi_win_tile_once():
    """一炮多响 (RULES.md X-e6): two seats win on one discarded 6s, which is one tile."""
    from scenario import drive, scripted_game

    game = scripted_game(
        "xuezhan_kaxinwu",
        {0: "45s123p456p789p11s9p", 2: "66s999s111p222p55p", 3: "6s"},
        draws="7s8s2s",
    )
    drive(
        game,
        [
            (0, "discard 9p"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "discard 6s"),
            (0, "hu"),
            (2, "hu"),
        ],
    )
    assert [w.seat for w in game.wins] == [0, 2]  # the situation
    assert game.tiles_in_play() == Counter(game.variant.tile_kinds(game.opts))
