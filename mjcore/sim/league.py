"""The league (``mjcore league``): rate any set of agents against each other on duplicate deals.

Every ordered pair of agents (A, B) plays a *matchup*: A at one seat and B at every other seat,
on duplicate deals (each wall once per seat rotation, so luck of the deal cancels). Per
matchup the league reports A's mean score per hand with its 95 % duplicate interval — the
pairwise table — and every deal is also a two-team game (A's total over the rotations against
zero) that rates all agents with openskill (Plackett-Luce: ``mu``, ``sigma`` and the
conservative ``ordinal = mu - 3 sigma``; the "league" extra: ``pip install ".[league]"``
from a checkout).

A matchup is an ordinary :func:`~mjcore.sim.simulate` job (same seeds, same chunks, any
backend: in process, local processes, Dask); the per-deal totals travel inside the chunk
statistics and are merged in deal order, so the table and the ratings are identical on every
backend, for any number of workers and any chunk size.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._extras import install_hint
from ..errors import InvalidOptionError, clip
from ..variants import DEFAULT_VARIANT
from .runner import Job, _backend, chunk_ranges, default_chunk, drive, make_job
from .stats import Z95, SimStats


@dataclass
class LeagueStats(SimStats):
    """SimStats plus the seat-0 agent's total of every duplicate deal, in deal order."""

    deal_totals: list[int] = field(default_factory=list)

    def add_deal(self, totals: dict[str, int]) -> None:
        super().add_deal(totals)
        self.deal_totals.append(totals[self.bots[0]])

    def merge(self, other: SimStats) -> SimStats:
        super().merge(other)
        if isinstance(other, LeagueStats):
            self.deal_totals.extend(other.deal_totals)
        return self


@dataclass(frozen=True)
class LeagueJob(Job):
    """A matchup: a duplicate simulate job whose chunk statistics keep every deal's total."""

    def empty_stats(self) -> LeagueStats:
        return LeagueStats(
            variant=self.variant.name,
            players=self.players,
            options=dict(self.options or {}),
            bots=self.labels,
            seed=self.seed,
            duplicate=self.duplicate,
        )


@dataclass
class Matchup:
    """Agent ``agent`` at one seat against ``opponent`` at the others: A's results."""

    agent: str
    opponent: str
    deals: int
    hands: int
    mean: float  # A's mean score per hand
    ci95: float  # half-width of the 95 % duplicate interval
    wins: int  # deals A finished ahead (total > 0)
    losses: int
    deal_totals: list[int] = field(repr=False, default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "opponent": self.opponent,
            "deals": self.deals,
            "hands": self.hands,
            "mean": round(self.mean, 6),
            "ci95": round(self.ci95, 6),
            "low": round(self.mean - self.ci95, 6),
            "high": round(self.mean + self.ci95, 6),
            "deals_won": self.wins,
            "deals_lost": self.losses,
        }


@dataclass
class LeagueResult:
    """The pairwise table, the ratings, and how the league was run."""

    variant: str
    players: int
    options: dict[str, Any]
    seed: int
    hands: int  # per matchup
    agents: list[str]
    matchups: list[Matchup]
    ratings: list[dict[str, Any]]
    backend: str = ""
    seconds: float = 0.0
    hands_per_second: dict[str, float] = field(default_factory=dict)
    """Per agent: the mean hands/s of its matchups (it at one seat, each opponent at the rest)."""
    faults: dict[str, Counter] = field(default_factory=dict)
    """Per ``exec:`` agent with faults: their kinds and its ``fallback`` decisions, summed
    over every matchup it played (docs/agents.md)."""

    def pairwise(self) -> dict[str, dict[str, dict[str, Any]]]:
        """``table[A][B]``: A (one seat) against B (the other seats)."""
        out: dict[str, dict[str, dict[str, Any]]] = {a: {} for a in self.agents}
        for m in self.matchups:
            out[m.agent][m.opponent] = m.to_dict()
        return out

    def statistics(self) -> dict[str, Any]:
        """Everything but the timing and the backend: equal for every backend."""
        return {
            "variant": self.variant,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "hands_per_matchup": self.hands,
            "agents": self.agents,
            "pairwise": self.pairwise(),
            "vs_field": self.vs_field(),
            "ratings": self.ratings,
            "faults": {a: dict(sorted(c.items())) for a, c in self.faults.items() if c},
        }

    def vs_field(self) -> dict[str, float]:
        """Each agent's mean score per hand over all its matchups as the single seat."""
        out = {}
        for a in self.agents:
            rows = [m for m in self.matchups if m.agent == a]
            out[a] = round(sum(m.mean for m in rows) / len(rows), 6) if rows else 0.0
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.statistics(),
            "backend": self.backend,
            "seconds": round(self.seconds, 3),
            "hands_per_second": {k: round(v, 2) for k, v in self.hands_per_second.items()},
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def summary(self) -> str:
        """The pairwise table (mean ± 95 % of the row agent against the column agent), then
        the ratings."""
        width = max(12, *(len(a) + 2 for a in self.agents))
        table = self.pairwise()
        lines = [
            f"league {self.variant}: {len(self.agents)} agents, {self.hands} hands a matchup "
            f"(duplicate), seed {self.seed}",
            "mean score per hand of the row agent (1 seat) against the column agent "
            f"({self.players - 1} seats), ± 95 %:",
            " " * width + "".join(f"{b:>{width + 6}}" for b in self.agents),
        ]
        for a in self.agents:
            cells = []
            for b in self.agents:
                cell = table[a].get(b)
                text = "—" if cell is None else f"{cell['mean']:+.3f}±{cell['ci95']:.3f}"
                cells.append(f"{text:>{width + 6}}")
            marked = f"{a} *" if self.faults.get(a) else a
            lines.append(f"{marked:<{width}}" + "".join(cells))
        lines.append("rating (openskill Plackett-Luce; ordinal = mu - 3 sigma):")
        for r in self.ratings:
            lines.append(
                f"  {r['rank']}. {r['agent']:<{width}} mu {r['mu']:6.2f}  sigma {r['sigma']:5.2f}"
                f"  ordinal {r['ordinal']:6.2f}"
            )
        for a, counts in self.faults.items():
            if counts:
                kinds = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
                lines.append(f"* {a} faulted (its fallback played those decisions): {kinds}")
        if self.hands_per_second:
            speed = ", ".join(f"{k} {v:.0f}" for k, v in self.hands_per_second.items())
            lines.append(f"hands/s of each agent's matchups ({self.backend}): {speed}")
        return "\n".join(lines)

    def plot(self, path: str | None = None) -> Any:
        """The pairwise table as a heat map and the ratings with ±3 sigma (needs matplotlib)."""
        from .plot import _matplotlib_formats, check_plot_path

        if path is not None:
            path = check_plot_path(path)
        _matplotlib_formats()
        from matplotlib.figure import Figure

        fig = Figure(figsize=(12, 5), layout="constrained")
        heat, bars = fig.subplots(1, 2)
        k = len(self.agents)
        grid = [[math.nan] * k for _ in range(k)]
        for m in self.matchups:
            grid[self.agents.index(m.agent)][self.agents.index(m.opponent)] = m.mean
        image = heat.imshow(grid, cmap="RdBu", vmin=-_span(grid), vmax=_span(grid))
        heat.set_xticks(range(k), self.agents, rotation=30)
        heat.set_yticks(range(k), self.agents)
        heat.set_xlabel("opponent (the other seats)")
        heat.set_ylabel("agent (one seat)")
        for m in self.matchups:
            i, j = self.agents.index(m.agent), self.agents.index(m.opponent)
            heat.text(j, i, f"{m.mean:+.2f}\n±{m.ci95:.2f}", ha="center", va="center")
        fig.colorbar(image, ax=heat, label="mean score per hand")
        names = [r["agent"] for r in self.ratings]
        bars.barh(
            names, [r["mu"] for r in self.ratings], xerr=[3 * r["sigma"] for r in self.ratings]
        )
        bars.invert_yaxis()
        bars.set_xlabel("openskill mu (± 3 sigma)")
        fig.suptitle(f"league {self.variant}: {self.hands} hands a matchup, seed {self.seed}")
        if path is not None:
            fig.savefig(path, dpi=100)
        return fig


def _span(grid: list[list[float]]) -> float:
    values = [abs(v) for row in grid for v in row if not math.isnan(v)]
    return max(values, default=1.0) or 1.0


# ---- running a league ---------------------------------------------------------------------------
def league(
    variant: str,
    bots: Sequence[Any],
    hands: int,
    *,
    players: int = 4,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    workers: int = 1,
    cluster: Any = None,
    chunk_size: int | None = None,
    progress: bool | None = False,
) -> LeagueResult:
    """Play every ordered matchup of ``bots`` (any bot specs, at least two) for ``hands``
    hands each (rounded up to whole duplicate deals) and rate them; see the module docstring.

    Every matchup uses the same ``seed``, so all agents meet the same deals. ``workers`` /
    ``cluster`` as for :func:`~mjcore.sim.simulate` (one Dask client serves every matchup).
    """
    agents = [_agent_name(b) for b in bots]
    if len(agents) < 2:
        raise InvalidOptionError(f"league: give at least two agents, got {len(agents)}")
    if len(set(agents)) != len(agents):
        raise InvalidOptionError(f"league: an agent is given twice: {', '.join(agents)}")
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise InvalidOptionError(f"league: hands must be a positive integer, got {clip(hands)}")
    games = -(-hands // players) * players
    owner, client = _shared_cluster(cluster)
    t0 = time.perf_counter()
    matchups: list[Matchup] = []
    speed: dict[str, list[float]] = {}
    faults: dict[str, Counter] = {}
    described = ""
    try:
        for i, a in enumerate(bots):
            for j, b in enumerate(bots):
                if i == j:
                    continue
                seat_bots = [a] + [b] * (players - 1)
                stats, described = _play(
                    variant, games, players, options, seat_bots, seed, workers, client, chunk_size,
                    progress,
                )  # fmt: skip
                matchups.append(_matchup(agents[i], agents[j], stats))
                for who, label in ((agents[i], stats.bots[0]), (agents[j], stats.bots[1])):
                    faults.setdefault(who, Counter()).update(stats.faults.get(label, {}))
                speed.setdefault(agents[i], []).append(stats.hands_per_second)
    finally:
        if owner is not None:
            owner.close()
    ratings = rate(agents, matchups)
    return LeagueResult(
        variant=str(getattr(variant, "name", variant)),
        players=players,
        options=dict(options or {}),
        seed=seed,
        hands=games,
        agents=agents,
        matchups=matchups,
        ratings=ratings,
        backend=described,
        seconds=time.perf_counter() - t0,
        hands_per_second={k: sum(v) / len(v) for k, v in speed.items()},
        faults={a: c for a, c in faults.items() if c},
    )


def _agent_name(spec: Any) -> str:
    """The table's name of an agent: its spec, an ``exec:`` agent's ``name=`` setting."""
    if isinstance(spec, str) and spec.startswith("exec:"):
        from ..agents.exec import parse_exec

        return parse_exec(spec).label
    return spec if isinstance(spec, str) else clip(spec, 40)


def _shared_cluster(cluster: Any) -> tuple[Any, Any]:
    """(the backend that owns a cluster we start, the Client every matchup uses): a
    ``local:N`` or address string is connected once, not once per matchup."""
    if cluster is None or not isinstance(cluster, str):
        return None, cluster
    from ..variants import get_variant
    from .backends import DaskBackend

    probe = make_job(get_variant(DEFAULT_VARIANT), 0, 4, None, "random", 0, False, False)
    owner = DaskBackend(probe, cluster)
    return owner, owner.client


def _play(
    variant: Any,
    games: int,
    players: int,
    options: dict[str, Any] | None,
    seat_bots: list[Any],
    seed: int,
    workers: int,
    client: Any,
    chunk_size: int | None,
    progress: bool | None,
) -> tuple[LeagueStats, str]:
    """One matchup on the chosen backend (simulate's own chunking and merging)."""
    if client is not None and workers != 1:
        raise InvalidOptionError("workers and cluster exclude each other: give one of them")
    base = make_job(variant, games, players, options, seat_bots, seed, True, False)
    job = LeagueJob(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base)})
    backend = _backend(job, workers, client)
    try:
        size = chunk_size or default_chunk(games, backend.parallelism, players)
        stats = drive(job, backend, chunk_ranges(games, size, players), games, progress)
    finally:
        backend.close()
    if stats.interrupted:
        raise KeyboardInterrupt
    assert isinstance(stats, LeagueStats)
    return stats, backend.describe()


def _matchup(agent: str, opponent: str, stats: LeagueStats) -> Matchup:
    label = stats.bots[0]
    tally = stats.by_bot[label]
    totals = stats.deal_totals
    return Matchup(
        agent=agent,
        opponent=opponent,
        deals=len(totals),
        hands=stats.games,
        mean=tally.mean,
        ci95=Z95 * tally.duplicate_se(stats.players),
        wins=sum(1 for t in totals if t > 0),
        losses=sum(1 for t in totals if t < 0),
        deal_totals=list(totals),
    )


def rate(agents: list[str], matchups: list[Matchup]) -> list[dict[str, Any]]:
    """openskill Plackett-Luce ratings from every deal as a two-team game (A's deal total
    above, at or below zero: A ahead, a tie, B ahead); the matchups' deals are interleaved
    (deal 0 of every matchup, then deal 1 …) so no matchup is rated last. Best first."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ImportError("the league rating needs openskill: " + install_hint("league")) from None
    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    longest = max((len(m.deal_totals) for m in matchups), default=0)
    for d in range(longest):
        for m in matchups:
            if d >= len(m.deal_totals):
                continue
            total = m.deal_totals[d]
            ranks = [1.0, 1.0] if total == 0 else [1.0, 2.0] if total > 0 else [2.0, 1.0]
            [[ra], [rb]] = model.rate([[ratings[m.agent]], [ratings[m.opponent]]], ranks=ranks)
            ratings[m.agent], ratings[m.opponent] = ra, rb
    order = sorted(agents, key=lambda a: -ratings[a].ordinal())
    return [
        {
            "rank": i + 1,
            "agent": a,
            "mu": round(ratings[a].mu, 6),
            "sigma": round(ratings[a].sigma, 6),
            "ordinal": round(ratings[a].ordinal(), 6),
        }
        for i, a in enumerate(order)
    ]


# ---- the command ---------------------------------------------------------------------------------
