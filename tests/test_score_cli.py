"""``mjcore score``: the hand calculator from the command line."""

from __future__ import annotations

import json

import pytest
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


# ---- issue 20 §3: the command line answers what the game would -------------------------------
def test_score_refuses_a_flower_naming_the_tile_and_the_variant():
    out = run("-v", "xuezhan_kaxinwu", "123p456p789p11s222s1f", "-w", "2s")
    assert out.exit_code == 2 and "1f (春) is a flower" in out.output
    assert "xuezhan_kaxinwu" in out.output and "points" not in out.output
    out = run("-v", "qingdao", "123p456p789p11s234s", "-w", "2s", "--flowers", "1f")
    assert out.exit_code == 2 and "1f (春, in flowers) is not in qingdao's tile set" in out.output


def test_score_susong_refuses_the_white_dragon_as_a_flower():
    out = run("-v", "susong", "123m456p789s55z45s6s", "-w", "6s")
    assert out.exit_code == 2 and "5z (白板) is a flower in susong" in out.output


def test_score_qingdao_hun_on_a_discard_is_no_win_with_the_rule():
    args = ("-v", "qingdao", "123m456p789s11z23s", "-w", "4s", "--jokers", "1")
    out = run(*args)
    assert out.exit_code == 1, out.output
    assert "not a winning hand: 「手牌里有混，只能自摸胡牌」" in out.output and "V4.3" in out.output
    data = json.loads(run(*args, "--json").output)
    assert data["win"] is False and "手牌里有混" in data["reason"]
    assert run(*args, "--how", "self_draw").exit_code == 0


def test_score_self_draw_only_options_refuse_a_discard():
    hand = ("123m456p789s22234s", "-w", "4s")
    out = run("-v", "rongcheng", *hand, "-o", "self_draw_only=true")
    assert out.exit_code == 1 and "自摸胡" in out.output and "V5.3" in out.output
    out = run("-v", "qingdao", *hand, "-o", "niupai=true", "--how", "rob_gang")
    assert out.exit_code == 1 and "扭牌" in out.output and "Q6" in out.output
    assert run("-v", "qingdao", *hand, "-o", "self_draw_only=true").exit_code == 1
    drawn = run("-v", "rongcheng", *hand, "-o", "self_draw_only=true", "--how", "self_draw")
    assert drawn.exit_code == 0


def test_score_no_win_says_why_and_exits_non_zero():
    out = run("-v", "xuezhan_kaxinwu", "1357p2468s123456p", "-w", "4p")
    assert out.exit_code == 1 and "not a winning hand: no winning shape" in out.output
    out = run("-v", "rongcheng", "123m456p789s11234s", "-w", "4s", "--json")
    assert out.exit_code == 1 and "掌" in json.loads(out.output)["reason"]


def test_hand_does_not_price_a_hun_holding_wait_as_a_discard_win():
    args = ["hand", "123m456p789s237s", "-v", "qingdao", "-j", "1"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0 and "per payer" not in out.output, out.output
    assert out.output.count("not a win here: 「手牌里有混，只能自摸胡牌」") == 3
    waits = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)["waits"]
    assert all(w["score"] is None and "V4.3" in w["reason"] for w in waits)
    drawn = json.loads(CliRunner().invoke(main, [*args, "--how", "self_draw", "--json"]).output)
    assert all(w["score"]["points"] >= 1 for w in drawn["waits"])


def test_hand_says_why_a_wait_is_no_win_here():
    out = CliRunner().invoke(main, ["hand", "-v", "rongcheng", "123m456p789s1134s"])
    assert out.exit_code == 0, out.output
    assert out.output.count("not a win here: 掌: the pair must be a suited 2/5/8") == 2
    loose = ["hand", "-v", "rongcheng", "123m456p789s1134s", "-o", "luanzhang=true"]
    out = CliRunner().invoke(main, loose)
    assert "not a win here" not in out.output and "per payer" in out.output


@pytest.mark.parametrize(
    "tiles", ["123m456p789s11s55z5z", "123m456p789s1s55z", "123m456s789s1s55z"]
)
def test_hand_susong_refuses_the_white_dragon_like_score(tiles):
    out = CliRunner().invoke(main, ["hand", "-v", "susong", tiles])
    assert out.exit_code == 1 and "5z (白板) is a flower in susong" in out.output
