"""Player actions and their text form (``"discard 5p"``, ``"chi 456p"``, ``"pass"`` …)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import tiles as T
from ..errors import IllegalActionError

KINDS = ("discard", "chi", "peng", "gang", "hu", "pass", "declare", "choose", "niu")


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat.

    ``tile`` is the tile discarded / ganged (−1 when not needed), ``tiles`` the
    kinds of a chow (吃) or of a 扭 group, ``name``/``value`` the declaration
    (``declare ting``) or per-hand choice (``choose pao 2``).
    """

    kind: str
    tile: int = -1
    tiles: tuple[int, ...] = ()
    name: str = ""
    value: int = 0

    def __str__(self) -> str:
        k = self.kind
        if k in ("discard", "gang"):
            return f"{k} {T.NOTATION[self.tile]}"
        if k in ("chi", "niu"):
            return f"{k} {T.format(list(self.tiles))}"
        if k == "declare":
            return f"declare {self.name}"
        if k == "choose":
            return f"choose {self.name} {self.value}"
        return k

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Inverse of ``str(action)``; raises IllegalActionError on bad text."""
        if isinstance(text, Action):
            return text
        words = str(text).split()
        if not words or words[0] not in KINDS:
            raise IllegalActionError(f"unknown action {text!r}; expected one of {', '.join(KINDS)}")
        kind, args = words[0], words[1:]
        try:
            return _PARSERS[kind](kind, args)
        except (ValueError, IndexError) as exc:
            raise IllegalActionError(f"malformed action {text!r}: {exc}") from None


def _bare(kind: str, args: list[str]) -> Action:
    if args:
        raise ValueError(f"{kind} takes no argument")
    return Action(kind)


def _one_tile(kind: str, args: list[str]) -> Action:
    (text,) = args
    return Action(kind, tile=T.kind(text))


def _tile_group(kind: str, args: list[str]) -> Action:
    tiles = tuple(sorted(T.parse("".join(args))))
    if not tiles:
        raise ValueError("no tiles")
    return Action(kind, tiles=tiles, tile=tiles[0])


def _declare(kind: str, args: list[str]) -> Action:
    (name,) = args
    return Action(kind, name=name)


def _choose(kind: str, args: list[str]) -> Action:
    name, value = args
    return Action(kind, name=name, value=int(value))


_PARSERS = {
    "discard": _one_tile,
    "gang": _one_tile,
    "chi": _tile_group,
    "niu": _tile_group,
    "peng": _bare,
    "hu": _bare,
    "pass": _bare,
    "declare": _declare,
    "choose": _choose,
}

PASS = Action("pass")
HU = Action("hu")
PENG = Action("peng")


DISCARDS = tuple(Action("discard", tile=t) for t in range(T.N_ALL_KINDS))
"""``DISCARDS[t]`` is the shared action discarding kind ``t``."""
GANGS = tuple(Action("gang", tile=t) for t in range(T.N_KINDS))


def discard(tile: int) -> Action:
    """The (shared, immutable) action discarding ``tile``."""
    return DISCARDS[tile]


def gang(tile: int) -> Action:
    return GANGS[tile]


def chi(chow_low: int) -> Action:
    return Action("chi", tile=chow_low, tiles=(chow_low, chow_low + 1, chow_low + 2))


CHIS = {low: chi(low) for low in range(27) if low % 9 <= 6}
"""``CHIS[low]`` is the shared action chowing ``low, low+1, low+2``."""
CHOW_PARTNERS = tuple(
    tuple(
        (low, *(t for t in (low, low + 1, low + 2) if t != tile))
        for low in CHIS
        if low <= tile <= low + 2
    )
    for tile in range(27)
)
"""For a suited kind: every (chow low, other kind, other kind) of the chows containing it."""
