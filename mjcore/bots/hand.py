# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""The bots' shared hand helpers: a concealed hand and its shanten questions, the greedy
connectivity order, the rules a view was dealt under, obvious picks.

Every bot reads its seat's hand through :class:`Hand` (from the engine: :func:`hand_of`; from
a view: the counts and the :class:`~mjcore.engine.rules.Rules` of :func:`rules_of_view`), so
``act(view)`` and ``act_fast(game)`` ask the same questions under the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from .. import tiles as T
from .._core import discard_shanten, form_flags, shanten_bits, waits_mask_bits
from ..engine.actions import Action
from ..engine.rules import Rules
from ..engine.variant import Variant
from ..variants import get_variant

if TYPE_CHECKING:
    from ..engine.game import Game


def rules_of_view(view: Mapping[str, Any]) -> Rules:
    """The Rules a view's game is played under: its variant, its ``options`` (every view
    carries them) and its seat count. A view without options (an older server) means the
    defaults; an unknown variant or option raises InvalidOptionError."""
    options = view.get("options") or {}
    variant = get_variant(view.get("variant", ""))
    # (a partial view, as a test may build, counts as the nearest table size)
    players = min(max(len(view["seats"]), variant.min_players), variant.max_players)
    try:
        return _rules_of(variant, tuple(sorted(options.items())), players)
    except TypeError:  # an unhashable option value: parsed (and rejected) without the cache
        return variant.rules(dict(options), players)


@lru_cache(maxsize=256)
def _rules_of(variant: Variant, options: tuple[tuple[str, Any], ...], players: int) -> Rules:
    return variant.rules(dict(options) or None, players)


def view_hand(view: Mapping[str, Any], rules: Rules | None) -> Hand:
    """The viewer's concealed hand under ``rules`` (None: a bare view naming no variant, the
    plain 4-sets-and-a-pair shape), with the wildcard kind its public facts show (青岛 混)."""
    counts = T.counts(view["seats"][view["seat"]]["hand"])
    public = view.get("public") or {}
    joker_kind = public.get("joker_kind", -1)
    joker_kind = T.kind(joker_kind) if isinstance(joker_kind, str) else -1
    bits = rules.shape_bits if rules is not None else form_flags()
    hand = Hand(counts, bits, joker_kind=joker_kind)
    hand.public = lambda: public
    return hand


def rule_choice(variant: Variant, view: dict[str, Any], legal: Sequence[Action]) -> Action:
    """A per-hand choice by the variant's documented bot rule, else the neutral one."""
    picked = variant.bot_choice(view, legal)
    return picked if picked is not None else neutral_choice(legal)


def hand_of(game: Game, seat: int) -> Hand:
    """The seat's concealed hand for the bot's questions, read from the engine directly."""
    hand = _split_by_core(game, seat)
    if hand is not None:
        return hand
    variant = game.variant
    counts: Any = game.seats[seat].hand
    # Without a wildcard in the whole hand none of its parts has one (a drawn 宝): none
    # while no 宝 is drawn (Variant.jokers_only_drawn), else the variant's split says.
    if game._no_drawn_joker() or not variant.jokers(game, seat, counts)[1]:
        hand = core_hand(counts, game.shape_bits, -1)  # (= Hand(counts, game.shape_bits))
    else:  # the variant's own split of each hypothetical hand (on a copy: it is changed)
        own = game.seats[seat].counts_copy()
        hand = Hand(own, game.shape_bits, split=partial(variant.jokers, game, seat))
    hand.game = game  # the variant's own wildcards may show a 宝 (荣成): read when asked
    return hand


def _split_by_core(game: Game, seat: int) -> Hand | None:
    """The seat's hand when the core splits its wildcards itself: none (Variant.jokers
    itself: no 宝 turned up either) or every copy of the joker kind (青岛 混); else None."""
    st = game.seats[seat]
    counts = st.hand  # the live hand (bytearray): the core only reads it
    if game._plain_jokers:
        return core_hand(counts, game.shape_bits, -1)
    if game._kind_jokers:
        jk = game._split_kind()
        return core_hand(counts, game.shape_bits, jk if jk >= 0 and counts[jk] else -1)
    return None


def core_hand(counts: Any, bits: int, joker_kind: int) -> Hand:
    """``Hand(counts, bits, joker_kind=joker_kind)`` for a hand the core splits itself (no
    variant split): made without the constructor's argument parsing, on every engine turn."""
    hand = Hand.__new__(Hand)
    hand.counts, hand.flags, hand.bits, hand.joker_kind = counts, bits, bits, joker_kind
    hand.split, hand.public, hand.game = None, dict, None
    return hand


class Hand:
    """A concealed hand as counts, with shanten queries on hypothetical removals."""

    __slots__ = ("counts", "flags", "bits", "joker_kind", "split", "public", "game")

    def __init__(
        self, counts: Any, flags: Mapping[str, bool] | int, joker_kind: int = -1, split: Any = None
    ) -> None:
        self.counts = counts  # 34 uint8 counts (numpy row, bytearray); only read without split
        self.flags = flags
        self.bits = flags if isinstance(flags, int) else shape_bits(flags)  # core form-flag bits
        self.joker_kind = joker_kind
        self.split = split
        self.public: Any = dict  # the view's public facts (the turned-up 宝 …), read lazily
        self.game: Any = None  # the Game the hand is read from (its public facts, when asked)

    def public_facts(self) -> Mapping[str, Any]:
        """The public facts (a turned-up 宝 …): the game's (``Variant.public_state``, built
        only when asked), else what ``public`` gives (a view's)."""
        game = self.game
        if game is not None:
            return game.variant.public_state(game)  # type: ignore[no-any-return]
        return self.public()  # type: ignore[no-any-return]

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
            return _core.shanten_removed(self.counts, self.joker_kind, self.bits, removed)
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
            return _core.greedy_discard(self.counts, self.joker_kind, self.bits, tiles)  # type: ignore[no-any-return]
        held = held_counts(self.counts)
        for i, t in enumerate(tiles):
            if t >= T.N_KINDS or not held[t]:
                return None, [i]
        shantens = self.shanten_after_discards(tiles)
        best = min(shantens, default=99)
        picks = [i for i, s in enumerate(shantens) if s == best]
        if len(picks) > 1 and best != 0:
            picks = least_connected(held, tiles, picks)
        return best, picks

    def ready_picks(self, tiles: list[int], picks: list[int]) -> list[int]:
        """Of ready discards ``picks``, those leaving the most winning kinds — a turned-up 宝
        among them counts double (宝中宝, asked of the core as "is the 宝 kind a natural
        wait") — then the least connected."""
        bao = self.public_facts().get("bao")
        bao = T.kind(bao) if isinstance(bao, str) and bao != "hidden" else -1
        if self.split is None:
            counts, jk, bits = self.counts, self.joker_kind, self.bits
            return _core.greedy_ready_discard(counts, jk, bits, tiles, picks, bao)  # type: ignore[no-any-return]
        keys = []
        for i in picks:
            mask = self.waits_without({tiles[i]: 1})
            keys.append(bin(mask).count("1") + (bao >= 0 and mask >> bao & 1))
        top = max(keys)
        picks = [i for k, i in zip(keys, picks, strict=True) if k == top]
        if len(picks) > 1:
            picks = least_connected(held_counts(self.counts), tiles, picks)
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
            return _core.shanten_removed(self.counts, self.joker_kind, self.bits, removed, True)
        c = held_counts(self.counts)
        tiles = [t for t, n in enumerate(c) if n > removed.get(t, 0)]
        return min(self.shanten_after_discards(tiles, removed), default=99)


def held_counts(counts: Any) -> list[int]:
    """The counts as a list of plain ints (cheaper reads than numpy scalars)."""
    return counts.tolist() if isinstance(counts, np.ndarray) else list(counts)


def least_connected(held: Sequence[int], tiles: list[int], picks: list[int]) -> list[int]:
    """The picks (indices into ``tiles``) whose tile has the least :func:`connectivity`."""
    keys = [connectivity(held, tiles[i]) for i in picks]
    low = min(keys)
    return [i for k, i in zip(keys, picks, strict=True) if k == low]


_BITS: dict[tuple[tuple[str, bool], ...], int] = {}


def shape_bits(flags: Mapping[str, bool]) -> int:
    """``form_flags(**flags)``, cached (a handful of distinct form sets exist)."""
    key = tuple(flags.items())
    bits = _BITS.get(key)
    if bits is None:
        bits = _BITS[key] = form_flags(**flags)
    return bits


def obvious(legal: Sequence[Action]) -> Action | None:
    """A single legal action, or a win (always taken); else None."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    for a in legal:  # (a kind scan: ``HU in legal`` calls Action.__eq__ on every other action)
        if a.kind == "hu":
            return a
    return None


def neutral_choice(legal: Sequence[Action]) -> Action:
    """The value 0 of a per-hand choice when offered, else the first legal action."""
    return next((a for a in legal if a.kind == "choose" and a.value == 0), legal[0])


def connectivity(counts: Sequence[int], t: int) -> int:
    """How much a tile helps its neighbours (lower = discard first); terminals count less."""
    score = 3 * (int(counts[t]) - 1)
    if t >= 27:
        return score
    for u, w in NEIGHBOURS[t]:
        score += w * int(counts[u])
    return 2 * score + (0 if t % 9 in (0, 8) else 1)


NEIGHBOURS = tuple(
    tuple((t + d, w) for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)) if 0 <= t % 9 + d <= 8)
    for t in range(27)
)
"""For a suited kind: (same-suit kind within two ranks, weight 2 if adjacent else 1)."""


def niu_helps(hand: Hand, action: Action, best: int) -> bool:
    """A 3-tile group still needs a discard after it; 4 tiles and 调牌 draw a replacement."""
    removed: dict[int, int] = {}
    for t in action.tiles:
        removed[t] = removed.get(t, 0) + 1
    if len(action.tiles) == 3:
        return hand.best_after_discard(removed) <= best
    return hand.shanten_without(removed) <= best
