"""Replay bundles: a saved game (``Game.to_json()`` form) replayed step by step, with every
seat's view and the open view (all hands face up) after each step, for the replay viewer
(``GET /replay`` of the server, ``mjcore replay FILE --html``).

A bundle is plain JSON::

    {"format": 1, "variant": name, "title": 中文 title, "players": n, "dealer": seat,
     "patterns": [{id, name, english, value, kind}], "history": [[seat, action], ...],
     "steps": [{"index": i, "action": null | {"seat", "action"},
                "views": [view of seat 0, ...], "open_view": view, "events": next seq}],
     "events": [every event of the hand, unmasked],
     "seat_events": [the events as each seat saw them (Game.events_for)],
     "settlement": {"scores", "exhausted", "payments": [{payer, payee, amount, reason}]} | null}

Step 0 is the deal; step i (1 ≤ i ≤ len(history)) is the state after the i-th action;
``events`` of a step is how many of the hand's events had happened by then (a prefix of the
bundle's ``events``). A seat's view hides what that seat could not see (``Game.view``); the
open view is seat 0's view with every seat's concealed hand added.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from .engine.game import Game

BUNDLE_FORMAT = 1
STATIC = Path(__file__).with_name("server") / "static"


def pattern_list(variant: str) -> list[dict[str, Any]]:
    """A variant's scoring patterns as ``{id, name, english, value, kind}`` (its registry)."""
    from .variants import get_variant

    return [
        {"id": p.id, "name": p.name, "english": p.english, "value": p.value, "kind": p.kind}
        for p in get_variant(variant).patterns()
    ]


def open_view(views: list[dict[str, Any]]) -> dict[str, Any]:
    """Seat 0's view with every seat's concealed hand (and held flowers, drawn tile) shown."""
    out = copy.deepcopy(views[0])
    for s, view in enumerate(views):
        mine = view["seats"][s]
        for key in ("hand", "held_flowers", "drawn"):
            if key in mine:
                out["seats"][s][key] = mine[key]
    out["seat"] = -1  # nobody's: every hand is open
    out["legal_actions"] = []
    return out


def _step(game: Game, index: int, action: dict[str, Any] | None) -> dict[str, Any]:
    views = [game.view(s) for s in range(game.n)]
    return {
        "index": index,
        "action": action,
        "views": views,
        "open_view": open_view(views),
        "events": len(game.event_log),
    }


def build_replay(saved: dict[str, Any] | str) -> dict[str, Any]:
    """The replay bundle of a saved game (its dict or JSON text); InvalidStateError if it
    does not load (see :meth:`Game.from_json`)."""
    from .engine.saved import load_saved  # the saved form's own parsing
    from .errors import InvalidStateError

    data = load_saved(saved)
    history = data.get("history")
    game = Game.from_dict(dict(data, history=[]))  # checks every field (history: below)
    if not isinstance(history, list):
        raise InvalidStateError("saved game field 'history' has the wrong type")
    steps = [_step(game, 0, None)]
    for i, item in enumerate(history, 1):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)):
            raise InvalidStateError(f"saved game: history[{i - 1}] is not [seat, action text]")
        try:
            game.apply(item[0], item[1])
        except ValueError as exc:
            raise InvalidStateError(f"saved game: history[{i - 1}] {exc}") from None
        steps.append(_step(game, i, {"seat": item[0], "action": item[1]}))
    settlement = None
    if game.is_over:
        settlement = {
            "scores": list(game.scores),
            "exhausted": bool(game.exhausted),
            "payments": [
                {"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason}
                for p in game.settlement
            ],
        }
    return {
        "format": BUNDLE_FORMAT,
        "variant": game.variant.name,
        "title": game.variant.title,
        "players": game.n,
        "dealer": data["dealer"],
        "patterns": pattern_list(game.variant.name),
        "history": [list(h) for h in history],
        "steps": steps,
        "events": game.events,
        "seat_events": [game.events_for(s) for s in range(game.n)],
        "settlement": settlement,
    }


def record_to_saved(record: dict[str, Any]) -> dict[str, Any]:
    """A ``mjcore simulate --record`` Parquet row (see :mod:`mjcore.sim.records`) in the
    saved-game form (:meth:`Game.to_dict`)."""
    from . import tiles as T

    return {
        "format": 2,
        "variant": record["variant"],
        "players": record["players"],
        "options": json.loads(record["options"]),
        "dealer": record["dealer"],
        "seed": record["wall_seed"],
        "carry": json.loads(record["carry"]) or {},
        "wall": [T.NOTATION[t] for t in record["wall"]],
        "history": [[s, a] for s, a in zip(record["action_seats"], record["actions"], strict=True)],
    }


def _static(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def replay_html(bundle: dict[str, Any]) -> str:
    """One self-contained HTML page (styles, scripts and the bundle inline) replaying it."""
    from .server.favicon import favicon_data_uri

    page = _static("replay.html")
    data = json.dumps(bundle, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    css = f"<style>\n{_static('table.css')}\n</style>"
    scripts = (
        f"<script>window.MJCORE_BUNDLE = {data};</script>\n"
        f"<script>\n{_static('tiles.js')}\n</script>\n"
        f"<script>\n{_static('render.js')}\n</script>\n"
        f"<script>\n{_static('replay.js')}\n</script>"
    )
    page = page.replace('<link rel="stylesheet" href="/static/table.css">', css)
    page = page.replace('<script src="/static/render.js"></script>', "")
    page = page.replace('<script src="/static/tiles.js"></script>', "")
    page = page.replace('href="/favicon.svg"', f'href="{favicon_data_uri()}"')
    return page.replace('<script src="/static/replay.js"></script>', scripts)
