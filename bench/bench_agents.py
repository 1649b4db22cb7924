"""The agent protocol's cost: a trivial compiled agent (first legal action, bench/agents/
first_legal.c) at every seat against the same agent in process (the baselines, beside it in
the same run): the same decisions, so the same hands. Against the in-process bot that reads
the seat's view (``act(view, legal)``) the difference is the protocol — the view as a JSON
line, the agent's round trip, reading the answer, hand_start and hand_end spread over the
decisions; against one that reads the engine (``act_fast``, no view) it is also the view.
The agent runs on its host's CPU (``cpu=host``, the default); ``python bench/bench_agents.py
HANDS any`` measures it placed by the system instead (``cpu=any``).

Run: ``pytest bench/bench_agents.py --benchmark-enable`` or ``python bench/bench_agents.py
[HANDS]`` for the per-decision table (also the view's and the pipe's own share).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from mjcore.agents import exec as agent_exec
from mjcore.agents import protocol
from mjcore.agents.process import AgentProcess
from mjcore.sim import simulate

HERE = Path(__file__).parent
VARIANT = "qingdao"
HANDS = int(os.environ.get("MJCORE_BENCH_AGENT_HANDS", "100"))


class FirstLegalView:
    """The in-process baseline: the first legal action from the seat's view, as a Python
    agent written to mjcore's bot protocol gets it (``act(view, legal)``)."""

    def __init__(self, seed: Any = None) -> None:
        pass

    def act(self, view: dict[str, Any], legal: Any) -> Any:
        return legal[0]


class FirstLegal(FirstLegalView):
    """The same from the engine directly (``act_fast``: no view is built)."""

    def act_fast(self, game: Any, seat: int, legal: Any) -> Any:
        return legal[0]


BASELINES = {"in-process": FirstLegalView, "in-process-no-view": FirstLegal}


def build_agent(folder: str) -> str:
    """Compile first_legal.c into ``folder``; its path."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    out = os.path.join(folder, "first_legal")
    subprocess.run([cc, "-O2", "-o", out, str(HERE / "agents" / "first_legal.c")], check=True)
    return out


def run(bots: Any, hands: int) -> Any:
    return simulate(VARIANT, hands, bots=bots, seed=1)


@pytest.fixture(scope="module")
def agent(tmp_path_factory: Any) -> Any:
    path = build_agent(str(tmp_path_factory.mktemp("agent")))
    yield f"exec:{path}"
    agent_exec.stop_all()


@pytest.mark.parametrize("impl", [*BASELINES, "exec"])
def test_first_legal_decisions(benchmark: Any, agent: str, impl: str) -> None:
    bots = BASELINES.get(impl, agent)
    hands = HANDS if benchmark.enabled else 4
    run(bots, 4)  # the agent processes start outside the timing (they are reused)
    benchmark.group = f"first legal action at every seat, {VARIANT}, {hands} hands"
    stats = benchmark.pedantic(run, args=(bots, hands), rounds=5, iterations=1)
    benchmark.extra_info["decisions"] = stats.actions
    assert not stats.faults


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measure(hands: int, cpu: str = "host") -> dict[str, float]:
    """µs a decision: in process, through the agent, and the parts of the difference —
    wall time (best of 5) and CPU time (host and agents, system time included: the pipes'
    cost; it does not count waiting for a CPU, so it moves less with the machine's load)."""
    with tempfile.TemporaryDirectory() as folder:
        spec = f"exec:{build_agent(folder)}:cpu={cpu}"
        out: dict[str, float] = {}
        cases = (("in_process_view", FirstLegalView), ("in_process", FirstLegal), ("exec", spec))
        for name, bots in cases:
            best, cpu = float("inf"), []
            for _ in range(5):
                c0, t0 = cpu_seconds(), time.perf_counter()
                stats = run(bots, hands)
                best = min(best, time.perf_counter() - t0)
                agent_exec.stop_all()  # the agents' CPU time is counted once they exited
                cpu.append(cpu_seconds() - c0)
            out["decisions"] = stats.actions
            out[name] = best / stats.actions * 1e6
            out[f"{name}_cpu"] = min(cpu) / stats.actions * 1e6
        out["overhead"] = out["exec"] - out["in_process_view"]  # the target: ≤ 50 µs
        out["overhead_cpu"] = out["exec_cpu"] - out["in_process_view_cpu"]
        out["overhead_no_view"] = out["exec"] - out["in_process"]
        out.update(parts(spec, hands))
        agent_exec.stop_all()
    return out


def parts(spec: str, hands: int) -> dict[str, float]:
    """The view alone, the JSON line alone, and the bare round trip, per decision."""
    from mjcore.variants import get_variant

    variant = get_variant(VARIANT)
    views = []
    view_s = 0.0
    for seed in range(max(4, hands // 10)):
        game = variant.new_game(players=4, seed=seed)
        while not game.is_over:
            seat = game.current if game.phase == "turn" else game.to_act()[0]
            t0 = time.perf_counter()
            views.append(game.view(seat))
            view_s += time.perf_counter() - t0
            game.apply(seat, game.legal_actions(seat)[0])
    t0 = time.perf_counter()
    lines = [protocol.encode(protocol.decide(0, i, v)) for i, v in enumerate(views)]
    encode_s = time.perf_counter() - t0
    hello = protocol.encode(protocol.hello(VARIANT, 4, {}, 0, 1000, "simulation"))
    parsed = agent_exec.parse_exec(spec)
    proc = AgentProcess(parsed.argv, None, hello, 10000, share_cpu=parsed.cpu == "host")
    assert proc.start() == ""
    t0 = time.perf_counter()
    for line in lines:
        proc.ask(line, 1000)
    trip_s = time.perf_counter() - t0
    proc.stop()
    n = len(views)
    return {
        "view": view_s / n * 1e6,
        "encode": encode_s / n * 1e6,
        "round_trip": trip_s / n * 1e6,
    }


if __name__ == "__main__":
    cpu = sys.argv[2] if len(sys.argv) > 2 else "host"
    result = measure(int(sys.argv[1]) if len(sys.argv) > 1 else HANDS, cpu)
    decisions = result["decisions"]
    print(f"{VARIANT}, first legal action at every seat, cpu={cpu}, {decisions:.0f} decisions")
    print("µs a decision (wall: best of 5; _cpu: CPU time of host and agents, least of 5):")
    for key, value in result.items():
        print(f"  {key:12} {value:8.1f}")
