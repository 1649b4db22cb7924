"""N tables stepped together, observations written into preallocated numpy arrays."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.checks import as_int
from ..errors import IllegalActionError, InvalidOptionError
from . import _fast
from .actions import resolve_rules
from .encoding import Encoder
from .table import Table


class VectorEnv:
    """``num_envs`` games of one variant; every step each game's seat to act acts.

    Game ``i`` is first shuffled from ``seed + i``; a finished game resets itself with the
    next unused seed (``seed + num_envs``, ``seed + num_envs + 1`` … in the order games
    finish, lowest index first within a step). The arrays returned are the env's own buffers,
    overwritten by the next call: copy what you keep."""

    def __init__(
        self,
        variant: Any,
        num_envs: int,
        players: int = 4,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        hands: int | None = None,
    ) -> None:
        self.rules = rules = resolve_rules(variant, options, players)  # the public edge
        self.variant = rules.variant
        self.num_envs = as_int(num_envs, "num_envs")
        if self.num_envs < 1:
            raise InvalidOptionError(f"num_envs must be positive, got {self.num_envs}")
        self.players = rules.players
        self.encoder = Encoder(rules)
        self.table = rules.actions
        self.seed = as_int(seed, "seed")
        self.tables = [Table(rules, hands) for _ in range(self.num_envs)]
        n, size, a = self.num_envs, self.encoder.size, len(self.table)
        self.obs = np.zeros((n, size), dtype=np.float32)
        self.mask = np.zeros((n, a), dtype=np.int8)
        self.seat = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, self.players), dtype=np.int64)
        self.done = np.zeros(n, dtype=bool)
        self.final_scores = np.zeros((n, self.players), dtype=np.int64)
        self.game_seeds = np.zeros(n, dtype=np.int64)
        self._next_seed = self.seed
        self._spec = self.encoder.spec
        self._caches = [_fast.SeatPlanes() for _ in range(self.num_envs)]  # per game's seats
        self._finished: list[int] = []

    @property
    def single_observation_size(self) -> int:
        return self.encoder.size

    @property
    def num_actions(self) -> int:
        return len(self.table)

    def _start(self, i: int) -> None:
        table = self.tables[i]
        table.reset(self._next_seed)
        self.game_seeds[i] = self._next_seed
        self._next_seed += 1
        self._write(i)

    def _write(self, i: int) -> None:
        game = self.tables[i].game
        seat = _fast.seat_to_act(game)
        self.seat[i] = seat
        _fast.encode(self._spec, self._caches[i], game, seat, self.obs[i])
        _fast.fill_mask(self._spec, game, seat, self.mask[i])

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start every game afresh (from ``seed`` if given); (obs, mask, seat)."""
        if seed is not None:
            self.seed = as_int(seed, "seed")
        self._next_seed = self.seed
        for i in range(self.num_envs):
            self._start(i)
        return self.obs, self.mask, self.seat

    def _checked(self, actions: Any) -> np.ndarray:
        """``actions`` as int64[N], each legal for its game's seat (IllegalActionError)."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise IllegalActionError(
                f"actions must have shape ({self.num_envs},), got {acts.shape}"
            )
        if acts.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be integers, got dtype {acts.dtype}")
        acts = np.ascontiguousarray(acts, dtype=np.int64)
        i = _fast.first_illegal(acts, self.mask)
        if i >= 0:
            raise IllegalActionError(
                f"actions[{i}] = {int(acts[i])} is not a legal action index for seat "
                f"{int(self.seat[i])} of game {i}"
            )
        return acts

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Each game's seat to act takes ``actions[i]`` (an index of the action table).

        Returns (obs, mask, seat, rewards[N, players], done[N], info); ``info`` holds
        ``final_scores[N, players]`` (the finished games' episode results, 0 elsewhere) and
        ``game_seeds`` (the seed of each game now in play). Every action is checked against
        the mask before any game moves: an illegal one raises and changes nothing."""
        acts = self._checked(actions)
        rewards, done = self.rewards, self.done  # (step_batch zeroes the rewards)
        if self._finished:  # the rows the last step set
            done.fill(False)
            self.final_scores.fill(0)
        finished = self._finished = _fast.step_batch(
            self._spec, self.tables, self._caches, acts, self.seat, self.obs, self.mask, rewards
        )
        for i in finished:  # in index order: the next seeds go to the lowest index first
            done[i] = True
            self.final_scores[i] = self.tables[i].scores()
            self._start(i)
        info = {"final_scores": self.final_scores, "game_seeds": self.game_seeds}
        return self.obs, self.mask, self.seat, rewards, done, info
