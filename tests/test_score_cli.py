"""``mjcore score``: the hand calculator from the command line."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mjcore.cli import main


def run(*args):
    return CliRunner().invoke(main, ["score", *args])


def test_score_x_e4_text_and_json():
    args = [
        "-v",
        "xuezhan_kaxinwu",
        "46s5s123p789s99p",
        "-w",
        "5s",
        "--how",
        "self_draw",
        "-m",
        "angang 8p",
        "--gang-chain",
        "1",
    ]
    text = run(*args)
    assert text.exit_code == 0 and "卡心五" in text.output and "points per payer: 8" in text.output
    data = json.loads(run(*args, "--json").output)
    assert data["points"] == 8 and {p["id"] for p in data["patterns"]} == {
        "kaxinwu",
        "gangshanghua",
    }


def test_score_qingdao_option_and_flag():
    out = run(
        "-v",
        "qingdao",
        "1122334455667p7p",
        "-w",
        "7p",
        "--how",
        "self_draw",
        "--flag",
        "kouting",
        "-o",
        "pair258=true",
        "--json",
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["points"] == 8


def test_score_not_a_win_and_bad_input():
    assert (
        "not a winning hand" in run("-v", "xuezhan_kaxinwu", "1357p2468s123456p", "-w", "4p").output
    )
    bad = run("-v", "xuezhan_kaxinwu", "1234p", "-w", "4p")
    assert bad.exit_code == 2 and "concealed: a win has 14 tiles" in bad.output
    assert run("-v", "riichi", "11p", "-w", "1p").exit_code == 2


def test_hand_scores_each_wait_under_a_variant():
    out = CliRunner().invoke(
        main, ["hand", "111p234p46p789p99p", "-v", "xuezhan_kaxinwu", "--json"]
    )
    assert out.exit_code == 0, out.output
    scores = {w["tile"]: w["score"] for w in json.loads(out.output)["waits"]}
    assert scores["5p"] == {"patterns": ["kaxinwu", "qingyise"], "points": 8}
    assert scores["4p"]["points"] == 4 and "gui" in scores["1p"]["patterns"]


def test_hand_with_melds_counts_exposed_copies_as_seen():
    args = [
        "hand",
        "3p",
        "-v",
        "qingdao",
        "-o",
        "hun=false",
        "-m",
        "chi 123p",
        "-m",
        "peng 5p",
        "-m",
        "peng 7p",
        "-m",
        "angang 9s",
        "--how",
        "self_draw",
        "--json",
    ]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    (wait,) = json.loads(out.output)["waits"]
    assert wait["unseen"] == 2 and wait["score"]["patterns"] == ["pihu", "shoubayi"]
