"""SimStats: mergeable aggregate statistics of simulated hands, per seat and per bot.

Everything but the timing is an integer sum or a Counter, so merging chunks is exact and
order-free: the statistics of a run do not depend on the backend, the number of workers or
the chunk size.

Variant hook: a variant may report extra per-hand counters by overriding
``Variant.hand_counters(game) -> dict[str, int]`` (e.g. how often a rule fired); the values
are summed over the run into ``SimStats.hand_counters``. Scoring patterns need no hook:
every win's pattern ids (its ``hits``) are counted in ``wins_by_pattern``.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .intervals import Z95, wilson  # noqa: F401  (SimStats' intervals; re-exported)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..engine.events import EventLog
    from ..engine.game import Game

_PERCENTILES = (1, 5, 25, 50, 75, 95, 99)
_MULTI_HOWS = ("discard", "rob_gang")


@dataclass
class BotTally:
    """One bot's results over the seats it holds (``seats`` of them at every table).

    The sample unit of its confidence interval is a hand (plain play) or a deal (duplicate):
    ``hand_sum``/``hand_sumsq`` are moments of the bot's total score over its seats in one
    hand, ``deal_*`` the same over the ``players`` rotations of one deal.
    """

    seats: int
    seat_hands: int = 0  # hands × seats held
    wins: int = 0
    hands_won: int = 0  # seat-hands with at least one win
    score_hist: Counter = field(default_factory=Counter)  # one entry per seat-hand
    hand_sum: int = 0
    hand_sumsq: int = 0
    deals: int = 0
    deal_sum: int = 0
    deal_sumsq: int = 0

    def merge(self, other: BotTally) -> None:
        for name in (
            "seat_hands",
            "wins",
            "hands_won",
            "hand_sum",
            "hand_sumsq",
            "deals",
            "deal_sum",
            "deal_sumsq",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.score_hist.update(other.score_hist)

    @property
    def hands(self) -> int:
        return self.seat_hands // self.seats if self.seats else 0

    @property
    def mean(self) -> float:
        """Mean score per seat-hand."""
        return self.hand_sum / self.seat_hands if self.seat_hands else 0.0

    def plain_se(self) -> float:
        """Standard error of :attr:`mean` treating hands as independent samples."""
        return _se(self.hands, self.hand_sum, self.hand_sumsq) / self.seats if self.seats else 0.0

    def duplicate_se(self, players: int) -> float:
        """Standard error of :attr:`mean` with deals (every seat rotation) as the samples."""
        if not self.seats:
            return 0.0
        return _se(self.deals, self.deal_sum, self.deal_sumsq) / (self.seats * players)

    def win_rate(self) -> float:
        return self.hands_won / self.seat_hands if self.seat_hands else 0.0


@dataclass
class SimStats:
    """Aggregate statistics; every field but the timing merges exactly (sums and Counters).

    ``score_hist[s]`` counts each final score of seat ``s``, so averages, spreads and
    percentiles are exact and ``workers=N`` aggregates equal ``workers=1``. ``by_bot`` holds
    the same per bot label (a bot at several seats, or moving seats in a duplicate run, is
    one row). ``interrupted`` marks a run stopped by Ctrl-C: it then covers the first
    ``games`` hands.
    """

    variant: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    bots: list[str] = field(default_factory=list)
    seed: int = 0
    duplicate: bool = False
    games: int = 0
    actions: int = 0
    draws: int = 0  # exhausted hands without any win
    multi_wins: int = 0  # discards / robbed gangs won by more than one seat (一炮多响)
    wins_by_seat: list[int] = field(default_factory=list)
    hands_won_by_seat: list[int] = field(default_factory=list)
    wins_by_how: Counter = field(default_factory=Counter)
    wins_by_pattern: Counter = field(default_factory=Counter)
    fan_hist: Counter = field(default_factory=Counter)
    points_hist: Counter = field(default_factory=Counter)  # a win's points per payer
    gangs_by_kind: Counter = field(default_factory=Counter)
    score_hist: list[Counter] = field(default_factory=list)
    by_bot: dict[str, BotTally] = field(default_factory=dict)
    hand_counters: Counter = field(default_factory=Counter)  # Variant.hand_counters, summed
    faults: dict[str, Counter] = field(default_factory=dict)
    """Per ``exec:`` agent label: its faults by kind and ``fallback`` decisions (docs/agents.md)."""
    interrupted: bool = False
    seconds: float = field(default=0.0, compare=False)
    cpu_seconds: float = field(default=0.0, compare=False)
    """CPU time of the processes that played the hands, summed over chunks (not the merging)."""
    backend: str = field(default="inline", compare=False)
    timeline: list[tuple[float, int]] = field(default_factory=list, compare=False)
    """(seconds since start, hands done) each time a chunk arrived: hands/s over the run."""

    def __post_init__(self) -> None:
        n = self.players
        self.wins_by_seat = self.wins_by_seat or [0] * n
        self.hands_won_by_seat = self.hands_won_by_seat or [0] * n
        self.score_hist = self.score_hist or [Counter() for _ in range(n)]
        if not self.by_bot and self.bots:
            for label in self.bots:
                tally = self.by_bot.setdefault(label, BotTally(seats=0))
                tally.seats += 1

    # ---- collecting -------------------------------------------------------------
    def add_game(self, game: Game, actions: int, seat_bots: Sequence[str] | None = None) -> None:
        """Count one finished hand; ``seat_bots[s]`` is the label of the bot at seat ``s``."""
        labels = list(seat_bots) if seat_bots is not None else self.bots
        self.games += 1
        self.actions += actions
        wins = game.wins  # (a copy of each win: read once)
        if not wins:
            self.draws += 1
        scores = game.scores
        for seat, score in enumerate(scores):
            self.score_hist[seat][score] += 1
        won = set()
        wins_of = [0] * self.players
        for win in wins:
            won.add(win.seat)
            wins_of[win.seat] += 1
            self.wins_by_seat[win.seat] += 1
            self.wins_by_how[win.how] += 1
            self.wins_by_pattern.update(win.breakdown.ids)
            self.fan_hist[win.breakdown.fan] += 1
            self.points_hist[win.breakdown.points] += 1
        for seat in won:
            self.hands_won_by_seat[seat] += 1
        for st in game.seats:
            self.gangs_by_kind.update(m.kind for m in st.melds if m.is_gang)
        if len(wins) > 1:  # (one discard won by several seats needs two wins at least)
            self.multi_wins += _multi_wins(game.event_log)
        self.hand_counters.update(game.variant.hand_counters(game))
        if labels:
            self._add_bots(labels, scores, wins_of, won)

    def _add_bots(
        self, labels: Sequence[str], scores: list[int], wins_of: list[int], won: set[int]
    ) -> None:
        totals: dict[str, int] = {}
        for seat, label in enumerate(labels):
            tally = self.by_bot[label]
            tally.seat_hands += 1
            tally.wins += wins_of[seat]
            tally.hands_won += seat in won
            tally.score_hist[scores[seat]] += 1
            totals[label] = totals.get(label, 0) + scores[seat]
        for label, total in totals.items():
            tally = self.by_bot[label]
            tally.hand_sum += total
            tally.hand_sumsq += total * total

    def add_deal(self, totals: dict[str, int]) -> None:
        """One duplicate deal: each bot's total score over all its seat rotations."""
        for label, total in totals.items():
            tally = self.by_bot[label]
            tally.deals += 1
            tally.deal_sum += total
            tally.deal_sumsq += total * total

    def merge(self, other: SimStats) -> SimStats:
        """Add ``other`` (same variant, players and bots) into self; returns self."""
        if (other.variant, other.players) != (self.variant, self.players):
            raise ValueError("cannot merge statistics of different variants or player counts")
        for name in ("games", "actions", "draws", "multi_wins", "seconds", "cpu_seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("wins_by_seat", "hands_won_by_seat"):
            mine, theirs = getattr(self, name), getattr(other, name)
            setattr(self, name, [a + b for a, b in zip(mine, theirs, strict=True)])
        for name in (
            "wins_by_how",
            "wins_by_pattern",
            "fan_hist",
            "points_hist",
            "gangs_by_kind",
            "hand_counters",
        ):
            getattr(self, name).update(getattr(other, name))
        for mine, theirs in zip(self.score_hist, other.score_hist, strict=True):
            mine.update(theirs)
        for label, tally in other.by_bot.items():
            self.by_bot.setdefault(label, BotTally(seats=tally.seats)).merge(tally)
        for label, counts in other.faults.items():
            self.faults.setdefault(label, Counter()).update(counts)
        self.interrupted = self.interrupted or other.interrupted
        return self

    # ---- derived figures -------------------------------------------------------
    @property
    def hands_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def win_rate(self) -> list[float]:
        """Fraction of hands in which each seat won at least once."""
        return [w / self.games if self.games else 0.0 for w in self.hands_won_by_seat]

    @property
    def wins(self) -> int:
        """Number of wins (血战 allows several in one hand, by several seats)."""
        return sum(self.wins_by_seat)

    def score_mean(self) -> list[float]:
        return [_mean(h) for h in self.score_hist]

    def score_std(self) -> list[float]:
        return [_std(h) for h in self.score_hist]

    def score_percentiles(self) -> list[dict[int, int]]:
        """Per seat: {p: the smallest score with at least p% of hands at or below it}."""
        return [{p: _percentile(h, p) for p in _PERCENTILES} for h in self.score_hist]

    def bot_report(self) -> dict[str, dict[str, Any]]:
        """Per bot: win-rate and mean score with 95% confidence intervals (and, for a
        duplicate run, the interval plain play would give and the variance reduction)."""
        out = {}
        for label, t in self.by_bot.items():
            lo, hi = wilson(t.hands_won, t.seat_hands)
            row: dict[str, Any] = {
                "seats": t.seats,
                "seat_hands": t.seat_hands,
                "wins": t.wins,
                "hands_won": t.hands_won,
                "win_rate": t.win_rate(),
                "win_rate_ci95": [lo, hi],
                "score_mean": t.mean,
                "score_std": _std(t.score_hist),
                "plain_ci95": Z95 * t.plain_se(),
            }
            if self.duplicate:
                dup, plain = t.duplicate_se(self.players), t.plain_se()
                row["duplicate_ci95"] = Z95 * dup
                row["variance_reduction"] = 1 - (dup / plain) ** 2 if plain > 0 else 0.0
            out[label] = row
        return out

    # ---- output -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "options": self.options,
            "bots": self.bots,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "interrupted": self.interrupted,
            "backend": self.backend,
            "games": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "cpu_seconds": round(self.cpu_seconds, 4),
            "hands_per_second": round(self.hands_per_second, 2),
            "draws": self.draws,
            "wins": self.wins,
            "multi_wins": self.multi_wins,
            "wins_by_seat": self.wins_by_seat,
            "hands_won_by_seat": self.hands_won_by_seat,
            "win_rate": [round(r, 6) for r in self.win_rate],
            "wins_by_how": dict(sorted(self.wins_by_how.items())),
            "wins_by_pattern": dict(self.wins_by_pattern.most_common()),
            "hand_counters": dict(sorted(self.hand_counters.items())),
            "fan_hist": {str(k): v for k, v in sorted(self.fan_hist.items())},
            "points_hist": {str(k): v for k, v in sorted(self.points_hist.items())},
            "gangs_by_kind": dict(sorted(self.gangs_by_kind.items())),
            "score_mean": [round(m, 6) for m in self.score_mean()],
            "score_std": [round(s, 6) for s in self.score_std()],
            "score_percentiles": [
                {str(p): v for p, v in d.items()} for d in self.score_percentiles()
            ],
            "score_hist": [{str(k): v for k, v in sorted(h.items())} for h in self.score_hist],
            "by_bot": _rounded(self.bot_report()),
            "faults": {k: dict(sorted(v.items())) for k, v in sorted(self.faults.items())},
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def summary(self) -> str:
        """A readable multi-line report."""
        from .report import summary

        return summary(self)

    def plot(self, path: str | None = None) -> Figure:
        """A five-panel figure — score distribution per bot in bins that suit the variant's
        values, pattern frequencies (log scale, 中文 names with a CJK font), win-rate and each
        bot's mean score per hand with 95% intervals (beside plain play's in a duplicate run),
        hands/s over the run — saved to ``path`` (PNG …) when given. Needs
        matplotlib (the "dask" extra: ``pip install ".[dask]"`` from a checkout)."""
        from .plot import plot_stats

        return plot_stats(self, path)


def _se(n: int, s: int, ss: int) -> float:
    """Standard error of the mean of n samples with sum s and sum of squares ss (exact ints)."""
    if n < 2:
        return 0.0
    var = (ss - s * s / n) / (n - 1)
    return math.sqrt(max(var, 0.0) / n)


def _multi_wins(log: EventLog) -> int:
    """Count discards (or robbed gangs) that more than one seat won on."""
    types = log.types()
    if types.count("hu") < 2:  # (most hands: only the win-decoded events are read)
        return 0
    count, prev, group = 0, None, 0
    for seq, kind in enumerate(types):
        if kind == "pay":
            continue
        ev = log[seq] if kind == "hu" else None
        if ev is not None and ev["how"] in _MULTI_HOWS:
            key = (ev["from_seat"], ev["tile"], ev["how"])
            group = group + 1 if key == prev else 1
            if group == 2:
                count += 1
            prev = key
        else:
            prev, group = None, 0
    return count


def _mean(h: Counter) -> float:
    n = sum(h.values())
    return sum(v * c for v, c in h.items()) / n if n else 0.0


def _std(h: Counter) -> float:
    n, mean = sum(h.values()), _mean(h)
    return (sum(c * (v - mean) ** 2 for v, c in h.items()) / n) ** 0.5 if n else 0.0


def _percentile(h: Counter, p: int) -> int:
    n = sum(h.values())
    if not n:
        return 0
    need, seen = p / 100 * n, 0
    for v in sorted(h):
        seen += h[v]
        if seen >= need:
            return v
    return max(h)


def _rounded(obj: Any) -> Any:
    if isinstance(obj, float):
        return round(obj, 6)
    if isinstance(obj, dict):
        return {k: _rounded(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_rounded(v) for v in obj]
    return obj
