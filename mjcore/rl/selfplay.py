"""Self-play: one learner at every seat of every game, all seats' observations batched.

:class:`SelfPlayEnv` keeps ``num_envs`` games; every call returns each seat's observation
and legal-action mask as ``obs[N, players, D]`` / ``mask[N, players, A]`` (a seat not asked
now has an all-zero mask), and :meth:`SelfPlayEnv.step` takes ``actions[N, players]``: every
seat asked in a game acts at once — the seat on turn, or every seat asked in a claim window
(in play order; an answer made moot by an earlier one, e.g. after a 胡 ends the window, is
skipped and reported in ``info["skipped"]``). Entries of seats not asked are ignored.

A finished game is dealt again at once from the next unused seed (game ``i`` starts from
``seed + i``, the next from ``seed + num_envs`` …, as :class:`~mjcore.rl.VectorEnv` does);
``info["final_scores"]`` holds the finished games' results. The observations are written by
the same compiled writers as VectorEnv's; a batch is one forward pass of the learner:
``policy(obs.reshape(-1, D), mask.reshape(-1, A))``. The arrays are the env's own buffers.

(For a single-actor stream — each game's seat to act only — use the Gymnasium vector env
with ``opponents=None``: ``gymnasium.make_vec(id, N, vectorization_mode="vector_entry_point")``.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.checks import as_int
from ..errors import IllegalActionError, InvalidOptionError
from . import _fast
from .actions import resolve_rules
from .encoding import Encoder
from .table import Table


class SelfPlayEnv:
    """``num_envs`` games of one variant in which a single learner plays every seat."""

    def __init__(
        self,
        variant: Any,
        num_envs: int,
        players: int = 4,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        hands: int | None = None,
    ) -> None:
        self.num_envs = as_int(num_envs, "num_envs")
        if self.num_envs < 1:
            raise InvalidOptionError(f"num_envs must be positive, got {self.num_envs}")
        # the public edge: a Rules, or a variant name/object under ``options`` for ``players``
        self.rules = resolve_rules(variant, options, as_int(players, "players"))
        self.variant = self.rules.variant
        self.players = self.rules.players
        self.encoder = Encoder(self.rules)
        self.table = self.encoder.table
        self.seed = as_int(seed, "seed")
        n, p = self.num_envs, self.players
        self.tables = [Table(self.rules, hands) for _ in range(n)]
        self.obs = np.zeros((n, p, self.encoder.size), dtype=np.float32)
        self.mask = np.zeros((n, p, len(self.table)), dtype=np.int8)
        self.rewards = np.zeros((n, p), dtype=np.int64)
        self.done = np.zeros(n, dtype=bool)
        self.final_scores = np.zeros((n, p), dtype=np.int64)
        self.game_seeds = np.zeros(n, dtype=np.int64)
        self._spec = self.encoder.spec
        self._caches = [_fast.SeatPlanes() for _ in range(n)]
        self._next_seed = self.seed
        self._started = False

    def _write(self, i: int) -> None:
        game = self.tables[i].game
        asked = game.to_act()
        spec, cache = self._spec, self._caches[i]
        for s in range(self.players):
            _fast.encode(spec, cache, game, s, self.obs[i, s])
            row = self.mask[i, s]
            if s in asked:
                _fast.fill_mask(spec, game, s, row)
            else:
                row.fill(0)

    def _start(self, i: int) -> None:
        self.tables[i].reset(self._next_seed)
        self.game_seeds[i] = self._next_seed
        self._next_seed += 1
        self._write(i)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Deal every game afresh (from ``seed`` if given): ``(obs[N, P, D], mask[N, P, A])``."""
        if seed is not None:
            self.seed = as_int(seed, "seed")
        self._next_seed = self.seed
        for i in range(self.num_envs):
            self._start(i)
        self._started = True
        return self.obs, self.mask

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Every asked seat of every game takes ``actions[i, seat]``; returns
        ``(obs, mask, rewards[N, P], done[N], info)``. Every asked seat's action is checked
        against its mask before any game moves (IllegalActionError, nothing changes)."""
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        acts = np.asarray(actions)
        n, p = self.num_envs, self.players
        if acts.shape != (n, p) or acts.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions must be integers of shape ({n}, {p}), got {acts.dtype} {acts.shape}"
            )
        asked = np.asarray(self.mask.any(axis=2), dtype=bool)
        a = np.where(asked, acts, 0).astype(np.int64)
        if ((a < 0) | (a >= self.mask.shape[2])).any():
            i, s = np.argwhere((a < 0) | (a >= self.mask.shape[2]))[0]
            raise IllegalActionError(f"actions[{i}, {s}] = {int(acts[i, s])} is out of range")
        legal = np.take_along_axis(self.mask, a[:, :, None], axis=2)[:, :, 0] != 0
        bad = asked & ~legal
        if bad.any():
            i, s = np.argwhere(bad)[0]
            raise IllegalActionError(
                f"actions[{i}, {s}] = {int(acts[i, s])} is not a legal action of seat {s} "
                f"in game {i}"
            )
        self.rewards.fill(0)
        self.done.fill(False)
        self.final_scores.fill(0)
        decode = self.table.actions
        skipped: list[tuple[int, int]] = []
        for i in range(n):
            table = self.tables[i]
            game = table.game
            over = False
            for s in game.to_act():  # the seat on turn, or a window's asked seats in order
                if not asked[i, s]:
                    continue
                if over or table.game is not game or s not in game.to_act():
                    skipped.append((i, s))  # made moot by an earlier answer (or hand over)
                    continue
                over = table.step(s, decode[a[i, s]], self.rewards[i])
            if over:
                self.done[i] = True
                self.final_scores[i] = table.scores()
                self._start(i)
            else:
                self._write(i)
        info = {
            "final_scores": self.final_scores,
            "game_seeds": self.game_seeds,
            "skipped": skipped,
        }
        return self.obs, self.mask, self.rewards, self.done, info
