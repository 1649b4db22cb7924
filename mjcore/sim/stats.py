"""SimStats: mergeable aggregate statistics of simulated hands."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.game import Game

_PERCENTILES = (1, 5, 25, 50, 75, 95, 99)
_MULTI_HOWS = ("discard", "rob_gang")


@dataclass
class SimStats:
    """Aggregate statistics; every field but the timing merges exactly (sums and Counters).

    ``score_hist[s]`` counts each final score of seat ``s``, so averages, spreads and
    percentiles are exact and ``workers=N`` aggregates equal ``workers=1``.
    """

    variant: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    bots: list[str] = field(default_factory=list)
    seed: int = 0
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
    hand_counters: Counter = field(default_factory=Counter)  # Variant.hand_counters, summed
    seconds: float = field(default=0.0, compare=False)

    def __post_init__(self) -> None:
        n = self.players
        self.wins_by_seat = self.wins_by_seat or [0] * n
        self.hands_won_by_seat = self.hands_won_by_seat or [0] * n
        self.score_hist = self.score_hist or [Counter() for _ in range(n)]

    # ---- collecting -------------------------------------------------------------
    def add_game(self, game: Game, actions: int) -> None:
        self.games += 1
        self.actions += actions
        if not game.wins:
            self.draws += 1
        for seat, score in enumerate(game.scores):
            self.score_hist[seat][score] += 1
        won = set()
        for win in game.wins:
            won.add(win.seat)
            self.wins_by_seat[win.seat] += 1
            self.wins_by_how[win.how] += 1
            self.wins_by_pattern.update(win.breakdown.ids)
            self.fan_hist[win.breakdown.fan] += 1
            self.points_hist[win.breakdown.points] += 1
        for seat in won:
            self.hands_won_by_seat[seat] += 1
        for st in game.seats:
            self.gangs_by_kind.update(m.kind for m in st.melds if m.is_gang)
        self.multi_wins += _multi_wins(game.events)
        self.hand_counters.update(game.variant.hand_counters(game))

    def merge(self, other: SimStats) -> SimStats:
        """Add ``other`` (same variant and players) into self; returns self."""
        if (other.variant, other.players) != (self.variant, self.players):
            raise ValueError("cannot merge statistics of different variants or player counts")
        for name in ("games", "actions", "draws", "multi_wins", "seconds"):
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
        return sum(self.wins_by_seat)

    def score_mean(self) -> list[float]:
        return [_mean(h) for h in self.score_hist]

    def score_std(self) -> list[float]:
        out = []
        for h in self.score_hist:
            n, mean = sum(h.values()), _mean(h)
            out.append((sum(c * (v - mean) ** 2 for v, c in h.items()) / n) ** 0.5 if n else 0.0)
        return out

    def score_percentiles(self) -> list[dict[int, int]]:
        """Per seat: {p: the smallest score with at least p% of hands at or below it}."""
        return [{p: _percentile(h, p) for p in _PERCENTILES} for h in self.score_hist]

    # ---- output -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "options": self.options,
            "bots": self.bots,
            "seed": self.seed,
            "games": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
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
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def summary(self) -> str:
        """A readable multi-line report."""
        g = max(self.games, 1)
        lines = [
            f"{self.variant}: {self.games} hands, {self.players} players, "
            f"bots {','.join(self.bots)}, "
            f"seed {self.seed}" + (f", options {self.options}" if self.options else ""),
            f"speed: {self.hands_per_second:,.1f} hands/s ({self.seconds:.2f} s, "
            f"{self.actions / g:.1f} actions/hand)",
            f"wins: {self.wins} ({self.wins / g:.2f}/hand); draws (no win): {self.draws} "
            f"({100 * self.draws / g:.1f}%); multi-win discards: {self.multi_wins}",
            "wins by how: " + _fmt_counter(self.wins_by_how, self.wins),
            "gangs: "
            + (_fmt_counter(self.gangs_by_kind) or "none")
            + f" ({sum(self.gangs_by_kind.values()) / g:.2f}/hand)",
            "",
            "seat  win-rate   wins   mean score    std    p5   p50   p95",
        ]
        pct = self.score_percentiles()
        for s in range(self.players):
            lines.append(
                f"{s:>4}  {100 * self.win_rate[s]:7.2f}%  {self.wins_by_seat[s]:5d}  "
                f"{self.score_mean()[s]:+11.3f}  {self.score_std()[s]:6.2f}  "
                f"{pct[s][5]:>4}  {pct[s][50]:>4}  {pct[s][95]:>4}"
            )
        lines += ["", "patterns (share of wins):"]
        for pid, count in self.wins_by_pattern.most_common():
            lines.append(f"  {pid:<24} {count:>8}  {100 * count / max(self.wins, 1):6.2f}%")
        if any(self.fan_hist.keys() - {0}):
            lines.append("fan: " + ", ".join(f"{k}:{v}" for k, v in sorted(self.fan_hist.items())))
        points = sorted(self.points_hist.items())
        lines.append("points per payer: " + ", ".join(f"{k}:{v}" for k, v in points))
        if self.hand_counters:
            lines.append(
                "variant counters (per hand): "
                + ", ".join(f"{k} {v} ({v / g:.3f})" for k, v in sorted(self.hand_counters.items()))
            )
        return "\n".join(lines)


def _multi_wins(events: list[dict[str, Any]]) -> int:
    """Count discards (or robbed gangs) that more than one seat won on."""
    count, prev, group = 0, None, 0
    for ev in events:
        kind = ev["type"]
        if kind == "pay":
            continue
        if kind == "hu" and ev["how"] in _MULTI_HOWS:
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


def _fmt_counter(c: Counter, total: int | None = None) -> str:
    if total:
        return ", ".join(f"{k} {v} ({100 * v / total:.1f}%)" for k, v in c.most_common())
    return ", ".join(f"{k} {v}" for k, v in c.most_common())
