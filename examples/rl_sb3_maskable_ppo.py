"""sb3-contrib's MaskablePPO on an mjcore Gymnasium id, with no wrapper.

Run: ``pip install sb3-contrib`` (brings stable-baselines3 and PyTorch), then
``python examples/rl_sb3_maskable_ppo.py [--variant xuezhan_kaxinwu] [--steps 20000]
[--eval-hands 200]``.

The env exposes its legal-action mask the way sb3-contrib looks for it (``action_masks()``),
so ``MaskablePPO("MultiInputPolicy", gymnasium.make(id))`` trains as it is; ``illegal="raise"``
makes any unmasked action fail the run. The learner sits at seat 0 against three ``greedy``
bots; the evaluation plays ``--eval-hands`` more hands with the deterministic policy and
prints its mean score per hand (the greedy seats average the negative of it).
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks

import mjcore.rl  # noqa: F401  (registers the mjcore/<Variant>-v0 ids)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="xuezhan_kaxinwu")
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--eval-hands", type=int, default=200)
    ap.add_argument("--n-steps", type=int, default=256, help="steps per PPO rollout")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    env_id = mjcore.rl.ENV_IDS[args.variant]
    env = gymnasium.make(env_id, opponents="greedy", illegal="raise")
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(64, args.n_steps),
        n_epochs=4,
        seed=args.seed,
        verbose=0,
    )
    t = time.perf_counter()
    model.learn(args.steps)
    print(f"trained {args.steps} steps on {env_id} in {time.perf_counter() - t:.0f} s")

    scores, illegal = [], 0
    obs, _ = env.reset(seed=args.seed + 1)
    while len(scores) < args.eval_hands:
        masks = get_action_masks(env)
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)
        illegal += int(not masks[int(action)])
        obs, _, done, _, info = env.step(int(action))
        if done:
            scores.append(info["scores"][0])
            obs, _ = env.reset()
    s = np.array(scores, dtype=float)
    ci = 1.96 * s.std(ddof=1) / np.sqrt(len(s)) if len(s) > 1 else float("nan")
    print(f"policy vs 3 greedy: {s.mean():+.2f} ± {ci:.2f} points a hand over {len(s)} hands")
    print(f"illegal actions: {illegal}")


if __name__ == "__main__":
    main()
