"""RULES.md V1.5.1 worked examples X-e1 … X-e11, played through the engine.

Seats: E=0 (dealer), S=1, W=2, N=3. Each wall is built so that the situation of
the example arises; seats not named in a step pass every claim.
"""

from __future__ import annotations

import pytest
from scenario import drive, paid, play_out, scripted_game

from mjcore import tiles as T
from mjcore.engine.actions import PASS, PENG, Action
from mjcore.hand import waits

V = "xuezhan_kaxinwu"


def hits(game, seat):
    return [w.breakdown.ids for w in game.wins if w.seat == seat]


def test_x_e1_pinghu_on_discard():
    g = scripted_game(V, {0: "9s", 1: "123p456p789p11s23s", 2: "4s"}, draws="8s7s")
    drive(g, [(0, "discard 9s"), (1, "tsumogiri"), (2, "discard 4s"), (1, "hu")])
    assert hits(g, 1) == [["pinghu"]]
    assert g.scores == [0, 2, -2, 0]


def test_x_e2_self_draw_qingyise_xiaoqidui():
    g = scripted_game(V, {0: "1s", 3: "1122335566779p"}, draws="8s7s9p")
    drive(g, [(0, "discard 1s"), (1, "tsumogiri"), (2, "tsumogiri"), (3, "hu")])
    assert sorted(hits(g, 3)[0]) == ["qingyise", "xiaoqidui"]
    assert g.scores == [-8, -8, -8, 24]


def test_x_e3_qingyise_longqidui():
    g = scripted_game(V, {0: "7s", 1: "1111223355667s"})
    drive(g, [(0, "discard 7s"), (1, "hu")])
    assert sorted(hits(g, 1)[0]) == ["longqidui", "qingyise"]
    assert g.scores[:2] == [-16, 16]


def test_x_e4_angang_then_kaxinwu_gangshanghua():
    g = scripted_game(V, {0: "1s", 2: "888p46s123p789s99p"}, draws="9s8p", replacements="5s")
    drive(g, [(0, "discard 1s"), (1, "tsumogiri"), (2, "gang 8p"), (2, "hu")])
    assert sorted(hits(g, 2)[0]) == ["gangshanghua", "kaxinwu"]
    assert g.scores == [-10, -10, 30, -10]


def test_x_e5_rob_bugang():
    g = scripted_game(V, {0: "12p456p789p11s234s9s", 1: "33p", 2: "3p"}, draws="9p8s9p8s7s3p")
    drive(g, [(0, "discard 9s"), (1, "tsumogiri"), (2, "discard 3p"), (1, "peng")])
    first = next(a for a in g.legal_actions(1) if a.kind == "discard")
    drive(
        g,
        [
            (1, str(first)),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "gang 3p"),
            (0, "hu"),
        ],
    )
    assert sorted(hits(g, 0)[0]) == ["pinghu", "qiangganghu"]
    assert g.scores == [4, -4, 0, 0]
    assert not any(m.kind == "bugang" for m in g.seats[1].melds)


def test_x_e6_multi_win_and_discarder_draws_next():
    g = scripted_game(
        V, {0: "45s123p456p789p11s9p", 2: "66s999s111p222p55p", 3: "6s"}, draws="7s8s2s"
    )
    drive(
        g,
        [
            (0, "discard 9p"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "discard 6s"),
            (0, "hu"),
            (2, "hu"),
        ],
    )
    assert hits(g, 0) == [["pinghu"]] and hits(g, 2) == [["daduizi"]]
    assert g.scores == [2, 0, 4, -6]
    assert g.current == 3 and g.draw_how == "wall"


def test_x_e7_gui():
    g = scripted_game(V, {0: "8s", 1: "1234567777999s"})
    drive(g, [(0, "discard 8s"), (1, "hu")])
    (bd,) = [w.breakdown for w in g.wins]
    assert {h.id: h.value for h in bd.hits} == {"pinghu": 1, "qingyise": 1, "gui": 1}
    assert g.scores[:2] == [-8, 8]


def test_x_e8_chajiao():
    south, north = "1p3p5p7p9p2s4s6s8s2p6p5s3s", "2p5p8p3s6s9s3p7p4s8s5p7s6p"
    g = scripted_game(
        V,
        {0: "1111s23s456s789s99s", 1: south, 2: "111p234p46p789p99p", 3: north},
        replacements="4s",
    )
    assert not waits(T.counts(south)) and not waits(T.counts(north))
    drive(g, [(0, "gang 1s"), (0, "hu")])
    assert sorted(hits(g, 0)[0]) == ["gangshanghua", "pinghu", "qingyise"]
    play_out(g)
    assert sorted(paid(g, "chajiao")) == [
        (1, 0, 4, "chajiao"),
        (1, 2, 8, "chajiao"),
        (3, 0, 4, "chajiao"),
        (3, 2, 8, "chajiao"),
    ]
    assert sum(g.scores) == 0


@pytest.mark.parametrize(
    ("mode", "each"),
    [("flat", 8), ("compound", 12)],  # 2 + 1x2 + 2x2; compound: 2 + 1x2 + 2x4 [DEC X7]
)
def test_x_e9_gang_chain_doubling(mode, each):
    g = scripted_game(
        V,
        {0: "7s", 1: "77s222s999p1p3p5p8s4s"},
        draws="9s8s6s2s",
        replacements="7s9p3s",
        options={"gang_chain": mode},
    )
    drive(
        g,
        [
            (0, "discard 7s"),
            (1, "peng"),
            (1, "discard 1p"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "gang 2s"),
            (1, "gang 7s"),
            (1, "gang 9p"),
        ],
    )
    assert g.scores == [-each, 3 * each, -each, -each]


def test_x_e10_must_gang():
    g = scripted_game(V, {0: "9s", 3: "999s"}, options={"must_gang": True})
    drive(g, [(0, "discard 9s")])
    legal = g.legal_actions(3)
    assert Action.parse("gang 9s") in legal and PASS not in legal and PENG not in legal
    g.apply(3, "gang 9s")
    assert paid(g) == [(0, 3, 2, "zhigang")]


def test_x_e11_three_players_self_draw():
    g = scripted_game(V, {0: "9s", 1: "111p222p333s444s5p"}, draws="5p", players=3)
    drive(g, [(0, "discard 9s"), (1, "hu")])
    assert hits(g, 1) == [["daduizi"]]
    assert g.scores == [-4, 8, -4]


@pytest.mark.parametrize("must_gang", [False, True])
def test_no_hu_right_after_peng(must_gang):
    # S pengs 5p and would then hold a complete hand: it may not declare hu before discarding.
    g = scripted_game(V, {0: "5p", 1: "55p123s456s789s11p"}, options={"must_gang": must_gang})
    drive(g, [(0, "discard 5p"), (1, "peng")])
    assert all(a.kind != "hu" for a in g.legal_actions(1))
