"""One table of an RL environment: a hand (or a Match of hands) and its reward bookkeeping."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.actions import Action
from ..engine.checks import as_int
from ..engine.game import Game
from ..engine.match import Match
from ..engine.rules import Rules
from ..errors import InvalidOptionError
from ._fast import add_payments, seat_to_act


def check_hands(hands: Any) -> int | None:
    """``hands`` of a Match mode: None (one hand an episode) or a positive int."""
    if hands is None:
        return None
    hands = as_int(hands, "hands")
    if hands < 1:
        raise InvalidOptionError(f"hands must be a positive integer, got {hands}")
    return hands


class Table:
    """A hand, or with ``hands=N`` a :class:`~mjcore.engine.match.Match` of N hands (dealer
    rotation and carried state as the Match deals them), played one action at a time.

    :meth:`step` adds every seat's score change to a rewards vector: the payments settled
    since the previous step (they sum to zero)."""

    __slots__ = ("rules", "hands", "game", "match", "_paid")

    def __init__(self, rules: Rules, hands: int | None = None) -> None:
        self.rules = rules
        self.hands = check_hands(hands)
        self.game: Game
        self.match: Match | None = None
        self._paid = 0

    def reset(self, seed: int | None, wall: Any = None) -> Game:
        if self.hands is None:
            self.game = self.rules.new_game(seed=seed, wall=wall)
            self.match = None
        else:
            self.match = Match(self.rules, seed=seed or 0)
            self.game = self.match.new_hand()
        self._paid = 0
        return self.game

    def seat(self) -> int:
        """The seat to act next (the first in play order of a window), −1 once it is over."""
        return seat_to_act(self.game)

    def step(self, seat: int, action: Action, rewards: np.ndarray) -> bool:
        """Apply ``seat``'s action; add the score changes to ``rewards`` (int64[players]);
        True once the episode (the hand, or the Match's last hand) is over."""
        game = self.game
        game.apply(seat, action)
        self._paid = add_payments(game, self._paid, rewards)
        return game.phase == "over" and self.hand_over()

    def hand_over(self) -> bool:
        """The hand just ended: True if the episode did too, else the Match's next hand is
        dealt (``self.game``)."""
        match = self.match
        if match is None or len(match._hands) >= self.hands:  # type: ignore[operator]
            return True
        self.game = match.new_hand()
        self._paid = 0
        return self.game.phase == "over" and len(match._hands) >= self.hands  # type: ignore[operator]

    def scores(self) -> list[int]:
        """Every seat's net result of the episode so far."""
        return self.match.scores if self.match is not None else self.game.scores
