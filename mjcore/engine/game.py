# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""The one shared game loop: deal, draw, discard, claims, gangs, wins, wall end.

Variants plug in through :class:`~mjcore.engine.variant.Variant` hooks; nothing
here knows a variant's name. The state is deterministic: a game is fully
described by (variant, players, options, wall order, dealer, carry, actions),
which is exactly what :meth:`Game.to_json` stores.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from numpy.random import default_rng

from .. import _core  # (its turn functions are C calls when compiled: game.pxd)
from .. import tiles as T
from .._prng import Pcg64
from ..errors import (
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
    InvalidWallError,
    clip,
)
from ..scoring import Breakdown, Payment, WinContext
from ..scoring.context import Win
from ..tiles import N_KINDS
from .actions import (
    CHIS,
    DISCARDS,
    GANGS,
    HU,
    PASS,
    PENG,
    Action,
    gang,
    legal_text,
    parse_action,
)
from .checks import as_int, check_seat
from .events import Deferred, EventLog, copy_plain, schema
from .melds import Meld
from .rules import Rules
from .saved import (  # noqa: F401  (SAVE_FORMAT, READ_FORMATS: the saved form's versions)
    _SAVE_KEYS,
    READ_FORMATS,
    SAVE_FORMAT,
    check_saved_game,
    load_saved,
    saved_wall,
)
from .seat import EMPTY, NO_KINDS, NO_LOCKS, SeatState
from .variant import Variant, find_variant
from .wall import Wall

# The shapes of the engine's frequent events (logged without building a dict; docs/vocabulary.md)
_DEAL = schema("deal", "dealer", "hands")
_DRAW = schema("draw", "seat", "tile", "how")
_DISCARD = schema("discard", "seat", "tile")
_PAY = schema("pay", "payer", "payee", "amount", "reason")
_END = schema("end", "scores", "exhausted")
_GANG = schema("gang", "seat", "meld", "tile", "chain")
_CLAIM = schema("claim", "seat", "kind", "tile", "tiles", "from_seat")
_FLOWER = schema("flower", "seat", "flower", "tile")  # tile: the replacement (None in play)
_CHOOSE = schema("choose", "seat", "name", "value", "locked")
_FENZHANG = schema("fenzhang", "seat", "tile")
_BUGANG = schema("bugang_declared", "seat", "tile")
_INDICATOR = schema("indicator", "tile", "joker", "hidden", "revealed")
_TILE = T.NOTATION  # every tile an event carries is written in notation (wire format 2)

_WINDOWS = frozenset(("choose", "claim", "rob", "fenzhang"))
"""Phases in which the seats in ``pending`` decide (the others: the current seat's turn)."""


def _dealt_texts(order: bytes, first: int, dealer: int, n: int, hand_size: int) -> list[str]:
    """The deal event's ``hands``: per seat, the tiles dealt to it (flowers too) as text."""
    texts = [""] * n
    at = first
    for i in range(n):
        size = hand_size + (1 if i == 0 else 0)
        texts[(dealer + i) % n] = T.format_sorted(sorted(order[at : at + size]))
        at += size
    return texts


def _others_table(players: int) -> tuple[tuple[int, ...], ...]:
    """``table[s]``: the other seats in play order from seat s's 下家."""
    return tuple(tuple((s + i) % players for i in range(1, players)) for s in range(players))


_OTHERS = tuple(_others_table(n) for n in range(5))  # [players]: shared by all games


def _windows(kind: str) -> tuple[tuple[tuple[int, int, str], ...], ...]:
    """``[src][tile]``: the claim window (src, tile, kind) of each seat and kind."""
    return tuple(tuple((src, tile, kind) for tile in range(T.N_ALL_KINDS)) for src in range(4))


# Every claim window's (source seat, tile, "discard" | "rob"), made once: Game.claim is one of
# them (a discard opens a window; its tuple is not built each time).
_DISCARD_WINDOWS = _windows("discard")
_ROB_WINDOWS = _windows("rob")


def _hu_event(win: Win, shown: bytes) -> dict[str, Any]:
    """The log's "hu" event: ``win.to_json()`` and the hand laid open (推倒: ``shown``, the
    concealed tiles and the winning tile), its patterns' list and the hand's text made when
    the event is read (tests/test_events.py checks it against Win.to_json)."""
    bd = win.breakdown
    return {
        "seat": win.seat,
        "tile": _TILE[win.tile],
        "how": win.how,
        "from_seat": win.from_seat,
        "patterns": Deferred(_patterns_json, (bd.hits,)),
        "fan": bd.fan,
        "points": bd.points,
        "formula": bd.formula,
        "hand": Deferred(T.format_counts, (shown,)),
    }


def _patterns_json(hits: tuple[Any, ...]) -> list[dict[str, Any]]:
    return [h.to_json() for h in hits]


@cache
def _tiles_text(tiles: tuple[int, ...]) -> str:
    """The notation of a claimed meld's tiles (sorted: chows, pungs, kongs), made once."""
    return T.format_sorted(tiles)


def _without(items: tuple[int, ...], item: int) -> tuple[int, ...]:
    """``items`` less its first ``item``."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _offers(acts: list[Action], kind: str) -> bool:
    """Whether ``acts`` offers an action of ``kind``: for ``hu`` and ``peng`` (which carry no
    tile) exactly ``HU in acts`` / ``PENG in acts``, without an ``Action.__eq__`` call per item."""
    for a in acts:
        if a.kind == kind:
            return True
    return False


def _chow_held(hand: bytearray, tile: int) -> bool:
    """Some chow through the suited ``tile`` has both its other kinds in ``hand``: a chi on it
    may be offered (checked before the claim's list is made: most discards offer none)."""
    r = tile % 9
    return bool(
        (r >= 2 and hand[tile - 2] and hand[tile - 1])
        or (1 <= r <= 7 and hand[tile - 1] and hand[tile + 1])
        or (r <= 6 and hand[tile + 1] and hand[tile + 2])
    )


@cache
def _seat_view() -> Any:
    """view.seat_view, imported on first use (view.py types its Game: it imports this module)."""
    from .view import seat_view

    return seat_view


def check_carry(carry: Any, variant: Variant, players: int) -> dict[str, Any]:
    """A copy of ``carry`` (state handed between hands of a Match) if it is plain JSON data
    holding only what ``variant`` carries: its :attr:`~Variant.carry_values` and kept choices
    (``locked_choices``) among those it offers. Anything else raises InvalidOptionError
    naming the field."""
    if carry is None:
        return {}
    if not isinstance(carry, dict):
        raise InvalidOptionError(f"carry must be a dict of JSON data, got {clip(carry)}")
    try:
        copied = json.loads(json.dumps(carry))
    except (TypeError, ValueError, RecursionError):
        raise InvalidOptionError(f"carry must be plain JSON data, got {clip(carry)}") from None
    if copied != carry:
        raise InvalidOptionError(f"carry must be plain JSON data (str keys), got {clip(carry)}")
    for key, value in copied.items():
        if key == "locked_choices":
            _check_locked(value, variant, players)
        elif key not in variant.carry_values:
            raise InvalidOptionError(f"carry {clip(key)}: {variant.name} carries no such field")
        elif not _one_of(value, variant.carry_values[key]):
            raise InvalidOptionError(
                f"carry {key!r} must be one of {list(variant.carry_values[key])}, got {clip(value)}"
            )
    return copied


def _one_of(value: Any, allowed: Iterable[Any]) -> bool:
    """``value`` equals one of ``allowed`` and has its type (``1`` is not ``True``)."""
    return any(type(value) is type(a) and value == a for a in allowed)


def _check_locked(locked: Any, variant: Variant, players: int) -> None:
    """carry ``locked_choices``: one dict per seat of choices kept for the rest of a Match
    (长跑), each a choice the variant locks (``choice_locks``) with a value it offers."""
    if not isinstance(locked, list) or len(locked) != players:
        raise InvalidOptionError(
            f"carry locked_choices must be {players} dicts (one per seat), got {clip(locked)}"
        )
    for seat, kept in enumerate(locked):
        if not isinstance(kept, dict):
            raise InvalidOptionError(
                f"carry locked_choices[{seat}] must be a dict of choices, got {clip(kept)}"
            )
        for name, value in kept.items():
            offered = _lockable_values(variant, name)
            if not _one_of(value, offered):
                raise InvalidOptionError(
                    f"carry locked_choices[{seat}][{name!r}]: {clip(value)} is not a choice "
                    f"{variant.name} keeps (its kept choices: {_kept_choices(variant) or 'none'})"
                )


def _lockable_values(variant: Variant, name: str) -> tuple[int, ...]:
    """The values a choice ``choose K v`` that keeps ``name`` (``choice_locks[K]``) offers."""
    return tuple(
        v
        for offer, kept in variant.choice_locks.items()
        if kept == name
        for v in variant.offered_choices.get(offer, ())
    )


def _kept_choices(variant: Variant) -> str:
    """The kept choices of ``variant`` with their values, for messages (``piao 0/1/2``)."""
    names = dict.fromkeys(variant.choice_locks.values())
    return ", ".join(f"{n} " + "/".join(map(str, _lockable_values(variant, n))) for n in names)


STATE = (
    *("rules", "variant", "opts", "seed", "carry", "is_flower", "shape_bits", "wall"),
    *("seats", "_others", "_plain_jokers", "_kind_jokers", "_drawn_jokers"),
    "_free_jokers",
    *(
        "_waits_prefilter",
        "_claim_win_kinds",
        "_wins_need_declaration",
        "_locks_end",
        "_chi_bans",
        "_turn_hook",
    ),
    "_flower_hook",
    *("_gang_limit", "_draw_wins_need_declaration", "_multi_win", "_pass_peng", "_flowers"),
    *("_hand_size", "_choices_first", "_deal_hook", "_choice_hook", "_play_hook", "_fenzhang"),
    *("_filter_turn", "_filter_claims", "_before_turn", "_filter_plain", "_filter_plain_claims"),
    "_after_claim",
    *("n", "dealer", "current", "drawn", "chain", "after_gang", "gangs_on_table", "last_drawer"),
    *("haidi", "first_go_around", "exhausted"),
    *("phase", "draw_how", "draw_cause", "claim", "pending", "decisions", "_offered_wins"),
    *("set_aside", "won_pool", "indicators", "horses", "liabilities", "hidden_indicators"),
    *("locked_choices", "_settlement", "_wins", "_events", "_history_seats", "_history_actions"),
    *("extra", "_answered", "_legal"),
)
"""Every attribute of a Game (compiled, they are the fields declared in game.pxd)."""


class Game:
    """One hand of one variant. Create it with ``variant.new_game(...)``."""

    def __init__(
        self,
        variant: Variant | Rules,
        players: int = 4,
        options: dict | None = None,
        seed: int | None = None,
        wall: Any = None,
        dealer: int = 0,
        carry: dict | None = None,
    ) -> None:
        if isinstance(variant, Rules):
            rules = variant
            if options is not None or players not in (4, rules.players):
                raise InvalidOptionError(
                    "a Game of a Rules takes its players and options from it; "
                    f"got players={clip(players)}, options={clip(options)}"
                )
        else:
            rules = variant.rules(options, players)
        players = rules.players
        if type(dealer) is not int or not 0 <= dealer < players:
            dealer = check_seat(dealer, players, "dealer", InvalidOptionError)
        if seed is not None:
            if type(seed) is not int:
                seed = as_int(seed, "seed")
            if seed < 0:
                raise InvalidOptionError(f"seed must be a non-negative integer, got {seed}")
        self.rules = rules
        self.n = players
        self.dealer = dealer
        self.seed = seed
        (
            # is_flower[t]: kind t is a flower in this game (set aside / kept apart, never claimed)
            self.is_flower,
            self.shape_bits,
            self._plain_jokers,  # no wildcards ever
            self._kind_jokers,
            self._drawn_jokers,  # (Variant.jokers_only_drawn)
            # shape_free_jokers when the engine may ask the shape itself (Variant.shape_win and
            # a split the core makes: no wildcards, or the joker kind's copies), else -1 (the hook)
            self._free_jokers,
            # The variant's constants the loop reads every step (typed when compiled)
            self._waits_prefilter,
            # the kinds a claim may win on besides the shape waits (-1: any, not pre-filtered)
            self._claim_win_kinds,
            self._wins_need_declaration,
            self._draw_wins_need_declaration,
            self._locks_end,
            self._chi_bans,  # (empty: no chi in this game)
            self._turn_hook,  # the variant has a before_turn hook
            self._flower_hook,  # a seat may keep its flowers: replace_flowers is asked
            self._gang_limit,  # gangs on the table that end the hand (0: no limit)
            self._multi_win,  # 一炮多响
            self._pass_peng,  # 过手碰: a passed peng locks the kind (Variant.pass_peng_rule)
            kept_back,
            self.variant,
            self.opts,
            self._flowers,  # is_flower as a bitmask (bit t: kind t is a flower)
            # The set-up's constants: the deal's size, when the per-hand choices are asked, and
            # which set-up hooks the variant defines (Rules.own_hooks), and 分张
            self._hand_size,
            self._choices_first,  # Variant.choices_before_deal
            self._deal_hook,
            self._choice_hook,
            self._play_hook,
            self._fenzhang,
            # Variant.filter_turn, filter_claims and before_turn, bound to the variant
            self._filter_turn,
            self._filter_claims,
            self._before_turn,
            self._filter_plain,  # Rules.plain_turns_filtered as 0, 1, 2 (PLAIN_TURNS)
            self._filter_plain_claims,  # Rules.plain_claims_filtered
            self._after_claim,  # Variant.after_claim, bound to the variant (None: the base's)
        ) = rules._engine  # type: ignore[attr-defined]  # (the Rules' per-game constants: one read)
        self.carry = check_carry(carry, self.variant, players)
        self.wall = Wall(self._wall_order(seed, wall), 0, -1, kept_back)  # (head, tail, kept)
        self.seats = [SeatState(players) for _ in range(players)]
        self._others = _OTHERS[players]  # [s]: other seats from s's 下家 (others())
        self.phase = "deal"
        self.current = dealer
        self.drawn = -1
        self.draw_how = "deal"
        self.draw_cause = ""  # what a replacement draw replaced: "gang", "flower", "niu" …
        self.chain = 0
        self.after_gang = 0
        self.gangs_on_table = 0
        self.last_drawer = -1
        self.haidi = False
        # Until a discard is claimed or the dealer's 上家 has discarded (地胡 windows);
        # a variant that also excludes 暗杠 checks gangs_on_table.
        self.first_go_around = True
        self.claim: tuple[int, int, str] = (-1, -1, "")
        self.pending: dict[int, list[Action]] = {}
        self.decisions: dict[int, Action] = {}
        # The 胡 offered to each seat in the decision now (a claim window's, the turn's or a
        # 分张 self-draw): its Breakdown, evaluated once when offered and paid as it is.
        self._offered_wins: dict[int, Breakdown] = {}
        self.set_aside: list[int] = []
        self.won_pool: list[int] = []  # each physical winning tile once (一炮多响 shares one)
        self.indicators: list[int] = []
        self.horses: list[int] = []  # post-win draws (抓马), public once drawn
        self.liabilities: list[tuple[int, int]] = []  # seat pairs in a liability relation (互包)
        self.hidden_indicators: list[int] = []  # taken face down, not yet shown (荣成 半暗宝)
        # Choices kept for the rest of a Match (长跑), one dict per seat, carried as plain JSON.
        # Replaced, never changed in place: seats without kept choices share one empty map.
        locked = self.carry.get("locked_choices")  # (checked by check_carry)
        self.locked_choices: list[Mapping[str, int]] = (
            [EMPTY] * self.n if locked is None else [dict(d) if d else EMPTY for d in locked]
        )
        self._settlement: list[Payment] = []  # read through .settlement (a copy)
        self._wins: list[Win] = []  # read through .wins (copies)
        self._events = EventLog()
        self._history_seats = bytearray()  # history, stored as two columns (a byte a seat)
        self._history_actions: list[Action] = []
        self.exhausted = False
        self.extra: dict[str, Any] = {}
        self._answered: dict[int, tuple[str, ...]] = {}  # per seat: per-hand choices made
        self._legal: list[tuple[Action, ...] | None] = [None] * self.n  # per seat, cached
        self._start()

    # ------------------------------------------------------------------ setup
    def _wall_order(self, seed: int | None, wall: Any) -> bytes | list[int]:
        if wall is None:
            tile_set = self.rules.tile_set  # bytes (shared; never changed)
            if seed is None:  # fresh OS entropy
                return default_rng().permutation(list(tile_set)).tolist()  # type: ignore[no-any-return]
            # = default_rng(seed).permutation(tile_set), draw for draw, without numpy's set-up
            shuffler = Pcg64(seed)
            return shuffler.permutation(tile_set)
        kinds = self.rules.tile_kinds
        try:
            order = T.to_kinds(wall)
        except ValueError as exc:
            raise InvalidWallError(f"bad wall: {exc}") from None
        if Counter(order) != Counter(kinds):
            extra = Counter(order) - Counter(kinds)
            missing = Counter(kinds) - Counter(order)
            raise InvalidWallError(
                f"wall is not the {self.variant.name} tile set ({len(kinds)} tiles): "
                f"got {len(order)} tiles"
                f"; extra {T.format(list(extra.elements())) or 'none'}"
                f", missing {T.format(list(missing.elements())) or 'none'}"
            )
        return order

    def _deal(self) -> None:
        wall, flowers, hand_size = self.wall, self._flowers, self._hand_size
        order, first = wall._order, wall.head
        if first + self.n * hand_size + 1 > len(order):
            raise IndexError("draw from an empty wall")
        at = first
        held: list[int] = []  # the flowers dealt, held apart (宿松's may be honours)
        for i in range(self.n):  # the dealer's 14 first, then 13 each in play order
            st = self.seats[(self.dealer + i) % self.n]
            size = hand_size + (1 if i == 0 else 0)
            start = len(held)
            for j in range(at, at + size):  # 53+ tiles a hand
                t = order[j]
                if flowers >> t & 1:
                    held.append(t)
                else:
                    st.hand[t] += 1
            if len(held) > start:
                st.held_flowers += tuple(held[start:])
            at += size
        wall.head = at
        self.drawn = order[first + hand_size]
        texts = Deferred(_dealt_texts, (order, first, self.dealer, self.n, hand_size))
        self._events.add(_DEAL, self.dealer, texts)
        if self._deal_hook:
            self.variant.after_deal(self)
        if self._fenzhang:
            self.wall.reserve = self.n

    def _start(self) -> None:
        """Deal, then the per-hand choices — or the choices first when the variant asks for
        them before the tiles are dealt (``Variant.choices_before_deal``)."""
        if not self._choices_first:
            self._deal()
        for s in range(self.n):  # choices locked for the rest of the Match (长跑)
            if self.locked_choices[s] is EMPTY or not self.locked_choices[s]:
                continue
            for name, value in self.locked_choices[s].items():
                self.seats[s].choices[name] = value
                self._events.add(_CHOOSE, s, name, value, True)
        self.pending = self._choice_round()
        if self.pending:
            self.phase = "choose"
        else:
            self._after_choices()

    def _after_choices(self) -> None:
        if self._choices_first:
            self._deal()
        self._begin_play()

    def _choice_round(self) -> dict[int, list[Action]]:
        """Per-hand choices still to make, per seat; a choice already made is not asked again.

        A variant may ask in several rounds (e.g. one seat after another): the engine asks
        again after each round until no seat has a choice left.
        """
        pending: dict[int, list[Action]] = {}
        if not self._choice_hook:  # (the base hook asks nothing)
            return pending
        for i in range(self.n):  # from the dealer, in play order
            s = (self.dealer + i) % self.n
            if self.locked_choices[s] is not EMPTY and self.locked_choices[s]:
                continue  # its choices are kept from an earlier hand
            made = self._answered.get(s, ())
            acts = self.variant.hand_choices(self, s)  # (a new list: the hook's contract)
            if made:
                acts = [a for a in acts if a.name not in made]
            if acts:
                pending[s] = acts
        return pending

    def _begin_play(self) -> None:
        if self._play_hook:
            self.variant.after_choices(self)
        dealer_tile = self.drawn
        for i in range(self.n):  # from the dealer, in play order
            seat = (self.dealer + i) % self.n
            st = self.seats[seat]
            if not st.held_flowers:
                continue
            last = self._replace_flowers(seat)
            if seat == self.dealer and last >= 0:
                dealer_tile = last
        self.drawn = -1 if self._flowers >> dealer_tile & 1 else dealer_tile
        self.phase = "turn"
        self.current = self.dealer
        self.draw_how = "deal"

    def _replace_flowers(self, seat: int) -> int:
        """补花 after the deal: flowers aside, replacements drawn; the last replacement or −1."""
        st = self.seats[seat]
        last = -1
        if not st.held_flowers or (
            self._flower_hook and not self.variant.replace_flowers(self, seat)
        ):
            return last
        wall, events, flowers = self.wall, self._events, self._flowers
        held: Any = st.held_flowers  # a stack: the last flower held is replaced first
        top = len(held)
        aside: list[int] = []  # (the tuples are set once, at the end)
        while top and wall.can_draw_tail():
            top -= 1
            flower = held[top]
            aside.append(flower)
            last = wall.draw_tail()
            events.add(_FLOWER, seat, _TILE[flower], _TILE[last])
            if flowers >> last & 1:  # another flower: replaced in turn
                if type(held) is tuple:  # (most hands draw none: no list until one does)
                    held = list(held)
                held[top] = last
                top += 1
            else:
                st.hand[last] += 1
        st.held_flowers = tuple(held[:top]) if top else ()
        st.flowers += tuple(aside)
        self._hand_changed(seat)
        return last

    # ------------------------------------------------------------- helpers
    def log(self, event: str, **data: Any) -> None:
        """Append an event; ``seq`` numbers events from 0 (``events_for(seat, since=seq)``)."""
        self._events.append(event, data)

    @property
    def shape_flags(self) -> Mapping[str, bool]:
        """The core's form flags under this game's options (read-only, shared)."""
        return self.rules.shape_flags

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event of the hand so far, as a new list of dicts (``type``, ``seq`` and the
        event's fields); :attr:`event_log` reads them without copying the whole log."""
        return list(self._events)

    @property
    def event_log(self) -> EventLog:
        """The event log itself: ``len``, indexing, ``since(seq)``, ``types()``, ``select()``."""
        return self._events

    @property
    def action_count(self) -> int:
        """``len(history)``, without building the list."""
        return len(self._history_actions)

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every accepted action so far as ``(seat, action)``, in order (a new list)."""
        return list(zip(self._history_seats, self._history_actions, strict=True))

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.n

    def order_from(self, seat: int) -> list[int]:
        """All seats in play order starting at ``seat``."""
        return [(seat + i) % self.n for i in range(self.n)]

    def others(self, seat: int) -> list[int]:
        """The other seats in play order starting from seat's 下家."""
        return list(self._others[seat])

    def pay(self, payments: list[Payment]) -> list[Payment]:
        """Settle payments in order, each cut to the payer's remaining loss cap; the settled."""
        cap = self.rules.loss_cap
        done = []
        for p in payments:
            if cap:
                paid = sum(q.amount for q in self._settlement if q.payer == p.payer)
                if p.amount > cap - paid:
                    p = p._replace(amount=max(cap - paid, 0), reason=p.reason + "+cap")
            if p.amount:
                self._settlement.append(p)
                self._events.add(_PAY, p.payer, p.payee, p.amount, p.reason)
            done.append(p)
        return done

    def draw_indicator(self, hidden: bool = False) -> int:
        """An indicator tile from the tail (−1 if none may be taken); ``hidden``: face down."""
        if not self.wall.can_draw_tail():
            return -1
        tile = self.wall.draw_tail()
        if hidden:
            self.hidden_indicators.append(tile)
            self._events.add(_INDICATOR, None, None, True, False)
        else:
            self.show_indicator(tile, tile)
        return tile

    def show_indicator(self, tile: int, joker: int) -> None:
        """Lay ``tile`` face up as an indicator of the wildcard kind ``joker`` (logged)."""
        self.indicators.append(tile)
        self._events.add(_INDICATOR, _TILE[tile], _TILE[joker], False, False)

    def reveal_indicators(self) -> list[int]:
        """Turn every hidden indicator face up (in the order taken); the revealed tiles."""
        shown, self.hidden_indicators = self.hidden_indicators, []
        for tile in shown:
            self.indicators.append(tile)
            self._events.add(_INDICATOR, _TILE[tile], _TILE[tile], False, True)
        return shown

    @property
    def settlement(self) -> list[Payment]:
        """Every payment settled so far, in order (a new list of immutable Payments)."""
        return list(self._settlement)

    @property
    def wins(self) -> list[Win]:
        """Every win of the hand so far, in order: copies, so changing one changes nothing."""
        return [w.copy() for w in self._wins]

    @property
    def scores(self) -> list[int]:
        """Net result per seat of everything settled so far."""
        out = [0] * self.n
        for p in self._settlement:
            out[p.payer] -= p.amount
            out[p.payee] += p.amount
        return out

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def copy(self) -> Game:
        """An independent game in the same state (a few µs: engine/clone.py says what is
        copied and what, never changed in place, is shared); for search and what-if play."""
        from .clone import copy_game

        return copy_game(self)

    def __repr__(self) -> str:
        return (
            f"<Game {self.variant.name} players={self.n} phase={self.phase} "
            f"to_act={self.to_act()} scores={self.scores} wall={self.wall.live}>"
        )

    # ---- liability and sealed seats (general mechanisms a variant's rules switch on)
    def bind(self, a: int, b: int) -> None:
        """Put seats ``a`` and ``b`` in a liability relation (互包) for the rest of the hand."""
        pair = (min(a, b), max(a, b))
        if a != b and pair not in self.liabilities:
            self.liabilities.append(pair)
            self.log("liability", seats=list(pair))

    def partners(self, seat: int) -> list[int]:
        """Seats in a liability relation with ``seat``, in play order from its 下家."""
        linked = {b if a == seat else a for a, b in self.liabilities if seat in (a, b)}
        return [s for s in self.others(seat) if s in linked]

    def seal(self, seat: int) -> None:
        """封胡: ``seat`` is never offered a win again this hand (it still plays and pays)."""
        if not self.seats[seat].sealed:
            self.seats[seat].sealed = True
            self._forget_legal()
            self.log("sealed", seat=seat)

    def seat_waits(self, seat: int) -> int:
        """Bitmask of kinds completing the seat's concealed hand by shape (cached)."""
        st = self.seats[seat]
        if st._waits < 0:  # (not known since the hand last changed)
            if self._plain_jokers or self._kind_jokers:  # the core splits the 混 itself
                st._waits = _core.hand_waits_bits(st.hand, self._split_kind(), self.shape_bits)
            elif sum(st.hand) % 3 == 1:
                counts, jokers = self._split_jokers(seat)
                st._waits = _core.waits_mask_bits(counts, jokers, self.shape_bits)
            else:
                st._waits = 0
        return st._waits

    def waits_before_draw(self, seat: int) -> int:
        """The seat's shape waits (as :meth:`seat_waits`) before its last draw while the
        engine still knows them — its hand is that hand plus :attr:`drawn` — else -1."""
        return self.seats[seat]._waits_before_draw  # type: ignore[no-any-return]

    def _hand_changed(self, seat: int) -> None:
        st = self.seats[seat]
        st.forget_waits()

    def win_context(self, seat: int, tile: int, how: str) -> WinContext:
        """Describe the win of ``seat`` on ``tile`` in the current situation."""
        st = self.seats[seat]
        counts, jokers = self.variant.jokers(self, seat, st.hand)  # (read: copied just below)
        # One new array; a claimed tile is natural: a discarded wildcard counts at face value.
        counts = _core.counts_array(counts, tile if how in ("discard", "rob_gang") else -1)
        # A flower replaced on a gang's replacement draw keeps the gang chain (chain > 0 only then).
        gang_draw = self.draw_how == "replacement" and self.draw_cause in ("gang", "flower")
        chain = self.chain if how == "self_draw" and gang_draw else 0
        after = self.after_gang if how == "discard" else 0
        flags = frozenset(self.variant.win_flags(self, seat, tile, how))
        joker_kind = self.extra.get("joker_kind", -1)
        return WinContext(  # (the fields in order: a positional call)
            counts, tile, how, tuple(st.melds), jokers, chain, after, flags, joker_kind, st.flowers
        )

    def evaluate_win(self, seat: int, tile: int, how: str) -> Breakdown | None:
        """The breakdown if ``seat`` may win on ``tile`` now, else None."""
        st = self.seats[seat]
        if self._flowers >> tile & 1 or st.held_flowers or st.sealed:
            return None  # a flower never completes a hand, nor can one be held at a win
        if not self.variant.can_win(self, seat, tile, how):
            return None
        return self.variant.score(self.win_context(seat, tile, how), self.opts)

    # ------------------------------------------------------------- queries
    def to_act(self) -> list[int]:
        """Seats that must decide now."""
        if self.phase == "turn":
            return [self.current]
        if self.phase in _WINDOWS:
            return [s for s in self.pending if s not in self.decisions]
        return []

    def first_to_act(self) -> int:
        """The first seat of :meth:`to_act` (the one a game loop asks next), or −1 when none
        is asked (the hand is over): without building the list."""
        phase = self.phase
        if phase == "turn":
            return self.current
        if phase in _WINDOWS:
            for s in self.pending:
                if s not in self.decisions:
                    return s  # type: ignore[no-any-return]
        return -1

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now (empty if it is not asked); an immutable tuple."""
        if type(seat) is not int or not 0 <= seat < self.n:
            seat = check_seat(seat, self.n)
        return self._legal_at(seat)

    def _legal_at(self, s: int) -> tuple[Action, ...]:
        """:meth:`legal_actions` of ``s``, a seat number already checked (a game loop's
        call: a C int when compiled, sim/play.pxd)."""
        cached = self._legal[s]
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        phase = self.phase
        acts: tuple[Action, ...] = ()
        if phase == "turn":
            if s == self.current:
                turn = self._turn_actions(s)
                acts = turn if type(turn) is tuple else tuple(turn)
        elif phase in _WINDOWS and s in self.pending and s not in self.decisions:
            acts = tuple(self.pending[s])
        self._legal[s] = acts
        return acts

    def _turn_actions(self, seat: int) -> Sequence[Action]:
        """The seat's actions on its own turn: a win, gangs, the discards (and the variant's
        additions, Variant.filter_turn). The common turn — the discards alone, no hook to
        ask — is one tuple made by the core; otherwise a list (legal_actions makes it one)."""
        st = self.seats[seat]
        hand = st.hand
        acts: list[Action] | None = None  # a win and gangs, made when offered (rarely)
        bd = None
        if self.drawn >= 0 and self.draw_how != "claim" and self._may_self_draw(seat):
            bd = self.evaluate_win(seat, self.drawn, "self_draw")
        if bd is not None:
            acts = [HU]
            self._offered_wins[seat] = bd  # (paid as offered: _self_draw_win)
        elif self._offered_wins:
            self._offered_wins.pop(seat, None)
        if self._gang_limit and self.gang_limit_hit():  # (荣成 存牌, R28; no call without a limit)
            # the variant may add a choice
            return self._filtered_turn(seat, (*(acts or ()), PASS))
        if self.wall.can_draw_tail():  # a gang is only offered if its replacement exists
            if 4 in hand:  # (a C-level scan: most turns hold no four of a kind)
                gangs = [GANGS[t] for t in range(N_KINDS) if hand[t] == 4]
                acts = gangs if acts is None else acts + gangs
            for m in st.melds:  # 补杠: a peng whose fourth tile is held
                if m.kind == "peng":
                    t = m.tiles[0]
                    if hand[t] and t not in st.no_bugang:
                        acts = [GANGS[t]] if acts is None else acts + [GANGS[t]]
        banned = st.no_discard
        allowed = 0  # (with a ban: the kinds held that it leaves)
        if banned:
            allowed = _core.held_mask(hand) & ~T.kinds_mask(banned)
            if not allowed and not st.held_flowers:
                # RULES §0.6: a seat asked to act always has a legal action; a chi's discard
                # ban that leaves none (after a gang and its replacement) is lifted for this
                # discard.
                banned = NO_KINDS
        # the shared discard action of every kind held, selected by the core
        if acts is None and not banned and not st.held_flowers:  # a plain turn
            plain = self._filter_plain  # Rules.plain_turns_filtered: 0 never, 1 first, 2 always
            if self._filter_turn is None or (
                plain < 2 and not (st.wins or st.declared) and (plain == 0 or st.discard_count)
            ):
                return _core.held_tuple(DISCARDS, hand)  # (most turns: the discards alone)
            return self._filtered_turn(seat, _core.held_tuple(DISCARDS, hand))
        if acts is None:
            acts = []
        if banned:
            acts.extend([DISCARDS[t] for t in range(N_KINDS) if allowed >> t & 1])
        elif acts:
            acts.extend(_core.held_items(DISCARDS, hand))
        else:
            acts = _core.held_items(DISCARDS, hand)
        if st.held_flowers:
            acts.extend([DISCARDS[t] for t in sorted(set(st.held_flowers))])
        return self._filtered_turn(seat, tuple(acts))

    def _filtered_turn(self, seat: int, acts: tuple[Action, ...]) -> Sequence[Action]:
        """Variant.filter_turn of the turn's actions, when the variant has its own."""
        if self._filter_turn is None:
            return acts
        return self._filter_turn(self, seat, acts)  # type: ignore[no-any-return]

    def _may_self_draw(self, seat: int) -> bool:
        """Cheap shape test (at most one core call: none when the waits before the draw are
        known) before the full evaluation of a self-draw."""
        st = self.seats[seat]
        if self._flowers >> self.drawn & 1 or st.held_flowers:
            return False
        if self._draw_wins_need_declaration and not (st.declared or self.first_go_around):
            return False  # (Variant.self_draw_wins_need_declaration)
        if not self._waits_prefilter:
            return True
        free = self._free_jokers
        if free >= 0:  # Variant.shape_win itself, on a hand the core splits (one core call)
            hand = st.hand
            jk = self._split_kind()
            if free and jk >= 0 and hand[jk] >= free:
                return True
            known = st._waits_before_draw  # (the drawn tile wins if and only if it is a wait)
            if known >= 0 and self.drawn != jk:  # (a drawn 混 adds a wildcard, not a wait)
                return known >> self.drawn & 1 == 1
            return _core.hand_is_win_bits(hand, jk, self.shape_bits)
        counts, jokers = self._split_jokers(seat)
        return self.variant.shape_win(counts, jokers, self.shape_bits)

    def gang_limit_hit(self) -> bool:
        """The hand's gangs reached the variant's limit (Variant.gang_limit) on this
        replacement draw: the hand ends 荒庄 unless the seat wins on it."""
        # (gangs on the table never go down: below the limit the flag is not read)
        limit = self._gang_limit
        return bool(limit and self.gangs_on_table >= limit and self.extra.get("gang_limit_hit"))

    def _split_kind(self) -> int:
        """The kind every copy of which is a wildcard the core may split out itself
        (Variant.jokers_are_joker_kind: 青岛 混), or -1."""
        return self.extra.get("joker_kind", -1) if self._kind_jokers else -1  # type: ignore[no-any-return]

    def _no_drawn_joker(self) -> bool:
        """A wildcard is only ever a just-drawn joker kind (Variant.jokers_only_drawn: 荣成
        摸宝) and another tile is drawn: no hand holds one now."""
        return self._drawn_jokers and self.drawn != self.extra.get("joker_kind", -1)

    def _split_jokers(self, seat: int) -> tuple[Any, int]:
        """The seat's concealed hand as (natural counts, wildcards) for the core (not copied
        unless wildcards are split out)."""
        hand: Any = self.seats[seat].hand  # (the hooks take the seat's bytearray here)
        if self._plain_jokers or self._no_drawn_joker():  # no wildcard (now)
            return hand, 0
        if self._kind_jokers:  # Variant.jokers_are_joker_kind: the hook's split, by contract
            jk = self._split_kind()
            if jk < 0 or not hand[jk]:
                return hand, 0
            natural = bytearray(hand)
            natural[jk] = 0
            return natural, hand[jk]
        return self.variant.jokers(self, seat, hand)  # type: ignore[no-any-return]

    # ------------------------------------------------------------- actions
    def apply(self, seat: int, action: Action | str) -> None:
        """Apply ``seat``'s action (an :class:`Action` or its text).

        Atomic: a rejected action raises IllegalActionError and changes nothing, and
        any exception while the action runs restores the game exactly as it was.
        """
        if type(seat) is not int or not 0 <= seat < self.n:
            seat = check_seat(seat, self.n)
        self._apply_at(seat, action)

    def _apply_at(self, seat: int, action: Action | str) -> None:
        """:meth:`apply` for ``seat``, a seat number already checked (a game loop's call)."""
        legal = self._legal_at(seat)
        if not isinstance(action, Action):  # a malformed text's error lists ``legal``
            action = parse_action(action, legal)
        for a in legal:  # mostly one of the shared Action objects: found without __eq__ calls
            if a is action:
                break
        else:
            if action not in legal:
                raise IllegalActionError(self._why_illegal(seat, action, legal))
        try:
            self._run(seat, action)
        except BaseException:
            self._restore()
            raise
        self._history_seats.append(seat)
        self._history_actions.append(action)

    def _restore(self) -> None:
        """Rebuild the state before the failed action by replaying the recorded history."""
        fresh = Game(
            self.rules, seed=self.seed, wall=self.wall.tiles, dealer=self.dealer, carry=self.carry
        )
        for s, a in self.history:
            fresh.apply(s, a)
        for name in STATE:
            setattr(self, name, getattr(fresh, name))

    def _run(self, seat: int, action: Action) -> None:
        self._forget_legal()
        if self.phase == "turn":
            self._apply_turn(seat, action)
        else:
            self.decisions[seat] = action
            for s in self.pending:
                if s not in self.decisions:
                    return  # (others still to decide)
            self._resolve_window()

    def _resolve_window(self) -> None:
        """Every pending seat has decided: resolve the window of the current phase."""
        phase = self.phase
        if phase == "claim" or phase == "rob":
            self._resolve_claims()
        elif phase == "choose":
            self._resolve_choices()
        else:  # "fenzhang"
            self._resolve_fenzhang()

    def _forget_legal(self) -> None:
        """Drop the cached legal actions: the state has changed."""
        legal = self._legal
        for s in range(len(legal)):
            legal[s] = None

    def _why_illegal(self, seat: int, action: Action, legal: tuple[Action, ...]) -> str:
        if self.phase == "over":
            return f"the hand is over; seat {seat} cannot {action}"
        if seat not in self.to_act():
            return f"seat {seat} is not to act now; cannot {action}"
        return f"seat {seat} cannot {action} now; {legal_text(legal)}"

    def _apply_turn(self, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "discard":
            self._discard(seat, action.tile)
        elif kind == "gang":
            self._own_gang(seat, action.tile)
        elif kind == "hu":
            self._self_draw_win(seat)
        elif kind == "pass":  # only offered when the 4th gang's replacement could win
            self._end_hand(exhausted=True)
        else:
            self.variant.on_declare(self, seat, action)
            self._hand_changed(seat)
            hand = self.seats[seat].hand
            if (
                self.phase == "turn"
                and self.current == seat
                and 0 <= self.drawn
                and not hand[self.drawn]
            ):
                # The declaration used up the drawn tile (a 扭 group): a self-draw win is now on
                # the hand as it stands, so another held kind stands in as the turn's tile.
                self.drawn = max([t for t in range(T.N_KINDS) if hand[t]], default=-1)

    def _resolve_choices(self) -> None:
        for seat, act in self.decisions.items():
            # One decision answers every choice the seat was offered in this round.
            asked = tuple([a.name for a in self.pending[seat]])
            self._answered[seat] = self._answered.get(seat, ()) + asked
            name = self.variant.choice_locks.get(act.name, act.name)
            self.seats[seat].choices[name] = act.value
            if name != act.name:  # e.g. 长跑: this 飘 for the rest of the Match
                self.locked_choices[seat] = {**self.locked_choices[seat], name: act.value}
            self._events.add(_CHOOSE, seat, act.name, act.value, False)
        self.pending, self.decisions = self._choice_round(), {}
        if not self.pending:
            self._after_choices()

    # ---- drawing
    def draw_for(self, seat: int) -> None:
        """Start ``seat``'s turn with a normal draw (or end the wall)."""
        self.current = seat
        self.chain = 0
        if self._turn_hook:
            self._before_turn(self, seat)
        if not self.wall.can_draw():
            if self.wall.reserve and self.wall.live >= self.wall.reserve:
                self._start_fenzhang(seat)
            else:
                self._end_hand(exhausted=True)
            return
        tile = self.wall.draw()
        self.haidi = not self.wall.can_draw()
        self._receive(seat, tile, "wall")

    def replacement_for(self, seat: int, cause: str = "gang") -> None:
        """A replacement draw from the tail (after a gang, a flower, a 4-tile 扭)."""
        self.current = seat
        self.draw_cause = cause
        if not self.wall.can_draw_tail():
            self._end_hand(exhausted=True)
            return
        self.haidi = False
        self._receive(seat, self.wall.draw_tail(), "replacement")

    def _receive(self, seat: int, tile: int, how: str) -> None:
        st = self.seats[seat]
        # 过手 locks end with a draw (a flower drawn from the wall is a draw too); most seats
        # hold none, and then there is nothing to end
        if (st.pass_hu is not NO_LOCKS or st.pass_peng is not NO_KINDS) and how in self._locks_end:
            st.clear_locks()
        if self._flowers >> tile & 1:
            replace = True
            if self._flower_hook:  # the variant may keep it (the hook sees it held)
                st.held_flowers += (tile,)
                replace = self.variant.replace_flowers(self, seat)
                if replace:
                    st.held_flowers = _without(st.held_flowers, tile)
            if replace:
                self._events.add(_DRAW, seat, _TILE[tile], how)
                st.flowers += (tile,)
                self._events.add(_FLOWER, seat, _TILE[tile], None)
                self.replacement_for(seat, "flower")
                return
            known = -1
        else:
            known = st._waits  # (of the hand before this tile, if asked since it last changed)
            st.hand[tile] += 1
        st.forget_waits()
        st._waits_before_draw = known
        self.last_drawer = seat
        self.drawn, self.draw_how = tile, how
        self.phase = "turn"
        self._events.add(_DRAW, seat, _TILE[tile], how)
        if self._gang_limit and self.gangs_on_table >= self._gang_limit and how == "replacement":
            self.extra["gang_limit_hit"] = True
            if not self.evaluate_win(seat, tile, "self_draw"):
                self._end_hand(exhausted=True)

    # ---- own turn
    def _discard(self, seat: int, tile: int) -> None:
        st = self.seats[seat]
        known = st._waits_before_draw
        if self._flowers >> tile & 1:
            st.held_flowers = _without(st.held_flowers, tile)
        else:
            st.hand[tile] -= 1
        st.discards.append(tile)
        st.discard_count += 1
        st.no_discard = NO_KINDS
        st.pass_hu_any = False
        st.forget_waits()
        if known >= 0 and tile == self.drawn:  # the hand is the one before the draw again
            st._waits = known
        self.after_gang = self.chain if self.chain and self.draw_how == "replacement" else 0
        self.drawn = -1
        self._events.add(_DISCARD, seat, _TILE[tile])
        if seat == (self.dealer - 1) % self.n:
            self.first_go_around = False
        self._open_claims(seat, tile, "discard")

    def _own_gang(self, seat: int, tile: int) -> None:
        st = self.seats[seat]
        if st.hand[tile] == 4:
            st.hand[tile] = 0
            self._complete_gang(seat, Meld("angang", (tile,) * 4))
            return
        st.hand[tile] -= 1
        self._hand_changed(seat)
        self._events.add(_BUGANG, seat, _TILE[tile])
        self._open_claims(seat, tile, "rob")

    def _complete_gang(self, seat: int, meld: Meld) -> None:
        st = self.seats[seat]
        if meld.kind == "bugang":
            st.melds = [
                meld if (m.kind == "peng" and m.tiles[0] == meld.tiles[0]) else m for m in st.melds
            ]
        else:
            st.melds.append(meld)
        self.gangs_on_table += 1
        self.chain += 1
        self._hand_changed(seat)
        self._events.add(_GANG, seat, meld.kind, _TILE[meld.tiles[0]], self.chain)
        self.pay(self.variant.gang_payments(self, seat, meld, self.chain))
        self.replacement_for(seat)

    def _self_draw_win(self, seat: int) -> None:
        how = "fenzhang" if self.draw_how == "fenzhang" else "self_draw"
        bd = self._offered_wins.pop(seat, None)  # (the win as offered: evaluated once)
        if bd is None:
            bd = self.evaluate_win(seat, self.drawn, how)
        assert bd is not None  # hu is only legal when it evaluates
        st = self.seats[seat]
        st.hand[self.drawn] -= 1
        self._hand_changed(seat)
        self._record_wins([(seat, bd)], self.drawn, how, seat)

    # ---- claims
    def _open_claims(self, src: int, tile: int, kind: str) -> None:
        windows = _ROB_WINDOWS if kind == "rob" else _DISCARD_WINDOWS
        self.claim = windows[src][tile]
        # (empty maps are kept, not replaced: most discards are claimed by nobody)
        if self._offered_wins:
            self._offered_wins = {}
        if self.decisions:
            self.decisions = {}
        pending = self.pending if not self.pending else {}
        n = self.n
        others = 0 if self._flowers >> tile & 1 else n - 1  # nobody claims a discarded flower
        for i in range(1, others + 1):  # in turn order from the discarder's 下家
            s = (src + i) % n
            acts = self._claim_options(s, src, tile, kind)
            if acts:
                acts.append(PASS)
                if self._filter_claims is not None and (  # (Variant.filter_claims, its own)
                    self._filter_plain_claims or not self._plain_claim(s, acts)
                ):
                    acts = self._filter_claims(self, s, acts)
                if len(acts) != 1 or acts[0] != PASS:
                    pending[s] = acts
        self.pending = pending
        if pending:
            self.phase = "claim" if kind == "discard" else "rob"
        else:
            self._no_claim()

    def _plain_claim(self, s: int, acts: list[Action]) -> bool:
        """No gang offered to a seat that has neither declared nor won
        (Rules.plain_claims_filtered)."""
        st = self.seats[s]
        if st.wins or st.declared:
            return False
        # (a 直杠 needs three held: most claims are told apart without a look at the list)
        return st.hand[self.claim[1]] < 3 or not _offers(acts, "gang")

    def _claim_options(self, s: int, src: int, tile: int, kind: str) -> list[Action] | None:
        """What seat ``s`` may do with ``src``'s (non-flower) ``tile``, discarded or added to
        a peng (``kind`` "rob"); None when nothing (most seats, most discards)."""
        st = self.seats[s]
        hand = st.hand
        may_win = bool(not self._wins_need_declaration or self.first_go_around or st.declared)
        if may_win and self._claim_win_kinds >= 0:  # (-1: Variant.shapeless_win_kinds any)
            waits = self.seat_waits(s) | self._claim_win_kinds
            may_win = bool(waits >> tile & 1)
        may_chi = tile < 27 and bool(self._chi_bans) and s == (src + 1) % self.n
        may_chi = may_chi and _chow_held(hand, tile)  # (no list made for a chi none can make)
        if not may_win and (kind != "discard" or (hand[tile] < 2 and not may_chi)):
            return None
        return self._claim_list(st, s, tile, kind, may_win, may_chi)

    def _claim_list(
        self, st: SeatState, s: int, tile: int, kind: str, may_win: bool, may_chi: bool
    ) -> list[Action]:
        """:meth:`_claim_options` when the seat may do something: the list."""
        hand = st.hand
        acts: list[Action] = []
        if may_win:
            bd = self.evaluate_win(s, tile, "discard" if kind == "discard" else "rob_gang")
            if bd is not None and not self._pass_hu_locked(st, tile, bd):
                acts.append(HU)
                self._offered_wins[s] = bd
        if kind != "discard":
            return acts
        if hand[tile] == 3 and self.wall.can_draw_tail():
            acts.append(gang(tile))
        if hand[tile] >= 2 and tile not in st.pass_peng:
            acts.append(PENG)
        if may_chi:  # the chows holding the tile, lowest first (as CHOW_PARTNERS lists them)
            r = tile % 9
            for low in range(tile - min(r, 2), tile + 1 - max(r - 6, 0)):
                a = low + (low == tile)  # the chow's two other kinds
                b = low + 2 - (low == tile - 2)
                if hand[a] and hand[b] and self._chi_leaves_discard(st, a, b, low, tile):
                    acts.append(CHIS[low])
        return acts

    def _chi_leaves_discard(self, st: SeatState, a: int, b: int, low: int, tile: int) -> bool:
        """A chi is only offered if some discard stays legal after it (吃后不能打 …): once the
        chow's other tiles ``a`` and ``b`` leave the hand, some kind is still held that the
        chow from ``low`` on ``tile`` does not ban."""
        banned = self._chi_bans[3 * low + tile - low]
        if not banned or st.held_flowers:
            return True
        hand = st.hand
        for t in range(T.N_KINDS):
            if hand[t] - (t == a) - (t == b) > 0 and not banned >> t & 1:
                return True
        return False

    def _pass_hu_locked(self, st: SeatState, tile: int, bd: Breakdown) -> bool:
        rule = self.variant.pass_hu_rule
        if rule == "any":
            return st.pass_hu_any
        if rule == "same_kind" and tile in st.pass_hu:
            # 「加番可以胡」: a bigger win is compared by its points per payer.
            return not (self.variant.pass_hu_bigger_ok and bd.points > st.pass_hu[tile])
        return False

    def _resolve_claims(self) -> None:
        src, tile, kind = self.claim
        pending, decided = self.pending, self.decisions
        hu = []
        taker, take = -1, None  # gang = peng > chi (§0.4): the first peng or gang, else chi
        for s in self._others[src]:  # (in turn order from the discarder's 下家)
            acts = pending.get(s)
            if acts is None:
                continue
            dec = decided[s]
            if dec.kind == "hu":
                hu.append(s)
            elif _offers(acts, "hu"):  # a win passed: 过手胡 on this kind
                st = self.seats[s]
                locks = st.pass_hu  # replaced, never changed in place (seat.py)
                points = max(locks.get(tile, 0), self._offered_wins[s].points)
                st.pass_hu = {**locks, tile: points}
                st.pass_hu_any = True
            if dec.kind == "peng" or dec.kind == "gang":
                if take is None or take.kind == "chi":
                    taker, take = s, dec
            elif (
                self._pass_peng  # (Variant.pass_peng_rule)
                and _offers(acts, "peng")
            ):
                st = self.seats[s]
                st.pass_peng |= {tile}
            if take is None and dec.kind == "chi":
                taker, take = s, dec
        # the window's maps, emptied in place: the next window fills them (_open_claims)
        pending.clear()
        decided.clear()
        if hu:
            if not self._multi_win:
                hu = hu[:1]
            if kind == "discard":
                self.seats[src].discards.pop()
            how = "discard" if kind == "discard" else "rob_gang"
            self._record_wins([(s, self._offered_wins[s]) for s in hu], tile, how, src)
        elif take is not None:
            self._take_discard(taker, src, tile, take)
        else:
            self._no_claim()

    def _no_claim(self) -> None:
        src, tile, kind = self.claim
        if kind == "rob":
            self._complete_gang(
                src,
                Meld("bugang", (tile,) * 4, tile, self._peng_source(src, tile)),
            )
        else:
            self.draw_for(self.next_seat(src))

    def _peng_source(self, seat: int, tile: int) -> int:
        return next(
            m.from_seat for m in self.seats[seat].melds if m.kind == "peng" and m.tiles[0] == tile
        )

    def _take_discard(self, s: int, src: int, tile: int, dec: Action) -> None:
        st = self.seats[s]
        self.seats[src].discards.pop()
        if "claim" in self._locks_end:
            st.clear_locks()
        st.claims += 1
        st.claimed_from[src] += 1
        self.first_go_around = False
        self.current, self.drawn, self.draw_how, self.chain = s, -1, "claim", 0
        self.phase = "turn"
        if dec.kind == "gang":
            st.hand[tile] -= 3
            self._events.add(_CLAIM, s, "zhigang", _TILE[tile], _tiles_text((tile,) * 4), src)
            meld = Meld("zhigang", (tile,) * 4, tile, src)
            if self._after_claim is not None:
                self._after_claim(self, s, meld)
            self._complete_gang(s, meld)
            return
        if dec.kind == "peng":
            st.hand[tile] -= 2
            meld = Meld("peng", (tile,) * 3, tile, src)
        else:
            for t in dec.tiles:
                if t != tile:
                    st.hand[t] -= 1
            meld = Meld("chi", dec.tiles, tile, src)
            st.no_discard = frozenset(self.variant.no_discard_after_chi(self.opts, dec.tiles, tile))
        st.melds.append(meld)
        self._hand_changed(s)
        self._events.add(_CLAIM, s, meld.kind, _TILE[tile], _tiles_text(meld.tiles), src)
        if self._after_claim is not None:
            self._after_claim(self, s, meld)

    # ---- wins and the end
    def _record_wins(
        self, winners: list[tuple[int, Breakdown]], tile: int, how: str, src: int
    ) -> None:
        wins = []
        self.won_pool.append(tile)
        self._post_win_draws()
        for s, bd in winners:
            win = Win(seat=s, tile=tile, how=how, from_seat=src, breakdown=bd)
            win.payments = self.variant.win_payments(self, win)
            self.seats[s].wins += (win,)
            self.seats[s].won_tiles += (tile,)
            self._wins.append(win)
            # The winning hand is laid open (推倒): its concealed tiles plus the winning tile.
            shown = bytearray(self.seats[s].hand)
            shown[tile] += 1
            self._events.adopt("hu", _hu_event(win, bytes(shown)))
            win.payments = self.pay(win.payments)
            wins.append(win)
        if how == "rob_gang" and len(winners) > 1:
            self.seats[src].extra["robbed_extra"] = len(winners) - 1
        nxt = self.variant.after_wins(self, wins)
        self.drawn = -1
        if nxt is None:
            self._end_hand(exhausted=False)
        else:
            self.draw_for(nxt)

    def _post_win_draws(self) -> None:
        """抓马: once per hand, at its first win, the next tiles from the wall head (as many
        as remain), drawn before the wins are paid so that payments can depend on them."""
        wanted = self.rules.post_win_draws
        if not wanted or self._wins:
            return
        while len(self.horses) < wanted and self.wall.remaining > 0:
            self.horses.append(self.wall.draw())
        self.log("horses", tiles=[_TILE[t] for t in self.horses])

    def _start_fenzhang(self, seat: int) -> None:
        self.phase = "fenzhang"
        self.extra["fenzhang_order"] = self.order_from(seat)
        self._next_fenzhang()

    def _next_fenzhang(self) -> None:
        order = self.extra["fenzhang_order"]
        while order:
            seat = order.pop(0)
            tile = self.wall.draw()
            if self._flowers >> tile & 1:  # a flower cannot win: it is simply set aside
                self.set_aside.append(tile)
                continue
            st = self.seats[seat]
            st.hand[tile] += 1
            self._hand_changed(seat)
            self.current, self.drawn, self.draw_how = seat, tile, "fenzhang"
            self.last_drawer = seat
            self._events.add(_FENZHANG, seat, _TILE[tile])
            # the self-draw's cheap shape test first (most 分张 tiles complete nothing)
            bd = self.evaluate_win(seat, tile, "fenzhang") if self._may_self_draw(seat) else None
            if bd is not None:
                self.pending, self.decisions = {seat: [HU, PASS]}, {}
                self._offered_wins = {seat: bd}
                return
            self._expose_fenzhang(seat, tile)
        self._end_hand(exhausted=True)

    def _expose_fenzhang(self, seat: int, tile: int) -> None:
        self.seats[seat].hand[tile] -= 1
        self._hand_changed(seat)
        self.set_aside.append(tile)

    def _resolve_fenzhang(self) -> None:
        ((seat, act),) = self.decisions.items()
        self.pending, self.decisions = {}, {}
        if act.kind == "hu":
            self._self_draw_win(seat)
        else:
            self._expose_fenzhang(seat, self.drawn)
            self._next_fenzhang()

    def _end_hand(self, exhausted: bool) -> None:
        self.exhausted = exhausted and not self._wins
        self.phase = "over"
        self.pending, self.decisions = {}, {}
        self.pay(self.variant.settle_end(self))
        self._events.add(_END, self.scores, self.exhausted)  # (a new list: the log's own)

    # ------------------------------------------------------------- results
    @property
    def next_dealer(self) -> int:
        if not self.is_over:
            raise IllegalActionError("the hand is not over yet")
        return self.variant.next_dealer(self)

    def next_carry(self) -> dict[str, Any]:
        carry = self.variant.carry(self)
        if any(self.locked_choices):
            carry["locked_choices"] = [dict(d) for d in self.locked_choices]
        return carry

    def tiles_in_play(self) -> Counter:
        """Every tile accounted for (wall, hands, melds, rivers, won, set aside): an invariant."""
        c: Counter = Counter(self.wall.tiles[self.wall.head : self.wall.tail])
        if self.phase == "rob":
            c[self.claim[1]] += 1
        for st in self.seats:
            c.update(T.from_counts(st.hand))
            for m in st.melds:
                c.update(m.tiles)
            c.update(st.discards)
            c.update(st.flowers)
            c.update(st.held_flowers)
        c.update(self.won_pool)
        c.update(self.set_aside)
        c.update(self.indicators)
        c.update(self.horses)
        c.update(self.hidden_indicators)
        return c

    # ------------------------------------------------------------- views
    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know: its own hand, everything public, never the wall order."""
        if type(seat) is not int or not 0 <= seat < self.n:
            seat = check_seat(seat, self.n)
        return _seat_view()(self, seat)  # type: ignore[no-any-return]

    def events_for(self, seat: int, since: int = 0) -> list[dict[str, Any]]:
        """Events from sequence number ``since`` on, as ``seat`` may see them.

        Others' draws and dealt hands are masked; each event has its ``seq``.
        """
        from .view import seat_events

        seat = check_seat(seat, self.n)
        since = as_int(since, "since", IllegalActionError)
        if since < 0:
            raise IllegalActionError(f"since must be a non-negative event number, got {since}")
        return seat_events(self, seat, since)

    def to_json(self) -> str:
        """Exact, restorable state (the server's private copy: it includes the wall).

        The form is versioned (``"format"``, see :data:`SAVE_FORMAT`) and documented in
        docs/vocabulary.md; :meth:`from_json` validates it.
        """
        return json.dumps(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """The saved form as plain data (what :meth:`to_json` serialises)."""
        return {
            "format": SAVE_FORMAT,
            "variant": self.variant.name,
            "players": self.n,
            "options": self.opts.to_dict(),
            "dealer": self.dealer,
            "seed": self.seed,
            "carry": copy_plain(self.carry),
            "wall": [T.NOTATION[t] for t in self.wall.tiles],
            "history": [[s, str(a)] for s, a in self.history],
        }

    @staticmethod
    def from_json(text: str | bytes | dict[str, Any]) -> Game:
        """Restore a game saved by :meth:`to_json` (by replaying its actions).

        Any malformed, edited or foreign input raises :class:`InvalidStateError`.
        """
        return Game.from_dict(load_saved(text))

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Game:
        """Restore from the plain-data saved form (see :meth:`to_dict`)."""
        check_saved_game(data)
        wall = saved_wall(data)
        try:
            game = find_variant(data["variant"]).new_game(
                players=data["players"],
                options=data["options"],
                seed=data["seed"],
                wall=wall,
                dealer=data["dealer"],
                carry=data["carry"],
            )
        except ValueError as exc:
            raise InvalidStateError(f"saved game: {exc}") from None
        for step, item in enumerate(data["history"]):
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)):
                raise InvalidStateError(f"saved game: history[{step}] is not [seat, action text]")
            try:
                game.apply(item[0], item[1])
            except ValueError as exc:
                raise InvalidStateError(f"saved game: history[{step}] {exc}") from None
        return game
