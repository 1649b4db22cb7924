"""Throughput of full hands of every variant and latency of a server's hot path (one core).

Run: ``pytest bench/bench_games.py --benchmark-enable`` (or ``python bench/bench_games.py``
for a plain report). Inputs (seeds, and the action traces the latency benchmarks replay)
are generated up front from fixed seeds; only the calls are timed.

Baseline in the same run: the same traces driven the way a naive server would — text
actions (``apply(seat, "discard 5p")``) plus a fresh ``view()`` for every seat after every
action — against the fast path (``legal_actions`` + ``apply`` with Action objects).
"""

from __future__ import annotations

import statistics
import time

import pytest
from conftest import size

from mjcore.engine.game import Game
from mjcore.sim import play_game
from mjcore.variants import get_variant

VARIANTS = ("xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng")
N_GAMES = size(200, 4)
N_TRACES = size(100, 3)


def play_many(variant: str, bots: str, games: int = N_GAMES, seed: int = 42) -> int:
    actions = 0
    for i in range(games):
        actions += play_game(variant, i, bots=bots, seed=seed)[1]
    return actions


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
def report() -> None:
    for variant in VARIANTS:
        report_variant(variant)


def report_variant(variant: str) -> None:
    print(f"== {variant}")
    play_many(variant, "greedy", games=5)
    for bots in ("random", "greedy"):
        best = min(_timed(lambda b=bots: play_many(variant, b)) for _ in range(3))
        print(f"{bots:>7} bots: {N_GAMES / best:8.1f} hands/s")
    new_games(variant, 5)
    best = min(_timed(lambda: new_games(variant)) for _ in range(3))
    print(f"new_game     : {best / N_GAMES * 1e6:8.1f} µs")
    traces = make_traces(variant)
    n = sum(len(a) for _, _, a in traces)
    fast = min(_replay_time(replay_fast, traces) for _ in range(3))
    text = min(_replay_time(replay_text_server, traces) for _ in range(3))
    lat = per_action_latency(traces)
    lat_text = per_action_latency(traces, text=True)
    print(
        f"fast path   legal_actions+apply: {fast / n * 1e6:6.2f} µs/action (mean), "
        f"median {statistics.median(lat):.2f} µs, p99 {statistics.quantiles(lat, n=100)[98]:.2f} µs"
    )
    print(f"text apply (no views)         : median {statistics.median(lat_text):.2f} µs")
    print(
        f"text server (apply+4 views)   : {text / n * 1e6:6.2f} µs/action (mean); "
        f"fast path is {text / fast:.1f}x faster"
    )


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _replay_time(fn, traces) -> float:
    games = fresh_games(traces)  # not timed
    return _timed(lambda: fn(games, traces))


if __name__ == "__main__":
    report()
