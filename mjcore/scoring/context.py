"""What a win is (WinContext), what it is worth (Breakdown), who pays (Payment)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .. import tiles as T
from ..engine.melds import Meld
from ..errors import InvalidHandError, clip

HOWS = ("self_draw", "discard", "rob_gang", "fenzhang")


@dataclass(frozen=True)
class WinContext:
    """A described win, independent of any game (the hand calculator's input).

    ``concealed`` holds the natural concealed tiles INCLUDING the winning tile;
    ``jokers`` wildcards (青岛 混) are held apart. ``how``: ``self_draw`` 自摸,
    ``discard`` 点炮, ``rob_gang`` 抢杠胡, ``fenzhang`` (self-draw of a 分张 tile).
    ``gang_chain`` > 0: self-drawn on the replacement after that many chained
    gangs (杠上花); ``after_gang`` > 0: won on the discard made right after a
    gang replacement (杠上炮). ``flags`` carry situation facts a variant needs
    (``tianhu``, ``dihu``, ``haidi``, ``kouting``, ``prev_huangzhuang`` …).
    ``flowers`` is the winner's flower area (花牌 set aside face up, e.g. 宿松 中发白 and 春…菊).
    """

    concealed: np.ndarray
    win_tile: int
    how: str = "discard"
    melds: tuple[Meld, ...] = ()
    jokers: int = 0
    gang_chain: int = 0
    after_gang: int = 0
    flags: frozenset[str] = frozenset()
    joker_kind: int = -1
    flowers: tuple[int, ...] = ()

    @property
    def is_self_draw(self) -> bool:
        return self.how in ("self_draw", "fenzhang")

    def validate(self) -> WinContext:
        """Raise InvalidHandError unless the description is physically possible."""
        if not 0 <= self.win_tile < T.N_KINDS:
            raise InvalidHandError(f"win tile must be a kind 0..33, got {self.win_tile!r}")
        if self.concealed[self.win_tile] == 0 and self.jokers == 0:
            raise InvalidHandError(
                f"the winning tile {T.NOTATION[self.win_tile]} must be among the concealed tiles"
            )
        total = self.concealed.astype(int).copy()
        for m in self.melds:
            for t in m.tiles:
                total[t] += 1
        if total.max() > 4:
            kind = int(total.argmax())
            raise InvalidHandError(f"{T.NOTATION[kind]} appears {total[kind]} times (at most 4)")
        if self.jokers < 0 or self.gang_chain < 0 or self.after_gang < 0:
            raise InvalidHandError("jokers, gang_chain and after_gang must be non-negative")
        return self

    def all_kinds(self) -> list[int]:
        """Every natural tile of the 14 (melds included), jokers excluded."""
        out = T.from_counts(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    @staticmethod
    def from_json(data: dict[str, Any] | str) -> WinContext:
        """Build from the documented JSON form, e.g.::

            {"concealed": "123456789p1155s", "win_tile": "5s", "how": "self_draw",
             "melds": ["angang 8p"], "jokers": 0, "gang_chain": 1, "flags": ["kouting"]}

        ``concealed`` includes the winning tile; ``flowers`` is a flower area (``"1f5f7z"``).
        Every field is checked for its type; a wrong or unknown one raises InvalidHandError
        naming it.
        """
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except (ValueError, RecursionError):
                raise InvalidHandError(
                    f"a win description is JSON text, got {clip(data)}"
                ) from None
        if not isinstance(data, dict):
            raise InvalidHandError(f"a win description is a JSON object, got {clip(data)}")
        unknown = set(data) - set(_FIELDS)
        if unknown:
            raise InvalidHandError(
                f"unknown win description field(s) {clip(sorted(map(str, unknown)))}; "
                f"known: {', '.join(_FIELDS)}"
            )
        for key in ("concealed", "win_tile"):
            if key not in data:
                raise InvalidHandError(f"the win description needs {key!r}")
        how = _field(data, "how", str, "discard")
        if how not in HOWS:
            raise InvalidHandError(f"how must be one of {HOWS}, got {clip(how)}")
        melds = _field(data, "melds", list, [])
        flags = _field(data, "flags", list, [])
        if not all(isinstance(m, str) for m in melds):
            raise InvalidHandError(
                f"melds must be a list of strings like 'peng 3p', got {clip(melds)}"
            )
        if not all(isinstance(f, str) for f in flags):
            raise InvalidHandError(f"flags must be a list of strings, got {clip(flags)}")
        jk = data.get("joker_kind", -1)
        if isinstance(jk, str):
            jk = T.kind(jk)
        elif not (type(jk) is int and -1 <= jk < T.N_KINDS):
            raise InvalidHandError(f"joker_kind must be a tile or -1, got {clip(jk)}")
        win_tile = data["win_tile"]
        if not isinstance(win_tile, str):
            raise InvalidHandError(f"win_tile must be a tile like '5p', got {clip(win_tile)}")
        return WinContext(
            concealed=T.counts(_field(data, "concealed", (str, list), "")),
            win_tile=T.kind(win_tile),
            how=how,
            melds=tuple(Meld.parse(m) for m in melds),
            jokers=_field(data, "jokers", int, 0),
            gang_chain=_field(data, "gang_chain", int, 0),
            after_gang=_field(data, "after_gang", int, 0),
            flags=frozenset(flags),
            joker_kind=jk,
            flowers=tuple(T.to_kinds(_field(data, "flowers", (str, list), []))),
        )


_FIELDS = (
    "concealed",
    "win_tile",
    "how",
    "melds",
    "jokers",
    "gang_chain",
    "after_gang",
    "flags",
    "joker_kind",
    "flowers",
    "variant",
    "options",
)


def _field(data: dict[str, Any], key: str, types: Any, default: Any) -> Any:
    """``data[key]`` (or ``default``) checked against ``types``; bools are never ints."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, types):
        raise InvalidHandError(f"{key} has the wrong type: {clip(value)}")
    if isinstance(value, int) and not 0 <= value <= 64:
        raise InvalidHandError(f"{key} must be 0..64, got {clip(value)}")
    return value


@dataclass(frozen=True)
class Hit:
    """One scoring pattern that applies: id, Chinese name, its value and how it combines."""

    id: str
    name: str
    value: int
    combine: str = "add"  # "base" | "add" (fan) | "mul" (factor)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "value": self.value, "combine": self.combine}


@dataclass(frozen=True)
class Breakdown:
    """A win's value: the patterns, the per-payer points and a human formula."""

    hits: tuple[Hit, ...]
    points: int
    fan: int = 0
    formula: str = ""

    @property
    def ids(self) -> list[str]:
        return [h.id for h in self.hits]

    def to_json(self) -> dict:
        return {
            "patterns": [h.to_json() for h in self.hits],
            "fan": self.fan,
            "points": self.points,
            "formula": self.formula,
        }


class Payment(NamedTuple):
    """``payer`` pays ``amount`` to ``payee`` for ``reason`` (pattern ids, gang kind, …)."""

    payer: int
    payee: int
    amount: int
    reason: str

    def to_json(self) -> list:
        return list(self)


@dataclass
class Win:
    """A win that happened in a game."""

    seat: int
    tile: int
    how: str
    from_seat: int
    breakdown: Breakdown
    payments: list[Payment] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "tile": T.format([self.tile]),
            "how": self.how,
            "from_seat": self.from_seat,
            **self.breakdown.to_json(),
        }
