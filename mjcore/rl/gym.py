"""A single-agent Gymnasium env: one learning seat, every other seat a bot."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from ..bots.spec import decider, resolve_bots
from ..engine.checks import check_seat
from ..engine.game import Game
from ..errors import IllegalActionError, InvalidOptionError
from ..variants import names
from .actions import resolve_rules
from .aec import spaces_of
from .encoding import Encoder
from .table import Table

ENV_IDS: dict[str, str] = {
    name: f"mjcore/{''.join(w.capitalize() for w in name.split('_'))}-v0" for name in names()
}
"""The registered Gymnasium id of each variant (``mjcore/Qingdao-v0`` …)."""


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the hand shuffled from ``game_seed``."""
    return int(np.random.SeedSequence([game_seed, seat]).generate_state(1, np.uint64)[0])


class MjcoreGymEnv(gymnasium.Env):  # type: ignore[type-arg]
    """Seat ``seat`` learns; the others are ``opponents`` (any bot spec the simulator
    accepts: a name, ``module:Name``, a class, a factory, an instance, or one per seat).

    The reward of a step is the learner's score change from its action until its next
    decision (the bots' actions included); ``hands=N`` plays a Match of N hands.

    An action outside the mask plays the first legal action instead (``info["illegal"]``)
    with ``illegal="first"`` (the default: Gymnasium's checker samples unmasked actions), or
    raises IllegalActionError with ``illegal="raise"``.

    The legal-action mask is where the learners look for it: ``obs["action_mask"]``,
    ``info["action_mask"]`` and :meth:`action_masks` (sb3-contrib's ``MaskablePPO`` finds it
    with no wrapper). ``flat=True`` makes the observation the float32 ``Box`` alone (for
    learners without ``Dict`` spaces); the mask is then in the info and ``action_masks()``."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        variant: Any = "qingdao",
        players: int = 4,
        options: dict[str, Any] | None = None,
        opponents: Any = "random",
        seat: int = 0,
        hands: int | None = None,
        render_mode: str | None = None,
        illegal: str = "first",
        flat: bool = False,
    ) -> None:
        if illegal not in ("first", "raise"):
            raise InvalidOptionError(f"illegal must be 'first' or 'raise', got {illegal!r}")
        self.illegal = illegal
        self.rules = rules = resolve_rules(variant, options, players)  # the public edge
        self.variant = rules.variant
        self.players = rules.players
        self.seat = check_seat(seat, self.players, "seat", InvalidOptionError)
        self.encoder = Encoder(rules)
        self.table = rules.actions
        self.options_dict = rules.options
        self._table = Table(rules, hands)
        spec = opponents
        if isinstance(spec, (list, tuple)) and len(spec) == self.players - 1:
            spec = [*spec[: self.seat], "random", *spec[self.seat :]]
        self._bots = resolve_bots(spec, self.players)
        self._deciders: list[Any] = []
        self.observation_space, self.action_space = spaces_of(self.encoder)
        self.flat = bool(flat)
        if self.flat:
            self.observation_space = self.observation_space["observation"]
        self._mask = np.zeros(len(self.table), dtype=np.int8)
        self.render_mode = render_mode
        self._rewards = np.zeros(self.players, dtype=np.int64)

    @property
    def game(self) -> Game:
        return self._table.game

    def _obs(self) -> Any:
        obs = self.encoder.observation(self.game, self.seat)
        self._mask = self.encoder.action_mask(self.game, self.seat)
        return obs if self.flat else {"observation": obs, "action_mask": self._mask}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (bool[actions]: sb3-contrib's convention)."""
        return self._mask.astype(bool)

    def _play_bots(self) -> bool:
        """Let the bots act until the learner must decide; True once the episode is over."""
        table = self._table
        while True:
            s = table.seat()
            if s < 0:
                return True
            if s == self.seat:
                return False
            game = table.game
            legal = game.legal_actions(s)
            action = self._deciders[s](game, s, legal)
            if table.step(s, action, self._rewards):
                return True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        self._table.reset(game_seed)
        self._deciders = [decider(b.make(bot_seed(game_seed, s))) for s, b in enumerate(self._bots)]
        self._rewards[:] = 0
        self._done = self._play_bots()
        obs = self._obs()
        return obs, {"seed": game_seed, "action_mask": self._mask}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if getattr(self, "_done", None) is None:  # (set by reset)
            raise IllegalActionError("call reset() before step()")
        if self._done:
            raise IllegalActionError("the episode is over: call reset()")
        legal = self.game.legal_actions(self.seat)
        act = self.table.decode(action, legal)
        info: dict[str, Any] = {}
        if act not in legal and self.illegal == "first":
            act, info["illegal"] = legal[0], True
        self._rewards[:] = 0
        done = self._table.step(self.seat, act, self._rewards)
        if not done:
            done = self._play_bots()
        self._done = done
        if done:
            info["scores"] = self._table.scores()
        obs = self._obs()
        info["action_mask"] = self._mask
        return obs, float(self._rewards[self.seat]), done, False, info

    def render(self) -> str | None:
        """``render_mode="ansi"``: the table as the learner sees it (engine/render.py)."""
        if self.render_mode is None:
            return None
        from ..engine.render import render_table

        return render_table(self.game, self.seat)


def register_envs() -> None:
    """Register ``mjcore/<Variant>-v0`` for every variant (done on ``import mjcore.rl``)."""
    for name, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="mjcore.rl.gym:MjcoreGymEnv",
                vector_entry_point="mjcore.rl.gym_vector:make_vector",  # issue 35
                kwargs={"variant": name},
            )
