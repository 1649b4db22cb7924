"""GreedyBot: discard to minimise shanten, take every win, claim when it does not hurt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import tiles as T
from .._core import discard_shanten, form_flags, shanten_bits, waits_mask_bits
from ..engine.actions import PASS, Action
from ..engine.variant import Variant
from .base import BaseBot

if TYPE_CHECKING:
    from ..engine.game import Game

_CLAIM_PHASES = ("claim", "rob")


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
        quick = _obvious(legal)
        if quick is not None:
            return quick
        variant = game.variant
        if game.phase == "choose":
            return _choice(variant, game.view(seat), legal)
        if game.seats[seat].held_flowers and game.phase in _CLAIM_PHASES:
            return PASS  # a flower still to shed (飘花): no claim
        counts = game.seats[seat].counts.copy()
        flags = game.shape_flags
        # Without a wildcard in the whole hand none of its parts has one (混, a drawn 宝).
        if type(variant).jokers is Variant.jokers or not variant.jokers(game, seat, counts)[1]:
            hand = _Hand(counts, flags)
        elif variant.jokers_are_joker_kind:  # the same split, asked of the core directly
            hand = _Hand(counts, flags, joker_kind=game.extra["joker_kind"])
        else:
            hand = _Hand(counts, flags, split=lambda c: variant.jokers(game, seat, c))
        hand.public = lambda: variant.public_state(game)
        return self._decide(hand, game.phase, game.claim[1], legal)

    # ---- decisions -------------------------------------------------------------
    def _decide(self, hand: _Hand, phase: str, claim_tile: int, legal: Sequence[Action]) -> Action:
        if phase == "choose":
            return _neutral_choice(legal)
        if phase in _CLAIM_PHASES:
            return self._claim(hand, claim_tile, legal)
        for a in legal:  # (a loop, not any(): no generator per decision)
            if a.kind == "discard":
                return self._turn(hand, legal)
        return PASS if PASS in legal else legal[0]

    def _turn(self, hand: _Hand, legal: Sequence[Action]) -> Action:
        discards: list[Action] = []
        by_kind: dict[str, list[Action]] = {}  # the other kinds, each in the order of legal
        for a in legal:
            if a.kind == "discard":
                discards.append(a)
            else:
                by_kind.setdefault(a.kind, []).append(a)
        held = hand.counts.tolist()  # plain ints: cheaper reads than numpy scalars
        for a in discards:  # a held flower (not in the concealed counts) goes first
            if a.tile >= T.N_KINDS or not held[a.tile]:
                return a
        shantens = hand.shanten_after_discards([a.tile for a in discards])
        best = min(shantens)
        if by_kind:
            for a in by_kind.get("gang", ()):
                take = 4 if held[a.tile] == 4 else 1
                if hand.shanten_without({a.tile: take}) <= best:
                    return a
            for a in by_kind.get("niu", ()):  # 扭 / 调牌 (青岛): expose a group when no worse
                if self._niu_helps(hand, a, best):
                    return a
            if best <= 0 and "declare" in by_kind:
                return by_kind["declare"][0]
        candidates = [a for s, a in zip(shantens, discards, strict=True) if s == best]
        if best == 0 and len(candidates) > 1:
            candidates = _widest_waits(hand, candidates)
        if len(candidates) > 1:
            keys = [_connectivity(held, a.tile) for a in candidates]
            low = min(keys)
            candidates = [a for k, a in zip(keys, candidates, strict=True) if k == low]
        if len(candidates) == 1:
            return candidates[0]
        return candidates[self.integers(len(candidates))]

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
        now = hand.shanten_without({})
        for kind in ("gang", "peng", "chi"):
            for a in legal:
                if a.kind != kind:
                    continue
                if kind == "gang":
                    after = hand.shanten_without({tile: 3})
                elif kind == "peng":
                    after = hand.best_after_discard({tile: 2})
                else:
                    after = hand.best_after_discard({t: 1 for t in a.tiles if t != tile})
                if after <= now:
                    return a
        return PASS if PASS in legal else legal[0]


def _widest_waits(hand: _Hand, candidates: list[Action]) -> list[Action]:
    """Ready discards leaving the most winning kinds; a turned-up 宝 among them counts
    double (宝中宝, asked of the core as "is the 宝 kind a natural wait")."""
    bao = hand.public().get("bao")
    bao = T.kind(bao) if isinstance(bao, str) and bao != "hidden" else -1
    keys = []
    for a in candidates:
        mask = hand.waits_without({a.tile: 1})
        keys.append(bin(mask).count("1") + (bao >= 0 and mask >> bao & 1))
    top = max(keys)
    return [a for k, a in zip(keys, candidates, strict=True) if k == top]


class _Hand:
    """A concealed hand as counts, with shanten queries on hypothetical removals."""

    __slots__ = ("counts", "flags", "bits", "joker_kind", "split", "public")

    def __init__(
        self, counts: np.ndarray, flags: Mapping[str, bool], joker_kind: int = -1, split: Any = None
    ) -> None:
        self.counts = counts
        self.flags = flags
        self.bits = _bits(flags)  # the same forms as core flag bits
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
        if self.split is None and not removed:
            try:  # the counts read in place (a C-contiguous uint8 array, as the engine's are)
                table = discard_shanten(self.counts, self.joker_kind, self.bits)
            except ValueError:  # another dtype or layout: through the copy below
                pass
            else:
                return [table[t] for t in tiles]
        buf = bytearray(self.counts.astype(np.uint8, copy=False))
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

    def waits_without(self, removed: dict[int, int]) -> int:
        """Bitmask of kinds completing the hand after ``removed`` (wildcards split out)."""
        c = self.counts.copy()
        for t, n in removed.items():
            c[t] -= n
        return int(waits_mask_bits(*self._split(c), self.bits))

    def best_after_discard(self, removed: dict[int, int]) -> int:
        """Least shanten after removing ``removed`` and then discarding one tile."""
        if self.split is None:  # one native call: the least over every kind left in hand
            buf = bytearray(self.counts.astype(np.uint8, copy=False))
            for t, n in removed.items():
                buf[t] -= n
            return min(discard_shanten(buf, self.joker_kind, self.bits))
        c = self.counts.tolist()
        tiles = [t for t, n in enumerate(c) if n > removed.get(t, 0)]
        return min(self.shanten_after_discards(tiles, removed), default=99)


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
