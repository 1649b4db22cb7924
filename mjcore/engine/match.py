"""Match: a room's series of hands (dealer rotation, carried state, cumulative scores)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..errors import IllegalActionError, InvalidOptionError
from .game import Game
from .variant import Variant


class Match:
    """A series of hands of one variant at one table.

    Each hand's dealer is the previous hand's ``game.next_dealer`` (the variant's rule;
    血战: whoever drew the last tile) and its ``carry`` is ``game.next_carry()``. Hand
    ``i`` is shuffled from ``SeedSequence(seed, spawn_key=(i,))``, so a match is fully
    determined by (variant, players, options, seed, first_dealer) and the actions.
    """

    def __init__(
        self,
        variant: str | Variant,
        players: int = 4,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        first_dealer: int = 0,
    ) -> None:
        from ..variants import get_variant

        self.variant = get_variant(variant)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise InvalidOptionError(f"match seed must be a non-negative integer, got {seed!r}")
        if (
            not isinstance(players, int)
            or not isinstance(first_dealer, int)
            or not 0 <= first_dealer < players
        ):
            raise InvalidOptionError(
                f"first_dealer must be a seat 0..{players - 1}, got {first_dealer!r}"
            )
        self.players = players
        self.options = self.variant.parse_options(options).to_dict()
        self.seed = seed
        self.first_dealer = first_dealer
        self.hands: list[Game] = []

    @property
    def current(self) -> Game | None:
        """The latest hand (finished or not), or None before the first."""
        return self.hands[-1] if self.hands else None

    def hand_seed(self, index: int) -> int:
        """The wall seed of hand ``index``."""
        return int(np.random.SeedSequence(self.seed, spawn_key=(index,)).generate_state(1)[0])

    def new_hand(self) -> Game:
        """Start the next hand; the previous one must be over."""
        prev = self.current
        if prev is not None and not prev.is_over:
            raise IllegalActionError(
                f"hand {len(self.hands) - 1} is not over yet; finish it before a new hand"
            )
        if prev is None:
            opts = self.variant.parse_options(self.options)
            dealer = self.variant.first_dealer(opts, self.first_dealer)
        else:
            dealer = prev.next_dealer
        carry = prev.next_carry() if prev is not None else None
        game = self.variant.new_game(
            players=self.players,
            options=self.options,
            seed=self.hand_seed(len(self.hands)),
            dealer=dealer,
            carry=carry,
        )
        self.hands.append(game)
        return game

    @property
    def scores(self) -> list[int]:
        """Cumulative net scores over every hand (the current one as settled so far)."""
        total = [0] * self.players
        for game in self.hands:
            for seat, s in enumerate(game.scores):
                total[seat] += s
        return total

    @property
    def dealers(self) -> list[int]:
        """The dealer of each hand so far."""
        return [g.dealer for g in self.hands]

    def to_json(self) -> str:
        """Exact, restorable state of the match (every hand's own ``to_json``)."""
        return json.dumps(
            {
                "variant": self.variant.name,
                "players": self.players,
                "options": self.options,
                "seed": self.seed,
                "first_dealer": self.first_dealer,
                "hands": [json.loads(g.to_json()) for g in self.hands],
            }
        )

    @staticmethod
    def from_json(text: str) -> Match:
        """Restore a match saved by :meth:`to_json`."""
        data = json.loads(text)
        match = Match(
            data["variant"],
            players=data["players"],
            options=data["options"],
            seed=data["seed"],
            first_dealer=data["first_dealer"],
        )
        match.hands = [Game.from_json(json.dumps(h)) for h in data["hands"]]
        return match

    def __repr__(self) -> str:
        name, n = self.variant.name, len(self.hands)
        return f"<Match {name} {self.players}p hands={n} scores={self.scores}>"
