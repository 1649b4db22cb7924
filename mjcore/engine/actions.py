# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""Player actions and their text form (``"discard 5p"``, ``"chi 456p"``, ``"pass"`` …)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import tiles as T
from ..errors import IllegalActionError, clip

KINDS = ("discard", "chi", "peng", "gang", "hu", "pass", "declare", "choose", "niu")
MAX_ACTION_TEXT = 200
"""Longer action text is rejected before it is parsed."""


@dataclass(frozen=True)  # (compiled: an extension type with C fields, actions.pxd)
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

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem:
            raise IllegalActionError(f"invalid {clip(self.kind, 20)} action: {problem}")

    def __eq__(self, other: object) -> bool:
        # Hand-written (not the dataclass tuple compare): the engine shares Action constants,
        # so ``x in legal`` mostly meets the same object or a different kind/tile; both
        # answer after one or two field reads. The hash stays the dataclass's field hash.
        if self is other:
            return True
        if other.__class__ is not Action:
            return NotImplemented
        return (
            self.tile == other.tile  # type: ignore[attr-defined]
            and self.kind == other.kind  # type: ignore[attr-defined]
            and self.tiles == other.tiles  # type: ignore[attr-defined]
            and self.name == other.name  # type: ignore[attr-defined]
            and self.value == other.value  # type: ignore[attr-defined]
        )

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
        """Inverse of ``str(action)``; raises IllegalActionError on bad text.

        The message quotes the text and says in words what is wrong with it: an unknown
        verb, a missing or extra word, no such tile (``legal`` of :func:`parse_action`
        adds the actions the seat may take)."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise IllegalActionError(f"an action is an Action or its text, got {clip(text)}")
        if len(text) > MAX_ACTION_TEXT:
            raise IllegalActionError(f"action text too long ({len(text)} characters)")
        words = text.split()
        if not words:
            raise IllegalActionError(
                f"empty action {clip(text)}: expected a verb ({', '.join(KINDS)})"
            )
        if words[0] not in KINDS:
            raise IllegalActionError(
                f"unknown verb {clip(words[0], 30)} in action {clip(text)}; "
                f"the verbs are {', '.join(KINDS)}"
            )
        kind, args = words[0], words[1:]
        try:
            return _PARSERS[kind](kind, args)
        except IllegalActionError as exc:
            raise IllegalActionError(f"bad action {clip(text)}: {exc}") from None
        except (ValueError, IndexError) as exc:
            raise IllegalActionError(f"bad action {clip(text)}: {exc}") from None


def parse_action(text: Action | str, legal: Sequence[Action]) -> Action:
    """``Action.parse(text)``; a malformed text's error also lists ``legal`` (the actions the
    seat may take now), so a person sees what to send instead."""
    if isinstance(text, Action):
        return text
    try:
        return Action.parse(text)
    except IllegalActionError as exc:
        raise IllegalActionError(f"{exc}; {legal_text(legal)}") from None


def legal_text(legal: Sequence[Action]) -> str:
    """``"legal: discard 5m, gang 1m"`` (or that the seat has nothing to decide now)."""
    if not legal:
        return "no action is legal for this seat now"
    return f"legal: {', '.join(map(str, legal))}"


def _is_int(x: object) -> bool:
    return type(x) is int


def _problem(a: Action) -> str:
    """Why the fields do not describe an action (empty when they do)."""
    if not isinstance(a.kind, str) or a.kind not in KINDS:  # (an array would compare per item)
        return f"kind must be one of {', '.join(KINDS)}"
    if not (_is_int(a.tile) and _is_int(a.value) and isinstance(a.tiles, tuple)):
        return "tile and value must be int, tiles a tuple of ints"
    if not all(_is_int(t) and 0 <= t < T.N_KINDS for t in a.tiles):
        return f"tiles must be kinds 0..{T.N_KINDS - 1}, got {clip(a.tiles)}"
    if not isinstance(a.name, str):
        return "name must be a string"
    kind = a.kind
    expect_tile = {"discard": T.N_ALL_KINDS, "gang": T.N_KINDS}.get(kind)
    if expect_tile is not None:
        if not 0 <= a.tile < expect_tile or a.tiles or a.name or a.value:
            return f"needs exactly one tile kind 0..{expect_tile - 1}, got {clip(a.tile)}"
    elif kind == "chi":
        low = a.tiles[0] if a.tiles else -1
        if not (0 <= low < 27 and low % 9 <= 6 and a.tiles == (low, low + 1, low + 2)):
            return f"tiles must be a chow of one suit, got {clip(a.tiles)}"
        if a.tile != low or a.name or a.value:
            return "a chi carries only its three tiles"
    elif kind == "niu":
        if not 1 <= len(a.tiles) <= 5 or a.tiles != tuple(sorted(a.tiles)) or a.name or a.value:
            return f"a 扭 group (or 调牌 tile) is 1-5 sorted tile kinds, got {clip(a.tiles)}"
        if a.tile != a.tiles[0]:
            return "tile must be the group's first kind"
    elif kind in ("declare", "choose"):
        if not a.name.isidentifier() or not a.name.isascii() or len(a.name) > 32:
            return f"name must be a short identifier, got {clip(a.name)}"
        if a.tile != -1 or a.tiles or (kind == "declare" and a.value):
            return f"a {kind} carries only its name{' and value' if kind == 'choose' else ''}"
        if not -(2**31) <= a.value < 2**31:
            return f"value out of range: {clip(a.value)}"
    elif a.tile != -1 or a.tiles or a.name or a.value:
        return "takes no tile, tiles, name or value"
    return ""


def _bare(kind: str, args: list[str]) -> Action:
    if args:
        raise ValueError(f"'{kind}' takes no tile or word after it, got {clip(' '.join(args))}")
    return Action(kind)


def _tile_kind(text: str) -> int:
    """One tile kind of ``text`` (``"5m"``), or a ValueError naming what is wrong in words."""
    try:
        tiles = T.parse(text)
    except ValueError:
        raise ValueError(
            f"no such tile {clip(text, 20)} (suits 1m-9m, 1p-9p, 1s-9s; honors 1z-7z; "
            "flowers 1f-8f)"
        ) from None
    if len(tiles) != 1:
        raise ValueError(f"one tile expected, {clip(text, 20)} is {len(tiles)}")
    return tiles[0]


def _one_tile(kind: str, args: list[str]) -> Action:
    if not args:
        raise ValueError(f"missing tile: write e.g. '{kind} 5m'")
    if len(args) > 1:
        raise ValueError(f"'{kind}' takes one tile, got {len(args)} words")
    tile = _tile_kind(args[0])
    if kind == "gang" and tile >= T.N_KINDS:
        raise ValueError(f"a flower ({T.NOTATION[tile]}) is never ganged")
    return Action(kind, tile=tile)


def _tile_group(kind: str, args: list[str]) -> Action:
    example = "chi 456p" if kind == "chi" else "niu 567z"
    if not args:
        raise ValueError(f"missing tiles: write e.g. '{example}'")
    try:
        tiles = tuple(sorted(T.parse("".join(args))))
    except ValueError:
        raise ValueError(
            f"no such tiles {clip(' '.join(args), 30)} (write e.g. '{example}')"
        ) from None
    if not tiles:
        raise ValueError(f"missing tiles: write e.g. '{example}'")
    return Action(kind, tiles=tiles, tile=tiles[0])


def _declare(kind: str, args: list[str]) -> Action:
    if len(args) != 1:
        raise ValueError("'declare' takes one name, e.g. 'declare kouting'")
    return Action(kind, name=args[0])


def _choose(kind: str, args: list[str]) -> Action:
    if len(args) != 2:
        raise ValueError("'choose' takes a name and a number, e.g. 'choose pao 1'")
    name, value = args
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"the value {clip(value, 20)} is not a whole number") from None
    return Action(kind, name=name, value=number)


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

_SHARED_TEXTS = {id(a): str(a) for a in (PASS, HU, PENG, *DISCARDS, *GANGS, *CHIS.values())}
"""The text of each shared action (module constants: alive, so their ids stay theirs)."""


def action_texts(actions: Sequence[Action]) -> list[str]:
    """``[str(a) for a in actions]``, the shared actions' texts made once (a view lists the
    text of every legal action)."""
    known = _SHARED_TEXTS
    return [known.get(id(a)) or str(a) for a in actions]
