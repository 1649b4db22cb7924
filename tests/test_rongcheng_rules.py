"""RULES.md V5 荣成麻将: odd situations played through the engine (宝 replaced twice, a hidden
宝 won in 分张, 存牌, a 明搂 hand robbed, the cap over two winners, locked hands, 长跑 …),
the views each declaration gives, and the hand calculator (API, JSON, ``mjcore score``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from scenario import drive, settle
from test_rongcheng_examples import _place, game, hits, legal

from mjcore import tiles as T
from mjcore.cli import main
from mjcore.engine.actions import PASS
from mjcore.engine.match import Match
from mjcore.engine.wall import build_wall
from mjcore.errors import IllegalActionError, InvalidHandError, InvalidOptionError
from mjcore.variants import get_variant

V = "rongcheng"
RV = get_variant(V)


def tsumogiri_until(g, stop):
    """Every turn discards its drawn tile, every claim passes, until ``stop(g)``."""
    while not g.is_over and not stop(g):
        seat = g.to_act()[0]
        if g.phase != "turn":
            g.apply(seat, PASS)
        else:
            acts = g.legal_actions(seat)
            g.apply(seat, next(a for a in acts if a.kind == "discard" and a.tile == g.drawn))


# ---- the 宝 -------------------------------------------------------------------------
def test_bao_replaced_twice_then_fixed():
    """At the reveal 9m and then 8m have their other three copies in the rivers: 换宝 twice."""
    hands = {0: "123m456p789s55p23s1z", 1: "9m8m", 2: "9m8m", 3: "9m8m"}
    g = game(hands, draws="1z2z3z4z5z6z1z2z3z4z5z6z", replacements="9m8m7z")
    drive(g, [(0, "discard 1z"), (1, "discard 9m"), (2, "discard 9m"), (3, "discard 9m")])
    drive(g, [(0, "tsumogiri"), (1, "discard 8m"), (2, "discard 8m"), (3, "discard 8m")])
    drive(g, [(0, "declare baoting"), (0, "tsumogiri")])
    assert g.hidden_indicators == [T.kind("9m")] and g.indicators == []
    assert all(g.view(s)["public"]["bao"] == "hidden" for s in range(4))
    drive(g, [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri")])
    drive(g, [(0, "tsumogiri")])  # E's next turn turned the 宝 up, then replaced it twice
    assert g.indicators == T.parse("9m8m7z") and g.extra["joker_kind"] == T.kind("7z")
    assert [e.get("replaces") for e in g.events if e["type"] == "bao"] == [None, "9m", "8m"]
    assert g.view(2)["public"]["bao"] == "7z"
    drive(g, [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri")])
    assert g.indicators == T.parse("9m8m7z")  # 「翻开以后本局不会再更换宝牌」


def test_hidden_bao_acts_in_fenzhang():
    """S declares on the last live draw (the first 听: the 宝 is taken face down); before its
    next turn the 分张 round gives it a tile of the still hidden 宝 kind: 摸宝 [DEC R25]."""
    tiles = RV.tile_kinds(RV.parse_options(None))
    wall = build_wall(tiles, 4, hands={1: "123m456p789s55p12s"}, replacements="3m")
    # the 65th (last live) draw is S's, at 117; 分张: W 118, N 119, E 120, S 121
    for index, kind in ((117, "1z"), (121, "3m")):
        wall = _place(wall, index, T.kind(kind), keep=set(range(14, 27)) | {117, 121, 135})
    for i in range(53, 117):  # no 3s before, or S would win on it (its waits: 3s)
        if wall[i] == T.kind("3s"):
            wall = _place(wall, i, T.kind("1z"), keep=set(range(14, 27)) | {117, 121, 135})
    g = game({}, wall=wall)
    tsumogiri_until(g, lambda g: g.current == 1 and g.haidi and g.phase == "turn")
    drive(g, [(1, "declare baoting"), (1, "discard 1z")])
    tsumogiri_until(g, lambda g: g.phase == "fenzhang" and 1 in g.to_act())
    assert g.view(0)["public"]["bao"] == "hidden" and g.hidden_indicators == [T.kind("3m")]
    assert "3m" not in json.dumps(g.view(0)["public"])
    drive(g, [(1, "hu")])
    assert g.wins[0].how == "fenzhang"
    assert len(g.set_aside) == 3  # W's, N's and E's 分张 tiles did not win: set aside
    assert hits(g, 1) == [["mobao", "pihu"]]  # 3m is no natural wait: no 宝中宝, no 海底
    assert g.scores == [-2, 6, -2, -2]
    assert g.view(0)["public"]["bao"] == "3m"  # the hand is over: everything is shown


@pytest.mark.parametrize(
    ("mode", "expect", "points"),
    [
        ("best", ["baozhongbao", "gang", "mobao", "pihu"], 6),
        ("cunpai", ["baozhongbao", "gang", "mobao", "pihu"], 6),
        ("gangkai", ["gang", "gangshanghua", "pihu"], 4),
    ],
)
def test_cunpai_gang_replacement_is_the_bao(mode, expect, points):
    """E's 暗杠 replacement is the 宝 6s, which also completes the hand as itself [DEC R5]."""
    g = game(
        {0: "123m456p55p78s111z2z"},
        draws="1s2s3s1z",
        replacements="6s6s",
        options={"cunpai_mode": mode},
    )
    drive(g, [(0, "declare baoting"), (0, "discard 2z")])
    drive(g, [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri")])
    assert "gang 1z" in legal(g, 0)  # the waits stay 6s/9s
    drive(g, [(0, "gang 1z")])
    assert legal(g, 0) == ["hu", "discard 6s", "declare cunpai", "declare gangkai"]
    drive(g, [(0, "hu")])
    assert hits(g, 0) == [expect]
    assert g.scores == [3 * points, -points, -points, -points]


@pytest.mark.parametrize(
    ("choice", "expect"),
    [
        ("cunpai", ["baozhongbao", "gang", "mobao", "pihu"]),
        ("gangkai", ["gang", "gangshanghua", "pihu"]),
    ],
)
def test_cunpai_is_the_seats_choice(choice, expect):
    g = game({0: "123m456p55p78s111z2z"}, draws="1s2s3s1z", replacements="6s6s")
    drive(g, [(0, "declare baoting"), (0, "discard 2z")])
    drive(g, [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri"), (0, "gang 1z")])
    drive(g, [(0, f"declare {choice}")])
    assert legal(g, 0) == ["hu"] and g.seats[0].declared == "baoting"
    drive(g, [(0, "hu")])
    assert hits(g, 0) == [expect]
    ctx = {
        "concealed": "123m456p55p78s",
        "win_tile": "6s",
        "how": "self_draw",
        "jokers": 1,
        "joker_kind": "6s",
        "melds": ["angang 1z"],
        "gang_chain": 1,
        "flags": [choice],
    }
    assert sorted(calc(ctx).ids) == expect


def test_bao_in_hand_or_discarded_is_an_ordinary_tile():
    """Only a drawn 宝 is a wildcard: a declared seat cannot win on a discarded 宝 tile."""
    g = game({1: "123m456p789s55p12m", 2: "6s"}, draws="1z2z", replacements="6s")
    drive(g, [(0, "tsumogiri"), (1, "declare baoting"), (1, "tsumogiri")])
    drive(g, [(2, "discard 6s")])
    assert g.phase == "turn" and g.current == 3  # nobody could win on it


# ---- declarations, locks, views ---------------------------------------------------
def test_views_of_each_declaration():
    hands = {
        0: "123m456m789m55p78p1z",
        1: "123p456s789p55s23s",
        2: "234m456s789s55p33z",
    }
    g = game(hands, draws="1z2z3z", replacements="7z")
    drive(g, [(0, "declare minglou"), (0, "discard 1z"), (1, "declare liangting")])
    drive(g, [(1, "tsumogiri"), (2, "declare baoting"), (2, "tsumogiri")])
    pub = g.view(3)["public"]
    assert pub["ting"][0] == {"declared": "minglou", "hand": "123456789m5578p"}
    assert pub["ting"][1] == {"declared": "liangting", "waits": "147s"}
    assert pub["ting"][2] == {"declared": "baoting"}
    assert pub["ting"][3] is None
    assert [s["declared"] for s in g.view(3)["seats"]] == ["minglou", "liangting", "baoting", ""]
    assert pub["bao"] == "hidden"


def test_declaring_needs_a_ready_hand_and_locks_it():
    g = game({0: "1359m2468p1357s1z"})
    assert not any(a.startswith("declare") for a in legal(g, 0))
    before = g.to_json()
    with pytest.raises(IllegalActionError):
        g.apply(0, "declare baoting")
    assert g.to_json() == before
    g = game({0: "123m456p789s55p23s1z", 1: "1s4s"}, draws="9m", replacements="7z")
    drive(g, [(0, "declare baoting")])
    assert legal(g, 0) == ["discard 1z"]  # the discard must leave the hand ready
    drive(g, [(0, "discard 1z")])
    drive(g, [(1, "discard 1s")])
    assert legal(g, 0) == ["hu", "pass"]  # a locked hand claims nothing but a win
    drive(g, [(0, "pass")])
    drive(g, [(2, "tsumogiri"), (3, "tsumogiri")])
    settle(g)
    assert g.phase == "turn" and g.current == 0
    assert legal(g, 0) == [f"discard {T.format([g.drawn])}"]  # draws and discards


def test_locked_gang_only_when_waits_stay():
    # 555m6m: waits 4m/7m; a 暗杠 of 5m would leave 6m single (no 258 pair): refused
    g = game({0: "5556m456p789s22s2s1z"}, draws="1s2s3s5m", replacements="7z")
    drive(g, [(0, "declare baoting"), (0, "discard 1z")])
    drive(g, [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri")])
    assert legal(g, 0) == ["discard 5m"]
    # 1112m345m: waits 2m/5m with or without the 1m: the 暗杠 is offered and keeps them
    g = game({0: "1112m345m789p55s5s1z"}, draws="1s2s3s1m", replacements="7z6z")
    drive(g, [(0, "declare liangting"), (0, "discard 1z")])
    drive(g, [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri")])
    assert legal(g, 0) == ["gang 1m", "discard 1m"]
    drive(g, [(0, "gang 1m")])
    assert g.view(1)["public"]["ting"][0]["waits"] == "25m"


def test_undeclared_seat_cannot_win():
    g = game({1: "123m456p789s55p23s", 2: "4s"}, draws="9m8m")
    drive(g, [(0, "tsumogiri"), (1, "tsumogiri"), (2, "discard 4s")])
    assert g.phase == "turn" and g.current == 3  # S was not asked: no 听, not 地胡


def test_self_draw_only():
    g = game(
        {0: "1z", 1: "123m456p789s55p23s", 2: "4s"},
        draws="9m8m",
        replacements="7z",
        options={"self_draw_only": True},
    )
    drive(g, [(0, "discard 1z"), (1, "declare baoting"), (1, "tsumogiri"), (2, "discard 4s")])
    assert g.phase == "turn" and g.current == 3


@pytest.mark.parametrize("peng_only", [False, True])
def test_peng_only(peng_only):
    g = game({0: "3m", 1: "12m"}, options={"peng_only": peng_only})
    drive(g, [(0, "discard 3m")])
    assert ("chi 123m" in legal(g, 1)) is not peng_only


def test_multi_win_off_first_in_play_order():
    hands = {
        1: "19m1p19s1234567z1m",
        2: "234m567m345s55s78s",
        3: "111p555p777p99p22p",
    }
    g = game(hands, draws="2m3m4m5m6m9p", replacements="8m")
    drive(g, [(0, "tsumogiri"), (1, "declare baoting"), (1, "tsumogiri")])
    drive(g, [(2, "declare minglou"), (2, "tsumogiri"), (3, "declare baoting"), (3, "tsumogiri")])
    drive(g, [(0, "tsumogiri"), (1, "tsumogiri"), (2, "tsumogiri"), (1, "hu"), (3, "hu")])
    assert [w.seat for w in g.wins] == [3]  # N is first after the discarder W
    assert g.scores == [0, 0, -8, 8]


def test_cap_over_two_winners_in_play_order():
    """一炮多响: S 十三幺 明搂 (10·2·2 = 40) and N (4·2 = 8) on W's 明搂 discard: W pays N
    first (play order from its 下家) and S what is left of 32 [DEC R13]."""
    hands = {
        1: "19m1p19s1234567z1m",
        2: "234m567m345s55s78s",
        3: "111p555p777p99p22p",
    }
    g = game(hands, draws="2m3m4m5m6m9p", replacements="8m", options={"multi_win": True})
    drive(g, [(0, "tsumogiri"), (1, "declare minglou"), (1, "tsumogiri")])
    drive(g, [(2, "declare minglou"), (2, "tsumogiri"), (3, "declare baoting"), (3, "tsumogiri")])
    drive(g, [(0, "tsumogiri"), (1, "tsumogiri"), (2, "tsumogiri"), (1, "hu"), (3, "hu")])
    assert [(p.payer, p.payee, p.amount) for p in g.settlement] == [(2, 3, 8), (2, 1, 24)]
    assert g.settlement[1].reason.endswith("+cap")
    assert g.scores == [0, 24, -32, 8]
    assert [w.payments for w in g.wins][1][0].amount == 24


def test_minglou_hand_robbed():
    """W (明搂) upgrades its 6s peng; N robs it: 抢杠胡 counts as 点炮, W's 明搂 doubles it."""
    hands = {0: "6s", 2: "66s123m456m789p5s1z", 3: "123m456p789m55p78s"}
    g = game(hands, draws="2z3z4z6s", replacements="7z")
    drive(g, [(0, "discard 6s"), (2, "peng"), (2, "declare minglou"), (2, "discard 1z")])
    drive(g, [(3, "declare baoting"), (3, "tsumogiri"), (0, "tsumogiri"), (1, "tsumogiri")])
    assert "gang 6s" in legal(g, 2)  # 补杠 keeps the 5s wait
    drive(g, [(2, "gang 6s"), (3, "hu")])
    win = g.wins[0]
    assert (win.seat, win.how, win.from_seat) == (3, "rob_gang", 2)
    assert [m.kind for m in g.seats[2].melds] == ["peng"]  # the 补杠 never completed
    assert g.scores == [0, 0, -2, 2]


def test_no_huangzhuang_four_gangs_play_on():
    g = game(
        {0: "1111m2222m3333m", 1: "4444p"},
        draws="5z",
        replacements="1z2z3z4z",
        options={"no_huangzhuang": True},
    )
    assert g.wall.kept == 0
    drive(g, [(0, "gang 1m"), (0, "gang 2m"), (0, "gang 3m"), (0, "tsumogiri"), (1, "gang 4p")])
    assert not g.is_over and g.phase == "turn" and g.current == 1


def test_no_huangzhuang_bao_from_live_tail_and_reserve():
    g = game({0: "123m456p789s55p23s1z"}, replacements="7z", options={"no_huangzhuang": True})
    live = g.wall.live
    drive(g, [(0, "declare baoting")])
    assert g.wall.live == live - 1 and g.hidden_indicators == [T.kind("7z")]  # [DEC R24]


# ---- dealer, 飘 and 长跑 across a Match ---------------------------------------------
def test_dealer_rules():
    g = game({1: "123m456p789s55p23s", 0: "4s"})
    drive(g, [(0, "discard 4s"), (1, "hu")])
    assert g.next_dealer == 1  # a non-dealer won
    g = game({0: "19m19p19s1234567z1m"})
    drive(g, [(0, "hu")])
    assert g.next_dealer == 0  # the dealer won
    g = game({})
    tsumogiri_until(g, lambda g: False)
    assert g.exhausted and g.next_dealer == 0  # 无杠荒牌 连庄


def test_changpao_locks_piao_for_the_match():
    m = Match(V, seed=3)
    g = m.new_hand()
    for seat, choice in enumerate(["piao 1", "changpao 2", "piao 0", "piao 2"]):
        g.apply(seat, f"choose {choice}")
    assert [st.choices["piao"] for st in g.seats] == [1, 2, 0, 2]
    tsumogiri_until(g, lambda g: False)
    assert g.next_carry()["locked_choices"] == [{}, {"piao": 2}, {}, {}]
    g2 = m.new_hand()
    assert g2.phase == "choose" and 1 not in g2.to_act()
    assert g2.seats[1].choices == {"piao": 2}
    for seat in (0, 2, 3):
        g2.apply(seat, "choose piao 0")
    assert g2.phase == "turn" and g2.seats[1].choices["piao"] == 2
    back = Match.from_json(m.to_json())
    assert back.hands[1].seats[1].choices == {"piao": 2} and back.to_json() == m.to_json()


def test_bad_carry_is_rejected():
    for bad in ([{}], [{}, {}, {}, 3], [{}, {}, {}, {"piao": "2"}], {"0": {}}):
        with pytest.raises(InvalidOptionError, match="locked_choices"):
            RV.new_game(seed=1, carry={"locked_choices": bad})


# ---- the hand calculator --------------------------------------------------------------
def calc(win, **options):
    return RV.calculate(win, options)


def test_calculator_mobao_baozhongbao_json():
    win = {
        "concealed": "123m456p789m55p78s",
        "win_tile": "6s",
        "how": "self_draw",
        "jokers": 1,
        "joker_kind": "6s",
    }
    bd = calc(win)
    assert sorted(bd.ids) == ["baozhongbao", "mobao", "pihu"] and bd.points == 4
    bd = calc(json.dumps({**win, "concealed": "123m456p789s55p12m"}))
    assert sorted(bd.ids) == ["mobao", "pihu"] and bd.points == 2


def test_calculator_minglou_either_side_piao_and_gangs():
    base = {"concealed": "123p456s789p55s234s", "win_tile": "4s"}
    assert calc({**base, "flags": ["minglou"]}).points == 2
    assert calc({**base, "flags": ["payer_minglou"]}).points == 2
    assert calc({**base, "flags": ["minglou", "payer_minglou"]}).points == 4
    bd = calc(
        {
            **base,
            "concealed": "234s55s67p5p",
            "win_tile": "5p",
            "melds": ["angang 1m", "zhigang 9p"],
            "flags": ["piao2", "payer_piao1"],
        }
    )
    assert bd.points == 1 + 3 + 3 and bd.formula == "1 + 3 + 3 = 7"


def test_calculator_cap_and_shapes():
    bd = calc(
        {
            "concealed": "19m19p19s1234567z1m",
            "win_tile": "1m",
            "how": "self_draw",
            "flags": ["tianhu"],
        }
    )
    assert bd.points == 32 and bd.formula.endswith("= 100 → 32 (封顶)")
    qidadui = {"concealed": "1111m2233p5566s77s", "win_tile": "1m"}
    assert calc(qidadui).ids == ["qidadui"]
    assert calc({**qidadui, "win_tile": "2p"}).ids == ["qidui"]  # the quad was not the win
    assert calc({"concealed": "1111m2222m33p55s77s", "win_tile": "2m"}).ids == ["haohua_qidadui"]
    assert calc({"concealed": "234m567m345s789s33p", "win_tile": "3p"}) is None  # no 掌
    assert calc({"concealed": "234m567m345s789s33p", "win_tile": "3p"}, luanzhang=True).points == 1


def test_calculator_fengyise_zhangyise_any_arrangement():
    feng = {"concealed": "12345671234566z", "win_tile": "6z", "how": "self_draw"}
    assert calc(feng).ids == ["zhijiehu", "fengyise"] and calc(feng).points == 2
    pairs = {"concealed": "11223344556677z", "win_tile": "7z"}
    assert calc(pairs).ids == ["zhijiehu", "fengyise"]  # 七对 only counts with 乱掌
    assert calc(pairs, luanzhang=True).ids == ["qidui", "fengyise"]
    zhang = {"concealed": "258m258p258s258m55s", "win_tile": "5s"}
    assert calc(zhang).ids == ["zhijiehu", "zhangyise"]
    assert calc(zhang, luanzhang=True) is None  # 乱掌: no 掌一色
    assert calc({"concealed": "222m555m888p222s55s", "win_tile": "5s"}).points == 4
    with pytest.raises(InvalidHandError, match="tiles"):
        calc(feng, no_honors=True)  # 不带风: no honors in the tile set


def test_calculator_rejects_impossible_descriptions():
    base = {"concealed": "123m456p789m55p78s", "win_tile": "6s", "joker_kind": "6s"}
    with pytest.raises(InvalidHandError, match="jokers"):
        calc({**base, "concealed": "123m456p789m55p7s", "jokers": 2, "how": "self_draw"})
    with pytest.raises(InvalidHandError, match="self_draw"):
        calc({**base, "jokers": 1, "how": "discard"})
    with pytest.raises(InvalidHandError, match="flags"):
        calc({"concealed": "123p456s789p55s234s", "win_tile": "4s", "flags": ["kouting"]})
    with pytest.raises(InvalidHandError, match="cunpai"):
        calc({**base, "jokers": 1, "how": "self_draw", "flags": ["cunpai"]})  # no gang
    with pytest.raises(InvalidHandError, match="dihu"):
        calc(
            {
                "concealed": "123p456s789p55s234s",
                "win_tile": "4s",
                "how": "self_draw",
                "flags": ["dihu"],
            }
        )


def test_score_cli_rongcheng():
    out = CliRunner().invoke(
        main,
        [
            "score",
            "-v",
            V,
            "123m456p789m55p78s",
            "-w",
            "6s",
            "--how",
            "self_draw",
            "--jokers",
            "1",
            "--joker-kind",
            "6s",
            "--flag",
            "minglou",
            "--flag",
            "payer_minglou",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["points"] == 16 and "宝中宝" in out.output
    text = CliRunner().invoke(
        main,
        [
            "score",
            "-v",
            V,
            "19m19p19s1234567z1m",
            "-w",
            "1m",
            "--how",
            "self_draw",
            "--flag",
            "tianhu",
        ],
    )
    assert "points per payer: 32" in text.output and "封顶" in text.output


# ---- bots and simulation -------------------------------------------------------------
@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_bots_declare_and_win(bots):
    """Both bots declare 听 when they may (else no bot could ever win) and reach wins."""
    from mjcore.sim import play_game

    declared = wins = mobao = 0
    for i in range(150 if bots == "random" else 12):
        g, _ = play_game(V, i, bots=bots, seed=11)
        declared += sum(bool(st.declared) for st in g.seats)
        wins += len(g.wins)
        mobao += sum("mobao" in w.breakdown.ids for w in g.wins)
        assert sum(g.scores) == 0 and all(s >= -32 for s in g.scores)
    assert declared > 0 and wins > 0
    if bots == "greedy":
        assert wins >= 8


def test_cli_simulate_rongcheng():
    out = CliRunner().invoke(
        main, ["simulate", "--variant", V, "--games", "6", "--bots", "greedy", "--json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output[out.output.index("{") :])
    assert data["games"] == 6 and data["variant"] == V


@pytest.mark.parametrize("players", [2, 3])
def test_fewer_players_fenzhang_of_n(players):
    """2–3 seats [DEC R14]: 14 kept, 分张 of ``players`` tiles, then 荒庄 with no payments."""
    g = RV.new_game(players=players, seed=5)
    for seat in range(players):
        g.apply(seat, "choose piao 0")
    dealt = 14 + 13 * (players - 1)
    assert g.wall.live == 136 - dealt - 14 and g.wall.reserve == players
    tsumogiri_until(g, lambda g: False)
    assert g.exhausted and len(g.set_aside) == players and g.scores == [0] * players


def test_no_tail_tile_left_for_the_bao():
    """不荒庄: N first declares on the last live draw; the tail holds only the 分张 tiles, so
    the hand has no 宝 [DEC R24]; N still wins with its own 分张 tile."""
    tiles = RV.tile_kinds(RV.parse_options(None))
    wall = build_wall(tiles, 4, hands={3: "123m456p789s55p12s"})
    keep = set(range(40, 53)) | {131, 135}
    for index, kind in ((131, "1z"), (135, "3s")):  # N's last live draw, N's 分张 tile
        wall = _place(wall, index, T.kind(kind), keep=keep)
    g = game({}, wall=wall, options={"no_huangzhuang": True})
    tsumogiri_until(g, lambda g: g.current == 3 and g.haidi and g.phase == "turn")
    drive(g, [(3, "declare baoting")])
    assert g.hidden_indicators == [] and g.view(0)["public"]["bao"] is None
    drive(g, [(3, "discard 1z")])
    tsumogiri_until(g, lambda g: g.phase == "fenzhang" and 3 in g.to_act())
    drive(g, [(3, "hu")])
    assert g.wins[0].how == "fenzhang" and hits(g, 3) == [["pihu"]]


def test_no_declaration_when_only_a_fifth_copy_would_complete_the_hand():
    """Greedy game 614 of seed 1: 7m456p2222s after a peng is shanten 0 only through a fifth
    2s. A declaration must not be offered there (it would leave no legal discard)."""
    from mjcore.sim import play_game

    game, _ = play_game("rongcheng", 614, bots="greedy", seed=1)
    assert game.is_over


# ---- readings written down in RULES V5.7: R24, R25 ---------------------------------------
@pytest.mark.parametrize("declare_at", [127, 123])
def test_bao_change_stops_at_the_fenzhang_tiles(declare_at):
    """[DEC R24] 不荒庄: N first declares on its draw at ``declare_at``, taking the tail tile 9p
    as the hidden 宝; the other three 9p lie in the rivers when it is turned up at N's next
    turn. Declared at 127, only the 4 分张 tiles are left then: no 换宝, the 宝 stays 9p and
    the 分张 round keeps its 4 tiles. Declared at 123, a tail tile is left: 换宝 to 5p."""
    wall = build_wall(RV.tile_kinds(RV.parse_options(None)), 4, hands={3: "123m456p789s55p12s"})
    keep = set(range(40, 53))  # N's hand (waits 3s)
    # the 宝 9p at the tail, its other copies drawn (and discarded) by S, W and E; then 5p (N
    # holds the other two, so it is never all exposed); N's declaring draw 1z
    for index, kind in ((135, "9p"), (53, "9p"), (54, "9p"), (56, "9p"), (134, "5p")):
        wall = _place(wall, index, T.kind(kind), keep=keep)
        keep.add(index)
    wall = _place(wall, declare_at, T.kind("1z"), keep=keep)
    g = game({}, wall=wall, options={"no_huangzhuang": True})
    tsumogiri_until(g, lambda g: g.current == 3 and g.wall.head == declare_at + 1)
    drive(g, [(3, "declare baoting"), (3, "discard 1z")])
    assert g.hidden_indicators == [T.kind("9p")]
    tsumogiri_until(g, lambda g: not g.hidden_indicators)  # N's next turn turned it up
    assert sum(st.discards.count(T.kind("9p")) for st in g.seats) == 3
    bao = [(e["tile"], e.get("replaces")) for e in g.events if e["type"] == "bao"]
    if declare_at == 127:
        assert g.indicators == [T.kind("9p")] and g.extra["joker_kind"] == T.kind("9p")
        assert bao == [("9p", None)]
        assert g.is_over and len(g.set_aside) + len(g.wins) == 4  # the whole 分张 round
    else:
        assert g.current == 3 and g.phase == "turn"
        assert g.indicators == T.parse("9p5p") and g.extra["joker_kind"] == T.kind("5p")
        assert bao == [("9p", None), ("5p", "9p")]


def test_mobao_on_a_gang_replacement():
    """[DEC R25] a gang replacement is a draw: E (报听, waits 6s/9s) makes an 暗杠 of 1z and
    its replacement is a tile of the 宝 kind 3m (no natural wait, so no 存牌 choice): 摸宝."""
    g = game({0: "123m456p55p78s111z2z"}, draws="1s2s3s1z", replacements="3m3m")
    drive(g, [(0, "declare baoting"), (0, "discard 2z")])
    drive(g, [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri")])
    assert g.extra["joker_kind"] == T.kind("3m")  # turned up at the start of E's turn
    drive(g, [(0, "gang 1z")])
    assert g.draw_how == "replacement" and g.drawn == T.kind("3m")
    assert legal(g, 0) == ["hu", "discard 3m"]
    drive(g, [(0, "hu")])
    assert hits(g, 0) == [["gang", "mobao", "pihu"]]  # 1 × 2 (摸宝) + 2 (暗杠)
    assert g.scores == [12, -4, -4, -4]


def test_three_quads_in_qidui_is_haohua_qidadui():
    """[DEC R25] seven pairs holding three quads (AAAABBBBCCCCDD), the winning tile completing
    one: 豪华七大对 (8), as with two quads."""
    bd = calc({"concealed": "1111m2222p3333s55s", "win_tile": "3s"})
    assert bd.ids == ["haohua_qidadui"] and bd.points == 8
    bd = calc({"concealed": "1111m2222p3333s55s", "win_tile": "3s", "how": "self_draw"})
    assert bd.ids == ["haohua_qidadui"] and bd.points == 8
