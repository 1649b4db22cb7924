"""Bots too slow for the event loop decide in worker processes, within a time budget.

The server's loop runs every room; a decision that takes longer than a few milliseconds on
it delays every other room's messages (``mc`` spent up to 1.9 s a decision). The bots in
:data:`LOOP_BOTS` decide in microseconds to a millisecond and stay on the loop; any other bot
a room asks for (``mc``, and bots registered later) decides in a :class:`BotPool` of worker
processes: the room sends a pickled copy of the game, goes on serving its seats meanwhile,
and applies the answer when it comes back (if the game has not moved on). ``mc`` there plays
rollouts for at most ``budget_ms`` a decision (``MCBot(ms=…)``); if no answer comes within
the budget plus :data:`GRACE_S`, or the pool already has :data:`QUEUE_PER_WORKER` decisions
per worker waiting, the room falls back to the expert's decision on the loop (tens of
microseconds), so a busy pool slows bots' play, never the loop.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import pickle
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.game import Game

LOOP_BOTS = frozenset({"random", "greedy", "expert"})
"""Bots that decide on the event loop (measured well under a millisecond a decision)."""
FALLBACK_BOT = "expert"
"""Decides on the loop when the pool cannot answer in time."""
BUDGET_MS = 200.0
"""Default time budget of one decision in a worker (``mjcore serve --bot-budget-ms``)."""
GRACE_S = 2.0
"""Beyond the budget: the worker's start, the game's transfer, a busy machine."""
WORKER_NICE = 10
"""How much lower the workers' CPU priority is than the server's (os.nice)."""
QUEUE_PER_WORKER = 4
"""Decisions waiting per worker before rooms fall back to the loop's bot."""
PARENT_POLL_S = 1.0
"""How often a worker checks that the server that started it is still there."""

_bots: dict[str, Any] = {}  # in a worker: one bot per name, reused across decisions


def _decide(name: str, blob: bytes, seat: int, seed: list[int], budget_ms: float) -> str:
    """In a worker: the bot's action for ``seat`` of the pickled game, as text."""
    import numpy as np

    from ..bots import make_bot

    bot = _bots.get(name)
    if bot is None:
        bot = _bots[name] = make_bot(name, 0)
        if hasattr(bot, "ms") and hasattr(bot, "rollouts"):  # MCBot: a time budget
            bot.rollouts, bot.ms = None, budget_ms
    game = pickle.loads(blob)
    bot.rng = np.random.default_rng(seed)
    legal = list(game.legal_actions(seat))
    act_fast = getattr(bot, "act_fast", None)
    if act_fast is not None:
        return str(act_fast(game, seat, legal))
    return str(bot.act(game.view(seat), legal))


def _warm() -> None:
    """When a worker starts: a lower CPU priority than the server's loop (bot work waits for
    the loop, never the reverse), the engine and bots imported before the first decision,
    and a watch on the server process (:func:`_exit_with_parent`)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICE)
    threading.Thread(
        target=_exit_with_parent, args=(os.getppid(),), name="mjcore-parent-watch", daemon=True
    ).start()
    from .. import bots  # noqa: F401


def _exit_with_parent(parent: int) -> None:
    """In a worker: exit once the server that started it is gone. A server killed without
    its shutdown (a crash, kill -9) would otherwise leave its workers waiting on their task
    pipe for ever, each holding a Python process's memory."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(0)


class BotPool:
    """``workers`` processes deciding for bots outside :data:`LOOP_BOTS`."""

    def __init__(self, workers: int = 1, budget_ms: float = 0.0, registry: Any = None) -> None:
        if workers < 1:
            raise ValueError(f"bot workers must be at least 1, got {workers}")
        self.workers = workers
        self.budget_ms = budget_ms if budget_ms > 0 else BUDGET_MS
        self.waiting = 0  # decisions submitted and not answered
        self.fallbacks = 0  # decisions the loop's bot made instead (queue full or too late)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._counter: Any = None  # mjcore_bot_decisions_total{by="pool"|"fallback"}
        if registry is not None:
            from prometheus_client import Counter

            self._counter = Counter(
                "mjcore_bot_decisions", "Decisions of bots too slow for the loop: answered by "
                "the worker pool, or by the loop's expert (pool full or too late)", ["by"],
                registry=registry,
            )  # fmt: skip

    def _count(self, by: str) -> None:
        if by == "fallback":
            self.fallbacks += 1
        if self._counter is not None:
            self._counter.labels(by=by).inc()

    def offloads(self, name: str) -> bool:
        """Whether bot ``name`` decides here (not on the loop)."""
        return name not in LOOP_BOTS

    def decide(
        self,
        name: str,
        game: Game,
        seat: int,
        seed: list[int],
        post: Callable[[Callable[[], None]], Any],
        schedule: Callable[[float, Callable[[], None]], Any],
        done: Callable[[str | None], None],
    ) -> bool:
        """Ask for a decision; ``done(action text)`` runs on the loop (through ``post``) when
        it comes, or ``done(None)`` once it is too late (``schedule`` sets that deadline).
        False (nothing asked) when the pool is full: decide on the loop instead."""
        if self.waiting >= QUEUE_PER_WORKER * self.workers:
            self._count("fallback")
            return False
        if self._pool is None:
            # spawn: the server process has threads (database writers), which fork would copy
            # in whatever state they are
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_warm
            )
        answered = [False]

        def finish(action: str | None) -> None:
            if answered[0]:
                return
            answered[0] = True
            self.waiting -= 1
            self._count("fallback" if action is None else "pool")
            done(action)

        def landed(future: concurrent.futures.Future[str]) -> None:  # (a pool thread)
            try:
                action: str | None = future.result()
            except Exception as exc:  # a bot's bug or a dead worker: the loop's bot decides
                print(f"mjcore server: bot {name} failed: {type(exc).__name__}: {exc}",
                      file=sys.stderr)  # fmt: skip
                action = None
            post(lambda: finish(action))

        self.waiting += 1
        try:
            future = self._pool.submit(
                _decide, name, pickle.dumps(game), seat, seed, self.budget_ms
            )
        except Exception as exc:  # a broken pool (a worker was killed): start a new one
            print(f"mjcore server: bot pool: {type(exc).__name__}: {exc}", file=sys.stderr)
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self.waiting -= 1
            self._count("fallback")
            return False
        future.add_done_callback(landed)
        schedule(self.budget_ms / 1000 + GRACE_S, lambda: finish(None))
        return True

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
