"""Simulation throughput: one process vs ``workers=2`` vs a 2-worker Dask LocalCluster, and the
cost of per-hand Parquet records (greedy bots, 4 players).

Run: ``pytest bench/bench_sim.py --benchmark-enable`` (``MJCORE_BENCH_HANDS``, default 2000
hands per case; the issue's figure uses 20000; 8 in the test suite's smoke pass; plus a
500-hand run and a 2-hand run where the pool's start-up dominates), or
``python bench/bench_sim.py [HANDS [ROUNDS [VARIANT,…]]]`` for a plain table with
CPU-normalised figures.

The baseline is the one-process run of the same hands in the same session, so the report
reads as ratios: speed-up of 2 workers, Dask overhead against multiprocessing, slow-down from
writing records. On a shared machine wall-clock hands/s move with the load of other
processes; the CPU-normalised figures (CPU seconds per hand) do not.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import size

from mjcore.sim import simulate
from mjcore.variants import names

HANDS = size(int(os.environ.get("MJCORE_BENCH_HANDS", "2000")), 8)
VARIANTS = ("xuezhan_kaxinwu", "qingdao")
SMALL = size(500, 8)
"""A small run, where the pool's start-up weighs most: workers=2 must not lose to 1 process."""
_RESULTS: dict[tuple[str, str], float] = {}


def run(variant: str, hands: int, **kw) -> float:
    """Wall seconds of one simulate() call (process / cluster start-up included for workers)."""
    return timed(variant, hands, **kw)[0]


def timed(variant: str, hands: int, **kw) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one simulate() call. CPU = this process's CPU time plus
    the CPU time the workers spent playing chunks: unlike wall time it does not grow when
    other programs share the cores, so CPU-normalised ratios survive a loaded machine."""
    t0, c0 = time.perf_counter(), time.process_time()
    stats = simulate(variant, hands, bots="greedy", seed=1, **kw)
    assert stats.games == hands
    wall, parent_cpu = time.perf_counter() - t0, time.process_time() - c0
    inline = "workers" not in kw and "cluster" not in kw
    return wall, parent_cpu if inline else parent_cpu + stats.cpu_seconds


# ---- pytest-benchmark ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
            silence_logs=50,
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


BACKENDS = ("1 process", "workers=2", "dask 2 workers")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_scaling(benchmark, client, variant, backend):
    kw: dict = {}
    if backend == "workers=2":
        kw = {"workers": 2}
    elif backend.startswith("dask"):
        kw = {"cluster": client}
    benchmark.group = f"simulate {variant} greedy {HANDS} hands"
    benchmark.pedantic(run, args=(variant, HANDS), kwargs=kw, rounds=1, iterations=1)
    _note(benchmark, variant, backend)


@pytest.mark.parametrize("backend", ["1 process", "workers=2"])
def test_small_run(benchmark, backend):
    """500 hands, the pool started in every round: a slow start-up shows as workers=2 losing."""
    kw = {"workers": 2} if backend == "workers=2" else {}
    benchmark.group = f"simulate xuezhan_kaxinwu greedy {SMALL} hands (pool start-up included)"
    benchmark.pedantic(
        run, args=("xuezhan_kaxinwu", SMALL), kwargs=kw, rounds=5, warmup_rounds=1, iterations=1
    )
    _note(benchmark, f"xuezhan_kaxinwu {SMALL}", backend, SMALL)


def test_pool_start_up(benchmark):
    """A 2-hand run with workers=2: almost all of it is starting and stopping the pool."""
    benchmark.group = "pool start-up (2 hands, workers=2)"
    benchmark.pedantic(
        run, args=("xuezhan_kaxinwu", 2), kwargs={"workers": 2}, rounds=5, warmup_rounds=1
    )


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("records", ["no records", "parquet records"])
def test_records_overhead(benchmark, tmp_path, variant, records):
    kw = {"out": tmp_path / "h.parquet"} if records == "parquet records" else {}
    benchmark.group = f"records {variant} greedy {HANDS} hands"
    benchmark.pedantic(run, args=(variant, HANDS), kwargs=kw, rounds=3, iterations=1)
    _note(benchmark, variant, records)


def _note(benchmark, variant: str, case: str, hands: int = HANDS) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable: ran once as a smoke test
        return
    hps = hands / stats.stats.min
    _RESULTS[(variant, case)] = hps
    benchmark.extra_info["hands_per_second"] = round(hps, 1)
    for base in ("1 process", "no records", "workers=2"):
        if (variant, base) in _RESULTS and case != base:
            benchmark.extra_info[f"ratio_vs_{base}"] = round(hps / _RESULTS[(variant, base)], 3)


# ---- plain report --------------------------------------------------------------------------------
def report(hands: int, rounds: int = 1, variants: tuple[str, ...] = ()) -> None:
    """The table; with ``rounds`` > 1 the cases run in A B C D, D C B A … order and each
    case keeps its best round (the one least disturbed by other programs)."""
    import distributed

    print(f"greedy bots, 4 players, {hands} hands per run, load average {os.getloadavg()}")
    print(
        "wall: hands/s by the clock (other load included); eff: the 1-process run's CPU-s per\n"
        "hand divided by this run's (parent + workers' chunk CPU-s per hand): 1.00 = no\n"
        "per-hand overhead, so on 2 idle cores the speed-up would approach 2 x eff"
    )
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=":0",
            silence_logs=50,
        ) as cluster,
        distributed.Client(cluster) as client,
        tempfile.TemporaryDirectory() as tmp,
    ):
        cases = {
            "1 process": {},
            "workers=2": {"workers": 2},
            "dask 2 workers": {"cluster": client},
            "1 process + records": {"out": Path(tmp) / "h.parquet"},
        }
        print(
            f"{'variant':16} {'run':20} {'wall h/s':>9} {'speed-up':>9} {'CPU h/s':>8} {'eff':>5}"
        )
        for variant in variants or names():  # every registered variant unless named
            run(variant, 50)  # warm up imports and tables
            best: dict[str, tuple[float, float]] = {}
            for r in range(rounds):
                order = list(cases) if r % 2 == 0 else list(cases)[::-1]
                for name in order:
                    wall, cpu = timed(variant, hands, **cases[name])
                    old = best.get(name, (float("inf"), float("inf")))
                    best[name] = (min(old[0], wall), min(old[1], cpu))
            base_wall, base_cpu = best["1 process"]
            for name in cases:
                wall, cpu = best[name]
                print(
                    f"{variant:16} {name:20} {hands / wall:9.1f} {base_wall / wall:8.2f}x "
                    f"{hands / cpu:8.1f} {base_cpu / cpu:5.2f}"
                )
        print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    report(
        int(sys.argv[1]) if len(sys.argv) > 1 else HANDS,
        int(sys.argv[2]) if len(sys.argv) > 2 else 1,
        tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else (),
    )
