# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""The wall (牌墙): normal draws from the head, replacements and indicators from the tail."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class Wall:
    """``[live part | kept part]`` (RULES.md §0.5).

    ``kept`` tiles at the tail are never drawn normally (only as replacements);
    ``reserve`` more tiles at the end of the live part are left for the 分张
    round. ``head``/``tail`` index into ``tiles``.
    """

    __slots__ = ("_order", "head", "tail", "kept", "reserve")

    def __init__(
        self, tiles: Sequence[int], head: int = 0, tail: int = -1, kept: int = 0, reserve: int = 0
    ) -> None:
        self._order = bytes(tiles)  # a byte a tile (kinds < 42): an eighth of a list's memory
        self.head = head
        self.tail = len(self._order) if tail < 0 else tail
        self.kept = kept
        self.reserve = reserve

    @property
    def tiles(self) -> list[int]:
        """The whole wall order, drawn and not (a new list)."""
        return list(self._order)

    def _fields(self) -> tuple[list[int], int, int, int, int]:
        return (self.tiles, self.head, self.tail, self.kept, self.reserve)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Wall):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it was

    def __repr__(self) -> str:
        return "Wall(tiles={!r}, head={}, tail={}, kept={}, reserve={})".format(*self._fields())

    def __reduce__(self) -> tuple[type, tuple[list[int], int, int, int, int]]:
        return (Wall, self._fields())

    def copy(self) -> Wall:
        """An independent wall at the same position (the order's bytes are shared)."""
        return Wall(self._order, self.head, self.tail, self.kept, self.reserve)

    @property
    def remaining(self) -> int:
        return self.tail - self.head

    @property
    def live(self) -> int:
        """Tiles still available to normal draws (before any 分张 reserve)."""
        return max(self.tail - self.head - self.kept, 0)

    def can_draw(self) -> bool:
        # = self.live > self.reserve (reserve >= 0), without the property call
        return self.tail - self.head - self.kept > self.reserve

    def is_last_draw(self) -> bool:
        """True when the next normal draw is the last one (海底)."""
        return self.live == self.reserve + 1

    def draw(self) -> int:
        tile = self._order[self.head]
        self.head += 1
        return tile

    def draw_many(self, k: int) -> list[int]:
        """The next ``k`` normal draws at once (the deal): ``[draw() for _ in range(k)]``."""
        if self.head + k > len(self._order):
            raise IndexError("draw from an empty wall")
        tiles = list(self._order[self.head : self.head + k])
        self.head += k
        return tiles

    def draw_tail(self) -> int:
        """A replacement (补张) or indicator tile from the tail."""
        self.tail -= 1
        if self.kept:
            self.kept -= 1
        return self._order[self.tail]

    def can_draw_tail(self) -> bool:
        """A replacement (tail) tile exists outside the 分张 reserve.

        With the kept part exhausted the tail of the live part is used, but never the
        last ``reserve`` live tiles (RULES.md §0.5): the 分张 round always has its tiles.
        """
        return self.tail > self.head + (0 if self.kept else self.reserve)


def build_wall(
    tile_set: list[int],
    players: int,
    dealer: int = 0,
    hands: dict[int, Any] | None = None,
    draws: Any = (),
    replacements: Any = (),
    seed: int = 0,
    apart: Any = (),
) -> list[int]:
    """A full wall order for a scripted situation (tests, tutorials, bug reports).

    ``hands`` gives some or all concealed tiles of seats (the dealer's 14, 13 for
    others); missing tiles are filled from what is left, shuffled with ``seed``.
    ``draws`` are the next normal draws in order; ``replacements`` the next tail
    draws (gang replacements / indicators) in the order they are taken. Tiles of the
    ``apart`` kinds (e.g. flowers) that are not given explicitly are never used as filler:
    they lie in the middle of the wall, away from both ends.
    Raises InvalidWallError if the tiles are not available in ``tile_set``.
    """
    from collections import Counter

    import numpy as np

    from .. import tiles as T
    from ..errors import InvalidWallError, clip

    pool = Counter(tile_set)

    def take(text: Any) -> list[int]:
        kinds = T.to_kinds(text)
        for k in kinds:
            if pool[k] <= 0:
                raise InvalidWallError(f"scenario uses more {T.format([k])} than the tile set has")
            pool[k] -= 1
        return kinds

    for s in hands or {}:
        if type(s) is not int or not 0 <= s < players:
            raise InvalidWallError(f"hands: no seat {clip(s)} at a {players}-player table")
    hands = {s: take(h) for s, h in (hands or {}).items()}
    draws_k, repl_k = take(draws), take(replacements)
    apart = set(apart)
    kept = [k for k in pool.elements() if k in apart]
    rest = [k for k in pool.elements() if k not in apart]
    np.random.default_rng(seed).shuffle(rest)
    head: list[int] = []
    for i in range(players):
        seat = (dealer + i) % players
        size = 14 if i == 0 else 13
        hand = hands.get(seat, [])
        if len(hand) > size:
            raise InvalidWallError(f"seat {seat} is given {len(hand)} tiles, more than {size}")
        fill, rest = rest[: size - len(hand)], rest[size - len(hand) :]
        head.extend(hand + fill)
    half = len(rest) // 2
    middle, tail = rest[:half] + kept + rest[half:], list(reversed(repl_k))
    return head + draws_k + middle + tail
