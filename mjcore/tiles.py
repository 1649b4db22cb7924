# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""Tile kinds, mpsz notation and Chinese names (RULES.md §0.1).

Kinds 0–8 are characters ``1m..9m`` (万), 9–17 dots ``1p..9p`` (筒), 18–26
bamboo ``1s..9s`` (条), 27–33 honors ``1z..7z`` (东 南 西 北 白 发 中) and
34–41 the flowers ``1f..8f`` (春 夏 秋 冬 梅 兰 竹 菊). A hand is a ``uint8[34]``
count vector; flowers never enter it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .errors import InvalidHandError, InvalidTileError, clip

N_KINDS = 34
"""Number of non-flower tile kinds (the length of a count vector)."""
N_FLOWERS = 8
FIRST_FLOWER = 34
N_ALL_KINDS = N_KINDS + N_FLOWERS
ALL_KINDS_MASK = (1 << N_KINDS) - 1
"""Every non-flower kind as a bitmask (bit t: kind t), as the core's masks are."""
SUIT_MASKS = (0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27)
"""Bit masks of the kinds of each suit (0 万, 1 筒, 2 条) and of the honors (3)."""
SUITS = "mpsz"
SUIT_NAMES = ("万", "筒", "条")

TileLike = str | Iterable[int] | np.ndarray

_DIGITS = "一二三四五六七八九"
_HONOR_NAMES = ("东", "南", "西", "北", "白板", "发财", "红中")
_FLOWER_NAMES = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")


def _chinese_aliases() -> dict[str, int]:
    aliases: dict[str, int] = {}
    for suit, words in enumerate((("万",), ("筒", "饼"), ("条", "索"))):
        for r, digit in enumerate(_DIGITS):
            for word in words:
                aliases[digit + word] = suit * 9 + r
    aliases["幺鸡"] = 18
    for i, full in enumerate(_HONOR_NAMES):
        aliases[full] = 27 + i
        aliases[full + "风"] = 27 + i
        aliases[full[0]] = 27 + i
    aliases["红中"] = aliases["中"] = 33
    for i, flower in enumerate(_FLOWER_NAMES):
        aliases[flower] = FIRST_FLOWER + i
    return aliases


_ALIASES = _chinese_aliases()
# Longest alias first so that 白板 wins over 白 and 东风 over 东.
_CHINESE_RE = "|".join(sorted(map(re.escape, _ALIASES), key=len, reverse=True))
# ASCII digits only: full-width and other Unicode digits are not tile notation.
_TOKEN = re.compile(rf"\s*(?:([0-9]+)([mpszf])|({_CHINESE_RE}))\s*")


def kind(text: str) -> int:
    """Index of a single tile written as ``5p``, ``7z``, ``2f`` or a Chinese name."""
    tiles = parse(text)
    if len(tiles) != 1:
        raise InvalidTileError(f"expected one tile, got {clip(text)}")
    return tiles[0]


# per suit letter: (the kind of its 1, its largest rank)
_SUIT_RANGE = {"m": (0, 9), "p": (9, 9), "s": (18, 9), "z": (27, 7), "f": (FIRST_FLOWER, 8)}


def _digit_kind(digit: str, suit: str, text: str) -> int:
    first, limit = _SUIT_RANGE[suit]
    r = int(digit)
    if not 1 <= r <= limit:
        raise InvalidTileError(f"no tile {clip(digit, 12)}{suit} in {clip(text)}")
    return first + r - 1


def parse(text: str) -> list[int]:
    """Parse mpsz notation (``"123m456p11z"``) and/or Chinese names into kinds.

    Order is preserved: ``parse("3m1m") == [2, 0]``.
    """
    if not isinstance(text, str):
        raise InvalidTileError(f"tile text must be a string, got {clip(text)}")
    out: list[int] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise InvalidTileError(f"cannot parse tiles {clip(text)} at {clip(text[pos:], 20)}")
        digits, suit, chinese = m.groups()
        if chinese:
            out.append(_ALIASES[chinese])
        else:
            out.extend(_digit_kind(d, suit, text) for d in digits)
        pos = m.end()
    return out


def to_kinds(tiles: TileLike) -> list[int]:
    """A tile string or an iterable of kind indices, validated, as a list of kinds."""
    if isinstance(tiles, str):
        return parse(tiles)
    # Fast check of a plain kind list (C-level passes; bools are not ints here either).
    if isinstance(tiles, (list, tuple)) and (
        not tiles
        or (set(map(type, tiles)) == {int} and min(tiles) >= 0 and max(tiles) < N_ALL_KINDS)
    ):
        return list(tiles)
    if not isinstance(tiles, (Iterable, np.ndarray)) or isinstance(tiles, (bytes, dict)):
        raise InvalidTileError(
            f"tiles must be a tile string or a sequence of kinds, got {clip(tiles)}"
        )
    out = []
    for t in tiles:
        if isinstance(t, str):
            out.extend(parse(t))
            continue
        if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)):
            raise InvalidTileError(f"not a tile kind: {clip(t)}")
        if not 0 <= int(t) < N_ALL_KINDS:
            raise InvalidTileError(f"tile kind out of range 0..{N_ALL_KINDS - 1}: {clip(t)}")
        out.append(int(t))
    return out


def counts(tiles: TileLike) -> np.ndarray:
    """Count vector ``uint8[34]`` of a tile string or kind list (flowers ignored).

    A kind present more than 4 times raises :class:`InvalidHandError`.
    """
    vec = np.zeros(N_KINDS, dtype=np.uint8)
    tally = np.bincount([t for t in to_kinds(tiles) if t < N_KINDS], minlength=N_KINDS)
    if tally.max(initial=0) > 4:
        bad = int(np.argmax(tally))
        raise InvalidHandError(f"{format([bad])} appears {tally[bad]} times (at most 4)")
    vec[:] = tally
    return vec


NOTATION = tuple(
    f"{k % 9 + 1}{SUITS[k // 9]}" if k < N_KINDS else f"{k - FIRST_FLOWER + 1}f"
    for k in range(N_ALL_KINDS)
)
"""mpsz text of each single kind, e.g. ``NOTATION[4] == "5m"``."""
_DIGIT = tuple(text[0] for text in NOTATION)
# kind -> its digit's ASCII code, for bytes.translate (a kind is one byte)
_DIGIT_TABLE = bytes(ord(_DIGIT[k]) if k < N_ALL_KINDS else 0 for k in range(256))
_SUIT_CHAR = tuple(text[1] for text in NOTATION)


_UINT8 = np.dtype(np.uint8)


def from_counts(vec: Sequence[int] | np.ndarray) -> list[int]:
    """Sorted kind list of a count vector (at most 34 integer counts 0..4; numpy too).

    Anything else — floats, bools, negative or larger counts, a longer vector — raises
    :class:`InvalidHandError` (never a silently wrong list)."""
    kinds = None
    if isinstance(vec, (bytes, bytearray)):  # the engine's hands: one byte a kind
        kinds = _kinds_of(bytes(vec))
    elif isinstance(vec, np.ndarray) and vec.dtype is _UINT8 and vec.ndim == 1:
        kinds = _kinds_of(vec.tobytes())  # the scoring's count vectors: read as bytes
    if kinds is None:  # anything else, or a bad count vector (the error names the problem)
        kinds = _kinds_of(bytes(_count_list(vec)))
    return kinds  # type: ignore[return-value]


def _kinds_of(raw: bytes) -> list[int] | None:
    """The sorted kind list of counts held one byte a kind; None unless there are at most 34
    counts, each 0..4."""
    if len(raw) > N_KINDS:
        return None
    out = []
    for k in range(len(raw)):
        n = raw[k]
        if n > 4:
            return None
        for _copy in range(n):
            out.append(k)
    return out


def _count_list(vec: Any) -> list[int]:
    """``vec`` as a list of plain int counts 0..4 (at most 34), else InvalidHandError."""
    if isinstance(vec, np.ndarray):
        if vec.ndim != 1 or vec.dtype.kind not in "iu":
            raise InvalidHandError(f"a count vector holds integers, got {clip(vec)}")
        vec = vec.tolist()
    elif not isinstance(vec, (Sequence, bytearray)) or isinstance(vec, str):
        raise InvalidHandError(f"a count vector is a sequence of counts, got {clip(vec)}")
    if len(vec) > N_KINDS:
        raise InvalidHandError(f"a count vector has at most {N_KINDS} counts, got {len(vec)}")
    out = []
    for n in vec:
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
            raise InvalidHandError(f"a tile count is an integer 0..4, got {clip(n)}")
        if not 0 <= n <= 4:
            raise InvalidHandError(f"a tile count is 0..4, got {clip(n)}")
        out.append(int(n))
    return out


def format(tiles: TileLike) -> str:  # noqa: A001 - the natural name for notation
    """Canonical sorted mpsz text, e.g. ``"123m456p11z1f"``.

    Accepts a kind list/string, or a length-34 count vector (numpy array of counts 0..4).
    """
    if isinstance(tiles, np.ndarray) and tiles.shape == (N_KINDS,):
        return format_sorted(from_counts(tiles))
    return format_sorted(sorted(to_kinds(tiles)))


_SUIT_TABLE = bytes(ord(_SUIT_CHAR[k]) if k < N_ALL_KINDS else 0 for k in range(256))
"""kind -> its suit letter's ASCII code."""


def format_sorted(kinds: Sequence[int]) -> str:
    """:func:`format` of kinds already valid and sorted (the engine's own lists): each suit's
    run of digits, then its letter."""
    raw = bytes(kinds)
    digit, suit = _DIGIT_TABLE, _SUIT_TABLE
    out = bytearray()
    n = len(raw)
    for i in range(n):
        out.append(digit[raw[i]])
        if i + 1 == n or suit[raw[i + 1]] != suit[raw[i]]:  # the end of a suit's run
            out.append(suit[raw[i]])
    return out.decode("ascii")


_BLANK = bytearray(4 * N_KINDS + 4)
"""Never written: format_counts slices its buffer from it (a new bytearray, made cheaper than
by the constructor)."""


def format_counts(counts: bytes | bytearray) -> str:
    """:func:`format_sorted` of the tiles a one-byte-a-kind count vector holds (the engine's
    hands): the same text, without listing and sorting the tiles. At most 34 counts, each
    0..4 (anything else raises :class:`InvalidHandError`)."""
    raw = counts if isinstance(counts, bytearray) else bytearray(counts)
    if len(raw) > N_KINDS:
        raise InvalidHandError(f"a count vector has at most {N_KINDS} counts, got {len(raw)}")
    digit, suit = _DIGIT_TABLE, _SUIT_TABLE
    out = _BLANK[:]  # room for four of every kind and a letter a suit (a new bytearray)
    n = 0
    letter = 0  # the suit letter still to write after the digits of its run
    for k in range(len(raw)):
        copies = raw[k]
        if not copies:
            continue
        if copies > 4:
            raise InvalidHandError(f"a tile count is 0..4, got {copies}")
        if letter and suit[k] != letter:
            out[n] = letter
            n += 1
        letter = suit[k]
        for _copy in range(copies):
            out[n] = digit[k]
            n += 1
    if letter:
        out[n] = letter
        n += 1
    return out[:n].decode("ascii")


def name(k: int) -> str:
    """Chinese display name: 一万 … 九条, 东 南 西 北, 白板 发财 红中, 春 … 菊."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise InvalidTileError(f"a tile kind is an integer 0..{N_ALL_KINDS - 1}, got {clip(k)}")
    if not 0 <= k < N_ALL_KINDS:
        raise InvalidTileError(f"tile kind out of range 0..{N_ALL_KINDS - 1}: {clip(k)}")
    if k >= FIRST_FLOWER:
        return _FLOWER_NAMES[k - FIRST_FLOWER]
    if k >= 27:
        return _HONOR_NAMES[k - 27]
    return _DIGITS[k % 9] + SUIT_NAMES[k // 9]


def names(tiles: TileLike) -> str:
    """Space-separated Chinese names of tiles (in the given order)."""
    return " ".join(name(k) for k in to_kinds(tiles))


def suit(k: int) -> int:
    """0 = 万 m, 1 = 筒 p, 2 = 条 s, 3 = honors z."""
    return k // 9 if k < 27 else 3


def rank(k: int) -> int:
    """Rank 1–9 of a suited tile, 1–7 for honors."""
    return k % 9 + 1 if k < 27 else k - 26


def is_honor(k: int) -> bool:
    return 27 <= k < N_KINDS


def is_suited(k: int) -> bool:
    return 0 <= k < 27


def is_258(k: int) -> bool:
    """A suited 2, 5 or 8 (the 掌/将 kinds of 258 rules)."""
    return k < 27 and k % 9 in (1, 4, 7)


def is_terminal_or_honor(k: int) -> bool:
    """幺九: rank 1 or 9 of a suit, or any honor."""
    return k >= 27 or k % 9 in (0, 8)


def is_flower(k: int) -> bool:
    """One of the eight flower kinds ``1f``–``8f`` (a variant may play more kinds as flowers,
    e.g. 宿松 中发白: ``Variant.flower_kinds`` / ``Game.is_flower``)."""
    return FIRST_FLOWER <= k < N_ALL_KINDS


def kinds_mask(kinds: Iterable[int]) -> int:
    """The bitmask (bit t: kind t) of some non-flower kinds; flowers are left out."""
    mask, bit = 0, 1  # (C words when compiled: tiles.pxd)
    for t in kinds:
        if 0 <= t < N_KINDS:
            k = t  # (in range: a C index)
            mask |= bit << k
    return mask


ONE_SUIT_BITS = frozenset({0b001, 0b010, 0b100})
"""The :func:`suit_bits` of tiles all of one suit (万, 筒 or 条) and no honor: 清一色's."""


def suit_bits(mask: int) -> int:
    """The suits a kind bitmask holds, as 4 bits (bit 0 万, 1 筒, 2 条, 3 honors)."""
    bits = 0  # (C words when compiled: tiles.pxd)
    if mask & 0x1FF:
        bits |= 1
    if mask >> 9 & 0x1FF:
        bits |= 2
    if mask >> 18 & 0x1FF:
        bits |= 4
    if mask >> 27 & 0x7F:
        bits |= 8
    return bits
