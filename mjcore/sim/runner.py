"""simulate(): play many seeded hands with bots, optionally on several processes."""

from __future__ import annotations

import multiprocessing as mp
import time
import traceback
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..bots import make_bots
from ..engine.game import Game
from ..engine.variant import Variant
from ..variants import get_variant
from .stats import SimStats

MAX_ACTIONS = 20_000
"""A hand still running after this many actions is an engine bug (a loop)."""


class GameFailedError(RuntimeError):
    """A simulated hand raised (an engine or bot bug); the message says how to replay it."""


def game_seeds(seed: int, index: int, players: int) -> tuple[int, list[int]]:
    """(wall seed, one seed per seat's bot) of game ``index`` of a run seeded ``seed``.

    Derived from ``numpy.random.SeedSequence(seed, spawn_key=(index,))`` — the same
    child that ``SeedSequence(seed).spawn(...)[index]`` gives — so a game's seeds do
    not depend on how the run is split across workers.
    """
    state = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(players + 1)
    return int(state[0]), [int(s) for s in state[1:]]


def play_game(
    variant: str | Variant,
    index: int,
    players: int = 4,
    options: dict | None = None,
    bots: str | Sequence[str] = "greedy",
    seed: int = 0,
) -> tuple[Game, int]:
    """Play game ``index`` of a simulation exactly as :func:`simulate` does: (game, actions)."""
    variant = get_variant(variant)
    wall_seed, bot_seeds = game_seeds(seed, index, players)
    seat_bots = make_bots(bots, players, bot_seeds)
    # The dealer rotates with the game index, so per-seat statistics compare bots, not seats.
    game = variant.new_game(
        players=players, options=options, seed=wall_seed, dealer=index % players
    )
    actions = 0
    while not game.is_over:
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"hand did not end after {MAX_ACTIONS} actions")
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        game.apply(seat, seat_bots[seat].act_fast(game, seat, legal))
        actions += 1
    return game, actions


def _run_chunk(
    variant: str,
    players: int,
    options: dict | None,
    bots: str | list[str],
    seed: int,
    start: int,
    stop: int,
) -> SimStats:
    stats = _empty_stats(variant, players, options, bots, seed)
    t0 = time.perf_counter()
    for index in range(start, stop):
        try:
            game, actions = play_game(variant, index, players, options, bots, seed)
        except Exception as exc:
            raise GameFailedError(
                f"game {index} failed: {type(exc).__name__}: {exc}\n"
                f"replay: mjcore.sim.play_game({variant!r}, {index}, players={players}, "
                f"options={options!r}, bots={bots!r}, seed={seed}) "
                f"(wall seed {game_seeds(seed, index, players)[0]})\n{traceback.format_exc()}"
            ) from exc
        stats.add_game(game, actions)
    stats.seconds = time.perf_counter() - t0
    return stats


def _run_chunk_star(args: tuple) -> SimStats:
    return _run_chunk(*args)


def _empty_stats(
    variant: str, players: int, options: dict | None, bots: str | list[str], seed: int
) -> SimStats:
    names = [bots] * players if isinstance(bots, str) else list(bots)
    return SimStats(
        variant=variant, players=players, options=dict(options or {}), bots=names, seed=seed
    )


def simulate(
    variant: str | Variant,
    games: int,
    players: int = 4,
    options: dict[str, Any] | None = None,
    bots: str | Sequence[str] = "greedy",
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
) -> SimStats:
    """Play ``games`` full hands (game ``i`` dealt by seat ``i % players``); aggregate statistics.

    Game ``i`` uses the wall and bot seeds :func:`game_seeds` derives from ``seed``, so the
    statistics (all but the timing) are the same for every ``workers`` count. ``bots`` is
    ``"greedy"``, ``"random"`` or one name per seat. A hand that raises is a bug: it is
    re-raised as :class:`GameFailedError` naming the game and how to replay it.
    """
    variant = get_variant(variant)
    if not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a non-negative integer, got {games!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    bots = bots if isinstance(bots, str) else list(bots)
    variant.new_game(players=players, options=options, seed=0)  # validate players/options up front
    make_bots(bots, players)  # validate bot names up front
    total = _empty_stats(variant.name, players, options, bots, seed)
    chunks = _chunks(games, workers)
    args = [(variant.name, players, options, bots, seed, a, b) for a, b in chunks]
    bar = _progress_bar(games, progress)
    t0 = time.perf_counter()
    results: Iterable[SimStats]
    try:
        if workers == 1:
            results = map(_run_chunk_star, args)
        else:
            pool = mp.get_context("spawn").Pool(min(workers, len(args)) or 1)
            results = pool.imap_unordered(_run_chunk_star, args)
        for part in results:
            total.merge(part)
            if bar is not None:
                bar.update(part.games)
    finally:
        if workers > 1:
            pool.terminate()
            pool.join()
        if bar is not None:
            bar.close()
    total.seconds = time.perf_counter() - t0
    return total


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Contiguous index ranges: small enough for a live progress bar and load balance."""
    size = max(1, min(500, games // (workers * 8) or 1))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def _progress_bar(games: int, progress: bool) -> Any:
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=games, unit="hand", desc="simulate", dynamic_ncols=True)
