"""Where the chunks of a run are played: in process, on a local process pool, or on Dask.

Each backend yields ``(chunk index, ChunkResult)`` in any order; :func:`~mjcore.sim.runner.drive`
merges them in index order. All of them run the same :func:`~mjcore.sim.play.run_chunk`.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import logging
import multiprocessing as mp
import os
import pickle
import signal
import sys
import threading
import types
import uuid
from collections.abc import Iterable, Iterator
from multiprocessing.context import BaseContext
from typing import Any

from .._extras import install_hint
from ..bots.spec import check_picklable, pickle_dumps
from ..errors import InvalidOptionError, clip
from .play import ChunkResult, Job, run_chunk

Chunks = Iterable[tuple[int, int]]
"""A run's chunks (runner.ChunkRanges: made as they are asked for)."""


class InlineBackend:
    """The calling process; an interrupted chunk keeps its finished hands (see ``partial``)."""

    parallelism = 1

    def __init__(self, job: Job) -> None:
        self.job = job
        self._current: tuple[int, ChunkResult] | None = None

    def describe(self) -> str:
        return "1 process"

    def results(self, chunks: Chunks) -> Iterator[tuple[int, ChunkResult]]:
        for idx, (a, b) in enumerate(chunks):
            self._current = (idx, ChunkResult(self.job.empty_stats()))
            yield idx, run_chunk(self.job, a, b, partial=self._current[1])
            self._current = None

    def partial(self) -> tuple[int, ChunkResult] | None:
        return self._current

    def close(self) -> None:
        pass


# ---- local processes -----------------------------------------------------------------------------
_WORKER_JOB: Job | None = None
_WORKER_ERROR: str | None = None
_WORKER_CANCEL: Any = None  # the run's shared flag: set when the parent abandons the run
_PRELOAD = ["mjcore.sim.backends"]
"""What the fork server imports once, so that every worker forked from it starts warm."""


def _init_worker(job: bytes, module_file: str, cancel: Any = None) -> None:
    """Pool initializer: Ctrl-C is the parent's to handle; keep the run's job and its
    ``cancel`` flag (see :meth:`PoolBackend.close`).

    It must not raise: the pool replaces a worker that dies at start, again and again, and the
    run would hang. So the job comes pickled and an error loading it (a bot's module the
    worker cannot import, another copy of mjcore than the caller's) waits for the first task.
    """
    global _WORKER_JOB, _WORKER_ERROR, _WORKER_CANCEL
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_CANCEL = cancel
    try:
        if os.path.realpath(__file__) != module_file:
            raise ImportError(f"the worker imported {__file__}, the caller {module_file}")
        _WORKER_JOB = pickle.loads(job)
    except Exception as exc:
        _WORKER_ERROR = f"{type(exc).__name__}: {exc}"


def _pool_task(task: tuple[int, int, int]) -> tuple[int, ChunkResult]:
    idx, a, b = task
    if _WORKER_ERROR is not None:
        raise RuntimeError(f"a worker process could not load the run: {_WORKER_ERROR}")
    assert _WORKER_JOB is not None
    if _WORKER_CANCEL is not None and _WORKER_CANCEL.value:  # sent before the run was abandoned
        return idx, ChunkResult(_WORKER_JOB.empty_stats())
    return idx, run_chunk(_WORKER_JOB, a, b, cancel=_WORKER_CANCEL)


def _preload() -> list[str]:
    """:data:`_PRELOAD`, unless the fork server would import another mjcore than ours.

    It starts as ``python -c`` in the current directory, which (on Python 3.11) comes first
    on its sys.path: in a source checkout it finds the unbuilt ``mjcore/`` there (the preload
    fails and each worker imports mjcore itself), or a different build (wrong code).
    """
    here = os.path.join(os.getcwd(), "mjcore")
    ours = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    if os.path.exists(here) and os.path.realpath(here) != ours:
        return []
    return _PRELOAD


def _context() -> BaseContext:
    """The "forkserver" start method where there is one (POSIX), else "spawn".

    A spawned worker is a fresh interpreter that imports numpy and mjcore (about half a
    second, more than a small run's play). The fork server imports them once per Python
    process (:data:`_PRELOAD`) and forks each run's workers from that warm copy in a few
    milliseconds; unlike a fork of the caller it is safe when the caller has threads.
    Workers check they run the caller's mjcore (see :func:`_init_worker`).
    """
    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(_preload())  # no effect once the server runs (it has loaded)
    return ctx


class _MainFinder(pickle.Pickler):
    """Pickles into memory, noting whether anything is looked up in ``__main__``."""

    uses_main = False

    def reducer_override(self, obj: Any) -> Any:
        try:
            if getattr(obj, "__module__", None) == "__main__":
                self.uses_main = True
        except Exception:  # an object with a strange __getattr__: not a __main__ global
            pass
        return NotImplemented


def _uses_main(obj: Any) -> bool:
    """Whether unpickling ``obj`` needs the caller's ``__main__`` (a bot defined there)."""
    finder = _MainFinder(io.BytesIO())
    finder.dump(obj)
    return finder.uses_main


def _main_importable() -> bool:
    """Whether a worker can re-import ``__main__``: ``python -m`` or a script file, not
    standard input (``python -``), ``python -c`` or an interactive prompt."""
    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None):
        return True
    path = getattr(main, "__file__", None)
    return isinstance(path, str) and os.path.isfile(path)


def _needs_main(job: Job, workers: int) -> bool:
    """Whether the workers must re-import the caller's ``__main__`` (a bot defined in it).

    Raises :class:`~mjcore.errors.InvalidOptionError` naming the bot when they would need it
    but cannot import it: the pool would otherwise restart failing workers for ever.
    """
    needs = False
    for seat, sb in enumerate(job.seat_bots):
        if not _uses_main(sb):
            continue
        if not _main_importable():
            raise InvalidOptionError(
                f"bots: seat {seat}'s bot {sb.label!r} cannot be sent to worker processes "
                f"(workers={workers}): it is defined in __main__ of standard input, python -c "
                "or an interactive session, which they cannot import. Define bot classes and "
                "factories in a module or a script file, or run with workers=1"
            )
        needs = True
    return needs


@contextlib.contextmanager
def _main_hidden(hide: bool) -> Iterator[None]:
    """A bare ``__main__`` while the workers start, so that they do not re-run the caller's.

    spawn and forkserver children re-import the parent's ``__main__`` (as ``__mp_main__``):
    every worker pays for the script's own imports, and a script read from standard input
    cannot be re-read, so each worker died at start and the pool restarted them for ever.
    Workers only need it to unpickle a bot defined there (see :func:`_needs_main`).
    """
    main = sys.modules.get("__main__")
    if not hide or main is None:
        yield
        return
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


@contextlib.contextmanager
def interrupt_kept() -> Iterator[None]:
    """Ctrl-C stays a KeyboardInterrupt while waiting on a pool's results.

    CPython can deliver it inside ``Condition.wait`` between releasing and re-taking the
    lock; leaving the ``with`` then raises "RuntimeError: release unlocked lock" with the
    interrupt as its context, and the caller would lose its hands so far (seen in CI)."""
    try:
        yield
    except RuntimeError as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            raise exc.__context__ from None
        raise


POOL_STOP_S = 10.0
"""How long :meth:`PoolBackend.close` waits for the workers to finish before terminating them."""


def _joined(pool: Any, timeout: float) -> bool:
    """Whether ``pool.join()`` returned within ``timeout`` seconds (it runs in a daemon
    thread: a pool whose task never returns would otherwise block its caller for ever)."""
    joiner = threading.Thread(target=pool.join, name="mjcore-pool-join", daemon=True)
    joiner.start()
    joiner.join(timeout)
    return not joiner.is_alive()


class PoolBackend:
    """``workers`` local processes (multiprocessing); the job is sent once per worker."""

    def __init__(self, job: Job, workers: int) -> None:
        check_picklable(job.seat_bots, f"worker processes (workers={workers})", pickle_dumps)
        self.job = job
        self.parallelism = workers
        self._needs_main = _needs_main(job, workers)
        self._pool: Any = None
        self._cancel: Any = None

    def describe(self) -> str:
        return f"{self.parallelism} processes"

    def results(self, chunks: Chunks) -> Iterator[tuple[int, ChunkResult]]:
        if not chunks:
            return
        size = sum(1 for _ in itertools.islice(chunks, self.parallelism))  # (a long run: no len)
        ctx = _context()
        self._cancel = ctx.RawValue("b", 0)  # (read once a deal by every worker: no lock)
        args = (pickle_dumps(self.job), os.path.realpath(__file__), self._cancel)
        with _main_hidden(not self._needs_main):  # the workers start here, all of them
            self._pool = ctx.Pool(size, initializer=_init_worker, initargs=args)
        cancel = self._cancel  # (once set, no further chunk is sent: close() waits for none)
        tasks = itertools.takewhile(
            lambda _: not cancel.value, ((i, a, b) for i, (a, b) in enumerate(chunks))
        )
        with interrupt_kept():
            yield from self._pool.imap_unordered(_pool_task, tasks)

    def partial(self) -> None:
        return None

    def close(self) -> None:
        """Stop the workers: the run's ``cancel`` flag ends their chunks at the next deal (the
        chunks not yet started end at once), then the pool is closed and joined.

        Not ``Pool.terminate`` first: it may stop a worker while that worker holds the result
        queue's lock (writing a result the parent no longer reads), and the pool's task
        thread then waits for that lock for ever (CPython's multiprocessing.pool; seen in CI
        after a bot's error). It is the fallback when the workers do not finish in time (a
        worker stuck in one hand, or one that died with its task).
        """
        pool, self._pool = self._pool, None
        if pool is None:
            return
        self._cancel.value = 1
        pool.close()
        if not _joined(pool, POOL_STOP_S):
            pool.terminate()
            pool.join()


# ---- Dask ----------------------------------------------------------------------------------------
def _require_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ImportError("cluster= needs Dask: " + install_hint("dask", "dask")) from None
    return distributed


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while child processes start (they keep ignoring it), then restored."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to do
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class DaskBackend:
    """Chunks as Dask tasks on a cluster, at most a few per worker thread in flight.

    A worker that dies takes its running chunks with it; the scheduler reruns them
    elsewhere, and as a chunk is a pure function of (job, start, stop) the result is the
    same. ``cluster``: ``"local:N"``, a scheduler address, or a ``distributed.Client``.
    """

    def __init__(self, job: Job, cluster: Any) -> None:
        distributed = _require_distributed()
        from distributed.protocol.pickle import dumps

        check_picklable(job.seat_bots, "the Dask cluster", dumps)
        self.job = job
        self._own: list[Any] = []
        if isinstance(cluster, distributed.Client):
            self.client = cluster
        elif isinstance(cluster, str) and cluster.startswith("local:"):
            n = cluster.partition(":")[2]
            if not n.isdigit() or int(n) < 1:
                raise InvalidOptionError(
                    f"cluster: expected local:N with N >= 1, got {clip(cluster, 80)}"
                )
            with _sigint_ignored():  # worker processes inherit it: Ctrl-C is ours to handle
                local = distributed.LocalCluster(
                    n_workers=int(n),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: never clash with a running one
                    silence_logs=logging.CRITICAL,  # shutdown chatter; task errors reach us anyway
                )
            self._own.append(local)
            self.client = distributed.Client(local)
        elif isinstance(cluster, str) and "://" in cluster:
            try:
                self.client = distributed.Client(cluster, timeout="10s")
            except OSError as exc:
                raise InvalidOptionError(
                    f"cluster: cannot reach {clip(cluster, 80)}: {exc}"
                ) from None
        else:
            raise InvalidOptionError(
                "cluster: expected 'local:N', a scheduler address such as "
                f"'tcp://host:8786' or a dask.distributed.Client, got {clip(cluster, 80)}"
            )
        if not isinstance(cluster, distributed.Client):
            self._own.append(self.client)  # ours to close (a caller's Client stays open)
        threads = sum(self.client.nthreads().values()) or 1
        self.parallelism = threads
        self._futures: list[Any] = []

    def describe(self) -> str:
        return f"dask {self.client.scheduler.address} ({self.parallelism} threads)"

    def results(self, chunks: Chunks) -> Iterator[tuple[int, ChunkResult]]:
        from distributed import as_completed

        token = uuid.uuid4().hex
        index: dict[str, int] = {}
        todo = iter(enumerate(chunks))
        done = as_completed()
        in_flight = max(2, 3 * self.parallelism)

        def submit_next() -> None:
            nxt = next(todo, None)
            if nxt is not None:
                idx, (a, b) = nxt
                fut = self.client.submit(
                    run_chunk, self.job, a, b, key=f"mjcore-chunk-{token}-{idx}", pure=False
                )
                index[fut.key] = idx
                self._futures.append(fut)
                done.add(fut)

        for _ in range(in_flight):
            submit_next()
        for fut in done:
            res = fut.result()
            idx = index.pop(fut.key)
            self._futures.remove(fut)
            fut.release()
            submit_next()
            yield idx, res

    def partial(self) -> None:
        return None

    def close(self) -> None:
        if self._futures:
            self.client.cancel(self._futures)
            self._futures = []
        for obj in reversed(self._own):
            obj.close()
        self._own = []
