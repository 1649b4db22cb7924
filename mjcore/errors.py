"""Exceptions raised by mjcore.

Every error caused by bad input is a ``ValueError`` subclass, so callers that
only care about "the caller gave me something wrong" can catch ``ValueError``.
"""

from __future__ import annotations

import reprlib


class MjcoreError(Exception):
    """Base class of every mjcore exception."""


class InvalidTileError(MjcoreError, ValueError):
    """Tile notation that cannot be parsed (the message quotes the text)."""


class InvalidHandError(MjcoreError, ValueError):
    """A hand (count vector, joker count, tile total) that does not fit the question."""


class InvalidOptionError(MjcoreError, ValueError):
    """An unknown room option (勾选项) or a bad value for one."""


class InvalidWallError(MjcoreError, ValueError):
    """A fixed wall that is not exactly the variant's tile multiset."""


class IllegalActionError(MjcoreError, ValueError):
    """An action that the seat may not take now; the game state is unchanged."""


class InvalidStateError(MjcoreError, ValueError):
    """A saved game or match (``to_json`` form) that is malformed, edited or of another format."""


def clip(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: error messages never echo unbounded input.

    Never raises: a value whose ``repr`` fails (deep nesting: RecursionError; a ``__repr__``
    that raises) is shown by :func:`reprlib.repr`, which stops at a few levels and catches
    the errors of the objects inside.
    """
    text = safe_repr(value)
    return text if len(text) <= limit else f"{text[: limit - 15]}… ({len(text)} chars)"


def safe_repr(value: object) -> str:
    """``repr(value)``, or a bounded stand-in when ``repr`` itself raises."""
    try:
        return repr(value)
    except Exception:  # noqa: BLE001 - any caller value: RecursionError, a raising __repr__ …
        pass
    try:
        return reprlib.repr(value)
    except Exception:  # noqa: BLE001 - reprlib reaches a raising repr through a container
        return f"<{type(value).__name__} object>"
