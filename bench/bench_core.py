"""Benchmarks of the native hand core against tests/reference.py (issue 2 targets).

Inputs come from ``numpy.random.default_rng(42)`` and are built before timing;
only the call is timed. Run with ``python -m pytest bench/bench_core.py --benchmark-enable``.
"""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest

import mjcore
from mjcore import _core, batch, hand

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import reference as ref  # noqa: E402
from conftest import size  # noqa: E402

N = size(100_000, 500)  # hands per batch call
N_REF = size(200, 3)  # hands the reference answers (a prefix of the same inputs)
N_SINGLE = size(20_000, 200)  # single calls from Python per round
N_FACTS, N_DECOMP = size(5000, 50), size(2000, 50)
ALL_FORMS = dict(seven_pairs=True, thirteen_orphans=True, knitted=True)
REF_ALL = dict(seven=True, orph=True, knit=True)


def random_hands(rng, n: int, total: int, max_jokers: int) -> tuple[np.ndarray, np.ndarray]:
    """n hands of ``total`` tiles drawn from a full 136-tile set, jokers 0..max_jokers."""
    jokers = rng.integers(0, max_jokers + 1, size=n)
    walls = rng.permuted(np.tile(np.repeat(np.arange(34), 4), (n, 1)), axis=1)
    out = np.zeros((n, 34), dtype=np.uint8)
    for j in range(total):
        take = j < total - jokers
        np.add.at(out, (np.flatnonzero(take), walls[take, j]), 1)
    return out, jokers


def winning_hands(
    rng, n: int, max_jokers: int, min_jokers: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Standard complete 14-tile hands; min..max_jokers tiles replaced by jokers."""
    out = np.zeros((n, 34), dtype=np.uint8)
    jokers = np.zeros(n, dtype=np.int64)
    i = 0
    while i < n:
        c = np.zeros(34, dtype=np.int64)
        for _ in range(4):
            if rng.random() < 0.5:
                base = 9 * rng.integers(3) + rng.integers(7)
                c[base : base + 3] += 1
            else:
                c[rng.integers(34)] += 3
        c[rng.integers(34)] += 2
        if c.max() > 4:
            continue
        k = rng.integers(min_jokers, max_jokers + 1)
        for _ in range(k):
            c[rng.choice(np.flatnonzero(c))] -= 1
        out[i], jokers[i] = c, k
        i += 1
    return out, jokers


def ready_hands(rng, n: int, max_jokers: int) -> tuple[np.ndarray, np.ndarray]:
    """Winning hands minus one natural tile (ready 13-tile hands)."""
    c, k = winning_hands(rng, n, max_jokers)
    for i in range(n):
        c[i, rng.choice(np.flatnonzero(c[i]))] -= 1
    return c, k


@pytest.fixture(scope="module")
def hands():
    rng = np.random.default_rng(42)
    _core.ensure_init()
    return {
        "random14": random_hands(rng, N, 14, 4),
        "random14_k0": random_hands(rng, N, 14, 0),
        "random13_k0": random_hands(rng, N, 13, 0),
        "win14": winning_hands(rng, N, 4),
        "ready13_k0": ready_hands(rng, N, 0),
        "ready13_k1": ready_hands(rng, N, 2),
        # decompositions by joker count (own generator: the inputs above stay as they were)
        "win14_k0": winning_hands(np.random.default_rng(43), N_DECOMP, 0),
        "win14_k3": winning_hands(np.random.default_rng(44), N_DECOMP, 3, min_jokers=3),
    }


def _ref_rows(fn, c, k, **kw):
    return [fn(c[i], int(k[i]), **kw) for i in range(N_REF)]


BATCH_CASES = [
    # case, batch fn, reference fn, input, core flags, reference flags
    ("batch is_win random14 k0-4 default", batch.is_win, ref.is_win, "random14", {}, {}),
    (
        "batch is_win random14 k0-4 all forms",
        batch.is_win,
        ref.is_win,
        "random14",
        ALL_FORMS,
        REF_ALL,
    ),
    (
        "batch is_win winning14 k0-4 all forms",
        batch.is_win,
        ref.is_win,
        "win14",
        ALL_FORMS,
        REF_ALL,
    ),
    ("batch is_ready ready13 (宝 question)", batch.is_ready, ref.is_ready, "ready13_k0", {}, {}),
    ("batch waits ready13 k0", batch.waits, ref.waits, "ready13_k0", {}, {}),
    ("batch waits ready13 k0-2", batch.waits, ref.waits, "ready13_k1", {}, {}),
    ("batch shanten random13 k0", batch.shanten, ref.shanten, "random13_k0", {}, {}),
    ("batch shanten random14 k0-4", batch.shanten, ref.shanten, "random14", {}, {}),
]


@pytest.mark.parametrize(
    "case, fn, ref_fn, key, flags, ref_flags", BATCH_CASES, ids=[c[0] for c in BATCH_CASES]
)
@pytest.mark.parametrize("impl", ["core", "reference"])
def test_batch(throughput, hands, impl, case, fn, ref_fn, key, flags, ref_flags):
    c, k = hands[key]
    if impl == "core":
        throughput(case, impl, N, partial(fn, **flags), c, k)
    else:
        throughput(
            case, impl, N_REF, partial(_ref_rows, ref_fn, **ref_flags), c, k, rounds=1, warmup=0
        )


def _single_loop(fn, c, k, n):
    for i in range(n):
        fn(c[i], k)


SINGLE_CASES = [
    ("single is_win (Python call, uint8 row)", mjcore.is_win, ref.is_win, "random14_k0"),
    ("single waits (Python call, uint8 row)", mjcore.waits, ref.waits, "ready13_k0"),
    ("single shanten (Python call, uint8 row)", mjcore.shanten, ref.shanten, "random13_k0"),
]


@pytest.mark.parametrize("case, fn, ref_fn, key", SINGLE_CASES, ids=[c[0] for c in SINGLE_CASES])
@pytest.mark.parametrize("impl", ["core", "reference"])
def test_single(throughput, hands, impl, case, fn, ref_fn, key):
    c, _ = hands[key]
    rows = list(c[:N_SINGLE])
    if impl == "core":
        throughput(case, impl, N_SINGLE, _single_loop, fn, rows, 0, N_SINGLE)
    else:
        throughput(case, impl, N_REF, _single_loop, ref_fn, rows, 0, N_REF, rounds=1, warmup=0)


def _facts_loop(c, k, n):
    for i in range(n):
        w = int(np.flatnonzero(c[i])[0])
        hand.hand_facts(c[i], w, int(k[i]))


def _ref_facts_loop(c, k, n):
    for i in range(n):
        w = int(np.flatnonzero(c[i])[0])
        kk = int(k[i])
        ref.win_standard(c[i], kk)
        ref.win_standard(c[i], kk, chows=False)
        ref.closed_wait(c[i], w, kk)
        ref.pure_straight_suits(c[i], kk)
        ref.pair_kinds(c[i], kk)


def _decomp_loop(c, k, n):
    for i in range(n):
        hand.decompositions(c[i], int(k[i]))


@pytest.mark.parametrize("impl", ["core", "reference"])
def test_hand_facts(throughput, hands, impl):
    c, k = hands["win14"]
    case = "single hand_facts winning14 k0-4"
    if impl == "core":
        throughput(case, impl, N_FACTS, _facts_loop, c, k, N_FACTS)
    else:
        n = min(50, N_FACTS)
        throughput(case, impl, n, _ref_facts_loop, c, k, n, rounds=1, warmup=0)


def _ref_decomp_loop(c, k, n):
    for i in range(n):
        ref.decompositions(c[i], int(k[i]))


def _best_loop(c, k, n):
    for i in range(n):
        hand.best_decomposition(c[i], int(k[i]), key=_joker_score)


def _joker_score(d):
    """A caller's score: fewest jokers inside natural groups, then most pungs."""
    return (-sum(g.jokers for g in d.sets if g.kind >= 0), sum(g.shape == "pung" for g in d.sets))


DECOMP_CASES = [("win14", "k0-4"), ("win14_k0", "k0"), ("win14_k3", "k3")]


@pytest.mark.parametrize("key, label", DECOMP_CASES, ids=[c[1] for c in DECOMP_CASES])
@pytest.mark.parametrize("impl", ["core", "reference"])
def test_decompositions(throughput, hands, impl, key, label):
    c, k = hands[key]
    case = f"single decompositions winning14 {label}"
    if impl == "core":
        throughput(case, impl, N_DECOMP, _decomp_loop, c, k, N_DECOMP, rounds=5)
    else:
        n = min(100, N_DECOMP)
        throughput(case, impl, n, _ref_decomp_loop, c, k, n, rounds=1, warmup=0)


def test_best_decomposition(throughput, hands):
    c, k = hands["win14"]
    case = "single best_decomposition winning14 k0-4"
    throughput(case, "core", N_DECOMP, _best_loop, c, k, N_DECOMP)


def test_import_time_and_tables():
    """Not a timing benchmark: notes import time and table memory for the summary."""
    from conftest import NOTES

    code = "import time; t = time.perf_counter(); import mjcore; print(time.perf_counter() - t)"
    # The mjcore this session imported (installed, or a source tree with the built extension),
    # never the unbuilt source folder that the working directory would put first.
    import os
    import tempfile

    env = {**os.environ, "PYTHONPATH": str(Path(mjcore.__file__).resolve().parents[1])}
    with tempfile.TemporaryDirectory() as cwd:
        runs = [
            subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                check=True,
                cwd=cwd,
                env=env,
            )
            for _ in range(3)
        ]
    best = min(float(r.stdout) for r in runs)
    NOTES.append(
        f"import mjcore: {best * 1000:.1f} ms (best of 3); tables {_core.TABLE_BYTES / 1e6:.2f} MB "
        f"in memory, checksum {_core.TABLE_CHECKSUM}"
    )
