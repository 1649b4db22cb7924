"""What is wrong with this server process, for ``GET /api/health``, and the watchdog that
keeps its background work alive.

``/api/health/live`` answers 200 whenever the event loop answers (a bare liveness check:
restart the process when it fails). ``/api/health`` answers 200 only when the process can
do its job, else 503 naming each failing check:

- ``loop``: the event loop's recent lag (a sleep's overshoot, worst over the last 10 s);
- ``database``: it answers ``SELECT 1`` (asked in a worker thread);
- ``writes``: the last commit of action log entries was stored, or failed over
  WRITE_FAILURE_S ago (nobody wrote since: the database may be back);
- ``checkpointer`` (SQLite): the write-ahead log's checkpoint thread is alive and its last
  checkpoint succeeded (after a disk-full it fails until space is back, and the log grows);
- ``background``: every watched thread and task is alive (the watchdog restarts them);
- ``descriptors``: free file descriptors under ``RLIMIT_NOFILE``;
- ``memory``: resident memory against the process's limit (cgroup, ``RLIMIT_AS`` or RAM);
- ``draining``: the process got SIGTERM and is closing (new work belongs elsewhere).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from .store import Store, StoreError

LAG_LIMIT_S = 1.0  # worst loop lag over the window before the process counts as stalled
LAG_TICK_S = 0.25  # how often the loop's lag is sampled
LAG_WINDOW_S = 10.0  # … and over how long the worst is kept
FD_RESERVE = 64  # fewer free descriptors than this (or 5 % of the limit) is a failure
MEMORY_FRACTION = 0.9  # resident memory above this share of the limit is a failure
WATCH_S = 1.0  # how often the watchdog looks at background threads and tasks
WRITE_FAILURE_S = 10.0  # a failed commit counts this long, unless one succeeds meanwhile


def open_descriptors() -> int:
    """How many file descriptors this process has open."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:  # pragma: no cover - not Linux
        return 0


def resident_bytes() -> int:
    """This process's resident memory (bytes)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def memory_limit() -> int:
    """The memory this process may use: the smallest of its cgroup's ``memory.max``, its
    ``RLIMIT_AS`` and the machine's RAM."""
    limits = [os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")]
    with contextlib.suppress(OSError, ValueError):
        with open("/sys/fs/cgroup/memory.max") as f:
            text = f.read().strip()
        if text != "max":
            limits.append(int(text))
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    if soft != resource.RLIM_INFINITY:
        limits.append(soft)
    return min(limits)


class Health:
    """The checks of one server process (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        lag_limit_s: float = LAG_LIMIT_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.lag_limit_s = lag_limit_s
        self.clock = clock
        self.lags: deque[tuple[float, float]] = deque()  # (when, lag seconds)
        self.last_commit_ok = True
        self.commit_failed_at: float | None = None
        self.draining = False
        self.restarts: dict[str, int] = {}  # background thread or task name -> restarts
        self._tasks: dict[str, tuple[Callable[[], Awaitable[None]], asyncio.Task[None]]] = {}

    # ---- inputs ----------------------------------------------------------------------------
    def observe_commit(self, seconds: float, stored: bool) -> None:
        """Store.on_commit (also from writer threads): remember whether writes succeed."""
        self.last_commit_ok = stored
        if not stored:
            self.commit_failed_at = time.time()

    async def measure_lag(self) -> None:
        """Forever: sleep LAG_TICK_S and record how late the loop woke up."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(LAG_TICK_S)
            now = self.clock()
            self.lags.append((now, max(0.0, loop.time() - start - LAG_TICK_S)))
            while self.lags and self.lags[0][0] < now - LAG_WINDOW_S:
                self.lags.popleft()

    def lag(self) -> float:
        """The worst loop lag (seconds) over the last LAG_WINDOW_S."""
        return max((lag for _, lag in self.lags), default=0.0)

    # ---- the watchdog ----------------------------------------------------------------------
    def supervise(self, name: str, make: Callable[[], Awaitable[None]]) -> None:
        """Run the coroutine ``make()`` as a task, started again by :meth:`watch` whenever it
        ends (an exception in a background loop must not end it for good)."""
        self._tasks[name] = (make, asyncio.ensure_future(make()))

    async def watch(self) -> None:
        """Forever: restart supervised tasks that ended and the store's background threads
        that died, counting each restart."""
        while True:
            await asyncio.sleep(WATCH_S)
            self.check_background()

    def check_background(self) -> None:
        for name, (make, task) in list(self._tasks.items()):
            if task.done():
                error = None if task.cancelled() else task.exception()
                print(f"mjcore server: background task {name} ended ({error!r}); restarting",
                      file=sys.stderr)  # fmt: skip
                self._tasks[name] = (make, asyncio.ensure_future(make()))
                self.restarts[name] = self.restarts.get(name, 0) + 1
        for name in self.store.restart_background():
            print(f"mjcore server: background thread {name} died; restarted", file=sys.stderr)
            self.restarts[name] = self.restarts.get(name, 0) + 1

    def stop(self) -> None:
        for _, task in self._tasks.values():
            task.cancel()

    # ---- the report ------------------------------------------------------------------------
    async def report(self) -> tuple[bool, dict[str, Any]]:
        """(healthy, the checks with their numbers); database steps run in a worker thread."""
        checks: dict[str, dict[str, Any]] = {}
        lag = self.lag()
        checks["loop"] = {"ok": lag < self.lag_limit_s, "lag_ms": round(lag * 1000, 1)}
        try:
            await asyncio.to_thread(self.store.ping)
            checks["database"] = {"ok": True}
        except StoreError as exc:
            print(f"mjcore server: health: {exc}", file=sys.stderr)
            checks["database"] = {"ok": False, "error": "unreachable"}
        recent = self.commit_failed_at is not None and (
            time.time() - self.commit_failed_at < WRITE_FAILURE_S
        )
        writes_ok = self.last_commit_ok or not recent
        checks["writes"] = {"ok": writes_ok, "last_failure": self.commit_failed_at}
        background = self.store.background_status()
        if "checkpointer" in background:
            checks["checkpointer"] = background.pop("checkpointer")
        dead = sorted(n for n, (_, t) in self._tasks.items() if t.done())
        dead += sorted(n for n, s in background.items() if not s["ok"])
        checks["background"] = {"ok": not dead, "dead": dead, "restarts": dict(self.restarts)}
        fds, fd_limit = open_descriptors(), resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        reserve = max(FD_RESERVE, fd_limit // 20)
        checks["descriptors"] = {"ok": fd_limit - fds >= reserve, "open": fds, "limit": fd_limit}
        rss, mem_limit = resident_bytes(), memory_limit()
        checks["memory"] = {
            "ok": rss < MEMORY_FRACTION * mem_limit,
            "resident_mb": round(rss / 2**20, 1),
            "limit_mb": round(mem_limit / 2**20, 1),
        }
        checks["draining"] = {"ok": not self.draining}
        return all(c["ok"] for c in checks.values()), checks
