# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""ExpertBot: a rule-aware bot for every variant from one shared core and small per-variant data.

It reads only what its seat may know (the public facts of :func:`Info.from_game` are exactly
those :meth:`~mjcore.engine.game.Game.view` shows) and decides by four estimates:

* **tile efficiency**: shanten after each discard, then the number of tiles *still unseen from
  its seat* that lower it (ukeire), so a wait on dead tiles is worth nothing;
* **hand value**: a ready hand's waits are scored by the variant's own calculator
  (``Variant.score``), each wait weighted by its unseen copies — 七对, 卡心五, 大吊车, 花 tiers
  and every other pattern count as the rules pay them; a one-suit hand is steered towards
  清一色 (every variant pays it);
* **defense**: seats that show danger (a declaration, a win in 血战, shown waits, three or more
  melds, melds of one suit) make risky discards cost in proportion to how far its own hand is
  from ready;
* **per-hand choices and declarations** by expected value: a bet (飘/跑/增) grows with the
  dealt hand's strength, a declaration is made when its wait is alive (see :data:`_DECLARE`).

Same decisions from :meth:`act` (a view) and :meth:`act_fast` (the engine's public state),
deterministic for a seed (ties: the seed's stream).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import tiles as T
from .._core import (
    expert_discards,
    expert_ukeire,
    expert_waits,
    shanten_bits,
    unseen_counts,
    waits_mask_bits,
)
from ..engine.actions import PASS, Action
from ..engine.melds import Meld
from ..engine.variant import Variant
from ..engine.view import public_phase
from ..scoring import WinContext
from ..tiles import N_KINDS  # (a module global: read once per use, not as T's attribute)
from .base import BaseBot
from .hand import Hand, core_hand, niu_helps, rules_of_view

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.rules import Rules

_CLAIM_PHASES = ("claim", "rob")
_STEP = 100.0
"""Score of one shanten step; ukeire, value, danger and flush terms are weighed against it."""
_NEG_STEP = -_STEP  # (the score of each step of shanten: made once, not per discard)
_DEFENSE = (6.0, 20.0, 60.0, 130.0)
"""Weight of danger by own shanten after the best discard (0, 1, 2, 3+): far from ready, fold."""
_DEFAULT_TUNING = {
    "won": 1.0,
    "defense": 1.0,
    "peng_no_worse": 0.0,
    "gang_always": 0.0,
    # 清一色 steering: a bonus for off-suit discards, 0.33 of a shanten step at 11+ tiles of
    # one suit (0.09 at 9+). At 1.0 it would break shanten for the flush: measured worse in
    # every variant (2,000 duplicate deals each against greedy), so it only breaks ties.
    "flush": 0.3,
}
"""The shared core's weights; a variant changes some of them (``Variant.bot_tuning``)."""


_TUNINGS: dict[type, dict[str, float]] = {}


def _tuning(variant: Variant) -> dict[str, float]:
    """The variant's weights: :data:`_DEFAULT_TUNING` completed by its ``bot_tuning`` (built
    once per variant class and shared: never written to)."""
    out = _TUNINGS.get(type(variant))
    if out is None:
        out = _TUNINGS[type(variant)] = {**_DEFAULT_TUNING, **variant.bot_tuning}
    return out


_SHOWS: dict[type, bool] = {}


def _shows_seats(variant: Variant) -> bool:
    """The variant's public state shows a declared seat's waits or hand (荣成 亮听, 明搂): read
    once per variant class."""
    cls = type(variant)
    shows = _SHOWS.get(cls)
    if shows is None:
        shows = _SHOWS[cls] = (
            cls.shown_waits is not Variant.shown_waits or cls.shown_hand is not Variant.shown_hand
        )
    return shows


_DECLARE = {"minglou": 5, "kouting": 3, "liangting": 99, "baoting": 1}
"""Least unseen copies of the waits for each declaration (荣成 明搂 doubles, 青岛 扣听 doubles
but locks; 亮听 shows the waits and is never better than 报听 for this bot)."""


class ExpertBot(BaseBot):
    """Tile efficiency over unseen tiles, the variant's own hand values, defense, EV choices."""

    name = "expert"

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        self._values: dict[tuple[Any, ...], int] = {}  # ready-hand points, per hand and wait

    # ---- entry points ---------------------------------------------------------------------
    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return _decide(self, Info.from_view(view), legal)

    def act_fast(self, game: Game, seat: int, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return _decide(self, _game_info(Info, game, seat), legal)

    # ---- decisions --------------------------------------------------------------------------
    def decide(self, info: Info, legal: Sequence[Action]) -> Action:
        return _decide(self, info, legal)

    def _turn(self, info: Info, legal: Sequence[Action]) -> Action:
        return _turn(self, info, legal)

    def score_discards(self, info: Info, tiles: list[int]) -> list[tuple[int, float]]:
        """(shanten, score) of each discard: -STEP a shanten step, + ukeire or ready value,
        + a 清一色 bonus for off-suit tiles, - weighted danger (:func:`_scores`)."""
        return _scores(self, info, tiles)

    def _ready_value(self, info: Info, t: int, mask: int) -> float:
        """Σ over waits (``mask``, after discarding ``t``) of unseen copies × the variant's
        points for that win (capped)."""
        total = 0.0
        unseen = info.unseen
        base = None
        while mask:  # each wait, lowest kind first
            low = mask & -mask
            mask ^= low
            w = low.bit_length() - 1
            if unseen[w]:
                if base is None:
                    base = _after_discard(info.hand, t)
                total += unseen[w] * min(self._points(info, base, w), 64)
        return 4.0 * total

    def _points(self, info: Info, base: tuple[bytearray, int], w: int) -> int:
        """Points of winning on ``w`` with ``base`` (:func:`_after_discard`: the hand after a
        discard, wildcards split out) — the variant's calculator, cached per hand and wait."""
        buf, jokers = base
        buf[w] += 1
        concealed = bytes(buf)
        buf[w] -= 1
        key = (info.rules, concealed, w, jokers, info.melds_key, info.flowers)
        cached = self._values.get(key)
        if cached is not None:
            return cached
        ctx = WinContext(
            concealed=np.frombuffer(concealed, dtype=np.uint8).copy(),
            win_tile=w,
            how=info.how,
            melds=info.melds,
            jokers=jokers,
            joker_kind=info.hand.joker_kind,
            flowers=info.flowers,
        )
        try:
            bd = info.variant.score(ctx, info.opts)
            points = max(int(bd.points), 1) if bd is not None else 1
        except Exception:  # a hypothetical the calculator refuses (e.g. too many of a kind)
            points = 1
        if len(self._values) > 4096:
            self._values.clear()
        self._values[key] = points
        return points

    def _declaration(
        self,
        info: Info,
        declares: list[Action],
        discards: list[Action],
        scored: list[tuple[int, float]],
    ) -> Action | None:
        """The declaration whose threshold the best ready discard's live waits reach (the
        most valuable first), else None (play on undeclared)."""
        ready = [i for i, (sh, _) in enumerate(scored) if sh <= 0]
        if not ready:
            return None
        i = max(ready, key=lambda j: scored[j][1])
        live = _live(info, discards[i].tile)
        known = [a for a in declares if a.name in _DECLARE]
        if not known:  # a declaration this bot has no rule for: greedy's (declare when ready)
            return declares[0]
        for a in sorted(known, key=lambda a: -_DECLARE[a.name] if a.name != "liangting" else 0):
            if a.name != "liangting" and live >= _DECLARE[a.name]:
                return a
        late = info.wall_live < 4 * info.n  # the wall is nearly gone: declare any live wait
        return next((a for a in known if a.name == "baoting"), None) if late and live else None

    def _claim(self, info: Info, legal: Sequence[Action]) -> Action:
        """gang when no worse; peng/chi only when they lower shanten (a 清一色 suit's tile or a
        pair-rich hand: when no worse); nothing but a win while defending far from ready."""
        hand = info.hand
        now = hand.shanten_without({})
        pick = self._claim_pick(info, legal, now)
        if pick is None:
            return PASS if PASS in legal else legal[0]
        if pick.kind == "gang" and info.tuning["gang_always"]:
            return pick
        if now >= 2 and info.threat >= 1.0:  # (the danger is only read when a claim is wanted)
            return PASS if PASS in legal else legal[0]
        return pick

    @staticmethod
    def _claim_pick(info: Info, legal: Sequence[Action], now: int) -> Action | None:
        hand, tile = info.hand, info.claim_tile
        for a in legal:
            if a.kind == "gang" and hand.shanten_without({tile: 3}) <= now:
                return a
        flush, _ = _flush_suit(info)
        c = hand.counts  # (counts 0..4: the pairs, triplets and quads held)
        pairs = c.count(2) + c.count(3) + c.count(4)
        easy = (flush >= 0 and tile < 27 and tile // 9 == flush) or pairs >= 4
        easy = easy or bool(info.tuning["peng_no_worse"])
        for a in legal:
            if a.kind == "peng":
                after = hand.best_after_discard({tile: 2})
                if after < now or (easy and after <= now):
                    return a
        if flush < 0 or (tile < 27 and tile // 9 == flush):
            for a in legal:
                if a.kind == "chi":
                    removed = {t: 1 for t in a.tiles if t != tile}
                    if hand.best_after_discard(removed) < now:
                        return a
        return None


# ---- public information -------------------------------------------------------------------------
class Info:
    """What the seat knows, read either from a view or from the engine's public state."""

    __slots__ = (
        "rules",
        "variant",
        "opts",
        "seat",
        "n",
        "phase",
        "hand",
        "_unseen",
        "hand",
        "claim_tile",
        "melds",
        "_melds_key",
        "flowers",
        "how",
        "wall_live",
        "_threats",
        "_threat",
        "_game",
        "held",
        "tuning",
    )

    hand: Hand  # the seat's concealed hand (set by the constructors below)

    def __init__(self, rules: Rules, seat: int, phase: str) -> None:
        self.rules, self.variant, self.opts = rules, rules.variant, rules.opts
        self.seat, self.n, self.phase = seat, rules.players, phase
        self.claim_tile = -1
        self.melds: tuple[Meld, ...] = ()
        self._melds_key: tuple[tuple[str, tuple[int, ...]], ...] | None = None
        self.flowers: tuple[int, ...] = ()
        self._threats: list[tuple[float, int, int, int]] = []
        self._threat = 0.0
        self.wall_live = 99
        self._unseen: list[int] | None = None  # (with the threats: computed on first use)
        self._game: Game | None = None  # read on first use (no reference cycle)
        self.how = "discard"
        self.held: tuple[int, ...] = ()  # own flowers still in hand (飘花)
        self.tuning = _tuning(self.variant)

    @classmethod
    def from_game(cls, game: Game, seat: int) -> Info:
        """The seat's knowledge from the engine: its own hand and the public facts only."""
        return _game_info(cls, game, seat)

    def _load(self) -> None:
        """Read the engine's public facts (an info from :meth:`from_game`, on first use; one
        from :meth:`from_view` has them from the start)."""
        game = self._game
        assert game is not None
        self._load_game(game)

    def _load_game(self, game: Game) -> None:
        """Unseen counts and danger from the engine's public state (on first use)."""
        variant, seat = game.variant, self.seat
        hidden_angang = not variant.angang_public
        public = variant.public_state(game) if _shows_seats(variant) else {}
        groups: list[Sequence[int]] = [game.set_aside, game.indicators, game.horses]
        rows = []
        for s, other in enumerate(game.seats):
            melds = [
                m.tiles
                for m in other.melds
                if not (hidden_angang and m.kind == "angang" and s != seat)
            ]
            groups += melds
            groups.append(other.discards)
            groups.append(other.won_tiles)
            if s != seat:
                row = (s, melds, other.discards, other.declared, bool(other.won_tiles))
                rows.append((*row, len(other.melds)))
        unseen = unseen_counts(_totals(game.rules), game.seats[seat].hand, groups)
        self._finish(unseen, rows, public)

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Info:
        """The same knowledge from a seat's view, under the rules it carries."""
        rules = rules_of_view(view)
        variant = rules.variant
        seat = view["seat"]
        seats = view["seats"]
        info = cls(rules, seat, view["phase"])
        info.n = len(seats)
        counts = bytearray(T.counts(seats[seat].get("hand", "")).astype(np.uint8))
        public = view.get("public") or {}
        jk = -1
        if variant.jokers_are_joker_kind and isinstance(public.get("joker_kind"), str):
            jk = T.kind(public["joker_kind"])
        info.hand = Hand(counts, rules.shape_bits, joker_kind=jk)
        claim = view.get("claim") or {}
        if claim and info.phase in _CLAIM_PHASES:
            info.claim_tile = T.kind(claim["tile"])
        info.wall_live = view.get("wall_live", 99)
        info.held = tuple(T.parse(seats[seat].get("held_flowers") or ""))
        groups: list[Sequence[int]] = []
        rows = []
        for s, row in enumerate(seats):
            melds = []
            for text in row["melds"]:
                if "?" in text:
                    continue
                melds.append(Meld.parse(text).tiles if not text.startswith("niu") else _niu(text))
            if s == seat:
                info.melds = tuple(
                    Meld.parse(m) if not m.startswith("niu") else Meld("niu", _niu(m))
                    for m in row["melds"]
                )
                info.flowers = tuple(T.parse(row.get("flowers", ""))) if row.get("flowers") else ()
            discards = [T.kind(t) for t in row["discards"]]
            won = [T.kind(t) for t in row["won_tiles"]]
            groups += melds
            groups += (discards, won)
            if s != seat:
                rows.append((s, melds, discards, row["declared"], bool(won), len(row["melds"])))
        for key in ("set_aside", "indicators", "horses"):
            groups.append([T.kind(text) for text in view.get(key, ())])
        info._finish(unseen_counts(_totals(rules), counts, groups), rows, public)
        return info

    def _finish(self, unseen: list[int], rows: list[Any], public: Any) -> None:
        """Keep the unseen counts; how a win would come, each other seat's danger."""
        self._unseen = unseen
        opts = self.opts
        if getattr(opts, "self_draw_only", False) or (
            getattr(opts, "niupai", False) and _has_niu(self.melds)
        ):
            self.how = "self_draw"
        ting = public.get("ting") if isinstance(public, dict) else None
        for s, melds, discards, declared, won, n_melds in rows:
            shown = ting[s] if isinstance(ting, list) and s < len(ting) else None
            self._threats.append(_threat(melds, discards, declared, won, n_melds, shown, self))
        total = sum([row[0] for row in self._threats])  # (sum(): compensated from 3.12 on)
        self._threat = min(total, 2.0) * self.tuning["defense"]
        self._game = None

    @property
    def melds_key(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The own melds as sorted (kind, kinds) pairs (a key of the hand values' cache; on
        first use): what a meld's text says, without formatting it."""
        if self._melds_key is None:
            self._melds_key = tuple(sorted([(m.kind, tuple(m.tiles)) for m in self.melds]))
        return self._melds_key

    @property
    def unseen(self) -> list[int]:
        """Copies of each kind the seat has not seen (not in its hand nor face up)."""
        if self._unseen is None:
            self._load()
        return self._unseen  # type: ignore[return-value]

    @property
    def threats(self) -> list[tuple[float, int, int, int]]:
        """Per other seat: (danger level, known waits or -1, one-suit display or -1, the kinds
        of its river as a bitmask)."""
        if self._unseen is None:
            self._load()
        return self._threats

    @property
    def threat(self) -> float:
        """The summed danger level of the other seats (at most 2), scaled per variant."""
        if self._unseen is None:
            self._load()
        return self._threat

    def danger(self, t: int) -> float:
        """How likely discarding ``t`` feeds a dangerous seat (0 = safe), summed over seats."""
        if self._unseen is None:  # (the fields the properties read: a C read when compiled)
            self._load()
        threats = self._threats
        unseen = self._unseen[t]  # type: ignore[index]  # (set by _load)
        if t >= 27:
            base = 0.1 if unseen <= 1 else 0.3
        else:
            r = t % 9
            base = 0.5 if r in (0, 8) else 0.8 if r in (1, 7) else 1.0
        total = 0.0
        for level, waits, flush, discards in threats:
            if level <= 0:
                continue
            if waits >= 0:
                total += level * (1.5 if waits >> t & 1 else 0.0)
                continue
            d = base
            if flush >= 0 and t < 27:
                d *= 1.6 if t // 9 == flush else 0.2
            if unseen == 0:
                d *= 0.5
            if discards >> t & 1:  # (t < 34: unseen[t] above)
                d *= 0.25
            total += level * d
        return total


def _game_info(cls: type[Info], game: Game, seat: int) -> Info:
    """:meth:`Info.from_game` (a module function: typed when compiled)."""
    variant = game.variant
    info = cls(game.rules, seat, public_phase(game, seat))
    st = game.seats[seat]
    jk = game.extra.get("joker_kind", -1) if variant.jokers_are_joker_kind else -1
    info.hand = core_hand(st.hand, game.shape_bits, jk)
    if info.phase in _CLAIM_PHASES:
        info.claim_tile = game.claim[1]
    info.melds = tuple(st.melds)
    info.flowers = tuple(st.flowers)
    info.held = st.held_flowers
    info.wall_live = game.wall.live
    info._game = game  # the public facts are read on first use (_load_game)
    return info


def _has_niu(melds: tuple[Meld, ...]) -> bool:
    """Whether a 扭 group (青岛) is among the melds."""
    for m in melds:
        if m.kind == "niu":
            return True
    return False


def _threat(
    melds: list[tuple[int, ...]],
    discards: Sequence[int],
    declared: str,
    won: bool,
    n_melds: int,
    shown: Any,
    info: Info,
) -> tuple[float, int, int, int]:
    """(level 0..1, known waits mask or -1, suit of a one-suit display or -1, its discards as
    a kinds mask)."""
    level = 1.0 if declared else info.tuning["won"] if won else _MELD_LEVEL[min(n_melds, 3)]
    if n_melds and info.wall_live < 12:
        level = min(level + 0.2, 1.0)
    flush = -1
    if len(melds) >= 2:  # a one-suit display: every meld's tiles of one suit (not honors)
        suit = -1
        for ts in melds:
            for t in ts:
                if t >= 27 or (suit >= 0 and t // 9 != suit):
                    suit = 3
                    break
                suit = t // 9
            if suit == 3:
                break
        if 0 <= suit < 3:
            flush = suit
            level = max(level, 0.6)
    waits = -1
    if isinstance(shown, dict):
        if isinstance(shown.get("waits"), str):
            waits = _shown_waits(shown["waits"])
        elif isinstance(shown.get("hand"), str):
            waits = _shown_hand_waits(shown["hand"], info.hand.bits)
    river, bit, kinds = 0, 1, N_KINDS  # the river's kinds as a mask (flowers left out)
    for t in discards:
        if t < kinds:
            river |= bit << t
    return level, waits, flush, river


# (a display's text is read at every decision while it stays up: parsed once per text)
@lru_cache(maxsize=4096)
def _shown_waits(text: str) -> int:
    """The waits mask a 亮听 display shows (its text)."""
    return T.kinds_mask(T.parse(text)) if text else 0


@lru_cache(maxsize=4096)
def _shown_hand_waits(text: str, bits: int) -> int:
    """The waits mask of a hand shown face up (明搂), -1 unless it holds 3m+1 tiles."""
    c = T.counts(text).astype(np.uint8)
    return int(waits_mask_bits(c, 0, bits)) if int(c.sum()) % 3 == 1 else -1


_MELD_LEVEL = (0.0, 0.0, 0.3, 0.6)
"""Danger level of a seat with 0, 1, 2, 3+ melds shown (and no declaration)."""


def _niu(text: str) -> tuple[int, ...]:
    return tuple(T.parse(text.split()[1]))


@lru_cache(maxsize=64)  # (Rules hash by identity: one per Rules, shared)
def _totals(rules: Rules) -> bytes:
    """Copies of each of the 34 kinds in the tile set under these rules (a byte a kind)."""
    return bytes(rules.copies[:N_KINDS])


def _held(counts: Any) -> list[int]:
    return counts.tolist() if isinstance(counts, np.ndarray) else list(counts)


def _decide(bot: ExpertBot, info: Info, legal: Sequence[Action]) -> Action:
    """ExpertBot.decide (a module function: typed when compiled): a per-hand choice, a win,
    a claim, the turn."""
    if not legal:
        raise ValueError("no legal action to choose from")
    phase = info.phase
    if phase == "choose":
        return _choose(info, legal)
    for a in legal:
        if a.kind == "hu":
            return a
    if phase in _CLAIM_PHASES:
        return bot._claim(info, legal)
    if phase != "turn":
        return PASS if PASS in legal else legal[0]
    return _turn(bot, info, legal)


def _turn(bot: ExpertBot, info: Info, legal: Sequence[Action]) -> Action:
    """The turn's action: a flower held, a gang or 扭 when no worse, a declaration, else the
    best-scored discard (ties: the seed's stream). A module function: typed when compiled."""
    discards = []
    tiles = []
    groups = []  # gangs and 扭 groups, in the order of legal
    declares = []
    for a in legal:  # one pass over the actions
        kind = a.kind
        if kind == "discard":
            discards.append(a)
            tiles.append(a.tile)
        elif kind == "gang" or kind == "niu":
            groups.append(a)
        elif kind == "declare":
            declares.append(a)
    if not discards:
        return PASS if PASS in legal else legal[0]
    hand = info.hand
    counts = hand.counts
    for i, t in enumerate(tiles):  # a held flower (飘花) goes first, as greedy plays it
        if t >= N_KINDS or not counts[t]:
            return discards[i]
    scored = _scores(bot, info, tiles)
    best_sh, top = _least_and_top(scored)
    for a in groups:  # gangs and 扭 groups when no worse (greedy's rule), unless defending
        if a.kind == "gang":
            if info.threat < 1.0 or info.tuning["gang_always"]:
                take = 4 if counts[a.tile] == 4 else 1
                if hand.shanten_without({a.tile: take}) <= best_sh:
                    return a
        elif niu_helps(hand, a, best_sh):
            return a
    if declares and best_sh <= 0:
        pick = bot._declaration(info, declares, discards, scored)
        if pick is not None:
            return pick
    ties = [i for i, (_, v) in enumerate(scored) if v == top]
    return discards[ties[0] if len(ties) == 1 else ties[bot.integers(len(ties))]]


def _scores(bot: ExpertBot, info: Info, tiles: list[int]) -> list[tuple[int, float]]:
    """:meth:`ExpertBot.score_discards` (a module function: typed when compiled)."""
    hand = info.hand
    shantens, conns = expert_discards(hand.counts, hand.joker_kind, hand.bits, tiles)
    best = min(shantens)
    flush, strength = _flush_suit(info)
    weight = _DEFENSE[min(max(best, 0), 3)] * info.threat
    contenders = shantens.count(best)
    gains = _gains(bot, info, tiles, shantens, best, contenders, flush)
    out = []
    for i in range(len(tiles)):  # (by index: no zip object and no tuple per discard)
        t, sh, conn = tiles[i], shantens[i], conns[i]
        off = flush >= 0 and (t >= 27 or t // 9 != flush)
        score = _NEG_STEP * sh + gains[t] + (strength if off else 0.0)
        if weight:
            score -= weight * info.danger(t)
        score -= 0.01 * conn  # last tie-break: keep connected tiles
        out.append((sh, score))
    return out


def _gains(
    bot: ExpertBot,
    info: Info,
    tiles: list[int],
    shantens: list[int],
    best: int,
    contenders: int,
    flush: int,
) -> list[float]:
    """Per discard kind worth a second look (0.0 for the others): a ready one's value (when
    several are ready), else its ukeire (the best ones when several tie or a flush is steered,
    and an off-suit one a step behind). Both asked of the core in one call each."""
    ready: list[int] = []
    ask: list[int] = []
    for i in range(len(tiles)):
        t, sh = tiles[i], shantens[i]
        if sh == 0 and contenders > 1:
            ready.append(t)
        elif sh > 0 and (
            (sh == best and (contenders > 1 or flush >= 0))
            or (flush >= 0 and (t >= 27 or t // 9 != flush) and sh == best + 1)
        ):
            ask.append(t)
    gains = [0.0] * N_KINDS  # (the discards are kinds: a held flower goes before scoring)
    hand = info.hand
    if ask and best > 0:  # (best 0: no kind is tried, the ukeire is 0)
        got = expert_ukeire(hand.counts, hand.joker_kind, hand.bits, info.unseen, ask)
        for i in range(len(ask)):
            gains[ask[i]] = float(got[i])
    if ready:
        masks, lives = expert_waits(hand.counts, hand.joker_kind, hand.bits, info.unseen, ready)
        valued = _valued(ready, lives) if best == 0 else ()
        for t, mask, live in zip(ready, masks, lives, strict=True):
            gains[t] = bot._ready_value(info, t, mask) if t in valued else 4.0 * live
    return gains


def _least_and_top(scored: list[tuple[int, float]]) -> tuple[int, float]:
    """(least shanten, best score) of scored discards (as min() and max() find them)."""
    least, top = scored[0]
    for sh, v in scored:
        if sh < least:
            least = sh
        if v > top:
            top = v
    return least, top


def _after_discard(hand: Hand, t: int) -> tuple[bytearray, int]:
    """(concealed counts less one ``t`` with every copy of the joker kind taken out, the
    number taken out): the hand a win after discarding ``t`` is scored from."""
    buf = bytearray(hand.counts)
    buf[t] -= 1
    jokers = 0
    jk = hand.joker_kind
    if jk >= 0 and buf[jk]:
        jokers, buf[jk] = buf[jk], 0
    return buf, jokers


def _valued(ready: list[int], lives: list[int]) -> tuple[int, ...]:
    """The ready discards worth scoring by the calculator: the three with most live waits
    (each calculator call costs about as much as the rest of a decision; ties: in order)."""
    order = sorted(range(len(ready)), key=lambda i: -lives[i])
    return tuple(ready[i] for i in order[:3])


def _live(info: Info, t: int) -> int:
    """Unseen copies of the waits left after discarding ``t`` from a ready hand."""
    hand = info.hand
    return expert_waits(hand.counts, hand.joker_kind, hand.bits, info.unseen, [t])[1][0]


# ---- the shared estimates ------------------------------------------------------------------------
def _flush_suit(info: Info) -> tuple[int, float]:
    """(suit, bonus for an off-suit discard) when the hand leans to 清一色, else (-1, 0)."""
    c = info.hand.counts
    per = [0, 0, 0, 0]  # tiles of suits m, p, s and of the honors, melds included
    for t in range(27):
        per[t // 9] += c[t]
    for t in range(27, 34):
        per[3] += c[t]
    for m in info.melds:
        for t in m.tiles[:3]:
            per[t // 9 if t < 27 else 3] += 1
    total = per[0] + per[1] + per[2] + per[3]
    suit = 0  # the first of the most held
    if per[1] > per[suit]:
        suit = 1
    if per[2] > per[suit]:
        suit = 2
    other = total - per[suit]
    if other == 0:
        return -1, 0.0
    for m in info.melds:
        if m.tiles[0] >= 27 or m.tiles[0] // 9 != suit:
            return -1, 0.0
    scale = info.tuning["flush"]
    if per[suit] >= 11 and other <= 3 and scale:
        return suit, 1.1 * _STEP * scale
    if per[suit] >= 9 and other <= 5 and scale:
        return suit, 0.3 * _STEP * scale
    return -1, 0.0


# ---- per-hand choices ----------------------------------------------------------------------------
def _choose(info: Info, legal: Sequence[Action]) -> Action:
    """A bet grows with the dealt hand's strength (shanten ≤ 2: the largest, 3: the middle,
    else none); 长跑 (a lock for the whole Match) is never chosen; other choices: the
    variant's documented bot rule (宿松 飘花), else the value 0."""
    choices = [a for a in legal if a.kind == "choose"]
    bets = [a for a in choices if a.name in info.variant.bet_choices]
    if not bets:
        picked = info.variant.bot_choice(_choice_view(info), legal)
        if picked is not None:
            return picked
        return next((a for a in choices if a.value == 0), legal[0])
    name = bets[0].name
    values = sorted(a.value for a in bets if a.name == name)
    held = sum(int(n) for n in _held(info.hand.counts))
    if held < info.variant.hand_size:  # chosen before the deal (荔浦 坐马): no edge known
        value = values[0]
    else:
        sh = shanten_bits(bytearray(_held(info.hand.counts)), 0, info.hand.bits)
        value = values[-1] if sh <= 2 else values[len(values) // 2] if sh == 3 else values[0]
    return next(a for a in bets if a.name == name and a.value == value)


def _choice_view(info: Info) -> dict[str, Any]:
    """The little of a view Variant.bot_choice reads (own seat and its held flowers)."""
    seats: list[dict[str, Any]] = [{} for _ in range(info.n)]
    seats[info.seat] = {
        "hand": T.format(_held(info.hand.counts)),
        "held_flowers": T.format(info.held),
    }
    return {"seat": info.seat, "seats": seats, "variant": info.variant.name}
