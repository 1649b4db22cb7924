"""mjcore.rl where learners look (issue 35): masks for sb3-contrib, flat observations, the
Gymnasium vector env (``make_vec`` … ``vector_entry_point``), self-play, the recipes."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

import mjcore.rl as rl  # noqa: E402
from mjcore.errors import IllegalActionError  # noqa: E402
from mjcore.variants import names  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
IDS = list(rl.ENV_IDS.values())


def _uniform(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal index per row of ``mask`` (rows of the last axis)."""
    r = (rng.random(mask.shape[:-1]) * mask.sum(axis=-1)).astype(np.int64)
    return (mask.cumsum(axis=-1) > r[..., None]).argmax(axis=-1)


# ---- 1. masks in the single env ---------------------------------------------------------------
@pytest.mark.parametrize("env_id", IDS)
def test_the_mask_is_in_info_and_action_masks_and_is_the_legal_set(env_id):
    env = gymnasium.make(env_id, opponents="greedy")
    inner = env.unwrapped
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        legal = {inner.table.encode(a) for a in inner.game.legal_actions(inner.seat)}
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and set(np.flatnonzero(mask)) == legal
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert np.array_equal(info["action_mask"].astype(bool), mask)
        obs, reward, done, _, info = env.step(int(_uniform(obs["action_mask"], rng)))
        assert "illegal" not in info
    assert not info["action_mask"].any()  # nobody asked once the hand is over


@pytest.mark.parametrize("variant", names())
def test_flat_observations_are_the_dict_observation_and_pass_check_env(variant):
    env_id = rl.ENV_IDS[variant]
    flat = gymnasium.make(env_id, flat=True, opponents="greedy")
    full = gymnasium.make(env_id, opponents="greedy")
    assert isinstance(flat.observation_space, gymnasium.spaces.Box)
    assert flat.observation_space == full.observation_space["observation"]
    fo, finfo = flat.reset(seed=9)
    do, dinfo = full.reset(seed=9)
    rng = np.random.default_rng(2)
    for _ in range(30):
        assert np.array_equal(fo, do["observation"])
        assert np.array_equal(finfo["action_mask"], do["action_mask"])
        a = int(_uniform(finfo["action_mask"], rng))
        fo, fr, fd, _, finfo = flat.step(a)
        do, dr, dd, _, dinfo = full.step(a)
        assert (fr, fd) == (dr, dd)
        if fd:
            break
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(flat.unwrapped)


def test_render_ansi_draws_the_table_as_the_seat_sees_it():
    env = gymnasium.make("mjcore/Qingdao-v0", render_mode="ansi", opponents="greedy")
    env.reset(seed=2)
    text = env.render()
    assert text.startswith("qingdao · phase") and "seat 0 (" in text and "(E, dealer, you)" in text
    aec = rl.env("lipu", render_mode="ansi")
    aec.reset(seed=3)
    seat = aec.agent_name_mapping[aec.agent_selection]
    assert f"seat {seat} (" in aec.render() and "you" in aec.render()


def test_maskable_ppo_trains_on_the_registered_env_with_no_wrapper():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = gymnasium.make("mjcore/XuezhanKaxinwu-v0", illegal="raise")
    assert is_masking_supported(env)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=0)
    model.learn(32)  # illegal="raise": a single unmasked action would fail the run
    obs, _ = env.reset(seed=1)
    for _ in range(20):
        masks = get_action_masks(env)
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[int(action)]
        obs, _, done, _, _ = env.step(int(action))
        if done:
            obs, _ = env.reset()


# ---- 2. the Gymnasium vector env ----------------------------------------------------------------
@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_gives_a_gymnasium_vector_env_with_batched_spaces(env_id):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. a missing autoreset_mode would warn
        env = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(env, gymnasium.vector.VectorEnv) and env.num_envs == 3
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.observation_space == batch_space(env.single_observation_space, 3)
    assert env.action_space == batch_space(env.single_action_space, 3)
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs, reward, term, trunc, info = env.step(_uniform(obs["action_mask"], rng))
        assert env.observation_space.contains(obs)
        assert reward.shape == term.shape == trunc.shape == (3,)
        assert np.array_equal(info["action_mask"], obs["action_mask"])
    env.close()


def _run(env, seed, steps, actions_rng):
    obs, _ = env.reset(seed=seed)
    out = []
    for _ in range(steps):
        obs, reward, term, _, info = env.step(_uniform(env.unwrapped.vec.mask, actions_rng))
        out.append((obs, reward, term, info))
    return out


@pytest.mark.parametrize("opponents", [None, "greedy"])
def test_vector_env_seeds_reproduce_and_returned_arrays_are_not_reused(opponents):
    kw = {"num_envs": 4, "vectorization_mode": "vector_entry_point", "opponents": opponents}
    a = _run(gymnasium.make_vec("mjcore/Lipu-v0", **kw), 7, 200, np.random.default_rng(3))
    b = _run(gymnasium.make_vec("mjcore/Lipu-v0", **kw), 7, 200, np.random.default_rng(3))
    for (oa, ra, ta, ia), (ob, rb, tb, ib) in zip(a, b, strict=True):
        assert np.array_equal(oa["observation"], ob["observation"])  # (kept arrays: copies)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        assert np.array_equal(ia["game_seed"], ib["game_seed"])
    assert not np.shares_memory(a[0][0]["observation"], a[1][0]["observation"])
    assert any(t.any() for _, _, t, _ in a)


def test_self_play_vector_env_is_the_raw_vector_env_step_for_step():
    gym_env = gymnasium.make_vec("mjcore/Qingdao-v0", 5, vectorization_mode="vector_entry_point")
    raw = rl.VectorEnv("qingdao", 5, seed=11)
    obs, info = gym_env.reset(seed=11)
    robs, rmask, rseat = raw.reset()
    rng = np.random.default_rng(4)
    finished = 0
    for _ in range(300):
        assert np.array_equal(obs["observation"], robs) and np.array_equal(info["seat"], rseat)
        acts = _uniform(rmask, rng)
        actor = rseat.copy()
        obs, reward, term, _, info = gym_env.step(acts)
        robs, rmask, rseat, rrew, rdone, rinfo = raw.step(acts)
        assert np.array_equal(term, rdone) and np.array_equal(info["rewards"], rrew)
        assert np.array_equal(reward, rrew[np.arange(5), actor])
        if term.any():
            finished += int(term.sum())
            rows = np.flatnonzero(term)
            assert np.array_equal(info["_final_obs"], term)
            assert np.array_equal(info["final_info"]["scores"][rows], rinfo["final_scores"][rows])
            for i in rows:  # the finished game's last observation: phase over, nobody asked
                final = info["final_obs"][i]
                assert (
                    not final["action_mask"].any() and final["observation"].shape == robs[i].shape
                )
    assert finished > 0


def test_vector_env_with_bots_rewards_the_learner_with_its_score():
    env = gymnasium.make_vec(
        "mjcore/XuezhanKaxinwu-v0",
        4,
        vectorization_mode="vector_entry_point",
        opponents="greedy",
        seat=0,
    )
    obs, info = env.reset(seed=2)
    assert (info["seat"] == 0).all()
    totals = np.zeros(4)
    rng = np.random.default_rng(5)
    episodes = 0
    for _ in range(400):
        obs, reward, term, _, info = env.step(_uniform(obs["action_mask"], rng))
        assert (info["seat"] == 0).all()  # every row waits for the learner
        totals += reward
        for i in np.flatnonzero(term):
            assert totals[i] == info["final_info"]["scores"][i][0]
            assert sum(info["final_info"]["scores"][i]) == 0
            totals[i] = 0
            episodes += 1
    assert episodes >= 4


def test_vector_env_illegal_actions_play_the_first_legal_or_raise():
    env = gymnasium.make_vec("mjcore/Susong-v0", 3, vectorization_mode="vector_entry_point")
    obs, _ = env.reset(seed=1)
    bad = np.array([obs["action_mask"][i].argmin() for i in range(3)])
    _, _, _, _, info = env.step(bad)
    assert info["illegal"].all()
    strict = gymnasium.make_vec(
        "mjcore/Susong-v0", 3, vectorization_mode="vector_entry_point", illegal="raise"
    )
    obs, _ = strict.reset(seed=1)
    before = strict.unwrapped.vec.tables[0].game.to_dict()
    with pytest.raises(IllegalActionError):
        strict.step(np.array([obs["action_mask"][i].argmin() for i in range(3)]))
    assert strict.unwrapped.vec.tables[0].game.to_dict() == before
    with pytest.raises(IllegalActionError):
        strict.step(np.zeros(2, dtype=np.int64))


def test_flat_vector_env_has_box_observations_and_masks_in_infos():
    env = gymnasium.make_vec(
        "mjcore/Rongcheng-v0", 2, vectorization_mode="vector_entry_point", flat=True
    )
    obs, info = env.reset(seed=0)
    assert isinstance(env.single_observation_space, gymnasium.spaces.Box)
    assert obs.shape == (2, env.single_observation_space.shape[0])
    assert info["action_mask"].shape == (2, env.single_action_space.n)


# ---- 3. self-play: every seat of every game -----------------------------------------------------
@pytest.mark.parametrize("variant", names())
def test_self_play_batches_every_seat_and_matches_the_encoder(variant):
    env = rl.SelfPlayEnv(variant, 3, seed=6)
    obs, mask = env.reset()
    enc = env.encoder
    rng = np.random.default_rng(7)
    ends = 0
    for step in range(150):
        for i, table in enumerate(env.tables):
            game = table.game
            asked = game.to_act()
            for s in range(env.players):
                if step % 10 == 0:
                    assert np.array_equal(obs[i, s], enc.observation(game, s))
                legal = (
                    {enc.table.encode(a) for a in game.legal_actions(s)} if s in asked else set()
                )
                assert set(np.flatnonzero(mask[i, s])) == legal
        obs, mask, rewards, done, info = env.step(np.where(mask.any(2), _uniform(mask, rng), 0))
        assert (rewards.sum(axis=1) == 0).all()
        ends += int(done.sum())
        assert (info["final_scores"][~done] == 0).all()
    assert ends > 0


def test_self_play_checks_every_asked_seat_before_any_game_moves():
    env = rl.SelfPlayEnv("qingdao", 2, seed=1)
    obs, mask = env.reset()
    acts = _uniform(mask, np.random.default_rng(0))
    i, s = np.argwhere(mask.any(axis=2))[-1]
    acts[i, s] = int(np.flatnonzero(mask[i, s] == 0)[0])
    before = [t.game.to_dict() for t in env.tables]
    with pytest.raises(IllegalActionError, match=rf"actions\[{i}, {s}\]"):
        env.step(acts)
    assert [t.game.to_dict() for t in env.tables] == before
    with pytest.raises(IllegalActionError):
        env.step(np.zeros((2, 3), dtype=np.int64))


def test_self_play_seeds_reproduce():
    runs = []
    for _ in range(2):
        env = rl.SelfPlayEnv("xuezhan_kaxinwu", 2, seed=3)
        obs, mask = env.reset()
        rng = np.random.default_rng(8)
        got = []
        for _ in range(80):
            obs, mask, rewards, done, info = env.step(_uniform(mask, rng))
            got.append((obs.copy(), rewards.copy()))
        runs.append(got)
    for (oa, ra), (ob, rb) in zip(*runs, strict=True):
        assert np.array_equal(oa, ob) and np.array_equal(ra, rb)


# ---- 5. the recipes run -------------------------------------------------------------------------
def _example(name: str, *args: str) -> str:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name), *args],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_sb3_maskable_ppo_recipe_runs():
    pytest.importorskip("sb3_contrib")
    out = _example(
        "rl_sb3_maskable_ppo.py", "--steps", "32", "--n-steps", "32", "--eval-hands", "2"
    )
    assert "trained 32 steps" in out and "illegal actions: 0" in out


def test_the_cleanrl_style_ppo_recipe_runs():
    pytest.importorskip("torch")
    out = _example("rl_cleanrl_ppo.py", "--num-envs", "2", "--num-steps", "16", "--iterations", "2")
    assert "iteration 2/2" in out and "illegal actions: 0" in out
