"""Reinforcement-learning environments for mjcore (issue 24).

* :func:`env` — a PettingZoo AEC env (agents ``seat_0`` …), ``env.unwrapped.game`` the Game;
* ``gymnasium.make("mjcore/Qingdao-v0", opponents="greedy", seat=0)`` — a single-agent env
  whose other seats are bots (registered on import of this package);
* :class:`VectorEnv` — N games stepped together into preallocated numpy arrays;
* ``gymnasium.make_vec(id, N, vectorization_mode="vector_entry_point")`` —
  :class:`MjcoreVectorEnv`, a Gymnasium vector env over VectorEnv (self-play or bot opponents);
* :class:`SelfPlayEnv` — one learner at every seat of N games, all seats' observations batched;
* :func:`action_table`, :func:`encode_action`, :func:`decode_action` — the action indices;
* :class:`Encoder` — the observation encoding (docs/rl.md documents it field by field).

Needs the ``rl`` extra (``pettingzoo``, ``gymnasium``) for the envs; the action table and the
encoder need numpy only.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    ActionTable,
    action_table,
    decode_action,
    encode_action,
    resolve_rules,
    table_for,
)
from .encoding import Encoder, Field
from .table import Table

__all__ = [
    "ENV_IDS",
    "ActionTable",
    "Encoder",
    "Field",
    "MjcoreAEC",
    "MjcoreGymEnv",
    "MjcoreVectorEnv",
    "SelfPlayEnv",
    "Table",
    "VectorEnv",
    "action_table",
    "decode_action",
    "encode_action",
    "env",
    "observation_layout",
    "resolve_rules",
    "table_for",
]


def env(
    variant: Any,  # a name, a Variant or a Rules (then without players/options)
    players: int = 4,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    wall: Any = None,
    hands: int | None = None,
    render_mode: str | None = None,
) -> Any:
    """A PettingZoo ``AECEnv`` of ``variant`` (``hands=N``: a Match of N hands an episode)."""
    from .aec import MjcoreAEC

    return MjcoreAEC(variant, players, options, seed, wall, hands, render_mode)


def observation_layout(variant: Any, options: dict[str, Any] | None = None) -> tuple[Field, ...]:
    """Every field of the observation vector of ``variant`` under ``options``."""
    return Encoder(variant, options).layout()


def __getattr__(name: str) -> Any:
    if name == "MjcoreAEC":
        from .aec import MjcoreAEC

        return MjcoreAEC
    if name in ("MjcoreGymEnv", "ENV_IDS"):
        from . import gym

        return getattr(gym, name)
    if name == "VectorEnv":
        from .vector import VectorEnv

        return VectorEnv
    if name == "SelfPlayEnv":
        from .selfplay import SelfPlayEnv

        return SelfPlayEnv
    if name == "MjcoreVectorEnv":
        from .gym_vector import MjcoreVectorEnv

        return MjcoreVectorEnv
    raise AttributeError(f"module 'mjcore.rl' has no attribute {name!r}")


try:  # register the Gymnasium ids when gymnasium is installed
    from .gym import register_envs as _register

    _register()
except ImportError:  # pragma: no cover - the rl extra is not installed
    pass
