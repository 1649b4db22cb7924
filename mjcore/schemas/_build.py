"""Writes the JSON Schema files of this package: ``python -m mjcore.schemas._build``.

The shipped ``*.json`` files are generated from the definitions below, so the shared pieces
(a tile, a seat, a pattern hit …) are written once; ``tests/test_schemas.py`` checks that the
files are exactly what this module builds, so they cannot drift from it. ``bundled/NAME.json``
is each schema again as one self-contained file (every file it refers to in its ``$defs``),
for validators in other languages; the server serves those at ``/schemas/NAME.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..bots.registry import BOTS

BASE = "https://mjcore.dev/schemas/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"

# ---- regular expressions of the wire format (docs/vocabulary.md "Tiles") -----------------
TILE = r"[1-9][mps]|[1-7]z|[1-8]f"
KIND = r"[1-9][mps]|[1-7]z"  # a tile kind of the 34 (no flower)
GROUP = r"(?:[1-9]+[mps]|[1-7]+z|[1-8]+f)*"
KIND_GROUP = r"(?:[1-9]+[mps]|[1-7]+z)+"
NAME = r"[A-Za-z_][A-Za-z0-9_]{0,31}"
INT32 = r"-?(?:0|[1-9][0-9]{0,9})"
CHOW = r"(?:123|234|345|456|567|678|789)[mps]"
MELD_KINDS = ["chi", "peng", "zhigang", "bugang", "angang", "niu"]
ACTION = (
    rf"^(?:discard (?:{TILE})|gang (?:{KIND})|peng|hu|pass|chi {CHOW}|declare {NAME}"
    rf"|choose {NAME} {INT32}|niu {KIND_GROUP})$"
)
PHASES = ["deal", "choose", "turn", "claim", "rob", "fenzhang", "over", "waiting"]
HOWS = ["self_draw", "discard", "rob_gang", "fenzhang"]


def ref(name: str, definition: str | None = None) -> dict[str, str]:
    """A ``$ref`` to another schema file, or to one of its ``$defs``."""
    return {"$ref": f"{name}.json" + (f"#/$defs/{definition}" if definition else "")}


def common(definition: str) -> dict[str, str]:
    return ref("common", definition)


def obj(
    properties: dict[str, Any], optional: tuple[str, ...] = (), description: str = ""
) -> dict[str, Any]:
    """A strict object: every property but ``optional`` required, no others allowed."""
    out: dict[str, Any] = {"type": "object"}
    if description:
        out["description"] = description
    out["properties"] = properties
    out["required"] = [k for k in properties if k not in optional]
    out["additionalProperties"] = False
    return out


def array(items: dict[str, Any], description: str = "", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": items, **extra}
    if description:
        out["description"] = description
    return out


def const(value: Any) -> dict[str, Any]:
    return {"const": value}


def enum(*values: Any, description: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"enum": list(values)}
    if description:
        out["description"] = description
    return out


def document(name: str, title: str, description: str, body: dict[str, Any]) -> dict[str, Any]:
    """A top-level schema file: ``$schema``, ``$id``, title and description, then ``body``."""
    return {
        "$schema": DRAFT,
        "$id": f"{BASE}{name}.json",
        "title": title,
        "description": description,
        **body,
    }


INT = {"type": "integer"}
COUNT = {"type": "integer", "minimum": 0}
BOOL = {"type": "boolean"}
STR = {"type": "string"}
SEAT = common("seat")
TILE_REF = common("tile")


# ---- common.json ---------------------------------------------------------------------------
def common_schema() -> dict[str, Any]:
    defs = {
        "tile": {
            "type": "string",
            "pattern": f"^(?:{TILE})$",
            "description": "One tile in notation: 1m-9m, 1p-9p, 1s-9s, 1z-7z, flowers 1f-8f.",
        },
        "kind": {
            "type": "string",
            "pattern": f"^(?:{KIND})$",
            "description": "One of the 34 tile kinds (no flower) in notation.",
        },
        "tile_or_hidden": {
            "type": ["string", "null"],
            "pattern": f"^(?:{TILE})$",
            "description": "A tile, or null for a tile the seat may not see.",
        },
        "tile_list": array(TILE_REF, "An ordered run of tiles, one notation string each."),
        "tile_group": {
            "type": "string",
            "pattern": f"^{GROUP}$",
            "description": "A group whose order does not matter, one notation string "
            "('123m456p11z'); '' for none.",
        },
        "seat": {"type": "integer", "minimum": 0, "maximum": 3, "description": "A seat number."},
        "seat_list": array(SEAT, "Seat numbers."),
        "scores": array(INT, "One integer per seat.", minItems=2, maxItems=4),
        "seat_pair": array(SEAT, "Two seats.", minItems=2, maxItems=2),
        "name": {"type": "string", "pattern": f"^{NAME}$", "description": "An ASCII identifier."},
        "meld_text": {
            "type": "string",
            "pattern": rf"^(?:(?:{'|'.join(MELD_KINDS)}) {KIND_GROUP}|angang \?)$",
            "description": "A meld as text, its kind then its tiles ('peng 999s'); another "
            "seat's hidden 暗杠 is 'angang ?'.",
        },
        "how": enum(*HOWS, description="How a win was made."),
        "hit": obj(
            {
                "id": STR,
                "name": STR,
                "value": INT,
                "combine": enum("base", "add", "mul"),
            },
            description="One scoring pattern of a win: id, 中文 name, value, how it combines.",
        ),
        "options": {
            "type": "object",
            "description": "Room options (勾选项) by name.",
            "propertyNames": {"pattern": f"^{NAME}$"},
            "additionalProperties": {"type": ["boolean", "integer", "number", "string"]},
        },
        "variant": {"type": "string", "pattern": f"^{NAME}$", "description": "A variant name."},
    }
    return document(
        "common",
        "mjcore shared definitions",
        "Pieces every other mjcore schema refers to (wire format 2).",
        {"$defs": defs},
    )


# ---- view.json -----------------------------------------------------------------------------
def view_schema() -> dict[str, Any]:
    seat = obj(
        {
            "seat": SEAT,
            "melds": array(common("meld_text")),
            "discards": common("tile_list"),
            "flowers": common("tile_group"),
            "won_tiles": common("tile_list"),
            "concealed_count": COUNT,
            "declared": {"type": "string", "pattern": f"^(?:{NAME})?$"},
            "choices": {
                "type": "object",
                "propertyNames": {"pattern": f"^{NAME}$"},
                "additionalProperties": INT,
            },
            "sealed": BOOL,
            "hand": common("tile_group"),
            "held_flowers": common("tile_group"),
            "drawn": TILE_REF,
        },
        optional=("hand", "held_flowers", "drawn"),
        description="One seat as the viewer may see it.",
    )
    claim = obj(
        {"from": SEAT, "tile": TILE_REF, "kind": enum("discard", "rob")},
        description="The window the viewer is asked in.",
    )
    ting = obj(
        {"declared": common("name"), "hand": common("tile_group"), "waits": common("tile_group")},
        optional=("hand", "waits"),
        description="荣成: a declared seat's 听 (明搂: its hand; 亮听: its waits).",
    )
    public = obj(
        {
            "joker_kind": common("tile_group"),
            "joker_indicator": common("tile_group"),
            "bao": {"oneOf": [TILE_REF, const("hidden"), {"type": "null"}]},
            "ting": array({"oneOf": [{"$ref": "#/$defs/ting"}, {"type": "null"}]}),
            "hua": array(COUNT),
            "sanbi": array(common("seat_pair")),
        },
        optional=("joker_kind", "joker_indicator", "bao", "ting", "hua", "sanbi"),
        description="The variant's public facts (青岛 混, 荣成 宝 and 听, 宿松 花 and 三比).",
    )
    body = obj(
        {
            "variant": common("variant"),
            "options": common("options"),
            "seat": SEAT,
            "dealer": SEAT,
            "phase": enum(*PHASES),
            "current": SEAT,
            "to_act": array(SEAT, maxItems=1),
            "legal_actions": array(ref("action")),
            "claim": {"oneOf": [{"$ref": "#/$defs/claim"}, {"type": "null"}]},
            "wall_remaining": COUNT,
            "wall_live": COUNT,
            "indicators": common("tile_list"),
            "set_aside": common("tile_list"),
            "horses": common("tile_list"),
            "liabilities": array(common("seat_pair")),
            "seats": array({"$ref": "#/$defs/seat"}, minItems=2, maxItems=4),
            "scores": common("scores"),
            "public": {"$ref": "#/$defs/public"},
        }
    )
    body["$defs"] = {"seat": seat, "claim": claim, "public": public, "ting": ting}
    return document(
        "view",
        "mjcore view",
        "game.view(seat): what one seat may know (docs/vocabulary.md, The view).",
        body,
    )


def dispatch(kinds: Any) -> dict[str, Any]:
    """Each object checked against the ``$defs`` entry its ``type`` names (a discriminated
    union: one cheap ``if`` per type rather than a ``oneOf`` that tries every shape)."""
    return {
        "allOf": [
            {
                "if": {"properties": {"type": const(kind)}, "required": ["type"]},
                "then": {"$ref": f"#/$defs/{kind}"},
            }
            for kind in kinds
        ]
    }


# ---- event.json ----------------------------------------------------------------------------
EVENTS: dict[str, dict[str, Any]] = {
    "deal": {"dealer": SEAT, "hands": array({"oneOf": [common("tile_group"), {"type": "null"}]})},
    "indicator": {
        "tile": common("tile_or_hidden"),
        "joker": common("tile_or_hidden"),
        "hidden": BOOL,
        "revealed": BOOL,
    },
    "bao": {"tile": TILE_REF, "replaces": common("tile_or_hidden")},
    "flower": {"seat": SEAT, "flower": TILE_REF, "tile": common("tile_or_hidden")},
    "choose": {"seat": SEAT, "name": common("name"), "value": INT, "locked": BOOL},
    "draw": {"seat": SEAT, "tile": common("tile_or_hidden"), "how": enum("wall", "replacement")},
    "discard": {"seat": SEAT, "tile": TILE_REF},
    "claim": {
        "seat": SEAT,
        "kind": enum("chi", "peng", "zhigang"),
        "tile": TILE_REF,
        "tiles": common("tile_group"),
        "from_seat": SEAT,
    },
    "gang": {
        "seat": SEAT,
        "meld": enum("zhigang", "bugang", "angang"),
        "tile": common("tile_or_hidden"),
        "chain": COUNT,
    },
    "bugang_declared": {"seat": SEAT, "tile": TILE_REF},
    "declare": {"seat": SEAT, "name": common("name")},
    "niu": {"seat": SEAT, "tiles": common("tile_group"), "tiao": BOOL},
    "fenzhang": {"seat": SEAT, "tile": common("tile_or_hidden")},
    "hu": {
        "seat": SEAT,
        "tile": TILE_REF,
        "how": common("how"),
        "from_seat": SEAT,
        "patterns": array(common("hit")),
        "fan": INT,
        "points": INT,
        "formula": STR,
        "hand": common("tile_group"),
    },
    "pay": {"payer": SEAT, "payee": SEAT, "amount": INT, "reason": STR},
    "liability": {"seats": common("seat_pair")},
    "sealed": {"seat": SEAT},
    "horses": {"tiles": common("tile_list")},
    "end": {"scores": common("scores"), "exhausted": BOOL},
}


def event_schema() -> dict[str, Any]:
    defs = {
        kind: obj(
            {**fields, "type": const(kind), "seq": COUNT},
            description=f"A '{kind}' event.",
        )
        for kind, fields in EVENTS.items()
    }
    body = {"type": "object", "required": ["type", "seq"], "properties": {"type": enum(*EVENTS)}}
    body.update(dispatch(EVENTS))
    body["$defs"] = defs
    return document(
        "event",
        "mjcore event",
        "One entry of game.events / game.events_for(seat): a 'type', a 'seq' and exactly the "
        "fields of its type (docs/vocabulary.md, Events).",
        body,
    )


# ---- action, tile --------------------------------------------------------------------------
def action_schema() -> dict[str, Any]:
    return document(
        "action",
        "mjcore action text",
        "An action as text, as str(Action) writes it and view['legal_actions'] lists it "
        "(docs/vocabulary.md, Actions).",
        {"type": "string", "maxLength": 200, "pattern": ACTION},
    )


def tile_schema() -> dict[str, Any]:
    return document("tile", "mjcore tile", "One tile in notation.", TILE_REF)


# ---- saved game and match ------------------------------------------------------------------
SAVED_GAME = {
    "format": const(2),
    "variant": common("variant"),
    "players": {"type": "integer", "minimum": 2, "maximum": 4},
    "options": common("options"),
    "dealer": SEAT,
    "seed": {"type": ["integer", "null"]},
    "carry": {"type": "object"},
    "wall": common("tile_list"),
    "history": array(
        {
            "type": "array",
            "prefixItems": [SEAT, ref("action")],
            "items": False,
            "minItems": 2,
        },
        "Every applied action: [seat, action text].",
    ),
}


def saved_game_schema() -> dict[str, Any]:
    return document(
        "saved_game",
        "mjcore saved game",
        "Game.to_json() in format 2: the exact, restorable state of a hand.",
        obj(SAVED_GAME),
    )


def saved_match_schema() -> dict[str, Any]:
    body = obj(
        {
            "format": const(2),
            "variant": common("variant"),
            "players": {"type": "integer", "minimum": 2, "maximum": 4},
            "options": common("options"),
            "seed": {"type": ["integer", "null"]},
            "first_dealer": SEAT,
            "hands": array(ref("saved_game")),
        }
    )
    return document("saved_match", "mjcore saved match", "Match.to_json() in format 2.", body)


# ---- calculator ----------------------------------------------------------------------------
def calculator_input_schema() -> dict[str, Any]:
    small = {"type": "integer", "minimum": 0, "maximum": 64}
    body = obj(
        {
            "concealed": common("tile_group"),
            "win_tile": TILE_REF,
            "how": common("how"),
            "melds": array({"type": "string"}),
            "jokers": small,
            "joker_kind": {"oneOf": [common("kind"), {"type": "null"}]},
            "gang_chain": small,
            "after_gang": small,
            "flags": array(common("name")),
            "flowers": common("tile_group"),
            "variant": {},
            "options": {},
        },
        optional=(
            "how",
            "melds",
            "jokers",
            "joker_kind",
            "gang_chain",
            "after_gang",
            "flags",
            "flowers",
            "variant",
            "options",
        ),
    )
    return document(
        "calculator_input",
        "mjcore win description",
        "variant.calculate()'s input in JSON (WinContext.to_json / from_json).",
        body,
    )


BREAKDOWN = {"patterns": array(common("hit")), "fan": INT, "points": INT, "formula": STR}


def calculator_result_schema() -> dict[str, Any]:
    return document(
        "calculator_result",
        "mjcore win breakdown",
        "Breakdown.to_json(): what variant.calculate() found a win worth.",
        obj(BREAKDOWN),
    )


def score_output_schema() -> dict[str, Any]:
    win = obj({"variant": common("variant"), "win": const(True), **BREAKDOWN})
    no = obj({"variant": common("variant"), "win": const(False), "reason": STR})
    return document(
        "score_output",
        "mjcore score --json",
        "What `mjcore score --json` prints: the breakdown of a win, or why it is none.",
        {"oneOf": [win, no]},
    )


# ---- server --------------------------------------------------------------------------------
REF_INT = {"type": "integer", "minimum": -(2**53), "maximum": 2**53}
REF_STR = {"type": "string", "maxLength": 32}
MSG_ID = {"oneOf": [REF_INT, REF_STR], "description": "A message id, echoed in its reply."}
OPT_ID = {"oneOf": [REF_INT, REF_STR, {"type": "null"}], "description": "The echoed id."}
SEAT_KIND = {"type": "string", "pattern": f"^{NAME}$", "description": "'human' or a bot name."}
CONFIG = {
    "variant": common("variant"),
    "players": {"type": "integer", "minimum": 2, "maximum": 4},
    "options": common("options"),
    "seats": array(SEAT_KIND, minItems=2, maxItems=4),
    "first_dealer": SEAT,
    "claim_window_ms": {"type": "integer", "minimum": 0, "maximum": 30000},
    "idle_timeout_s": {"type": "number", "minimum": 1, "maximum": 3600},  # floors: rooms.py
    "next_hand_s": {"type": "number", "minimum": 1, "maximum": 3600},
    "max_hands": {"type": "integer", "minimum": 0, "maximum": 10000},
    "bot": {
        "type": "string",
        "enum": list(BOTS),
        "description": "The agent that plays an away human seat and fills omitted bot seats.",
    },
}
SEAT_INFO = {
    "seat": SEAT,
    "kind": SEAT_KIND,
    "name": {"type": "string", "maxLength": 64},
    "joined": BOOL,
    "connected": BOOL,
    "away": BOOL,
}
ERROR_CODES = [
    "bad_json",
    "bad_message",
    "too_large",
    "not_authenticated",
    "forged_seat",
    "not_your_turn",
    "illegal",
    "rate_limited",
    "no_room",
    "server_error",
]
SERVER_MESSAGES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "welcome": ({"room": STR, "seat": SEAT, "config": ref("room_config")}, ()),
    "state": (
        {
            "hand": COUNT,
            "view": ref("view"),
            "events": array(ref("event")),
            "next": COUNT,
            "seats": array(ref("room_summary", "seat_info")),
            "match": obj({"hands": COUNT, "scores": common("scores")}),
            "ready": common("seat_list"),
        },
        (),
    ),
    "ok": ({"id": OPT_ID}, ()),
    "error": ({"code": enum(*ERROR_CODES), "message": STR, "id": MSG_ID}, ("id",)),
    "pong": ({"id": OPT_ID}, ()),
    "closing": ({"reason": STR}, ()),
}
CLIENT_MESSAGES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "hello": (
        {"token": STR, "hand": {"type": "integer", "minimum": -1}, "since": COUNT},
        ("hand", "since"),
    ),
    "act": ({"action": ref("action")}, ()),
    "next": ({"hand": COUNT}, ("hand",)),
    "back": ({}, ()),
    "ping": ({}, ()),
}


def messages(kinds: dict[str, tuple[dict[str, Any], tuple[str, ...]]], client: bool) -> dict:
    """A oneOf over message types, each exactly its fields (clients may add id and seat)."""
    defs = {}
    for kind, (fields, optional) in kinds.items():
        props = {"type": const(kind), **fields}
        extra: tuple[str, ...] = ()
        if client:
            props.update({"id": MSG_ID, "seat": SEAT})
            extra = ("id", "seat")
        defs[kind] = obj(props, optional=optional + extra, description=f"A '{kind}' message.")
    body = {"type": "object", "required": ["type"], "properties": {"type": enum(*kinds)}}
    return {**body, **dispatch(kinds), "$defs": defs}


def server_message_schema() -> dict[str, Any]:
    return document(
        "server_message",
        "mjcore server -> client message",
        "Every WebSocket message the server sends (docs/protocol.md).",
        messages(SERVER_MESSAGES, client=False),
    )


def client_message_schema() -> dict[str, Any]:
    return document(
        "client_message",
        "mjcore client -> server message",
        "Every WebSocket message a client may send (docs/protocol.md).",
        messages(CLIENT_MESSAGES, client=True),
    )


def room_config_schema() -> dict[str, Any]:
    return document(
        "room_config",
        "mjcore room configuration",
        "A room's public configuration (the seed is never sent).",
        obj(CONFIG),
    )


def create_room_request_schema() -> dict[str, Any]:
    body = obj(CONFIG, optional=tuple(k for k in CONFIG if k != "variant"))
    return document("create_room_request", "POST /api/rooms body", "A create-room request.", body)


def room_summary_schema() -> dict[str, Any]:
    body = obj(
        {
            "room": STR,
            "config": ref("room_config"),
            "seats": array({"$ref": "#/$defs/seat_info"}),
            "hand": COUNT,
            "phase": enum("playing", "over"),
            "scores": common("scores"),
        }
    )
    body["$defs"] = {"seat_info": obj(SEAT_INFO, description="One seat of a room.")}
    return document(
        "room_summary",
        "GET /api/rooms/{id} reply",
        "A room's public summary (also the reply to POST /api/rooms).",
        body,
    )


def join_request_schema() -> dict[str, Any]:
    from ..server.security import MAX_NAME

    name = {
        "type": "string",
        "maxLength": MAX_NAME,
        "description": "A display name: no control or invisible characters, at least one "
        "visible one ('' or omitted: none).",
    }
    body = obj({"seat": SEAT, "name": name}, ("seat", "name"))
    return document("join_request", "POST /api/rooms/{id}/join body", "Take a seat.", body)


def join_response_schema() -> dict[str, Any]:
    body = obj({"room": STR, "seat": SEAT, "token": STR})
    return document("join_response", "POST /api/rooms/{id}/join reply", "The seat token.", body)


def variants_schema() -> dict[str, Any]:
    option = obj(
        {
            "default": {"type": ["boolean", "integer", "number", "string"]},
            "choices": {"oneOf": [array({}), {"type": "null"}]},
            "doc": STR,
        }
    )
    pattern = obj(
        {
            "id": STR,
            "name": STR,
            "english": STR,
            "value": INT,
            "kind": enum("fan", "points", "mul", "add", "column"),
        }
    )
    entry = obj(
        {
            "name": common("variant"),
            "title": STR,
            "min_players": {"type": "integer", "minimum": 2, "maximum": 4},
            "max_players": {"type": "integer", "minimum": 2, "maximum": 4},
            "options": {"type": "object", "additionalProperties": {"$ref": "#/$defs/option"}},
            "patterns": array({"$ref": "#/$defs/pattern"}),
        }
    )
    body = {
        **array({"$ref": "#/$defs/variant"}),
        "$defs": {"variant": entry, "option": option, "pattern": pattern},
    }
    return document("variants", "GET /api/variants reply", "Every variant the server knows.", body)


# ---- agent_message.json, agent_ready.json (the agent protocol, docs/agents.md) -----------
SETTLEMENT = obj(
    {
        "scores": common("scores"),
        "exhausted": BOOL,
        "payments": array(
            obj({"payer": SEAT, "payee": SEAT, "amount": INT, "reason": STR}),
            "Every payment of the hand, in order.",
        ),
    },
    description="A finished hand's settlement.",
)
AGENT_MESSAGES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "hello": (
        {
            "protocol": {"type": "integer", "minimum": 1},
            "mjcore": STR,
            "variant": common("variant"),
            "players": {"type": "integer", "minimum": 2, "maximum": 4},
            "options": common("options"),
            "seat": SEAT,
            "timeout_ms": {"type": ["integer", "null"], "minimum": 1},
            "where": enum("simulation", "room"),
        },
        (),
    ),
    "hand_start": (
        {"hand": COUNT, "seat": SEAT, "seed": {"type": ["integer", "null"]}, "view": ref("view")},
        (),
    ),
    "decide": (
        {"hand": COUNT, "step": COUNT, "view": ref("view"), "legal": array(ref("action"))},
        (),
    ),
    "hand_end": ({"hand": COUNT, "seat": SEAT, "settlement": SETTLEMENT, "view": ref("view")}, ()),
}


def agent_message_schema() -> dict[str, Any]:
    return document(
        "agent_message",
        "mjcore host -> agent message",
        "Every JSON line a host (simulation, league, mjcore agent) writes to an agent program "
        "(docs/agents.md). The agent answers hello with an agent_ready line and decide with one "
        "action text (schema action); nothing else.",
        messages(AGENT_MESSAGES, client=False),
    )


def agent_ready_schema() -> dict[str, Any]:
    body = obj(
        {"type": const("ready"), "name": STR, "version": STR, "language": STR},
        ("name", "version", "language"),
    )
    body["additionalProperties"] = True
    return document(
        "agent_ready",
        "agent -> host ready line",
        "An agent program's answer to hello (docs/agents.md); other fields are allowed.",
        body,
    )


BUILDERS = {
    "common": common_schema,
    "tile": tile_schema,
    "action": action_schema,
    "view": view_schema,
    "event": event_schema,
    "saved_game": saved_game_schema,
    "saved_match": saved_match_schema,
    "calculator_input": calculator_input_schema,
    "calculator_result": calculator_result_schema,
    "score_output": score_output_schema,
    "server_message": server_message_schema,
    "client_message": client_message_schema,
    "room_config": room_config_schema,
    "create_room_request": create_room_request_schema,
    "room_summary": room_summary_schema,
    "join_request": join_request_schema,
    "join_response": join_response_schema,
    "variants": variants_schema,
    "agent_message": agent_message_schema,
    "agent_ready": agent_ready_schema,
}


def render(name: str) -> str:
    """The text of schema file ``name`` (sorted nowhere: key order is the reading order)."""
    return json.dumps(BUILDERS[name](), indent=2, ensure_ascii=False) + "\n"


# ---- self-contained copies (bundled/NAME.json) ---------------------------------------------
BUNDLED_DIR = "bundled"


def bundle(name: str) -> dict[str, Any]:
    """Schema ``name`` with every other file it refers to inside its own ``$defs``: another
    file's body as ``$defs[FILE]``, its definitions as ``$defs["FILE.DEF"]``, and every
    ``$ref`` rewritten to a local pointer (``#/$defs/common.tile``), so any validator of
    draft 2020-12 (ajv, jsonschema without mjcore's registry …) reads it alone."""
    root = BUILDERS[name]()
    defs: dict[str, Any] = {}
    lifted: set[str] = set()

    def pointer(target: str, fragment: str) -> str:
        if fragment in ("", "/"):
            return "#" if target == name else f"#/$defs/{target}"
        assert fragment.startswith("/$defs/") and fragment.count("/") == 2, fragment
        definition = fragment.split("/")[2]
        return f"#/$defs/{definition}" if target == name else f"#/$defs/{target}.{definition}"

    def rewrite(node: Any, doc: str) -> Any:
        if isinstance(node, list):
            return [rewrite(item, doc) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: rewrite(value, doc) for key, value in node.items()}
        if isinstance(node.get("$ref"), str):
            file, _, fragment = node["$ref"].partition("#")
            target = file.removesuffix(".json") if file else doc
            if target != name:
                lift(target)
            out["$ref"] = pointer(target, fragment)
        return out

    def lift(target: str) -> None:
        if target in lifted:
            return
        lifted.add(target)
        document = BUILDERS[target]()
        body = {k: v for k, v in document.items() if k not in ("$schema", "$id", "$defs")}
        if set(body) - {"title", "description"}:  # (common.json is only definitions)
            defs[target] = rewrite(body, target)
        for key, value in document.get("$defs", {}).items():
            defs[f"{target}.{key}"] = rewrite(value, target)

    out = rewrite({k: v for k, v in root.items() if k != "$defs"}, name)
    own = {key: rewrite(value, name) for key, value in root.get("$defs", {}).items()}
    assert not set(own) & set(defs), "a definition's name collides with a bundled file's"
    out["$id"] = f"{BASE}{BUNDLED_DIR}/{name}.json"
    if own or defs:
        out["$defs"] = {**own, **dict(sorted(defs.items()))}
    return out


def render_bundled(name: str) -> str:
    """The text of ``bundled/NAME.json``."""
    return json.dumps(bundle(name), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    """Write every schema file next to this module, and its self-contained copy."""
    here = Path(__file__).parent
    (here / BUNDLED_DIR).mkdir(exist_ok=True)
    for name in BUILDERS:
        (here / f"{name}.json").write_text(render(name), encoding="utf-8")
        (here / BUNDLED_DIR / f"{name}.json").write_text(render_bundled(name), encoding="utf-8")


if __name__ == "__main__":
    main()
