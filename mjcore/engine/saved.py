"""The saved forms of a game and a match: their versions, keys and the checks that read them.

``Game.to_json`` / ``Match.to_json`` write these forms (docs/vocabulary.md documents them);
the readers here reject anything malformed, edited or foreign with InvalidStateError before a
single action is replayed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .. import tiles as T
from ..errors import InvalidStateError, clip

SAVE_FORMAT = 2
"""Version of the saved form written by ``Game.to_json`` (key ``"format"``): 2 writes
the wall in notation; format 1 (the wall as kind indices) is still read."""
READ_FORMATS = (1, 2)
"""The saved-form versions ``Game.from_json`` and ``Match.from_json`` read."""
_KIND_OF = {text: k for k, text in enumerate(T.NOTATION)}
_SAVE_KEYS: dict[str, type | tuple[type, ...]] = {
    "format": int,
    "variant": str,
    "players": int,
    "options": dict,
    "dealer": int,
    "seed": (int, type(None)),
    "carry": dict,
    "wall": list,
    "history": list,
}


def load_saved(text: Any) -> dict[str, Any]:
    """Parse the JSON text of a saved form into a dict, or raise InvalidStateError."""
    if isinstance(text, dict):
        return text
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidStateError(f"a saved game is JSON text, got {clip(text)}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidStateError(f"saved state is not valid JSON: {clip(str(exc))}") from None
    if not isinstance(data, dict):
        raise InvalidStateError(f"saved state must be a JSON object, got {clip(data)}")
    return data


def check_saved_keys(data: dict[Any, Any], expected: Iterable[str], what: str) -> None:
    """``data`` has exactly the ``expected`` keys, else InvalidStateError listing the
    difference (keys of any type: a foreign key is shown, never compared with the others)."""
    keys, wanted = set(data), set(expected)
    if keys != wanted:
        missing, extra = sorted(wanted - keys), sorted(keys - wanted, key=clip)
        raise InvalidStateError(f"{what} keys: missing {missing}, unknown {clip(extra)}")


def check_saved_format(value: Any, what: str) -> None:
    """The ``"format"`` of a saved form is an int of :data:`READ_FORMATS` (not ``true``,
    ``1.0``)."""
    if type(value) is not int or value not in READ_FORMATS:
        raise InvalidStateError(
            f"{what} format {clip(value)} is not supported (this version reads 1 and 2)"
        )


def saved_wall(data: dict[str, Any]) -> list[int]:
    """The saved wall as kind indices: format 2 writes each tile in notation, format 1 as its
    index (checked by ``new_game``)."""
    wall, old = data["wall"], data["format"] == 1
    for i, tile in enumerate(wall):
        if (type(tile) is not int) if old else (type(tile) is not str or tile not in _KIND_OF):
            form = "a kind index" if old else "a tile in notation"
            raise InvalidStateError(f"saved game: wall[{i}] is not {form}: {clip(tile)}")
    return wall if old else [_KIND_OF[tile] for tile in wall]


def check_saved_game(data: dict[str, Any]) -> None:
    """Schema check of a saved game: exact keys, types and format version."""
    if not isinstance(data, dict):
        raise InvalidStateError(f"a saved game must be a JSON object, got {clip(data)}")
    check_saved_keys(data, _SAVE_KEYS, "saved game")
    for key, types in _SAVE_KEYS.items():
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, types):
            raise InvalidStateError(f"saved game field {key!r} has the wrong type: {clip(value)}")
    check_saved_format(data["format"], "saved game")
