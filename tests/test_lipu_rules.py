"""RULES.md V2 荔浦麻将 beyond the worked examples: odd situations played through the engine
(封胡 seat's gangs, 互包 with 一炮多响, horses at the wall's end, 捞杠 and 抢杠胡, 不能吃打相同及
相邻, 过手胡/过手碰, gang chains, 点杠上花) and the calculator (JSON form, CLI, bad input).
Seats: E=0 (dealer), S=1, W=2, N=3.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner
from scenario import drive, paid, play_out, scripted_game

from mjcore import tiles as T
from mjcore.cli import main
from mjcore.engine.actions import HU, PASS, PENG
from mjcore.engine.match import Match
from mjcore.errors import InvalidHandError
from mjcore.variants import get_variant
from mjcore.variants.lipu import TABLE

V = "lipu"
# 抓马 hits written out (RULES.md V2.3: 1, 5, 9 of any suit, 东, 中)
HITS = set(T.to_kinds("159m159p159s17z"))


def game(hands, draws="", replacements="", options=None, zuoma=None):
    g = scripted_game(V, hands, draws, replacements, options=options)
    if zuoma is not None:
        for seat, z in enumerate(zuoma):
            g.apply(seat, f"choose zuoma {z}")
    return g


def legal(g, seat):
    return list(map(str, g.legal_actions(seat)))


def advance_to_turn(g, seat):
    """Others discard what they draw and every claim passes until ``seat``'s turn."""
    while not (g.phase == "turn" and g.current == seat):
        s = g.to_act()[0]
        g.apply(s, f"discard {T.NOTATION[g.drawn]}" if g.phase == "turn" else PASS)


def ids(g, seat):
    return [w.breakdown.ids for w in g.wins if w.seat == seat]


# S pungs W's 1p, 2p, 3p: 互包 S–W, and W is 封胡 (被碰3比).
SANBI_HANDS = {1: "11p22p33p44s55s1z2z3z", 2: "1p2p3p"}
SANBI_STEPS = [
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
]


# ---- 三比: 互包 and 封胡 ---------------------------------------------------------------------
def test_three_chis_bind_and_a_fourth_seals():
    g = game(
        {2: "1m4m7m1p", 3: "23m56m89m23p1z2z3z4z"},
        draws="9s9s8s8s7s7s6s6s5s5s4s",
    )
    steps = [(0, "tsumogiri"), (1, "tsumogiri"), (2, "discard 1m"), (3, "chi 123m")]
    steps += [(3, "discard 1z"), (0, "tsumogiri"), (1, "tsumogiri"), (2, "discard 4m")]
    steps += [(3, "chi 456m"), (3, "discard 2z"), (0, "tsumogiri"), (1, "tsumogiri")]
    steps += [(2, "discard 7m"), (3, "chi 789m"), (3, "discard 3z")]
    drive(g, steps)
    assert g.liabilities == [(2, 3)] and not g.seats[2].sealed  # 3 chis: 互包 only
    assert g.view(0)["liabilities"] == [[2, 3]]
    drive(g, [(0, "tsumogiri"), (1, "tsumogiri"), (2, "discard 1p"), (3, "chi 123p")])
    assert g.seats[2].sealed  # 被吃四比
    assert g.view(1)["seats"][2]["sealed"] is True
    assert [e["type"] for e in g.events].count("sealed") == 1


def test_sealed_seat_is_never_offered_a_win():
    g = game({0: "9m5z", 1: "5z", 2: "111m222p333s777z5z"}, draws="1s5z")
    g.seal(2)
    drive(g, [(0, "discard 5z")])
    assert 2 not in g.to_act() or HU not in g.legal_actions(2)
    drive(g, [(1, "discard 5z")])
    assert 2 not in g.to_act() or HU not in g.legal_actions(2)
    # its own draw completes the hand: still no hu
    advance_to_turn(g, 2)
    assert g.drawn == T.kind("5z") and HU not in g.legal_actions(2)


def test_sealed_seats_later_gang_scores_zero_earlier_gang_stays():
    g = game(
        {1: "11p22p33p5z6z7z", 2: "1111z222z1p2p3p"},
        draws="9m9s8s8m2z",
        replacements="9p8p",
    )
    drive(
        g,
        [
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "gang 1z"),  # before the seal: scores 3
            (2, "discard 1p"),
            (1, "peng"),
            (1, "discard 5z"),
            (2, "discard 2p"),
            (1, "peng"),
            (1, "discard 6z"),
            (2, "discard 3p"),
            (1, "peng"),
            (1, "discard 7z"),
        ],
    )
    assert g.seats[2].sealed
    drive(g, [(2, "gang 2z")])  # after the seal: scores 0
    play_out(g)
    assert sorted(paid(g, "angang")) == [
        (0, 2, 1, "angang"),
        (1, 2, 1, "angang"),
        (3, 2, 1, "angang"),
    ]
    assert g.scores == [-1, -1, 3, -1]


def test_partner_discarder_pays_twice():
    g = game({**SANBI_HANDS, 2: "1p2p3p4s"}, draws="9m8m7m6m9s")
    drive(g, [(0, "tsumogiri"), *SANBI_STEPS, (2, "discard 4s"), (1, "hu")])
    assert ids(g, 1) == [["pengpenghu", "dianpao"]]
    assert g.scores == [0, 6, -6, 0]  # 3 as discarder + 3 as partner [DEC L8]


def test_liability_with_multi_win_applies_per_winner():
    g = game(
        {0: "123m456p789p11z35s7z", **SANBI_HANDS, 3: "4s"},
        draws="9m8m7m6m9s8s",
    )
    drive(g, [(0, "discard 7z"), *SANBI_STEPS, (2, "tsumogiri"), (3, "discard 4s")])
    drive(g, [(0, "hu"), (1, "hu")])
    assert ids(g, 0) == [["pinghu", "dianpao"]] and ids(g, 1) == [["pengpenghu", "dianpao"]]
    # E: 1 from N. S: 3 from N + 3 from its partner W (陪杀); W pays nothing for E's win.
    assert g.scores == [1, 6, -3, -4]
    assert g.next_dealer == 3  # 一炮多响: the discarder deals


def test_quanbao_with_zuoma_uses_the_replaced_seats_base():
    g = game(SANBI_HANDS, draws="9m8m7m6m9s8s7s4s", options={"zuoma": True}, zuoma=(1, 0, 0, 0))
    drive(g, [(0, "tsumogiri"), *SANBI_STEPS])
    drive(g, [(2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri"), (1, "hu")])
    assert ids(g, 1) == [["pengpenghu", "zimo"]]
    # shares: E 2×2 (E sits a horse), W 2, N 2 — all paid by W (全包)
    assert g.scores == [0, 8, -8, 0]


# ---- 抓马 at the wall's end -------------------------------------------------------------------
@pytest.mark.parametrize("left", [3, 0])
def test_horses_when_the_wall_runs_short(left):
    """N self-draws its 5z with ``left`` tiles in the wall: that many horses (of 6)."""
    v = get_variant(V)
    hand = "111m222p333s777z5z"
    pool = Counter(v.tile_kinds(v.parse_options(None))) - Counter(T.to_kinds(hand))
    junk = [t for t in sorted(pool.elements()) if t != T.kind("5z")]
    index = 82 - left  # draw i goes to seat (1 + i) % 4 when nobody claims
    seat = (1 + index) % 4
    draws = junk[:index] + [T.kind("5z")]
    g = scripted_game(V, {seat: hand}, draws=draws, options={"zhuama": 6})
    while not (g.phase == "turn" and g.current == seat and g.wall.remaining == left):
        s = g.to_act()[0]
        g.apply(s, PASS if g.phase != "turn" else f"discard {T.NOTATION[g.drawn]}")
    assert g.drawn == T.kind("5z")
    tail = g.wall.tiles[g.wall.head : g.wall.tail]
    g.apply(seat, HU)
    assert g.horses == tail and len(g.horses) == left
    per = 4 * (1 + sum(t in HITS for t in tail))  # 碰碰胡 门清自摸 4 × (1 + hits)
    assert g.scores[seat] == 3 * per and all(g.scores[s] == -per for s in range(4) if s != seat)
    assert g.tiles_in_play() == Counter(v.tile_kinds(g.opts))


def test_no_horses_on_liuju():
    g = game({}, options={"zhuama": 6})
    play_out(g)
    assert g.exhausted and g.horses == []


# ---- 捞杠 and 抢杠胡 ---------------------------------------------------------------------------
LAOGANG_HANDS = {0: "5m", 1: "55m123p456p789s1z2z", 3: "46m123p456p789s11z"}


def test_without_laogang_a_pung_is_never_ganged():
    g = game(LAOGANG_HANDS, draws="9m8m7m5m")
    drive(g, [(0, "discard 5m"), (1, "peng"), (1, "discard 2z")])
    drive(g, [(2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri")])
    advance_to_turn(g, 1)
    assert g.drawn == T.kind("5m") and "gang 5m" not in legal(g, 1)


def test_laogang_robbing():
    g = game(LAOGANG_HANDS, draws="9m8m7m5m", options={"laogang": True})
    drive(g, [(0, "discard 5m"), (1, "peng"), (1, "discard 2z")])
    drive(g, [(2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri"), (1, "gang 5m"), (3, "hu")])
    assert ids(g, 3) == [["pinghu", "qiangganghu"]]
    assert g.scores == [0, -7, 0, 7]  # the robbed 补杠 scores nothing
    assert g.next_dealer == 3


def test_laogang_bugang_scores_as_minggang_from_the_pungs_discarder():
    g = game(LAOGANG_HANDS, draws="9m8m7m5m", replacements="9p", options={"laogang": True})
    drive(g, [(0, "discard 5m"), (1, "peng"), (1, "discard 2z")])
    drive(g, [(2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri"), (1, "gang 5m")])
    play_out(g)
    assert paid(g, "bugang") == [(0, 1, 1, "bugang")]


def test_bugang_shanghua_reads_as_angang_shanghua():
    g = game(
        {0: "5m", 1: "55m123p456p789s1z2z"},
        draws="9m8m7m5m",
        replacements="1z",
        options={"laogang": True},
    )
    drive(g, [(0, "discard 5m"), (1, "peng"), (1, "discard 2z")])
    drive(g, [(2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri"), (1, "gang 5m"), (1, "hu")])
    assert ids(g, 1) == [["pinghu", "angang_shanghua"]]
    assert paid(g, "bugang") == []
    assert g.scores == [-3, 9, -3, -3]


# ---- gang chains and 点杠上花 -----------------------------------------------------------------
def test_gang_chain_only_the_last_gang_is_unscored():
    g = game({0: "9m", 2: "222m333m444s555z6z"}, draws="1s2m", replacements="3m6z")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "gang 2m"), (2, "gang 3m"), (2, "hu")])
    assert ids(g, 2) == [["pengpenghu", "angang_shanghua_menqing"]]
    assert sorted(paid(g, "angang")) == [
        (0, 2, 1, "angang"),
        (1, 2, 1, "angang"),
        (3, 2, 1, "angang"),
    ]
    assert g.scores == [-13, -13, 39, -13]


def test_diangang_shanghua_paid_by_the_gangs_discarder_alone():
    g = game({0: "9m", 1: "555m123p456p789s1z", 2: "5m"}, draws="1s2s", replacements="1z")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 5m"), (1, "gang 5m"), (1, "hu")])
    assert ids(g, 1) == [["pinghu", "diangang_shanghua"]]
    assert g.scores == [0, 7, -7, 0]


def test_angang_gangshangpao():
    g = game(
        {0: "9m", 1: "5555m8s", 3: "123m456p789s79s11z"},
        draws="",
        replacements="9p",
    )
    drive(g, [(0, "discard 9m"), (1, "gang 5m"), (1, "discard 8s"), (3, "hu")])
    assert ids(g, 3) == [["pinghu", "angang_gangshangpao"]]
    assert g.scores == [0, -9, 0, 9]


# ---- 不能吃打相同及相邻 ---------------------------------------------------------------------
def test_no_chi_adjacent_forbids_x_and_x_plus_minus_3():
    # 「1234567筒吃4筒不能打1筒或7筒」
    g = game({0: "4p", 1: "123p567p9s"}, options={"no_chi_adjacent": True})
    drive(g, [(0, "discard 4p"), (1, "chi 456p")])
    outs = legal(g, 1)
    assert not {"discard 1p", "discard 4p", "discard 7p"} & set(outs)
    assert "discard 2p" in outs and "discard 9s" in outs
    # 「1234筒，吃1筒不能打4筒」
    g = game({0: "1p", 1: "234p9s"}, options={"no_chi_adjacent": True})
    drive(g, [(0, "discard 1p"), (1, "chi 123p")])
    assert "discard 4p" not in legal(g, 1) and "discard 1p" not in legal(g, 1)


def test_no_chi_adjacent_offers_no_chi_that_leaves_no_discard():
    g = game({0: "4p", 1: "56p1111p444p7777p"}, options={"no_chi_adjacent": True})
    drive(g, [(0, "discard 4p")])
    assert "chi 456p" not in legal(g, 1) and "peng" in legal(g, 1)
    g = game({0: "4p", 1: "56p1111p444p777p9s"}, options={"no_chi_adjacent": True})
    drive(g, [(0, "discard 4p"), (1, "chi 456p")])
    assert [a for a in legal(g, 1) if a.startswith("discard")] == ["discard 9s"]


# ---- 过手胡 / 过手碰 ---------------------------------------------------------------------------
def test_pass_hu_and_pass_peng_until_own_next_action():
    g = game(
        {0: "9m", 1: "111m222p333s777z5z", 2: "5z", 3: "5z"},
        draws="1s2s3s4s5z",
    )
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 5z")])
    assert HU in g.legal_actions(1)
    g.apply(1, PASS)
    drive(g, [(3, "discard 5z")])
    assert 1 not in g.to_act() or HU not in g.legal_actions(1)  # 过手胡
    advance_to_turn(g, 1)
    assert g.drawn == T.kind("5z") and HU in g.legal_actions(1)  # self-draw unaffected
    # 过手碰: S passes a peng on W's 7z; N's 7z before S acts again is not offered
    g = game({0: "9m", 1: "111m222p333s77z5z9s", 2: "7z", 3: "7z"}, draws="1s2s3s")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 7z")])
    assert PENG in g.legal_actions(1)
    g.apply(1, PASS)
    drive(g, [(3, "discard 7z")])
    assert 1 not in g.to_act() or PENG not in g.legal_actions(1)


# ---- dealer (Match) and 坐马 -------------------------------------------------------------------
def test_match_dealer_rules_and_zuoma_choice():
    m = Match(V, options={"zuoma": True}, seed=3)
    g = m.new_hand()
    assert g.phase == "choose" and legal(g, 0) == ["choose zuoma 0", "choose zuoma 1"]
    # 「开局前每人均可选择是否坐马」: chosen before the tiles are dealt
    assert g.seats[0].tile_count() == 0 and g.wall.remaining == 136
    for s in range(4):
        g.apply(s, f"choose zuoma {s % 2}")
    assert g.view(0)["seats"][3]["choices"] == {"zuoma": 1}
    play_out(g)
    assert g.exhausted and m.new_hand().dealer == g.dealer  # 流局: the dealer stays


def test_single_winner_deals_next():
    g = game({0: "9m", 1: "111m222p333s777z5z", 2: "5z"}, draws="8m1s")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "discard 5z"), (1, "hu")])
    assert g.next_dealer == 1 and g.next_carry() == {}


# ---- the calculator ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "ctx, options, expect_ids, points",
    [
        # L-e2: 清一色 大吊车 点炮 = 6 × 2
        (
            {
                "concealed": "55p",
                "win_tile": "5p",
                "melds": ["peng 1p", "peng 2p", "peng 3p", "peng 4p"],
            },
            {},
            ["dadiaoche", "qingyise", "dianpao"],
            12,
        ),
        # L-e4 without horses: 门清 清一色 自摸 = 4
        (
            {"concealed": "11123456799955m", "win_tile": "5m", "how": "self_draw"},
            {},
            ["qingyise", "menqing_zimo"],
            4,
        ),
        # L-e10: 暗杠上花 + 门清, 碰碰胡 = 12
        (
            {
                "concealed": "333p444s555z66z",
                "win_tile": "6z",
                "how": "self_draw",
                "melds": ["angang 2m"],
                "gang_chain": 1,
                "flags": ["after_angang"],
            },
            {},
            ["pengpenghu", "angang_shanghua_menqing"],
            12,
        ),
        # 大吊车 of four 暗杠 self-drawn: the blank 门清 cell reads the 自摸 column
        (
            {
                "concealed": "77z",
                "win_tile": "7z",
                "how": "self_draw",
                "melds": ["angang 1m", "angang 2p", "angang 3s", "angang 4z"],
            },
            {},
            ["dadiaoche", "menqing_zimo"],
            4,
        ),
        # 超豪华七对 清一色 暗杠杠上炮: 108 × 2
        (
            {
                "concealed": "11112222335566p",
                "win_tile": "6p",
                "after_gang": 1,
                "flags": ["after_angang"],
            },
            {},
            ["chaohaohua_qidui", "qingyise", "angang_gangshangpao"],
            216,
        ),
        # 小吊车 清一色 抢杠胡: 21 × 2
        (
            {
                "concealed": "99s",
                "win_tile": "9s",
                "how": "rob_gang",
                "melds": ["chi 123s", "peng 5s", "chi 678s", "peng 4s"],
            },
            {"laogang": True},
            ["xiaodiaoche", "qingyise", "qiangganghu"],
            42,
        ),
        # a hand both 平胡 and 七对 reads as the larger (七对 3)
        (
            {"concealed": "11223344556677m", "win_tile": "7m"},
            {},
            ["qidui", "qingyise", "dianpao"],
            6,
        ),
    ],
)
def test_calculator(ctx, options, expect_ids, points):
    bd = get_variant(V).calculate(ctx, options)
    assert bd is not None and bd.ids == expect_ids and bd.points == points
    assert "T[" in bd.formula  # the table cell is shown


@pytest.mark.parametrize(
    "ctx, options, field",
    [
        (
            {
                "concealed": "123m456p789s22p",
                "win_tile": "2p",
                "melds": ["angang 1z"],
                "how": "self_draw",
                "gang_chain": 1,
            },
            {},
            "flags",
        ),
        (
            {"concealed": "123m456p789s111z22p", "win_tile": "2p", "flags": ["after_angang"]},
            {},
            "flags",
        ),
        ({"concealed": "123m456p789s11z", "win_tile": "1z", "melds": ["bugang 5m"]}, {}, "bugang"),
        ({"concealed": "123m456p789s111z22p", "win_tile": "2p", "how": "rob_gang"}, {}, "laogang"),
        ({"concealed": "123m456p789s11z", "win_tile": "1z"}, {}, "14"),
        (
            {
                "concealed": "123m456p789s11z",
                "win_tile": "1z",
                "how": "self_draw",
                "gang_chain": 1,
                "melds": ["peng 5m"],
                "flags": ["after_zhigang"],
            },
            {},
            "gang",
        ),
        ({"concealed": "123m456p789s111z2p", "win_tile": "2p", "jokers": 1}, {}, "joker"),
    ],
)
def test_calculator_rejects_impossible_descriptions(ctx, options, field):
    with pytest.raises(InvalidHandError, match=field):
        get_variant(V).calculate(ctx, options)


def test_calculator_not_a_win():
    assert get_variant(V).calculate({"concealed": "123m456p789s123z22p", "win_tile": "2p"}) is None


def test_table_is_the_literal_figure():
    assert TABLE["pinghu"] == (1, 1, 2, 7, 3, 6, 7, 9, 7)
    assert TABLE["chaohaohua_qidui"] == (12, 8, 16, None, None, None, 84, 108, 84)
    assert TABLE["dadiaoche"][2] is None and TABLE["xiaodiaoche"][5] is None


def test_score_cli():
    args = ["score", "-v", "lipu", "55p", "-w", "5p"]
    for m in ("peng 1p", "peng 2p", "peng 3p", "peng 4p"):
        args += ["-m", m]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0 and "大吊车" in out.output and "points per payer: 12" in out.output
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert data["points"] == 12 and data["patterns"][-1]["id"] == "dianpao"
    bad = CliRunner().invoke(main, ["score", "-v", "lipu", "123m456p789s11z", "-w", "1z"])
    assert bad.exit_code != 0 and "14" in bad.output


def test_simulate_cli_reports_lipu_counters():
    out = CliRunner().invoke(
        main, ["simulate", "-v", "lipu", "-n", "20", "--no-progress", "-o", "zhuama=2", "--json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    counters = data["hand_counters"]
    # one horse draw per won hand (none when the wall is already empty), at most 2 tiles each
    assert 0 < counters["horse_draws"] <= data["games"] - data["draws"]
    assert counters["horse_draws"] <= counters["horse_tiles"] <= 2 * counters["horse_draws"]
    assert {"hands_with_sanbi", "hands_with_sealed", "horse_hits"} <= set(counters)


def test_multi_rob_next_dealer_is_the_robbed_seat():
    hands = {**LAOGANG_HANDS, 2: "46m123p456p789s11z", 3: "34m123p456p789s22z"}
    g = game(hands, draws="9m8m7m5m", options={"laogang": True})
    drive(g, [(0, "discard 5m"), (1, "peng"), (1, "discard 2z")])
    drive(g, [(2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri"), (1, "gang 5m")])
    drive(g, [(2, "hu"), (3, "hu")])
    assert ids(g, 2) == [["pinghu", "qiangganghu"]] and ids(g, 3) == [["pinghu", "qiangganghu"]]
    assert g.scores == [0, -14, 7, 7]
    assert g.next_dealer == 1


def test_three_players_self_draw_paid_by_two_seats():
    g = scripted_game(V, {1: "111m222p333s777z5z"}, draws="5z", players=3)
    drive(g, [(0, "tsumogiri"), (1, "hu")])
    assert ids(g, 1) == [["pengpenghu", "menqing_zimo"]]
    assert g.scores == [-4, 8, -4]


def test_two_players_zuoma_and_horses():
    g = scripted_game(
        V,
        {1: "111m222p333s777z5z"},
        draws="5z9m2m",
        players=2,
        options={"zuoma": True, "zhuama": 2},
    )
    g.apply(0, "choose zuoma 1")
    g.apply(1, "choose zuoma 1")
    drive(g, [(0, "tsumogiri"), (1, "hu")])
    assert g.horses == T.to_kinds("9m2m")  # one hit
    assert g.scores == [-32, 32]  # 4 × base 4 (对马) × (1 + 1)


# ---- readings written down in RULES V2.7: L21, L22, L23 --------------------------------------
def test_chi_ban_holds_through_a_gang_and_its_replacement():
    """[DEC L21] 不能吃打相同及相邻: S chis 4p (banning 1p 4p 7p) and makes an 暗杠 of 7z; its
    replacement 9m leaves a legal discard, so the ban still holds for the turn's discard."""
    opts = {"no_chi_adjacent": True}
    g = scripted_game(
        V,
        {0: "2m2m5m5m8m8m4p1z2z3z4z5z6z9s", 1: "56p7777z11p44p777p"},
        draws="2m5m8m",
        replacements="9m",
        players=2,
        options=opts,
    )
    for seat, action in [
        (0, "discard 1z"), (1, "discard 2m"), (0, "peng"), (0, "discard 2z"),
        (1, "discard 5m"), (0, "peng"), (0, "discard 3z"), (1, "discard 8m"), (0, "peng"),
        (0, "discard 4p"), (1, "chi 456p"), (1, "gang 7z"),
    ]:  # fmt: skip
        g.apply(seat, action)
    assert g.current == 1 and g.drawn == T.kind("9m")
    assert legal(g, 1) == ["discard 9m"]  # 1p, 4p and 7p are still banned after the gang


# S chis three of E's discards (互包 S–E) and W chis three of S's (互包 W–S): S has two
# partners, and 3 chis seal nobody. S is left with 78m 77z (waits 6m/9m), N holds a 6m.
TWO_PARTNER_HANDS = {0: "1m4p1s", 1: "23m56p23s9s9p4m77z78m", 2: "78s78p56m1z2z3z", 3: "6m"}
TWO_PARTNER_STEPS = [
    (0, "discard 1m"), (1, "chi 123m"), (1, "discard 9s"), (2, "chi 789s"), (2, "discard 1z"),
    (3, "tsumogiri"), (0, "discard 4p"), (1, "chi 456p"), (1, "discard 9p"), (2, "chi 789p"),
    (2, "discard 2z"), (3, "tsumogiri"), (0, "discard 1s"), (1, "chi 123s"), (1, "discard 4m"),
    (2, "chi 456m"), (2, "discard 3z"),
]  # fmt: skip


def _two_partners(draws: str):
    g = game(TWO_PARTNER_HANDS, draws="2p8p2p8p3z" + draws)
    drive(g, TWO_PARTNER_STEPS)
    assert g.liabilities == [(0, 1), (1, 2)] and not any(st.sealed for st in g.seats)
    return g


def test_two_partners_each_pay_peisha():
    """[DEC L22] 陪杀 with two 互包 partners: N discards S's 6m; N pays 1, and each partner (E
    and W) pays its own hu(S, partner) again."""
    g = _two_partners("")
    drive(g, [(3, "discard 6m"), (1, "hu")])
    assert ids(g, 1) == [["pinghu", "dianpao"]]
    assert sorted(paid(g)) == [
        (0, 1, 1, "pinghu+dianpao+peisha"),
        (2, 1, 1, "pinghu+dianpao+peisha"),
        (3, 1, 1, "pinghu+dianpao"),
    ]
    assert g.scores == [-1, 3, -1, -1]


def test_two_partners_quanbao_first_partner_after_the_winner_covers_the_rest():
    """[DEC L22] 全包 with two partners: S self-draws 6m. Each partner pays its own share; W,
    the first partner after S in play order (not E, the lower seat number), also pays N's."""
    g = _two_partners("4z6m")
    drive(g, [(3, "tsumogiri"), (0, "tsumogiri"), (1, "hu")])
    assert ids(g, 1) == [["pinghu", "zimo"]]
    assert sorted(paid(g)) == [
        (0, 1, 1, "pinghu+zimo"),
        (2, 1, 1, "pinghu+zimo"),
        (2, 1, 1, "pinghu+zimo+quanbao"),
    ]
    assert g.scores == [-1, 3, -2, 0]


@pytest.mark.parametrize(
    "ctx, column_id, points, formula",
    [
        (
            {"how": "self_draw"},
            "menqing_zimo",
            4,
            "T[大吊车][自摸] = 4",
        ),
        (
            {"how": "self_draw", "gang_chain": 1, "flags": ["after_angang"]},
            "angang_shanghua_menqing",
            12,
            "T[大吊车][暗杠上花] = 12",
        ),
    ],
)
def test_dadiaoche_of_four_angang_names_the_cell_it_reads(ctx, column_id, points, formula):
    """[DEC L23] a 大吊车 of four 暗杠 is 门清, but the table's 门清 cells of 大吊车 are blank: it
    reads the plain 自摸 / 暗杠上花 column, and the breakdown names that cell."""
    melds = ["angang 1m", "angang 2p", "angang 3s", "angang 4z"]
    bd = get_variant(V).calculate({"concealed": "77z", "win_tile": "7z", "melds": melds, **ctx})
    assert bd.ids == ["dadiaoche", column_id] and bd.points == points
    assert bd.formula == formula
    assert "+门清]" not in bd.formula and "[门清自摸]" not in bd.formula


def test_dadiaoche_of_four_angang_played_through_the_engine():
    """[DEC L23] E (dealer) makes four 暗杠 in its first turn; the fourth replacement 7z
    completes 大吊车: T[大吊车][暗杠上花] = 12 from each seat, plus 1 from each seat for each of
    the first three 暗杠 (the last one, whose replacement won, scores 0)."""
    g = game({0: "1111m2222p3333s7z4z"}, replacements="4z4z4z7z")
    drive(g, [(0, "gang 1m"), (0, "gang 2p"), (0, "gang 3s"), (0, "gang 4z"), (0, "hu")])
    bd = g.wins[0].breakdown
    assert bd.ids == ["dadiaoche", "angang_shanghua_menqing"] and bd.points == 12
    assert bd.formula == "T[大吊车][暗杠上花] = 12"
    assert len(paid(g, "angang")) == 9
    assert g.scores == [45, -15, -15, -15]
