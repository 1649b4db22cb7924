# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""GreedyBot: discard to minimise shanten, take every win, claim when it does not hurt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import tiles as T
from ..engine.actions import PASS, Action
from ..engine.variant import Variant
from .base import BaseBot
from .hand import (
    Hand,
    hand_of,
    neutral_choice,
    niu_helps,
    obvious,
    rule_choice,
    rules_of_view,
    view_hand,
)

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
    replayable = True  # (no state besides the random stream: BaseBot.replayable)

    # ---- the two entry points -------------------------------------------------
    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        quick = obvious(legal)
        if quick is not None:
            return quick
        seat = view["seat"]
        # the view's variant under its options (a bare view without one: plain shapes)
        rules = rules_of_view(view) if view.get("variant") else None
        if view["phase"] == "choose":
            return rule_choice(rules.variant, view, legal) if rules else neutral_choice(legal)
        if view["seats"][seat].get("held_flowers") and view["phase"] in _CLAIM_PHASES:
            return PASS  # a flower still to shed (飘花): no claim
        claim = view.get("claim") or {}
        claim_tile = T.kind(claim["tile"]) if claim else -1
        hand = view_hand(view, rules)
        return self._decide(hand, view["phase"], claim_tile, legal)

    def act_fast(self, game: Game, seat: int, legal: Sequence[Action]) -> Action:
        return _act_fast(self, game, seat, legal)

    # ---- decisions -------------------------------------------------------------
    def _decide(self, hand: Hand, phase: str, claim_tile: int, legal: Sequence[Action]) -> Action:
        if phase == "choose":
            return neutral_choice(legal)
        if phase in _CLAIM_PHASES:
            return self._claim(hand, claim_tile, legal)
        return self._turn(hand, legal)

    def _turn(self, hand: Hand, legal: Sequence[Action]) -> Action:
        return _turn(self, hand, legal)

    def _claim(self, hand: Hand, tile: int, legal: Sequence[Action]) -> Action:
        """gang > peng > chi (each in the order of legal) when no worse than passing."""
        return _claim(hand, tile, legal)


def _act_fast(bot: GreedyBot, game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """GreedyBot.act_fast (a module function: typed when compiled, greedy.pxd)."""
    phase = game.phase
    if len(legal) > 1 and phase not in ("choose", "claim", "rob"):
        return _turn(bot, hand_of(game, seat), legal)  # (_turn takes a win first, as obvious)
    quick = obvious(legal)
    if quick is not None:
        return quick
    if phase == "choose":
        variant = game.variant
        if type(variant).bot_choice is Variant.bot_choice:  # no rule of its own: no view
            return neutral_choice(legal)
        return rule_choice(variant, game.view(seat), legal)
    if game.seats[seat].held_flowers and phase in ("claim", "rob"):
        return PASS  # a flower still to shed (飘花): no claim
    cls = type(bot)
    if (
        phase in _CLAIM_PHASES
        and cls._decide is GreedyBot._decide
        and cls._claim is GreedyBot._claim
    ):
        return _claim(hand_of(game, seat), game.claim[1], legal)  # (no subclass's own: in C)
    return bot._decide(hand_of(game, seat), phase, game.claim[1], legal)


def _turn(bot: BaseBot, hand: Hand, legal: Sequence[Action]) -> Action:
    """GreedyBot._turn (a module function: typed when compiled, greedy.pxd)."""
    tiles: list[int] = [0] * len(legal)  # the discards' kinds, in the order of legal
    n = 0  # (filled in place, then cut: no list growing one append at a time)
    first = -1  # where the discards start in legal, while they follow one another (else -1)
    others = False
    for i, a in enumerate(legal):  # one pass: a win, the discards, whether others are offered
        kind = a.kind
        if kind == "discard":
            if not n:
                first = i
            elif first >= 0 and i != first + n:
                first = -1
            tiles[n] = a.tile
            n += 1
        elif kind == "hu":
            return a
        else:
            others = True
    if not n:
        return PASS if PASS in legal else legal[0]
    if n < len(tiles):
        del tiles[n:]
    best, picks = hand.discard_picks(tiles)
    if best is None:  # a held flower (not in the concealed counts) goes first
        return _nth_discard(legal, first, picks[0])
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
            if niu_helps(hand, a, best):
                return a
        if best <= 0 and "declare" in by_kind:
            return by_kind["declare"][0]
    if best == 0 and len(picks) > 1:
        picks = hand.ready_picks(tiles, picks)
    if len(picks) == 1:
        return _nth_discard(legal, first, picks[0])
    return _nth_discard(legal, first, picks[bot.integers(len(picks))])


def _nth_discard(legal: Sequence[Action], first: int, i: int) -> Action:
    """The discard at index ``i`` of the discards in ``legal``: ``legal[first + i]`` when they
    follow one another from ``first`` (else -1: counted)."""
    if first >= 0:
        return legal[first + i]
    for a in legal:
        if a.kind == "discard":
            if i == 0:
                return a
            i -= 1
    raise IndexError(f"no discard at index {i} of the legal actions")


def _claim(hand: Hand, tile: int, legal: Sequence[Action]) -> Action:
    """GreedyBot._claim (typed when compiled, greedy.pxd): gang > peng > chi (each in the order
    of legal) when no worse than passing; every gang (peng) on the discard asks the same
    question, so the first one answers for all."""
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
