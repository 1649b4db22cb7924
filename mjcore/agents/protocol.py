"""The agent protocol's messages (docs/agents.md): what a host writes to an agent, and how
an agent's answer is read.

Host → agent, one JSON object a line (schema ``agent_message``): ``hello`` once per
process, then per hand ``hand_start``, a ``decide`` for each decision of the seat, and
``hand_end`` with the settlement. The agent answers ``hello`` with one ``ready`` line
(schema ``agent_ready``) and each ``decide`` with one line holding an action text from
``legal`` (``discard 5m``, ``pass`` …); it answers nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game

PROTOCOL = 1
"""The protocol version in every ``hello``; raised only by changes an agent must follow."""
MAX_LINE = 4096
"""Longest answer line read from an agent (bytes, newline excluded); longer is a fault."""

try:  # the server extra's encoder: about 10x faster than json on a view
    import orjson

    def encode(message: dict[str, Any]) -> bytes:
        """One message as a JSON line (UTF-8, newline-terminated)."""
        return orjson.dumps(message, option=orjson.OPT_APPEND_NEWLINE)

except ImportError:  # pragma: no cover - orjson is optional

    def encode(message: dict[str, Any]) -> bytes:
        """One message as a JSON line (UTF-8, newline-terminated)."""
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        return (text + "\n").encode()


def hello(
    variant: str,
    players: int,
    options: dict[str, Any],
    seat: int,
    timeout_ms: int | None,
    where: str,
) -> dict[str, Any]:
    """The first message of a process: what it plays, at which seat, with which budget.

    ``where`` is ``"simulation"`` or ``"room"``; ``timeout_ms`` the answer budget (None in a
    live room: the room's idle timeout applies there).
    """
    from .. import __version__

    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "mjcore": __version__,
        "variant": variant,
        "players": players,
        "options": options,
        "seat": seat,
        "timeout_ms": timeout_ms,
        "where": where,
    }


def hand_start(hand: int, seat: int, seed: int | None, view: dict[str, Any]) -> dict[str, Any]:
    """A hand begins: its number, the agent's seed for it (None in a live room), the view."""
    return {"type": "hand_start", "hand": hand, "seat": seat, "seed": seed, "view": view}


def decide(hand: int, step: int, view: dict[str, Any]) -> dict[str, Any]:
    """A decision: the seat's view (``game.view(seat)``) and its legal action texts."""
    return {
        "type": "decide",
        "hand": hand,
        "step": step,
        "view": view,
        "legal": view["legal_actions"],
    }


def hand_end(hand: int, seat: int, settlement: dict[str, Any], view: dict[str, Any]) -> dict:
    """A hand is over: the settlement and the final view (every hand shown)."""
    return {
        "type": "hand_end",
        "hand": hand,
        "seat": seat,
        "settlement": settlement,
        "view": view,
    }


def settlement(game: Game) -> dict[str, Any]:
    """Scores, whether the wall ran out, and every payment of a finished hand."""
    return {
        "scores": list(game.scores),
        "exhausted": bool(game.exhausted),
        "payments": [
            {"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason}
            for p in game.settlement
        ],
    }


def settlement_from_events(events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The same settlement read from a hand's events (a live room sends events, not games)."""
    out: dict[str, Any] = {"scores": [], "exhausted": False, "payments": []}
    for ev in events:
        if ev.get("type") == "pay":
            out["payments"].append({k: ev[k] for k in ("payer", "payee", "amount", "reason")})
        elif ev.get("type") == "end":
            out["scores"] = list(ev["scores"])
            out["exhausted"] = bool(ev["exhausted"])
    return out


def read_answer(
    line: bytes, legal: Sequence[Action], texts: Sequence[str] | None = None
) -> tuple[Action | None, str]:
    """The legal action an answer line names, or (None, fault) with fault ``malformed``
    (not UTF-8 text of an action) or ``illegal`` (an action, but not one of ``legal``).
    ``texts``: the legal actions' texts in the same order, when already at hand (a view's)."""
    try:
        text = line.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None, "malformed"
    if texts is None:
        texts = [str(action) for action in legal]
    if text in texts:  # the common case: exactly the action's text
        return legal[texts.index(text)], ""
    from ..engine.actions import Action
    from ..errors import IllegalActionError

    try:
        parsed = Action.parse(" ".join(text.split()))
    except IllegalActionError:
        return None, "malformed"
    return (parsed, "") if parsed in legal else (None, "illegal")


def read_ready(line: bytes) -> dict[str, Any] | None:
    """The agent's ``ready`` object, or None when the line is not one."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "ready":
        return None
    return data
