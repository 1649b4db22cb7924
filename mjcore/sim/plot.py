"""``SimStats.plot()``: one figure summarising a run (matplotlib, no GUI backend needed).

Panels: the score distribution per bot (bins that suit the variant's score values), pattern
frequencies on a log scale (平胡 at 93 % does not hide the rare patterns), each bot's mean score
with its 95 % interval (a duplicate run's narrower interval beside plain play's), win-rates and
hands/s over the run. Pattern names are drawn in 中文 and English with an installed CJK font,
else in English.
"""

from __future__ import annotations

import glob
import math
import os
from collections import Counter
from collections.abc import Iterable
from functools import cache, reduce
from typing import TYPE_CHECKING, Any

from .._extras import install_hint
from ..errors import InvalidOptionError, clip
from ..text import pattern_english, pattern_name
from .intervals import Z95, wilson

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SimStats = Any
"""A :class:`~mjcore.sim.stats.SimStats` (read by its fields: stats.py imports this module for
``SimStats.plot()``, so this one does not import it back)."""

TOP_PATTERNS = 20
MAX_SCORE_BINS = 40
LATTICE_SHARE = 0.7
"""A score step k (2…6) with this share of the nonzero scores on its multiples sets the bin
width (血战's mostly even scores: width 2, or a comb of full and near-empty bins)."""


def _matplotlib_formats() -> dict[str, str]:
    """The file formats matplotlib saves (``{"png": "Portable Network Graphics", …}``)."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise ImportError("plots need matplotlib: " + install_hint("dask", "matplotlib")) from None
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
    """Score distribution per bot (per seat for one bot), pattern frequencies, mean score per
    bot with 95% intervals, win-rate with 95% Wilson intervals per seat and bot, and hands/s
    over the run; saved when ``path``. ``fig.axes`` holds the panels in that order but with
    win-rates third (scores, patterns, win-rates, hands/s, mean scores)."""
    if path is not None:
        path = check_plot_path(path)
    _matplotlib_formats()  # (the ImportError that names the extra)
    from matplotlib.figure import Figure

    # A bare Figure renders with the Agg canvas: no pyplot state, no display needed.
    fig = Figure(figsize=(14, 13), layout="constrained")
    grid = fig.add_gridspec(3, 2)
    _scores(fig.add_subplot(grid[0, 0]), stats)
    _patterns(fig.add_subplot(grid[0:2, 1]), stats)
    _win_rates(fig.add_subplot(grid[2, 0]), stats)
    _speed(fig.add_subplot(grid[2, 1]), stats)
    _mean_scores(fig.add_subplot(grid[1, 0]), stats)
    title = f"{stats.variant}: {stats.games} hands, seed {stats.seed}"
    if stats.duplicate:
        title += ", duplicate deals"
    if stats.interrupted:
        title += " (interrupted)"
    fig.suptitle(title, fontsize="x-large")
    if path is not None:
        fig.savefig(path, dpi=100)
    return fig


# ---- scores -------------------------------------------------------------------------------------
def _score_series(s: SimStats) -> dict[str, Counter]:
    """Score histograms per bot, or per seat when one bot holds every seat."""
    if len(s.by_bot) > 1:
        return {label: t.score_hist for label, t in s.by_bot.items()}
    return {f"seat {i}": h for i, h in enumerate(s.score_hist)}


def _scores(ax: Axes, s: SimStats) -> None:
    series = _score_series(s)
    edges, width = score_bins(series.values())
    for label, hist in series.items():
        n = sum(hist.values()) or 1
        ax.stairs([share / n for share in _binned(hist, edges)], edges, label=label, linewidth=1.5)
    ax.axvline(0, color="gray", linewidth=0.8, linestyle=":")
    bins = "one bin per score" if width == 1 else f"bins of {width} scores"
    ax.set_title(f"score distribution per hand (1st–99th percentile, {bins})")
    ax.set_xlabel("score of the hand")
    ax.set_ylabel("share of hands")
    if series:
        ax.legend(fontsize="small")


def score_bins(hists: Iterable[Counter], max_bins: int = MAX_SCORE_BINS) -> tuple[list[float], int]:
    """Bin edges for the scores in ``hists`` (Counters score -> hands) and the bin width.

    Edges fall half-way between integers, so every bin holds the same number of possible
    scores. The width is the scores' common step: the gcd of the nonzero scores (all
    multiples of 5: width 5), or else the smallest k in 2…6 with :data:`LATTICE_SHARE` of the
    nonzero scores on multiples of k (血战's mostly even scores: 2, each bin one even score),
    widened to a multiple of itself so that the 1st–99th percentile range takes at most
    ``max_bins`` bins. An odd width centres its bins on the multiples."""
    total: Counter = Counter()
    for h in hists:
        total.update(h)
    low, high = _range(total)
    step = _score_step(total)
    width = step * max(1, math.ceil((high - low + 1) / (step * max_bins)))
    shift = width // 2  # the bin of 0 is [-shift, width - shift - 1]
    first = math.floor((low + shift) / width)
    last = math.floor((high + shift) / width)
    edges = [k * width - shift - 0.5 for k in range(first, last + 2)]
    return edges, width


def _score_step(total: Counter) -> int:
    """The step most scores move in: gcd of the nonzero scores, else a strong lattice, else 1."""
    nonzero = {v: c for v, c in total.items() if v and c}
    if not nonzero:
        return 1
    gcd = reduce(math.gcd, nonzero)
    if gcd > 1:
        return gcd
    n = sum(nonzero.values())
    for k in range(2, 7):
        if sum(c for v, c in nonzero.items() if v % k == 0) >= LATTICE_SHARE * n:
            return k
    return 1


def _binned(hist: Counter, edges: list[float]) -> list[int]:
    """Hands per bin (scores outside the edges left out)."""
    counts = [0] * (len(edges) - 1)
    width, start = edges[1] - edges[0], edges[0]
    for v, c in hist.items():
        i = math.floor((v - start) / width)
        if 0 <= i < len(counts):
            counts[i] += c
    return counts


def _range(total: Counter) -> tuple[int, int]:
    """The 1st and 99th percentile of the scores counted in ``total``."""
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


# ---- patterns -----------------------------------------------------------------------------------
def _patterns(ax: Axes, s: SimStats) -> None:
    from matplotlib.ticker import FuncFormatter

    top = s.wins_by_pattern.most_common(TOP_PATTERNS)[::-1]
    shares = [100 * c / max(s.wins, 1) for _, c in top]
    kinds = len(s.wins_by_pattern)
    shown = f"top {TOP_PATTERNS} of {kinds}" if kinds > TOP_PATTERNS else f"all {kinds}"
    ax.set_title(f"pattern frequency, % of {s.wins} wins (log scale, {shown})")
    ax.set_xlabel("% of wins (log scale)")
    if not top:
        ax.text(0.5, 0.5, "no wins", ha="center", va="center", transform=ax.transAxes)
        return
    ax.barh(range(len(top)), shares, color="tab:green", height=0.7)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}%"))
    ax.set_xlim(min(shares) / 2, 100 * 3)  # room for the % labels right of the bars
    ax.set_ylim(-0.6, len(top) - 0.4)
    for y, share in enumerate(shares):
        ax.text(share * 1.1, y, _percent(share), va="center", fontsize="small")
    font = cjk_font()
    labels = [_pattern_tick(s.variant, p, font is not None) for p, _ in top]
    ax.set_yticks(range(len(top)), labels, fontsize="small", **_font_props(font))
    ax.grid(axis="x", which="major", linestyle=":", alpha=0.5)


def _pattern_tick(variant: str, pid: str, cjk: bool) -> str:
    """A pattern's tick label: "清一色 Full Flush" with a CJK font, "Full Flush" without one
    (never tofu boxes), the id for a pattern the variant does not know."""
    english = pattern_english(variant, pid)
    if not english:
        return pid
    return f"{pattern_name(variant, pid)} {english}" if cjk else english


def _percent(share: float) -> str:
    """93.1% / 2.4% / 0.08%: two significant digits for the rare ones."""
    return f"{share:.1f}%" if share >= 1 else f"{share:.2g}%"


# Font families known to cover 中文 (Debian's fonts-wqy-*, fonts-noto-cjk, macOS, Windows).
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Serif CJK SC",
    "Source Han Sans SC",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "AR PL UMing CN",
    "PingFang SC",
    "Heiti SC",
    "Microsoft YaHei",
    "SimHei",
)
CJK_FONT_FILES = (
    "/usr/share/fonts/**/wqy*/*.tt?",
    "/usr/share/fonts/**/noto*/*CJK*.tt?",
    "/usr/share/fonts/**/noto*/*CJK*.otf",
)
"""Where Linux distributions put CJK fonts: added when matplotlib's font cache (built before
the font was installed) misses them."""


@cache
def cjk_font() -> str | None:
    """The name of an installed matplotlib font that covers 中文, or None: the plot then labels
    patterns by their English names only (never tofu boxes)."""
    from matplotlib import font_manager

    found = _known_cjk_font(font_manager.fontManager)
    if found is None:
        for pattern in CJK_FONT_FILES:
            for path in sorted(glob.glob(pattern, recursive=True)):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue  # an unreadable font file: try the next
        found = _known_cjk_font(font_manager.fontManager)
    return found


def _font_props(name: str | None) -> dict[str, Any]:
    """Text properties that draw with font ``name`` at a weight it has (Zen Hei has only 500:
    asking for the default 400 logs "findfont: Failed to find font weight"); {} for None."""
    if name is None:
        return {}
    from matplotlib import font_manager

    weights = [f.weight for f in font_manager.fontManager.ttflist if f.name == name]
    weight = 400 if 400 in weights or "normal" in weights or not weights else weights[0]
    return {"fontfamily": name, "fontweight": weight}


def _known_cjk_font(manager: Any) -> str | None:
    installed = {f.name for f in manager.ttflist}
    return next((name for name in CJK_FONTS if name in installed), None)


# ---- mean scores ---------------------------------------------------------------------------------
def _mean_scores(ax: Axes, s: SimStats) -> None:
    """Each bot's mean score per seat-hand with its 95% interval; a duplicate run draws the
    plain-play interval beside its own (how much the deals sharpen the comparison). With one
    bot (mean 0 in a zero-sum game) the seats take its place."""
    rows = _mean_rows(s)
    ys = list(range(len(rows)))[::-1]
    for y, (_, mean, ci, plain) in zip(ys, rows, strict=True):
        if plain is not None:
            ax.errorbar(mean, y + 0.15, xerr=plain, fmt="none", ecolor="gray", capsize=3)
        ax.errorbar(mean, y, xerr=ci, fmt="o", color="tab:purple", capsize=5, linewidth=2)
        ax.annotate(
            f"{mean:+.2f} ± {ci:.2f}",
            (mean, y),
            xytext=(0, -13),
            textcoords="offset points",
            ha="center",
            fontsize="small",
        )
    ax.axvline(0, color="gray", linewidth=0.8, linestyle=":")
    ax.set_yticks(ys, [r[0] for r in rows])
    ax.set_ylim(-0.8, len(rows) - 0.3)
    unit = "deals" if s.duplicate else "hands"
    extra = "; gray: plain play" if s.duplicate else ""
    ax.set_title(f"mean score per hand, 95% interval ({unit} as samples{extra})")
    ax.set_xlabel("mean score per seat and hand")


def _mean_rows(s: SimStats) -> list[tuple[str, float, float, float | None]]:
    """(label, mean, 95% half-width, plain-play half-width for a duplicate run)."""
    if len(s.by_bot) > 1:
        report = s.bot_report()
        return [
            (
                f"bot {label}",
                r["score_mean"],
                r["duplicate_ci95"] if s.duplicate else r["plain_ci95"],
                r["plain_ci95"] if s.duplicate else None,
            )
            for label, r in report.items()
        ]
    means, stds = s.score_mean(), s.score_std()
    n = max(s.games - 1, 1)
    return [(f"seat {i}", means[i], Z95 * stds[i] / math.sqrt(n), None) for i in range(s.players)]


# ---- win-rates and speed ------------------------------------------------------------------------
def _win_rates(ax: Axes, s: SimStats) -> None:
    rows = [(f"seat {i}", k, s.games) for i, k in enumerate(s.hands_won_by_seat)]
    rows += [(f"bot {label}", t.hands_won, t.seat_hands) for label, t in s.by_bot.items()]
    names, rates, err_low, err_high = [], [], [], []
    for name, k, n in rows:
        lo, hi = wilson(k, n)
        rate = k / n if n else 0.0
        names.append(name)
        rates.append(100 * rate)
        err_low.append(100 * max(0.0, rate - lo))  # (rounding: -1e-17 is an error)
        err_high.append(100 * max(0.0, hi - rate))
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
