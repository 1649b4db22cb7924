"""simulate(): play many seeded hands with bots, in process, on local processes or on Dask.

A run is cut into chunks of consecutive hand indices. Hand ``i``'s wall, dealer and bot
seeds depend only on (seed, i), and a chunk's statistics are exact integer sums, so merging
the chunks gives the same statistics whatever the backend, the number of workers or the
chunk size. Chunks are merged (and their per-hand records written) in index order.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bots.spec import resolve_bots
from ..engine.game import Game
from ..engine.variant import Variant
from ..errors import InvalidOptionError, clip
from ..variants import get_variant
from .play import (  # noqa: F401  (re-exported: the run's building blocks)
    MAX_ACTIONS,
    ChunkResult,
    GameFailedError,
    Job,
    game_seeds,
    play_hand,
    run_chunk,
)
from .stats import SimStats

MAX_CHUNK = 500
"""Largest default chunk: a live progress bar and bounded memory per chunk."""


def play_game(
    variant: str | Variant,
    index: int,
    players: int = 4,
    options: dict | None = None,
    bots: Any = "greedy",
    seed: int = 0,
    duplicate: bool = False,
) -> tuple[Game, int]:
    """Play game ``index`` of a simulation exactly as :func:`simulate` does: (game, actions)."""
    rules = get_variant(variant).rules(options, players)
    job = Job(rules, options, tuple(resolve_bots(bots, players)), seed, duplicate)
    game, actions, _ = play_hand(job, index)
    return game, actions


# ---- argument checks -----------------------------------------------------------------------------
def _integer(name: str, value: Any, minimum: int | None = None, allow_none: bool = False) -> Any:
    """An int (numpy integers converted; bools, floats, strings rejected) ≥ ``minimum``."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidOptionError(f"{name} must be an integer, got {clip(value, 80)}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise InvalidOptionError(f"{name} must be at least {minimum}, got {value}")
    return value


def _variant(variant: Any) -> Variant:
    if not isinstance(variant, (str, Variant)):
        raise InvalidOptionError(f"variant must be a variant name, got {clip(variant, 80)}")
    try:
        return get_variant(variant)
    except InvalidOptionError:
        raise
    except ValueError as exc:  # unknown name
        raise InvalidOptionError(str(exc)) from None


def _flag(name: str, value: Any, allow_none: bool = False) -> Any:
    if value is None and allow_none:
        return None
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidOptionError(f"{name} must be True or False, got {clip(value, 80)}")
    return bool(value)


@dataclass(frozen=True)
class ChunkRanges:
    """The chunks of a run, made as they are asked for: a run of 10**11 hands starts at once
    and holds one chunk at a time (``len`` and ``bool`` do not build them either)."""

    games: int
    size: int

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for a in range(0, self.games, self.size):
            yield a, min(a + self.size, self.games)

    def __len__(self) -> int:
        return -(-self.games // self.size)

    def __bool__(self) -> bool:
        return self.games > 0


def chunk_ranges(games: int, size: int, step: int) -> ChunkRanges:
    """Contiguous index ranges of ``size`` hands (a multiple of ``step``, the deal size)."""
    return ChunkRanges(games, max(step, size - size % step))


def default_chunk(games: int, parallel: int, step: int) -> int:
    """Small enough for a live progress bar and load balance, at most :data:`MAX_CHUNK`."""
    size = max(1, min(MAX_CHUNK, games // (parallel * 8) or 1))
    return max(step, size - size % step)


# ---- the entry point -----------------------------------------------------------------------------
def simulate(
    variant: str | Variant,
    games: int,
    players: int = 4,
    options: dict[str, Any] | None = None,
    bots: Any = "greedy",
    seed: int | None = 0,
    workers: int = 1,
    progress: bool | None = False,
    *,
    cluster: Any = None,
    chunk_size: int | None = None,
    duplicate: bool = False,
    out: str | os.PathLike[str] | None = None,
) -> SimStats:
    """Play ``games`` full hands with bots and return their aggregate statistics.

    * ``bots``: for every seat or one per seat — a name (``"greedy"``, ``"random"``),
      ``"module:Name"``, a Bot class, a factory returning a bot, or a Bot instance (see
      :mod:`mjcore.bots.spec`; with ``workers > 1`` they must pickle).
    * ``seed``: an int (numpy ints accepted) or None for a fresh one (recorded in the stats).
      Hand ``i`` is dealt by seat ``i % players`` from seeds :func:`game_seeds` derives, so
      the statistics (all but the timing) are the same for any ``workers``, ``cluster`` or
      ``chunk_size``.
    * ``workers``: local processes; ``cluster``: ``"local:N"`` (a Dask LocalCluster of N
      processes), a scheduler address ``"tcp://host:8786"`` or a ``dask.distributed.Client``
      (the "dask" extra: ``pip install ".[dask]"`` from a checkout). Not both.
    * ``duplicate``: every wall is played once per seat rotation (``games`` must be a
      multiple of ``players``; chunks hold whole deals); the per-bot report then has
      duplicate confidence intervals and the variance reduction against plain play.
    * ``out``: write one Parquet row per hand (:mod:`mjcore.sim.records`).
    * ``progress``: a progress bar on stderr; None = only when stderr is a terminal.

    Ctrl-C (KeyboardInterrupt) stops the run and returns the statistics of the hands merged
    so far, with ``interrupted=True``. A hand that raises is a bug: it is re-raised as
    :class:`GameFailedError` naming the game and how to replay it. Bad arguments raise
    :class:`~mjcore.errors.InvalidOptionError` naming the argument.
    """
    games = _integer("games", games, 0)
    workers = _integer("workers", workers, 1)
    chunk_size = _integer("chunk_size", chunk_size, 1, allow_none=True)
    progress = _flag("progress", progress, allow_none=True)
    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise InvalidOptionError(f"out must be a file path, got {clip(out, 80)}")
    if cluster is not None and workers != 1:
        raise InvalidOptionError("workers and cluster exclude each other: give one of them")
    job = make_job(variant, games, players, options, bots, seed, duplicate, out is not None)
    backend = _backend(job, workers, cluster)
    writer = None
    try:
        writer = _writer(out, job) if out is not None else None
        step = job.players if job.duplicate else 1
        size = chunk_size or default_chunk(games, backend.parallelism, step)
        return drive(job, backend, chunk_ranges(games, size, step), games, progress, writer)
    finally:
        backend.close()  # idempotent; drive closes it too, as soon as the chunks are in
        if writer is not None:
            writer.close()


def make_job(
    variant: Any,
    games: int,
    players: Any,
    options: Any,
    bots: Any,
    seed: Any,
    duplicate: Any,
    records: bool,
) -> Job:
    """Check the run's arguments (naming the bad one) and resolve them into a :class:`Job`."""
    variant = _variant(variant)
    players = _integer("players", players)
    seed = _integer("seed", seed, 0, allow_none=True)
    duplicate = _flag("duplicate", duplicate)
    if options is not None and not isinstance(options, dict):
        raise InvalidOptionError(f"options must be a dict or None, got {clip(options, 80)}")
    if duplicate and games % players:
        raise InvalidOptionError(
            f"games must be a multiple of players ({players}) with duplicate, got {games}"
        )
    if seed is None:
        seed = secrets.randbits(63)
    rules = variant.rules(options, players)  # the public edge: players and options, once
    seat_bots = tuple(resolve_bots(bots, players))
    return Job(rules, options, seat_bots, seed, duplicate, records)


def _writer(out: str | os.PathLike[str], job: Job) -> Any:
    from .records import HandWriter

    meta = {
        "variant": job.variant.name,
        "players": job.players,
        "options": job.options or {},
        "bots": job.labels,
        "seed": str(job.seed),
        "duplicate": job.duplicate,
    }
    return HandWriter(out, meta)


def _backend(job: Job, workers: int, cluster: Any) -> Any:
    from . import backends

    if cluster is not None:
        return backends.DaskBackend(job, cluster)
    if workers > 1:
        return backends.PoolBackend(job, workers)
    return backends.InlineBackend(job)


def drive(
    job: Job,
    backend: Any,
    chunks: Iterable[tuple[int, int]],
    games: int,
    progress: bool | None,
    writer: Any = None,
) -> SimStats:
    """Run the chunks on the backend; merge (and write) them in index order as they arrive."""
    total = job.empty_stats()
    total.backend = backend.describe()
    bar = _progress_bar(games, progress)
    pending: dict[int, ChunkResult] = {}
    done = arrived = 0
    t0 = time.perf_counter()
    try:
        for idx, res in backend.results(chunks):
            pending[idx] = res
            arrived += res.stats.games
            total.timeline.append((time.perf_counter() - t0, arrived))
            if bar is not None:
                bar.update(res.stats.games)
            while done in pending:
                _take(total, pending.pop(done), writer)
                done += 1
    except KeyboardInterrupt:
        total.interrupted = True
        part = backend.partial()
        if part is not None and part[0] == done:
            _take(total, part[1], writer)
    finally:
        backend.close()
        if bar is not None:
            bar.close()
    total.seconds = time.perf_counter() - t0
    return total


def _take(total: SimStats, res: ChunkResult, writer: Any) -> None:
    total.merge(res.stats)
    if writer is not None:
        writer.write(res.records)


def _progress_bar(games: int, progress: bool | None) -> Any:
    if progress is False:
        return None
    from tqdm import tqdm

    # disable=None: tqdm shows the bar only when stderr is a terminal
    auto = None if progress is None else False
    return tqdm(total=games, unit="hand", desc="simulate", dynamic_ncols=True, disable=auto)
