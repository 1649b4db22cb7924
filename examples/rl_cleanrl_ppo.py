"""A CleanRL-style PPO (one file, PyTorch) on mjcore's Gymnasium vector env.

Run: ``pip install torch``, then ``python examples/rl_cleanrl_ppo.py [--variant qingdao]
[--num-envs 64] [--num-steps 128] [--iterations 50] [--opponents greedy]``.

``gymnasium.make_vec(id, num_envs, vectorization_mode="vector_entry_point")`` is backed by
the compiled VectorEnv; the mask comes with every observation and illegal logits are set to
−1e8 before sampling, so every action is legal (``illegal="raise"`` checks it). The loop is
CleanRL's ``ppo.py`` shape: roll out ``num_steps`` steps of every env, GAE, clipped-surrogate
updates over minibatches. The env autoresets in the same step (``terminated`` marks the rows),
so a finished row's next observation already belongs to a new hand: exactly what CleanRL's
``next_done`` bookkeeping expects. With ``--opponents none`` one learner plays every seat
(self-play: the reward of a row is the score change of the seat that acted).
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import mjcore.rl  # noqa: F401  (registers the ids and their vector entry points)


class Agent(nn.Module):
    def __init__(self, obs_size: int, actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.actor = nn.Linear(hidden, actions)
        self.critic = nn.Linear(hidden, 1)

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(self.body(x)).squeeze(-1)

    def act(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        h = self.body(x)
        logits = self.actor(h).masked_fill(~mask, -1e8)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(h).squeeze(-1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="qingdao")
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--num-steps", type=int, default=128)
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--opponents", default="greedy", help="a bot spec, or 'none' (self-play)")
    ap.add_argument("--lr", type=float, default=2.5e-4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    opponents = None if args.opponents == "none" else args.opponents
    envs = gymnasium.make_vec(
        mjcore.rl.ENV_IDS[args.variant],
        args.num_envs,
        vectorization_mode="vector_entry_point",
        opponents=opponents,
        illegal="raise",
    )
    n, steps = args.num_envs, args.num_steps
    obs_size = envs.single_observation_space["observation"].shape[0]
    actions = envs.single_action_space.n
    agent = Agent(obs_size, actions)
    optim = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    buf_obs = torch.zeros((steps, n, obs_size))
    buf_mask = torch.zeros((steps, n, actions), dtype=torch.bool)
    buf_act = torch.zeros((steps, n), dtype=torch.long)
    buf_logp, buf_rew, buf_done, buf_val = (torch.zeros((steps, n)) for _ in range(4))
    obs, _ = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(obs["observation"])
    next_mask = torch.as_tensor(obs["action_mask"] != 0)
    next_done = torch.zeros(n)
    illegal, hands, score_sum = 0, 0, 0.0
    t0 = time.perf_counter()
    for it in range(1, args.iterations + 1):
        for step in range(steps):
            buf_obs[step], buf_mask[step], buf_done[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            buf_act[step], buf_logp[step], buf_val[step] = action, logp, value
            illegal += int((~next_mask.gather(1, action[:, None])).sum())
            obs, reward, term, trunc, info = envs.step(action.numpy())
            buf_rew[step] = torch.as_tensor(reward, dtype=torch.float32) / 10  # points ÷ 10
            next_obs = torch.as_tensor(obs["observation"])
            next_mask = torch.as_tensor(obs["action_mask"] != 0)
            next_done = torch.as_tensor(np.logical_or(term, trunc), dtype=torch.float32)
            if opponents is not None and term.any():
                hands += int(term.sum())
                score_sum += float(info["final_info"]["scores"][term][:, 0].sum())
        with torch.no_grad():  # GAE(λ = 0.95), γ = 1: an episode is one hand
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(buf_rew)
            last = torch.zeros(n)
            for t in reversed(range(steps)):
                nonterminal = 1.0 - (next_done if t == steps - 1 else buf_done[t + 1])
                nv = next_value if t == steps - 1 else buf_val[t + 1]
                delta = buf_rew[t] + nv * nonterminal - buf_val[t]
                last = delta + 0.95 * nonterminal * last
                adv[t] = last
            ret = adv + buf_val
        b_obs, b_mask = buf_obs.reshape(-1, obs_size), buf_mask.reshape(-1, actions)
        b_act, b_logp = buf_act.reshape(-1), buf_logp.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        for _ in range(4):  # epochs
            for idx in torch.randperm(n * steps).split(max(n * steps // 4, 1)):
                _, logp, ent, val = agent.act(b_obs[idx], b_mask[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(0.8, 1.2)).mean()
                loss = pg + 0.5 * ((val - b_ret[idx]) ** 2).mean() - 0.01 * ent.mean()
                optim.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optim.step()
        sps = it * steps * n / (time.perf_counter() - t0)
        mean = f", learner {score_sum / hands:+.2f} a hand over {hands} hands" if hands else ""
        print(f"iteration {it}/{args.iterations}: {sps:.0f} env steps/s{mean}", flush=True)
    print(f"illegal actions: {illegal}")


if __name__ == "__main__":
    main()
