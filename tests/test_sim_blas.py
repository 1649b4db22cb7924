"""``simulate`` plays on one BLAS thread whatever the environment says (mjcore.sim.blas).

Each check runs in a fresh interpreter started with ``OPENBLAS_NUM_THREADS=2`` etc. (read when
numpy loads its BLAS). ``userbots.BlasBot`` calls BLAS on every decision and fails its hand
unless every loaded BLAS library runs one thread; the CPU time of the process's other threads
(BLAS's pool, which spins after multi-threaded work) is read from /proc, from the moment
that pool has gone quiet after starting.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

_RUN = """
import json, os, sys, time
sys.path.insert(0, {tests!r})
from threadpoolctl import threadpool_info
import mjcore, userbots

def others_cpu():  # clock ticks of every thread but the main one
    ticks = 0
    for tid in os.listdir("/proc/self/task"):
        if int(tid) != os.getpid():
            with open(f"/proc/self/task/{{tid}}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
    return ticks

def blas_threads():
    return sorted({{lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}})

before = blas_threads()
outside = None
try:
    userbots.BlasBot.check_blas()
except AssertionError as exc:
    outside = str(exc)
cpu = others_cpu()
for _ in range(100):  # OpenBLAS's pool spins ~0.1 s after it starts: measure from quiet
    time.sleep(0.05)
    cpu, last = others_cpu(), cpu
    if cpu == last:
        break
stats = mjcore.simulate("xuezhan_kaxinwu", {games}, bots=userbots.BlasBot, workers={workers})
print(json.dumps({{"games": stats.games, "before": before, "after": blas_threads(),
                  "outside": outside, "others_cpu": others_cpu() - cpu}}))
"""


def _run(threads: str, workers: int, games: int = 8) -> dict:
    tests = str(Path(__file__).parent)
    code = _RUN.format(tests=tests, games=games, workers=workers)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": threads, "MKL_NUM_THREADS": threads}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tempfile.gettempdir(),  # not the checkout: its mjcore/ has no built core
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads threads from /proc")
@pytest.mark.parametrize("workers", [1, 2])
def test_simulate_plays_on_one_blas_thread_and_restores_the_setting(workers):
    res = _run("2", workers)
    assert res["games"] == 8  # every hand passed BlasBot's one-thread check
    assert res["before"] == [2] and res["after"] == [2]  # the caller's setting, restored
    assert res["outside"] is not None and "BLAS threads in a hand" in res["outside"]
    if workers == 1:  # the hands ran in this process: BLAS's own threads stayed idle
        assert res["others_cpu"] <= 2, res
