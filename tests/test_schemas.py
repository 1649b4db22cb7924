"""The published JSON Schemas (mjcore/schemas/*.json) and TypedDicts (mjcore/types.py) describe
exactly what mjcore emits (issue 23, "Schemas a client can use").

Random games of every variant, its option combinations and table sizes: every event (as logged
and as each seat sees it), views of every seat at sampled steps and at the end, every legal
action text, the saved game and match, and the calculator's input and result of every win
offered validate; mutated instances (a tile as an int or bad text, a dropped or an unknown key,
a wrong type name) do not. A real server's HTTP bodies and WebSocket messages validate too.
The TypedDicts have exactly the keys of their schema objects, and the shipped files are exactly
what ``mjcore.schemas._build`` writes.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

jsonschema = pytest.importorskip("jsonschema")

import mjcore  # noqa: E402
from mjcore import schemas  # noqa: E402
from mjcore import types as MT  # noqa: E402
from mjcore.engine.match import Match  # noqa: E402
from mjcore.errors import InvalidOptionError  # noqa: E402
from mjcore.schemas import _build  # noqa: E402
from mjcore.variants import get_variant, names  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from test_engine_invariants import BUILT_IN, clumped_wall, random_options  # noqa: E402

GAMES = int(os.environ.get("MJCORE_SCHEMA_GAMES", "60"))  # hands per variant (300 in all)
VIEW_RATE = 0.06  # share of steps at which every seat's view is validated (and the last)
REQUIRED = (
    "common",
    "tile",
    "action",
    "view",
    "event",
    "saved_game",
    "saved_match",
    "calculator_input",
    "calculator_result",
    "server_message",
    "client_message",
    "create_room_request",
    "room_summary",
    "variants",
)
VALIDATORS = {name: schemas.validator(name) for name in schemas.names()}


def assert_valid(name: str, instance: Any) -> None:
    error = jsonschema.exceptions.best_match(VALIDATORS[name].iter_errors(instance))
    assert error is None, f"{name}: {error.json_path}: {error.message}\n{instance!r:.600}"


def is_valid(name: str, instance: Any) -> bool:
    return VALIDATORS[name].is_valid(instance)


# ---- the files and the API -----------------------------------------------------------------
def test_every_schema_is_a_valid_draft_2020_12_schema():
    assert set(REQUIRED) <= set(schemas.names())
    for name in schemas.names():
        s = schemas.schema(name)
        jsonschema.Draft202012Validator.check_schema(s)
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert s["$id"] == f"https://mjcore.dev/schemas/{name}.json"
        assert s["title"] and s["description"]


def test_shipped_files_are_what_the_builder_writes():
    here = Path(schemas.__file__).parent
    assert set(schemas.names()) == set(_build.BUILDERS)
    for name in schemas.names():
        assert (here / f"{name}.json").read_text(encoding="utf-8") == _build.render(name), name
    assert schemas.bundled_names() == schemas.names()
    for name in schemas.names():
        assert schemas.bundled_text(name) == _build.render_bundled(name), name


@pytest.mark.parametrize("name", ["view", "event", "server_message", "saved_match", "variants"])
def test_bundled_schemas_stand_alone_and_judge_as_the_registry_does(name):
    """A bundled schema's every $ref is local, and plain jsonschema (no registry, no way to
    fetch) judges documents exactly as mjcore's registry-backed validator does."""
    import jsonschema

    text = schemas.bundled_text(name)
    assert '"$ref": "#' in text or "$ref" not in text
    assert all(part.startswith('"#') for part in text.split('"$ref": ')[1:])
    plain = jsonschema.Draft202012Validator(schemas.bundled(name))
    full = schemas.validator(name)
    for good in real_documents()[name]:
        assert full.is_valid(good), name
        plain.validate(good)
    for bad in ({}, [], {"type": "state"}, "x", [{"name": 1}]):
        assert plain.is_valid(bad) == full.is_valid(bad), bad
    with pytest.raises(InvalidOptionError):
        schemas.bundled_text("nope")


def real_documents() -> dict[str, list[Any]]:
    """Documents of each kind from one played match (views, events, the saved match …)."""
    from mjcore.server.app import variant_info

    match = Match("qingdao", seed=11)
    hand = match.new_hand()
    views = []
    while not hand.is_over:
        seat = hand.to_act()[0]
        views.append(hand.view(seat))
        hand.apply(seat, hand.legal_actions(seat)[-1])
    events = list(hand.events_for(0))
    state = {"type": "state", "hand": 0, "view": views[-1], "events": events[:5], "next": 5,
             "seats": [{"seat": s, "kind": "human", "name": "", "joined": True,
                        "connected": True, "away": False} for s in range(4)],
             "match": {"hands": 1, "scores": [0, 0, 0, 0]}, "ready": []}  # fmt: skip
    return {
        "view": json.loads(json.dumps(views)),
        "event": json.loads(json.dumps(events)),
        "server_message": [json.loads(json.dumps(state)), {"type": "pong", "id": 3}],
        "saved_match": [json.loads(match.to_json())],
        "variants": [json.loads(json.dumps([variant_info(get_variant(n)) for n in BUILT_IN]))],
    }


def test_schema_api():
    view = mjcore.schema("view")
    view["title"] = "changed"
    assert schemas.schema("view")["title"] != "changed"  # a fresh copy each call
    with pytest.raises(InvalidOptionError, match="unknown schema 'nope'.*saved_game"):
        schemas.schema("nope")
    with pytest.raises(InvalidOptionError):
        schemas.validator(3)  # type: ignore[arg-type]
    assert schemas.validator("tile").is_valid("7z") and not schemas.validator("tile").is_valid(7)


def test_validator_without_jsonschema_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    with pytest.raises(ImportError, match="pip install jsonschema"):
        schemas.validator("view")


@pytest.mark.parametrize(
    "text, ok",
    [
        ("discard 4s", True),
        ("discard 1f", True),
        ("gang 7z", True),
        ("chi 456p", True),
        ("choose pao -2", True),
        ("declare kouting", True),
        ("niu 567z", True),
        ("hu", True),
        ("gang 1f", False),
        ("chi 135p", False),
        ("discard 0m", False),
        ("discard 4s 5s", False),
        ("choose pao", False),
        ("fly", False),
        ("", False),
    ],
)
def test_action_grammar(text, ok):
    assert is_valid("action", text) is ok


# ---- random games --------------------------------------------------------------------------
def win_windows(game: Any) -> list[tuple[int, int, str]]:
    """(seat, tile, how) of every win the game offers now."""
    out = []
    if game.phase == "turn" and game.drawn >= 0:
        if "hu" in map(str, game.legal_actions(game.current)):
            out.append((game.current, game.drawn, "self_draw"))
    elif game.phase in ("claim", "rob"):
        src, tile, kind = game.claim
        how = "discard" if kind == "discard" else "rob_gang"
        out += [(s, tile, how) for s in game.pending if "hu" in map(str, game.legal_actions(s))]
    elif game.phase == "fenzhang":
        out += [(s, game.drawn, "fenzhang") for s in game.pending]
    return out


class Checker:
    """Validates what one hand emits, counting what it validated."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.actions: set[str] = set()
        self.types: set[str] = set()  # event types validated
        # Instances already validated, by their JSON text: an identical instance (a seat's copy
        # equal to the logged event, the same discard in another hand) has the same verdict.
        self.seen: set[str] = set()

    def valid(self, name: str, instance: Any) -> None:
        key = name + json.dumps(instance, sort_keys=True)
        if key not in self.seen:
            self.seen.add(key)
            assert_valid(name, instance)
        self.count[name] = self.count.get(name, 0) + 1

    def step(self, game: Any, rng: np.random.Generator) -> None:
        if rng.random() < VIEW_RATE or game.is_over:
            for s in range(game.n):
                self.valid("view", game.view(s))
        for s in game.to_act():
            self.actions.update(str(a) for a in game.legal_actions(s))
        for seat, tile, how in win_windows(game):
            self.win(game, seat, tile, how)

    def win(self, game: Any, seat: int, tile: int, how: str) -> None:
        ctx = game.win_context(seat, tile, how)
        if any(m.kind == "niu" and m.claimed >= 0 for m in ctx.melds):
            return  # (the JSON form has no 扭 stand-in: see test_calculator_agreement)
        data = ctx.to_json()
        self.valid("calculator_input", data)
        result = game.variant.calculate(data, game.opts.to_dict())
        if result is not None:
            self.valid("calculator_result", result.to_json())

    def hand_over(self, game: Any) -> None:
        for events in [game.events] + [game.events_for(s) for s in range(game.n)]:
            for ev in events:
                self.valid("event", ev)
                self.types.add(ev["type"])
        self.valid("saved_game", json.loads(game.to_json()))


def play(name: str, i: int, checker: Checker) -> None:
    rng = np.random.default_rng([i, 23, len(name)])
    v = get_variant(name)
    opts = random_options(name, rng)
    players = int(rng.integers(v.min_players, v.max_players + 1))
    block = (0, 3, 4, 6)[i % 4]
    wall = clumped_wall(v.tile_kinds(v.parse_options(opts)), rng, block) if block else None
    game = v.new_game(players=players, options=opts, seed=i, wall=wall)
    try:
        while not game.is_over:
            checker.step(game, rng)
            asked = game.to_act()
            seat = asked[int(rng.integers(len(asked)))]
            legal = game.legal_actions(seat)
            keen = [a for a in legal if a.kind != "pass"] if rng.random() < 0.5 else legal
            keen = [a for a in legal if a.kind == "niu"] or keen  # (扭: rare at random)
            game.apply(seat, keen[int(rng.integers(len(keen)))])
        checker.step(game, rng)
        checker.hand_over(game)
    except AssertionError as exc:
        raise AssertionError(f"{name} hand {i} ({players} seats, {opts}): {exc}") from exc


@pytest.mark.parametrize("name", BUILT_IN)
def test_random_games_validate(name):
    checker = Checker()
    for i in range(GAMES):
        play(name, i, checker)
    for text in sorted(checker.actions):
        checker.valid("action", text)
    match = Match(name, seed=7)
    for _ in range(3):
        hand = match.new_hand()
        while not hand.is_over:
            seat = hand.to_act()[0]
            hand.apply(seat, hand.legal_actions(seat)[-1])
    checker.valid("saved_match", json.loads(match.to_json()))
    assert checker.count["view"] >= GAMES and checker.count["event"] >= 20 * GAMES
    assert checker.count.get("calculator_result", 0) >= 1, checker.count
    assert EVENTS_MET[name] <= checker.types, EVENTS_MET[name] - checker.types


COMMON_EVENTS = {"deal", "draw", "discard", "claim", "gang", "bugang_declared", "hu", "pay", "end"}
EVENTS_MET = {  # the event types random play must have validated, per variant
    "xuezhan_kaxinwu": COMMON_EVENTS,
    "lipu": COMMON_EVENTS | {"choose", "horses", "liability", "sealed"},
    "susong": COMMON_EVENTS | {"choose", "flower"},
    "qingdao": COMMON_EVENTS | {"choose", "declare", "fenzhang", "indicator", "niu"},
    "rongcheng": COMMON_EVENTS | {"bao", "choose", "declare", "fenzhang", "indicator"},
}


def test_calculator_examples_validate():
    v = get_variant("xuezhan_kaxinwu")
    win = {"concealed": "46s5s123p789s99p", "melds": ["angang 8p"], "win_tile": "5s",
           "how": "self_draw", "gang_chain": 1}  # fmt: skip
    assert_valid("calculator_input", win)
    assert_valid("calculator_result", v.calculate(win).to_json())
    from mjcore.scoring.cli import score_win

    assert_valid("score_output", score_win("xuezhan_kaxinwu", win, {}))
    no = score_win("rongcheng", {"concealed": "123m456p789s11234s", "win_tile": "4s"}, {})
    assert no["win"] is False and is_valid("score_output", no)
    assert not is_valid("calculator_input", {**win, "jokers": -1})
    assert not is_valid("calculator_input", {"win_tile": "5s"})


# ---- mutations -----------------------------------------------------------------------------
FREE = {"options", "carry", "choices", "public"}  # objects whose keys are open or all optional
OPTIONAL = set().union(
    *(t.__optional_keys__ for t in vars(MT).values() if isinstance(t, type) and issubclass(t, dict))
)
TILE_TEXT = {*(f"{d}{s}" for d in "123456789" for s in "mps"), *(f"{d}z" for d in "1234567")}


def walk(value: Any, path: tuple = ()):
    """Every (path, value) inside ``value``, containers before their contents."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, (*path, i))


def replaced(doc: Any, path: tuple, new: Any) -> Any:
    out = json.loads(json.dumps(doc))
    target = out
    for key in path[:-1]:
        target = target[key]
    if new is DROP:
        del target[path[-1]]
    else:
        target[path[-1]] = new
    return out


DROP = object()


def mutations(doc: Any, rng: np.random.Generator, limit: int = 25):
    """Mutated copies of a valid instance that must be invalid: tiles as 5 or "0x", a dropped
    required key, an unknown key, a wrong type name."""
    found = []
    for path, value in walk(doc):
        inside_free = any(k in FREE for k in path if isinstance(k, str))
        if isinstance(value, str) and value in TILE_TEXT:
            found += [(path, 5), (path, "0x")]
        if isinstance(value, dict) and not inside_free:
            found.append(((*path, "surplus"), 1))
            found += [((*path, k), DROP) for k in value if k not in OPTIONAL]
        if path and path[-1] == "type":
            found += [(path, "nope"), (path, value + "x")]
    for j in rng.permutation(len(found))[:limit]:
        path, new = found[j]
        yield path, replaced(doc, path, new)


def sample_hand(name: str) -> Any:
    v = get_variant(name)
    rng = np.random.default_rng(len(name))
    game = v.new_game(options=random_options(name, rng), seed=3)
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    return game


@pytest.mark.parametrize("name", BUILT_IN)
def test_mutated_instances_fail(name):
    game = sample_hand(name)
    rng = np.random.default_rng(1)
    docs = [("view", game.view(0)), ("saved_game", json.loads(game.to_json()))]
    docs += [("event", ev) for ev in game.events_for(1)[::7]]
    wins = game.wins
    if wins:
        docs.append(("calculator_result", wins[0].breakdown.to_json()))
    tried = 0
    for kind, doc in docs:
        assert_valid(kind, doc)
        for path, bad in mutations(doc, rng):
            assert not is_valid(kind, bad), f"{kind} mutated at {path} still validates"
            tried += 1
    assert tried > 50


# ---- TypedDicts ----------------------------------------------------------------------------
def schema_object(name: str, pointer: str = "") -> dict[str, Any]:
    node = schemas.schema(name)
    for part in filter(None, pointer.split("/")):
        node = node[part]
    return node


PAIRS = [
    (MT.View, "view", ""),
    (MT.SeatView, "view", "/$defs/seat"),
    (MT.ClaimView, "view", "/$defs/claim"),
    (MT.PublicState, "view", "/$defs/public"),
    (MT.Hit, "common", "/$defs/hit"),
    (MT.SavedGame, "saved_game", ""),
    (MT.SavedMatch, "saved_match", ""),
    (MT.CalculatorInput, "calculator_input", ""),
    (MT.CalculatorResult, "calculator_result", ""),
    (MT.RoomConfig, "room_config", ""),
    (MT.CreateRoomRequest, "create_room_request", ""),
    (MT.RoomSummary, "room_summary", ""),
    (MT.SeatInfo, "room_summary", "/$defs/seat_info"),
    (MT.MatchInfo, "server_message", "/$defs/state/properties/match"),
    (MT.TingEntry, "view", "/$defs/ting"),
    *((t, "event", f"/$defs/{k}") for k, t in MT.EVENT_TYPES.items()),
    *((t, "server_message", f"/$defs/{k}") for k, t in MT.SERVER_MESSAGE_TYPES.items()),
    *((t, "client_message", f"/$defs/{k}") for k, t in MT.CLIENT_MESSAGE_TYPES.items()),
]


@pytest.mark.parametrize("typed, name, pointer", PAIRS, ids=lambda p: getattr(p, "__name__", p))
def test_typed_dicts_have_the_schema_keys(typed, name, pointer):
    node = schema_object(name, pointer)
    keys = typed.__required_keys__ | typed.__optional_keys__
    assert keys == set(node["properties"]), (typed.__name__, keys ^ set(node["properties"]))
    assert typed.__required_keys__ == set(node.get("required", [])), typed.__name__


def test_every_event_and_message_type_has_a_typed_dict():
    assert set(MT.EVENT_TYPES) == set(schema_object("event", "/$defs"))
    assert set(MT.SERVER_MESSAGE_TYPES) == set(schema_object("server_message", "/$defs"))
    assert set(MT.CLIENT_MESSAGE_TYPES) == set(schema_object("client_message", "/$defs"))


# ---- the server ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("starlette")
    pytest.importorskip("websockets")
    from server_support import Server

    srv = Server(tmp_path_factory.mktemp("schemas") / "rooms.db").start()
    yield srv
    srv.stop()


def sent(client: Any, message: dict[str, Any]) -> None:
    assert_valid("client_message", message)
    client.send(message)


def test_server_messages_validate(server):
    from server_support import Client

    assert_valid("variants", server.get("/api/variants"))
    for name in names():
        request = {"variant": name, "seats": None, "idle_timeout_s": 60, "max_hands": 2}
        request["seats"] = ["human"] + ["greedy"] * (get_variant(name).max_players - 1)
        assert_valid("create_room_request", request)
        status, summary = server.post("/api/rooms", request)
        assert status == 201 and is_valid("room_summary", summary)
        room = summary["room"]
        assert_valid("join_request", {"seat": 0, "name": "alice"})
        status, joined = server.post(f"/api/rooms/{room}/join", {"seat": 0, "name": "alice"})
        assert status == 200 and is_valid("join_response", joined)
        c = Client(server, room)
        try:
            play_over_the_wire(server, room, c, joined["token"])
        finally:
            c.close()
        assert_valid("room_summary", server.get(f"/api/rooms/{room}"))


def play_over_the_wire(server: Any, room: str, c: Any, token: str) -> None:
    """One hand from hello to its end, plus ping, a rejected action and a replaced connection;
    every message both ways is validated."""
    received: list[dict[str, Any]] = []
    for bad in ({"type": "ping", "id": True}, {"type": "act"}, {"type": "hello"}, {"type": "x"}):
        assert not is_valid("client_message", bad), bad
    sent(c, {"type": "ping", "id": "p1"})
    sent(c, {"type": "hello", "token": token, "hand": -1, "since": 0})
    state = None
    for ref in range(1, 400):
        msg = c.recv()
        received.append(msg)
        if msg["type"] != "state":
            continue
        state = msg
        if msg["view"]["phase"] == "over":
            break
        if msg["view"]["legal_actions"]:
            sent(c, {"type": "act", "action": msg["view"]["legal_actions"][0], "id": ref})
    assert state is not None and state["view"]["phase"] == "over"
    sent(c, {"type": "act", "action": "hu", "id": "late"})  # the hand is over: an error
    sent(c, {"type": "back"})
    sent(c, {"type": "next", "hand": 0, "id": 9})
    received.append(c.until(lambda m: m["type"] == "error"))
    received.append(c.until(lambda m: m["type"] == "ok" and m["id"] == 9))
    from server_support import Client

    other = Client(server, room)  # a newer connection for the seat: the first one is closed
    try:
        sent(other, {"type": "hello", "token": token})
        received.append(c.until(lambda m: m["type"] == "closing"))
        received.append(other.recv())
    finally:
        other.close()
    kinds = {m["type"] for m in received}
    assert {"pong", "welcome", "state", "ok", "error", "closing"} <= kinds, kinds
    for msg in received:
        assert_valid("server_message", msg)
    rng = np.random.default_rng(len(received))
    for msg in [received[0], state, *received[-4:]]:
        for path, bad in mutations(msg, rng, limit=12):
            assert not is_valid("server_message", bad), f"{msg['type']} mutated at {path}"
