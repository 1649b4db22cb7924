"""Display names players choose when they join a room: checked once, at the server's edge.

A name is shown to every seat (and in replays) as text, never as markup: the browser table sets
it with ``textContent``. Here it is only checked: short, no control or format characters (no
bidi overrides, no zero-width tricks), and at least one character a person can see.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 24  # characters of a display name


class BadName(ValueError):
    """A display name the server does not accept; the message says why."""


def _visible(ch: str) -> bool:
    """A character that draws something: not a space, control, format or combining mark."""
    return unicodedata.category(ch)[0] not in "ZCM"


def clean_name(name: object) -> str:
    """``name`` as the table shows it (NFC, outer spaces stripped), or BadName saying what is
    wrong. An empty name is allowed: the table then says "player"."""
    if not isinstance(name, str):
        raise BadName(f"name must be a string, got {type(name).__name__}")
    text = unicodedata.normalize("NFC", name).strip()
    if len(text) > MAX_NAME:
        raise BadName(f"name must be at most {MAX_NAME} characters, got {len(text)}")
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            code = f"U+{ord(ch):04X}"
            raise BadName(f"name must not contain control or invisible characters ({code})")
    if text and not any(_visible(ch) for ch in text):
        raise BadName("name must contain at least one visible character")
    return text
