"""Throughput of full hands of every variant and latency of a server's hot path (one core).

Run: ``pytest bench/bench_games.py --benchmark-enable``, or ``python bench/bench_games.py
[VARIANT …]`` for the plain report: per variant, hands/s with random and greedy bots,
``new_game`` µs, the ``legal_actions`` + ``apply`` median and p99, and the memory of a live
game mid-hand — for the installed (compiled) engine and, in the same run, for its
pure-Python fallback (``MJCORE_PURE_PYTHON=1``, measured in a subprocess), with the ratio.
Timings are CPU time of this process (``time.process_time``), best of three rounds, so a
second job on the other core moves them little. Inputs (seeds, and the action traces the
latency benchmarks replay) are generated up front from fixed seeds; only the calls are timed.

Baselines in the same run: the pure-Python engine (report), and the same traces driven the
way a naive server would — text actions (``apply(seat, "discard 5p")``) plus a fresh
``view()`` for every seat after every action — against the fast path (``legal_actions`` +
``apply`` with Action objects).
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc

import pytest
from conftest import size

import mjcore
from mjcore.engine.game import Game
from mjcore.sim import play_game
from mjcore.sim.runner import make_job, play_hand
from mjcore.variants import get_variant

VARIANTS = ("xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng")
N_GAMES = size(200, 4)
N_TRACES = size(100, 3)
_KEEPS_BOTS = "kept" in (play_hand.__doc__ or "")  # (False in a build before it: --against)


def play_many(variant: str, bots: str, games: int = N_GAMES, seed: int = 42) -> int:
    """Play hands 0..games-1 of a seeded run exactly as ``simulate`` does (one Job)."""
    job = make_job(variant, games, 4, None, bots, seed, False, False)
    if not _KEEPS_BOTS:
        return sum(play_hand(job, i)[1] for i in range(games))
    kept: list = [None] * job.players  # (the bots a chunk carries from hand to hand)
    return sum(play_hand(job, i, None, kept)[1] for i in range(games))


def new_games(variant: str, n: int = N_GAMES) -> None:
    """``n`` fresh seeded hands (shuffle, deal, per-hand set-up), as a simulation starts them."""
    v = get_variant(variant)
    for i in range(n):
        v.new_game(seed=i, dealer=i % 4)


def make_traces(variant: str, n: int = N_TRACES, seed: int = 7) -> list:
    """(variant, saved start of the hand, [(seat, Action)...]) of random-bot hands."""
    traces = []
    for i in range(n):
        game, _ = play_game(variant, i, bots="random", seed=seed)
        start = {**game.to_dict(), "history": []}  # same wall, dealer and options
        traces.append((variant, start, list(game.history)))
    return traces


def replay_fast(games, traces) -> None:
    for game, (_, _, actions) in zip(games, traces, strict=False):
        for seat, action in actions:
            game.legal_actions(seat)
            game.apply(seat, action)


def replay_text_server(games, traces) -> None:
    for game, (_, _, actions) in zip(games, traces, strict=False):
        for seat, action in actions:
            game.apply(seat, str(action))
            for s in range(game.n):
                game.view(s)


def fresh_games(traces):
    return [Game.from_dict(start) for _, start, _ in traces]


def per_action_latency(traces, text: bool = False) -> list[float]:
    """Each action's legal_actions + apply time in µs (perf_counter_ns around the pair)."""
    out = []
    clock = time.perf_counter_ns
    for game, (_, _, actions) in zip(fresh_games(traces), traces, strict=False):
        for seat, action in actions:
            arg = str(action) if text else action
            t0 = clock()
            game.legal_actions(seat)
            game.apply(seat, arg)
            out.append((clock() - t0) / 1000)
    return out


# ---- pytest-benchmark ---------------------------------------------------------------------
@pytest.fixture(scope="module", params=VARIANTS)
def traces(request):
    return make_traces(request.param)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_full_hands(benchmark, variant, bots):
    play_many(variant, bots, games=5)  # warm up (imports, tables)
    actions = benchmark.pedantic(play_many, args=(variant, bots), rounds=3, warmup_rounds=0)
    assert actions > 0
    if benchmark.stats is None:  # smoke run (benchmarks disabled)
        return
    mean = benchmark.stats.stats.mean
    benchmark.extra_info.update(games_per_second=N_GAMES / mean, actions_per_game=actions / N_GAMES)


@pytest.mark.parametrize("variant", VARIANTS)
def test_new_game(benchmark, variant):
    new_games(variant, 5)  # warm up (imports, caches)
    benchmark.pedantic(new_games, args=(variant,), rounds=5, warmup_rounds=0)
    if benchmark.stats is not None:
        benchmark.extra_info.update(us_per_game=benchmark.stats.stats.mean / N_GAMES * 1e6)


@pytest.mark.parametrize("path", ["fast", "text_server"])
def test_hot_path(benchmark, traces, path):
    fn = replay_fast if path == "fast" else replay_text_server
    n_actions = sum(len(a) for _, _, a in traces)
    benchmark.pedantic(
        fn, setup=lambda: ((fresh_games(traces), traces), {}), rounds=5, warmup_rounds=1
    )
    if benchmark.stats is None:  # smoke run: the replay itself is the check
        return
    benchmark.extra_info.update(us_per_action=benchmark.stats.stats.mean / n_actions * 1e6)
    if path == "fast":
        lat = per_action_latency(traces)
        benchmark.extra_info.update(
            median_us=statistics.median(lat), p99_us=statistics.quantiles(lat, n=100)[98]
        )


# ---- plain report -------------------------------------------------------------------------
def live_game_bytes(variant: str, n: int = 100) -> float:
    """Bytes a live game holds mid-hand: ``n`` random-bot hands replayed to half their
    actions and kept alive, measured with tracemalloc (shared tables and caches excluded)."""
    plans = []
    for start, actions in (tr[1:] for tr in make_traces(variant, n, seed=3)):
        plans.append((start, actions[: len(actions) // 2]))
    Game.from_dict(plans[0][0])  # warm the shared caches
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    games = []
    for start, actions in plans:
        game = Game.from_dict(start)
        for seat, action in actions:
            game.apply(seat, action)
        games.append(game)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return used / len(games)


def _cpu(fn) -> float:
    c0 = time.process_time()
    fn()
    return time.process_time() - c0


def measure(variant: str) -> dict[str, float]:
    """The report's row for one variant (best of three rounds of CPU time)."""
    row: dict[str, float] = {}
    play_many(variant, "greedy", games=5)
    for bots in ("random", "greedy"):
        best = min(_cpu(lambda b=bots: play_many(variant, b)) for _ in range(3))
        row[bots] = N_GAMES / best
    new_games(variant, 5)
    row["new_game_us"] = min(_cpu(lambda: new_games(variant)) for _ in range(3)) / N_GAMES * 1e6
    traces = make_traces(variant)
    lat = min((per_action_latency(traces) for _ in range(3)), key=lambda xs: statistics.median(xs))
    row["median_us"] = statistics.median(lat)
    row["p99_us"] = statistics.quantiles(lat, n=100)[98]
    row["live_kb"] = live_game_bytes(variant) / 1024
    return row


def _pure_rows(variants: list[str]) -> dict[str, dict[str, float]]:
    """The same measurements of the pure-Python fallback, in a subprocess."""
    env = {**os.environ, "MJCORE_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, __file__, "--json", *variants],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


_COLUMNS = (
    ("random", "random h/s", "{:,.0f}", True),
    ("greedy", "greedy h/s", "{:,.0f}", True),
    ("new_game_us", "new_game µs", "{:.1f}", False),
    ("median_us", "act median µs", "{:.2f}", False),
    ("p99_us", "act p99 µs", "{:.1f}", False),
    ("live_kb", "live KB", "{:.1f}", False),
)


def report(variants: list[str] | None = None) -> None:
    variants = variants or list(VARIANTS)
    compiled = len(getattr(mjcore, "compiled_modules", list)()) > 0  # (older builds: none)
    rows = {v: measure(v) for v in variants}
    pure = _pure_rows(variants) if compiled else None
    base = "; baseline: the pure-Python fallback" if compiled else ""
    print(f"engine: {'compiled' if compiled else 'pure Python'}{base}")
    print(f"{'variant':16}" + "".join(f"{title:>22}" for _, title, _, _ in _COLUMNS))
    for v in variants:
        cells = []
        for key, _, fmt, higher in _COLUMNS:
            cell = fmt.format(rows[v][key])
            if pure is not None:
                ratio = rows[v][key] / pure[v][key] if higher else pure[v][key] / rows[v][key]
                cell += f" ({fmt.format(pure[v][key])}, {ratio:.2f}x)"
            cells.append(cell)
        print(f"{v:16}" + "".join(f"{c:>22}" for c in cells))
    if pure is not None:
        print("cells: compiled (pure Python, compiled's advantage)")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--json":
        print(json.dumps({v: measure(v) for v in args[1:] or VARIANTS}))
    else:
        report(args or None)
