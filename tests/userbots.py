"""Bots a user might write, importable by worker processes (``userbots:Name``) in the tests."""

from __future__ import annotations

import multiprocessing
import os
import signal
import tempfile
from pathlib import Path
from typing import Any

from mjcore.bots import GreedyBot


class FirstLegalBot:
    """Implements only the public protocol ``act(view, legal)`` (no fast path, no base class)."""

    def __init__(self, seed: Any = None) -> None:
        self.views = 0

    def act(self, view: dict[str, Any], legal: Any) -> Any:
        assert "wall" not in view and view["seat"] in range(4)
        self.views += 1
        return legal[0]


class NoSeedBot(FirstLegalBot):
    """A bot whose constructor takes no argument."""

    def __init__(self) -> None:
        super().__init__()


def greedy_factory(seed: int) -> GreedyBot:
    """A module-level factory (picklable by reference)."""
    return GreedyBot(seed)


class TiredBot(GreedyBot):
    """Greedy, but raises KeyboardInterrupt (as Ctrl-C would) in its ``stop_at``-th hand."""

    stop_at = 7
    _made = 0

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        TiredBot._made += 1
        self.hand = TiredBot._made

    def act_fast(self, game: Any, seat: int, legal: Any) -> Any:
        if self.hand == self.stop_at:
            raise KeyboardInterrupt
        return super().act_fast(game, seat, legal)


class CtrlCFromWorker(GreedyBot):
    """Greedy; the first worker process to make its 40th bot sends SIGINT to the process that
    started the pool, once per run (a marker file named after its pid), as a user's Ctrl-C
    would. That process is ``multiprocessing.parent_process()``, not ``os.getppid()``: a worker
    forked by the fork server is the server's child."""

    _made = 0

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        CtrlCFromWorker._made += 1
        parent = multiprocessing.parent_process()
        if parent is not None and parent.pid is not None and CtrlCFromWorker._made == 40:
            try:
                os.close(os.open(ctrl_c_marker(parent.pid), os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return
            os.kill(parent.pid, signal.SIGINT)


def ctrl_c_marker(pid: int) -> str:
    return os.path.join(tempfile.gettempdir(), f"mjcore-test-ctrl-c-{pid}")


class DyingFactory:
    """Makes greedy bots; the first Dask worker to make its ``after``-th bot dies (once per
    ``marker`` file), as a crashed machine would."""

    def __init__(self, marker: str, after: int = 30) -> None:
        self.marker = marker
        self.after = after
        self.made = 0

    def __call__(self, seed: int) -> GreedyBot:
        self.made += 1  # a per-process copy: each worker counts its own hands
        if self.made == self.after and _in_dask_worker():
            path = Path(self.marker)
            if not path.exists():
                path.write_text("died")
                os._exit(1)
        return GreedyBot(seed)


def _in_dask_worker() -> bool:
    try:
        from distributed import get_worker

        get_worker()
    except (ImportError, ValueError):
        return False
    return True


class BrokenBot(GreedyBot):
    """Raises on its first decision: a bot bug the simulator must report with the hand."""

    def act_fast(self, game: Any, seat: int, legal: Any) -> Any:
        raise RuntimeError("bot bug")


class CtrlCFactory:
    """Makes greedy bots; the ``after``-th bot made in one task sends SIGINT to process ``pid``
    (once per ``marker`` file): a user's Ctrl-C while a cluster is playing."""

    def __init__(self, pid: int, marker: str, after: int = 20) -> None:
        self.pid, self.marker, self.after, self.made = pid, marker, after, 0

    def __call__(self, seed: int) -> GreedyBot:
        self.made += 1
        if self.made == self.after and _in_dask_worker():
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return GreedyBot(seed)
            os.kill(self.pid, signal.SIGINT)
        return GreedyBot(seed)


class BlasBot(FirstLegalBot):
    """Multiplies a 256×256 matrix (numpy's BLAS) on every decision, and fails the hand
    unless every BLAS library it finds loaded runs one thread (checked at its first act)."""

    def __init__(self, seed: Any = None) -> None:
        import numpy as np

        super().__init__(seed)
        self.matrix = np.random.default_rng(0).random((256, 256))

    @staticmethod
    def check_blas() -> None:
        from threadpoolctl import threadpool_info

        blas = [(lib["internal_api"], lib["num_threads"]) for lib in threadpool_info()]
        assert blas and all(n == 1 for _, n in blas), f"BLAS threads in a hand: {blas}"

    def act(self, view: dict[str, Any], legal: Any) -> Any:
        if not self.views:
            self.check_blas()
        self.matrix = self.matrix @ self.matrix / 256
        return super().act(view, legal)
