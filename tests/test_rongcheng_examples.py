"""RULES.md V5 荣成麻将: worked examples R-e1 … R-e11 played through the engine on
constructed walls.

Seats: E=0 (dealer unless stated), S=1, W=2, N=3. Every hand starts with each seat
choosing 飘 (0 unless stated); 乱掌 off, no 明搂, no gangs unless stated. The first
declaration takes the 宝 from the tail: with no gang before it that is the first
``replacements`` tile.
"""

from __future__ import annotations

import pytest
from scenario import drive, scripted_game

from mjcore import tiles as T
from mjcore.engine.actions import HU
from mjcore.engine.wall import build_wall
from mjcore.variants import get_variant

V = "rongcheng"


def game(hands, draws="", replacements="", options=None, piao=(0, 0, 0, 0), dealer=0, wall=None):
    if wall is None:
        g = scripted_game(V, hands, draws, replacements, options=options, dealer=dealer)
    else:
        g = get_variant(V).new_game(options=options, wall=wall, dealer=dealer)
    for seat in range(4):
        g.apply(seat, f"choose piao {piao[seat]}")
    return g


def hits(g, seat):
    return [sorted(w.breakdown.ids) for w in g.wins if w.seat == seat]


def legal(g, seat):
    return list(map(str, g.legal_actions(seat)))


def test_r_e1_baoting_pihu_on_discard():
    g = game({0: "1z", 1: "123m456p789s55p23s", 2: "4s"}, draws="9m8m", replacements="7z")
    drive(g, [(0, "discard 1z"), (1, "declare baoting"), (1, "tsumogiri")])
    drive(g, [(2, "discard 4s"), (1, "hu")])
    assert hits(g, 1) == [["pihu"]]
    assert g.scores == [0, 1, -1, 0]


def test_r_e2_self_draw_qingyise_qidui():
    g = game({3: "1122335566779p"}, draws="1m2m1z3m4m5m9p", replacements="7z")
    drive(g, [(0, "tsumogiri"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "declare baoting")])
    drive(g, [(3, "tsumogiri"), (0, "tsumogiri"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "hu")])
    assert hits(g, 3) == [["qidui", "qingyise"]]
    assert g.scores == [-4, -4, -4, 12]


@pytest.mark.parametrize(
    ("hand", "expect", "per_payer"),
    [
        ("123m456p789m55p78s", ["baozhongbao", "mobao", "pihu"], 4),  # waits 6s/9s: 宝中宝
        ("123m456p789s55p12m", ["mobao", "pihu"], 2),  # waits 3m only: 摸宝
    ],
)
def test_r_e3_mobao_and_baozhongbao(hand, expect, per_payer):
    g = game({1: hand}, draws="1z2z3z4z6s", replacements="6s")
    drive(g, [(0, "tsumogiri"), (1, "declare baoting"), (1, "tsumogiri")])
    assert g.view(1)["public"]["bao"] == "hidden"
    drive(g, [(2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri")])
    assert g.view(2)["public"]["bao"] == "6s"  # turned up at the start of S's next turn
    assert g.indicators == [T.kind("6s")] and not g.hidden_indicators
    assert HU in g.legal_actions(1)
    drive(g, [(1, "hu")])
    assert hits(g, 1) == [expect]
    assert g.scores == [-per_payer, 3 * per_payer, -per_payer, -per_payer]


@pytest.mark.parametrize(("east_minglou", "loss"), [(False, 2), (True, 4)])
def test_r_e4_minglou_either_side(east_minglou, loss):
    hands = {0: "123m456m789m55p78p1z", 2: "123p456s789p55s23s"}
    g = game(hands, draws="1m2z3z4s", replacements="7z")
    if east_minglou:
        drive(g, [(0, "declare minglou"), (0, "discard 1z")])
    else:
        drive(g, [(0, "discard 1z")])
    drive(g, [(1, "tsumogiri"), (2, "declare minglou"), (2, "tsumogiri"), (3, "tsumogiri")])
    if east_minglou:
        drive(g, [(0, "tsumogiri"), (2, "hu")])  # the locked E discards its drawn 4s
    else:
        drive(g, [(0, "discard 4s"), (2, "hu")])
    assert hits(g, 2) == [["minglou", "pihu"]]  # the payer's 明搂 doubles its own payment
    assert g.scores == [-loss, 0, loss, 0]


def test_r_e5_piao():
    g = game(
        {1: "111m222p333s55p77z", 3: "7z"},
        draws="1z2z4m",
        replacements="6z",
        piao=(0, 2, 0, 1),
    )
    drive(g, [(0, "tsumogiri"), (1, "declare baoting"), (1, "tsumogiri"), (2, "tsumogiri")])
    drive(g, [(3, "discard 7z"), (1, "hu")])
    assert hits(g, 1) == [["pengpenghu", "piao"]]
    assert g.scores == [0, 5, 0, -5]


@pytest.mark.parametrize("self_draw", [False, True])
def test_r_e6_winner_gangs_only(self_draw):
    hands = {0: "1111m999p234s55s67p", 1: "9p", 2: "3333z"}
    last = "5p" if self_draw else "4m5p"
    g = game(hands, draws="1z4z5z6m" + last, replacements="1z2z7z6z")
    drive(g, [(0, "gang 1m"), (0, "tsumogiri"), (1, "discard 9p"), (0, "gang 9p")])
    drive(g, [(0, "declare baoting"), (0, "tsumogiri"), (1, "tsumogiri")])
    drive(g, [(2, "gang 3z"), (2, "tsumogiri"), (3, "tsumogiri")])
    assert [m.kind for m in g.seats[0].melds] == ["angang", "zhigang"]
    if self_draw:
        drive(g, [(0, "hu")])
        assert g.scores == [12, -4, -4, -4]
    else:
        drive(g, [(0, "tsumogiri"), (1, "tsumogiri"), (0, "hu")])
        assert g.scores == [4, -4, 0, 0]
    assert hits(g, 0) == [["gang", "pihu"]]
    assert g.wins[0].breakdown.formula == "1 + 3 = 4"


def _place(wall, index, kind, keep):
    """Swap a tile of ``kind`` (not at a place in ``keep``) into ``wall[index]``."""
    j = next(i for i in range(len(wall)) if wall[i] == kind and i != index and i not in keep)
    wall[index], wall[j] = wall[j], wall[index]
    return wall


def test_r_e7_haidilao_haohua_qidadui_cap():
    v = get_variant(V)
    tiles = v.tile_kinds(v.parse_options(None))
    # W deals, so N draws first and also the 65th (last live) tile before 分张.
    wall = build_wall(
        tiles, 4, dealer=2, hands={3: "1111p222p33p55p77p"}, draws="1z", replacements="7z"
    )
    haidi = 53 + 64  # W 0–13, N 14–26, E, S; N's first draw at 53
    wall = _place(wall, haidi, T.kind("2p"), keep=set(range(14, 27)) | {53, 135})
    g = game({}, wall=wall, dealer=2, piao=(0, 0, 0, 1))
    drive(g, [(2, "tsumogiri"), (3, "declare baoting"), (3, "tsumogiri")])
    assert "gang 1p" not in legal(g, 3)
    while not (g.current == 3 and g.haidi and g.phase == "turn"):
        seat = g.to_act()[0]
        acts = g.legal_actions(seat)
        if g.phase != "turn":
            g.apply(seat, "pass")
        else:
            g.apply(seat, next(a for a in acts if a.kind == "discard" and a.tile == g.drawn))
    assert g.drawn == 10 and g.wall.live == g.wall.reserve
    drive(g, [(3, "hu")])
    assert hits(g, 3) == [["haidilao", "haohua_qidadui", "piao", "qingyise"]]
    assert g.wins[0].breakdown.points == 32
    assert g.scores == [-32, -32, -32, 96]


def test_r_e8_dihu():
    g = game({0: "4s", 1: "123m456p789s55p23s"})
    drive(g, [(0, "discard 4s"), (1, "hu")])
    assert hits(g, 1) == [["dihu", "pihu"]]
    assert g.scores == [-5, 5, 0, 0]


def test_r_e9_tianhu_shisanyao_cap():
    g = game({0: "19m19p19s1234567z1m"})
    drive(g, [(0, "hu")])
    assert hits(g, 0) == [["shisanyao", "tianhu"]]
    assert g.scores == [96, -32, -32, -32]


def test_r_e10_four_gangs_huangzhuang():
    g = game({0: "1111m2222m3333m", 1: "4444p"}, draws="5z", replacements="1z2z3z4z")
    drive(g, [(0, "gang 1m"), (0, "gang 2m"), (0, "gang 3m"), (0, "tsumogiri"), (1, "gang 4p")])
    assert g.is_over and g.exhausted and not g.wins
    assert g.scores == [0, 0, 0, 0] and g.settlement == []
    assert g.next_dealer == 1  # 有杠荒牌下庄


def test_r_e11_multi_win_minglou_discarder():
    hands = {
        1: "19m1p19s1234567z1m",
        2: "234m567m345s55s78s",
        3: "111p555p777p99p22p",
    }
    g = game(hands, draws="2m3m4m5m6m9p", replacements="8m", options={"multi_win": True})
    drive(g, [(0, "tsumogiri"), (1, "declare baoting"), (1, "tsumogiri")])
    drive(g, [(2, "declare minglou"), (2, "tsumogiri"), (3, "declare baoting"), (3, "tsumogiri")])
    drive(g, [(0, "tsumogiri"), (1, "tsumogiri"), (2, "tsumogiri"), (1, "hu"), (3, "hu")])
    assert [w.seat for w in g.wins] == [3, 1]  # play order from W's 下家
    assert hits(g, 1) == [["shisanyao"]]  # × 2 for the discarder's 明搂 in the payment
    assert hits(g, 3) == [["pengpenghu", "qingyise"]]
    assert g.scores == [0, 20, -28, 8]
