"""A Gymnasium ``VectorEnv`` over the compiled :class:`~mjcore.rl.VectorEnv`.

``gymnasium.make_vec("mjcore/Qingdao-v0", num_envs=64, vectorization_mode="vector_entry_point")``
returns a :class:`MjcoreVectorEnv`: batched spaces, the mask in the observation (or, with
``flat=True``, in ``infos["action_mask"]`` only) and Gymnasium 1.x's **same-step** autoreset
(``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``): the step that ends a game returns
``terminated[i] = True`` with the *next* game's first observation, the finished game's last
one in ``infos["final_obs"][i]`` (``infos["_final_obs"]`` marks the rows) and its result in
``infos["final_info"]``.

Two modes:

* ``opponents=None`` (self-play): the learner is **every** seat of every game. Each step,
  each game's seat to act acts; ``infos["seat"]`` says which seat each row's observation
  belongs to, ``infos["rewards"]`` holds every seat's score change (``[N, players]``); the
  scalar reward is the change of the seat that acted. This is the compiled VectorEnv's own
  loop (bench/bench_rl.py: ``gymvec64`` beside ``vector64``).
* ``opponents=SPEC`` (any bot spec, one for every seat or a list): the learner is ``seat``;
  the other seats' bots play until it must decide; the reward is its score change from its
  action to its next decision.

An action outside a row's mask plays that row's first legal action (``infos["illegal"]``)
with ``illegal="first"`` (the default: ``action_space.sample()`` is unmasked), or raises
IllegalActionError (nothing moves) with ``illegal="raise"``. The arrays returned are the
caller's to keep (each step writes new ones); ``copy=False`` returns the env's own buffers,
overwritten by the next step.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..bots.spec import decider, resolve_bots
from ..engine.game import as_int, check_seat
from ..errors import IllegalActionError, InvalidOptionError
from . import _fast
from .aec import spaces_of
from .gym import bot_seed
from .vector import VectorEnv

_SEED_LIMIT = 2**62


class MjcoreVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[type-arg]
    """``num_envs`` games of one variant as a Gymnasium vector env (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        variant: Any = "qingdao",
        num_envs: int = 1,
        players: int = 4,
        options: dict[str, Any] | None = None,
        opponents: Any = None,
        seat: int = 0,
        hands: int | None = None,
        flat: bool = False,
        illegal: str = "first",
        copy: bool = True,
        render_mode: str | None = None,
    ) -> None:
        if illegal not in ("first", "raise"):
            raise InvalidOptionError(f"illegal must be 'first' or 'raise', got {illegal!r}")
        self.vec = VectorEnv(variant, num_envs, players, options, seed=0, hands=hands)
        self.variant = self.vec.variant
        self.players = self.vec.players
        self.num_envs = self.vec.num_envs
        self.illegal, self.flat, self.copy = illegal, bool(flat), bool(copy)
        self.render_mode = render_mode
        single_obs, single_act = spaces_of(self.vec.encoder)
        self.single_observation_space = single_obs["observation"] if self.flat else single_obs
        self.single_action_space = single_act
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.learner: int | None = None
        self._bots: list[Any] = []
        if opponents is not None:
            self.learner = check_seat(
                as_int(seat, "seat"), self.players, "seat", InvalidOptionError
            )
            spec = opponents
            if isinstance(spec, (list, tuple)) and len(spec) == self.players - 1:
                spec = [*spec[: self.learner], "random", *spec[self.learner :]]
            self._bots = resolve_bots(spec, self.players)
        self._deciders: list[list[Any]] = [[] for _ in range(self.num_envs)]
        n, p = self.num_envs, self.players
        self._reward = np.zeros(n, dtype=np.float64)
        self._all_rewards = np.zeros((n, p), dtype=np.int64)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._rng = np.random.default_rng()
        self._started = False

    # ---- helpers
    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _fresh_buffers(self) -> None:
        """With ``copy``: the step writes into new arrays (every row of the observations and
        masks is written each step), which are then returned as they are — no copy."""
        vec = self.vec
        vec.obs = np.empty_like(vec.obs)
        vec.mask = np.empty_like(vec.mask)

    def _observations(self) -> Any:
        if self.flat:
            return self.vec.obs
        return {"observation": self.vec.obs, "action_mask": self.vec.mask}

    def _final_obs(self, i: int, seat: int) -> Any:
        """Row ``i``'s observation as its game stands (before it is replaced)."""
        vec = self.vec
        obs = np.zeros(vec.encoder.size, dtype=np.float32)
        game = vec.tables[i].game
        _fast.encode(vec._spec, vec._caches[i], game, seat, obs)
        if self.flat:
            return obs
        return {"observation": obs, "action_mask": np.zeros(vec.num_actions, dtype=np.int8)}

    def _legal(self, actions: Any) -> tuple[np.ndarray, np.ndarray | None]:
        """The actions as int64[N]; with ``illegal="first"`` an illegal one becomes its row's
        first legal action (the rows are returned), else IllegalActionError."""
        acts = np.asarray(actions)
        n = self.num_envs
        if acts.shape != (n,) or acts.dtype.kind not in "iu":
            if acts.shape == (n,) and acts.dtype.kind == "f" and np.all(acts == np.round(acts)):
                acts = acts.astype(np.int64)
            else:
                raise IllegalActionError(
                    f"actions must be {n} integers (shape ({n},)), got {acts.dtype} {acts.shape}"
                )
        acts = np.array(acts, dtype=np.int64)
        if self.illegal == "raise":
            return self.vec._checked(acts), None
        mask = self.vec.mask
        inside = (acts >= 0) & (acts < mask.shape[1])
        ok = np.zeros(n, dtype=bool)
        ok[inside] = mask[np.flatnonzero(inside), acts[inside]] != 0
        bad = ~ok
        if bad.any():
            acts[bad] = mask[bad].argmax(axis=1)
            return acts, bad
        return acts, None

    # ---- Gymnasium API
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start every game afresh: game ``i`` from ``seed + i`` (a random seed if None)."""
        if isinstance(seed, (list, tuple)):
            seed = seed[0] if seed else None
        if seed is not None:
            self._rng = np.random.default_rng(as_int(seed, "seed"))
            base = as_int(seed, "seed")
        else:
            base = int(self._rng.integers(_SEED_LIMIT))
        if self.copy:
            self._fresh_buffers()
        self.vec.reset(base)
        self._started = True
        if self.learner is not None:
            for i in range(self.num_envs):
                self._begin(i)
        return self._observations(), self._infos(None, None, None)

    def _infos(self, illegal: Any, finals: Any, final_scores: Any) -> dict[str, Any]:
        vec = self.vec
        infos: dict[str, Any] = {
            "seat": self._out(vec.seat),
            "action_mask": vec.mask,  # (the observation's own: fresh each step with copy)
            "game_seed": self._out(vec.game_seeds),
        }
        if self.learner is None:
            infos["rewards"] = self._out(self._all_rewards)
        if illegal is not None:
            infos["illegal"], infos["_illegal"] = illegal.copy(), illegal.copy()
        if finals is not None:
            rows = self._terminated.copy()
            infos["final_obs"], infos["_final_obs"] = finals, rows
            infos["final_info"] = {"scores": final_scores, "_scores": rows.copy()}
        return infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        acts, illegal = self._legal(actions)
        if self.copy:
            self._fresh_buffers()
        if self.learner is None:
            finals, scores = self._step_all(acts)
        else:
            finals, scores = self._step_learner(acts)
        return (
            self._observations(),
            self._out(self._reward),
            self._out(self._terminated),
            self._out(self._truncated),
            self._infos(illegal, finals, scores),
        )

    def _step_all(self, acts: np.ndarray) -> tuple[Any, Any]:
        """Self-play: the compiled loop of VectorEnv.step, keeping each finished game's last
        observation (of the seat that acted) before the game is dealt again."""
        vec = self.vec
        actor = vec.seat.copy()
        rewards = self._all_rewards
        finished = _fast.step_batch(
            vec._spec, vec.tables, vec._caches, acts, vec.seat, vec.obs, vec.mask, rewards
        )
        self._reward[:] = rewards[np.arange(self.num_envs), actor]
        self._terminated[:] = False
        if not finished:
            return None, None
        finals = np.empty(self.num_envs, dtype=object)
        scores = np.zeros((self.num_envs, self.players), dtype=np.int64)
        for i in finished:
            self._terminated[i] = True
            finals[i] = self._final_obs(i, int(actor[i]))
            scores[i] = vec.tables[i].scores()
            vec._start(i)
        return finals, scores

    def _begin(self, i: int) -> None:
        """Game ``i`` (just dealt) gets fresh bots, which play to the learner's first decision
        (a game over before it, which no variant deals, is dealt again)."""
        vec = self.vec
        while True:
            seed = int(vec.game_seeds[i])
            bots = self._bots
            self._deciders[i] = [decider(b.make(bot_seed(seed, s))) for s, b in enumerate(bots)]
            if not self._bots_play(i, None):
                break
            vec._start(i)
        vec._write(i)

    def _bots_play(self, i: int, rewards: np.ndarray | None) -> bool:
        """Game ``i``'s bots act until the learner must decide; True once it is over."""
        table = self.vec.tables[i]
        learner = self.learner
        deciders = self._deciders[i]
        sink = rewards if rewards is not None else np.zeros(self.players, dtype=np.int64)
        while True:
            s = table.seat()
            if s < 0:
                return True
            if s == learner:
                return False
            game = table.game
            if table.step(s, deciders[s](game, s, game.legal_actions(s)), sink):
                return True

    def _step_learner(self, acts: np.ndarray) -> tuple[Any, Any]:
        vec = self.vec
        learner = self.learner
        assert learner is not None
        rewards = self._all_rewards
        rewards[:] = 0
        self._terminated[:] = False
        finals: np.ndarray | None = None
        scores: np.ndarray | None = None
        decode = vec.encoder.table.actions
        for i in range(self.num_envs):
            table = vec.tables[i]
            done = table.step(learner, decode[acts[i]], rewards[i])
            if not done:
                done = self._bots_play(i, rewards[i])
            if done:
                if finals is None:
                    finals = np.empty(self.num_envs, dtype=object)
                    scores = np.zeros((self.num_envs, self.players), dtype=np.int64)
                self._terminated[i] = True
                finals[i] = self._final_obs(i, learner)
                scores[i] = table.scores()  # type: ignore[index]
                vec._start(i)
                self._begin(i)
            else:
                vec._write(i)
        self._reward[:] = rewards[:, learner]
        return finals, scores

    def render(self) -> tuple[str, ...] | None:
        """``render_mode="ansi"``: every game's table as its row's seat sees it."""
        if self.render_mode is None:
            return None
        from ..engine.render import render_table

        vec = self.vec
        return tuple(
            render_table(t.game, int(s)) for t, s in zip(vec.tables, vec.seat, strict=True)
        )

    def close(self, **kwargs: Any) -> None:
        pass


def make_vector(num_envs: int = 1, **kwargs: Any) -> MjcoreVectorEnv:
    """The ``vector_entry_point`` of every ``mjcore/<Variant>-v0`` id (``gymnasium.make_vec``).

    The single env's keywords that mean the same here pass through (``variant``, ``players``,
    ``options``, ``opponents``, ``seat``, ``hands``, ``flat``, ``illegal``, ``render_mode``);
    ``opponents`` defaults to None here: self-play (every seat learns)."""
    kwargs.pop("max_episode_steps", None)
    return MjcoreVectorEnv(num_envs=num_envs, **kwargs)
