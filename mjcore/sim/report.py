"""The readable text report of a :class:`~mjcore.sim.stats.SimStats` (``stats.summary()``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..text import pattern_label, table

SimStats = Any
"""A :class:`~mjcore.sim.stats.SimStats` (read by its fields: stats.py imports this module for
``SimStats.summary()``, so this one does not import it back)."""

LEGEND = (
    "win-rate = share of hands the seat (bot) won at least once; "
    "wins = number of wins (a hand can have several)"
)


def summary(s: SimStats) -> str:
    """Header, per-seat table, per-bot table with 95% intervals, patterns and counters."""
    g = max(s.games, 1)
    mode = ", duplicate deals" if s.duplicate else ""
    lines = [
        f"{s.variant}: {s.games} hands, {s.players} players, bots {','.join(s.bots)}, "
        f"seed {s.seed}{mode}" + (f", options {s.options}" if s.options else ""),
    ]
    if s.interrupted:
        lines.append(f"INTERRUPTED: statistics of the first {s.games} hands only")
    lines += [
        f"speed: {s.hands_per_second:,.1f} hands/s ({s.seconds:.2f} s wall, "
        f"{s.cpu_seconds:.2f} CPU-s playing; {s.actions / g:.1f} actions/hand; {s.backend})",
        f"wins: {s.wins} ({s.wins / g:.2f} per hand); hands without a win: {s.draws} "
        f"({100 * s.draws / g:.1f}%); multi-win discards: {s.multi_wins}",
        "wins by how: " + (_fmt_counter(s.wins_by_how, s.wins) or "none"),
        "gangs: "
        + (_fmt_counter(s.gangs_by_kind) or "none")
        + f" ({sum(s.gangs_by_kind.values()) / g:.2f}/hand)",
        "",
        LEGEND,
        "seat  win-rate   wins   mean score    std    p5   p50   p95",
    ]
    pct, means, stds = s.score_percentiles(), s.score_mean(), s.score_std()
    for seat in range(s.players):
        lines.append(
            f"{seat:>4}  {100 * s.win_rate[seat]:7.2f}%  {s.wins_by_seat[seat]:5d}  "
            f"{means[seat]:+11.3f}  {stds[seat]:6.2f}  "
            f"{pct[seat][5]:>4}  {pct[seat][50]:>4}  {pct[seat][95]:>4}"
        )
    lines += ["", *_bot_lines(s), *_fault_lines(s), "", "patterns (share of wins):"]
    rows = [
        [pattern_label(s.variant, pid), str(count), f"{100 * count / max(s.wins, 1):.2f}%"]
        for pid, count in s.wins_by_pattern.most_common()
    ]
    lines += table(rows, "<>>", indent="  ")  # 中文名 (id), aligned by display width
    if s.hand_counters:
        lines.append(
            "variant counters (per hand): "
            + ", ".join(f"{k} {v} ({v / g:.3f})" for k, v in sorted(s.hand_counters.items()))
        )
    if any(s.fan_hist.keys() - {0}):
        lines.append("fan: " + ", ".join(f"{k}:{v}" for k, v in sorted(s.fan_hist.items())))
    points = sorted(s.points_hist.items())
    lines.append("points per payer: " + (", ".join(f"{k}:{v}" for k, v in points) or "none"))
    return "\n".join(lines)


def _bot_lines(s: SimStats) -> list[str]:
    report = s.bot_report()
    head = "bot                 seats  win-rate [95% CI]        wins   mean score ± 95% CI"
    if s.duplicate:
        head += "   plain-play CI   variance reduction"
    lines = [head]
    for label, r in report.items():
        lo, hi = r["win_rate_ci95"]
        ci = r["duplicate_ci95"] if s.duplicate else r["plain_ci95"]
        line = (
            f"{label[:19]:<19} {r['seats']:>5}  {100 * r['win_rate']:6.2f}% "
            f"[{100 * lo:5.2f}, {100 * hi:5.2f}]  {r['wins']:6d}  "
            f"{r['score_mean']:+9.3f} ± {ci:.3f}"
        )
        if s.duplicate:
            line += f"   ± {r['plain_ci95']:.3f}        {100 * r['variance_reduction']:6.1f}%"
        lines.append(line)
    return lines


def _fault_lines(s: SimStats) -> list[str]:
    """Per exec: agent with faults: each kind's count and the decisions its fallback played."""
    return [
        f"faults of {label}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        for label, counts in sorted(s.faults.items())
        if counts
    ]


def _fmt_counter(c: Counter, total: int | None = None) -> str:
    if total:
        return ", ".join(f"{k} {v} ({100 * v / total:.1f}%)" for k, v in c.most_common())
    return ", ".join(f"{k} {v}" for k, v in c.most_common())
