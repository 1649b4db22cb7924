"""The VectorEnv step loop every RL figure times: random legal actions, one per game a step
(numpy and mjcore only, so any build of mjcore can run it: ``bench_rl.py`` and
``vector_against.py`` share it)."""

from __future__ import annotations

import numpy as np

import mjcore.rl as rl


def vector(variant: str, steps: int, n: int) -> int:
    """Play ``steps`` game steps (``steps // n`` calls of ``step``) of ``VectorEnv(variant, n)``."""
    vec = rl.VectorEnv(variant, n, seed=0)
    _, mask, _ = vec.reset()
    rng = np.random.default_rng(0)
    done = 0
    while done < steps:  # a uniform legal index per game: the r-th set entry of its mask
        r = (rng.random(n) * mask.sum(axis=1)).astype(np.int64)
        actions = (mask.cumsum(axis=1) > r[:, None]).argmax(axis=1)
        _, mask, _, _, _, _ = vec.step(actions)
        done += n
    return done
