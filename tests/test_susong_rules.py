"""RULES.md V3 宿松麻将: odd situations played through the engine (flowers at the deal and at
the wall end, 飘花, discard-win and 抢杠胡 eligibility by 花, 过手 locks, chi, dealer), and
the hand calculator (tiers, 花 counting, 花奖 against a brute-force reference, bad input).

Seats: E=0 (dealer), S=1, W=2, N=3.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenario import drive, settle
from test_susong_examples import SANBI_PREFIX, game, hits, legal, piao

from mjcore import tiles as T
from mjcore.engine.wall import build_wall
from mjcore.errors import InvalidHandError
from mjcore.variants import get_variant
from mjcore.variants.susong import FLOWER_KINDS, flower_awards, flower_groups

V = get_variant("susong")
READY_S = "123m456p789s11z45s"  # waits 3s/6s, no 花 of its own


def with_flower(hand: str, flower: str) -> str:
    """``hand`` (ending in …11z45s) dealt with ``flower`` instead of one 东 (the 东 comes back
    as the flower's replacement)."""
    return hand.replace("11z", "1z") + flower if flower else hand


# ---- tiles and flowers ------------------------------------------------------------------
def test_tile_set_and_flower_kinds():
    kinds = Counter(V.tile_kinds(V.parse_options(None)))
    assert sum(kinds.values()) == 144
    assert sum(n for k, n in kinds.items() if k in FLOWER_KINDS) == 20
    assert all(kinds[k] == 4 for k in (31, 32, 33)) and all(kinds[k] == 1 for k in range(34, 42))
    g = V.new_game(seed=5)
    assert [t for t in range(42) if g.is_flower[t]] == sorted(FLOWER_KINDS)
    assert all(not st.hand[31] + st.hand[32] + st.hand[33] for st in g.seats)
    assert all(not st.held_flowers for st in g.seats)
    qd = get_variant("qingdao").new_game(seed=5, options={"hun": False})
    assert not any(qd.is_flower[:34])  # 中发白 stay ordinary tiles elsewhere


def test_chained_flower_replacement_at_the_deal():
    g = game({1: "123m456p789s11z4s1f"}, replacements="2f5z3f5m")
    s = g.seats[1]
    assert sorted(s.flowers) == [31, 34, 35, 36] and not s.held_flowers
    assert s.hand[4] == 1 and s.tile_count() == 13
    flower_events = [e for e in g.events if e["type"] == "flower" and e["seat"] == 1]
    assert [(e["flower"], e["tile"]) for e in flower_events] == [
        ("1f", "2f"),
        ("2f", "5z"),
        ("5z", "3f"),
        ("3f", "5m"),
    ]
    seen_by_e = [e for e in g.events_for(0) if e["type"] == "flower"]
    assert all(e["tile"] is None for e in seen_by_e)  # replacement tiles stay hidden
    assert g.view(0)["public"]["hua"] == [0, 4, 0, 0]


def _wall_end_wall(seat3_hand: str, at_123: str, at_124: str, tail_flowers: list[int]):
    """Normals everywhere but the last 21 positions: 123, 124 and 19/20 flowers behind."""
    pool = Counter(V.tile_kinds(V.parse_options(None)))
    fixed = T.parse(seat3_hand) + T.parse(at_123) + T.parse(at_124) + tail_flowers
    pool.subtract(fixed)
    normals = [k for k in pool.elements() if k not in FLOWER_KINDS]
    rng = np.random.default_rng(0)
    rng.shuffle(normals)
    head = normals[:40] + T.parse(seat3_hand) + normals[40:110]
    wall = head + T.parse(at_123) + T.parse(at_124) + tail_flowers
    assert len(wall) == 144 and Counter(wall) == Counter(V.tile_kinds(V.parse_options(None)))
    return V.new_game(wall=wall)


def _play_to_end(g):
    """Every seat discards what it draws and passes every claim until the wall is empty."""
    while not g.is_over and g.wall.remaining:
        seat = g.to_act()[0]
        acts = legal(g, seat)
        if "pass" in acts and g.phase != "turn":
            g.apply(seat, "pass")
        else:
            g.apply(seat, f"discard {T.NOTATION[g.drawn]}")


def test_flower_chain_at_the_wall_end_wins_huakai():
    # N draws the flower at 123; 19 flowers come back from the tail, then 6s: 花开 with all 20.
    flowers = sorted(Counter(sorted(FLOWER_KINDS) + [31, 32, 33] * 3).elements())
    g = _wall_end_wall(READY_S, T.NOTATION[flowers[0]], "6s", flowers[1:])
    _play_to_end(g)
    assert g.current == 3 and g.drawn == T.kind("6s") and not g.wall.remaining
    assert len(g.seats[3].flowers) == 20
    assert "hu" in legal(g, 3)
    g.apply(3, "hu")
    bd = g.wins[0].breakdown
    assert bd.ids == ["gangkai", "huajiang"]  # 花开 with 20 花 is 一索; 5 花奖 (each kind ×4)
    assert bd.points == 4 + 5 * 2
    assert g.scores == [-14, -14, -14, 42]
    assert g.next_dealer == 3


def test_flower_chain_runs_out_of_wall_is_liuju():
    # E draws a flower at 124 with only flowers left behind it: the chain empties the wall,
    # and the hand ends as 流局 [DEC S31].
    flowers = sorted(Counter(sorted(FLOWER_KINDS) + [31, 32, 33] * 3).elements())
    g = _wall_end_wall(READY_S, "9m", T.NOTATION[flowers[0]], flowers[1:])
    _play_to_end(g)
    assert g.is_over and g.exhausted and not g.wins
    assert len(g.seats[0].flowers) == 20
    assert g.scores == [0, 0, 0, 0] and not g.settlement  # 流局: no payments, no 花奖
    assert g.next_dealer == g.dealer
    assert g.tiles_in_play() == Counter(V.tile_kinds(g.opts))


def test_huakai_on_a_flower_replacement():
    # S draws 春 in its second turn; the replacement 6s completes it: 花开, H = 1 -> 大胡 2.
    g = game({0: "9p", 1: READY_S}, draws="9m9p9s8m1f", replacements="6s")
    drive(
        g,
        [
            (0, "discard 9p"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "hu"),
        ],
    )
    assert hits(g, 1) == [["gangkai"]]
    assert g.scores == [-2, 6, -2, -2]


@pytest.mark.parametrize(
    "hand, repl, script, pattern, points",
    [
        # 暗杠 1m, replacement 2p makes 2222p, 暗杠 2p, replacement 春 (kept in the chain), 9s.
        ("1111m222p456s78s5s", "2p1f9s", ["gang 1m", "gang 2p", "hu"], "shuanggang", 4),
        # one 暗杠 then a flower then the winning tile: 杠开 (not 双杠), H = 2 + 1 -> 大胡 2.
        ("1111m456p789s23s5s", "1f4s", ["gang 1m", "hu"], "gangkai", 2),
    ],
)
def test_gang_chain_through_flower_replacements(hand, repl, script, pattern, points):
    g = game({0: "9m", 2: hand}, draws="1p5s", replacements=repl)
    drive(g, [(0, "discard 9m"), (1, "tsumogiri")] + [(2, a) for a in script])
    assert hits(g, 2) == [[pattern]]
    assert g.wins[0].breakdown.points == points


# ---- 飘花 ---------------------------------------------------------------------------------
def test_piao_choices_one_seat_after_another_then_zeng():
    g = game({0: "1f"}, replacements="", options={"piaohua": True, "chuzeng": 1})
    assert g.phase == "choose"
    for seat in range(4):
        assert g.to_act() == [seat]
        assert legal(g, seat) == ["choose piao 0", "choose piao 1"]
        if seat == 0:
            assert g.view(0)["seats"][0]["held_flowers"] == "1f"  # dealt, not yet replaced
        g.apply(seat, f"choose piao {int(seat == 2)}")
    assert g.to_act() == [0, 1, 2, 3]
    assert legal(g, 1) == [f"choose zeng {v}" for v in range(4)]
    for seat in range(4):
        g.apply(seat, f"choose zeng {seat % 2}")
    assert g.phase == "turn"
    assert [s.choices for s in g.seats] == [
        {"piao": 0, "zeng": 0},
        {"piao": 0, "zeng": 1},
        {"piao": 1, "zeng": 0},
        {"piao": 0, "zeng": 1},
    ]
    assert g.seats[0].flowers == (34,)  # 不飘: replaced after the choices


def test_piao_seat_keeps_discards_and_nobody_claims_flowers():
    # S (飘) is dealt 5z 6z and draws 7z: three flower discards; nobody may claim them,
    # though W holds nothing of them anyway — 中发白 never sit in a 不飘 hand.
    g = game(
        {0: "9p", 1: "123m456p789s11z5z6z"},
        draws="7z",
        options={"piaohua": True},
        choices=piao(1),
    )
    s = g.seats[1]
    assert sorted(s.held_flowers) == [31, 32] and s.tile_count() == 13
    other = g.view(0)["seats"][1]
    assert other["concealed_count"] == 13 and "held_flowers" not in other
    drive(g, [(0, "discard 9p")])
    assert legal(g, 1) == ["discard 5z", "discard 6z", "discard 7z"]
    for _ in range(3):
        tile = legal(g, 1)[0]
        g.apply(1, tile)
        assert g.phase == "turn" and g.current == 2  # nobody may claim a flower
        drive(g, [(2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri")])
    assert not s.held_flowers and [T.NOTATION[t] for t in s.discards] == ["5z", "6z", "7z"]
    assert g.variant.public_state(g)["hua"][1] == 0
    assert g.tiles_in_play() == Counter(V.tile_kinds(g.opts))


@pytest.mark.parametrize("is_piao", [True, False])
@pytest.mark.parametrize("tile", ["2z", "5m", "3s"])
def test_piao_claims(is_piao, tile):
    """飘: no wind peng, no gang of any kind; suited peng and chi stay."""
    g = game(
        {0: "2z5m3s", 1: "22z555m9999p12s7p8p"},
        options={"piaohua": True},
        choices=piao(1) if is_piao else piao(),
    )
    g.apply(0, f"discard {tile}")
    acts = legal(g, 1) if g.phase == "claim" else []
    if tile == "2z":
        assert ("peng" in acts) is not is_piao
    if tile == "5m":
        assert "peng" in acts and ("gang 5m" in acts) is not is_piao
    if tile == "3s":
        assert "chi 123s" in acts
    drive(g, [(1, "pass")] if acts else [])
    while g.phase != "turn" or g.current != 1:
        seat = g.to_act()[0]
        g.apply(seat, "pass" if g.phase != "turn" else f"discard {T.NOTATION[g.drawn]}")
    assert ("gang 9p" in legal(g, 1)) is not is_piao


# ---- discard-win eligibility (V3.3 table) ------------------------------------------------
@pytest.mark.parametrize(
    "w_piao, w_flowers, d_piao, d_flowers, allowed, pattern",
    [
        (False, "1f", False, "2f3f", True, "pinghu"),  # 花牌下地: anyone
        (False, "", False, "", True, "wuhuaguo"),  # 无花果 接 无花果
        (False, "", False, "2f", False, None),  # 无花果 cannot take a 花 seat's discard
        (False, "", True, "", True, "wuhuaguo"),  # 无花果 接 飘
        (False, "1f", True, "", True, "pinghu"),
        (True, "", False, "", True, "wuhuaguo"),  # 飘 接 无花果
        (True, "", True, "", False, None),  # 飘花的双方不能点炮
        (True, "", False, "2f", False, None),
    ],
)
def test_discard_win_eligibility(w_piao, w_flowers, d_piao, d_flowers, allowed, pattern):
    seats = [s for s, is_piao in ((0, d_piao), (1, w_piao)) if is_piao]
    g = game(
        {0: "6s" + d_flowers, 1: with_flower(READY_S, w_flowers)},
        replacements="9m" * (len(d_flowers) // 2) + ("1z" if w_flowers else ""),
        options={"piaohua": True},
        choices=piao(*seats),
    )
    g.apply(0, "discard 6s")
    assert ("hu" in legal(g, 1)) is allowed
    if allowed:
        drive(g, [(1, "hu")])
        assert hits(g, 1) == [[pattern]]


@pytest.mark.parametrize(
    "hand, tile",
    [
        ("123m456p111z45s77s", "6s"),  # a concealed wind triplet is 1 花
        # the discard makes the wind triplet of the winning hand: H(W) counts it [DEC S31]
        ("123m456p789s11z22z", "1z"),
    ],
)
def test_concealed_wind_triplet_counts_for_eligibility(hand, tile):
    g = game({0: tile + "2f", 1: hand}, replacements="9m")
    g.apply(0, f"discard {tile}")
    assert "hu" in legal(g, 1)
    drive(g, [(1, "hu")])
    assert hits(g, 1) == [["pinghu"]] and g.scores[1] == 1


def test_piao_never_counts_a_wind_triplet():
    g = game(
        {0: "6s2f", 1: "123m456p111z45s77s"},
        replacements="9m",
        options={"piaohua": True},
        choices=piao(1),
    )
    g.apply(0, "discard 6s")
    assert "hu" not in legal(g, 1)  # 飘 with 111z is still H = 0, E has 花


# ---- 抢杠胡 eligibility --------------------------------------------------------------------
@pytest.mark.parametrize(
    "robber_flower, robbed_flower, allowed, pattern",
    [
        ("", "", True, "qiangganghu"),  # 无花果 robs a 无花果 seat (also 无花果: both 一索)
        ("", "2f", False, None),  # the robbed seat has 花: a 无花果 seat may not rob it
        ("1f", "2f", True, "qiangganghu"),
    ],
)
def test_rob_gang_eligibility(robber_flower, robbed_flower, allowed, pattern):
    g = game(
        {0: "6s", 1: with_flower(READY_S, robber_flower), 2: "66s" + robbed_flower},
        draws="1p9p8p6s",
        replacements=("1z" if robber_flower else "") + "9m" * (len(robbed_flower) // 2),
    )
    drive(
        g,
        [
            (0, "discard 6s"),
            (2, "peng"),
            (2, "discard " + T.NOTATION[_any_tile(g, 2, "6s")]),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "gang 6s"),
        ],
    )
    assert g.phase in ("rob", "turn")
    assert ("hu" in legal(g, 1)) is allowed
    if allowed:
        drive(g, [(1, "hu")])
        assert hits(g, 1) == [[pattern]]
        assert g.scores[2] == -4 and g.scores[1] == 4  # the robbed seat pays
        assert ("无花果" in g.wins[0].breakdown.formula) is (robber_flower == "")
    else:
        assert [m.kind for m in g.seats[2].melds] == ["bugang"]


def _any_tile(g, seat, but: str) -> int:
    return next(t for t in np.flatnonzero(g.seats[seat].counts).tolist() if t != T.kind(but))


# ---- 过手胡 / 过手碰 ----------------------------------------------------------------------------
def test_pass_hu_lasts_until_the_next_draw_not_a_claim():
    # N waits 3s/6s and passes E's 6s; it pengs S's 8m (no draw), E's next 6s is still locked;
    # after N's own draw the third 6s may be won.
    g = game(
        {0: "666s", 1: "8m", 3: "123m456p45s11z888m"},
        draws="1p" + "2p7p8p9p" + "3p",
    )
    g.apply(0, "discard 6s")
    assert "hu" in legal(g, 3)
    drive(g, [(3, "pass"), (1, "discard 8m"), (3, "peng"), (3, "discard 8m")])
    drive(g, [(0, "discard 6s")])
    assert g.phase != "claim" or "hu" not in legal(g, 3)  # still locked after the peng
    drive(
        g,
        [(1, "tsumogiri"), (2, "tsumogiri"), (3, "tsumogiri"), (0, "discard 6s"), (3, "hu")],
    )
    assert hits(g, 3) == [["wuhuaguo"]]


def test_pass_peng_until_the_next_draw():
    g = game({0: "9p", 1: "9p", 2: "99p"}, draws="1s")
    g.apply(0, "discard 9p")
    assert "peng" in legal(g, 2)
    drive(g, [(2, "pass")])
    assert g.seats[2].pass_peng == {T.kind("9p")}
    drive(g, [(1, "discard 9p")])
    # 过手碰: W is not asked about S's 9p, so it simply draws (which ends the lock)
    assert g.phase == "turn" and g.current == 2
    assert g.seats[2].pass_peng == set()


# ---- chi ------------------------------------------------------------------------------------
def test_chi_never_discards_the_chowed_tile_and_needs_a_discard_left():
    g = game({0: "5p7s2z3m", 1: "55p77s22z9m9p9s12m33m"}, draws="1p4p7p" * 3)
    assert g.seats[1].hand[T.kind("3m")] == 2
    script = []
    for pair, out in (("5p", "9m"), ("7s", "9p"), ("2z", "9s")):
        script += [(0, f"discard {pair}"), (1, "peng"), (1, f"discard {out}")]
        script += [(2, "tsumogiri"), (3, "tsumogiri")]
    drive(g, script)
    # S holds 12m33m + three pengs. E's 3m: chi 123m would leave only 33m — not offered
    # [DEC S31].
    g.apply(0, "discard 3m")
    assert "chi 123m" not in legal(g, 1) and "peng" in legal(g, 1)


def test_chi_then_the_same_tile_is_banned():
    g = game({0: "3m", 1: "12m3m"})
    g.apply(0, "discard 3m")
    drive(g, [(1, "chi 123m")])
    assert "discard 3m" not in legal(g, 1)
    assert any(a.startswith("discard") for a in legal(g, 1))


# ---- 天胡 / 地胡, dealer, views ----------------------------------------------------------------
def test_tianhu_after_flower_replacement():
    g = game({0: "123m456p789s11z4s5s1f"}, replacements="6s")
    assert "hu" in legal(g, 0)
    g.apply(0, "hu")
    assert hits(g, 0) == [["tianhu"]] and g.scores == [12, -4, -4, -4]


@pytest.mark.parametrize("claim_first", [False, True])
def test_dihu_first_draw_without_claims(claim_first):
    if claim_first:  # W pengs E's 西 first: S's first draw is no 地胡 (still 无花果)
        g = game({0: "9m3z", 1: READY_S, 2: "33z9s"}, draws="1p2p6s")
        drive(g, [(0, "discard 3z"), (2, "peng"), (2, "discard 9s")])
        drive(g, [(3, "tsumogiri"), (0, "tsumogiri"), (1, "hu")])
        assert hits(g, 1) == [["wuhuaguo"]] and "地胡" not in g.wins[0].breakdown.formula
        return
    g = game({0: "9m3z", 1: READY_S, 2: "33z9s"}, draws="6s")
    drive(g, [(0, "discard 9m"), (1, "hu")])
    assert hits(g, 1) == [["dihu"]] and "无花果" in g.wins[0].breakdown.formula


def test_multi_win_next_dealer_is_first_after_discarder():
    # W discards 6s; E and N both win; N comes first after W, so N deals next.
    g = game(
        {0: "123m456p789s11z45s9m", 3: "123p456m789p22z45s"},
        draws="1p6s",
    )
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "tsumogiri")])
    assert g.phase == "claim" and set(g.to_act()) == {0, 3}
    g.apply(0, "hu")
    g.apply(3, "hu")
    assert [w.seat for w in g.wins] == [3, 0]
    assert g.scores == [4, 0, -8, 4]
    assert g.next_dealer == 3


def test_angang_kind_is_public():
    g = game({0: "9m", 2: "3333m"}, draws="1p5p")
    drive(g, [(0, "discard 9m"), (1, "tsumogiri"), (2, "gang 3m")])
    assert g.view(0)["seats"][2]["melds"] == ["angang 3333m"]
    gang = [e for e in g.events_for(0) if e["type"] == "gang"]
    assert gang[0]["tile"] == "3m"
    assert g.view(0)["public"]["hua"][2] == 2


# ---- the calculator -----------------------------------------------------------------------
def calc(concealed, win, how="discard", melds=(), flowers="", flags=(), chain=0, **opts):
    bd = V.calculate(
        {
            "concealed": concealed,
            "win_tile": win,
            "how": how,
            "melds": list(melds),
            "flowers": flowers,
            "flags": list(flags),
            "gang_chain": chain,
        },
        opts,
    )
    return None if bd is None else (bd.ids[0], bd.points)


STD = "123m456p789s11z45s6s"


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ({"flowers": ""}, ("wuhuaguo", 4)),
        ({"flowers": "1f"}, ("pinghu", 1)),
        ({"flowers": "1f2f3f4f"}, ("pinghu", 3)),  # 4 花 小胡 1, four seasons: one 花奖 +2
        ({"flowers": "1f2f3f5z"}, ("pinghu", 1)),
        ({"flowers": "1f2f3f5z6z"}, ("pinghu", 2)),  # 5 花 大胡
        ({"flowers": "1f2f3f5f6f7f5z6z7z"}, ("pinghu", 2)),  # 9 花 大胡 [DEC S3]
        ({"flowers": "1f2f3f5f6f7f5z5z6z7z"}, ("pinghu", 3)),  # 10 花 大大胡, no 花奖
        ({"flowers": "1f", "how": "self_draw", "flags": ["huakai"]}, ("gangkai", 2)),
        ({"flowers": "1f2f3f5z", "how": "self_draw", "flags": ["huakai"]}, ("gangkai", 3)),
        ({"flowers": "1f2f3f5z6z", "how": "self_draw", "flags": ["huakai"]}, ("gangkai", 3)),
        ({"flowers": "1f2f3f5z6z7z", "how": "self_draw", "flags": ["huakai"]}, ("gangkai", 4)),
        ({"flags": ["piao"]}, ("wuhuaguo", 4)),
        ({"flowers": "1f", "how": "rob_gang"}, ("qiangganghu", 4)),
        ({"flowers": "1f", "how": "self_draw", "flags": ["tianhu"]}, ("tianhu", 4)),
        ({"flowers": "1f", "how": "self_draw", "flags": ["dihu"]}, ("dihu", 4)),
    ],
)
def test_tiers(kwargs, expected):
    flowers = kwargs.pop("flowers", "")
    assert calc(STD, "6s", flowers=flowers, **kwargs) == expected


@pytest.mark.parametrize(
    "melds, hua",
    [
        (["peng 1z"], 1),
        (["zhigang 1z"], 2),
        (["bugang 1z"], 2),  # an upgraded wind peng counts 2 in all, not 1 + 2
        (["angang 1z"], 3),
        (["peng 9m"], 0),
        (["zhigang 9m"], 1),
        (["bugang 9m"], 1),
        (["angang 9m"], 2),
        (["angang 9m", "bugang 2z", "peng 3z"], 5),
    ],
)
def test_meld_hua(melds, hua):
    concealed = {1: "123p789s55p45s6s", 2: "789s55p45s6s", 3: "55p45s6s"}[len(melds)]
    bd = V.calculate({"concealed": concealed, "win_tile": "6s", "melds": melds}, None)
    assert f" {hua}花 " in bd.formula


@pytest.mark.parametrize(
    "concealed, win, melds, how, expected",
    [
        ("1122m3344p5566s77s", "7s", (), "discard", "xiaoqidui"),
        ("1111m3344p5566s77s", "7s", (), "discard", "daqidui"),
        ("11123455678999m", "5m", (), "discard", "qingyise"),
        ("11123455678m111z", "5m", (), "discard", "hunyise"),
        ("111m222p333s99s", "9s", ["peng 1z"], "discard", "pengpenghu"),
        ("55s", "5s", ["peng 1m", "peng 2p", "zhigang 3s", "bugang 4m"], "discard", "quanqiuren"),
        ("55s", "5s", ["peng 1m", "peng 2p", "zhigang 3s", "bugang 4m"], "self_draw", "quanqiuren"),
        ("55s", "5s", ["peng 1m", "peng 2p", "angang 3s", "bugang 4m"], "discard", "pengpenghu"),
        ("789s55s", "5s", ["chi 123m", "peng 2p", "peng 3z"], "discard", "pinghu"),
    ],
)
def test_yisuo_patterns(concealed, win, melds, how, expected):
    bd = V.calculate(
        {
            "concealed": concealed,
            "win_tile": win,
            "melds": list(melds),
            "flowers": "1f",
            "how": how,
        },
        None,
    )
    assert bd.ids[0] == expected
    assert bd.points == (4 if expected != "pinghu" else 1)


def test_double_gang_and_patterns_do_not_stack():
    melds = ["angang 1m", "angang 2p"]
    assert calc("456s789s55s", "5s", "self_draw", melds, "1f", chain=2) == ("shuanggang", 4)
    assert calc("456s789s55s", "5s", "self_draw", melds, "1f", chain=1) == ("gangkai", 3)
    # 清一色 + 碰碰胡 + 七对 + 无花果 all apply: still 4 (一索 is the cap)
    bd = V.calculate({"concealed": "11223344556677m", "win_tile": "7m"}, None)
    assert bd.points == 4 and "清一色" in bd.formula and "无花果" in bd.formula


def test_flower_bonus_examples():
    assert flower_awards(T.parse("7777z666z555z5f6f7f")) == 2  # S-e7
    assert flower_awards(T.parse("7777z666z555z5f6f7f"), stack=False) == 1
    assert flower_awards(T.parse("77z66z55z1f2f")) == 1  # ③ four pairs
    assert flower_awards(T.parse("777z666z555z")) == 1  # ② three kinds ×3
    assert flower_awards(T.parse("1f2f3f4f5f6f7f8f")) == 2  # ① twice
    assert flower_awards(sorted(FLOWER_KINDS) + [31, 31, 31, 32, 32, 32, 33, 33, 33]) == 5
    assert flower_awards(T.parse("777z66z55z1f")) == 0


def _reference_awards(groups: tuple[int, ...]) -> int:
    """Slow and obvious: the largest multiset of awards whose tile needs fit the counts."""
    kinds = range(5)
    awards = [((i,), 4) for i in kinds]
    awards += [(c, 3) for c in combinations(kinds, 3)] + [(c, 2) for c in combinations(kinds, 4)]
    best = 0
    for k in range(1, 6):
        for chosen in combinations_with_replacement(awards, k):
            need = [0] * 5
            for members, n in chosen:
                for i in members:
                    need[i] += n
            if all(need[i] <= groups[i] for i in kinds):
                best = k
                break
        else:
            break
    return best


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(sorted(FLOWER_KINDS)), max_size=20))
def test_flower_awards_match_reference(picks):
    counts = Counter(picks)
    area = [k for k, n in counts.items() for _ in range(min(n, 4 if k < 34 else 1))]
    assert flower_awards(area) == _reference_awards(flower_groups(area))
    assert flower_awards(area, stack=False) == min(1, _reference_awards(flower_groups(area)))


@pytest.mark.parametrize(
    "win, field",
    [
        ({"concealed": "123m456p789s55z45s6s", "win_tile": "6s"}, "concealed"),
        ({"concealed": STD, "win_tile": "6s", "flowers": "1m"}, "flowers"),
        ({"concealed": STD, "win_tile": "6s", "flowers": "1f1f"}, "flowers"),
        ({"concealed": STD, "win_tile": "6s", "flowers": "5z5z5z5z5z"}, "flowers"),
        ({"concealed": STD, "win_tile": "6s", "flags": ["tianhu"]}, "flags"),
        ({"concealed": STD, "win_tile": "6s", "flags": ["kouting"]}, "flags"),
        ({"concealed": STD, "win_tile": "6s", "flags": ["piao"], "flowers": "1f"}, "flowers"),
        (
            {"concealed": "456p789s11z45s6s", "win_tile": "6s", "melds": ["peng 5z"]},
            "melds",
        ),
        (
            {"concealed": STD, "win_tile": "6s", "how": "self_draw", "gang_chain": 1},
            "gang_chain",
        ),
    ],
)
def test_calculator_rejects_bad_descriptions(win, field):
    with pytest.raises(InvalidHandError, match=field):
        V.calculate(win, None)


def test_calculator_json_and_cli():
    from click.testing import CliRunner

    from mjcore.cli import main

    out = CliRunner().invoke(
        main,
        ["score", "-v", "susong", STD, "-w", "6s", "--how", "self_draw", "--flowers", "1f5f7z"]
        + ["--json"],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["points"] == 1 and data["patterns"][0]["id"] == "pinghu"
    bad = CliRunner().invoke(main, ["score", "-v", "susong", STD, "-w", "6s", "--flowers", "9m"])
    assert bad.exit_code != 0 and "flowers" in bad.output


@pytest.mark.parametrize("robbed_flower, robbers", [("2f", [3]), ("", [3, 1])])
def test_rob_gang_by_two_seats_each_by_its_own_eligibility(robbed_flower, robbers):
    # S (H = 0) and N (one flower) both wait on 6s; W upgrades its 6s peng. With a flower
    # set aside W may only be robbed by N; without, both rob (一炮多响), N first after W.
    g = game(
        {0: "6s", 1: READY_S, 2: "66s" + robbed_flower, 3: "123p456m789p22z7s1f"},
        draws="1p" + "9p8p" + "6s",
        replacements=("9m" if robbed_flower else "") + "8s",
    )
    drive(
        g,
        [
            (0, "discard 6s"),
            (2, "peng"),
            (2, "discard " + T.NOTATION[_any_tile(g, 2, "6s")]),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
            (1, "tsumogiri"),
            (2, "gang 6s"),
        ],
    )
    assert g.phase == "rob" and sorted(g.to_act()) == sorted(robbers)
    for seat in robbers:
        g.apply(seat, "hu")
    assert [w.seat for w in g.wins] == robbers
    assert all(w.how == "rob_gang" and w.from_seat == 2 for w in g.wins)
    assert g.scores[2] == -4 * len(robbers)
    assert g.next_dealer == 3


def test_piao_dealer_sheds_dealt_flowers_first():
    g = game(
        {0: "123m456p789s11z1f2f", 1: "9m"},
        options={"piaohua": True},
        choices=piao(0),
    )
    assert sorted(g.seats[0].held_flowers) == [34, 35]
    assert legal(g, 0) == ["discard 1f", "discard 2f"]
    g.apply(0, "discard 2f")
    assert g.phase == "turn" and g.current == 1  # nobody claims a flower


def _walled(hands, draws, replacements):
    """A 4-seat game whose flowers lie mid-wall (no flower replacement interferes)."""
    wall = build_wall(
        list(V.tile_kinds(V.parse_options({}))),
        4,
        0,
        hands=hands,
        draws=draws,
        replacements=replacements,
        seed=0,
        apart=list(range(31, 42)),
    )
    return V.new_game(players=4, options={}, wall=wall, dealer=0)


def test_pass_hu_outlasts_a_gang_and_its_replacement():
    """RULES V3.3 / DEC S22: 过手胡 lasts until the seat's next draw **from the wall**; a
    直杠 and its replacement draw in between do not end it."""
    g = _walled({0: "5m", 2: "46m11s123s999p777p"}, draws="9p5m", replacements="9s")
    g.apply(0, "discard 5m")
    assert "hu" in legal(g, 2)
    for s, a in [
        (2, "pass"),
        (1, "pass"),
        (1, "discard 9p"),
        (2, "gang 9p"),
        (2, "discard 9s"),
        (0, "pass"),
        (3, "pass"),
    ]:
        g.apply(s, a)
    assert g.seats[2].pass_hu  # the lock survived the gang's replacement draw
    g.apply(3, "discard 5m")
    assert 2 not in g.to_act() and "hu" not in legal(g, 2)
    # W's own next draw from the wall ends the lock
    drive(g, [(0, "tsumogiri"), (1, "tsumogiri")])
    settle(g)
    assert g.current == 2 and g.draw_how == "wall" and not g.seats[2].pass_hu


def test_pass_peng_outlasts_a_gang_and_its_replacement():
    g = _walled({0: "8s", 2: "88s46m11s123s999p"}, draws="9p8s", replacements="1z")
    g.apply(0, "discard 8s")
    assert "peng" in legal(g, 2)
    for s, a in [(2, "pass"), (1, "discard 9p"), (2, "gang 9p"), (2, "discard 1z")]:
        drive(g, [(s, a)])
    assert g.seats[2].pass_peng == {T.kind("8s")}
    drive(g, [(3, "discard 8s")])
    assert "peng" not in legal(g, 2)


def test_pass_hu_forbids_robbing_that_kind_until_the_next_draw():
    """A passed discard win on 6m also forbids robbing a 补杠 of 6m (抢杠胡) until the next
    draw from the wall [DEC S22]: N pengs the passed 6m and upgrades it at once."""
    g = _walled({0: "6m", 2: "45m11s123s999p777p", 3: "666m"}, draws="", replacements="9s")
    g.apply(0, "discard 6m")
    assert "hu" in legal(g, 2) and "peng" in legal(g, 3)
    drive(g, [(2, "pass"), (3, "peng")])
    assert g.current == 3 and "gang 6m" in legal(g, 3)
    assert g.evaluate_win(2, T.kind("6m"), "rob_gang") is not None  # only the lock stops it
    g.apply(3, "gang 6m")
    assert g.phase != "rob" or "hu" not in legal(g, 2)
    assert any(m.kind == "bugang" and m.tiles[0] == T.kind("6m") for m in g.seats[3].melds)


# ---- readings written down in RULES V3.7: S30, S31 ----------------------------------------
SEVEN_PAIRS_1Z = "1111z2233m4455p6s"  # 七对 holding four 东, not ganged; waits 6s


def test_concealed_wind_quad_counts_as_a_wind_triplet():
    """[DEC S30] four 东 held in a 七对 (not ganged) count as a concealed wind triplet: 1 花.
    So S may win on E's discard although E has a flower set aside (H(W) = 1, not 无花果)."""
    bd = V.calculate({"concealed": SEVEN_PAIRS_1Z + "6s", "win_tile": "6s"}, None)
    assert bd.ids == ["daqidui"] and bd.formula == "大七对 1花 一索 4 = 4"
    suited = V.calculate({"concealed": "2222m3344p5566s77s", "win_tile": "7s"}, None)
    assert "0花" in suited.formula and "无花果" in suited.formula  # the same shape without a wind
    g = game({0: "6s2f", 1: SEVEN_PAIRS_1Z}, replacements="9m")
    g.apply(0, "discard 6s")
    assert "hu" in legal(g, 1)
    drive(g, [(1, "hu")])
    assert hits(g, 1) == [["daqidui"]] and "1花" in g.wins[0].breakdown.formula
    assert g.scores == [-4, 4, 0, 0]


@pytest.mark.parametrize(
    "hands, claim, gang",
    [
        ({0: "6s", 1: "3333m45s"}, (1, "chi 456s"), "gang 3m"),  # 暗杠 after a chi
        ({0: "5p", 2: "3333m55p"}, (2, "peng"), "gang 3m"),  # 暗杠 after a peng
        ({0: "5p", 2: "555p"}, (2, "peng"), "gang 5p"),  # 补杠 of the peng just made
    ],
)
def test_gangs_are_offered_on_the_turn_after_a_chi_or_peng(hands, claim, gang):
    """[DEC S31] a seat that has just chowed or pung may gang before its discard."""
    g = game(hands)
    g.apply(0, f"discard {hands[0]}")
    drive(g, [claim])
    seat = claim[0]
    assert g.phase == "turn" and g.current == seat and g.draw_how == "claim"
    assert gang in legal(g, seat)
    drive(g, [(seat, gang)])
    assert g.seats[seat].melds[-1].kind == ("bugang" if gang == "gang 5p" else "angang")


@pytest.mark.parametrize("exposed", [False, True])
def test_discarders_hua_counts_only_its_table(exposed):
    """[DEC S31] for eligibility H(D) is what lies on the discarder's table: E holding 222z
    concealed has H(D) = 0, so S (无花果) may win on its 6s; after E pengs 2z (1 花) it may not."""
    if not exposed:
        g = game({0: "222z6s", 1: READY_S})
        g.apply(0, "discard 6s")
    else:
        g = game({0: "22z6s9p", 1: READY_S, 2: "2z"}, draws="1p9m")
        steps = [(0, "discard 9p"), (1, "tsumogiri"), (2, "discard 2z"), (0, "peng")]
        drive(g, steps + [(0, "discard 6s")])
        assert g.variant.public_state(g)["hua"][0] == 1
    assert g.phase == "claim" and g.seats[0].discards[-1] == T.kind("6s")
    assert ("hu" in legal(g, 1)) is not exposed
    if not exposed:
        drive(g, [(1, "hu")])
        assert hits(g, 1) == [["wuhuaguo"]] and g.scores == [-4, 4, 0, 0]


def test_sanbi_relations_add_up_independently():
    """[DEC S31] W pungs 1m, 2p, 3s from N (三比 W–N) and E pungs W's three discards 9m, 8p,
    4z (三比 E–W). W self-draws 无花果 (4): each relation applies ③ on its own, so both of W's
    partners pay 2 × 4 and S pays 4."""
    g = game(
        {0: "99m88p44z1p4p7p2m5m8m3s6s", 2: "11m22p33s9m8p4z67s55p", 3: "1m2p3s"},
        draws="9s1s3p" * 3 + "9s5s",
    )
    for x, w_out, e_out in (("1m", "9m", "4p"), ("2p", "8p", "7p"), ("3s", "4z", "2m")):
        if x == "1m":
            drive(g, [(0, "discard 1p")])
        drive(g, [(1, "tsumogiri"), (2, "tsumogiri"), (3, f"discard {x}"), (2, "peng")])
        drive(g, [(2, f"discard {w_out}"), (0, "peng"), (0, f"discard {e_out}")])
    assert g.variant.public_state(g)["sanbi"] == [[0, 2], [2, 3]]
    drive(g, [(1, "tsumogiri"), (2, "hu")])
    assert hits(g, 2) == [["wuhuaguo"]]
    extra = sorted((p.payer, p.amount) for p in g.settlement if p.reason == "sanbi")
    assert extra == [(0, 4), (3, 4)]
    assert g.scores == [-8, -4, 20, -8]


def test_sanbi_qiangganghu_robbed_seat_is_the_discarder():
    """[DEC S31] 三比 W–N (W pung N's 1m 2p 3s). W upgrades its 3s peng and N robs it: the
    robbed seat W counts as the discarder, so case ② applies and W pays 2 × 4."""
    g = game(
        {0: "456m789m456p22z7p1s3f", 2: "11m22p33s67s55p9m8p1f", 3: "1m2p3s234p567p789m2f"},
        draws="9s1p" + "1z4s5s3m" + "5m5m3s",
        replacements="8p4z1z",
    )
    drive(g, SANBI_PREFIX)
    assert g.variant.public_state(g)["sanbi"] == [[2, 3]]
    drive(g, [(0, "tsumogiri"), (1, "tsumogiri"), (2, "gang 3s")])
    assert g.phase == "rob" and legal(g, 3) == ["hu", "pass"]
    drive(g, [(3, "hu")])
    assert hits(g, 3) == [["qiangganghu"]] and g.wins[0].from_seat == 2
    assert sorted(p.reason for p in g.settlement if p.payer == 2) == ["qiangganghu", "sanbi"]
    assert g.scores == [0, 0, -8, 8]


def _to_the_last_tile(wall):
    """Every seat discards what it draws, every claim passes, until the wall is empty."""
    g = V.new_game(players=4, options={}, wall=wall, dealer=0)
    while g.wall.remaining or g.phase != "turn":
        seat = g.to_act()[0]
        g.apply(seat, "pass" if g.phase != "turn" else f"discard {T.NOTATION[g.drawn]}")
    return g


def _last_tile_wall(holder: int):
    """A wall whose last tile is of a kind K the seat ``holder`` is dealt three of. Found by
    playing the wall once, then swapping suited/wind tiles only, so the flowers (and with
    them the order of the draws) stay where they were."""
    wall = build_wall(list(V.tile_kinds(V.parse_options({}))), 4, 0, seed=0, apart=FLOWER_KINDS)
    g = _to_the_last_tile(wall)
    assert g.draw_how == "wall"
    last, kind = g.wall.head - 1, g.drawn
    start, size = (0, 14) if holder == 0 else (14 + 13 * (holder - 1), 13)
    slots = [i for i in range(start, start + size) if wall[i] != kind]
    copies = [i for i, t in enumerate(wall) if t == kind and i != last]
    for i in [i for i in copies if not start <= i < start + size]:
        j = slots.pop()
        wall[i], wall[j] = wall[j], wall[i]
    return wall, g.current, kind


@pytest.mark.parametrize("how", ["angang", "zhigang"])
def test_no_gang_on_the_last_tile(how):
    """[DEC S31] no gang is offered on the last tile (it would have no replacement): the seat
    drawing it with three in hand may not 暗杠; a seat holding three may peng the last
    discard but not 直杠 it."""
    _, drawer, kind = _last_tile_wall(0)
    holder = drawer if how == "angang" else (drawer + 2) % 4
    wall, _, _ = _last_tile_wall(holder)
    g = _to_the_last_tile(wall)
    assert g.current == drawer and g.drawn == kind and not g.wall.remaining
    name = T.NOTATION[kind]
    if how == "angang":
        assert g.seats[drawer].hand[kind] == 4
        assert f"gang {name}" not in legal(g, drawer)
    else:
        assert g.seats[holder].hand[kind] == 3
        g.apply(drawer, f"discard {name}")
        assert g.phase == "claim" and "peng" in legal(g, holder)
        assert f"gang {name}" not in legal(g, holder)


@pytest.mark.parametrize(
    "hands, draws, script, seat",
    [
        # the dealer's first turn: 暗杠 1m, the replacement 4s wins
        ({0: "1111m456p789s23s55s"}, "", [(0, "gang 1m"), (0, "hu")], 0),
        # S's first draw 1m makes its quad, nobody has claimed: 暗杠, the replacement wins
        (
            {0: "9p", 1: "111m456p789s23s55s"},
            "1m",
            [(0, "discard 9p"), (1, "gang 1m"), (1, "hu")],
            1,
        ),
    ],
)
def test_gang_win_on_the_first_turn_is_gangkai_not_tianhu_or_dihu(hands, draws, script, seat):
    """[DEC S31] a win on the replacement of a gang made in the dealer's first turn or on a
    first draw is 杠开 (H = 2 for the suited 暗杠: 大胡 2), not 天胡 / 地胡 (一索 4)."""
    g = game(hands, draws=draws, replacements="4s")
    drive(g, script)
    assert hits(g, seat) == [["gangkai"]] and g.wins[0].breakdown.points == 2
    assert "天胡" not in g.wins[0].breakdown.formula and "地胡" not in g.wins[0].breakdown.formula
    assert g.scores[seat] == 6
