"""The public boundary a server depends on (issue 7): each defect found in the trial, pinned.

No information leaks in views and events, atomic ``apply``, immutable legal actions,
validated actions / saved state / calculator input, strict loose inputs, the 分张 reserve.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from scenario import drive

import mjcore
from mjcore import tiles as T
from mjcore.cli import main
from mjcore.engine.actions import PASS, Action
from mjcore.engine.game import Game
from mjcore.engine.match import Match
from mjcore.engine.wall import build_wall
from mjcore.errors import (
    IllegalActionError,
    InvalidHandError,
    InvalidOptionError,
    InvalidStateError,
    InvalidTileError,
    InvalidWallError,
)
from mjcore.variants import get_variant

XZ = "xuezhan_kaxinwu"


def random_play(game: Game, seed: int = 0, stop=lambda g: False) -> Game:
    rng = np.random.default_rng(seed)
    while not game.is_over and not stop(game):
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[int(rng.integers(len(legal)))])
    return game


def first_claim_window(variant: str = XZ, seed: int = 0) -> Game:
    """A game stopped at its first claim window that not every other seat is asked in."""
    for s in range(seed, seed + 50):
        game = random_play(
            get_variant(variant).new_game(seed=s),
            s,
            stop=lambda g: g.phase == "claim" and len(g.pending) < g.n - 1,
        )
        if not game.is_over:
            return game
    raise AssertionError("no claim window found")


# ---- information leaks -----------------------------------------------------------------
def test_view_never_tells_who_else_may_claim():
    game = first_claim_window()
    asked = set(game.pending)
    src = game.claim[0]
    for seat in range(game.n):
        view = game.view(seat)
        if seat in asked:
            assert view["to_act"] == [seat] and view["phase"] == "claim"
            assert view["claim"]["tile"] == T.NOTATION[game.claim[1]]
        else:  # the discarder and every seat without an option see the same thing
            assert view["to_act"] == [] and view["phase"] == "waiting"
            assert view["claim"] is None and view["legal_actions"] == []
            if seat != src:
                assert view == {**game.view(src), "seat": seat, "seats": view["seats"]}


def test_a_seat_that_answered_sees_waiting_not_who_is_still_deciding():
    for seed in range(100):
        game = random_play(
            get_variant(XZ).new_game(seed=seed),
            seed,
            stop=lambda g: g.phase == "claim" and len(g.pending) >= 2,
        )
        if not game.is_over:
            break
    else:
        pytest.skip("no window with two claimants in these seeds")
    first, *rest = list(game.pending)
    game.apply(first, PASS)
    assert game.phase == "claim"
    view = game.view(first)
    assert view["phase"] == "waiting" and view["to_act"] == [] and view["claim"] is None
    assert game.view(rest[0])["phase"] == "claim"


def test_unknown_variant_is_a_documented_error():
    with pytest.raises(InvalidOptionError, match="riichi"):
        get_variant("riichi")


def test_events_have_seq_and_stream_from_since():
    game = random_play(get_variant(XZ).new_game(seed=3), 3)
    events = game.events_for(1)
    assert [e["seq"] for e in events] == list(range(len(game.events)))
    k = len(events) // 2
    assert game.events_for(1, since=k) == events[k:]
    assert game.events_for(1, since=len(events)) == []
    with pytest.raises(IllegalActionError):
        game.events_for(1, since=-1)
    with pytest.raises(IllegalActionError):
        game.events_for(9)


def test_events_hide_private_tiles_and_record_no_passes():
    game = first_claim_window()
    for seat in range(game.n):
        for ev in game.events_for(seat):
            assert ev["type"] != "pass"
            if ev["type"] == "draw" and ev["seat"] != seat:
                assert ev["tile"] is None
            if ev["type"] == "deal":
                assert [h is not None for h in ev["hands"]] == [s == seat for s in range(game.n)]


def test_hands_are_shown_when_the_hand_ends_and_on_a_win():
    game = random_play(get_variant("qingdao").new_game(seed=5), 5)
    for seat in range(game.n):
        seats = game.view(seat)["seats"]
        assert [s["hand"] for s in seats] == [T.format(st.counts) for st in game.seats]
    for win in (e for e in game.events if e["type"] == "hu"):
        assert len(T.parse(win["hand"])) % 3 == 2  # the concealed tiles plus the winning tile
    assert any(e["type"] == "hu" for e in game.events) or game.exhausted


# ---- atomic apply, argument checks ---------------------------------------------------------
@pytest.mark.parametrize("bad_seat", [0.0, True, "0", None, -1, 4, 2**70])
def test_bad_seat_is_rejected_and_changes_nothing(bad_seat):
    game = get_variant(XZ).new_game(seed=1)
    before = game.to_json()
    action = game.legal_actions(0)[0]
    with pytest.raises(IllegalActionError):
        game.apply(bad_seat, action)
    with pytest.raises(IllegalActionError):
        game.legal_actions(bad_seat)
    assert game.to_json() == before
    game.apply(0, action)  # still playable


def test_numpy_seat_and_seed_are_converted():
    a = get_variant(XZ).new_game(seed=np.int64(3), dealer=np.int32(1))
    b = get_variant(XZ).new_game(seed=3, dealer=1)
    assert a.to_json() == b.to_json()
    seat = a.to_act()[0]
    action = a.legal_actions(np.int64(seat))[0]
    a.apply(np.int64(seat), action)
    b.apply(seat, action)
    assert a.to_json() == b.to_json()
    assert json.loads(a.to_json())["history"][0][0] == seat


def test_float_seat_in_a_choose_round_leaves_the_table_playable():
    game = get_variant("qingdao").new_game(seed=2)
    assert game.phase == "choose"
    before = game.to_json()
    with pytest.raises(IllegalActionError):
        game.apply(1.0, game.legal_actions(1)[0])
    assert game.to_json() == before
    for seat in list(game.to_act()):
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.phase == "turn"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"dealer": True},
        {"dealer": 1.0},
        {"players": True},
        {"seed": True},
        {"seed": -3},
        {"seed": 1.5},
        {"options": "abc"},
        {"options": {"must_gang": 1}},
        {"carry": {"x": object()}},
        {"carry": "abc"},
    ],
)
def test_new_game_rejects_bad_arguments(kwargs):
    with pytest.raises(InvalidOptionError):
        get_variant(XZ).new_game(**kwargs)


def test_an_exception_inside_apply_restores_the_game_exactly():
    class Failing(type(get_variant(XZ))):
        fail = False

        def gang_payments(self, game, seat, meld, chain):
            if self.fail:
                raise RuntimeError("variant bug")
            return super().gang_payments(game, seat, meld, chain)

    v = Failing()
    wall = build_wall(v.tile_kinds(v.parse_options(None)), 4, hands={0: "1111p23456789s4p"})
    game = v.new_game(wall=wall)
    before, events = game.to_json(), len(game.events)
    v.fail = True
    with pytest.raises(RuntimeError):
        game.apply(0, "gang 1p")
    assert game.to_json() == before and len(game.events) == events
    assert game.seats[0].hand[T.kind("1p")] == 4 and game.wall.tail == len(game.wall.tiles)
    v.fail = False
    game.apply(0, "gang 1p")
    assert game.seats[0].melds[0].kind == "angang"


# ---- immutable legal actions, validated Action ---------------------------------------------
def test_legal_actions_cannot_be_mutated():
    game = get_variant(XZ).new_game(seed=4)
    legal = game.legal_actions(0)
    assert isinstance(legal, tuple)
    with pytest.raises(AttributeError):
        legal.append(Action("hu"))  # type: ignore[attr-defined]
    assert game.legal_actions(0) == legal


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "discard", "tile": 999},
        {"kind": "discard"},
        {"kind": "gang"},
        {"kind": "gang", "tile": 35},
        {"kind": "chi", "tile": 0, "tiles": (0, 2, 3)},
        {"kind": "chi", "tile": 7, "tiles": (7, 8, 9)},
        {"kind": "hu", "tile": 3},
        {"kind": "peng", "name": "x"},
        {"kind": "declare", "name": ""},
        {"kind": "declare", "name": "a b"},
        {"kind": "choose", "name": "pao", "value": 2**40},
        {"kind": "niu", "tiles": (27, 28, 29, 30, 31, 32)},
        {"kind": "bogus"},
        {"kind": "discard", "tile": True},
    ],
)
def test_action_constructor_validates(kwargs):
    with pytest.raises(IllegalActionError):
        Action(**kwargs)


def test_action_text_errors_are_bounded():
    huge = "discard " + "5p" * 500_000
    with pytest.raises(IllegalActionError) as err:
        Action.parse(huge)
    assert len(str(err.value)) < 200
    with pytest.raises(IllegalActionError) as err:
        get_variant(XZ).new_game(seed=1).apply(0, "x" * 10**6)
    assert len(str(err.value)) < 200


# ---- saved state -------------------------------------------------------------------------
def saved_game() -> dict:
    game = random_play(get_variant(XZ).new_game(seed=8), 8, stop=lambda g: len(g.history) > 20)
    return json.loads(game.to_json())


def test_saved_form_has_a_version_and_round_trips():
    data = saved_game()
    assert data["format"] == 2 and all(isinstance(t, str) for t in data["wall"])
    assert Game.from_json(json.dumps(data)).to_json() == json.dumps(data)


def test_format_1_saves_still_load():
    """Format 1 wrote the wall as kind indices; it restores the same game, saved as format 2."""
    data = saved_game()
    old = {**data, "format": 1, "wall": [T.kind(t) for t in data["wall"]]}
    restored = Game.from_json(json.dumps(old))
    assert restored.to_dict() == data
    assert restored.events == Game.from_json(json.dumps(data)).events


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.pop("wall"),
        lambda d: d.update(extra=1),
        lambda d: d.update(format=3),
        lambda d: d.update(format=0),
        lambda d: d.update(format=1),  # a format 1 save has the wall as kind indices
        lambda d: d.update(wall=[T.kind(t) for t in d["wall"]]),  # and format 2 in notation
        lambda d: d.update(wall=["0m"] * len(d["wall"])),
        lambda d: d.update(wall=["1m"] * len(d["wall"])),
        lambda d: d.update(wall=[None] * len(d["wall"])),
        lambda d: d.update(players="4"),
        lambda d: d.update(players=True),
        lambda d: d.update(variant="riichi"),
        lambda d: d.update(options={"nope": 1}),
        lambda d: d.update(wall=d["wall"][:-1]),
        lambda d: d.update(wall=[99] * len(d["wall"])),
        lambda d: d.update(history=[["x"]]),
        lambda d: d.update(history=[[0, 5]]),
        lambda d: d["history"].insert(0, [3, "hu"]),
        lambda d: d["history"].pop(0),
        lambda d: d.update(dealer=9),
        lambda d: d.update(seed="1"),
        lambda d: d.update(carry=[]),
    ],
)
def test_edited_saved_game_raises_invalid_state(edit):
    data = saved_game()
    edit(data)
    with pytest.raises(InvalidStateError):
        Game.from_json(json.dumps(data))


@pytest.mark.parametrize(
    "text", ["", "{", "[]", "null", "1", "[" * 100_000 + "]" * 100_000, b"\xff", 5, None]
)
def test_malformed_saved_text_raises_invalid_state(text):
    with pytest.raises(InvalidStateError):
        Game.from_json(text)
    with pytest.raises(InvalidStateError):
        Match.from_json(text)


def played_match(hands: int = 3) -> Match:
    match = Match(XZ, seed=11)
    for i in range(hands):
        random_play(match.new_hand(), i)
    return match


def test_match_round_trip_and_edits():
    match = played_match()
    text = match.to_json()
    assert Match.from_json(text).to_json() == text
    data = json.loads(text)
    dropped = {**data, "hands": data["hands"][:1] + data["hands"][2:]}
    with pytest.raises(InvalidStateError, match="hand 1"):
        Match.from_json(json.dumps(dropped))
    chain = json.loads(text)
    chain["hands"][2]["dealer"] = (chain["hands"][2]["dealer"] + 1) % 4
    chain["hands"][2]["history"] = []
    with pytest.raises(InvalidStateError, match="dealer"):
        Match.from_json(json.dumps(chain))
    reseeded = json.loads(text)
    reseeded["seed"] = 12
    with pytest.raises(InvalidStateError):
        Match.from_json(json.dumps(reseeded))
    unfinished = json.loads(text)
    unfinished["hands"][0]["history"] = unfinished["hands"][0]["history"][:5]
    with pytest.raises(InvalidStateError, match="not finished"):
        Match.from_json(json.dumps(unfinished))


# ---- the hand calculator -------------------------------------------------------------------
GOOD = {
    "concealed": "46s5s123p789s99p",
    "win_tile": "5s",
    "how": "self_draw",
    "melds": ["angang 8p"],
}


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"flags": "tianhu"}, "flags"),
        ({"flags": ["tianhu"]}, "flags"),  # 血战 has no 天胡 pattern: an unknown flag
        ({"bogus": 1}, "bogus"),
        ({"gang_chain": 2}, "gang_chain"),
        ({"gang_chain": 10**6}, "gang_chain"),
        ({"melds": [], "concealed": "46s5s123p789s99p888p", "gang_chain": 1}, "gang_chain"),
        ({"how": "discard", "gang_chain": 1}, "gang_chain"),
        ({"after_gang": 1}, "after_gang"),
        ({"concealed": "46s5s123p789s9p"}, "concealed"),
        ({"melds": ["angang 8p", "peng 1s", "peng 2s", "peng 3s", "peng 7s"]}, "melds"),
        ({"concealed": "46s5s123p789s11z"}, "tiles"),
        ({"melds": ["chi 789p"]}, "melds"),
        ({"jokers": 1, "concealed": "46s5s123p789s9p"}, "jokers"),
        ({"jokers": True}, "jokers"),
        ({"how": "tsumo"}, "how"),
        ({"win_tile": 5}, "win_tile"),
        ({"melds": "angang 8p"}, "melds"),
    ],
)
def test_calculator_rejects_impossible_input_naming_the_field(edit, field):
    with pytest.raises(InvalidHandError, match=field):
        get_variant(XZ).calculate({**GOOD, **edit})


def test_calculator_rejects_tianhu_on_a_discard_and_empty_input():
    q = get_variant("qingdao")
    win = {"concealed": "123m456p789s11122z", "win_tile": "2z"}
    assert q.calculate({**win, "how": "self_draw", "flags": ["tianhu"]}) is not None
    with pytest.raises(InvalidHandError, match="tianhu"):
        q.calculate({**win, "how": "discard", "flags": ["tianhu"]})
    with pytest.raises(InvalidHandError, match="concealed"):
        q.calculate({})
    with pytest.raises(InvalidHandError):
        q.calculate("not json")


def test_calculator_still_scores_the_good_input():
    assert get_variant(XZ).calculate({**GOOD, "gang_chain": 1}).points == 8


def test_score_and_hand_commands_validate_against_the_variant():
    run = CliRunner().invoke
    out = run(main, ["score", "-v", XZ, "46s5s123p789s11z", "-w", "5s", "--how", "self_draw"])
    assert out.exit_code == 2 and "tiles: 1z" in out.output
    out = run(main, ["score", "-v", XZ, "46s5s123p789s99p", "-w", "5s", "-m", "chi 789p"])
    assert out.exit_code == 2 and "no chi melds" in out.output
    out = run(main, ["hand", "46s123p789s456p11z", "-v", XZ])
    assert out.exit_code == 1 and "tiles: 1z" in out.output


def test_hand_command_caps_the_readings():
    run = CliRunner().invoke
    out = run(main, ["hand", "12345678999p", "-j", "3", "--max-readings", "2", "--json"])
    info = json.loads(out.output)
    assert len(info["decompositions"]) == 2 and info["readings_total"] > 2
    text = run(main, ["hand", "12345678999p", "-j", "3", "--max-readings", "2"]).output
    assert f"and {info['readings_total'] - 2} more reading" in text


# ---- loose inputs --------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["5p", True, 2.0, None, 42, -1])
def test_tile_name_rejects_non_kinds(bad):
    with pytest.raises(InvalidTileError):
        T.name(bad)


@pytest.mark.parametrize("bad", [None, 3.5, b"1m", {"1m": 1}, object()])
def test_counts_rejects_non_tiles(bad):
    with pytest.raises(InvalidTileError):
        T.counts(bad)


@pytest.mark.parametrize("text", ["５p", "٥p", "1２3m", "5p\u00b2"])
def test_non_ascii_digits_are_not_tiles(text):
    with pytest.raises(InvalidTileError):
        T.parse(text)


def test_build_wall_rejects_a_seat_that_does_not_exist():
    v = get_variant(XZ)
    with pytest.raises(InvalidWallError, match="seat 7"):
        build_wall(v.tile_kinds(v.parse_options(None)), 4, hands={7: "1p"})


@pytest.mark.parametrize(
    ("jokers", "message"),
    [
        (-(10**20), "must be >= 0, got -100000000000000000000"),
        (10**20, "at most 14"),
        (True, "integer"),
    ],
)
def test_joker_errors_report_the_real_value(jokers, message):
    with pytest.raises(InvalidHandError, match=message):
        mjcore.is_win("23m456p789p555s11z", jokers=jokers)


# ---- the 分张 reserve (RULES.md §0.5) ------------------------------------------------------
def gang_happy_play(game: Game, seed: int, check=lambda g, seat, legal: None) -> Game:
    """Random play that takes every gang (and never wins), to reach the wall end with gangs."""
    rng = np.random.default_rng(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        check(game, seat, legal)
        gangs = [a for a in legal if a.kind == "gang"]
        rest = [a for a in legal if a.kind != "hu"] or list(legal)
        game.apply(seat, gangs[0] if gangs else rest[int(rng.integers(len(rest)))])
    return game


def test_no_gang_whose_replacement_would_come_from_the_fenzhang_tiles():
    """青岛 带飘 keeps nothing back: no gang is offered once only the n 分张 tiles are live."""

    def check(game, seat, legal):
        if any(a.kind == "gang" for a in legal):
            assert game.wall.live > game.wall.reserve, "gang offered into the 分张 reserve"

    v = get_variant("qingdao")
    for seed in range(60):
        game = gang_happy_play(v.new_game(options={"daipiao": True}, seed=seed), seed, check)
        if game.exhausted:  # nobody won: the 分张 round dealt every seat its tile
            assert len([e for e in game.events if e["type"] == "fenzhang"]) == game.n, seed


def test_wall_tail_draws_stop_at_the_reserve():
    from mjcore.engine.wall import Wall

    wall = Wall(list(range(10)), kept=0, reserve=4)
    wall.draw_tail(), wall.draw(), wall.draw(), wall.draw()
    assert wall.live == 6 and wall.can_draw_tail()
    wall.draw_tail(), wall.draw()
    assert wall.live == 4 and not wall.can_draw_tail() and not wall.can_draw()
    kept = Wall(list(range(10)), kept=2, reserve=4)
    for _ in range(4):
        kept.draw()
    assert kept.live == 4 and kept.can_draw_tail()  # the kept part still has replacements


def test_readme_examples_run():
    """Every ```python block of README.md executes (in order, one namespace)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert blocks, "README has python examples"
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102
    assert drive is not None  # the scenario helpers import cleanly beside it
