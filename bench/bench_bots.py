"""Strength and cost of the reference agents (issue 26's targets; measurements, not timed tests).

* ``expert`` at one seat against three ``greedy``, duplicate deals: its mean score per hand
  with the 95 % interval, per variant, with default options and with the variant's main
  options on (target: the interval above zero everywhere, over ≥ 20,000 deals);
* ``mc`` (``mc:ms=50`` by default) against three ``expert``: the same;
* ``learned`` against three ``greedy`` and three ``expert`` (``--learned-deals N``);
* the decision cost of every agent on the same decisions (µs, and the ratio to greedy), and
  the hands/s of ``simulate`` with each agent at every seat.

Run: ``python bench/bench_bots.py [DEALS [VARIANT,…]] [--mc-deals N] [--mc MC_SPEC]
[--workers N] [--cost-hands N]`` for the table (0 skips those rows), e.g.
``python bench/bench_bots.py 2000 --mc-deals 50``. The
test suite's smoke pass (``pytest bench``) runs each measurement once on a few deals.
Agents are passed as classes (not names), so a compiled install whose registry predates them
still runs them.
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Sequence
from typing import Any

from conftest import size

from mjcore.bots.expert import ExpertBot
from mjcore.bots.greedy import GreedyBot
from mjcore.bots.learned import LearnedBot
from mjcore.bots.mc import MCBot
from mjcore.bots.random_bot import RandomBot
from mjcore.sim import simulate
from mjcore.variants import get_variant, names

MAIN_OPTIONS: dict[str, dict[str, Any]] = {
    "xuezhan_kaxinwu": {"three_suits": True, "gang_chain": "compound"},
    "lipu": {"zuoma": True, "laogang": True, "zhuama": 2},
    "susong": {"piaohua": True, "chuzeng": 1},
    "qingdao": {"niupai": True},
    "rongcheng": {"luanzhang": True},
}
"""Each variant's main options on (the "with options" rows)."""

AGENTS: dict[str, Any] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
    "mc:ms=50": functools.partial(MCBot, ms=50),
}


def mc_agent(spec: str) -> Any:
    """``mc:ms=50`` / ``mc:rollouts=200`` as a factory (picklable)."""
    key, _, value = spec.partition(":")[2].partition("=")
    return functools.partial(MCBot, **{key: float(value) if key == "ms" else int(value)})


def strength(
    variant: str,
    agent: Any,
    field: Any,
    deals: int,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    workers: int = 1,
) -> dict[str, float]:
    """``agent`` at one seat, ``field`` at the others, duplicate: mean score/hand ± 95 %."""
    players = 4
    stats = simulate(
        variant,
        deals * players,
        bots=[agent] + [field] * (players - 1),
        options=options,
        seed=seed,
        workers=workers,
        duplicate=True,
    )
    label = stats.bots[0]
    row = stats.bot_report()[label]
    mean, ci = row["score_mean"], row["duplicate_ci95"]
    return {"mean": mean, "ci95": ci, "low": mean - ci, "deals": deals, "seconds": stats.seconds}


def decision_cost(variant: str, hands: int, agents: dict[str, Any], seed: int = 3) -> dict:
    """Mean CPU µs per decision of each agent on the same decisions (greedy plays the hands;
    every agent is asked at every decision with more than one legal action). CPU time, not
    wall time: on a shared machine the ratios then survive other programs' load."""
    var = get_variant(variant)
    spent = {name: 0.0 for name in agents}
    count = 0
    warm = var.new_game(seed=seed - 1)  # one untimed decision each: loading weights is not one
    for make in agents.values():
        make(0).act_fast(warm, warm.current, warm.legal_actions(warm.current))
    for h in range(hands):
        game = var.new_game(seed=seed + h, dealer=h % 4)
        bots = {name: [make(s) for s in range(4)] for name, make in agents.items()}
        drive = [GreedyBot(s) for s in range(4)]
        while not game.is_over:
            seat = game.current if game.phase == "turn" else game.to_act()[0]
            legal = game.legal_actions(seat)
            if len(legal) > 1:
                count += 1
                for name in agents:
                    t0 = time.process_time()
                    bots[name][seat].act_fast(game, seat, legal)
                    spent[name] += time.process_time() - t0
            game.apply(seat, drive[seat].act_fast(game, seat, legal))
    return {name: 1e6 * s / max(count, 1) for name, s in spent.items()} | {"decisions": count}


def hands_per_second(variant: str, hands: int, agent: Any) -> float:
    """simulate() hands/s (one process) with ``agent`` at every seat."""
    return float(simulate(variant, hands, bots=agent, seed=2).hands_per_second)


# ---- smoke tests (pytest bench) ------------------------------------------------------------------
def test_expert_against_greedy_smoke():
    row = strength("lipu", ExpertBot, GreedyBot, size(2000, 2))
    assert row["deals"] >= 2 and row["ci95"] >= 0


def test_mc_against_expert_smoke():
    row = strength("susong", mc_agent("mc:rollouts=4"), ExpertBot, size(50, 1))
    assert row["ci95"] >= 0


def test_learned_against_greedy_smoke():
    row = strength("xuezhan_kaxinwu", LearnedBot, GreedyBot, size(2000, 2))
    assert row["deals"] >= 2 and row["ci95"] >= 0


def test_decision_cost_smoke():
    cost = decision_cost("qingdao", size(20, 1), {"greedy": GreedyBot, "expert": ExpertBot})
    assert cost["decisions"] > 0 and cost["expert"] > 0


# ---- the table -----------------------------------------------------------------------------------
def _line(variant: str, what: str, row: dict[str, float]) -> str:
    mark = "CI > 0" if row["low"] > 0 else "not shown"
    return (
        f"{variant:<16} {what:<22} {row['mean']:+.4f} ± {row['ci95']:.4f}  "
        f"({row['deals']} deals, {row['seconds']:.0f}s)  {mark}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="?", type=int, default=2000)
    parser.add_argument("variants", nargs="?", default=",".join(names()))
    parser.add_argument("--mc-deals", type=int, default=40, help="deals of mc vs expert")
    parser.add_argument("--mc", default="mc:ms=50", help="the mc agent's spec")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cost-hands", type=int, default=10, help="0: no cost rows")
    parser.add_argument(
        "--learned-deals", type=int, default=0, help="deals of learned v greedy and v expert"
    )
    args = parser.parse_args(argv)
    mc = mc_agent(args.mc)
    for variant in args.variants.split(","):
        for label, opts in (("default", None), ("main options", MAIN_OPTIONS.get(variant))):
            if not args.deals:
                break
            row = strength(variant, ExpertBot, GreedyBot, args.deals, opts, workers=args.workers)
            print(_line(variant, f"expert v greedy {label}", row), flush=True)
        if args.learned_deals:
            for field, name in ((GreedyBot, "greedy"), (ExpertBot, "expert")):
                row = strength(variant, LearnedBot, field, args.learned_deals, workers=args.workers)
                print(_line(variant, f"learned v {name}", row), flush=True)
        if args.mc_deals:
            row = strength(variant, mc, ExpertBot, args.mc_deals, workers=args.workers)
            print(_line(variant, f"{args.mc} v expert", row), flush=True)
        if not args.cost_hands:
            continue
        agents = {"greedy": GreedyBot, "random": RandomBot, "expert": ExpertBot}
        agents["learned"] = LearnedBot
        cost = decision_cost(variant, args.cost_hands, agents)
        mc_cost = decision_cost(variant, 1, {"greedy": GreedyBot, args.mc: mc})
        g = cost["greedy"]
        print(
            f"{variant:<16} µs/decision ({cost['decisions']} decisions): greedy {g:.1f}, "
            f"random {cost['random']:.1f}, expert {cost['expert']:.1f} "
            f"({cost['expert'] / g:.1f}x greedy), learned {cost['learned']:.1f}, "
            f"{args.mc} {mc_cost[args.mc]:.0f}",
            flush=True,
        )
        hg = hands_per_second(variant, 200, GreedyBot)
        he = hands_per_second(variant, 200, ExpertBot)
        print(f"{variant:<16} simulate hands/s: greedy {hg:.0f}, expert {he:.0f}", flush=True)


if __name__ == "__main__":
    main()
