"""The PettingZoo AEC environment: one seat acts at a time, agents ``seat_0`` … ``seat_{n-1}``."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.checks import as_int
from ..engine.game import Game
from ..errors import IllegalActionError
from .actions import resolve_rules
from .encoding import Encoder
from .table import Table

_SEED_LIMIT = 2**63


def spaces_of(encoder: Encoder) -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation space (``observation`` float32, ``action_mask`` int8) and action space."""
    low, high = encoder.low_high()
    obs = spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (len(encoder.table),), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(len(encoder.table))


class MjcoreAEC(AECEnv):  # type: ignore[misc]
    """A hand (or, with ``hands=N``, a Match of N hands) of an mjcore variant as an AEC env.

    Rewards are each seat's score change of the step (they sum to zero); the episode ends
    when the hand (the Match's last hand) is over. ``env.unwrapped.game`` is the Game."""

    metadata = {"render_modes": ["ansi"], "name": "mjcore_v0", "is_parallelizable": False}

    def __init__(
        self,
        variant: Any,
        players: int = 4,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        wall: Any = None,
        hands: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules = resolve_rules(variant, options, players)  # the public edge
        self.variant = rules.variant
        self.players = rules.players
        self.encoder = Encoder(rules)
        self.table = rules.actions
        self.options = rules.options
        self._table = Table(rules, hands)
        self._wall = wall
        self._rng = np.random.default_rng(seed)
        self._seed = seed
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{i}" for i in range(self.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space, self._act_space = spaces_of(self.encoder)
        self._rewards = np.zeros(self.players, dtype=np.int64)
        self._started = False

    # ---- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    @property
    def game(self) -> Game:
        """The current hand."""
        return self._table.game

    # ---- AEC protocol
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = as_int(seed, "seed")
        elif self._seed is not None and not self._started:
            game_seed = as_int(self._seed, "seed")
        else:
            game_seed = int(self._rng.integers(_SEED_LIMIT))
        self._started = True
        self._table.reset(game_seed, self._wall)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        seat = self._table.seat()
        if seat < 0:  # (a hand over at once: no variant deals one)
            seat = 0
            self.terminations = {a: True for a in self.agents}
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        return {
            "observation": self.encoder.observation(self.game, seat),
            "action_mask": self.encoder.action_mask(self.game, seat),
        }

    def step(self, action: Any) -> None:
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        if action is None:
            raise IllegalActionError(f"{agent} must act: an action index, not None")
        act = self.table.decode(action, self.game.legal_actions(seat))
        self._cumulative_rewards[agent] = 0.0
        rewards = self._rewards
        rewards[:] = 0
        done = self._table.step(seat, act, rewards)
        self.rewards = {a: float(rewards[i]) for i, a in enumerate(self.possible_agents)}
        if done:
            scores = self._table.scores()
            self.terminations = {a: True for a in self.agents}
            for i, a in enumerate(self.possible_agents):
                self.infos[a] = {"scores": list(scores), "score": scores[i]}
        else:
            self.agent_selection = self.possible_agents[self._table.seat()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from ..engine.render import render_table  # the table as the seat to act sees it

        return render_table(self.game, self.agent_name_mapping[self.agent_selection])

    def close(self) -> None:
        pass


def env(
    variant: Any,
    players: int = 4,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    wall: Any = None,
    hands: int | None = None,
    render_mode: str | None = None,
) -> MjcoreAEC:
    """A PettingZoo AEC env of ``variant`` (``hands=N``: a Match of N hands an episode)."""
    return MjcoreAEC(variant, players, options, seed, wall, hands, render_mode)
