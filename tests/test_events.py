"""The packed event log reads back exactly the dicts a list of dicts would have held."""

from __future__ import annotations

import copy
import json
import pickle
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjcore.engine.events import Deferred, EventLog, schema
from mjcore.sim import play_game

KINDS = st.sampled_from(["draw", "discard", "pay", "hu", "deal", "x"])
KEYS = st.sampled_from(["seat", "tile", "how", "amount", "hands", "reason", "tiles", "flag"])
VALUES = st.one_of(
    st.integers(-(2**70), 2**70),
    st.booleans(),
    st.none(),
    st.text(max_size=5),
    st.lists(st.integers(0, 41), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
EVENTS = st.lists(st.tuples(KINDS, st.dictionaries(KEYS, VALUES, max_size=5)), max_size=40)
# Logs of up to 40 events of nested values: large examples, slow to generate on a busy machine.
BIG = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def reference(events: list[tuple[str, dict]]) -> list[dict]:
    """What Game.log kept before the packed log: the fields, then type and seq."""
    return [{**data, "type": kind, "seq": i} for i, (kind, data) in enumerate(events)]


def packed(events: list[tuple[str, dict]]) -> EventLog:
    log = EventLog()
    for i, (kind, data) in enumerate(events):
        assert log.append(kind, dict(data)) == i
    return log


@BIG
@given(EVENTS)
def test_reads_back_the_logged_dicts(events):
    log, ref = packed(events), reference(events)
    assert len(log) == len(ref)
    assert list(log) == ref and log == ref and log == packed(events)
    for got, want in zip(list(log), ref, strict=True):
        assert list(got) == list(want)  # field order too: JSON text is unchanged
    assert log.types() == [e["type"] for e in ref]
    for i in range(-len(ref), len(ref)):
        assert log[i] == ref[i]


@BIG
@given(EVENTS, st.integers(-5, 45), st.integers(-5, 45), st.sampled_from([None, 1, 2, -1]))
def test_slices_and_since(events, a, b, step):
    log, ref = packed(events), reference(events)
    assert log[a:b:step] == ref[a:b:step]
    assert log.since(a) == ref[max(a, 0) :]


@BIG
@given(EVENTS, st.sets(KINDS))
def test_select_decodes_only_the_asked_types(events, kinds):
    log, ref = packed(events), reference(events)
    assert list(log.select(*kinds)) == [e for e in ref if e["type"] in kinds]


@BIG
@given(EVENTS)
def test_copies_and_pickles_are_by_value(events):
    log = packed(events)
    for clone in (copy.deepcopy(log), pickle.loads(pickle.dumps(log)), copy.copy(log)):
        assert clone == log and clone is not log


@BIG
@given(EVENTS)
def test_add_with_a_schema_is_append(events):
    log = EventLog()
    for kind, data in events:
        log.add(schema(kind, *data), *data.values())
    assert log == packed(events) == reference(events)


def test_add_takes_at_most_five_fields_and_leaves_the_log_as_it_was():
    log = EventLog()
    log.add(schema("discard", "seat", "tile"), 1, "5m")
    wide = schema("wide", "a", "b", "c", "d", "e", "f")
    with pytest.raises(ValueError, match="at most five"):
        log.add(wide, 1, 2, 3, 4, 5)
    assert len(log) == 1 and log[0] == {"seat": 1, "tile": "5m", "type": "discard", "seq": 0}
    log.append("wide", dict(zip("abcdef", range(6), strict=True)))  # (append takes any shape)
    assert log[1]["f"] == 5


@BIG
@given(EVENTS)
def test_adopt_is_append_without_the_copy(events):
    log = EventLog()
    for i, (kind, data) in enumerate(events):
        assert log.adopt(kind, copy.deepcopy(data)) == i
    assert log == packed(events) == reference(events)
    kept = {"patterns": [{"id": "pihu"}], "hand": "1m"}
    log.adopt("hu", kept)
    got = log[-1]
    got["patterns"][0]["id"] = "x"  # a read is still a copy
    assert log[-1]["patterns"] == [{"id": "pihu"}]


def test_a_deferred_value_is_made_at_each_read():
    """Deferred(fn, args) logs what fn(*args) returns, made only when the event is read: reads,
    copies, pickles and comparisons see the made value, each read a new one."""
    calls = []

    def texts(*args):
        calls.append(args)
        return [f"{a}m" for a in args]

    log = EventLog()
    log.add(schema("deal", "dealer", "hands"), 0, Deferred(texts, (1, 2)))
    log.append("draw", {"seat": 1, "tile": "5m"})
    assert not calls  # nothing made while logging
    want = [{"dealer": 0, "hands": ["1m", "2m"], "type": "deal", "seq": 0}]
    assert log[:1] == want and len(calls) == 1
    got = log[0]
    got["hands"].append("x")  # a read is a new value
    assert log[0]["hands"] == ["1m", "2m"]
    for clone in (copy.copy(log), pickle.loads(pickle.dumps(log))):
        assert clone == log and clone[0] == want[0]
    assert json.loads(json.dumps(list(log)))[0] == want[0]


@pytest.mark.parametrize("variant", ["xuezhan_kaxinwu", "susong"])
def test_the_deal_event_lists_each_seat_s_dealt_tiles(variant):
    """The deal's hands (made when read) are the tiles each seat was dealt, flowers included,
    read off the wall: the dealer's 14 first, then 13 each in play order."""
    from mjcore import tiles as T
    from mjcore.variants import get_variant

    for seed in range(20):
        game = get_variant(variant).new_game(seed=seed, dealer=seed % 4)
        wall, at, hands = game.wall.tiles, 0, [""] * 4
        for i in range(4):
            size = 14 if i == 0 else 13
            hands[(game.dealer + i) % 4] = T.format(sorted(wall[at : at + size]))
            at += size
        assert game.event_log[0]["hands"] == hands


@pytest.mark.parametrize("variant", ["xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng"])
def test_a_hu_event_is_the_win_s_json_and_the_open_hand(variant):
    """The "hu" event (its patterns and hand text made when read) is ``Win.to_json()`` plus the
    hand laid open: a complete hand holding the winning tile."""
    from mjcore import tiles as T

    checked = 0
    for seed in range(12):
        game, _ = play_game(variant, seed % 4, bots="greedy", seed=seed)
        events = game.event_log.select("hu")
        assert len(events) == len(game.wins)
        for event, win in zip(events, game.wins, strict=True):
            hand = event.pop("hand")
            del event["type"], event["seq"]
            assert event == win.to_json()
            tiles = T.parse(hand)
            assert win.tile in tiles and len(tiles) % 3 == 2
            checked += 1
    assert checked


def test_reading_returns_new_dicts():
    log = packed([("draw", {"seat": 1, "tile": 5, "how": "wall"})])
    log[0]["tile"] = 99
    assert log[0]["tile"] == 5


def test_out_of_range_index_raises():
    log = packed([("draw", {"seat": 1})])
    with pytest.raises(IndexError):
        log[1]
    with pytest.raises(IndexError):
        log[-2]
    assert log != 3 and log != [{"seat": 1, "type": "draw", "seq": 1}]


@pytest.mark.parametrize("variant", ["xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng"])
def test_game_events_are_json_and_match_the_log(variant):
    game, _ = play_game(variant, 0, bots="random", seed=11)
    events = game.events
    assert isinstance(events, list) and json.loads(json.dumps(events)) == events
    assert events == game.event_log and len(game.event_log) == len(events)
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert game.events is not events  # a new list each time: callers cannot corrupt the log
    history = game.history
    assert len(history) == len(game.to_dict()["history"])
    assert all(type(s) is int and 0 <= s < game.n for s, _ in history)


def test_a_packed_log_costs_a_few_bytes_an_event():
    """The point of the packed log: well under the ~200 bytes a dict per event cost."""
    game, _ = play_game("qingdao", 0, bots="random", seed=5)
    pairs = [(e.pop("type"), e) for e in game.events]
    for _, e in pairs:
        del e["seq"]
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    log = EventLog()
    for kind, data in pairs:
        if len(data) <= 5:
            log.add(schema(kind, *data), *data.values())
        else:  # (a win's event: the engine adopts it)
            log.adopt(kind, data)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert log == game.event_log and len(pairs) > 30
    assert used / len(pairs) < 48, f"{used / len(pairs):.0f} bytes an event"
