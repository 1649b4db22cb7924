# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""One seat's state in one hand: concealed counts, melds, river, wins and 过手 locks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from .. import _core
from ..scoring.context import Win
from ..tiles import N_KINDS
from .melds import Meld

NO_KINDS: frozenset[int] = frozenset()
"""The empty set of tile kinds, shared by every seat."""
_U8 = np.dtype(np.uint8)


class _Empty(Mapping[Any, Any]):
    """The read-only empty mapping (one instance, :data:`EMPTY`; copies and pickles are it)."""

    __slots__ = ()

    def __getitem__(self, key: Any) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[Any]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "EMPTY"

    def __reduce__(self) -> str:
        return "EMPTY"


EMPTY: Mapping[Any, Any] = _Empty()
"""The empty mapping that seats and games share until they have something to keep."""
NO_LOCKS: Mapping[int, int] = EMPTY
"""No 过手胡 locks (``pass_hu``)."""


class SeatState:
    """Everything about one seat in one hand."""

    __slots__ = (
        "hand",
        "melds",
        "discards",
        "flowers",
        "held_flowers",
        "won_tiles",
        "wins",
        "choices",
        "declared",
        "pass_hu",
        "pass_hu_any",
        "pass_peng",
        "no_discard",
        "no_bugang",
        "discard_count",
        "claims",
        "claimed_from",
        "sealed",
        "extra",
        "_waits",
        "_waits_before_draw",
    )

    def __init__(self, players: int = 4) -> None:
        self.hand = _core.zeros(N_KINDS)  # (= bytearray(34), as a C call when compiled)
        self.melds: list[Meld] = []
        self.discards: list[int] = []
        # Tuples, replaced when they change: most stay empty, and () is shared.
        self.flowers: tuple[int, ...] = ()  # set aside face up (补花)
        self.held_flowers: tuple[int, ...] = ()  # in hand (not yet replaced, or 飘花 keeps them)
        self.won_tiles: tuple[int, ...] = ()
        self.wins: tuple[Win, ...] = ()
        self.choices: dict[str, int] = {}
        self.declared = ""
        self.pass_hu: Mapping[int, int] = NO_LOCKS  # kind -> points passed (replaced on change)
        self.pass_hu_any = False
        # Sets of kinds are frozensets, replaced when they change (``st.no_bugang |= {t}``):
        # most stay empty, and the empty one is shared.
        self.pass_peng: frozenset[int] = NO_KINDS
        self.no_discard: frozenset[int] = NO_KINDS
        self.no_bugang: frozenset[int] = NO_KINDS  # pung kinds this seat may never upgrade (补杠)
        self.discard_count = 0
        self.claims = 0
        self.claimed_from = _core.zeros(players)  # [s]: chi/peng/直杠 taken from seat s (三比)
        self.sealed = False  # 封胡: never offered a win again this hand (Game.seal)
        self.extra: dict[str, Any] = {}
        self._waits = -1  # the shape waits' bitmask (Game.seat_waits), -1 until asked
        # The waits of the hand before the tile just drawn (Game._receive), -1 when not known:
        # whether that tile completes the hand, and the waits again once it is discarded.
        # Reset with _waits on every hand change.
        self._waits_before_draw = -1

    def forget_waits(self) -> None:
        """The concealed hand changed: its waits, and those before the last draw, are not
        known (Game.seat_waits asks the core again)."""
        self._waits = -1
        self._waits_before_draw = -1

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)

    @property
    def counts(self) -> np.ndarray:
        """A live numpy view of the concealed hand (uint8[34]); copy before changing it.

        A new view each call (a kept one would cost ~0.4 KB a seat): the core reads ``hand``,
        the bytearray it views, directly."""
        return np.frombuffer(self.hand, _U8)

    def counts_copy(self) -> np.ndarray:
        """A new uint8[34] array of the concealed hand, free to change."""
        return _core.counts_array(self.hand)  # (one C call)

    def tile_count(self) -> int:
        """Tiles physically in hand: the concealed tiles plus flowers held (飘花 keeps them)."""
        total = len(self.held_flowers)
        for n in self.hand:  # (a C loop when compiled: every view asks it of every seat)
            total += n
        return total

    def clear_locks(self) -> None:
        """The seat took an own action (draw, chi, peng, gang): 过手 locks end."""
        self.pass_hu = NO_LOCKS
        self.pass_peng = NO_KINDS
