# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""The variant interface: rules as data plus a few hooks on the one shared engine.

A variant module subclasses :class:`Variant`, sets its data attributes and an
``Options`` frozen dataclass, and overrides only the hooks its rules need.
Every hook receives the :class:`~mjcore.engine.game.Game` and must not change
engine internals except through the methods documented as hook helpers.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .. import tiles as T
from .._core import form_flags, is_win_bits
from ..errors import InvalidHandError, InvalidOptionError, clip
from ..scoring import Breakdown, Pattern, Payment, PayReason, WinContext
from .actions import CHIS, Action
from .checks import check_players
from .melds import Meld
from .rules import PLAIN_TURNS, Rules, _game_class

FLOWERS = frozenset(range(T.FIRST_FLOWER, T.N_ALL_KINDS))
_MAX_RULES = 1024  # distinct (options, players) a variant keeps Rules for
_LOOKUP: list[Callable[[str], Any]] = []  # the registry's get_variant (mjcore.variants sets it)

if TYPE_CHECKING:
    from ..scoring.context import Win
    from .game import Game


def use_registry(lookup: Callable[[str], Any]) -> None:
    """Let the engine's own public doors that take a variant *name* (``Match("qingdao")``,
    a saved game's ``"variant"``) resolve it through the registry: ``mjcore.variants`` hands
    its ``get_variant`` here when it is imported (the engine never imports the registry)."""
    _LOOKUP[:] = [lookup]


def find_variant(variant: Any) -> Variant:
    """``variant`` itself, or the registered variant of that name (see :func:`use_registry`)."""
    if isinstance(variant, Variant):
        return variant
    if not _LOOKUP:  # (mjcore/__init__ imports the registry: only a bare engine import lands here)
        raise InvalidOptionError(f"no variant registry to resolve {clip(variant)}")
    return _LOOKUP[0](variant)  # type: ignore[no-any-return]


def choice_values(actions: Sequence[Action]) -> Mapping[str, tuple[int, ...]]:
    """``choose`` actions as ``{name: values offered}`` (for :attr:`Variant.offered_choices`)."""
    out: dict[str, tuple[int, ...]] = {}
    for a in actions:
        out[a.name] = (*out.get(a.name, ()), a.value)
    return MappingProxyType(out)


def option(default: Any, choices: tuple | None = None, doc: str = "") -> Any:
    """A room option (勾选项) field: default, allowed values and a one-line doc."""
    return dataclasses.field(default=default, metadata={"choices": choices, "doc": doc})


@dataclasses.dataclass(frozen=True)
class BaseOptions:
    """Options shared by every variant."""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def parse_options(cls: type, given: dict[str, Any] | None) -> Any:
    """Build ``cls`` from a dict, failing loudly on unknown names and bad values."""
    if given is not None and not isinstance(given, dict):
        raise InvalidOptionError(
            f"options must be a dict of option name to value, got {clip(given)}"
        )
    if not given:  # every option at its default (new hands of a simulation)
        default = _DEFAULTS.get(cls)
        if default is None:
            default = _DEFAULTS[cls] = _shared(cls())
        return default
    given = dict(given)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key, value in given.items():
        if key not in fields:
            raise InvalidOptionError(
                f"unknown option {clip(key)}; known options: {', '.join(sorted(fields))}"
            )
        f = fields[key]
        choices = f.metadata.get("choices")
        if isinstance(f.default, bool):
            if not isinstance(value, bool):
                raise InvalidOptionError(f"option {key!r} must be true or false, got {clip(value)}")
        elif choices is None and (isinstance(value, bool) or type(value) is not type(f.default)):
            raise InvalidOptionError(
                f"option {key!r} must be a {type(f.default).__name__}, got {clip(value)}"
            )
        elif choices is not None and (
            isinstance(value, bool)
            or not isinstance(value, type(f.default))
            or value not in choices
        ):
            raise InvalidOptionError(
                f"option {key!r} must be one of {list(choices)}, got {clip(value)}"
            )
    return _shared(cls(**given))


_OPTIONS: dict[Any, Any] = {}  # option sets in use: frozen, so games share one instance
_DEFAULTS: dict[type, Any] = {}  # every option at its default, per options class


def _shared(opts: Any) -> Any:
    """One instance per distinct option set (a few hundred bytes less per live game)."""
    try:
        return _OPTIONS.setdefault(opts, opts) if len(_OPTIONS) < 4096 else opts
    except TypeError:  # an options class that cannot be hashed
        return opts


def _plain_turns(variant: Variant, opts: Any, hooks: set[str]) -> str:
    """Rules.plain_turns_filtered: the variant's answer, checked; "never" without a hook."""
    if "filter_turn" not in hooks:
        return "never"
    when = variant.plain_turns_filtered(opts)
    if when not in PLAIN_TURNS:
        raise ValueError(f"plain_turns_filtered must be one of {PLAIN_TURNS}, got {when!r}")
    return when  # type: ignore[no-any-return]


_GAME_HOOKS = (
    *("after_deal", "hand_choices", "after_choices", "before_turn", "replace_flowers"),
    *("filter_turn", "filter_claims", "after_claim"),
)
"""Hooks a Game asks only of a variant that defines its own (``Rules.own_hooks``)."""


class Variant:
    """Base class of the five variants; defaults describe "no such rule"."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    Options: ClassVar[type] = BaseOptions
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    hand_size: ClassVar[int] = 13
    # 过手胡: "same_kind" (no discard win on that kind until own next action),
    # "any" (no discard win at all until own next discard), or "" (no rule).
    pass_hu_rule: ClassVar[str] = ""
    pass_hu_bigger_ok: ClassVar[bool] = False  # 加番可以胡
    pass_peng_rule: ClassVar[bool] = False  # 过手碰
    # The seat's own steps that end its 过手 locks: a draw from the wall (``"wall"``), a
    # replacement draw after a gang or flower (``"replacement"``), a chi/peng/直杠 (``"claim"``).
    pass_locks_end: ClassVar[frozenset[str]] = frozenset({"wall", "replacement", "claim"})
    seven_pairs: ClassVar[bool] = True
    angang_public: ClassVar[bool] = False  # 暗杠 kind shown to others (宿松 翻开一张)
    # Per-hand choices that lock a choice for the rest of a Match: choosing ``choose K v``
    # where ``choice_locks[K] == N`` sets choice N to v now and in every later hand (长跑).
    choice_locks: ClassVar[dict[str, str]] = {}
    # Every per-hand choice hand_choices may offer, name -> the values offered (build it with
    # choice_values from the shared choice actions): a saved game's kept choices
    # (carry ``locked_choices``) are checked against it.
    offered_choices: ClassVar[Mapping[str, tuple[int, ...]]] = MappingProxyType({})
    # What ``carry`` hands to the next hand of a Match, key -> the values it may take; a given
    # or saved carry with another key or value is rejected (Game checks it).
    carry_values: ClassVar[Mapping[str, tuple[Any, ...]]] = MappingProxyType({})
    # Discard wins are only evaluated for kinds in the seat's shape waits
    # (a cheap cached bitmask); a variant with shape-free wins turns this off.
    waits_prefilter: ClassVar[bool] = True
    # With waits_prefilter off: the kinds a discard (or a robbed gang) may still complete
    # outside the seat's shape waits, as a bitmask (荣成: 风一色/掌一色 only on an honor or a
    # 2/5/8); the engine evaluates a claim win only on the shape waits and these. -1: any kind.
    shapeless_win_kinds: ClassVar[int] = -1
    # Only a seat that has declared (听) wins another's tile, except in the first go-around
    # (地胡): the engine asks no other seat's win on a discard or robbed gang after it (荣成).
    claim_wins_need_declaration: ClassVar[bool] = False
    # Likewise a win on the seat's own draw (自摸, 分张), except in the first go-around (天胡):
    # the engine asks no undeclared seat's self-draw win after it (荣成).
    self_draw_wins_need_declaration: ClassVar[bool] = False
    # Per-hand choices (hand_choices) are made before the tiles are dealt, not after.
    choices_before_deal: ClassVar[bool] = False
    # Situation flags (WinContext.flags) this variant's calculator reads; others are rejected.
    calculator_flags: ClassVar[frozenset[str]] = frozenset()
    # ``jokers`` splits out every held copy of ``game.extra["joker_kind"]`` and nothing else
    # (青岛 混): callers may then ask the core with that kind instead of calling the hook.
    jokers_are_joker_kind: ClassVar[bool] = False
    # A wildcard is only ever the tile just drawn, of kind ``game.extra["joker_kind"]`` (荣成
    # 摸宝): with any other tile drawn no hand holds one, and ``jokers`` need not be asked.
    jokers_only_drawn: ClassVar[bool] = False
    # Holding this many wildcards is complete whatever the shape (青岛 满混: 4); 0: never.
    shape_free_jokers: ClassVar[int] = 0
    # Every scoring pattern the variant can award (built with scoring.context.pattern_table
    # from the data its scorer reads): what ``patterns()`` returns.
    pattern_registry: ClassVar[tuple[Pattern, ...]] = ()
    # Every other part a ``pay`` event's reason can hold (gang scores, 查叫, +cap …): what
    # ``payment_reasons()`` returns (scoring.context has the shared entries).
    payment_registry: ClassVar[tuple[PayReason, ...]] = ()
    # Per-hand choices that are a bet (a payment factor both ways: 跑, 飘, 增, 坐马): a bot
    # raises them with the dealt hand's strength.
    bet_choices: ClassVar[frozenset[str]] = frozenset()
    # The expert bot's weights this variant changes (mjcore/bots/expert.py _DEFAULT_TUNING).
    bot_tuning: ClassVar[Mapping[str, float]] = MappingProxyType({})

    # ---- data hooks -------------------------------------------------------
    def patterns(self) -> tuple[Pattern, ...]:
        """Every scoring pattern this variant can award, in its rules' order: id (as in
        ``Breakdown.ids``), 中文 name, value and its kind, a one-line rule and the English name
        players use (``english``: 清一色 "Full Flush")."""
        return self.pattern_registry

    def pattern(self, pid: str) -> Pattern | None:
        """The registry entry of pattern ``pid``, or None if this variant has no such id."""
        return next((p for p in self.pattern_registry if p.id == pid), None)

    def payment_reasons(self) -> tuple[PayReason, ...]:
        """Every part of a payment reason this variant can write that is not a pattern id:
        id, 中文 name, a one-line rule (``counted``: a count follows the id, ``horses2``)."""
        return self.payment_registry

    def reason_parts(self, reason: str) -> list[tuple[str, str | None]]:
        """A ``pay`` event's reason split at "+" as ``(part, 中文 name)``; the name is None for
        a part neither :meth:`patterns` nor :meth:`payment_reasons` knows. A counted part
        (``horses2``) is named with its count (``中马2``)."""
        out: list[tuple[str, str | None]] = []
        for part in reason.split("+") if reason else []:
            entry = self.pattern(part)
            if entry is not None:
                out.append((part, entry.name))
                continue
            stem = part.rstrip("0123456789")
            pay = next(
                (r for r in self.payment_registry if r.id == (stem if r.counted else part)),
                None,
            )
            ok = pay is not None and (stem != part) == pay.counted
            out.append((part, pay.name + part[len(stem) :] if ok and pay is not None else None))
        return out

    def reason_name(self, reason: str) -> str:
        """A payment reason in 中文: ``"pihu+pao"`` -> ``"屁胡 + 跑"`` (an unknown part as is)."""
        return " + ".join(name or part for part, name in self.reason_parts(reason))

    def tile_kinds(self, opts: Any) -> list[int]:
        """The full tile multiset of a hand (each kind as often as it exists)."""
        raise NotImplementedError

    def flower_kinds(self, opts: Any) -> frozenset[int]:
        """Kinds played as flowers (花牌): set aside and replaced, never claimed, never in a win.

        By default the eight flowers 34–41; a variant may also play ordinary kinds as flowers
        (宿松: 中发白).
        """
        return FLOWERS

    def kept_back(self, opts: Any) -> int:
        """Tiles kept at the tail: never drawn normally, only as replacements."""
        return 0

    def fenzhang(self, opts: Any) -> bool:
        """Whether the last n live tiles are dealt one per seat (分张)."""
        return False

    def gang_limit(self, opts: Any) -> int:
        """Gangs on the table that end the hand (荒庄) after the last replacement; 0 = none."""
        return 0

    def post_win_draws(self, opts: Any) -> int:
        """Tiles drawn from the wall head once, at a hand's first win (抓马 horses); 0 = none."""
        return 0

    def multi_win(self, opts: Any) -> bool:
        """一炮多响: every seat that declares hu on one discard wins."""
        return True

    def chi_allowed(self, opts: Any) -> bool:
        return False

    def loss_cap(self, opts: Any) -> int:
        """Most one seat pays in one hand (封顶); 0 = no cap. Payments are cut in the order made."""
        return 0

    def meld_kinds(self, opts: Any) -> frozenset[str]:
        """Meld kinds a hand of this variant can have (the calculator rejects others)."""
        kinds = {"peng", "zhigang", "bugang", "angang"}
        if self.chi_allowed(opts):
            kinds.add("chi")
        return frozenset(kinds)

    def max_jokers(self, opts: Any) -> int:
        """Most wildcards a hand can hold (混/宝 copies); 0 for a variant without wildcards."""
        return 0

    def shape_flags(self, opts: Any) -> dict[str, bool]:
        """Winning shapes for the core's questions (``seven_pairs``, ``pair258`` …)."""
        return {"seven_pairs": self.seven_pairs}

    def cached_shape_flags(self, opts: Any) -> Mapping[str, bool]:
        """:meth:`shape_flags` for these options, built once and shared (read-only)."""
        return self._facts(opts).shape_flags

    def shape_bits(self, opts: Any) -> int:
        """:meth:`shape_flags` as the core's form-flag bits (from the options' Rules)."""
        return self._facts(opts).shape_bits

    def _facts(self, opts: Any) -> Rules:
        """The Rules of these options at the largest table (for facts that do not depend on
        the player count). The last one asked is kept with its options (compared by identity,
        the options held: no hash of the options dataclass on the hooks' hot path)."""
        last = self.__dict__.get("_last_facts")
        if last is not None and last[0] is opts:
            return last[1]  # type: ignore[no-any-return]
        rules = self.rules(opts, self.max_players)
        self.__dict__["_last_facts"] = (opts, rules)
        return rules

    def table_actions(self, opts: Any, kinds: frozenset[int]) -> list[Action]:
        """The variant's own actions under ``opts`` for the action table, in a fixed order:
        its declarations, the per-hand choices the options switch on, its own moves (扭 …).
        ``kinds``: the concealed kinds of the tile set. By default every offered choice."""
        return [
            Action("choose", name=n, value=v) for n, vs in self.offered_choices.items() for v in vs
        ]

    def declarations(self, opts: Any) -> tuple[str, ...]:
        """The declarations a seat can stand in (``SeatState.declared``) under ``opts``: by
        default the names of the table's ``declare`` actions."""
        kinds = frozenset(range(T.N_KINDS))
        return tuple(a.name for a in self.table_actions(opts, kinds) if a.kind == "declare")

    # ---- what a variant adds to the shared RL observation (mjcore/rl reads them)
    def meld_hua(self, meld: Meld) -> int:
        """A meld's public 花 count (宿松); 0 for a variant without 花."""
        return 0

    def seat_hua(self, st: Any, meld_hua: int) -> int:
        """A seat's public 花 from its set-aside flowers and its melds' 花 (宿松): a function of
        those and the seat's choices only (the RL encoder asks again only when one changes)."""
        return 0

    def seat_relations(self, game: Game) -> list[tuple[int, int]]:
        """Seat pairs in a public relation besides liability (宿松 吃三比)."""
        return []

    def shown_hand(self, st: Any) -> bool:
        """A seat's concealed hand is shown to every seat (荣成 明搂)."""
        return False

    def shown_waits(self, game: Game, st: Any) -> int:
        """The waits (a kind bitmask) a seat shows to every seat (荣成 亮听); 0: none."""
        return 0

    def shape_win(self, counts: np.ndarray, jokers: int, bits: int) -> bool:
        """Whether a concealed hand is complete by shape — a fast necessary condition for a win.

        ``bits``: the game's form-flag bits (``game.shape_bits``, = ``shape_bits(opts)``)."""
        free = self.shape_free_jokers
        return bool(free and jokers >= free) or is_win_bits(counts, jokers, bits)

    def no_discard_after_chi(self, opts: Any, chow: tuple[int, ...], tile: int) -> set[int]:
        """Kinds the seat may not discard right after this chi (吃后不能打 …)."""
        return set()

    # ---- flow hooks -------------------------------------------------------
    def after_deal(self, game: Game) -> None:
        """Indicators (混), flower replacement … right after the deal."""

    def hand_choices(self, game: Game, seat: int) -> list[Action]:
        """Per-hand choices the seat must make before play (``choose pao 1`` …): a new list
        (the engine keeps it as the seat's pending actions). Asked only when the options put
        a ``choose`` action in the table (:meth:`table_actions`)."""
        return []

    def after_choices(self, game: Game) -> None:
        """Called once every seat has made its per-hand choices."""

    def before_turn(self, game: Game, seat: int) -> None:
        """Start of a seat's turn, before its draw (e.g. revealing a hidden 宝)."""

    def replace_flowers(self, game: Game, seat: int) -> bool:
        """Whether the seat sets flowers aside and draws replacements (补花); 飘花 keeps them.
        Asked only when :meth:`flowers_may_be_kept` under the game's options."""
        return True

    def flowers_may_be_kept(self, opts: Any) -> bool:
        """Whether under ``opts`` a variant's own :meth:`replace_flowers` may answer False for
        some seat: when not, the engine replaces every flower without asking (the base hook,
        which always says yes, is never asked: ``Rules.own_hooks``)."""
        return True

    def turns_filtered(self, opts: Any) -> bool:
        """Whether under ``opts`` a variant's own :meth:`filter_turn` may change a turn's
        actions: when not, the engine does not ask it (``Rules.own_hooks``)."""
        return True

    def plain_turns_filtered(self, opts: Any) -> str:
        """When under ``opts`` a variant's own :meth:`filter_turn` may change a plain turn (the
        discards alone: no win or gang offered, no flower held, no discard banned) of a seat
        that has neither declared nor won: ``"always"``, ``"first"`` (before the seat's first
        discard only) or ``"never"``. The engine asks it on those plain turns only
        (``Rules.plain_turns_filtered``): most turns are plain."""
        return "always"

    def plain_claims_filtered(self, opts: Any) -> bool:
        """Whether under ``opts`` a variant's own :meth:`filter_claims` may change a plain
        claim (no gang offered) of a seat that has neither declared nor won: when not, the
        engine asks it on the other claims only (``Rules.plain_claims_filtered``)."""
        return True

    def jokers(self, game: Game, seat: int, counts: np.ndarray) -> tuple[np.ndarray, int]:
        """Split wildcards out of a concealed count vector: (natural counts, jokers).

        ``counts`` is a uint8[34] numpy array or, from the engine's hot path, the seat's own
        ``bytearray``: index it, ``copy()`` it, ``sum()`` it; never change it in place."""
        return counts, 0

    def can_win(self, game: Game, seat: int, tile: int, how: str) -> bool:
        """Restrictions beyond the shape (self-draw only, 过胡 …); shape is checked by score."""
        return True

    def win_flags(self, game: Game, seat: int, tile: int, how: str) -> set[str]:
        """Situation facts for the calculator (``tianhu``, ``haidi`` …)."""
        return set()

    def score(self, ctx: WinContext, opts: Any) -> Breakdown | None:
        """The hand calculator: the breakdown of a described win, or None if it is no win."""
        raise NotImplementedError

    def check_win(self, ctx: WinContext, opts: Any) -> None:
        """Raise InvalidHandError unless ``ctx`` is a win this variant may score: a description
        that can happen here (:meth:`check_description`) of a win no rule forbids
        (:meth:`win_refusal`, the reason naming the rule)."""
        self.check_description(ctx, opts)
        reason = self.win_refusal(ctx, opts)
        if reason:
            raise InvalidHandError(reason)

    def check_description(self, ctx: WinContext, opts: Any) -> None:
        """Raise InvalidHandError, naming the field, unless ``ctx`` can happen in this variant.

        The shared checks: tiles of the variant's set and none of its flowers in the hand, a
        flower area of its flowers, its meld kinds, 14 tiles in all, wildcards only where the
        variant has them, situation flags it knows and that fit how the win happened. A
        variant extends this (calling ``super()``) for its own rules.
        """
        ctx.validate()
        check_tile_set(ctx, self.tile_kinds(opts), self.name)
        self.check_tiles(T.from_counts(ctx.concealed), opts, "concealed")
        self.check_tiles([t for m in ctx.melds for t in m.tiles], opts, "melds")
        self._check_flower_area(ctx, opts)
        kinds = self.meld_kinds(opts)
        for m in ctx.melds:
            if m.kind not in kinds:
                raise InvalidHandError(
                    f"melds: {self.name} has no {m.kind} melds (it has {', '.join(sorted(kinds))})"
                )
        if len(ctx.melds) > 4:
            raise InvalidHandError(f"melds: at most 4, got {len(ctx.melds)}")
        total = int(ctx.concealed.sum()) + ctx.jokers + 3 * len(ctx.melds)
        if total != self.hand_size + 1:
            raise InvalidHandError(
                f"concealed: a win has {self.hand_size + 1} tiles (each meld counting 3), "
                f"got {total}"
            )
        if ctx.jokers > self.max_jokers(opts):
            raise InvalidHandError(
                f"jokers: {self.name} allows at most {self.max_jokers(opts)} here, got {ctx.jokers}"
            )
        unknown = ctx.flags - self.calculator_flags
        if unknown:
            known = ", ".join(sorted(self.calculator_flags)) or "none"
            raise InvalidHandError(f"flags: unknown {sorted(unknown)} (known: {known})")
        check_situation(ctx)

    def check_tiles(self, kinds: Sequence[int], opts: Any, field: str = "tiles") -> None:
        """Raise InvalidHandError, naming the field, the tile and the variant, unless every tile
        of a hand is of this variant's tile set and none is one of its flowers (set aside)."""
        have = Counter(self.tile_kinds(opts))
        flowers = self.flower_kinds(opts)
        for k, n in sorted(Counter(kinds).items()):
            if n > have[k]:
                where = "is not in" if not have[k] else f"has only {have[k]} of it in"
                raise InvalidHandError(
                    f"{field}: {T.NOTATION[k]} ({T.name(k)}) {where} {self.name}'s tile set"
                )
            if k in flowers:
                raise InvalidHandError(
                    f"{field}: {T.NOTATION[k]} ({T.name(k)}) is a flower in {self.name}: set "
                    "aside, never in a winning hand"
                )

    def _check_flower_area(self, ctx: WinContext, opts: Any) -> None:
        flowers = self.flower_kinds(opts) & set(self.tile_kinds(opts))
        for k in ctx.flowers:
            if k not in flowers:
                has = T.format(sorted(flowers)) if flowers else "none"
                raise InvalidHandError(
                    f"flowers: {T.NOTATION[k]} ({T.name(k)}) is not a flower in {self.name} "
                    f"(its flowers: {has})"
                )

    def win_refusal(self, ctx: WinContext, opts: Any) -> str:
        """Why the rules forbid this described win, naming the rule ('' if none does).

        Only facts the description carries (how, jokers, flags, options): what the game alone
        knows (过手 locks, 封胡, a 听 declaration …) is the caller's to check; see
        docs/vocabulary.md. The same rule as :meth:`can_win` where the game asks it."""
        return ""

    def no_win_reason(self, ctx: WinContext, opts: Any) -> str:
        """Why :meth:`score` finds no win in a checked description (the rule its tiles miss)."""
        flags = self.shape_flags(opts)
        if misses_only_the_258_pair(ctx, flags):
            return "258将: the pair must be a suited 2/5/8"
        shapes = ["4 sets and a pair"] + [name for key, name in _SHAPES if flags.get(key)]
        return f"no winning shape: the concealed tiles form none of {', '.join(shapes)}"

    def win_payments(self, game: Game, win: Win) -> list[Payment]:
        """Who pays whom for a win (the breakdown is already computed)."""
        raise NotImplementedError

    def gang_payments(self, game: Game, seat: int, meld: Meld, chain: int) -> list[Payment]:
        """Payments settled the moment a gang is made (chain = its place in a 杠上杠 chain)."""
        return []

    def filter_claims(self, game: Game, seat: int, actions: list[Action]) -> list[Action]:
        """Restrict/extend a seat's reaction to a discard (the engine's list includes pass)."""
        return actions

    def filter_turn(self, game: Game, seat: int, actions: tuple[Action, ...]) -> Sequence[Action]:
        """Restrict/extend the current seat's actions on its own turn: ``actions`` is the
        engine's tuple, returned as it is (most turns) or as a new list or tuple.

        The engine lists them in a fixed order — the win (if offered), then the gangs, then
        the discards — so a hook may tell from the first action that no gang is offered.
        Declarations (``declare`` actions) go after every other action: bots look for them
        at the end of the legal list only."""
        return actions

    def after_claim(self, game: Game, seat: int, meld: Meld) -> None:
        """A chi, peng or 直杠 was just made (before a 直杠's replacement draw); e.g. to record
        a declined gang, or to count claims per seat pair (三比 → ``game.bind`` / ``game.seal``)."""

    def on_declare(self, game: Game, seat: int, action: Action) -> None:
        """A ``declare …`` or ``niu …`` action on the seat's turn."""

    def after_wins(self, game: Game, wins: list[Win]) -> int | None:
        """Seat that draws next if the hand continues after these wins (血战), else None."""
        return None

    def settle_end(self, game: Game) -> list[Payment]:
        """Payments when the hand ends (查叫, gang scores …)."""
        return []

    def first_dealer(self, opts: Any, creator: int) -> int:
        """Dealer of a room's first hand; by default the room creator's seat."""
        return creator

    def next_dealer(self, game: Game) -> int:
        raise NotImplementedError

    def bot_choice(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """The variant's documented rule for a bot's per-hand ``choose`` (None: the neutral one)."""
        return None

    def public_state(self, game: Game) -> dict[str, Any]:
        """Variant facts every seat may see (混 kind, revealed 宝 …) for views."""
        return {}

    def carry(self, game: Game) -> dict[str, Any]:
        """State handed to the next hand of a Match (e.g. 荒庄翻倍)."""
        return {}

    def hand_counters(self, game: Game) -> dict[str, int]:
        """Extra per-hand counts for simulation statistics (summed over a run into
        ``SimStats.hand_counters``), e.g. how often a variant rule fired in a finished hand."""
        return {}

    # ---- entry points -----------------------------------------------------
    def parse_options(self, options: dict[str, Any] | None) -> Any:
        if isinstance(options, self.Options):  # already parsed (frozen: shared as is)
            return options
        return parse_options(self.Options, options)

    def rules(self, options: Any = None, players: int = 4) -> Rules:
        """This variant under ``options`` (a dict, None for the defaults, or parsed options)
        for ``players`` seats: the one :class:`~mjcore.engine.rules.Rules` of that option set
        (built on first use, then shared). Bad options or players raise InvalidOptionError."""
        if options is None:  # the defaults (a simulation's hands)
            found = _built_defaults(self, players)
            if found is not None:
                return found
        opts = self.parse_options(options)
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            players = check_players(players, self.min_players, self.max_players, self.name)
        if opts == self.parse_options(None):  # the defaults: kept apart, never dropped
            defaults = self.__dict__.setdefault("_default_rules", {})
            found = defaults.get(players)
            if found is None:
                found = defaults[players] = self._build_rules(opts, players)
            return found  # type: ignore[no-any-return]
        cache = self.__dict__.get("_rules")
        if cache is None:
            cache = self.__dict__["_rules"] = {}
        key = (opts, players)
        try:
            found = cache.get(key)
        except TypeError:  # an options class that cannot be hashed
            return self._build_rules(opts, players)
        if found is None:
            found = self._build_rules(opts, players)
            if len(cache) >= _MAX_RULES:  # the oldest option set goes: the newest are shared
                del cache[next(iter(cache))]
            cache[key] = found
        return found  # type: ignore[no-any-return]

    def _build_rules(self, opts: Any, players: int) -> Rules:
        """Every per-options fact, asked of the hooks once."""
        tile_set = bytes(self.tile_kinds(opts))
        copies = [0] * T.N_ALL_KINDS
        for t in tile_set:
            copies[t] += 1
        flowers = frozenset(self.flower_kinds(opts))
        is_flower = tuple(t in flowers for t in range(T.N_ALL_KINDS))
        flags = self.shape_flags(opts)
        cls = type(self)
        plain = cls.jokers is Variant.jokers
        kind = self.jokers_are_joker_kind
        free = -1
        if cls.shape_win is Variant.shape_win and (plain or kind):
            free = self.shape_free_jokers
        kinds = frozenset(t for t in set(tile_set) if t < T.N_KINDS and t not in flowers)
        table = tuple(self.table_actions(opts, kinds))
        hooks = {h for h in _GAME_HOOKS if getattr(cls, h) is not getattr(Variant, h)}
        if not any(a.kind == "choose" for a in table):  # the options switch every choice off
            hooks.discard("hand_choices")
        if not self.flowers_may_be_kept(opts):
            hooks.discard("replace_flowers")
        if not self.turns_filtered(opts):
            hooks.discard("filter_turn")
        return Rules(
            variant=self,
            opts=opts,
            players=players,
            tile_set=tile_set,
            copies=tuple(copies),
            flowers=flowers,
            is_flower=is_flower,
            shape_flags=MappingProxyType(dict(flags)),
            shape_bits=form_flags(**flags),
            kept_back=self.kept_back(opts),
            fenzhang=self.fenzhang(opts),
            gang_limit=self.gang_limit(opts),
            multi_win=self.multi_win(opts),
            chi=self.chi_allowed(opts),
            loss_cap=self.loss_cap(opts),
            post_win_draws=self.post_win_draws(opts),
            meld_kinds=frozenset(self.meld_kinds(opts)),
            max_jokers=self.max_jokers(opts),
            plain_jokers=plain,
            kind_jokers=kind,
            drawn_jokers=self.jokers_only_drawn,
            free_jokers=free,
            variant_actions=table,
            declarations=tuple(self.declarations(opts)),
            own_hooks=frozenset(hooks),
            plain_turns_filtered=_plain_turns(self, opts, hooks),
            plain_claims_filtered="filter_claims" in hooks and self.plain_claims_filtered(opts),
            chi_bans=tuple(
                T.kinds_mask(self.no_discard_after_chi(opts, CHIS[low].tiles, low + i))
                if low in CHIS
                else 0
                for low in range(27)
                for i in range(3)
            ),
        )

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_rules", None)  # (rebuilt on demand in the copy)
        state.pop("_default_rules", None)
        state.pop("_last_facts", None)
        return state

    def option_docs(self) -> dict[str, str]:
        return {f.name: f.metadata.get("doc", "") for f in dataclasses.fields(self.Options)}

    def new_game(
        self,
        players: int = 4,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        wall: Any = None,
        dealer: int = 0,
        carry: dict[str, Any] | None = None,
    ) -> Game:
        """A new hand; ``wall`` fixes every tile (dealer takes the first 14)."""
        rules = _built_defaults(self, players) if options is None else None
        if rules is None:
            rules = self.rules(options, players)  # (= rules.new_game: the Game made here)
        return _game_class()(rules, rules.players, None, seed, wall, dealer, carry)

    def calculate(
        self, ctx: WinContext | dict | str, options: dict[str, Any] | None = None
    ) -> Breakdown | None:
        """Hand calculator without a game; ``ctx`` may be the JSON form.

        None if the tiles are no win here (:meth:`why_not_win` says why); InvalidHandError if
        the description cannot happen in this variant or a rule forbids the win it describes."""
        ctx = self._context(ctx)
        opts = self.parse_options(options)
        self.check_win(ctx, opts)
        return self.score(ctx, opts)

    def why_not_win(
        self, ctx: WinContext | dict | str, options: dict[str, Any] | None = None
    ) -> str:
        """Why :meth:`calculate` scores no win here: the rule that forbids it or the one its
        tiles miss ('' if it is a win). An impossible description raises as in calculate."""
        ctx = self._context(ctx)
        opts = self.parse_options(options)
        self.check_description(ctx, opts)
        reason = self.win_refusal(ctx, opts)
        if reason or self.score(ctx, opts) is not None:
            return reason
        return self.no_win_reason(ctx, opts)

    def _context(self, ctx: WinContext | dict | str) -> WinContext:
        """The JSON form read into a WinContext; an error names this variant."""
        if isinstance(ctx, WinContext):
            return ctx
        try:
            return WinContext.from_json(ctx)
        except InvalidHandError as exc:
            raise InvalidHandError(f"{self.name}: {exc}") from None

    def __repr__(self) -> str:
        return f"<variant {self.name} {self.title}>"


_SHAPES = (("seven_pairs", "七对"), ("thirteen_orphans", "十三幺"), ("knitted", "十三不靠"))


def misses_only_the_258_pair(ctx: WinContext, flags: Mapping[str, bool]) -> bool:
    """The concealed tiles win by shape once the 2/5/8-pair rule is lifted, and not with it."""
    if not flags.get("pair258"):
        return False
    loose = form_flags(**{**flags, "pair258": False})
    return bool(is_win_bits(ctx.concealed, ctx.jokers, loose)) and not is_win_bits(
        ctx.concealed, ctx.jokers, form_flags(**flags)
    )


def check_tile_set(ctx: WinContext, tile_set: list[int], name: str = "this variant") -> None:
    """Every tile of the described win, its flower area and the wildcards' kind exists often
    enough in the variant ``name``'s tile set (the error names the field that goes over)."""
    have = Counter(tile_set)
    used: Counter = Counter()
    fields = (
        ("concealed", T.from_counts(ctx.concealed)),
        ("melds", [t for m in ctx.melds for t in m.tiles]),
        ("flowers", list(ctx.flowers)),
        ("joker_kind", [ctx.joker_kind] * ctx.jokers if ctx.joker_kind >= 0 else []),
    )
    for field, kinds in fields:
        used.update(kinds)
        for kind in sorted(set(kinds)):
            if used[kind] > have[kind]:
                where = "is not in" if not have[kind] else f"has only {have[kind]} of it in"
                raise InvalidHandError(
                    f"tiles: {T.NOTATION[kind]} ({T.name(kind)}, in {field}) {where} "
                    f"{name}'s tile set"
                )


_CLAIMED = ("chi", "peng", "zhigang", "bugang")


def check_situation(ctx: WinContext) -> None:
    """Shared consistency of ``how``, gang counters and the 天胡/地胡 flags."""
    gangs = sum(m.is_gang for m in ctx.melds)
    if ctx.gang_chain:
        if not ctx.is_self_draw:
            raise InvalidHandError("gang_chain: 杠上花 is a self-draw; how must be self_draw")
        if ctx.gang_chain > gangs:
            raise InvalidHandError(
                f"gang_chain: {ctx.gang_chain} chained gangs but the hand shows {gangs} gang(s)"
            )
    if ctx.after_gang:
        if ctx.how != "discard":
            raise InvalidHandError("after_gang: 杠上炮 is a discard win; how must be discard")
        if ctx.after_gang > 4:
            raise InvalidHandError(f"after_gang: at most 4 chained gangs, got {ctx.after_gang}")
    if "tianhu" in ctx.flags and not ctx.is_self_draw:
        raise InvalidHandError("flags: tianhu (天胡) is a self-draw; how must be self_draw")
    for flag in ("tianhu", "dihu"):
        if flag in ctx.flags and any(m.kind in _CLAIMED for m in ctx.melds):
            raise InvalidHandError(f"flags: {flag} cannot follow a claimed meld")
    if "tianhu" in ctx.flags and "dihu" in ctx.flags:
        raise InvalidHandError("flags: tianhu and dihu exclude each other")


def _built_defaults(variant: Variant, players: Any) -> Rules | None:
    """The variant's shared Rules of its default options for ``players`` seats, if already
    built (Variant.rules builds them): a new hand's one lookup (typed when compiled)."""
    if type(players) is not int:
        return None
    attrs = variant.__dict__
    defaults = attrs.get("_default_rules")
    return None if defaults is None else defaults.get(players)
