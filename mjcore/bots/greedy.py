"""GreedyBot: discard to minimise shanten, take every win, claim when it does not hurt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import tiles as T
from .._core import (
    discard_shanten,
    form_flags,
    greedy_discard,
    greedy_ready_discard,
    shanten_bits,
    shanten_removed,
    waits_mask_bits,
)
from ..engine.actions import PASS, Action
from ..engine.variant import Variant
from .base import BaseBot

if TYPE_CHECKING:
    from ..engine.game import Game

_CLAIM_PHASES = ("claim", "rob")
_NOT_TURN = ("choose", "claim", "rob")


class GreedyBot(BaseBot):
    """Greedy shanten player (deterministic given the seed; ties broken by the seed's rng).

    * a win (``hu``) is always taken;
    * on its turn: a gang when the hand's shanten after it is no worse than after the best
      discard, a 扭 group (``niu``) on the same test, a ``declare`` when the best discard
      leaves the hand ready, else the discard of least shanten (ties: the least connected
      tile, then the rng);
    * on another seat's discard: gang > peng > chi when the shanten after the claim (and the
      best discard) is no worse than now, else pass;
    * a flower it holds (飘花) is discarded before anything else, and it claims nothing
      while it holds one;
    * a per-hand ``choose``: the variant's documented bot rule (``Variant.bot_choice``), else
      the value 0 when offered, else the first one.
    """

    name = "greedy"

    # ---- the two entry points -------------------------------------------------
    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        quick = _obvious(legal)
        if quick is not None:
            return quick
        seat = view["seat"]
        counts = T.counts(view["seats"][seat]["hand"])
        variant = view.get("variant", "")
        joker_kind = view.get("public", {}).get("joker_kind", -1)
        if isinstance(joker_kind, str):
            joker_kind = T.kind(joker_kind)
        if view["phase"] == "choose":
            return _choice(_variant_of(variant), view, legal)
        if view["seats"][seat].get("held_flowers") and view["phase"] in _CLAIM_PHASES:
            return PASS  # a flower still to shed (飘花): no claim
        claim = view.get("claim") or {}
        claim_tile = T.kind(claim["tile"]) if claim else -1
        hand = _Hand(counts, _flags_of(variant), joker_kind=joker_kind)
        hand.public = lambda: view.get("public", {})
        return self._decide(hand, view["phase"], claim_tile, legal)

    def act_fast(self, game: Game, seat: int, legal: Sequence[Action]) -> Action:
        phase = game.phase
        if len(legal) > 1 and phase not in _NOT_TURN:  # (_turn takes a win first, as _obvious)
            return self._turn(_hand_of(game, seat), legal)
        quick = _obvious(legal)
        if quick is not None:
            return quick
        if phase == "choose":
            variant = game.variant
            if type(variant).bot_choice is Variant.bot_choice:  # no rule of its own: no view
                return _neutral_choice(legal)
            return _choice(variant, game.view(seat), legal)
        if game.seats[seat].held_flowers and phase in _CLAIM_PHASES:
            return PASS  # a flower still to shed (飘花): no claim
        return self._decide(_hand_of(game, seat), phase, game.claim[1], legal)

    # ---- decisions -------------------------------------------------------------
    def _decide(self, hand: _Hand, phase: str, claim_tile: int, legal: Sequence[Action]) -> Action:
        if phase == "choose":
            return _neutral_choice(legal)
        if phase in _CLAIM_PHASES:
            return self._claim(hand, claim_tile, legal)
        return self._turn(hand, legal)

    def _turn(self, hand: _Hand, legal: Sequence[Action]) -> Action:
        discards: list[Action] = []
        tiles: list[int] = []
        others = False
        for a in legal:  # one pass: a win, the discards, whether anything else is offered
            kind = a.kind
            if kind == "discard":
                discards.append(a)
                tiles.append(a.tile)
            elif kind == "hu":
                return a
            else:
                others = True
        if not discards:
            return PASS if PASS in legal else legal[0]
        best, picks = hand.discard_picks(tiles)
        if best is None:  # a held flower (not in the concealed counts) goes first
            return discards[picks[0]]
        if others:
            by_kind: dict[str, list[Action]] = {}  # the other kinds, each in the order of legal
            for a in legal:
                if a.kind != "discard":
                    by_kind.setdefault(a.kind, []).append(a)
            for a in by_kind.get("gang", ()):
                take = 4 if hand.counts[a.tile] == 4 else 1
                if hand.shanten_without({a.tile: take}) <= best:
                    return a
            for a in by_kind.get("niu", ()):  # 扭 / 调牌 (青岛): expose a group when no worse
                if self._niu_helps(hand, a, best):
                    return a
            if best <= 0 and "declare" in by_kind:
                return by_kind["declare"][0]
        if best == 0 and len(picks) > 1:
            picks = hand.ready_picks(tiles, picks)
        if len(picks) == 1:
            return discards[picks[0]]
        return discards[picks[self.integers(len(picks))]]

    @staticmethod
    def _niu_helps(hand: _Hand, action: Action, best: int) -> bool:
        """A 3-tile group still needs a discard after it; 4 tiles and 调牌 draw a replacement."""
        removed: dict[int, int] = {}
        for t in action.tiles:
            removed[t] = removed.get(t, 0) + 1
        if len(action.tiles) == 3:
            return hand.best_after_discard(removed) <= best
        return hand.shanten_without(removed) <= best

    def _claim(self, hand: _Hand, tile: int, legal: Sequence[Action]) -> Action:
        """gang > peng > chi (each in the order of legal) when no worse than passing; every
        gang (peng) on the discard asks the same question, so the first one answers for all."""
        gang = peng = None
        chis: list[Action] = []
        for a in legal:
            kind = a.kind
            if kind == "chi":
                chis.append(a)
            elif kind == "peng":
                if peng is None:
                    peng = a
            elif kind == "gang" and gang is None:
                gang = a
        now = hand.shanten_without({})
        if gang is not None and hand.shanten_without({tile: 3}) <= now:
            return gang
        if peng is not None and hand.best_after_discard({tile: 2}) <= now:
            return peng
        for a in chis:
            if hand.best_after_discard({t: 1 for t in a.tiles if t != tile}) <= now:
                return a
        return PASS if PASS in legal else legal[0]


def _hand_of(game: Game, seat: int) -> _Hand:
    """The seat's concealed hand for the bot's questions, read from the engine directly."""
    variant = game.variant
    counts: Any = game.seats[seat].hand  # the live hand (bytearray): the core only reads it
    bits = game.shape_bits  # = _bits(game.shape_flags)
    # Without a wildcard in the whole hand none of its parts has one (混, a drawn 宝).
    if type(variant).jokers is Variant.jokers or not variant.jokers(game, seat, counts)[1]:
        hand = _Hand(counts, bits)
    elif variant.jokers_are_joker_kind:  # the same split, asked of the core directly
        hand = _Hand(counts, bits, joker_kind=game.extra["joker_kind"])
    else:  # the variant's own split of each hypothetical hand (on a copy: it is changed)
        own = game.seats[seat].counts_copy()
        hand = _Hand(own, bits, split=lambda c: variant.jokers(game, seat, c))
    hand.public = lambda: variant.public_state(game)
    return hand


class _Hand:
    """A concealed hand as counts, with shanten queries on hypothetical removals."""

    __slots__ = ("counts", "flags", "bits", "joker_kind", "split", "public")

    def __init__(
        self, counts: Any, flags: Mapping[str, bool] | int, joker_kind: int = -1, split: Any = None
    ) -> None:
        self.counts = counts  # 34 uint8 counts (numpy row, bytearray); only read without split
        self.flags = flags
        self.bits = flags if isinstance(flags, int) else _bits(flags)  # core form-flag bits
        self.joker_kind = joker_kind
        self.split = split
        self.public: Any = dict  # the view's public facts (the turned-up 宝 …), read lazily

    def _split(self, c: np.ndarray) -> tuple[np.ndarray, int]:
        """(natural counts, wildcards) of ``c``, which is left as it is: the variant's own
        split, else every copy of ``joker_kind``, else no wildcard."""
        if self.split is not None:
            return self.split(c.copy())  # type: ignore[no-any-return]
        jk = self.joker_kind
        if jk >= 0 and c[jk]:
            natural = c.copy()
            natural[jk] = 0
            return natural, int(c[jk])
        return c, 0

    def shanten_without(self, removed: dict[int, int]) -> int:
        if self.split is None:  # one native call, the counts only read
            return shanten_removed(self.counts, self.joker_kind, self.bits, removed)
        c = self.counts
        for t, n in removed.items():
            c[t] -= n
        try:
            return shanten_bits(*self._split(c), self.bits)
        finally:
            for t, n in removed.items():
                c[t] += n

    def shanten_after_discards(
        self, tiles: list[int], removed: dict[int, int] | None = None
    ) -> list[int]:
        """``shanten_without(removed + {t: 1})`` for each of ``tiles`` (held kinds): one native
        call for every discard at once; a variant's own wildcard split goes tile by tile."""
        buf = bytearray(np.asarray(self.counts).astype(np.uint8, copy=False))
        for t, n in (removed or {}).items():
            buf[t] -= n
        if self.split is None:
            table = discard_shanten(buf, self.joker_kind, self.bits)
            return [table[t] for t in tiles]
        view = np.frombuffer(buf, dtype=np.uint8)
        bits, split = self.bits, self.split
        out = []
        for t in tiles:
            buf[t] -= 1
            natural, jokers = split(view.copy())
            out.append(shanten_bits(natural, jokers, bits))
            buf[t] += 1
        return out

    def discard_picks(self, tiles: list[int]) -> tuple[int | None, list[int]]:
        """:func:`~mjcore._core.greedy_discard` of these counts: the first tile not held
        (``(None, [i])``), else (least shanten after a discard, indices of the discards
        reaching it, cut to the least connected unless a ready tie)."""
        if self.split is None:
            return greedy_discard(self.counts, self.joker_kind, self.bits, tiles)  # type: ignore[no-any-return]
        held = _held(self.counts)
        for i, t in enumerate(tiles):
            if t >= T.N_KINDS or not held[t]:
                return None, [i]
        shantens = self.shanten_after_discards(tiles)
        best = min(shantens, default=99)
        picks = [i for i, s in enumerate(shantens) if s == best]
        if len(picks) > 1 and best != 0:
            picks = _least_connected(held, tiles, picks)
        return best, picks

    def ready_picks(self, tiles: list[int], picks: list[int]) -> list[int]:
        """Of ready discards ``picks``, those leaving the most winning kinds — a turned-up 宝
        among them counts double (宝中宝, asked of the core as "is the 宝 kind a natural
        wait") — then the least connected."""
        bao = self.public().get("bao")
        bao = T.kind(bao) if isinstance(bao, str) and bao != "hidden" else -1
        if self.split is None:
            return greedy_ready_discard(self.counts, self.joker_kind, self.bits, tiles, picks, bao)  # type: ignore[no-any-return]
        keys = []
        for i in picks:
            mask = self.waits_without({tiles[i]: 1})
            keys.append(bin(mask).count("1") + (bao >= 0 and mask >> bao & 1))
        top = max(keys)
        picks = [i for k, i in zip(keys, picks, strict=True) if k == top]
        if len(picks) > 1:
            picks = _least_connected(_held(self.counts), tiles, picks)
        return picks

    def waits_without(self, removed: dict[int, int]) -> int:
        """Bitmask of kinds completing the hand after ``removed`` (wildcards split out)."""
        c = np.array(self.counts, dtype=np.uint8)
        for t, n in removed.items():
            c[t] -= n
        return int(waits_mask_bits(*self._split(c), self.bits))

    def best_after_discard(self, removed: dict[int, int]) -> int:
        """Least shanten after removing ``removed`` and then discarding one tile."""
        if self.split is None:  # one native call: the least over every kind left in hand
            return shanten_removed(self.counts, self.joker_kind, self.bits, removed, True)
        c = _held(self.counts)
        tiles = [t for t, n in enumerate(c) if n > removed.get(t, 0)]
        return min(self.shanten_after_discards(tiles, removed), default=99)


def _held(counts: Any) -> list[int]:
    """The counts as a list of plain ints (cheaper reads than numpy scalars)."""
    return counts.tolist() if isinstance(counts, np.ndarray) else list(counts)


def _least_connected(held: Sequence[int], tiles: list[int], picks: list[int]) -> list[int]:
    """The picks (indices into ``tiles``) whose tile has the least :func:`_connectivity`."""
    keys = [_connectivity(held, tiles[i]) for i in picks]
    low = min(keys)
    return [i for k, i in zip(keys, picks, strict=True) if k == low]


_BITS: dict[tuple[tuple[str, bool], ...], int] = {}


def _bits(flags: Mapping[str, bool]) -> int:
    """``form_flags(**flags)``, cached (a handful of distinct form sets exist)."""
    key = tuple(flags.items())
    bits = _BITS.get(key)
    if bits is None:
        bits = _BITS[key] = form_flags(**flags)
    return bits


def _obvious(legal: Sequence[Action]) -> Action | None:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    for a in legal:  # (a kind scan: ``HU in legal`` calls Action.__eq__ on every other action)
        if a.kind == "hu":
            return a
    return None


def _choice(variant: Variant | None, view: dict[str, Any], legal: Sequence[Action]) -> Action:
    picked = variant.bot_choice(view, legal) if variant is not None else None
    return picked if picked is not None else _neutral_choice(legal)


def _variant_of(name: str) -> Variant | None:
    from ..variants import get_variant

    try:
        return get_variant(name)
    except ValueError:
        return None


def _neutral_choice(legal: Sequence[Action]) -> Action:
    return next((a for a in legal if a.kind == "choose" and a.value == 0), legal[0])


def _connectivity(counts: Sequence[int], t: int) -> int:
    """How much a tile helps its neighbours (lower = discard first); terminals count less."""
    score = 3 * (int(counts[t]) - 1)
    if t >= 27:
        return score
    for u, w in _NEIGHBOURS[t]:
        score += w * int(counts[u])
    return 2 * score + (0 if t % 9 in (0, 8) else 1)


_NEIGHBOURS = tuple(
    tuple((t + d, w) for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)) if 0 <= t % 9 + d <= 8)
    for t in range(27)
)
"""For a suited kind: (same-suit kind within two ranks, weight 2 if adjacent else 1)."""


@cache
def _flags_of(variant_name: str) -> dict[str, bool]:
    from ..variants import get_variant

    try:
        variant = get_variant(variant_name)
    except ValueError:
        return {}
    return variant.shape_flags(variant.parse_options(None))
