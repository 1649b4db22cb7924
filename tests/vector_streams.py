"""Digests of seeded VectorEnv runs: every observation, mask, seat, reward, done flag and
final score of a fixed stream of random legal steps (what ``tests/test_rl.py`` checks and
``tools/record_vector_digests.py`` records, with the build before issue 34's engine work).

One digest per variant and option set (default / fingerprints.MAIN_OPTIONS): a change to any
byte of any array a learner reads changes it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
from fingerprints import MAIN_OPTIONS

import mjcore.rl as rl

DATA = Path(__file__).parent / "data" / "vector_digests.json"
ENVS = 16
STEPS = 300
SEED = 34
OPTION_SETS = ("default", "main")


def combos() -> list[tuple[str, str]]:
    return [(v, o) for v in sorted(MAIN_OPTIONS) for o in OPTION_SETS]


def key(variant: str, option_set: str) -> str:
    return f"{variant}/{option_set}"


def stream_digest(variant: str, option_set: str) -> str:
    """The hex digest of ``STEPS`` steps of ``ENVS`` games, each step a seeded uniform pick
    among the legal actions of every game (finished games restart inside the env)."""
    options = MAIN_OPTIONS[variant] if option_set == "main" else None
    vec = rl.VectorEnv(variant, ENVS, options=options, seed=SEED)
    rng = np.random.default_rng(SEED)
    digest = hashlib.blake2b(digest_size=16)
    obs, mask, seat = vec.reset()
    arrays: tuple[Any, ...] = (obs, mask, seat)
    for _ in range(STEPS):
        for a in arrays:
            digest.update(np.ascontiguousarray(a).tobytes())
        r = (rng.random(ENVS) * mask.sum(axis=1)).astype(np.int64)
        actions = (mask.cumsum(axis=1) > r[:, None]).argmax(axis=1)
        obs, mask, seat, rewards, done, info = vec.step(actions)
        arrays = (obs, mask, seat, rewards, done, info["final_scores"])
    for a in arrays:
        digest.update(np.ascontiguousarray(a).tobytes())
    return digest.hexdigest()


def load() -> dict[str, Any]:
    return json.loads(DATA.read_text())
