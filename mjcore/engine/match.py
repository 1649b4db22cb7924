"""Match: a room's series of hands (dealer rotation, carried state, cumulative scores)."""

from __future__ import annotations

import json
from typing import Any

from .._prng import generate_state
from ..errors import IllegalActionError, InvalidOptionError, InvalidStateError, clip
from .checks import as_int, check_seat
from .game import Game
from .rules import Rules
from .saved import SAVE_FORMAT, check_saved_format, check_saved_keys, load_saved
from .variant import Variant, find_variant


class Match:
    """A series of hands of one variant at one table.

    Each hand's dealer is the previous hand's ``game.next_dealer`` (the variant's rule;
    血战: whoever drew the last tile) and its ``carry`` is ``game.next_carry()``. Hand
    ``i`` is shuffled from ``SeedSequence(seed, spawn_key=(i,))``, so a match is fully
    determined by (variant, players, options, seed, first_dealer) and the actions.
    """

    def __init__(
        self,
        variant: str | Variant | Rules,
        players: int = 4,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        first_dealer: int = 0,
    ) -> None:
        if isinstance(variant, Rules):
            rules = variant
            if options is not None or players not in (4, rules.players):
                raise InvalidOptionError(
                    "a Match of a Rules takes its players and options from it; "
                    f"got players={clip(players)}, options={clip(options)}"
                )
        else:  # the public edge of a name and an options dict: resolved once, here
            rules = find_variant(variant).rules(options, players)
        seed = as_int(seed, "match seed")
        if seed < 0:
            raise InvalidOptionError(f"match seed must be a non-negative integer, got {seed}")
        first_dealer = check_seat(first_dealer, rules.players, "first_dealer", InvalidOptionError)
        self.rules = rules
        self.variant = rules.variant
        self.players = rules.players
        self._options = rules.options
        self.seed = seed
        self.first_dealer = first_dealer
        self._hands: list[Game] = []

    @property
    def options(self) -> dict[str, Any]:
        """The room options every hand is played with (a new dict: changing it changes nothing)."""
        return dict(self._options)

    @property
    def hands(self) -> list[Game]:
        """Every hand dealt so far, in order (a new list; the games themselves are live)."""
        return list(self._hands)

    @property
    def current(self) -> Game | None:
        """The latest hand (finished or not), or None before the first."""
        return self._hands[-1] if self._hands else None

    def hand_seed(self, index: int) -> int:
        """The wall seed of hand ``index``."""
        return generate_state(self.seed, (index,), 1)[0]  # = SeedSequence(...).generate_state(1)

    def new_hand(self, wall: Any = None) -> Game:
        """Start the next hand; the previous one must be over.

        ``wall``: the hand's whole wall in dealing order (tile kinds or tile text, e.g. a
        recorded hand's ``game.wall.tiles``) instead of the shuffle of :meth:`hand_seed` — to
        replay a real match hand by hand or script one. The dealer and the carried state
        (跑/飘/长跑, 荒庄翻倍 …) still come from the match's rules. A wall that is not the
        variant's tile set raises InvalidWallError and deals nothing. Such a hand has no seed
        (``game.seed is None``); :meth:`to_json` keeps its wall.
        """
        prev = self.current
        if prev is not None and not prev.is_over:
            raise IllegalActionError(
                f"hand {len(self._hands) - 1} is not over yet; finish it before a new hand"
            )
        dealer, carry = self._next_setup(prev)
        game = self.rules.new_game(
            seed=self.hand_seed(len(self._hands)) if wall is None else None,
            wall=wall,
            dealer=dealer,
            carry=carry,
        )
        self._hands.append(game)
        return game

    def _next_setup(self, prev: Game | None) -> tuple[int, dict[str, Any]]:
        """Dealer and carried state of the hand after ``prev`` (the first hand: None)."""
        if prev is None:
            return self.variant.first_dealer(self.rules.opts, self.first_dealer), {}
        return prev.next_dealer, prev.next_carry()

    @property
    def scores(self) -> list[int]:
        """Cumulative net scores over every hand (the current one as settled so far)."""
        total = [0] * self.players
        for game in self._hands:
            for seat, s in enumerate(game.scores):
                total[seat] += s
        return total

    @property
    def dealers(self) -> list[int]:
        """The dealer of each hand so far."""
        return [g.dealer for g in self._hands]

    def to_json(self) -> str:
        """Exact, restorable state of the match (every hand's own ``to_json``)."""
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "variant": self.variant.name,
                "players": self.players,
                "options": self._options,
                "seed": self.seed,
                "first_dealer": self.first_dealer,
                "hands": [g.to_dict() for g in self._hands],
            }
        )

    @staticmethod
    def from_json(text: str | bytes) -> Match:
        """Restore a match saved by :meth:`to_json`.

        The saved hands must be exactly the hands this match would have dealt: each hand's
        seed, wall, dealer, carry, variant and options are checked against the match (a hand
        dealt from a given wall, seed null, keeps its wall), and every hand but the last is
        finished. Anything else raises InvalidStateError.
        """
        data = load_saved(text)
        keys = ("format", "variant", "players", "options", "seed", "first_dealer", "hands")
        check_saved_keys(data, keys, "saved match")
        check_saved_format(data["format"], "saved match")
        if not isinstance(data["hands"], list):
            raise InvalidStateError("saved match field 'hands' must be a list")
        try:
            match = Match(
                data["variant"],
                players=data["players"],
                options=data["options"],
                seed=data["seed"],
                first_dealer=data["first_dealer"],
            )
        except ValueError as exc:
            raise InvalidStateError(f"saved match: {exc}") from None
        for i, saved in enumerate(data["hands"]):
            match._hands.append(match._restore_hand(i, saved))
        return match

    def _restore_hand(self, index: int, saved: Any) -> Game:
        """Replay saved hand ``index`` after checking it is the hand this match deals next."""
        prev = self.current
        if prev is not None and not prev.is_over:
            raise InvalidStateError(f"saved match: hand {index - 1} is not finished")
        game = Game.from_dict(saved)
        dealer, carry = self._next_setup(prev)
        expected = {
            "variant": self.variant.name,
            "players": self.players,
            "options": self._options,
            "seed": self.hand_seed(index),
            "dealer": dealer,
            "carry": carry,
        }
        got = game.to_dict()
        scripted = got["seed"] is None  # dealt from a given wall (new_hand(wall=...)): kept
        if scripted:
            del expected["seed"]
        for key, value in expected.items():
            if got[key] != value:
                raise InvalidStateError(
                    f"saved match: hand {index} has {key} {clip(got[key])}, expected {clip(value)}"
                )
        if not scripted:
            fresh = self.rules.new_game(self.hand_seed(index))
            if game.wall.tiles != fresh.wall.tiles:
                raise InvalidStateError(
                    f"saved match: hand {index} has a wall its seed does not deal"
                )
        return game

    def __repr__(self) -> str:
        name, n = self.variant.name, len(self._hands)
        return f"<Match {name} {self.players}p hands={n} scores={self.scores}>"
