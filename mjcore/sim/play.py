# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""Playing the hands of a simulation: a :class:`Job` (the run's Rules, bots and seed), one
seeded hand (:func:`play_hand`) and a chunk of hands into statistics (:func:`run_chunk`).

What every backend's workers run (:mod:`mjcore.sim.backends`); :mod:`mjcore.sim.runner`
builds the Job at the public edge (``simulate``) and merges the chunks. Compiled by Cython
(CMakeLists.txt): the hand loop is the simulator's hot path.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .._prng import generate_state
from ..bots.base import BaseBot
from ..bots.random_bot import RandomBot, _pick
from ..bots.spec import SeatBot, decider
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.variant import Variant
from .blas import one_blas_thread
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
    state = generate_state(seed, (index,), players + 1)  # numpy's words, computed in C
    return state[0], state[1:]


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play any hand of a run (sent once per worker): the
    :class:`~mjcore.engine.rules.Rules` (resolved once, at :func:`simulate`), the options as
    the caller gave them (for the report), the bots and the seed."""

    rules: Rules
    options: dict[str, Any] | None
    seat_bots: tuple[SeatBot, ...]
    seed: int
    duplicate: bool = False
    records: bool = False

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def labels(self) -> list[str]:
        return [sb.label for sb in self.seat_bots]

    def empty_stats(self) -> SimStats:
        return SimStats(
            variant=self.variant.name,
            players=self.players,
            options=dict(self.options or {}),
            bots=self.labels,
            seed=self.seed,
            duplicate=self.duplicate,
        )

    def seating(self, index: int) -> tuple[int, int, list[tuple[SeatBot, int]]]:
        """(wall seed, dealer, [(bot recipe, bot seed) per seat]) of hand ``index``.

        Plain play: hand ``i`` has its own wall, dealt by seat ``i % players``. Duplicate:
        deal ``d = i // players`` is played ``players`` times with the same wall and dealer,
        rotation ``r = i % players`` moving bot ``j`` (with its seed) to seat ``(j + r) % n``.
        """
        n, bots = self.rules.players, self.seat_bots
        if not self.duplicate:
            wall_seed, seeds = game_seeds(self.seed, index, n)
            return wall_seed, index % n, [(bots[s], seeds[s]) for s in range(n)]
        deal, rot = divmod(index, n)
        wall_seed, seeds = game_seeds(self.seed, deal, n)
        slots = [(s - rot) % n for s in range(n)]
        return wall_seed, deal % n, [(bots[j], seeds[j]) for j in slots]


def play_hand(
    job: Job,
    index: int,
    fault_tally: dict[str, Counter] | None = None,
    kept: list[Any] | None = None,
) -> tuple[Game, int, list[str]]:
    """Play hand ``index`` of a run: (finished game, actions, bot label per seat); the
    faults of ``exec:`` agents are added to ``fault_tally`` (per label) when given.

    ``kept`` (one slot per seat, None at first) carries the bots from one hand of a chunk to
    the next: a bot whose class is :attr:`~mjcore.bots.base.BaseBot.replayable` is reseeded
    and plays again instead of being built anew (the same bot, the same choices)."""
    wall_seed, dealer, seats = job.seating(index)
    if kept is None:
        bots = [sb.make(seed) for sb, seed in seats]
        decide = [decider(bot) for bot in bots]
    else:
        bots, decide = _seat_bots(seats, kept)
    game = Game(job.rules, seed=wall_seed, dealer=dealer)  # (= job.rules.new_game, called in C)
    hooked = [s for s, bot in enumerate(bots) if hasattr(bot, "hand_end")]  # exec: agents
    for s in hooked:
        bots[s].hand_start(game, s, index)
    # a RandomBot's act_fast is its pick: asked directly (a C call when compiled)
    picks = bytes([type(bot) is RandomBot for bot in bots])
    actions, limit = 0, MAX_ACTIONS  # (a C int when compiled: no global read an action)
    while game.phase != "over":  # (game.is_over, read as the field)
        if actions >= limit:
            raise RuntimeError(f"hand did not end after {limit} actions")
        seat = game.first_to_act()  # (= to_act()[0], without the list)
        # (legal_actions and apply of a seat the game named: not checked again)
        legal = game._legal_at(seat)
        if picks[seat]:
            game._apply_at(seat, _pick(bots[seat], legal))
        else:
            game._apply_at(seat, decide[seat](game, seat, legal))
        actions += 1
    for s in hooked:  # the settlement to the agent; its faults into the statistics
        faults = bots[s].hand_end(game, s)
        if faults and fault_tally is not None:
            fault_tally.setdefault(seats[s][0].label, Counter()).update(faults)
    return game, actions, [sb.label for sb, _ in seats]


def _seat_bots(seats: list[tuple[SeatBot, int]], kept: list[Any]) -> tuple[list, list]:
    """The hand's bots and decision functions, reusing ``kept``'s where the seat's recipe is
    the same and its bot replays (``kept[s]``: (recipe, bot, decide, replays) of the last
    hand). A bot replays when it is a BaseBot whose own class is replayable and the recipe
    is not a factory of the caller's (whose every call, one a hand, is the caller's
    business)."""
    bots, decide = [], []
    for s in range(len(seats)):
        sb, seed = seats[s]
        last = kept[s]
        if last is not None and last[0] is sb and last[3]:
            again = last[1]  # (a BaseBot: reseed is a C call when compiled)
            again.reseed(seed)  # (a replayable bot's whole state is its random stream)
        else:
            bot = sb.make(seed)
            replays = (
                sb.kind != "factory"
                and isinstance(bot, BaseBot)
                and bool(type(bot).__dict__.get("replayable"))
            )
            last = kept[s] = (sb, bot, decider(bot), replays)
        bots.append(last[1])
        decide.append(last[2])
    return bots, decide


@dataclass
class ChunkResult:
    """A chunk's statistics and (when asked for) its per-hand records as an Arrow table."""

    stats: SimStats
    records: Any = None


def run_chunk(
    job: Job, start: int, stop: int, partial: ChunkResult | None = None, cancel: Any = None
) -> ChunkResult:
    """Play hands ``start``..``stop-1`` (whole deals in a duplicate run).

    ``partial``, when given, is filled as hands finish, so an interrupted caller keeps the
    complete hands (deals) played so far. ``cancel``, when given, is a shared flag (its
    ``value``) that ends the chunk before the next deal once it is set (an abandoned run).
    """
    res = partial or ChunkResult(job.empty_stats())
    from .records import HandRows

    rows = HandRows() if job.records else None
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        with one_blas_thread():  # no spinning BLAS threads beside the hands (mjcore.sim.blas)
            _play_range(job, start, stop, res, rows, cancel)
    finally:
        res.stats.seconds = time.perf_counter() - t0
        res.stats.cpu_seconds = time.process_time() - c0
        if rows is not None:
            res.records = rows.table()
    return res


def _play_range(
    job: Job, start: int, stop: int, res: ChunkResult, rows: Any, cancel: Any = None
) -> None:
    """Play hands ``start``..``stop-1`` into ``res`` (and ``rows``), a deal at a time."""
    step = job.players if job.duplicate else 1
    kept: list[Any] = [None] * job.players  # the bots carried from hand to hand (play_hand)
    for first in range(start, stop, step):
        if cancel is not None and cancel.value:
            break
        faults = res.stats.faults
        played = [(i, *_play_or_explain(job, i, faults, kept)) for i in range(first, first + step)]
        totals: dict[str, int] = {}
        for index, game, actions, labels in played:
            res.stats.add_game(game, actions, labels)
            if rows is not None:
                rows.add(index, game, job.seed, labels)
            for label, score in zip(labels, game.scores, strict=True):
                totals[label] = totals.get(label, 0) + score
        if job.duplicate:
            res.stats.add_deal(totals)


def _play_or_explain(
    job: Job, index: int, faults: dict[str, Counter] | None = None, kept: list[Any] | None = None
) -> tuple[Game, int, list[str]]:
    try:
        return play_hand(job, index, faults, kept)
    except Exception as exc:
        wall_seed = job.seating(index)[0]
        raise GameFailedError(
            f"game {index} failed: {type(exc).__name__}: {exc}\n"
            f"replay: mjcore.sim.play_game({job.variant.name!r}, {index}, "
            f"players={job.players}, options={job.options!r}, bots={job.labels!r}, "
            f"seed={job.seed}, duplicate={job.duplicate}) (wall seed {wall_seed})\n"
            f"{traceback.format_exc()}"
        ) from exc
