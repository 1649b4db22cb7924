"""`mjcore hand`: text and JSON output, flags and errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mjcore.cli import main


def run(*args):
    return CliRunner().invoke(main, ["hand", *args])


def test_nine_gates_text():
    res = run("1112345678999m")
    assert res.exit_code == 0, res.output
    assert "shanten  0" in res.output and "9 kinds, 23 tiles" in res.output
    assert "一万  1 left" in res.output


def test_json_waits_with_unseen_counts():
    res = run("123m456m789m11p99p", "--json")
    data = json.loads(res.output)
    assert data["shanten"] == 0 and data["win"] is None
    assert [(w["tile"], w["unseen"]) for w in data["waits"]] == [("1p", 2), ("9p", 2)]


def test_win_with_joker_lists_decompositions():
    data = json.loads(run("23m456p789p55s11z4m", "--jokers", "1", "--json").output)
    assert data["win"] is True and data["shanten"] == -1
    assert ["234m", "456p", "789p", "11z(*=1z)", "55s"] in data["decompositions"]


def test_form_flags():
    assert json.loads(run("19m19p19s1234567z", "--json").output)["waits"] == []
    data = json.loads(run("19m19p19s1234567z", "--thirteen-orphans", "--json").output)
    assert len(data["waits"]) == 13
    data = json.loads(run("234m567m789s111p33p", "--pair258", "--json").output)
    assert data["win"] is False
    data = json.loads(run("1122334455667m", "--no-seven-pairs", "--json").output)
    assert data["shanten"] >= 0


def test_ready_discards():
    data = json.loads(run("123m456m789m11p99p1z", "--json").output)
    assert [d["tile"] for d in data["discards"]] == ["1z"]
    assert [w["tile"] for w in data["discards"][0]["waits"]] == ["1p", "9p"]


def test_errors_are_clean():
    for args in (["abc"], ["11111m"], ["11m5z"], ["1m", "--jokers", "-1"]):
        res = run(*args)
        assert res.exit_code != 0 and "Traceback" not in res.output
        assert "Error" in res.output


def test_a_flower_is_refused_never_dropped():
    """13 tiles typed with a flower: refused naming it (it said "got 12 tiles")."""
    res = run("123m456p78s1122z1f")
    assert res.exit_code == 1 and "1f (春) is a flower" in res.output
    assert "12 tiles" not in res.output
    res = run("123m456p78s1122z1f", "-v", "xuezhan_kaxinwu")
    assert res.exit_code == 1 and "xuezhan_kaxinwu's tile set" in res.output


def test_joker_readings_show_what_each_joker_stands_for():
    """Issue 31: `23m456p789p555s11z -j 1` has two readings (the joker as 1m or as 4m); each
    says which, in text and in --json, so no two lines print the same."""
    data = json.loads(run("23m456p789p555s11z", "--jokers", "1", "--json").output)
    assert data["decompositions"] == [
        ["23m(*=1m)", "456p", "789p", "555s", "11z"],
        ["23m(*=4m)", "456p", "789p", "555s", "11z"],
    ]
    text = run("23m456p789p555s11z", "-j", "1").output.splitlines()
    readings = [line.strip() for line in text if line.startswith(" " * 9 + "23m")]
    assert readings == [" ".join(r) for r in data["decompositions"]]
    data = json.loads(run("5p456p789p555s11z", "-j", "2", "--max-readings", "99", "--json").output)
    assert len({tuple(r) for r in data["decompositions"]}) == data["readings_total"] > 1
    assert ["45p(*=3p)", "56p(*=4p)", "789p", "555s", "11z"] in data["decompositions"]
    free = json.loads(run("123m456p789s11z", "-j", "3", "--max-readings", "999", "--json").output)
    assert any("***" in r for r in free["decompositions"])  # jokers only: any set
