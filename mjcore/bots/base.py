# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""The bot protocol and the base class every bot shares (the name registry is
:mod:`mjcore.bots.registry`, above the bots it names)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
from numpy.random import Generator

from .._prng import Pcg64
from ..engine.actions import Action

if TYPE_CHECKING:
    from ..engine.game import Game

SeedLike = int | np.random.Generator | np.random.SeedSequence | None


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one of the legal actions from a seat's view."""

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action: ...


class BaseBot:
    """Shared plumbing: a seeded numpy Generator and the simulator's fast path."""

    name = "base"
    replayable = False
    """Set to True in a bot class (its own, not inherited) whose whole state is its random
    stream: ``reseed(seed)`` then makes it the bot ``cls(seed)`` would be, and the simulator
    plays one instance hand after hand, reseeded, instead of building one per hand (a bot
    factory given to ``simulate`` is still called for every hand)."""
    _rng: np.random.Generator | None
    _fast: Pcg64 | None
    _seed: SeedLike

    def __init__(self, seed: SeedLike = None) -> None:
        self.reseed(seed)

    def reseed(self, seed: SeedLike) -> None:
        """Start the bot's random stream afresh from ``seed`` (or use the Generator given)."""
        self._rng = None
        self._fast = None
        self._seed = None
        if type(seed) is not int and isinstance(seed, Generator):  # (an int: every simulated bot)
            self._rng = seed
        else:
            self._seed = seed

    @property
    def rng(self) -> np.random.Generator:
        """The bot's Generator, ``numpy.random.default_rng(seed)``, made on first use: a bot
        that never draws (a greedy hand without a tie) does not pay for building one."""
        if self._rng is None:
            if self._fast is not None:  # continue the stream integers() started
                self._rng, self._fast = self._fast.to_generator(), None
            else:
                self._rng = np.random.default_rng(self._seed)  # type: ignore[arg-type]
        return self._rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng, self._fast = value, None

    def integers(self, n: int) -> int:
        """``self.rng.integers(n)`` as an int: the same draw from the same stream, without
        building a numpy Generator for an int seed (most of a simulated bot's set-up)."""
        fast = self._fast  # (set only while no Generator is made: an int seed's stream)
        if fast is not None:
            return fast.integers(n)  # type: ignore[no-any-return]
        if self._rng is None and type(self._seed) is int and self._seed >= 0:
            self._fast = Pcg64(self._seed)
            return self._fast.integers(n)
        return int(self.rng.integers(n))

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise NotImplementedError

    def act_fast(self, game: Game, seat: int, legal: Sequence[Action]) -> Action:
        """Same decision as :meth:`act`, reading the engine state directly (no view)."""
        return self.act(game.view(seat), legal)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
