"""The report plot (``simulate --plot``, ``SimStats.plot``; issue 23): it builds for every
variant from a small real run, draws pattern names in 中文 and English with an installed CJK
font and in English without one (never a missing-glyph box), puts the patterns on a log scale,
bins scores by the variant's step (血战's mostly even scores: no comb), and plots each bot's
mean score with its 95% interval."""

from __future__ import annotations

import copy
import glob
import logging
import re
import warnings
from collections import Counter

import pytest
from click.testing import CliRunner
from server_support import missing

pytest.importorskip("matplotlib")

from mjcore.sim import plot, simulate  # noqa: E402
from mjcore.sim.cli import simulate_command  # noqa: E402
from mjcore.variants import get_variant, names  # noqa: E402

CJK = re.compile(r"[\u4e00-\u9fff]")
HANDS = 60
BOTS = ["greedy", "random", "greedy", "greedy"]


@pytest.fixture(scope="module")
def runs():
    """A small duplicate run of every variant, greedy against random."""
    return {name: simulate(name, HANDS, bots=BOTS, seed=5, duplicate=True) for name in names()}


def render(stats, path, caplog):
    """Save the figure; the missing-glyph warnings and font-lookup complaints it caused."""
    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.INFO):
        warnings.simplefilter("always")
        fig = stats.plot(path)
    complaints = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    complaints += [r.getMessage() for r in caplog.records if "findfont" in r.getMessage()]
    return fig, complaints


def panel(fig, title_start):
    (ax,) = [ax for ax in fig.axes if ax.get_title().startswith(title_start)]
    return ax


def test_the_glyph_check_can_fail(tmp_path, caplog):
    """Drawing 中文 with the default font is what the tests below must not see."""

    class Tofu:
        def plot(self, path):
            from matplotlib.figure import Figure

            fig = Figure()
            fig.suptitle("平胡")
            fig.savefig(path)
            return fig

    _, complaints = render(Tofu(), tmp_path / "tofu.png", caplog)
    assert complaints


@pytest.mark.parametrize("name", names())
def test_the_plot_builds_with_chinese_labels(name, runs, tmp_path, caplog):
    font = plot.cjk_font()
    if font is None:
        pytest.skip(missing("a CJK font", "fonts-wqy-microhei"))
    stats = runs[name]
    png = tmp_path / f"{name}.png"
    fig, complaints = render(stats, png, caplog)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert complaints == []
    labels = panel(fig, "pattern frequency").get_yticklabels()
    assert labels and all(CJK.search(t.get_text()) for t in labels)
    assert {t.get_fontname() for t in labels} == {font}
    v = get_variant(name)
    top = stats.wins_by_pattern.most_common(plot.TOP_PATTERNS)[::-1]
    want = [f"{v.pattern(p).name} {v.pattern(p).english}" for p, _ in top]
    assert [t.get_text() for t in labels] == want


@pytest.mark.parametrize("name", names())
def test_without_a_cjk_font_patterns_are_english(name, runs, tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(plot, "cjk_font", lambda: None)
    fig, complaints = render(runs[name], tmp_path / f"{name}.svg", caplog)
    assert complaints == []
    labels = [t.get_text() for t in panel(fig, "pattern frequency").get_yticklabels()]
    v = get_variant(name)
    english = {v.pattern(p).english for p in runs[name].wins_by_pattern}
    assert labels and set(labels) <= english and not any(CJK.search(t) for t in labels)


def test_the_pattern_panel_is_log_scale_with_percent_labels(runs):
    stats = runs["xuezhan_kaxinwu"]
    ax = panel(stats.plot(), "pattern frequency")
    assert ax.get_xscale() == "log"
    top = stats.wins_by_pattern.most_common(plot.TOP_PATTERNS)[::-1]
    widths = [bar.get_width() for bar in ax.patches]
    assert widths == pytest.approx([100 * c / stats.wins for _, c in top])
    assert min(widths) > ax.get_xlim()[0]  # the rarest bar is visible, not under the axis
    texts = [t.get_text() for t in ax.texts]
    assert texts == [plot._percent(w) for w in widths]
    assert all(t.endswith("%") for t in texts)


@pytest.mark.parametrize("duplicate", [True, False])
def test_the_mean_score_panel_shows_each_bots_interval(duplicate, runs):
    stats = runs["lipu"] if duplicate else simulate("lipu", HANDS, bots=BOTS, seed=5)
    ax = panel(stats.plot(), "mean score per hand")
    assert ("deals" if duplicate else "hands") + " as samples" in ax.get_title()
    report = stats.bot_report()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert sorted(labels) == sorted(f"bot {b}" for b in report)
    bars = [c for c in ax.containers if c.has_xerr]
    main = [c for c in bars if c.lines[0] is not None]  # with a marker at the mean
    assert len(main) == len(report)
    assert len(bars) == len(report) * (2 if duplicate else 1)  # + plain play's, in gray
    for c, row in zip(main, report.values(), strict=True):
        (segment,) = c.lines[2][0].get_segments()
        (lo, _), (hi, _) = segment
        half = row["duplicate_ci95"] if duplicate else row["plain_ci95"]
        assert (lo + hi) / 2 == pytest.approx(row["score_mean"])
        assert (hi - lo) / 2 == pytest.approx(half)
        assert half > 0


def test_one_bot_shows_the_seats_instead(tmp_path):
    stats = simulate("susong", 30, seed=1)
    ax = panel(stats.plot(), "mean score per hand")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [f"seat {i}" for i in range(4)]
    assert list(ax.get_yticks()) == [3, 2, 1, 0]  # seat 0 on top


# ---- score bins ---------------------------------------------------------------------------------
def xuezhan_like() -> Counter:
    """Scores as 血战 pays them: a bell over even scores, odd ones a fifth as common."""
    return Counter({v: (60 - 3 * abs(v)) // (1 if v % 2 == 0 else 5) for v in range(-16, 17)})


def shares(hist: Counter, edges: list[float]) -> list[int]:
    return plot._binned(hist, edges)


def unimodal(counts: list[int]) -> bool:
    peak = counts.index(max(counts))
    rising, falling = counts[: peak + 1], counts[peak:]
    return rising == sorted(rising) and falling == sorted(falling, reverse=True)


def test_bins_of_mostly_even_scores_make_no_comb():
    hist = xuezhan_like()
    one = [v - 0.5 for v in range(-16, 18)]
    assert not unimodal(shares(hist, one))  # per score: the comb the plot used to draw
    edges, width = plot.score_bins([hist])
    assert width == 2
    assert unimodal(shares(hist, edges))
    assert sum(shares(hist, edges)) == sum(hist.values())  # nothing lost in the 1-99 % range?
    assert all(e % 1 == 0.5 for e in edges)  # edges between integers
    for a, b in zip(edges, edges[1:], strict=False):
        inside = [v for v in range(-20, 21) if a < v < b]
        assert len(inside) == 2 and sum(v % 2 == 0 for v in inside) == 1  # one even score each


def test_bins_follow_the_common_step():
    hist = Counter({-10: 3, -5: 9, 0: 20, 5: 8, 10: 4, 15: 1})
    edges, width = plot.score_bins([hist])
    assert width == 5
    centres = [(a + b) / 2 for a, b in zip(edges, edges[1:], strict=False)]
    assert set(hist) <= set(centres)  # an odd width centres the bins on the multiples


def test_bins_of_plain_integer_scores_are_one_wide():
    hist = Counter({v: 100 * (10 - abs(v)) for v in range(-5, 6)})
    edges, width = plot.score_bins([hist, Counter({3: 2, 40: 1})])
    assert width == 1
    assert edges == [v - 0.5 for v in range(-5, 7)]  # the 1st–99th percentile: not the 40


def test_a_wide_range_takes_few_bins_of_the_step():
    hist = Counter({v: 5 for v in range(-400, 401, 2)})
    edges, width = plot.score_bins([hist], max_bins=40)
    assert len(edges) - 1 <= 41 and width % 2 == 0 and width > 2
    assert plot.score_bins([]) == ([-0.5, 0.5], 1)
    assert plot.score_bins([Counter({0: 7})]) == ([-0.5, 0.5], 1)


def test_real_xuezhan_scores_get_bins_of_two(runs):
    stats = runs["xuezhan_kaxinwu"]
    _, width = plot.score_bins(stats.score_hist)
    assert width == 2
    assert "bins of 2 scores" in panel(stats.plot(), "score distribution").get_title()


# ---- fonts and the command line -----------------------------------------------------------------
def test_cjk_font_adds_font_files_the_cache_missed(monkeypatch):
    from matplotlib import font_manager

    files = [f for p in plot.CJK_FONT_FILES for f in glob.glob(p, recursive=True)]
    if not files:
        pytest.skip(missing("a CJK font file", "fonts-wqy-microhei"))
    stale = copy.copy(font_manager.fontManager)
    stale.ttflist = [f for f in stale.ttflist if f.name not in plot.CJK_FONTS]
    monkeypatch.setattr(font_manager, "fontManager", stale)
    assert plot._known_cjk_font(stale) is None
    found = plot.cjk_font.__wrapped__()
    assert found in plot.CJK_FONTS and plot._known_cjk_font(stale) == found


def test_simulate_plot_option_writes_the_figure(tmp_path):
    png = tmp_path / "run.png"
    args = ["-v", "qingdao", "-n", "8", "-b", "greedy,random", "--duplicate", "--plot", str(png)]
    res = CliRunner().invoke(simulate_command, args)
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
