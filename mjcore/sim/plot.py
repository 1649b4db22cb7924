"""``SimStats.plot()``: one figure summarising a run (matplotlib, no GUI backend needed)."""

from __future__ import annotations

import os
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..errors import InvalidOptionError, clip
from .stats import wilson

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .stats import SimStats

TOP_PATTERNS = 15


def _matplotlib_formats() -> dict[str, str]:
    """The file formats matplotlib saves (``{"png": "Portable Network Graphics", …}``)."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise ImportError(
            'plots need matplotlib: pip install "mjcore[dask]" (or pip install matplotlib)'
        ) from None
    return FigureCanvasBase.get_supported_filetypes()  # type: ignore[no-any-return]


def check_plot_path(path: Any) -> str:
    """``path`` as a string if a figure can be saved there: a format matplotlib writes (by the
    suffix) in a folder that exists; else InvalidOptionError (before a long run, not after).
    Raises ImportError without matplotlib."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidOptionError(f"plot: expected a file path, got {clip(path)}")
    text = os.fspath(path)
    formats = _matplotlib_formats()
    suffix = os.path.splitext(text)[1].lstrip(".").lower()
    if suffix not in formats:
        raise InvalidOptionError(
            f"plot: {clip(text)} is not an image file name; use one of "
            + ", ".join(f".{f}" for f in sorted(formats))
        )
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise InvalidOptionError(f"plot: no folder {clip(folder)} to write {clip(text)} in")
    return text


def plot_stats(stats: SimStats, path: str | os.PathLike[str] | None = None) -> Figure:
    """Score distribution per bot (per seat for one bot), pattern frequencies, win-rate with
    95% Wilson intervals per seat and bot, and hands/s over the run; saved when ``path``."""
    if path is not None:
        path = check_plot_path(path)
    _matplotlib_formats()  # (the ImportError that names the extra)
    from matplotlib.figure import Figure

    # A bare Figure renders with the Agg canvas: no pyplot state, no display needed.
    fig = Figure(figsize=(13, 9), layout="constrained")
    axes = fig.subplots(2, 2)
    _scores(axes[0][0], stats)
    _patterns(axes[0][1], stats)
    _win_rates(axes[1][0], stats)
    _speed(axes[1][1], stats)
    title = f"{stats.variant}: {stats.games} hands, seed {stats.seed}"
    if stats.duplicate:
        title += ", duplicate deals"
    if stats.interrupted:
        title += " (interrupted)"
    fig.suptitle(title)
    if path is not None:
        fig.savefig(path, dpi=100)
    return fig


def _scores(ax: Axes, s: SimStats) -> None:
    series: dict[str, Counter] = (
        {label: t.score_hist for label, t in s.by_bot.items()}
        if len(s.by_bot) > 1
        else {f"seat {i}": h for i, h in enumerate(s.score_hist)}
    )
    low, high = _range(series.values())
    for label, hist in series.items():
        n = sum(hist.values()) or 1
        xs = list(range(low, high + 1))
        ax.step(xs, [hist.get(x, 0) / n for x in xs], where="mid", label=label)
    ax.set_title("score distribution per hand (1st–99th percentile)")
    ax.set_xlabel("score")
    ax.set_ylabel("share of hands")
    if series:
        ax.legend(fontsize="small")


def _range(hists: Any) -> tuple[int, int]:
    total: Counter = Counter()
    for h in hists:
        total.update(h)
    if not total:
        return 0, 0
    n, seen, low, high = sum(total.values()), 0, None, 0
    for v in sorted(total):
        seen += total[v]
        if low is None and seen >= 0.01 * n:
            low = v
        if seen >= 0.99 * n:
            high = v
            break
    return (low if low is not None else 0), high


def _patterns(ax: Axes, s: SimStats) -> None:
    top = s.wins_by_pattern.most_common(TOP_PATTERNS)[::-1]
    wins = max(s.wins, 1)
    ax.barh([p for p, _ in top], [100 * c / wins for _, c in top], color="tab:green")
    ax.set_title(f"pattern frequency (% of {s.wins} wins, top {TOP_PATTERNS})")
    ax.set_xlabel("% of wins")
    ax.tick_params(axis="y", labelsize="small")


def _win_rates(ax: Axes, s: SimStats) -> None:
    rows = [(f"seat {i}", k, s.games) for i, k in enumerate(s.hands_won_by_seat)]
    rows += [(f"bot {label}", t.hands_won, t.seat_hands) for label, t in s.by_bot.items()]
    names, rates, err_low, err_high = [], [], [], []
    for name, k, n in rows:
        lo, hi = wilson(k, n)
        rate = k / n if n else 0.0
        names.append(name)
        rates.append(100 * rate)
        err_low.append(100 * (rate - lo))
        err_high.append(100 * (hi - rate))
    colors = ["tab:blue"] * s.players + ["tab:orange"] * len(s.by_bot)
    ax.bar(names, rates, yerr=[err_low, err_high], capsize=4, color=colors)
    ax.set_title("win-rate (hands won at least once) with 95% intervals")
    ax.set_ylabel("% of hands")
    ax.tick_params(axis="x", labelrotation=30, labelsize="small")


def _speed(ax: Axes, s: SimStats, max_bins: int = 20) -> None:
    if s.timeline:
        # several chunk arrivals per bin, or the curve saws between full and empty bins
        bins = max(1, min(max_bins, len(s.timeline) // 4))
        end = s.timeline[-1][0] or 1e-9
        width = end / bins
        counts = [0] * bins
        prev = 0
        for t, done in s.timeline:
            counts[min(int(t / width), bins - 1)] += done - prev
            prev = done
        xs = [(i + 0.5) * width for i in range(bins)]
        ax.plot(xs, [c / width for c in counts], marker=".", linewidth=1, label="per time bin")
        ax.axhline(s.hands_per_second, color="gray", linestyle="--", label="run mean")
        ax.legend(fontsize="small")
    else:
        ax.text(0.5, 0.5, "no timing recorded", ha="center", va="center", transform=ax.transAxes)
    ax.set_title(f"hands/s over the run ({s.backend})")
    ax.set_xlabel("seconds since start (startup included)")
    ax.set_ylabel("hands/s")
