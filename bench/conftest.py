"""Throughput summary for bench_core.py: hands/s of the core and of the reference.

Run: ``pytest bench --benchmark-enable``. The normal test run (``pytest``) also
collects ``bench/`` with benchmarks disabled: each runs once on small inputs.
Every ``core`` benchmark has a ``reference`` twin timed on a prefix of the same
inputs, so the ratio comes from one run.
"""

from __future__ import annotations

import pytest

SMOKE = False
"""True when benchmarks are disabled (the test suite's smoke run): inputs shrink to a
quick single pass, so every benchmark still runs and cannot rot unnoticed."""

_RESULTS: dict[str, dict[str, float]] = {}


def pytest_configure(config):
    global SMOKE
    SMOKE = bool(config.getoption("benchmark_disable", False)) and not config.getoption(
        "benchmark_enable", False
    )


def size(full: int, smoke: int) -> int:
    """An input size: ``full`` when measuring, ``smoke`` in the smoke run."""
    return smoke if SMOKE else full


NOTES: list[str] = []
"""Free-form lines (import time, table memory) printed under the table."""


@pytest.fixture
def throughput(benchmark):
    """Time ``fn(*args)`` answering ``hands`` hands; file it under ``case``/``impl``."""

    def run(case: str, impl: str, hands: int, fn, *args, rounds: int = 7, warmup: int = 1):
        benchmark.group = case
        benchmark.extra_info["hands"] = hands
        benchmark.pedantic(fn, args=args, rounds=rounds, warmup_rounds=warmup, iterations=1)
        stats = getattr(benchmark, "stats", None)
        if stats is not None:  # None with --benchmark-disable
            _RESULTS.setdefault(case, {})[impl] = hands / stats.stats.median

    return run


def pytest_terminal_summary(terminalreporter):
    if not _RESULTS:
        return
    tr = terminalreporter
    tr.section("mjcore core throughput (median, hands or calls per second)")
    tr.write_line(f"{'case':44} {'core':>14} {'reference':>12} {'ratio':>10}")
    for case, row in _RESULTS.items():
        core, ref = row.get("core"), row.get("reference")
        ratio = f"{core / ref:,.0f}x" if core and ref else "-"
        tr.write_line(f"{case:44} {core or 0:>14,.0f} {ref or 0:>12,.1f} {ratio:>10}")
    for note in NOTES:
        tr.write_line(note)
