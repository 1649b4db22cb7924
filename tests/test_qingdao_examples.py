"""RULES.md V4 青岛麻将: worked examples Q-e1 … Q-e12 played through the engine, the
calculator (JSON form), and focused rule tests (混, chi limit, 扣听, 扭牌, 分张 …).

Seats: E=0 (dealer), S=1, W=2, N=3. The examples run with 带混 off, 跑 0 and the
other options off unless stated; every hand starts with each seat choosing 跑.
With 带混 on the first ``replacements`` tile is the 混 indicator.
"""

from __future__ import annotations

from collections import Counter

import pytest
from scenario import drive, paid, play_out, scripted_game

from mjcore import tiles as T
from mjcore.engine.actions import HU, PASS, PENG, Action
from mjcore.variants import get_variant
from mjcore.variants.qingdao import hun_of

V = "qingdao"
NO_HUN = {"hun": False}


def game(hands, draws="", replacements="", options=None, pao=(0, 0, 0, 0), players=4, carry=None):
    opts = dict(NO_HUN)
    opts.update(options or {})
    g = scripted_game(V, hands, draws, replacements, players=players, options=opts, carry=carry)
    for seat in range(players):
        g.apply(seat, f"choose pao {pao[seat]}")
    return g


def hits(g, seat):
    return [w.breakdown.ids for w in g.wins if w.seat == seat]


def legal(g, seat):
    return list(map(str, g.legal_actions(seat)))


# ---- worked examples ----------------------------------------------------------
def test_q_e1_pihu_on_discard():
    g = game({0: "9m", 1: "123m456p789s11z23p", 2: "4p"}, draws="8m7m")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 4p"), (1, "hu")])
    assert hits(g, 1) == [["pihu"]]
    assert g.scores == [0, 1, -1, 0]


def test_q_e2_self_draw_pengpenghu():
    g = game({0: "9s", 3: "111m222p333s777z5z"}, draws="8s7s6s5s4s2s5z")
    drive(
        g,
        [
            (0, "discard 9s"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "hu"),
        ],
    )
    assert hits(g, 3) == [["pengpenghu"]]
    assert g.scores == [-2, -2, -2, 6]


def test_q_e3_kouting_qingyise_qidui():
    g = game({0: "1122335566779p1s"}, draws="8s7s6s9p")
    assert "declare kouting" in legal(g, 0)
    drive(g, [(0, "declare kouting")])
    assert all(a.startswith(("discard", "hu")) for a in legal(g, 0))
    drive(g, [(0, "discard 1s"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri"), (0, "hu")])
    assert sorted(hits(g, 0)[0]) == ["kouting", "qidui", "qingyise"]
    assert g.scores == [24, -8, -8, -8]


def test_q_e4_angang_gangshanghua_shoubayi():
    g = game({0: "1m", 2: "11m45m33p888p5s1z2z3z"}, draws="9s8s6m3p7s6s5s8p", replacements="5s")
    drive(
        g,
        [
            (0, "discard 1m"),
            (2, "peng"),
            (2, "discard 1z"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "chi 456m"),
            (2, "discard 2z"),
            (3, "tsumogiri"),
            (2, "peng"),
            (2, "discard 3z"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "gang 8p"),
            (2, "hu"),
        ],
    )
    assert sorted(hits(g, 2)[0]) == ["gangshanghua", "pihu", "shoubayi"]
    assert sorted(paid(g, "angang")) == [
        (0, 2, 2, "angang"),
        (1, 2, 2, "angang"),
        (3, 2, 2, "angang"),
    ]
    assert g.scores == [-6, -6, 18, -6]


def test_q_e5_huangzhuang_fanbei():
    g = game({0: "6z", 1: "1111m22p33p44s55s6z"}, carry={"huangzhuang": True})
    drive(g, [(0, "discard 6z"), (1, "hu")])
    assert sorted(hits(g, 1)[0]) == ["haohua_qidui", "huangzhuang_fanbei"]
    assert g.scores == [-8, 8, 0, 0]


def test_q_e6a_pao_on_discard():
    g = game({0: "9m", 2: "123m456p789s11z23p", 3: "4p"}, draws="8m7m", pao=(0, 0, 2, 1))
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "discard 4p"), (2, "hu")])
    assert g.scores == [0, 0, 4, -4]


def test_q_e6b_pao_self_draw():
    g = game({0: "9m", 2: "123m456p789s11z23p"}, draws="8m7m6m5m4m4p", pao=(0, 0, 2, 1))
    drive(
        g,
        [
            (0, "discard 9m"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "hu"),
        ],
    )
    assert g.scores == [-3, -3, 10, -4]


def test_q_e7_gang_scores_at_huangzhuang():
    g = game({0: "1111s2s", 1: "999p", 3: "22s1z"}, draws="8m7m9p6m2s", replacements="5z6z7z")
    drive(
        g,
        [
            (0, "gang 1s"),
            (0, "discard 2s"),
            (3, "peng"),
            (3, "discard 1z"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (1, "gang 9p"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "gang 2s"),
            (3, "tsumogiri"),
        ],
    )
    assert [m.kind for m in g.seats[3].melds] == ["bugang"]
    play_out(g)
    assert g.exhausted and not g.wins
    assert g.scores == [5, -1, -3, -1]
    assert g.next_dealer == 1  # 有杠荒牌下庄 [DEC Q10]
    assert g.next_carry() == {"huangzhuang": True}


def test_q_e8_pingdu8_winner_gangs_only():
    g = game(
        {0: "1111s333s45s456p77m", 1: "8888m"},
        draws="8p3s9p1m2m6s",
        replacements="5z6z7z",
        options={"pingdu8": True},
    )
    drive(
        g,
        [
            (0, "gang 1s"),
            (0, "tsumogiri"),
            (1, "gang 8m"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (0, "gang 3s"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "hu"),
        ],
    )
    assert hits(g, 0) == [["pihu"]]
    assert paid(g, "angang") == [] and paid(g, "zhigang") == []
    assert g.scores == [12, -4, -4, -4]


def test_q_e9_tianhu_qidui():
    g = game({0: "1122m3344p5566s77z"})
    assert HU in g.legal_actions(0)
    drive(g, [(0, "hu")])
    assert sorted(hits(g, 0)[0]) == ["qidui", "tianhu"]
    assert g.scores == [30, -10, -10, -10]
    assert g.next_dealer == 0  # 连庄


def test_q_e10_first_winner_in_play_order():
    g = game({0: "12m456p789s11z234s9m", 1: "12m456s789p22z345p"}, draws="8s7s3m")
    drive(
        g,
        [
            (0, "discard 9m"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "hu"),
            (1, "hu"),
        ],
    )
    assert hits(g, 0) == [["pihu"]] and hits(g, 1) == []
    assert g.scores == [1, 0, 0, -1]


def test_q_e11_hun_self_draw_only():
    g = game(
        {0: "9m", 1: "23m456p789p55s11z1s", 2: "4m"},
        draws="8m7m6s5s4m",
        replacements="9s",
        options={"hun": True},
    )
    assert g.extra["joker_kind"] == T.kind("1s")
    assert g.view(1)["public"]["joker_kind"] == "1s"
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 4m")])
    assert HU not in g.legal_actions(1)  # 手牌里有混，只能自摸胡牌
    drive(g, [(3, "tsumogiri"), (0, "tsumogiri"), (1, "hu")])
    assert hits(g, 1) == [["pihu"]]
    assert g.scores == [-1, 3, -1, -1]


def test_q_e12_multi_win():
    g = game(
        {0: "5p", 1: "123m789m456s11z46p", 3: "11m22s33s44z55z66z5p"}, options={"multi_win": True}
    )
    drive(g, [(0, "discard 5p"), (1, "hu"), (3, "hu")])
    assert hits(g, 1) == [["pihu"]] and hits(g, 3) == [["qidui"]]
    assert g.scores == [-3, 1, 0, 2]
    assert g.next_dealer == 1


# ---- the calculator (JSON form) -------------------------------------------------
CALC = [
    ({"concealed": "123m456p789s11z234p", "win_tile": "4p"}, {}, ["pihu"], 1),
    (
        {
            "concealed": "1122335566779p9p",
            "win_tile": "9p",
            "how": "self_draw",
            "flags": ["kouting"],
        },
        {},
        ["qidui", "qingyise", "kouting"],
        8,
    ),
    (
        {
            "concealed": "1122m3344p5566s77z",
            "win_tile": "7z",
            "how": "self_draw",
            "flags": ["tianhu"],
        },
        {},
        ["qidui", "tianhu"],
        10,
    ),
    (
        {"concealed": "1111m22p33p44s55s66z", "win_tile": "6z", "flags": ["prev_huangzhuang"]},
        {},
        ["haohua_qidui", "huangzhuang_fanbei"],
        8,
    ),
    ({"concealed": "1111m2222p33s44s55s", "win_tile": "5s"}, {}, ["chaoji_haohua_qidui"], 8),
    ({"concealed": "19m19p19s1234567z1z", "win_tile": "1z"}, {}, ["shisanyao"], 2),
    ({"concealed": "147m258p369s12345z", "win_tile": "1m"}, {}, ["shisanbukao"], 2),
    (
        {
            "concealed": "11m",
            "win_tile": "1m",
            "how": "self_draw",
            "gang_chain": 1,
            "melds": ["peng 2p", "peng 5z", "peng 8s", "angang 9m"],
        },
        {},
        ["pengpenghu", "gangshanghua", "shoubayi"],
        8,
    ),
    (
        {
            "concealed": "123456789p234s55m",
            "win_tile": "5m",
            "how": "self_draw",
            "flags": ["haidi"],
        },
        {},
        ["pihu", "yitiaolong", "haidilao"],
        4,
    ),
    (
        {
            "concealed": "123m456p789s11z234p",
            "win_tile": "4p",
            "how": "self_draw",
            "flags": ["dihu"],
        },
        {},
        ["pihu", "dihu"],
        5,
    ),
    # 混: 一条龙 and 清一色 with a 混 filling 9p
    (
        {"concealed": "12345678p99911p", "win_tile": "1p", "how": "self_draw", "jokers": 1},
        {},
        ["pihu", "yitiaolong", "qingyise"],
        4,
    ),
    # 豪华七对 needs a natural quad: 1111p is natural here …
    (
        {"concealed": "1111p22m33m44m55m6m", "win_tile": "5m", "how": "self_draw", "jokers": 1},
        {},
        ["haohua_qidui"],
        4,
    ),
    # … but 111p + 混 is not
    (
        {"concealed": "111p22m33m44m55m66m", "win_tile": "6m", "how": "self_draw", "jokers": 1},
        {},
        ["qidui"],
        2,
    ),
    # 满混 without a shape is 1; with a shape the best shape counts
    (
        {"concealed": "1m5m9m2p6p9p4s8s3z6z", "win_tile": "1m", "how": "self_draw", "jokers": 4},
        {},
        ["manhun"],
        1,
    ),
    (
        {"concealed": "111m222p333s1z", "win_tile": "1z", "how": "self_draw", "jokers": 4},
        {},
        ["pengpenghu", "manhun"],
        2,
    ),
    # 258将
    ({"concealed": "123m456p789s11z234p", "win_tile": "4p"}, {"pair258": True}, None, 0),
    ({"concealed": "123m456p789s55s234p", "win_tile": "4p"}, {"pair258": True}, ["pihu"], 1),
    ({"concealed": "1133m4466p99s11z22z", "win_tile": "2z"}, {"pair258": True}, None, 0),
    ({"concealed": "1133m4466p99s11z22z", "win_tile": "2z"}, {}, ["qidui"], 2),
    ({"concealed": "1133m4455p99s11z22z", "win_tile": "2z"}, {"pair258": True}, ["qidui"], 2),
    ({"concealed": "19m19p19s1234567z1z", "win_tile": "1z"}, {"pair258": True}, ["shisanyao"], 2),
    # 平度8张: 8 tiles of a suit; quads count as 3 of the 14; a 混 counts as what it stands for
    ({"concealed": "123m456p789s55s234p", "win_tile": "4p"}, {"pingdu8": True}, None, 0),
    (
        {
            "concealed": "234s456p77m",
            "win_tile": "4s",
            "how": "self_draw",
            "melds": ["angang 1s", "zhigang 9s"],
        },
        {"pingdu8": True},
        ["pihu"],
        1,
    ),
    (
        {"concealed": "123s456s5s234p999m", "win_tile": "4p", "how": "self_draw", "jokers": 1},
        {"pingdu8": True},
        ["pihu"],
        1,
    ),
    (
        {"concealed": "123s456s234p999m5m", "win_tile": "4p", "how": "self_draw", "jokers": 1},
        {"pingdu8": True},
        None,
        0,
    ),
    (
        {"concealed": "11223344556s77z", "win_tile": "6s", "how": "self_draw", "jokers": 1},
        {"pingdu8": True},
        ["qidui"],
        2,
    ),
    # 扭 groups are sets but not triplets, and never 清一色
    (
        {
            "concealed": "11s",
            "win_tile": "1s",
            "how": "self_draw",
            "melds": ["niu 567z", "peng 5s", "peng 8s", "angang 9s"],
        },
        {"niupai": True},  # 扭 groups exist only with the 扭牌 option
        ["pihu", "shoubayi"],
        2,
    ),
]


@pytest.mark.parametrize(("ctx", "options", "ids", "points"), CALC)
def test_calculator(ctx, options, ids, points):
    bd = get_variant(V).calculate(ctx, options)
    if ids is None:
        assert bd is None
    else:
        assert bd.ids == ids and bd.points == points, bd


# ---- 混 rules ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("indicator", "cycle", "hun"),
    [
        ("9p", "split", "1p"),
        ("3m", "split", "4m"),
        ("4z", "split", "1z"),
        ("5z", "split", "7z"),
        ("7z", "split", "6z"),
        ("6z", "split", "5z"),
        ("4z", "single7", "5z"),
        ("7z", "single7", "1z"),
    ],
)
def test_shanggun(indicator, cycle, hun):
    assert hun_of(T.kind(indicator), cycle) == T.kind(hun)


@pytest.mark.parametrize("seed", range(12))
def test_the_hun_indicator_is_the_first_tail_tile_after_the_deal(seed):
    """带混: the tail tile after the deal lies face up (Game.show_indicator), logged with the
    混 it indicates (上滚); out of play: the next replacement is the tile before it."""
    g = get_variant("qingdao").new_game(seed=seed, options={"hun": True})
    tail = g.wall.tiles[-1]
    assert g.indicators == [tail] and g.extra["joker_kind"] == hun_of(tail)
    (event,) = g.event_log.select("indicator")
    assert event == {
        "tile": T.NOTATION[tail],
        "joker": T.NOTATION[hun_of(tail)],
        "hidden": False,
        "revealed": False,
        "type": "indicator",
        "seq": 1,
    }
    assert g.wall.tail == len(g.wall.tiles) - 1


def test_discarded_hun_counts_at_face_value_and_is_never_claimed():
    # 混 = 1s. S has no 混 and waits on 1s/4s; W holds two 混; E discards a 混.
    g = game({0: "1s", 1: "23s456p789p55m111z", 2: "11s"}, replacements="9s", options={"hun": True})
    drive(g, [(0, "discard 1s")])
    assert legal(g, 1) == ["hu", "pass"]  # no chi 123s with a 混
    assert 2 not in g.to_act()  # no peng of a 混
    drive(g, [(1, "hu")])
    (win,) = g.wins
    assert win.tile == T.kind("1s") and win.breakdown.ids == ["pihu"]
    assert g.scores == [-1, 1, 0, 0]


def test_hun_never_in_chi_from_hand():
    # 混 = 1s; S holds 1s(混) and 2s; E discards 3s: no chi 123s, chi 234s is fine.
    g = game({0: "3s", 1: "12s4s"}, replacements="9s", options={"hun": True})
    drive(g, [(0, "discard 3s")])
    acts = legal(g, 1)
    assert "chi 234s" in acts and "chi 123s" not in acts


def test_manhun_tianhu_and_no_gang_of_hun():
    g = game({0: "1111s1m5m9m2p6p9p4s8s3z6z"}, replacements="9s", options={"hun": True})
    acts = legal(g, 0)
    assert "hu" in acts and "gang 1s" not in acts
    drive(g, [(0, "hu")])
    assert hits(g, 0) == [["manhun", "tianhu"]]
    assert g.scores == [15, -5, -5, -5]


def test_self_drawn_hun_wins():
    # S waits 1m/4m with no 混; it draws a 混 (1s) and wins with it.
    g = game(
        {0: "9m", 1: "23m456p789p555s11z"}, draws="1s", replacements="9s", options={"hun": True}
    )
    drive(g, [(0, "discard 9m"), (1, "hu")])
    assert hits(g, 1) == [["pihu", "dihu"]]
    (win,) = g.wins
    assert win.tile == T.kind("1s")


# ---- chi rules ----------------------------------------------------------------------
def test_buneng_chi_tumen():
    g = game({0: "2m", 1: "34m25m"})
    drive(g, [(0, "discard 2m"), (1, "chi 234m")])
    discards = [a for a in legal(g, 1) if a.startswith("discard")]
    assert "discard 2m" not in discards and "discard 5m" not in discards and discards


@pytest.mark.parametrize("hun", [True, False])
def test_chi_limit_and_chifu_dafu_shoubayi(hun):
    g = game(
        {0: "3m", 1: "12m45m33p78m5z9p1z2z3z"},
        draws="9s8s6m7s6s9m4z8s3p6s7s9m",
        replacements="9s",
        options={"hun": hun},
    )
    drive(
        g,
        [
            (0, "discard 3m"),
            (1, "chi 123m"),
            (1, "discard 1z"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "chi 456m"),
            (1, "discard 2z"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
        ],
    )
    # two chi and 7 concealed tiles: a 3rd chi is not 手把一 (only without 混)
    assert ("chi 789m" in legal(g, 1)) is not hun
    drive(
        g,
        [
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (1, "peng"),
            (1, "discard 3z"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
        ],
    )
    assert T.format(g.seats[1].counts) == "78m9p5z"
    assert "chi 789m" in legal(g, 1)  # 吃副打副手把一
    drive(g, [(1, "chi 789m")])
    assert sorted(a for a in legal(g, 1)) == ["discard 5z", "discard 9p"]


def test_no_chi_option():
    g = game({0: "3m", 1: "12m"}, options={"no_chi": True})
    drive(g, [(0, "discard 3m")])
    assert not any(a.startswith("chi") for a in legal(g, 1))


# ---- 过胡, 扣听 -------------------------------------------------------------------------
def test_guohu_blocks_every_discard_win_until_own_discard():
    g = game({0: "9m", 1: "123m456p789s11z23p", 2: "4p", 3: "1p"}, draws="8m7m6m")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 4p")])
    assert legal(g, 1) == ["hu", "pass"]
    g.apply(1, PASS)
    drive(g, [(3, "discard 1p")])
    assert 1 not in g.to_act()  # 1p also completes the hand: 过胡 blocks it
    drive(g, [(0, "tsumogiri"), (1, "tsumogiri")])
    assert g.seats[1].pass_hu_any is False


def test_kouting_lock_and_first_turn_only():
    g = game({0: "1122335566779p1s"}, draws="8s7s6s4m")
    drive(
        g,
        [
            (0, "declare kouting"),
            (0, "discard 1s"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
        ],
    )
    assert g.seats[0].declared == "kouting"
    assert g.current == 0 and legal(g, 0) == ["discard 4m"]  # locked: discard the drawn tile
    g2 = game({0: "1s"}, draws="8s7s6s")
    drive(g2, [(0, "discard 1s"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri")])
    assert "declare kouting" not in legal(g2, 0)  # 第二次牌权就不能扣了


@pytest.mark.parametrize("kouting", [True, False])
def test_kouting_locked_seat_claims_only_hu(kouting):
    g = game({0: "1122335566779p1s", 3: "1p"}, draws="8s7s6s")
    if kouting:
        drive(g, [(0, "declare kouting")])
    drive(g, [(0, "discard 1s"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "discard 1p")])
    # N is E's 上家 and E holds 11p and 23p: peng / chi only without 扣听
    assert (0 in g.to_act() and PENG in g.legal_actions(0)) is not kouting


# ---- 扭牌 / 调牌 ------------------------------------------------------------------------
def test_niupai_groups_tiaopai_and_zimo_only():
    g = game(
        {0: "567z1234z9m", 1: "123m456p789s11z78m"},
        draws="2p3p4p7z",
        replacements="8m1p",
        options={"niupai": True},
    )
    acts = legal(g, 0)
    assert "niu 1234z" in acts and "niu 567z" in acts
    drive(g, [(0, "niu 567z"), (0, "niu 1234z")])
    assert g.drawn == T.kind("8m") and g.draw_how == "replacement"
    assert [str(m) for m in g.seats[0].melds] == ["niu 567z", "niu 1234z"]
    drive(g, [(0, "discard 9m")])
    assert HU not in g.legal_actions(1)  # 扭牌 ⇒ self-draw only [DEC Q6]
    drive(g, [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri")])
    assert g.drawn == T.kind("7z") and "niu 7z" in legal(g, 0)  # 调牌
    drive(g, [(0, "niu 7z")])
    assert g.drawn == T.kind("1p") and str(g.seats[0].melds[0]) == "niu 5677z"
    assert g.tiles_in_play() == Counter(get_variant(V).tile_kinds(g.opts))


def test_niu_with_hun_and_dihu_after_niu():
    # 混 = 1p (indicator 9p); S holds 发中 + 混 → 中发白 with the 混 as 白.
    g = game(
        {0: "9m", 1: "67z1p123m456p789s4p"},
        draws="4p",
        replacements="9p",
        options={"hun": True, "niupai": True},
    )
    assert g.extra["joker_kind"] == T.kind("1p")
    drive(g, [(0, "discard 9m")])
    assert "niu 1p67z" in legal(g, 1) and "hu" not in legal(g, 1)
    drive(g, [(1, "niu 1p67z")])
    assert g.seats[1].melds[0].claimed == T.kind("5z")
    drive(g, [(1, "hu")])
    assert hits(g, 1) == [["pihu", "dihu"]]
    assert g.scores == [-5, 15, -5, -5]


# ---- wall end, gangs, 带飘, dealer ------------------------------------------------------
def test_fenzhang_then_huangzhuang_no_gang_dealer_stays():
    g = game({}, options={"daipiao": True})
    assert g.wall.kept == 0
    play_out(g)
    assert g.exhausted and len(g.set_aside) == 4 and g.wall.remaining == 0
    assert g.next_dealer == 0 and g.next_carry() == {"huangzhuang": True}


def test_kept_back_14_and_fenzhang_n_players():
    g = game({}, players=3)
    assert g.wall.kept == 14
    play_out(g)
    assert g.exhausted and len(g.set_aside) == 3 and g.wall.remaining == 14


@pytest.mark.parametrize("daipiao", [False, True])
def test_four_gangs_huangzhuang(daipiao):
    g = game({0: "1111m2222m3333m44m"}, replacements="4m4m5z6z", options={"daipiao": daipiao})
    drive(g, [(0, "gang 1m"), (0, "gang 2m"), (0, "gang 3m"), (0, "gang 4m")])
    assert g.scores == [24, -8, -8, -8]
    if daipiao:
        assert not g.is_over
    else:
        assert g.is_over and g.exhausted and g.next_dealer == 1


def test_rob_bugang_is_a_discard_win_and_scores_no_gang():
    g = game({0: "5p", 1: "55p123s456s789m1z", 2: "123m789p456s11z46p"}, draws="8m7m6m5p")
    drive(
        g,
        [
            (0, "discard 5p"),
            (1, "peng"),
            (1, "discard 1z"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "gang 5p"),
            (2, "hu"),
        ],
    )
    assert g.wins[0].how == "rob_gang" and g.scores == [0, -1, 1, 0]
    assert paid(g, "bugang") == []


def test_dealer_rotation_after_non_dealer_win():
    g = game({0: "9m", 1: "123m456p789s11z23p", 2: "4p"}, draws="8m7m")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 4p"), (1, "hu")])
    assert g.next_dealer == 1 and g.next_carry() == {"huangzhuang": False}


def test_pao_is_chosen_per_seat():
    g = scripted_game(V, {}, options=NO_HUN)
    assert g.phase == "choose"
    assert legal(g, 2) == ["choose pao 0", "choose pao 1", "choose pao 2"]
    assert PENG not in g.legal_actions(2)


def test_self_draw_only_option():
    g = game(
        {0: "9m", 1: "123m456p789s11z23p", 2: "4p"}, draws="8m7m", options={"self_draw_only": True}
    )
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 4p")])
    assert HU not in g.legal_actions(1)


def test_no_honors_108_tiles():
    v = get_variant(V)
    assert len(v.tile_kinds(v.parse_options({"no_honors": True}))) == 108
    assert len(v.tile_kinds(v.parse_options(None))) == 136


def test_action_text_roundtrip():
    assert str(Action.parse("niu 东南西北")) == "niu 1234z"


def test_pingdu8_counts_a_quad_as_three_of_the_14_tiles():
    """V4.4 平度8张 「≥8 of the 14 tiles (melds … included)」 [DEC Q19]: two 条 quads are 6."""
    v = get_variant("qingdao")
    opts = {"pingdu8": True, "hun": False}
    two_quads = {
        "concealed": "234p567p11m",
        "win_tile": "1m",
        "how": "self_draw",
        "melds": ["angang 1s", "angang 9s"],
    }
    assert v.calculate(two_quads, opts) is None
    plus_pair = {
        "concealed": "234p567p33s",
        "win_tile": "3s",
        "how": "self_draw",
        "melds": ["angang 1s", "angang 9s"],
    }
    assert v.calculate(plus_pair, opts).ids == ["pihu"]


def test_niu_of_the_dealt_tile_then_tianhu():
    """扭 uses the dealer's last dealt tile (中); the rest is complete: 天胡 is still offered."""
    g = game({0: "123m456m789m11p567z"}, options={"niupai": True})
    assert g.drawn == T.kind("7z")
    g.apply(0, "niu 567z")
    assert "hu" in [str(a) for a in g.legal_actions(0)]
    g.apply(0, "hu")
    assert "tianhu" in g.wins[0].breakdown.ids
