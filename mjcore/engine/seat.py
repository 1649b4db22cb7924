"""One seat's state in one hand: concealed counts, melds, river, wins and 过手 locks."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from .. import tiles as T
from ..scoring.context import Win
from .melds import Meld


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
        "_np",
    )

    def __init__(self) -> None:
        self.hand = bytearray(T.N_KINDS)
        self.melds: list[Meld] = []
        self.discards: list[int] = []
        self.flowers: list[int] = []  # set aside face up (补花)
        self.held_flowers: list[int] = []  # flowers in hand (not yet replaced, or 飘花 keeps them)
        self.won_tiles: list[int] = []
        self.wins: list[Win] = []
        self.choices: dict[str, int] = {}
        self.declared = ""
        self.pass_hu: dict[int, int] = {}
        self.pass_hu_any = False
        self.pass_peng: set[int] = set()
        self.no_discard: frozenset[int] = frozenset()
        self.no_bugang: set[int] = set()  # pung kinds this seat may never upgrade (补杠)
        self.discard_count = 0
        self.claims = 0
        self.claimed_from: defaultdict[int, int] = defaultdict(int)  # chi/peng/直杠 per seat (三比)
        self.sealed = False  # 封胡: never offered a win again this hand (Game.seal)
        self.extra: dict[str, Any] = {}
        self._waits: int | None = None
        self._np = np.frombuffer(self.hand, dtype=np.uint8)

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__ if k != "_np"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)
        self._np = np.frombuffer(self.hand, dtype=np.uint8)  # a view of the (new) bytearray

    @property
    def counts(self) -> np.ndarray:
        """A live numpy view of the concealed hand (uint8[34]); copy before changing it."""
        return self._np

    def tile_count(self) -> int:
        """Tiles physically in hand: the concealed tiles plus flowers held (飘花 keeps them)."""
        return sum(self.hand) + len(self.held_flowers)

    def clear_locks(self) -> None:
        """The seat took an own action (draw, chi, peng, gang): 过手 locks end."""
        self.pass_hu.clear()
        self.pass_peng.clear()
