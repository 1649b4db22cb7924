"""Where the chunks of a run are played: in process, on a local process pool, or on Dask.

Each backend yields ``(chunk index, ChunkResult)`` in any order; :func:`~mjcore.sim.runner.drive`
merges them in index order. All of them run the same :func:`~mjcore.sim.runner.run_chunk`.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
import signal
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

from ..bots.spec import check_picklable, pickle_dumps
from ..errors import InvalidOptionError
from .runner import ChunkResult, Job, run_chunk

Chunks = Sequence[tuple[int, int]]


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


def _init_worker(job: Job) -> None:
    """Pool initializer: Ctrl-C is the parent's to handle; keep the run's job."""
    global _WORKER_JOB
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_JOB = job


def _pool_task(task: tuple[int, int, int]) -> tuple[int, ChunkResult]:
    idx, a, b = task
    assert _WORKER_JOB is not None
    return idx, run_chunk(_WORKER_JOB, a, b)


class PoolBackend:
    """``workers`` spawned processes (multiprocessing); the job is sent once per worker."""

    def __init__(self, job: Job, workers: int) -> None:
        check_picklable(job.seat_bots, f"worker processes (workers={workers})", pickle_dumps)
        self.job = job
        self.parallelism = workers
        self._pool: Any = None

    def describe(self) -> str:
        return f"{self.parallelism} processes"

    def results(self, chunks: Chunks) -> Iterator[tuple[int, ChunkResult]]:
        if not chunks:
            return
        ctx = mp.get_context("spawn")
        size = min(self.parallelism, len(chunks))
        self._pool = ctx.Pool(size, initializer=_init_worker, initargs=(self.job,))
        tasks = ((i, a, b) for i, (a, b) in enumerate(chunks))
        yield from self._pool.imap_unordered(_pool_task, tasks)

    def partial(self) -> None:
        return None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


# ---- Dask ----------------------------------------------------------------------------------------
def _require_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ImportError(
            'cluster= needs Dask: pip install "mjcore[dask]" (dask[distributed])'
        ) from None
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
                raise InvalidOptionError(f"cluster: expected local:N with N >= 1, got {cluster!r}")
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
                raise InvalidOptionError(f"cluster: cannot reach {cluster!r}: {exc}") from None
        else:
            raise InvalidOptionError(
                "cluster: expected 'local:N', a scheduler address such as "
                f"'tcp://host:8786' or a dask.distributed.Client, got {cluster!r:.80}"
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
