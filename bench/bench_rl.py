"""RL environment throughput (issue 24): env steps per second on one core, random masked
actions, every case in the same run:

* ``engine`` — the bare engine loop (``legal_actions`` + ``apply`` of a random legal action, no
  observation): the cap any env over this engine can reach;
* ``naive`` — an env built on ``game.view()`` + ``legal_actions()`` (the view dict and the legal
  list of every step, the action picked among the legal texts);
* ``aec`` — the PettingZoo AEC env (``observe`` → observation + mask, ``step``);
* ``vector1`` / ``vector64`` / ``vector256`` — :class:`mjcore.rl.VectorEnv` with N games;
* ``gymvec64`` / ``gymvec256`` — the Gymnasium vector env over it
  (``gymnasium.make_vec(id, N, vectorization_mode="vector_entry_point")``, self-play: every
  seat learns), arrays copied as Gymnasium's own vector envs do, infos built every step: the
  learners' figure beside the raw one (target: ≥ 0.8× ``vector64``);
* ``riichienv`` / ``pymahjong`` — the peers' envs (the ``bench-peers`` extra; skipped where they
  do not install): a riichi hand each, observation (``encode()`` planes / 93×34) and mask of
  every acting seat, one env step per call.

Run: ``cd bench && python -m pytest bench_rl.py --benchmark-only -q`` (``MJCORE_BENCH_RL_STEPS``,
default 20000 steps per case; ``MJCORE_BENCH_RL_VARIANT``, default qingdao), or
``python bench/bench_rl.py [STEPS [VARIANT]]`` for a plain table with the ratios (steps per CPU
second of the process: on a shared machine wall time also counts the other processes' turns;
``--benchmark-timer time.process_time`` does the same for pytest-benchmark).
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np
import pytest
from conftest import _RESULTS, NOTES, size  # (the summary table and its notes)

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from vector_steps import vector  # noqa: E402

import mjcore.rl as rl  # noqa: E402
from mjcore.rl._fast import seat_to_act  # noqa: E402
from mjcore.variants import get_variant  # noqa: E402

STEPS = size(int(os.environ.get("MJCORE_BENCH_RL_STEPS", "20000")), 300)
VARIANT = os.environ.get("MJCORE_BENCH_RL_VARIANT", "qingdao")
CASES = ("engine", "naive", "aec", "vector1", "vector64", "vector256", "gymvec64", "gymvec256")
PEERS = ("riichienv", "pymahjong")


def engine(variant: str, steps: int) -> int:
    """The bare engine: a random legal action per step, nothing observed."""
    v = get_variant(variant)
    pick = random.Random(0).randrange
    game, seed, done = v.new_game(seed=0), 0, 0
    while done < steps:
        if game.phase == "over":
            seed += 1
            game = v.new_game(seed=seed)
        seat = seat_to_act(game)
        legal = game.legal_actions(seat)
        game.apply(seat, legal[pick(len(legal))])
        done += 1
    return done


def naive(variant: str, steps: int) -> int:
    """The baseline: a view dict and the legal list per step, as a plain env would."""
    v = get_variant(variant)
    rng = np.random.default_rng(0)
    game, seed, done = v.new_game(seed=0), 0, 0
    while done < steps:
        if game.is_over:
            seed += 1
            game = v.new_game(seed=seed)
        seat = game.to_act()[0]
        view = game.view(seat)
        legal = view["legal_actions"]
        game.apply(seat, legal[int(rng.integers(len(legal)))])
        done += 1
    return done


def aec(variant: str, steps: int) -> int:
    env = rl.env(variant)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = 0
    while done < steps:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done += 1
    return done


def gymvec(variant: str, steps: int, n: int) -> int:
    """The Gymnasium vector env (self-play), the same random legal actions as :func:`vector`."""
    import gymnasium

    env = gymnasium.make_vec(rl.ENV_IDS[variant], n, vectorization_mode="vector_entry_point")
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = 0
    while done < steps:
        mask = obs["action_mask"]
        r = (rng.random(n) * mask.sum(axis=1)).astype(np.int64)
        obs, _, _, _, _ = env.step((mask.cumsum(axis=1) > r[:, None]).argmax(axis=1))
        done += n
    return done


def riichienv(steps: int) -> int:
    """riichienv's RiichiEnv (one riichi hand a game): encode() and mask() of each asked seat."""
    import riichienv as rv

    pick = random.Random(0).randrange
    env = rv.RiichiEnv(game_mode="4p-red-single", seed=0)
    obs = env.reset()
    done = 0
    while done < steps:
        if env.done():
            obs = env.reset()
        actions = {}
        for seat, o in obs.items():
            o.encode()
            o.mask()
            legal = o.legal_actions()
            actions[seat] = legal[pick(len(legal))]
        obs = env.step(actions)
        done += 1
    return done


def pymahjong(steps: int) -> int:
    """pymahjong's MahjongEnv (one riichi hand a game): the 93×34 observation and the mask."""
    import pymahjong as pm

    env = pm.MahjongEnv()
    env.reset()
    rng = np.random.default_rng(0)
    done = 0
    while done < steps:
        if env.is_over():
            env.reset()
        seat = env.get_curr_player_id()
        mask = env.get_valid_actions(nhot=True)
        env.get_obs(seat)
        env.step(seat, int(rng.choice(np.flatnonzero(mask))))
        done += 1
    return done


def runner(case: str, variant: str = VARIANT) -> Callable[[int], int]:
    """``steps -> steps done`` of ``case``."""
    if case in PEERS:
        return riichienv if case == "riichienv" else pymahjong
    if case == "engine":
        return lambda steps: engine(variant, steps)
    if case == "naive":
        return lambda steps: naive(variant, steps)
    if case == "aec":
        return lambda steps: aec(variant, steps)
    if case.startswith("gymvec"):
        g = int(case[len("gymvec") :])
        return lambda steps: gymvec(variant, steps, g)
    n = int(case[len("vector") :])
    return lambda steps: vector(variant, steps, n)


def steps_per_second(
    case: str,
    variant: str = VARIANT,
    steps: int = STEPS,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Steps per second of ``case`` by ``clock`` (wall time, or ``time.process_time``: the CPU
    seconds of this process, the fairer one-core figure on a shared machine)."""
    fn = runner(case, variant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (pymahjong's gym-era warnings)
        t = clock()
        n = fn(steps)
        return n / (clock() - t)


def ratio_lines(sps: dict[str, float]) -> list[str]:
    """VectorEnv's steps/s over the engine cap, the naive env and each peer measured."""
    lines = []
    for ref in ("engine", "naive", *PEERS):
        if ref in sps:
            parts = [f"{c} {sps[c] / sps[ref]:.2f}x" for c in CASES[2:] if c in sps]
            lines.append(f"rl {VARIANT} steps/s ÷ {ref}: " + ", ".join(parts))
    for n in (64, 256):
        if f"gymvec{n}" in sps and f"vector{n}" in sps:
            ratio = sps[f"gymvec{n}"] / sps[f"vector{n}"]
            lines.append(f"rl {VARIANT} Gymnasium vector env ÷ raw VectorEnv, N={n}: {ratio:.2f}x")
    return lines


_SPS: dict[str, float] = {}
LAST = [c for c in CASES + PEERS if c in CASES or importlib.util.find_spec(c)][-1]
"""The last case that runs: it files the ratio lines under the summary table."""


@pytest.mark.parametrize("case", CASES + PEERS)
def test_rl_steps(throughput, case):
    if case in PEERS:
        pytest.importorskip(case)
    fn = runner(case)
    label = f"rl steps/s {VARIANT if case not in PEERS else 'riichi'}: {case}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert fn(STEPS) >= STEPS  # (also the smoke run's one pass)
        throughput(label, "core", STEPS, fn, STEPS, rounds=3, warmup=0)
    measured = _RESULTS.get(label, {}).get("core")
    if measured:
        _SPS[case] = measured
        if case == LAST:
            NOTES.extend(ratio_lines(_SPS))


if __name__ == "__main__":
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    VARIANT = sys.argv[2] if len(sys.argv) > 2 else VARIANT
    sps: dict[str, float] = {}
    print(f"{VARIANT}, {steps} steps per case (peers: a riichi hand), steps per CPU second")
    for case in CASES + PEERS:
        try:
            sps[case] = steps_per_second(case, VARIANT, steps, time.process_time)
        except ImportError:
            print(f"{case:>10}: not installed (the bench-peers extra)")
            continue
        print(f"{case:>10}: {sps[case]:10.0f} steps/s")
    print("\n".join(ratio_lines(sps)))
