"""Simulation throughput: one process vs ``workers=2`` vs a 2-worker Dask LocalCluster, and the
cost of per-hand Parquet records (greedy bots, 4 players).

Run: ``pytest bench/bench_sim.py --benchmark-enable`` (``MJCORE_BENCH_HANDS``, default 2000
hands per case; the issue's figure uses 20000), or ``python bench/bench_sim.py [HANDS]`` for a
plain table. The baseline is the one-process run of the same hands in the same session, so
the report reads as ratios: speed-up of 2 workers, Dask overhead against multiprocessing,
slow-down from writing records. On a shared machine the absolute hands/s move with the load
of other processes; the ratios, measured back to back, move less.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import pytest

from mjcore.sim import simulate

HANDS = int(os.environ.get("MJCORE_BENCH_HANDS", "2000"))
VARIANTS = ("xuezhan_kaxinwu", "qingdao")
_RESULTS: dict[tuple[str, str], float] = {}


def run(variant: str, hands: int, **kw) -> float:
    """Wall seconds of one simulate() call (process / cluster start-up included for workers)."""
    return timed(variant, hands, **kw)[0]


def timed(variant: str, hands: int, **kw) -> tuple[float, float]:
    """(wall seconds, this process's CPU seconds) of one simulate() call. For an in-process
    run the CPU time does not count other programs sharing the machine."""
    t0, c0 = time.perf_counter(), time.process_time()
    stats = simulate(variant, hands, bots="greedy", seed=1, **kw)
    assert stats.games == hands
    return time.perf_counter() - t0, time.process_time() - c0


# ---- pytest-benchmark ------------------------------------------------------------------------------
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


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("records", ["no records", "parquet records"])
def test_records_overhead(benchmark, tmp_path, variant, records):
    kw = {"out": tmp_path / "h.parquet"} if records == "parquet records" else {}
    benchmark.group = f"records {variant} greedy {HANDS} hands"
    benchmark.pedantic(run, args=(variant, HANDS), kwargs=kw, rounds=3, iterations=1)
    _note(benchmark, variant, records)


def _note(benchmark, variant: str, case: str) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable: ran once as a smoke test
        return
    hps = HANDS / stats.stats.min
    _RESULTS[(variant, case)] = hps
    benchmark.extra_info["hands_per_second"] = round(hps, 1)
    for base in ("1 process", "no records", "workers=2"):
        if (variant, base) in _RESULTS and case != base:
            benchmark.extra_info[f"ratio_vs_{base}"] = round(hps / _RESULTS[(variant, base)], 3)


# ---- plain report ----------------------------------------------------------------------------------
def report(hands: int) -> None:
    import distributed

    print(f"greedy bots, 4 players, {hands} hands per run, load average {os.getloadavg()}")
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
        print(
            f"{'variant':16} {'1 proc h/s':>11} {'workers=2':>10} {'speed-up':>9} "
            f"{'dask 2w':>9} {'speed-up':>9} {'dask/mp':>8} {'+records':>9} {'slow-down':>9}"
        )
        for variant in VARIANTS:
            run(variant, 50)  # warm up imports and tables
            one, one_cpu = timed(variant, hands)
            mp2 = run(variant, hands, workers=2)
            dask2 = run(variant, hands, cluster=client)
            rec, rec_cpu = timed(variant, hands, out=Path(tmp) / "h.parquet")
            print(
                f"{variant:16} {hands / one:11.1f} {hands / mp2:10.1f} {one / mp2:8.2f}x "
                f"{hands / dask2:9.1f} {one / dask2:8.2f}x {mp2 / dask2:7.2f}x "
                f"{hands / rec:9.1f} {100 * (rec / one - 1):8.1f}%"
            )
            print(
                f"{'':16} CPU-time (immune to other load): 1 process {hands / one_cpu:.1f} h/s, "
                f"with records {hands / rec_cpu:.1f} h/s, slow-down "
                f"{100 * (rec_cpu / one_cpu - 1):.1f}%"
            )
        print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    report(int(sys.argv[1]) if len(sys.argv) > 1 else HANDS)
