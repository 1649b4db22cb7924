"""Rules: one variant under one option set for N seats, resolved once and handed down.

A :class:`Rules` is what every door of the library (a :class:`~mjcore.engine.game.Game`, a
:class:`~mjcore.engine.match.Match`, a server room, a simulation job, an RL env, a bot) needs
to know about "the game being played": the variant, its parsed options, the player count and
every fact that follows from them (the tile set, the flowers, the winning shapes, the action
table …). ``variant.rules(options, players)`` builds it once per distinct option set; below the
public edge nothing parses a name or an options dict again (OpenSpiel's Game, RiichiEnv's
GameRule).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from .. import tiles as T
from ..errors import IllegalActionError, clip
from .actions import CHIS, DISCARDS, GANGS, HU, PASS, PENG, Action, legal_text, parse_action

if TYPE_CHECKING:
    from .game import Game
    from .variant import Variant

_ENGINE_SHARED = (*DISCARDS, *GANGS, *CHIS.values(), HU, PASS, PENG)
"""The engine's shared action objects (module constants: alive as long as the process)."""


@cache
def _game_class() -> type[Game]:
    """The Game class, imported once on first use (game.py imports this module; an import
    statement in new_game would run for every hand)."""
    from .game import Game

    return Game


PLAIN_TURNS = ("never", "first", "always")
"""``Rules.plain_turns_filtered``'s values, fewest plain turns asked first."""


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Rules:
    """A variant under its options for ``players`` seats: frozen, hashable, shared.

    Make it with ``variant.rules(options=None, players=4)`` (one instance per distinct option
    set and player count). The fields after ``players`` are facts derived once from the three
    (read them instead of asking the variant's per-options hooks again)."""

    variant: Variant
    opts: Any
    players: int
    tile_set: bytes
    """The full tile multiset, a byte a tile, in the order a shuffle starts from."""
    copies: tuple[int, ...]
    """Copies of each kind 0..41 in the tile set."""
    flowers: frozenset[int]
    """Kinds played as flowers (花牌)."""
    is_flower: tuple[bool, ...]
    """``is_flower[t]``: kind t is a flower under these rules (42 entries)."""
    shape_flags: Mapping[str, bool]
    """Winning shapes for the core's questions (read-only)."""
    shape_bits: int
    """:attr:`shape_flags` as the core's form-flag bits."""
    kept_back: int
    fenzhang: bool
    gang_limit: int
    multi_win: bool
    chi: bool
    loss_cap: int
    post_win_draws: int
    meld_kinds: frozenset[str]
    max_jokers: int
    plain_jokers: bool
    """The variant has no wildcards (it keeps ``Variant.jokers``)."""
    kind_jokers: bool
    """Every copy of ``game.extra["joker_kind"]`` is a wildcard (青岛 混)."""
    drawn_jokers: bool
    """A wildcard is only ever a just-drawn tile of ``game.extra["joker_kind"]`` (荣成 摸宝)."""
    free_jokers: int
    """``shape_free_jokers`` when the engine may ask the shape itself, else −1 (the hook)."""
    variant_actions: tuple[Action, ...]
    """The variant's own actions under these options (declarations, choices, 扭 groups)."""
    declarations: tuple[str, ...]
    """The declarations a seat can stand in (``SeatState.declared``)."""
    own_hooks: frozenset[str]
    """Which of the game's set-up and turn hooks (``after_deal``, ``hand_choices``,
    ``after_choices``, ``before_turn``, ``replace_flowers``, ``filter_turn``,
    ``filter_claims``, ``after_claim``) the variant defines itself: the engine asks only those
    (the base ones do nothing, say yes, or return the actions as they are). ``hand_choices``
    only when :attr:`variant_actions` holds a ``choose`` action: a choice not in the table
    could not be offered (宿松 without 飘 or 增); ``replace_flowers`` only when
    ``Variant.flowers_may_be_kept`` (宿松 without 飘花: every flower is replaced)."""
    plain_turns_filtered: str
    """On which plain turns (the discards alone) of a seat that has neither declared nor won
    the variant's own ``filter_turn`` is asked: ``"always"``, ``"first"`` (before the seat's
    first discard) or ``"never"`` (``Variant.plain_turns_filtered``)."""
    plain_claims_filtered: bool
    """Whether the variant's own ``filter_claims`` is asked on a plain claim (no gang offered)
    of a seat that has neither declared nor won (``Variant.plain_claims_filtered``)."""
    chi_bans: tuple[int, ...]
    """``chi_bans[3 * low + tile - low]``: the kinds (a bitmask) a seat may not discard right
    after chowing ``low, low+1, low+2`` on ``tile`` (吃后不能打: ``no_discard_after_chi``)."""

    def __post_init__(self) -> None:
        variant = self.variant
        # What every Game under these rules copies into its typed fields, read in one go
        # (two dozen attribute reads a new hand otherwise): see Game.__init__ for each one.
        engine = (
            self.is_flower,
            self.shape_bits,
            self.plain_jokers,
            self.kind_jokers,
            self.drawn_jokers,
            self.free_jokers,
            variant.waits_prefilter,
            0 if variant.waits_prefilter else variant.shapeless_win_kinds,
            variant.claim_wins_need_declaration,
            variant.self_draw_wins_need_declaration,
            variant.pass_locks_end,
            self.chi_bans if self.chi else (),  # (empty: no chi under these rules)
            "before_turn" in self.own_hooks,
            "replace_flowers" in self.own_hooks,
            self.gang_limit,
            self.multi_win,
            bool(variant.pass_peng_rule),
            self.kept_back,
            variant,
            self.opts,
            sum(1 << t for t, flower in enumerate(self.is_flower) if flower),
            variant.hand_size,
            variant.choices_before_deal,
            "after_deal" in self.own_hooks,
            "hand_choices" in self.own_hooks,
            "after_choices" in self.own_hooks,
            self.fenzhang,
            # the hooks asked at every turn and claim, bound once (no method lookup a step)
            variant.filter_turn if "filter_turn" in self.own_hooks else None,
            variant.filter_claims if "filter_claims" in self.own_hooks else None,
            variant.before_turn,
            PLAIN_TURNS.index(self.plain_turns_filtered),  # 0 never, 1 first, 2 always
            self.plain_claims_filtered,
            variant.after_claim if "after_claim" in self.own_hooks else None,
        )
        object.__setattr__(self, "_engine", engine)

    @property
    def name(self) -> str:
        """The variant's name."""
        return self.variant.name

    @property
    def tile_kinds(self) -> list[int]:
        """The tile set as a list of kinds (a new list)."""
        return list(self.tile_set)

    @property
    def actions(self) -> ActionTable:
        """Every action this variant can offer under these options, each with its fixed index."""
        table = self.__dict__.get("_table")
        if table is None:
            table = ActionTable(self)
            object.__setattr__(self, "_table", table)
        return table

    @property
    def options(self) -> dict[str, Any]:
        """The options as a plain dict (a new dict; the form is built once)."""
        plain = self.__dict__.get("_options")
        if plain is None:
            plain = self.opts.to_dict()
            object.__setattr__(self, "_options", plain)
        return dict(plain)

    def to_dict(self) -> dict[str, Any]:
        """``{"variant": name, "players": n, "options": {...}}`` (JSON-ready)."""
        return {"variant": self.variant.name, "players": self.players, "options": self.options}

    def new_game(
        self,
        seed: int | None = None,
        wall: Any = None,
        dealer: int = 0,
        carry: dict[str, Any] | None = None,
    ) -> Game:
        """A new hand under these rules; ``wall`` fixes every tile (dealer takes the first 14)."""
        return _game_class()(self, self.players, None, seed, wall, dealer, carry)  # (positional)

    def with_players(self, players: int) -> Rules:
        """The same variant and options for another player count."""
        return self.variant.rules(self.opts, players)

    def __hash__(self) -> int:
        h = self.__dict__.get("_hash")
        if h is None:  # (hashing the options runs Python code per field: once)
            h = hash((self.variant.name, self.opts, self.players))
            object.__setattr__(self, "_hash", h)
        return h  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Rules):
            return NotImplemented
        # (a variant pickled to another process is another object of the same class)
        return (
            type(self.variant) is type(other.variant)
            and self.variant.name == other.variant.name
            and self.players == other.players
            and self.opts == other.opts
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rules_of, (self.variant, self.opts, self.players))

    def __repr__(self) -> str:
        changed = {
            f.name: getattr(self.opts, f.name)
            for f in dataclasses.fields(self.opts)
            if getattr(self.opts, f.name) != f.default
        }
        opts = f" {changed}" if changed else ""
        return f"<Rules {self.variant.name} {self.players}p{opts}>"


def _rules_of(variant: Variant, opts: Any, players: int) -> Rules:
    """Unpickling: the shared Rules of ``variant`` (a copy in another process) for these."""
    return variant.rules(opts, players)


class ActionTable(Sequence[str]):
    """Every action a variant can offer under its options, by index (a sequence of texts).

    * ``discard T`` for every kind of the tile set (flowers included: a seat holding a flower
      it may not set aside — 宿松 飘, or an empty tail — discards it);
    * ``chi …`` for every chow of the tile set when the options allow chi;
    * ``peng``; ``gang T`` for every non-flower kind of the tile set; ``hu``; ``pass``;
    * the variant's own actions (``Variant.table_actions``): its declarations, the per-hand
      choices its options switch on, its 扭 groups …

    ``table[i]`` is the text of action ``i``; :meth:`encode` / :meth:`decode` convert between
    an index and an :class:`~mjcore.engine.actions.Action`; :meth:`fill_mask` writes the legal
    set of a seat into an int8 mask."""

    def __init__(self, rules: Rules | Variant, options: dict[str, Any] | None = None) -> None:
        if not isinstance(rules, Rules):  # (the old signature: a variant and its options)
            rules = rules.rules(options)
        self.rules = rules
        self.variant = rules.variant
        self.opts = rules.opts
        tile_set = set(rules.tile_set)
        plain = plain_kinds(rules)
        acts: list[Action] = [DISCARDS[t] for t in sorted(tile_set)]
        if rules.chi:
            acts += [c for low, c in CHIS.items() if set(c.tiles) <= plain]
        acts += [PENG]
        acts += [GANGS[t] for t in sorted(plain)]
        acts += [HU, PASS]
        acts += rules.variant_actions
        self.actions: tuple[Action, ...] = tuple(acts)
        self.texts: tuple[str, ...] = tuple(str(a) for a in acts)
        self.by_action: dict[Action, int] = {a: i for i, a in enumerate(acts)}
        shared = {id(a): a for a in _ENGINE_SHARED}
        # by identity for the engine's shared objects (module constants, alive as long as the
        # process: an id is never reused): no hash of a dataclass per lookup
        self._by_id: dict[int, int] = {
            id(a): i for i, a in enumerate(acts) if shared.get(id(a)) is a
        }
        self.discard_index = np.full(T.N_ALL_KINDS, -1, dtype=np.int64)
        for t in tile_set:
            self.discard_index[t] = self.by_action[DISCARDS[t]]

    def __len__(self) -> int:
        return len(self.actions)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        return self.texts[i]

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts)

    def __repr__(self) -> str:
        return f"<ActionTable {self.variant.name} {len(self)} actions>"

    def encode(self, action: Action | str, legal: Sequence[Action] | None = None) -> int:
        """The index of ``action`` (an Action or its text); IllegalActionError if it has none.

        ``legal`` (the seat's legal actions, when known) is listed in the error of a malformed
        text, as the engine and the server do."""
        i = self._by_id.get(id(action))
        if i is not None:
            return i
        if not isinstance(action, Action):
            action = Action.parse(action) if legal is None else parse_action(action, legal)
        i = self.by_action.get(action)
        if i is None:
            raise IllegalActionError(
                f"{action} is not in the {self.variant.name} action table under these options"
            )
        return i

    def decode(self, index: Any, legal: Sequence[Action] | None = None) -> Action:
        """The action of ``index`` (an int 0..len-1, or an action's text such as
        ``"discard 5m"``); ``legal``, when given, is listed in the error of a bad one."""
        if isinstance(index, str):
            return self.actions[self.encode(index, legal)]
        tail = "" if legal is None else f"; {legal_text(legal)}"
        try:
            i = int(index)
        except (TypeError, ValueError):
            raise IllegalActionError(
                f"an action is an index (int) or its text, got {clip(index)}{tail}"
            ) from None
        if not 0 <= i < len(self.actions) or i != index:
            raise IllegalActionError(
                f"action index must be 0..{len(self) - 1}, got {clip(index)}{tail}"
            )
        return self.actions[i]

    def fill_mask(self, legal: Sequence[Action], out: np.ndarray) -> None:
        """Set ``out[i] = 1`` for every legal action (``out`` is zeroed by the caller)."""
        by_id = self._by_id
        for a in legal:
            i = by_id.get(id(a))
            if i is None:
                i = self.encode(a)
            out[i] = 1


def plain_kinds(rules: Rules) -> frozenset[int]:
    """The concealed kinds (< 34) of the tile set that are not flowers: what can be held,
    claimed or ganged."""
    return frozenset(t for t in set(rules.tile_set) if t < T.N_KINDS and not rules.is_flower[t])
