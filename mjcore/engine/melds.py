# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""Exposed melds (副露): chi, peng and the three gang kinds, plus 扭 groups."""

from __future__ import annotations

from dataclasses import dataclass

from .. import tiles as T

GANG_KINDS = ("zhigang", "bugang", "angang")
MELD_KINDS = ("chi", "peng", *GANG_KINDS, "niu")


@dataclass(frozen=True)  # (compiled: an extension type with C fields, melds.pxd)
class Meld:
    """A meld on the table.

    ``kind``: ``chi`` 吃, ``peng`` 碰, ``zhigang`` 直杠 (3 in hand + a discard),
    ``bugang`` 补杠 (a peng upgraded with the 4th tile), ``angang`` 暗杠, or
    ``niu`` (a 青岛 扭 group). ``claimed`` is the kind taken from another seat
    and ``from_seat`` that seat (for ``bugang``: the seat the peng came from);
    for ``niu`` ``claimed`` is the kind a wildcard in the group stands for (−1: none).
    """

    kind: str
    tiles: tuple[int, ...]
    claimed: int = -1
    from_seat: int = -1

    @property
    def is_gang(self) -> bool:
        return self.kind in GANG_KINDS

    @property
    def is_set_of_one_kind(self) -> bool:
        """A triplet or quad (counts toward all-triplets hands)."""
        return self.kind in ("peng", *GANG_KINDS)

    def __str__(self) -> str:
        return f"{self.kind} {T.format(list(self.tiles))}"

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "tiles": T.format(list(self.tiles)),
            "claimed": self.claimed,
            "from_seat": self.from_seat,
        }

    @staticmethod
    def parse(text: str) -> Meld:
        """``"peng 3p"``, ``"angang 8p"``, ``"chi 456s"``, ``"zhigang 9s"``: short forms expand."""
        from ..errors import InvalidHandError, clip

        if not isinstance(text, str):
            raise InvalidHandError(f"a meld is text such as 'peng 3p', got {clip(text)}")
        words = text.split()
        if len(words) != 2 or words[0] not in MELD_KINDS:
            raise InvalidHandError(f"bad meld {clip(text)}; expected e.g. 'peng 3p' or 'chi 456s'")
        kind, tiles = words[0], sorted(T.parse(words[1]))
        if kind in ("peng",) + GANG_KINDS and len(set(tiles)) == 1:
            tiles = tiles[:1] * (3 if kind == "peng" else 4)
        if not _well_formed(kind, tiles):
            raise InvalidHandError(f"{clip(text)} is not a {kind}")
        return Meld(
            kind, tuple(sorted(tiles)), claimed=tiles[0] if kind not in ("angang", "niu") else -1
        )


def _well_formed(kind: str, tiles: list[int]) -> bool:
    if any(t >= T.N_KINDS for t in tiles):
        return False
    if kind == "chi":
        low = tiles[0]
        return len(tiles) == 3 and low < 27 and low % 9 <= 6 and tiles == [low, low + 1, low + 2]
    if kind == "niu":  # a group grows by one tile per 调牌
        return len(tiles) >= 3
    return len(set(tiles)) == 1 and len(tiles) == (3 if kind == "peng" else 4)


def locked_gang_uses_drawn(
    hand: bytes | bytearray, melds: list[Meld], drawn: int, tile: int
) -> bool:
    """A locked hand (荣成 报听/亮听/明搂, 青岛 扣听) gangs only with the tile it has just drawn:
    an 暗杠 whose four include ``drawn``, or a 补杠 of ``drawn`` onto its own peng (RULES §0.6,
    [DEC R26, Q32]); whether the waits stay the same is the variant's second test."""
    if drawn < 0 or tile != drawn:
        return False
    return hand[tile] == 4 or any(m.kind == "peng" and m.tiles[0] == tile for m in melds)
