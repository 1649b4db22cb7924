"""The two contracts of the public surface (issue 21), pinned defect by defect and fuzzed.

1. For any value a caller can pass, only :class:`mjcore.MjcoreError` subclasses (all
   ``ValueError``) escape, and a rejected call leaves the game exactly as it was.
2. Nothing a call returns aliases the game: mutating it, however deep, changes nothing.

The fuzz half is derandomized (the same examples on every run) and bounded by
``MJCORE_FUZZ_CONTRACT_EXAMPLES`` (default 400 examples per property: about half a minute).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import time
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjcore
from mjcore import batch
from mjcore import tiles as T
from mjcore.cli import main
from mjcore.engine.actions import Action
from mjcore.engine.game import Game
from mjcore.engine.match import Match
from mjcore.engine.melds import Meld
from mjcore.errors import InvalidHandError, InvalidStateError, MjcoreError, clip
from mjcore.variants import get_variant, names

EXAMPLES = int(os.environ.get("MJCORE_FUZZ_CONTRACT_EXAMPLES", "400"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # fixed examples in CI: a failure reproduces on every run
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CALLS = {"n": 0}
"""Public calls made by the fuzz properties (printed by the last test with ``-s``)."""


def deep(n: int) -> list[Any]:
    """A list nested ``n`` levels: ``repr`` of it raises RecursionError."""
    x: list[Any] = []
    for _ in range(n):
        x = [x]
    return x


class BadRepr:
    """A value whose ``repr`` raises."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def call(fn, *args, **kwargs):
    """``fn(...)`` or None when it raised a documented error; any other exception fails."""
    CALLS["n"] += 1
    try:
        return fn(*args, **kwargs)
    except MjcoreError as exc:
        assert isinstance(exc, ValueError)
        return None
    except Exception as exc:  # noqa: BLE001 - the point of the test
        raise AssertionError(f"{fn.__name__}: {type(exc).__name__}: {clip(str(exc), 200)}") from exc


def played(variant: str, seed: int, steps: int, hu: bool = False) -> Game:
    """A game after ``steps`` random legal actions (or its end); ``hu``: every win taken."""
    game = get_variant(variant).new_game(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        wins = [a for a in legal if a.kind == "hu"] if hu else []
        game.apply(seat, wins[0] if wins else legal[int(rng.integers(len(legal)))])
    return game


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a caller can read of a game, as plain data."""
    return (
        game.to_json(),
        [game.view(s) for s in range(game.n)],
        [game.events_for(s) for s in range(game.n)],
        game.events,
        list(map(tuple, game.settlement)),
        [w.to_json() for w in game.wins],
        [(s, str(a)) for s, a in game.history],
        [list(map(str, game.legal_actions(s))) for s in range(game.n)],
        game.scores,
    )


def scribble(value: Any, depth: int = 0) -> None:
    """Change ``value`` in place wherever it can be changed, at every level."""
    if depth > 20:
        return
    if isinstance(value, list):
        for v in value:
            scribble(v, depth + 1)
        value.append("changed")
        if len(value) > 1:
            value[0] = "changed"
    elif isinstance(value, dict):
        for v in list(value.values()):
            scribble(v, depth + 1)
        for k in list(value)[:2]:
            value[k] = "changed"
        value["changed"] = 1
    elif isinstance(value, tuple):
        for v in value:
            scribble(v, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            scribble(getattr(value, f.name), depth + 1)
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            for f in dataclasses.fields(value):
                setattr(value, f.name, "changed")


# ---- junk values --------------------------------------------------------------------------
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.sampled_from(
        [
            np.int64(2),
            np.float64("nan"),
            np.bool_(True),
            np.ones(34),
            np.full(34, -1),
            np.full(34, 9),
            np.zeros((2, 34), np.uint8),
            np.array(["x"]),
            float("inf"),
            -1,
            {},
            [],
            ["qingdao"],
            {"x": 1},
            set(),
            object(),
        ]
    ),
    st.builds(BadRepr),
    st.integers(1500, 2500).map(deep),
    st.lists(st.integers(-2, 40), max_size=36),
    st.lists(st.integers(0, 4), min_size=34, max_size=34),
)
variants = st.sampled_from(names())


# ---- contract 1: regressions -------------------------------------------------------------
def _apply_action(v):
    return played("qingdao", 1, 0).apply(0, v)


def _apply_seat(v):
    return played("qingdao", 1, 0).apply(v, "pass")


def _saved_seed(v):
    return Game.from_json({**played("qingdao", 1, 3).to_dict(), "seed": v})


ENTRY_POINTS = {
    "apply(action)": _apply_action,
    "apply(seat)": _apply_seat,
    "new_game(seed)": lambda v: get_variant("qingdao").new_game(seed=v),
    "Match(players)": lambda v: Match("qingdao", players=v),
    "Match(variant)": lambda v: Match(v),
    "get_variant": get_variant,
    "tiles.parse": T.parse,
    "tiles.to_kinds": T.to_kinds,
    "Game.from_json(seed)": _saved_seed,
    "simulate(variant)": lambda v: mjcore.simulate(v, 0),
    "simulate(games)": lambda v: mjcore.simulate("qingdao", v),
    "Action.parse": Action.parse,
    "Meld.parse": Meld.parse,
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_deeply_nested_input_is_a_documented_error(entry):
    """errors.clip() called repr(): RecursionError escaped (also {value!r:.80} in sim)."""
    with pytest.raises(MjcoreError):
        ENTRY_POINTS[entry](deep(2000))


def test_a_900_deep_json_action_is_a_documented_error():
    action = json.loads("[" * 900 + "]" * 900)
    with pytest.raises(MjcoreError):
        _apply_action(action)


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_a_value_whose_repr_raises_is_a_documented_error(entry):
    with pytest.raises(MjcoreError):
        ENTRY_POINTS[entry](BadRepr())


def test_clip_never_raises_and_stays_bounded():
    for value in (deep(5000), BadRepr(), [BadRepr()], {"k": deep(3000)}):
        assert len(clip(value)) <= 60


@pytest.mark.parametrize("call_it", [
    lambda: get_variant(["x"]),
    lambda: Match({}),
    lambda: Match.from_json({**json.loads(_match_json()), "variant": ["qingdao"]}),
])  # fmt: skip
def test_an_unhashable_variant_name_is_a_documented_error(call_it):
    with pytest.raises(MjcoreError):
        call_it()


def _match_json() -> str:
    m = Match("qingdao", seed=2)
    m.new_hand()
    return m.to_json()


def test_mixed_type_keys_in_saved_forms_are_invalid_state():
    saved = played("qingdao", 1, 3).to_dict()
    with pytest.raises(InvalidStateError, match="unknown"):
        Game.from_json({**saved, 1: 0, "x": 0})
    with pytest.raises(InvalidStateError, match="unknown"):
        Match.from_json({**json.loads(_match_json()), 1: 0, "x": 0})


def test_ragged_batch_counts_are_an_invalid_hand():
    with pytest.raises(InvalidHandError):
        batch.is_win([[0] * 34, [0] * 33])
    with pytest.raises(InvalidHandError):
        batch.waits(np.zeros((2, 34), np.uint8), [[1], [1, 2]])


@pytest.mark.parametrize("mask", [None, float("inf"), "x", -1, 1 << 34, True, 1.5, [3]])
def test_mask_to_kinds_rejects_what_is_no_kinds_mask(mask):
    with pytest.raises(InvalidHandError):
        batch.mask_to_kinds(mask)


def test_mask_to_kinds_reads_real_masks():
    assert batch.mask_to_kinds(0b101) == [0, 2]
    assert batch.mask_to_kinds(np.uint64(1 << 33)) == [33]
    assert batch.mask_to_kinds(0) == []


@pytest.mark.parametrize("vec", [np.ones(34), np.full(34, -1), np.full(34, 9), np.full(34, True)])
def test_format_rejects_count_vectors_that_are_no_hand(vec):
    with pytest.raises(InvalidHandError):
        T.format(vec)


def test_from_counts_rejects_what_is_no_count_vector():
    for vec in ([0.5] * 34, [-1] * 34, [9] * 34, [0] * 35, "1m", None, [True] * 34):
        with pytest.raises(InvalidHandError):
            T.from_counts(vec)
    assert T.format(T.counts("123m")) == "123m"
    assert T.from_counts(bytearray(T.counts("11z"))) == [27, 27]


def test_simulate_writes_a_file_name_with_a_colon(tmp_path, monkeypatch):
    pytest.importorskip("pyarrow")
    monkeypatch.chdir(tmp_path)
    mjcore.simulate("xuezhan_kaxinwu", 2, bots="random", out="run:1.parquet")
    assert (tmp_path / "run:1.parquet").stat().st_size > 0
    from mjcore.sim.records import read_hand

    assert read_hand("run:1.parquet", 1)["hand"] == 1


LONG_RUN = """
import resource, time
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
import mjcore
from mjcore.sim.runner import chunk_ranges

class StopAtOnce:
    def act(self, view, legal):
        raise KeyboardInterrupt

t0 = time.perf_counter()
first = next(iter(chunk_ranges(10**11, 500, 1)))
stats = mjcore.simulate("xuezhan_kaxinwu", 10**11, bots=StopAtOnce())
print(first, stats.interrupted, stats.games, round(time.perf_counter() - t0, 1))
"""


def test_a_huge_run_starts_at_once_in_constant_memory(tmp_path):
    """simulate(games=10**11) built every chunk before the first hand (memory ran out)."""
    out = subprocess.run(  # (outside the source tree: its unbuilt mjcore/ must not shadow)
        [sys.executable, "-c", LONG_RUN], capture_output=True, text=True, timeout=120,
        cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("(0, 500) True 0 "), out.stdout


# ---- silently wrong answers ---------------------------------------------------------------
SEVEN = "1133557799m1133p"


@pytest.mark.parametrize("flag", ["no", "", 1, 0, None, np.int64(1), [True]])
def test_form_flags_must_be_bools(flag):
    """seven_pairs="no" was truthy: the hand won (single-hand and batch)."""
    with pytest.raises(InvalidHandError, match="seven_pairs"):
        mjcore.is_win(SEVEN, seven_pairs=flag)
    with pytest.raises(InvalidHandError, match="seven_pairs"):
        batch.is_win(T.counts(SEVEN)[None], seven_pairs=flag)
    with pytest.raises(InvalidHandError, match="pair258"):
        mjcore.decompositions("123m456m789m123p11s", pair258=flag)


def test_form_flags_accept_python_and_numpy_bools():
    assert mjcore.is_win(SEVEN, seven_pairs=True)
    assert not mjcore.is_win(SEVEN, seven_pairs=np.bool_(False))
    assert list(batch.is_win(T.counts(SEVEN)[None], seven_pairs=np.True_)) == [True]
    assert mjcore.shanten(SEVEN, knitted=False, thirteen_orphans=np.False_) == -1


def test_batch_and_single_hand_agree_that_a_bool_is_no_joker_count():
    c = T.counts("123456789m1122p")[None]
    for jokers in (True, np.bool_(True), np.array([True])):
        with pytest.raises(InvalidHandError, match="jokers"):
            batch.is_win(c, jokers)
    with pytest.raises(InvalidHandError, match="jokers"):
        mjcore.is_win(c[0], True)


# ---- contract 2: regressions -------------------------------------------------------------
def test_events_never_share_values_with_the_log():
    game = played("xuezhan_kaxinwu", 3, 30)
    before = snapshot(game)
    events = game.events
    events[0]["hands"][1] = "changed"
    assert game.events_for(1)[0]["hands"][1] != "changed"
    for got in (game.events, game.events_for(0), game.event_log.since(0), game.event_log[:]):
        scribble(got)
    scribble(game.event_log[0])
    scribble(game.event_log.select("deal", "claim", "draw"))
    assert snapshot(game) == before
    assert Game.from_json(game.to_json()).events == game.events


def test_a_logged_list_stays_the_loggers_own():
    game = played("qingdao", 1, 0)
    tiles = [1, 2]
    game.log("test", tiles=tiles)
    tiles.append(3)
    assert game.events[-1]["tiles"] == [1, 2]


def test_settlement_and_wins_are_copies():
    game = next(
        g for g in (played("xuezhan_kaxinwu", s, 400, hu=True) for s in range(50)) if g.wins
    )
    before = snapshot(game)
    game.settlement.append(game.settlement[0])
    game.settlement.clear()
    game.wins[0].payments.append(game.settlement[0])
    game.wins[0].seat = 3
    scribble(game.wins)
    assert snapshot(game) == before


def test_match_state_and_saved_dicts_are_copies():
    m = Match("rongcheng", seed=3)
    m.new_hand()
    before = m.to_json()
    m.hands.clear()
    m.options["piao"] = "changed"
    scribble(m.scores)
    scribble(m.dealers)
    assert m.to_json() == before and len(m.hands) == 1
    game = played("qingdao", 2, 200)
    snap = snapshot(game)
    scribble(game.to_dict())
    scribble(game.next_carry() if game.is_over else {})
    for s in range(game.n):
        scribble(game.view(s))
    assert snapshot(game) == snap


def _saved_with_carry(variant: str, carry: dict[str, Any], **options: Any) -> dict[str, Any]:
    saved = get_variant(variant).new_game(seed=4, options=options or None).to_dict()
    return {**saved, "carry": carry, "history": []}


@pytest.mark.parametrize("variant, carry, options, field", [
    ("rongcheng", {"locked_choices": [{"piao": 1000000}, {}, {}, {}]}, {}, "piao"),
    ("rongcheng", {"locked_choices": [{}, {"zz": 1}, {}, {}]}, {}, "zz"),
    ("rongcheng", {"locked_choices": [{"piao": True}, {}, {}, {}]}, {}, "piao"),
    ("qingdao", {"locked_choices": [{"pao": 3}, {}, {}, {}]}, {}, "pao"),
    ("lipu", {"locked_choices": [{"zuoma": 3}, {}, {}, {}]}, {"zuoma": True}, "zuoma"),
    ("susong", {"locked_choices": [{"zeng": 1000000}, {}, {}, {}]}, {}, "zeng"),
    ("xuezhan_kaxinwu", {"locked_choices": [{"piao": 3}, {}, {}, {}]}, {}, "piao"),
    ("qingdao", {"huangzhuang": "no"}, {}, "huangzhuang"),
    ("qingdao", {"huangzhuang": 1}, {}, "huangzhuang"),
    ("xuezhan_kaxinwu", {"huangzhuang": True}, {}, "huangzhuang"),
])  # fmt: skip
def test_saved_carry_is_checked_against_the_variant(variant, carry, options, field):
    with pytest.raises(InvalidStateError, match=field):
        Game.from_json(_saved_with_carry(variant, carry, **options))


def test_carry_the_variant_offers_still_loads():
    ok = _saved_with_carry("rongcheng", {"locked_choices": [{}, {"piao": 2}, {}, {}]})
    assert Game.from_json(ok).seats[1].choices["piao"] == 2
    assert Game.from_json(_saved_with_carry("qingdao", {"huangzhuang": True})).carry
    m = Match("rongcheng", seed=1)
    for _ in range(3):
        game = m.new_hand()
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            changpao = [a for a in legal if a.name == "changpao" and a.value == 2]
            game.apply(seat, changpao[0] if changpao else legal[0])
    assert Match.from_json(m.to_json()).to_json() == m.to_json()


@pytest.mark.parametrize("fmt", [True, 1.0, "1", None])
def test_match_format_must_be_the_int_version(fmt):
    with pytest.raises(InvalidStateError, match="format"):
        Match.from_json({**json.loads(_match_json()), "format": fmt})


# ---- the command line ---------------------------------------------------------------------
def test_bots_list_fills_the_remaining_seats_with_the_last_spec():
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "-b", "greedy,random", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"] == ["greedy", "random", "random", "random"]
    assert "remaining seats" in CliRunner().invoke(main, ["simulate", "--help"]).output


def test_the_console_script_finds_bots_in_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "mybots_issue21.py").write_text(
        textwrap.dedent(
            """
            from mjcore.bots import GreedyBot

            class ShantenBot(GreedyBot):
                name = "shanten"
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    args = ["simulate", "-n", "1", "-b", "mybots_issue21:ShantenBot", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"] == ["shanten"] * 4


@pytest.mark.parametrize("plot", ["r.txt", "nodir/r.png"])
def test_a_bad_plot_path_is_rejected_before_the_run(plot, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    t0 = time.perf_counter()
    result = CliRunner().invoke(main, ["simulate", "-n", "3", "--plot", plot])
    assert result.exit_code == 2, result.output
    assert "--plot" in result.output and "hands" not in result.output.split("Error")[0]
    assert time.perf_counter() - t0 < 30


def test_replay_names_the_hands_of_the_file_and_h_is_help(tmp_path):
    pytest.importorskip("pyarrow")
    out = tmp_path / "hands.parquet"
    mjcore.simulate("xuezhan_kaxinwu", 3, bots="random", out=out)
    result = CliRunner().invoke(main, ["replay", str(out), "--hand", "20000"])
    assert result.exit_code == 1 and "0..2" in result.output, result.output
    result = CliRunner().invoke(main, ["replay", "-h"])
    assert result.exit_code == 0 and "Usage" in result.output and "--hand" in result.output


# ---- the fuzz suite ------------------------------------------------------------------------
actions = st.one_of(
    junk,
    st.sampled_from(["pass", "hu", "discard 5m", "gang 1z", "peng", "chi 345m", "choose pao 1"]),
    st.text(max_size=12),
)


@FUZZ
@given(
    variant=variants,
    seed=st.integers(0, 2**16),
    steps=st.integers(0, 60),
    junk_calls=st.lists(st.tuples(junk, actions), min_size=1, max_size=4),
    queries=st.lists(junk, max_size=3),
)
def test_rejected_calls_change_nothing_and_returns_never_alias(
    variant, seed, steps, junk_calls, queries
):
    game = played(variant, seed, steps, hu=seed % 2 == 0)
    before = snapshot(game)
    for seat, action in junk_calls:
        if call(game.apply, seat, action) is None and snapshot(game) != before:
            raise AssertionError(f"a rejected apply({seat!r}, {action!r}) changed the game")
        before = snapshot(game)
    for value in queries:
        for fn in (game.view, game.legal_actions, game.events_for, game.event_log.since):
            call(fn, value)
        call(game.events_for, 0, value)
    assert snapshot(game) == before
    # Every returned object, changed everywhere it can be, changes nothing in the game.
    returned = [
        game.events,
        game.event_log.since(0),
        game.event_log.select("deal", "draw", "discard", "claim", "pay"),
        game.settlement,
        game.wins,
        game.history,
        game.to_dict(),
        game.scores,
        *[game.view(s) for s in range(game.n)],
        *[game.events_for(s) for s in range(game.n)],
        *[game.legal_actions(s) for s in range(game.n)],
    ]
    if game.is_over:
        returned.append(game.next_carry())
    for value in returned:
        CALLS["n"] += 1
        scribble(value)
    assert snapshot(game) == before
    assert Game.from_json(game.to_json()).to_json() == before[0]


@FUZZ
@given(
    variant=variants,
    key=st.sampled_from(["format", "variant", "players", "options", "dealer", "seed", "carry"]),
    value=junk,
    extra=st.one_of(st.none(), st.tuples(junk.filter(lambda v: _hashable(v)), junk)),
)
def test_saved_forms_reject_junk_with_invalid_state(variant, key, value, extra):
    saved = played(variant, 7, 20).to_dict()
    data: dict[Any, Any] = {**saved, key: value}
    if extra is not None:
        data[extra[0]] = extra[1]
    game = call(Game.from_json, data)
    if game is not None:
        assert Game.from_json(game.to_json()).to_json() == game.to_json()
    match = json.loads(_match_json())
    mdata = {**match, key if key in match else "seed": value}
    call(Match.from_json, mdata)
    carry = {"locked_choices": [{"piao": value}, {}, {}, {}]} if key == "carry" else value
    call(Game.from_json, {**saved, "carry": carry, "history": []})


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


@FUZZ
@given(counts=junk, jokers=junk, flag=junk, mask=junk, tile=junk)
def test_hand_tile_and_batch_functions_only_raise_documented_errors(
    counts, jokers, flag, mask, tile
):
    for fn in (mjcore.is_win, mjcore.is_ready, mjcore.waits, mjcore.shanten):
        call(fn, counts, jokers)
        call(fn, "123m456p789s11z", 0, seven_pairs=flag)
        call(fn, counts, 0, pair258=flag, knitted=flag)
    call(mjcore.decompositions, counts, jokers, pair258=flag)
    call(mjcore.hand_facts, counts, tile, jokers)
    for fn in (batch.is_win, batch.is_ready, batch.waits, batch.shanten):
        call(fn, counts, jokers)
        call(fn, np.zeros((2, 34), np.uint8), jokers, thirteen_orphans=flag)
    call(batch.mask_to_kinds, mask)
    for fn in (T.parse, T.to_kinds, T.counts, T.format, T.from_counts, T.kind, T.name, T.names):
        call(fn, tile)
    call(Action.parse, tile)
    call(Meld.parse, tile)
    call(Action, tile, tile)
    call(get_variant, tile)


@FUZZ
@given(
    variant=st.one_of(variants, junk),
    args=st.fixed_dictionaries(
        {},
        optional={
            "players": junk,
            "options": junk,
            "seed": junk,
            "dealer": junk,
            "carry": junk,
            "wall": junk,
        },
    ),
    sim=st.fixed_dictionaries(
        {},
        optional={
            "players": junk,
            "options": junk,
            "bots": junk,
            "seed": junk,
            "workers": junk,
            "chunk_size": junk,
            "duplicate": junk,
            "progress": junk,
            "out": junk,
        },
    ),
)
def test_constructors_and_simulate_only_raise_documented_errors(variant, args, sim):
    v = call(get_variant, variant)
    if v is not None:
        call(v.new_game, **args)
        call(Match, v, **{k: args[k] for k in ("players", "options", "seed") if k in args})
    sim = {  # no process pools, and no files written in the working folder
        k: val
        for k, val in sim.items()
        if not (k == "workers" and not (val is None or (type(val) is int and val == 1)))
        and not (k == "out" and isinstance(val, (str, bytes)))
    }
    call(mjcore.simulate, variant, 0, **sim)


def test_fuzz_call_count(capsys):
    """How many public calls the properties above made (run with ``-s`` to see it)."""
    with capsys.disabled():
        print(f"\nissue-21 fuzz suite: {CALLS['n']} public calls")
