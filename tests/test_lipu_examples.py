"""RULES.md V2 荔浦麻将: worked examples L-e1 … L-e10 played through the engine on
constructed walls. Seats: E=0 (dealer), S=1, W=2, N=3; no 坐马, no horses unless stated.
"""

from __future__ import annotations

from scenario import drive, paid, play_out, scripted_game

V = "lipu"


def game(hands, draws="", replacements="", options=None, players=4, zuoma=None):
    g = scripted_game(V, hands, draws, replacements, players=players, options=options)
    if zuoma is not None:
        for seat, z in enumerate(zuoma):
            g.apply(seat, f"choose zuoma {z}")
    return g


def ids(g, seat):
    return [w.breakdown.ids for w in g.wins if w.seat == seat]


def test_l_e1_pengpenghu_on_discard():
    g = game({0: "9m", 1: "111m222p333s777z5z", 2: "5z"}, draws="8m1s")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 5z"), (1, "hu")])
    assert ids(g, 1) == [["pengpenghu", "dianpao"]]
    assert g.wins[0].breakdown.points == 3
    assert g.scores == [0, 3, -3, 0]


def test_l_e2_qingyise_dadiaoche_on_discard():
    # S pungs twice from E and twice from N (no 三比), then wins on W's 5p.
    g = game(
        {0: "1p4p", 1: "11p22p33p44p5p1z2z3z4z", 2: "5p", 3: "2p3p"},
        draws="9m9s8m8s7m7s6m6s",
    )
    drive(
        g,
        [
            (0, "discard 1p"),
            (1, "peng"),
            (1, "discard 1z"),
            (2, "tsumogiri"),
            (3, "discard 2p"),
            (1, "peng"),
            (1, "discard 2z"),
            (2, "tsumogiri"),
            (3, "discard 3p"),
            (1, "peng"),
            (1, "discard 3z"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "discard 4p"),
            (1, "peng"),
            (1, "discard 4z"),
            (2, "discard 5p"),
            (1, "hu"),
        ],
    )
    assert g.liabilities == []
    assert ids(g, 1) == [["dadiaoche", "qingyise", "dianpao"]]  # 6 × 2, no separate 碰碰胡
    assert g.scores == [0, 12, -12, 0]


def test_l_e3_self_draw_pinghu_with_a_chi():
    g = game(
        {0: "9m", 1: "", 2: "1m", 3: "23m456p789s11z55s7z"},
        draws="9p1s8m8p9s5s",
    )
    drive(
        g,
        [
            (0, "discard 9m"),
            (1, "tsumogiri"),
            (2, "discard 1m"),
            (3, "chi 123m"),
            (3, "discard 7z"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "hu"),
        ],
    )
    assert ids(g, 3) == [["pinghu", "zimo"]]
    assert g.scores == [-1, -1, -1, 3]


def test_l_e4_menqing_qingyise_with_four_horses():
    g = game({0: "111234567m999m55m"}, draws="1m3s7z7p", options={"zhuama": 4})
    drive(g, [(0, "hu")])
    assert ids(g, 0) == [["qingyise", "menqing_zimo"]]
    assert g.horses == [0, 20, 33, 15]  # 1m 3s 7z(中) 7p: hits 1m and 中
    assert g.view(1)["horses"] == ["1m", "3s", "7z", "7p"]
    assert any(e["type"] == "horses" and e["tiles"] == ["1m", "3s", "7z", "7p"] for e in g.events)
    assert g.scores == [36, -12, -12, -12]


def test_l_e5_minggang_gangshangpao_and_the_gang_is_unscored():
    g = game(
        {0: "9m", 1: "555m8s", 2: "5m", 3: "123m456p789s79s11z"},
        draws="1p2p",
        replacements="9p",
    )
    drive(
        g,
        [
            (0, "discard 9m"),
            (1, "tsumogiri"),
            (2, "discard 5m"),
            (1, "gang 5m"),
            (1, "discard 8s"),
            (3, "hu"),
        ],
    )
    assert ids(g, 3) == [["pinghu", "minggang_gangshangpao"]]
    assert paid(g, "zhigang") == []
    assert g.scores == [0, -7, 0, 7]


def test_l_e6_zuoma_both_sit_base_4():
    g = game({0: "7z", 3: "1122m3344p5566s7z"}, options={"zuoma": True}, zuoma=(1, 0, 0, 1))
    drive(g, [(0, "discard 7z"), (3, "hu")])
    assert ids(g, 3) == [["qidui", "dianpao"]]
    assert g.scores == [-12, 0, 0, 12]


def test_l_e6_zuoma_one_sits_base_2():
    g = game(
        {0: "9m", 1: "7z", 3: "1122m3344p5566s7z"},
        draws="1s",
        options={"zuoma": True},
        zuoma=(1, 0, 0, 1),
    )
    drive(g, [(0, "discard 9m"), (1, "discard 7z"), (3, "hu")])
    assert g.scores == [0, -6, 0, 6]


def test_l_e7_peisha():
    g = game(
        {0: "4s5z", 1: "11p22p33p44s55s1z2z3z", 2: "1p2p3p"},
        draws="9m8m7m6m9s8s",
    )
    drive(
        g,
        [
            (0, "discard 5z"),
            (1, "tsumogiri"),
            (2, "discard 1p"),
            (1, "peng"),
            (1, "discard 1z"),
            (2, "discard 2p"),
            (1, "peng"),
            (1, "discard 2z"),
            (2, "discard 3p"),
            (1, "peng"),
            (1, "discard 3z"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "discard 4s"),
            (1, "hu"),
        ],
    )
    assert g.liabilities == [(1, 2)] and g.seats[2].sealed
    assert ids(g, 1) == [["pengpenghu", "dianpao"]]
    assert g.scores == [-3, 6, -3, 0]


def test_l_e7b_quanbao():
    g = game(
        {0: "5z", 1: "11p22p33p44s55s1z2z3z", 2: "1p2p3p"},
        draws="9m8m7m6m9s8s7s4s",
    )
    drive(
        g,
        [
            (0, "discard 5z"),
            (1, "tsumogiri"),
            (2, "discard 1p"),
            (1, "peng"),
            (1, "discard 1z"),
            (2, "discard 2p"),
            (1, "peng"),
            (1, "discard 2z"),
            (2, "discard 3p"),
            (1, "peng"),
            (1, "discard 3z"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "hu"),
        ],
    )
    assert ids(g, 1) == [["pengpenghu", "zimo"]]
    assert g.scores == [0, 6, -6, 0]
    assert sorted(p.amount for p in g.settlement if p.payer == 2) == [2, 2, 2]


def test_l_e8_multi_win_one_horse_draw():
    g = game(
        {0: "123m456p789p11z24s7z", 1: "12s456s789s555s99s", 2: "3s"},
        draws="9m8p5p8m",
        options={"zhuama": 2},
    )
    drive(g, [(0, "discard 7z"), (1, "tsumogiri"), (2, "discard 3s"), (0, "hu"), (1, "hu")])
    assert ids(g, 0) == [["pinghu", "dianpao"]] and ids(g, 1) == [["qingyise", "dianpao"]]
    assert [e["type"] for e in g.events].count("horses") == 1
    assert g.horses == [13, 7]  # 5p (hit), 8m
    assert g.scores == [2, 6, -8, 0]
    assert g.next_dealer == 2


def test_l_e9_liuju_gang_scores():
    g = game({0: "1111z", 1: "999m", 3: "9m"}, draws="1s2s3s", replacements="9p8p")
    drive(
        g,
        [
            (0, "gang 1z"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "discard 9m"),
            (1, "gang 9m"),
        ],
    )
    play_out(g)
    assert g.exhausted and not g.wins
    assert g.scores == [3, 0, -1, -2]
    assert g.next_dealer == 0  # 流局: the dealer stays


def test_l_e10_angang_shanghua_menqing():
    g = game({0: "9m", 2: "222m333p444s555z6z"}, draws="1s2m", replacements="6z")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "gang 2m"), (2, "hu")])
    assert ids(g, 2) == [["pengpenghu", "angang_shanghua_menqing"]]
    assert paid(g, "angang") == []  # the gang whose replacement won is unscored
    assert g.scores == [-12, -12, 36, -12]
