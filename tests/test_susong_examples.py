"""RULES.md V3 宿松麻将: worked examples S-e1 … S-e10 played through the engine on
constructed walls.

Seats: E=0 (dealer), S=1, W=2, N=3. 出增 off, 飘花 off, 花奖叠加 unless stated. Flowers
not named in a script lie in the middle of the wall, so no seat is dealt one by accident;
a seat's flowers are replaced from the tail in seat order from the dealer (``replacements``
lists those replacement tiles in the order they are taken, then later gang replacements).
"""

from __future__ import annotations

import pytest
from scenario import drive, scripted_game

V = "susong"


def game(hands, draws="", replacements="", options=None, choices=None, players=4):
    g = scripted_game(V, hands, draws, replacements, players=players, options=options)
    for seat, name, value in choices or ():
        g.apply(seat, f"choose {name} {value}")
    return g


def piao(*seats, players=4):
    """飘 choices (dealer first): the given seats 飘, the others 不飘."""
    return [(s, "piao", int(s in seats)) for s in range(players)]


def hits(g, seat):
    return [w.breakdown.ids for w in g.wins if w.seat == seat]


def legal(g, seat):
    return list(map(str, g.legal_actions(seat)))


def test_s_e1_self_draw_pinghu_three_flowers():
    # E is dealt 春 梅 中 and gets 23s9m from the tail; discards 9m, self-draws 4s.
    g = game({0: "123m456p789s11z1f5f7z"}, draws="1p2p3p4s", replacements="2s3s9m")
    assert sorted(g.seats[0].flowers) == sorted([34, 38, 33])
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri"), (0, "hu")])
    assert hits(g, 0) == [["pinghu"]]
    assert g.scores == [3, -1, -1, -1]


def test_s_e2_discard_win_six_hua():
    # S: 4 flowers (夏 秋 兰 白) + 东 peng + 直杠 9m, wins 平胡 on W's 4s: H = 6 -> 大胡 2.
    g = game(
        {0: "1z9m", 1: "11z999m234p5s2f3f6f5z"},
        draws="7m8m3m4s",
        replacements="6s8s8s1m9p",
    )
    drive(
        g,
        [
            (0, "discard 1z"),
            (1, "peng"),
            (1, "discard 1m"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "discard 9m"),
            (1, "gang 9m"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (1, "hu"),
        ],
    )
    assert [m.kind for m in g.seats[1].melds] == ["peng", "zhigang"]
    assert hits(g, 1) == [["pinghu"]]
    assert g.wins[0].breakdown.points == 2
    assert g.scores == [0, 2, -2, 0]


def test_s_e3_angang_gangkai_four_hua():
    # W: 冬 菊 set aside, 暗杠 3m (2 花), self-draws 9s on the replacement: H = 4, 杠开 -> 3.
    g = game(
        {0: "9m", 2: "3333m456p78s22z4f8f"},
        draws="1p5p",
        replacements="5p5p9s",
    )
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "gang 3m"), (2, "hu")])
    assert hits(g, 2) == [["gangkai"]]
    assert g.scores == [-3, -3, 9, -3]


def test_s_e4_piao_self_draw_is_wuhuaguo():
    # N (飘) keeps 春, must discard it, then self-draws: 无花果 4 from everyone.
    g = game(
        {0: "9m", 3: "123m456m789m23p9p1f"},
        draws="1s2s9p3s4s5s4p",
        options={"piaohua": True},
        choices=piao(3),
    )
    assert g.seats[3].held_flowers == (34,) and not g.seats[3].flowers
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "tsumogiri")])
    assert legal(g, 3) == ["discard 1f"]  # a 飘 seat holding a flower must discard it
    drive(
        g,
        [(3, "discard 1f"), (0, "tsumogiri"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "hu")],
    )
    assert hits(g, 3) == [["wuhuaguo"]]
    assert g.scores == [-4, -4, -4, 12]


def test_s_e5_wuhuaguo_on_piao_discard():
    # W (不飘, H = 0) wins on the discard of N (飘): 无花果 4.
    g = game(
        {0: "9m", 2: "123m456m789m23p99p"},
        draws="1s2s4p",
        options={"piaohua": True},
        choices=piao(3),
    )
    drive(
        g,
        [(0, "discard 9m"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri"), (2, "hu")],
    )
    assert hits(g, 2) == [["wuhuaguo"]]
    assert g.scores == [0, 0, 4, -4]


def test_s_e6_qingyise_with_chuzeng():
    # 出增分 2, 增 E=1 S=2: 4 + 2 × (1 + 2) = 10.
    g = game(
        {0: "1112345678999m1f"},
        draws="5m",
        replacements="1z",
        options={"chuzeng": 2},
        choices=[(0, "zeng", 1), (1, "zeng", 2), (2, "zeng", 0), (3, "zeng", 0)],
    )
    drive(g, [(0, "discard 1z"), (1, "tsumogiri"), (0, "hu")])
    assert hits(g, 0) == [["qingyise"]]
    assert g.scores == [10, -10, 0, 0]


@pytest.mark.parametrize("stack, per_payer", [(True, 7), (False, 5)])
def test_s_e7_flower_bonus(stack, per_payer):
    # Flower area 中×4 发×3 白×3 梅兰竹 (H = 13): 大大胡 3; 花奖 ① 4中 and ② 发3 白3 梅兰竹.
    g = game(
        {0: "7777z666z555z5f6f7f9m"},
        draws="1p2p3p4s",
        replacements="123m456p789s11z23s",
        options={"flower_bonus_stack": stack},
    )
    assert len(g.seats[0].flowers) == 13
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri"), (0, "hu")])
    assert hits(g, 0)[0][0] == "pinghu"
    assert g.wins[0].breakdown.points == per_payer
    assert g.scores == [3 * per_payer, -per_payer, -per_payer, -per_payer]


# ---- S-e8: 吃三比 W–N, every win 小胡 ------------------------------------------------------
# W pengs 1m, 2p, 3s from N (三比 W–N); it then holds 67s 55p and one flower (H = 1).
# N (one flower) ends the prefix with 234p 567p 789m 11z 45s (waits 3s/6s),
# E (one flower) with 456m 789m 456p 22z 78p (waits 6p/9p). Every win is 小胡 1.
SANBI_PREFIX = [
    (0, "discard 1s"),
    (1, "tsumogiri"),
    (2, "tsumogiri"),
    (3, "discard 1m"),
    (2, "peng"),
    (2, "discard 9m"),
    (3, "discard 2p"),
    (2, "peng"),
    (2, "discard 8p"),
    (3, "discard 3s"),
    (2, "peng"),
    (2, "discard 4z"),
    (3, "tsumogiri"),
]


def _sanbi(after: str, script):
    g = game(
        {0: "456m789m456p22z7p1s3f", 2: "11m22p33s67s55p9m8p1f", 3: "1m2p3s234p567p789m2f"},
        draws="9s1p" + "1z4s5s3m" + after,
        replacements="8p4z1z",
    )
    drive(g, SANBI_PREFIX)
    assert g.seats[2].claimed_from[3] == 3
    assert g.variant.public_state(g)["sanbi"] == [[2, 3]]
    drive(g, script)
    assert all(w.breakdown.points == 1 for w in g.wins)  # every win is 小胡
    return g


def test_s_e8a_partner_of_discarder_pays():
    g = _sanbi("5m5m9p", [(0, "tsumogiri"), (1, "tsumogiri"), (2, "tsumogiri"), (0, "hu")])
    assert g.scores == [2, 0, -1, -1]


def test_s_e8b_discard_between_partners_pays_double():
    g = _sanbi("5m5m6s", [(0, "tsumogiri"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "hu")])
    assert g.scores == [0, 0, -2, 2]


def test_s_e8c_self_draw_partner_pays_double():
    g = _sanbi("5m5m5s", [(0, "tsumogiri"), (1, "tsumogiri"), (2, "hu")])
    assert g.scores == [-1, -1, 4, -2]


def test_s_e8d_partner_of_winner_pays():
    g = _sanbi("5s", [(0, "tsumogiri"), (2, "hu")])
    assert g.scores == [-1, 0, 2, -1]


def test_s_e9_eight_hua_is_dahu():
    # S: 春夏秋 梅兰竹 白 发 (H = 8, no 花奖) wins 平胡 on E's 6s: 大胡 2.
    g = game(
        {0: "6s", 1: "45s11z9s1f2f3f5f6f7f5z6z"},
        replacements="123m456p78s",
    )
    assert len(g.seats[1].flowers) == 8
    drive(g, [(0, "discard 6s"), (1, "hu")])
    assert hits(g, 1) == [["pinghu"]]
    assert g.scores == [-2, 2, 0, 0]


@pytest.mark.parametrize("discarder_flowers, allowed", [("2f3f", False), ("", True)])
def test_s_e10_wuhuaguo_only_takes_wuhuaguo(discarder_flowers, allowed):
    # S (H = 0) waits on 6s; E discards it with H = 2 (not allowed) or H = 0 (allowed).
    g = game(
        {0: "6s" + discarder_flowers, 1: "123m456p789s11z45s"},
        replacements="9m9m",
    )
    assert len(g.seats[0].flowers) == len(discarder_flowers) // 2
    g.apply(0, "discard 6s")
    assert ("hu" in legal(g, 1)) is allowed
    if allowed:
        drive(g, [(1, "hu")])
        assert hits(g, 1) == [["wuhuaguo"]]
        assert g.scores == [-4, 4, 0, 0]
