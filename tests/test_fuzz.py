"""Fuzzing the public boundary with hypothesis (issue 7 proof).

Whatever a careless or hostile caller sends — to ``apply``, ``Action``, ``from_json``, the
hand calculator, the tile parser or the CLI — the only exceptions allowed are the documented
``ValueError`` subclasses of :mod:`mjcore.errors`, and a rejected call changes nothing.
The budget is bounded (``MJCORE_FUZZ_EXAMPLES``, default 60 examples per property).
"""

from __future__ import annotations

import json
import os

import numpy as np
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjcore import tiles as T
from mjcore.cli import main
from mjcore.engine.actions import KINDS, Action
from mjcore.engine.game import Game
from mjcore.engine.match import Match
from mjcore.errors import MjcoreError
from mjcore.variants import get_variant, names

EXAMPLES = int(os.environ.get("MJCORE_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def documented(exc: BaseException) -> bool:
    return isinstance(exc, MjcoreError) and isinstance(exc, ValueError)


def call(fn, *args, **kwargs):
    """fn(...) or None; any exception but the documented ValueError subclasses fails."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the point of the test
        assert documented(exc), f"{type(exc).__name__}: {exc}"
        return None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
seats = st.one_of(
    st.integers(-3, 6),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.integers(0, 3).map(np.int64),
)
tile_text = st.text(
    alphabet="0123456789mpszf 東南西北中发白万筒条一二三四五六七八九５", max_size=24
)
action_text = st.one_of(
    st.text(max_size=30),
    st.builds(
        lambda k, arg: f"{k} {arg}".strip(),
        st.sampled_from(KINDS),
        st.one_of(tile_text, st.text(max_size=10), st.integers(-5, 50).map(str)),
    ),
)


def _maybe_action(*fields):
    """An Action from random fields, or its rejection (checked in test_action_fields)."""
    return call(Action, *fields) or "pass pass"


action_fields = st.tuples(
    st.sampled_from(KINDS) | st.text(max_size=4),
    st.integers(-2, 45) | st.booleans(),
    st.lists(st.integers(-1, 40), max_size=5).map(tuple),
    st.text(max_size=6),
    st.integers(-3, 3),
)
actions = st.one_of(
    action_text,
    st.builds(
        _maybe_action,
        st.sampled_from(KINDS),
        st.integers(-2, 45),
        st.lists(st.integers(-1, 40), max_size=5).map(tuple),
        st.text(max_size=6),
        st.integers(-3, 3),
    ),
)


@FUZZ
@given(
    variant=st.sampled_from(names()),
    seed=st.integers(0, 2**32),
    steps=st.lists(st.tuples(st.booleans(), seats, actions), max_size=40),
)
def test_apply_rejects_garbage_atomically(variant, seed, steps):
    game = get_variant(variant).new_game(seed=seed)
    rng = np.random.default_rng(seed)
    for legal_step, seat, action in steps:
        if game.is_over:
            break
        if legal_step:  # advance the hand with a legal move
            s = game.to_act()[0]
            legal = game.legal_actions(s)
            game.apply(s, legal[int(rng.integers(len(legal)))])
            continue
        before = game.to_json()
        try:
            game.apply(seat, action)
        except Exception as exc:  # noqa: BLE001
            assert documented(exc), f"{type(exc).__name__}: {exc}"
            assert game.to_json() == before, "a rejected action changed the game"
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


@FUZZ
@given(fields=action_fields)
def test_action_fields_validate_or_round_trip(fields):
    action = call(Action, *fields)
    if action is not None:
        assert Action.parse(str(action)) == action


@FUZZ
@given(text=st.text(max_size=60))
def test_action_parse_round_trips_or_rejects(text):
    action = call(Action.parse, text)
    if action is not None:
        assert Action.parse(str(action)) == action


def _mutate(data, path, value, mode):
    """Replace / delete / insert at a random place of a nested JSON value."""
    node = data
    for key in path[:-1]:
        node = node[key]
    key = path[-1]
    if mode == "delete":
        del node[key]
    elif mode == "insert" and isinstance(node, list):
        node.insert(key, value)
    else:
        node[key] = value


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            yield from _paths(v, (*prefix, i))


SAVED = {}


def saved(variant: str) -> str:
    if variant not in SAVED:
        game = get_variant(variant).new_game(seed=5)
        rng = np.random.default_rng(5)
        for _ in range(25):
            if game.is_over:
                break
            s = game.to_act()[0]
            legal = game.legal_actions(s)
            game.apply(s, legal[int(rng.integers(len(legal)))])
        SAVED[variant] = game.to_json()
    return SAVED[variant]


@FUZZ
@given(
    variant=st.sampled_from(names()),
    pick=st.integers(0, 10**6),
    value=json_values,
    mode=st.sampled_from(["replace", "delete", "insert"]),
    cut=st.integers(0, 400),
)
def test_mutated_saved_games_are_rejected_or_consistent(variant, pick, value, mode, cut):
    data = json.loads(saved(variant))
    paths = [p for p in _paths(data) if p]
    _mutate(data, paths[pick % len(paths)], value, mode)
    for text in (json.dumps(data), saved(variant)[:cut]):
        game = call(Game.from_json, text)
        if game is not None:  # accepted: then it is a real, consistent game
            assert Game.from_json(game.to_json()).to_json() == game.to_json()
        call(Match.from_json, text)


@FUZZ
@given(
    variant=st.sampled_from(names()),
    fields=st.dictionaries(
        st.sampled_from(
            ["concealed", "win_tile", "how", "melds", "jokers", "gang_chain", "after_gang"]
            + ["flags", "joker_kind", "bogus"]
        ),
        st.one_of(
            json_values,
            tile_text,
            st.lists(st.sampled_from(["peng 3p", "chi 456s", "angang 8p", "niu 567z"]), max_size=5),
            st.sampled_from(["self_draw", "discard", "rob_gang", "fenzhang"]),
        ),
    ),
)
def test_calculator_rejects_or_scores(variant, fields):
    v = get_variant(variant)
    bd = call(v.calculate, fields)
    if bd is not None:
        assert bd.points >= 0 and bd.hits


@FUZZ
@given(variant=st.sampled_from(names()), seed=st.integers(0, 2**16))
def test_calculator_accepts_every_win_the_engine_scores(variant, seed):
    """Every context the engine scores as a win passes the calculator's checks unchanged."""
    v = type(get_variant(variant))()
    scored = []

    def recording_score(ctx, opts):
        bd = type(v).score(v, ctx, opts)
        if bd is not None:
            scored.append(ctx)
        return bd

    v.score = recording_score  # type: ignore[method-assign]
    game = v.new_game(seed=seed)
    rng = np.random.default_rng(seed)
    while not game.is_over:
        s = game.to_act()[0]
        legal = game.legal_actions(s)
        hu = [a for a in legal if a.kind == "hu"]
        game.apply(s, hu[0] if hu else legal[int(rng.integers(len(legal)))])
    for ctx in scored:
        v.check_win(ctx, game.opts)


@FUZZ
@given(text=st.one_of(tile_text, st.text(max_size=30)))
def test_tile_parser_rejects_or_round_trips(text):
    kinds = call(T.parse, text)
    if kinds is not None:
        assert T.parse(T.format(kinds)) == sorted(kinds)
        assert all(0 <= k < T.N_ALL_KINDS for k in kinds)


@FUZZ
@given(
    args=st.one_of(
        st.lists(
            st.one_of(tile_text, st.sampled_from(["-j", "3", "-v", "qingdao", "--json"])),
            max_size=6,
        ).map(lambda a: ["hand", *a]),
        st.lists(
            st.one_of(
                tile_text,
                st.sampled_from(
                    ["-v", "xuezhan_kaxinwu", "-w", "5p", "-m", "peng 1p", "--flag", "x"]
                ),
            ),
            max_size=8,
        ).map(lambda a: ["score", *a]),
    )
)
def test_cli_never_crashes(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (0, 1, 2), result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {result.exception!r}")
