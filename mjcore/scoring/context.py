"""What a win is (WinContext), what it is worth (Breakdown), who pays (Payment)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .. import tiles as T
from ..engine.melds import Meld
from ..errors import InvalidHandError

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

        (``"flowers": "1f5f7z"`` gives a flower area.)

        ``concealed`` includes the winning tile.
        """
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, dict):
            raise InvalidHandError(f"a win description is a JSON object, got {data!r}")
        known = {
            "concealed",
            "win_tile",
            "how",
            "melds",
            "jokers",
            "gang_chain",
            "after_gang",
            "flags",
            "variant",
            "options",
            "joker_kind",
            "flowers",
        }
        unknown = set(data) - known
        if unknown:
            raise InvalidHandError(f"unknown win description field(s): {sorted(unknown)}")
        how = data.get("how", "discard")
        if how not in HOWS:
            raise InvalidHandError(f"how must be one of {HOWS}, got {how!r}")
        jk = data.get("joker_kind", -1)
        return WinContext(
            concealed=T.counts(data["concealed"]),
            win_tile=T.kind(data["win_tile"]),
            how=how,
            melds=tuple(Meld.parse(m) for m in data.get("melds", ())),
            jokers=int(data.get("jokers", 0)),
            gang_chain=int(data.get("gang_chain", 0)),
            after_gang=int(data.get("after_gang", 0)),
            flags=frozenset(data.get("flags", ())),
            joker_kind=T.kind(jk) if isinstance(jk, str) else int(jk),
            flowers=tuple(T.to_kinds(data.get("flowers", ()))),
        )


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
