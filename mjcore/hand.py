"""Single-hand questions: win, waits, ready, shanten, decompositions and scoring facts.

Every function takes the CONCEALED tiles as ``counts`` — a ``uint8[34]`` array
(the fast path), any sequence of 34 integers, or a tile string such as
``"1112345678999m"`` — and ``jokers``, the number of wildcards held apart from
``counts`` (青岛 混, 荣成 宝). A joker stands for any kind, even a fifth copy.
Bad input raises :class:`~mjcore.errors.InvalidHandError` (a ``ValueError``).

Forms (keyword flags, the same for ``is_win``, ``waits``, ``is_ready`` and
``shanten``): the standard form (m sets + one pair) is always on;
``seven_pairs`` (default on), ``thirteen_orphans`` and ``knitted`` (十三不靠)
apply to 14-tile hands only; ``pair258`` requires the pair of a standard hand
(and at least one pair of a seven-pairs hand) to be a suited 2/5/8.

* ``is_win(counts, jokers=0, **forms) -> bool`` — tiles + jokers = 3m+2 <= 14.
* ``waits(counts, jokers=0, **forms) -> list[int]`` — tiles + jokers = 3m+1 <= 13;
  sorted kinds t with ``counts[t] < 4`` such that ``counts + t`` wins.
* ``is_ready(counts, jokers=0, **forms) -> bool`` — some kind completes the hand
  (= ``is_win(counts, jokers + 1)``; a fifth copy counts, unlike ``waits``).
* ``shanten(counts, jokers=0, **forms) -> int`` — tiles + jokers in {1, 2, 4, ... 14};
  -1 complete, 0 ready; ``S - overlap - jokers - 1`` (see :mod:`mjcore._core`).

These four are the native functions themselves (no Python layer in between:
a call from Python costs well under a microsecond).
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

from .tiles import TileLike


def _load_core() -> ModuleType:
    """Import the native extension, or say how to build it."""
    try:
        return importlib.import_module("mjcore._core")
    except ImportError as exc:
        raise ImportError(
            "mjcore's native extension (mjcore._core) is not built here. Install the package "
            "(`pip install .`) and run from outside the source tree, e.g. tests with `pytest` "
            "(not `python -m pytest`, which puts the unbuilt source folder first on sys.path)."
        ) from exc


_core = _load_core()
is_win = _core.is_win
is_ready = _core.is_ready
waits = _core.waits
shanten = _core.shanten

__all__ = [
    "Decomposition",
    "Group",
    "HandFacts",
    "best_decomposition",
    "decompositions",
    "hand_facts",
    "is_ready",
    "is_win",
    "shanten",
    "waits",
]

_SIZE = {"chow": 3, "pung": 3, "pair": 2}


class Group(NamedTuple):
    """One set or the pair of a decomposition.

    ``shape`` is ``"chow"``, ``"pung"`` or ``"pair"``; ``kind`` is the kind of a
    pung/pair or the LOWEST kind of a chow, and ``-1`` for a *free* group made
    only of jokers (it can stand for any set — reported as ``"pung"`` — or any
    allowed pair; such groups are never enumerated kind by kind). ``jokers`` is
    how many jokers the group holds and ``wild`` the kinds they stand for
    (empty for a free group): chow 3-4-5m with a joker as 4m is
    ``Group("chow", 2, 1, (3,))``.
    """

    shape: str
    kind: int
    jokers: int = 0
    wild: tuple[int, ...] = ()

    @property
    def tiles(self) -> tuple[int, ...]:
        """Kinds the group stands for (``-1`` for every tile of a free group)."""
        size = _SIZE[self.shape]
        if self.kind < 0:
            return (-1,) * size
        if self.shape == "chow":
            return (self.kind, self.kind + 1, self.kind + 2)
        return (self.kind,) * size

    @property
    def natural(self) -> tuple[int, ...]:
        """Kinds of the real (non-joker) tiles in the group."""
        rest = list(self.tiles)
        for w in self.wild:
            rest.remove(w)
        return tuple(t for t in rest if t >= 0)


class Decomposition(NamedTuple):
    """A standard reading of a winning hand: ``sets`` (sorted) and the ``pair``."""

    sets: tuple[Group, ...]
    pair: Group


@dataclass(frozen=True, init=False)  # its own __init__, as WinContext's (scoring/context.py)
class HandFacts:
    """Per-hand facts for scoring (RULES.md C.4) of a complete concealed hand.

    Each fact is "some decomposition of the hand has this property".
    Bitmasks: suits 0 = m, 1 = p, 2 = s (3 = honors in ``suits_present``);
    ``pair_kinds`` has bit t set for kind t.
    """

    standard: bool
    """Wins as m sets + pair (with the ``pair258`` rule when asked)."""
    seven_pairs: bool
    """Wins as seven pairs (14 tiles; a quad is two pairs; ``pair258`` applies)."""
    thirteen_orphans: bool
    knitted: bool
    """Wins as 十三不靠."""
    all_triplets: bool
    """Wins as a standard hand with pungs only (大对子/碰碰胡; melds not considered)."""
    closed_wait: bool
    """夹/卡: ``win_tile`` is a suited 2..8, the hand without it holds both
    neighbours as natural tiles and removing the chow leaves a standard win."""
    pure_straight_suits: int
    """一条龙: suits whose 1..9 (jokers fill missing ranks) leave a standard win."""
    quads_natural: int
    """Number of kinds held 4 times as natural tiles."""
    win_completes_quad: bool
    """The win tile is the 4th copy of its kind in the hand."""
    pair_kinds: int
    """Kinds that are the pair of some standard decomposition."""
    suits_present: int
    """Suits (and bit 3 = honors) of the natural tiles."""

    def __init__(
        self,
        standard: bool,
        seven_pairs: bool,
        thirteen_orphans: bool,
        knitted: bool,
        all_triplets: bool,
        closed_wait: bool,
        pure_straight_suits: int,
        quads_natural: int,
        win_completes_quad: bool,
        pair_kinds: int,
        suits_present: int,
    ) -> None:
        d = self.__dict__  # (field by field: no keyword dict is built)
        d["standard"] = standard
        d["seven_pairs"] = seven_pairs
        d["thirteen_orphans"] = thirteen_orphans
        d["knitted"] = knitted
        d["all_triplets"] = all_triplets
        d["closed_wait"] = closed_wait
        d["pure_straight_suits"] = pure_straight_suits
        d["quads_natural"] = quads_natural
        d["win_completes_quad"] = win_completes_quad
        d["pair_kinds"] = pair_kinds
        d["suits_present"] = suits_present

    def kaxinwu(self, win_tile: int, suits: int = 0b110) -> bool:
        """卡心五 (V1): closed wait on a 5 of an allowed suit (default 筒 and 条)."""
        return self.closed_wait and win_tile % 9 == 4 and bool(suits >> (win_tile // 9) & 1)


def hand_facts(
    counts: TileLike, win_tile: int, jokers: int = 0, *, pair258: bool = False
) -> HandFacts:
    """C.4 facts of a complete hand of 3m+2 tiles (``counts`` includes ``win_tile``).

    ``win_tile = -1`` means the winning tile is a joker (no closed wait, no quad
    completed). Costs a few microseconds (all native).
    """
    return HandFacts(*_core.facts(counts, win_tile, jokers, pair258))


_SHAPES = ("chow", "pair", "pung")


def _decode(code: int) -> Group:
    """The Group of a native group code (see ``mj_decompose`` in src/mj_hand.h)."""
    shape, kind, jokers, rank = _SHAPES[code >> 12], (code >> 5 & 63) - 1, code >> 2 & 3, code & 3
    if kind < 0 or jokers == 0:
        return Group(shape, kind, jokers)
    if shape != "chow":
        return Group(shape, kind, jokers, (kind,) * jokers)
    positions = list(itertools.combinations(range(3), jokers))[rank]
    return Group(shape, kind, jokers, tuple(kind + p for p in positions))


_GROUPS: dict[int, Group] = {}
"""Decoded groups by code (a few hundred at most), so readings reuse them."""


def _group(code: int) -> Group:
    g = _GROUPS.get(code)
    if g is None:
        g = _GROUPS[code] = _decode(code)
    return g


def decompositions(
    counts: TileLike, jokers: int = 0, *, pair258: bool = False
) -> list[Decomposition]:
    """Distinct standard decompositions of a complete hand (empty when it does not win).

    ``sum(counts) + jokers`` must be 3m+2 <= 14. Readings that differ in what a
    joker stands for are distinct; all-joker groups appear once as free groups
    (``kind == -1``). Sorted, so the output is deterministic. Enumerated in C
    (a few microseconds without jokers).
    """
    out = []
    for codes in _core.decompose(counts, jokers, pair258):
        groups = [_group(c) for c in codes]
        out.append(Decomposition(tuple(groups[:-1]), groups[-1]))
    return out


def best_decomposition(
    counts: TileLike,
    jokers: int = 0,
    *,
    key: Callable[[Decomposition], Any],
    pair258: bool = False,
) -> Decomposition | None:
    """C.4 ``best_joker_assignment``: the decomposition with the largest ``key``.

    ``key`` scores one :class:`Decomposition` (for instance from its shapes,
    suits, an 一条龙 or the natural quads); ties go to the first reading in the
    sorted order of :func:`decompositions`. ``None`` when the hand does not win
    in the standard form.
    """
    return max(decompositions(counts, jokers, pair258=pair258), key=key, default=None)
