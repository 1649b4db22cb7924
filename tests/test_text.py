"""Text for people (issue 23): CJK display width, padding, tables, and CLI columns that line
up by display width (a 中文 character takes two terminal columns)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from mjcore.cli import main
from mjcore.text import display_width, pad, table

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_display_width():
    assert display_width("") == 0
    assert display_width("pinghu") == 6
    assert display_width("平胡") == 4
    assert display_width("清一色 x2") == 9
    assert display_width("ｆｕｌｌ") == 8  # fullwidth Latin
    assert display_width("明搂(输家)") == 10  # ASCII parentheses are narrow


def test_pad():
    assert pad("平胡", 6) == "平胡  "
    assert pad("平胡", 6, ">") == "  平胡"
    assert pad("abc", 5) == "abc  "
    assert pad("十三不靠", 4) == "十三不靠"  # exactly full
    assert pad("十三不靠", 3) == "十三不靠"  # longer: whole, never cut
    assert display_width(pad("卡心五", 10)) == 10


def test_table_aligns_by_display_width():
    rows = [
        ["平胡", "pinghu", "1"],
        ["超级豪华七对", "chaoji_haohua_qidui", "x8"],
        ["a", "b", "10"],
    ]
    lines = table(rows, "<<>", indent="  ")
    assert lines[0] == "  平胡          pinghu                1"
    # every column starts at the same display column on every line
    starts = {_start(line, row[1]) for line, row in zip(lines, rows, strict=True)}
    assert len(starts) == 1, lines
    # right alignment: the last column ends at the same display width
    assert len({display_width(line) for line in lines}) == 1
    assert all(line.startswith("  ") and line == line.rstrip() for line in lines)


def test_table_edge_cases():
    assert table([]) == []
    assert table([["x"]]) == ["x"]
    assert table([["a", "b"], ["中"]]) == ["a   b", "中"]  # a short row: trailing blanks cut


def _start(line: str, cell: str) -> int:
    """The display column where ``cell`` starts in ``line``."""
    return display_width(line[: line.index(cell)])


def _score_lines(*args: str) -> tuple[list[str], list[dict]]:
    runner = CliRunner()
    text = runner.invoke(main, ["score", *args])
    assert text.exit_code == 0, text.output
    data = json.loads(runner.invoke(main, ["score", *args, "--json"]).output)
    return text.output.splitlines(), data["patterns"]


def test_score_columns_line_up_by_display_width():
    # 青岛: 屁胡 (2 columns per character) next to 清一色 and 一条龙: names of 2 and 3 characters
    lines, patterns = _score_lines(
        "-v", "qingdao", "123456789s11s456s", "-w", "9s", "--how", "self_draw"
    )
    rows = lines[: len(patterns)]
    assert len(patterns) >= 3 and all(CJK.search(p["name"]) for p in patterns)
    names = {len(p["name"]) for p in patterns}
    assert len(names) > 1, "the example must mix names of different widths"
    id_starts = {_start(line, p["id"]) for line, p in zip(rows, patterns, strict=True)}
    assert len(id_starts) == 1, rows  # the id column starts at one display column
    value_starts = {
        _start(line, " " + _value(p)) + 1 for line, p in zip(rows, patterns, strict=True)
    }
    assert len(value_starts) == 1, rows  # and so does the value column
    assert lines[len(patterns)].startswith("points per payer:")


def _value(p: dict) -> str:
    return {"base": "", "add": "+", "mul": "x"}[p["combine"]] + str(p["value"])


def test_hand_waits_columns_line_up():
    out = CliRunner().invoke(main, ["hand", "123m456p789s1122z", "-v", "qingdao"])
    assert out.exit_code == 0, out.output
    waits = [line for line in out.output.splitlines() if " left " in line]
    assert len(waits) == 2 and all("屁胡 Chicken Hand (pihu)" in line for line in waits), out.output
    assert len({_start(line, "left") for line in waits}) == 1
    assert len({_start(line, "屁胡") for line in waits}) == 1


def test_simulation_summary_names_patterns_in_chinese_aligned():
    from mjcore.sim import simulate
    from mjcore.variants import get_variant

    stats = simulate("lipu", 40, seed=3)  # 平胡 next to 明杠杠上炮 …: names of 2 to 6 characters
    lines = stats.summary().splitlines()
    start = lines.index("patterns (share of wins):") + 1
    rows = lines[start : start + len(stats.wins_by_pattern)]
    v = get_variant("lipu")
    for line, (pid, count) in zip(rows, stats.wins_by_pattern.most_common(), strict=True):
        p = v.pattern(pid)
        assert line.startswith(f"  {p.name} {p.english} ({pid})"), line
        assert f" {count} " in line
    assert len({len(v.pattern(p).name) for p in stats.wins_by_pattern}) > 1, rows
    assert len({display_width(line) for line in rows}) == 1, rows  # right-aligned % column
    counts = [line.rsplit(None, 2)[1] for line in rows]
    ends = {
        display_width(line[: line.rindex(" " + c + " ") + len(c) + 1])
        for line, c in zip(rows, counts, strict=True)
    }
    assert len(ends) == 1, rows  # and count column, by display width
