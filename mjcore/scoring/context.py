# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""What a win is (WinContext), what it is worth (Breakdown), who pays (Payment)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .. import tiles as T
from .._core import held_mask
from ..engine.melds import MELD_KINDS, Meld
from ..errors import InvalidHandError, clip
from ..tiles import ONE_SUIT_BITS, kinds_mask, suit_bits

_SUIT_SETS = tuple(frozenset(s for s in range(4) if bits >> s & 1) for bits in range(16))

HOWS = ("self_draw", "discard", "rob_gang", "fenzhang")


def kinds_held(counts: Any, melds: Iterable[Meld]) -> int:
    """The kinds of concealed ``counts`` and of ``melds`` as a bitmask (bit t: kind t)."""
    held = held_mask(counts)
    for m in melds:
        held |= kinds_mask(m.tiles)
    return held


# WinContext, Hit and Breakdown are frozen dataclasses with their own __init__: it writes the
# fields into the instance dict one item each (compiled: a C call each, no keyword dict built),
# where the generated one calls object.__setattr__ per field as interpreted Python: most of a
# scored win's cost.
# Frozen all the same (assignment raises); tests/test_scoring_values.py keeps each __init__
# in step with the fields and their defaults.


@dataclass(frozen=True, init=False)  # (its own __init__: see above)
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

    def __init__(
        self,
        concealed: np.ndarray,
        win_tile: int,
        how: str = "discard",
        melds: tuple[Meld, ...] = (),
        jokers: int = 0,
        gang_chain: int = 0,
        after_gang: int = 0,
        flags: frozenset[str] = frozenset(),
        joker_kind: int = -1,
        flowers: tuple[int, ...] = (),
    ) -> None:
        d = self.__dict__  # (field by field: no keyword dict is built)
        d["concealed"] = concealed
        d["win_tile"] = win_tile
        d["how"] = how
        d["melds"] = melds
        d["jokers"] = jokers
        d["gang_chain"] = gang_chain
        d["after_gang"] = after_gang
        d["flags"] = flags
        d["joker_kind"] = joker_kind
        d["flowers"] = flowers

    @property
    def is_self_draw(self) -> bool:
        return self.how in ("self_draw", "fenzhang")

    def validate(self) -> WinContext:
        """Raise InvalidHandError, naming the field, unless every field has its type and the
        description is physically possible: the one check of a WinContext, however it was built
        (directly or by :meth:`from_json`)."""
        _check_types(self)
        if self.concealed[self.win_tile] == 0 and self.jokers == 0:
            raise InvalidHandError(
                f"the winning tile {T.NOTATION[self.win_tile]} must be among the concealed tiles"
            )
        total = self.concealed.astype(int)  # (a copy)
        for m in self.melds:
            for t in m.tiles:
                total[t] += 1
        if total.max() > 4:
            kind = int(total.argmax())
            raise InvalidHandError(f"{T.NOTATION[kind]} appears {total[kind]} times (at most 4)")
        return self

    def all_kinds(self) -> list[int]:
        """Every natural tile of the 14 (melds included), jokers excluded."""
        out = T.from_counts(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    def one_suit(self) -> bool:
        """清一色's test: every natural tile (melds included) of one suit, and no honor."""
        return self.suit_bits() in ONE_SUIT_BITS

    def suits(self) -> set[int]:
        """The suits (:func:`~mjcore.tiles.suit`: 0 万 … 3 honors) of :meth:`all_kinds`."""
        return set(_SUIT_SETS[self.suit_bits()])

    def suit_bits(self) -> int:
        """:meth:`suits` as 4 bits (bit 0 万, 1 筒, 2 条, 3 honors)."""
        return suit_bits(self.kinds_held())

    def kinds_held(self) -> int:
        """The kinds of :meth:`all_kinds` as a bitmask (bit t: kind t)."""
        return kinds_held(self.concealed, self.melds)

    def to_json(self) -> dict[str, Any]:
        """The documented JSON form: ``WinContext.from_json(ctx.to_json())`` describes the same
        win (the form has no place for the kind a 混 in a 扭 group stands for)."""
        jk = self.joker_kind
        return {
            "concealed": T.format(self.concealed),
            "win_tile": T.NOTATION[self.win_tile],
            "how": self.how,
            "melds": [str(m) for m in self.melds],
            "jokers": self.jokers,
            "gang_chain": self.gang_chain,
            "after_gang": self.after_gang,
            "flags": sorted(self.flags),
            "joker_kind": T.NOTATION[jk] if jk >= 0 else None,
            "flowers": T.format(list(self.flowers)),
        }

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
        jk = data.get("joker_kind", None)
        if jk is None:  # (no joker kind; -1, the form before wire format 2, is read too)
            jk = -1
        elif isinstance(jk, str):
            jk = T.kind(jk)
        elif not (type(jk) is int and -1 <= jk < T.N_KINDS):
            raise InvalidHandError(f"joker_kind must be a tile or -1, got {clip(jk)}")
        win_tile = data["win_tile"]
        if not isinstance(win_tile, str):
            raise InvalidHandError(f"win_tile must be a tile like '5p', got {clip(win_tile)}")
        return WinContext(
            concealed=_concealed(_field(data, "concealed", (str, list), "")),
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


def _concealed(tiles: str | list) -> np.ndarray:
    """The count vector of the concealed tiles; a flower there is refused, never dropped."""
    kinds = T.to_kinds(tiles)
    flowers = [k for k in kinds if k >= T.N_KINDS]
    if flowers:
        k = flowers[0]
        raise InvalidHandError(
            f"concealed: {T.NOTATION[k]} ({T.name(k)}) is a flower, never a concealed tile of a "
            "win (flowers are set aside)"
        )
    return T.counts(kinds)


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _check_int(name: str, value: Any, low: int, high: int) -> None:
    if not _is_int(value) or not low <= value <= high:
        raise InvalidHandError(f"{name} must be an integer {low}..{high}, got {clip(value)}")


def _check_types(ctx: WinContext) -> None:
    """Each field of ``ctx`` has the type and range the dataclass declares (InvalidHandError
    naming the field): a hand-built WinContext is checked like the JSON form."""
    c = ctx.concealed
    if not (isinstance(c, np.ndarray) and c.shape == (T.N_KINDS,) and c.dtype.kind in "ui"):
        got = f"shape {c.shape}, dtype {c.dtype}" if isinstance(c, np.ndarray) else clip(c)
        raise InvalidHandError(f"concealed must be a count vector of 34 integers, got {got}")
    if c.min() < 0 or c.max() > 4:
        raise InvalidHandError(f"concealed: every count must be 0..4, got {clip(c.tolist())}")
    _check_int("win_tile", ctx.win_tile, 0, T.N_KINDS - 1)
    if not isinstance(ctx.how, str) or ctx.how not in HOWS:
        raise InvalidHandError(f"how must be one of {HOWS}, got {clip(ctx.how)}")
    melds = ctx.melds
    if not isinstance(melds, (tuple, list)) or not all(isinstance(m, Meld) for m in melds):
        raise InvalidHandError(f"melds must be a tuple of Meld (see Meld.parse), got {clip(melds)}")
    for m in melds:
        if m.kind not in MELD_KINDS or not isinstance(m.tiles, tuple) or len(m.tiles) < 3:
            raise InvalidHandError(f"melds: not a meld: {clip(m)}")
        for t in m.tiles:
            _check_int("melds: a tile", t, 0, T.N_KINDS - 1)
    for name in ("jokers", "gang_chain", "after_gang"):
        _check_int(name, getattr(ctx, name), 0, 64)
    flags = ctx.flags
    if not isinstance(flags, (frozenset, set)) or not all(isinstance(f, str) for f in flags):
        raise InvalidHandError(f"flags must be a frozenset of strings, got {clip(flags)}")
    _check_int("joker_kind", ctx.joker_kind, -1, T.N_KINDS - 1)
    if not isinstance(ctx.flowers, (tuple, list)):
        raise InvalidHandError(f"flowers must be a tuple of tile kinds, got {clip(ctx.flowers)}")
    for t in ctx.flowers:
        _check_int("flowers: a tile", t, 0, T.N_ALL_KINDS - 1)


def _field(data: dict[str, Any], key: str, types: Any, default: Any) -> Any:
    """``data[key]`` (or ``default``) checked against ``types``; bools are never ints."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, types):
        raise InvalidHandError(f"{key} has the wrong type: {clip(value)}")
    if isinstance(value, int) and not 0 <= value <= 64:
        raise InvalidHandError(f"{key} must be 0..64, got {clip(value)}")
    return value


@dataclass(frozen=True, init=False)  # (its own __init__: see above)
class Hit:
    """One scoring pattern that applies: id, Chinese name, its value and how it combines."""

    id: str
    name: str
    value: int
    combine: str = "add"  # "base" | "add" (fan) | "mul" (factor)

    def __init__(self, id: str, name: str, value: int, combine: str = "add") -> None:  # noqa: A002
        d = self.__dict__  # (field by field: no keyword dict is built)
        d["id"] = id
        d["name"] = name
        d["value"] = value
        d["combine"] = combine

    def __hash__(self) -> int:
        # (compiled, unlike the dataclass's generated one: variants cache breakdowns by hits)
        return hash((self.id, self.value, self.combine))

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "value": self.value, "combine": self.combine}


@dataclass(frozen=True)
class Pattern:
    """One scoring pattern a variant can award: an entry of ``variant.patterns()``.

    ``id`` is what ``Hit.id`` and ``Breakdown.ids`` carry, ``name`` its 中文 name, ``english``
    the English name players use (清一色 "Full Flush"; never pinyin), ``rule`` one line saying
    when it applies. ``kind`` says what ``value`` is, as the variant scores it:
    ``"fan"`` (added to the fan count: 血战 pays ``2^fan``), ``"points"`` (a base pattern's
    points), ``"mul"`` (a factor), ``"add"`` (points added on top) or ``"column"`` (荔浦: the
    win-method column of the score table; ``value`` is its 平胡 cell). A value that depends on
    the hand (鬼 per kind, 飘, 荔浦's table cells) is the value of one unit or of the first
    column, and ``rule`` says how it varies.
    """

    id: str
    name: str
    value: int
    kind: str
    rule: str
    english: str = ""


PATTERN_KINDS = ("fan", "points", "mul", "add", "column")


def pattern_table(
    rows: Iterable[tuple[str, str, int, str]],
    rules: Mapping[str, str],
    english: Mapping[str, str],
) -> tuple[Pattern, ...]:
    """A variant's registry: one Pattern per ``(id, name, value, kind)`` row of its scoring data,
    with its line of ``rules`` and its ``english`` name. A row without a rule or an English
    name, a repeated id or an unknown kind raises at import, so the registry cannot drift from
    the data the scorer uses."""
    out = []
    seen: set[str] = set()
    for pid, name, value, kind in rows:
        if pid in seen or kind not in PATTERN_KINDS:
            raise ValueError(f"pattern table: repeated id or unknown kind: {pid!r} {kind!r}")
        seen.add(pid)
        if not english.get(pid):
            raise ValueError(f"pattern table: no English name for {pid!r}")
        out.append(Pattern(pid, name, value, kind, rules[pid], english[pid]))
    return tuple(out)


@dataclass(frozen=True)
class PayReason:
    """A part of a payment's ``reason`` that is not a scoring pattern: an entry of
    ``variant.payment_reasons()``.

    A ``pay`` event's reason is its parts joined by ``"+"``: the win's pattern ids (see
    ``variant.patterns()``) then these, or one of these alone (a gang's score, 查叫 …).
    ``counted``: the part carries a count after its id (荔浦 ``horses2``: two horses hit).
    """

    id: str
    name: str
    rule: str
    counted: bool = False


# Parts the engine itself or several variants write (each variant lists the ones it can pay).
GANG_REASONS = (
    PayReason("zhigang", "明杠", "a gang's score: 直杠 of a discard (its discarder pays)"),
    PayReason("bugang", "补杠", "a gang's score: 补杠 added to a peng"),
    PayReason("angang", "暗杠", "a gang's score: concealed gang (every other seat pays)"),
)
CAP_REASON = PayReason("cap", "封顶", "the payer's loss cap cut this payment (engine: +cap)")


@dataclass(frozen=True, init=False)  # (its own __init__: see above)
class Breakdown:
    """A win's value: the patterns, the per-payer points and a human formula."""

    hits: tuple[Hit, ...]
    points: int
    fan: int = 0
    formula: str = ""

    def __init__(self, hits: tuple[Hit, ...], points: int, fan: int = 0, formula: str = "") -> None:
        d = self.__dict__  # (field by field: no keyword dict is built)
        d["hits"] = hits
        d["points"] = points
        d["fan"] = fan
        d["formula"] = formula

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

    def copy(self) -> Win:
        """An independent copy (its own list of payments; the rest is immutable)."""
        return Win(
            self.seat, self.tile, self.how, self.from_seat, self.breakdown, list(self.payments)
        )

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "tile": T.NOTATION[self.tile],
            "how": self.how,
            "from_seat": self.from_seat,
            **self.breakdown.to_json(),
        }
