"""Argument checks shared by the engine's public doors (seats, integers, player counts)."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ..errors import IllegalActionError, InvalidOptionError, MjcoreError, clip


def as_int(value: Any, what: str, error: type[MjcoreError] = InvalidOptionError) -> int:
    """``value`` as a plain int (numpy integers too); bools, floats and strings raise ``error``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise error(f"{what} must be an integer, got {clip(value)}")
    return operator.index(value)


def check_seat(
    value: Any, players: int, what: str = "seat", error: type = IllegalActionError
) -> int:
    """A seat number 0..players-1 as a plain int, else ``error`` naming ``what``."""
    seat = as_int(value, what, error)
    if not 0 <= seat < players:
        raise error(f"{what} must be a seat 0..{players - 1}, got {seat}")
    return seat


def check_players(value: Any, low: int, high: int, name: str) -> int:
    """A player count ``low..high`` of the variant ``name`` as a plain int."""
    players = as_int(value, "players")
    if not low <= players <= high:
        raise InvalidOptionError(f"players must be {low}..{high} for {name}, got {players}")
    return players
