"""Issue 31's rule corners on scripted walls, each citing its decision in RULES.md: locked hands
gang only with the drawn tile (§0.6, R26, Q32), the 4th gang's replacement that is the 宝 (R28),
天胡's winning tile (§0.6, R27), 过胡 after a passed 抢杠胡 (Q33), a won 血战 seat winning again
on the same kind (X23), and 荣成 payment reasons naming each part once."""

from __future__ import annotations

import numpy as np
import pytest
import test_qingdao_examples as qd
import test_rongcheng_examples as rc
from scenario import drive, scripted_game, settle

from mjcore.bots import make_bot
from mjcore.engine.actions import Action
from mjcore.errors import IllegalActionError


def legal(g, seat):
    return list(map(str, g.legal_actions(seat)))


def around(g, *seats):
    """Each of ``seats`` discards the tile it draws (claims in between pass)."""
    drive(g, [(s, "tsumogiri") for s in seats])


# ---- 1. a locked hand gangs only with the tile it has just drawn [§0.6, R26, Q32] ----------
def _rongcheng_quad_declared(draw: str):
    """E declares 报听 on 1111m2m456p789s55s (waits 3m) and later draws ``draw``."""
    g = rc.game({0: "11112m456p789s55s1z"}, draws=f"1s2s3s{draw}", replacements="7z6z")
    drive(g, [(0, "declare baoting"), (0, "discard 1z")])
    around(g, 1, 2, 3)
    return g


def test_rongcheng_locked_quad_held_before_declaring_is_not_ganged():
    """The issue's repro: the drawn 4m must go; `gang 1m` (which kept the 4m) is refused."""
    g = _rongcheng_quad_declared("4m")
    assert g.current == 0 and g.drawn == 3  # 4m
    assert legal(g, 0) == ["discard 4m"]
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="legal: discard 4m"):
        g.apply(0, "gang 1m")
    assert g.to_json() == before
    g.apply(0, "discard 4m")
    assert g.seats[0].hand[3] == 0  # the drawn tile never stays in a locked hand


def test_rongcheng_locked_bugang_only_of_the_drawn_tile():
    """S pengs 1m and declares; the 4th 1m it held may not be 补杠'd on a 4m draw [R26]."""
    g = rc.game({0: "1m", 1: "1112m456p789s55s1z"}, draws="1s2s3s4m")
    drive(g, [(0, "discard 1m"), (1, "peng"), (1, "declare baoting"), (1, "discard 1z")])
    around(g, 2, 3, 0)
    assert g.current == 1 and legal(g, 1) == ["discard 4m"]
    # the same peng, the 4th 1m drawn: the 补杠 keeps the waits (14p) and is offered
    g = rc.game({0: "1m", 1: "11m456p789s55s23p1z"}, draws="1s2s3s1m", replacements="7z6z")
    drive(g, [(0, "discard 1m"), (1, "peng"), (1, "declare baoting"), (1, "discard 1z")])
    around(g, 2, 3, 0)
    assert legal(g, 1) == ["gang 1m", "discard 1m"]
    drive(g, [(1, "gang 1m")])
    settle(g)
    assert [m.kind for m in g.seats[1].melds] == ["bugang"]


def test_qingdao_kouting_quad_held_before_declaring_is_not_ganged():
    """The same lock for a 扣听 hand [Q32]; a quad completed by the drawn tile still gangs."""
    g = qd.game({0: "11112m456p789s55s1z"}, draws="1s2s3s4m")
    drive(g, [(0, "declare kouting"), (0, "discard 1z")])
    around(g, 1, 2, 3)
    assert legal(g, 0) == ["discard 4m"]
    g = qd.game({0: "111m789p456s22s34s1z"}, draws="1s2s3s1m", replacements="7z")
    drive(g, [(0, "declare kouting"), (0, "discard 1z")])
    around(g, 1, 2, 3)
    assert legal(g, 0) == ["gang 1m", "discard 1m"]  # the waits 2s/5s stay the same
    drive(g, [(0, "gang 1m")])
    assert [m.kind for m in g.seats[0].melds] == ["angang"]


def test_locked_hand_bots_and_rl_mask_follow_the_legal_actions():
    """Bots choose among the legal actions and the RL mask is derived from them: on the repro
    only `discard 4m` is open to either."""
    pytest.importorskip("gymnasium")
    from mjcore.rl import Encoder

    g = _rongcheng_quad_declared("4m")
    enc = Encoder(g.variant, g.opts.to_dict())
    mask = enc.action_mask(g, 0)
    assert [enc.table.texts[i] for i in np.flatnonzero(mask)] == ["discard 4m"]
    for name in ("random", "greedy", "expert"):
        bot = make_bot(name, seed=1)
        assert str(bot.act_fast(g, 0, g.legal_actions(0))) == "discard 4m", name
        assert str(bot.act(g.view(0), g.legal_actions(0))) == "discard 4m", name


# ---- 2. 荣成: the 4th gang's replacement that is the 宝 [R28, R5, R17] ------------------------
def _fourth_gang_bao(mode: str = "best"):
    """E declares on 123m456p55p78s111z (waits 6s/9s; the 宝 is 6s); S, W, N each 暗杠; E's
    暗杠 of 1z is the 4th gang and its replacement is the 宝 6s, completing the hand as itself."""
    g = rc.game(
        {0: "123m456p55p78s111z2z", 1: "7777m", 2: "8888m", 3: "9999m"},
        draws="1s2s3s1z",
        replacements="6s5z6z7z6s",
        options={"cunpai_mode": mode},
    )
    drive(g, [(0, "declare baoting"), (0, "discard 2z")])
    drive(g, [(1, "gang 7m"), (1, "tsumogiri"), (2, "gang 8m"), (2, "tsumogiri")])
    drive(g, [(3, "gang 9m"), (3, "tsumogiri"), (0, "gang 1z")])
    assert g.gangs_on_table == 4 and g.drawn == 23 and g.extra["joker_kind"] == 23
    return g


@pytest.mark.parametrize(
    ("choice", "expect", "points"),
    [
        ("cunpai", ["baozhongbao", "gang", "mobao", "pihu"], 6),
        ("gangkai", ["gang", "gangshanghua", "pihu"], 4),
    ],
)
def test_fourth_gang_bao_offers_the_cunpai_choice(choice, expect, points):
    g = _fourth_gang_bao()
    assert not g.is_over  # the 4-gang 荒庄 waits for the seat's choice
    assert legal(g, 0) == ["hu", "pass", "declare cunpai", "declare gangkai"]
    drive(g, [(0, f"declare {choice}")])
    assert legal(g, 0) == ["hu"]
    drive(g, [(0, "hu")])
    assert rc.hits(g, 0) == [expect]
    assert g.scores == [3 * points, -points, -points, -points]


def test_fourth_gang_bao_passed_is_the_four_gang_huangzhuang():
    g = _fourth_gang_bao()
    drive(g, [(0, "pass")])
    assert g.is_over and g.exhausted and not g.wins and g.scores == [0, 0, 0, 0]
    assert g.next_dealer == 1  # 有杠荒牌: the next seat deals [R16]


# ---- 3. 天胡's winning tile is the dealer's 14th dealt tile [§0.6, R27] --------------------
@pytest.mark.parametrize(
    ("dealt", "base"),
    [("22p44m55s66s77s1111m", "qidadui"), ("1111m22p44m55s66s77s", "qidui")],
)
def test_rongcheng_tianhu_reads_the_14th_dealt_tile(dealt, base):
    """The same 14 tiles: 七大对 only when the last dealt tile completes the quad [R27]."""
    g = rc.game({0: dealt})
    drive(g, [(0, "hu")])
    assert rc.hits(g, 0) == [sorted([base, "tianhu"])]
    assert g.wins[0].tile == 0 if base == "qidadui" else g.wins[0].tile == 24


@pytest.mark.parametrize(
    ("dealt", "base"),
    [("123s456s789s11p46p5p", "kaxinwu"), ("123s456s11p46p5p789s", "pinghu")],
)
def test_xuezhan_dealt_win_reads_the_14th_dealt_tile(dealt, base):
    """血战 has no 天胡 pattern, but 卡心五 reads the winning tile: a dealt win's is the 14th."""
    g = scripted_game("xuezhan_kaxinwu", {0: dealt})
    drive(g, [(0, "hu")])
    assert [h.id for h in g.wins[0].breakdown.hits if h.combine == "base"] == [base]


# ---- 4. 青岛: a passed 抢杠胡 sets 过胡 [Q33]; 血战: a won seat wins again [X23] ----------------
def test_qingdao_passed_rob_locks_discard_wins_until_own_discard():
    """S 补杠s the drawn 6m; W (waiting 3m/6m) may rob it and passes: no win on a discard
    (S's replacement 3m) until W's own next discard [Q33]."""
    g = qd.game(
        {0: "6m", 1: "66m8p", 2: "45m123p456p789p1s9s"},
        draws="1s2s3s6m4s",
        replacements="3m",
    )
    drive(g, [(0, "discard 6m"), (1, "peng"), (1, "discard 8p")])
    drive(g, [(2, "discard 9s")])  # W: 45m… waits 3m/6m
    around(g, 3, 0)
    drive(g, [(1, "gang 6m")])  # 补杠 of the drawn 6m: W may rob it
    assert g.phase == "rob" and legal(g, 2) == ["hu", "pass"]
    g.apply(2, "pass")
    assert g.seats[2].pass_hu_any  # passing a 抢杠胡 is passing a 点炮 win [Q33]
    drive(g, [(1, "discard 3m")])  # the replacement 3m
    assert "hu" not in legal(g, 2)  # W may not win on a discard until its own next discard
    settle(g)
    drive(g, [(2, "tsumogiri")])
    assert not g.seats[2].pass_hu_any  # its discard ended the lock


def test_qingdao_passed_discard_win_locks_robbing():
    """The converse: W passes a discard win on N's 3m, then may not rob S's 补杠 of 6m [Q33]."""
    g = qd.game(
        {0: "6m", 1: "66m8p", 2: "45m123p456p789p1s9s", 3: "3m"},
        draws="1s2s3s6m",
        replacements="7z",
    )
    drive(g, [(0, "discard 6m"), (1, "peng"), (1, "discard 8p"), (2, "discard 9s")])
    drive(g, [(3, "discard 3m")])
    assert "hu" in legal(g, 2)
    g.apply(2, "pass")
    settle(g)
    assert g.seats[2].pass_hu_any
    around(g, 0)
    drive(g, [(1, "gang 6m")])  # the 补杠 completes: W, locked, is not asked to rob
    assert g.phase == "turn" and g.current == 1 and [m.kind for m in g.seats[1].melds] == ["bugang"]
    drive(g, [(1, "tsumogiri")])
    settle(g)
    drive(g, [(2, "tsumogiri")])
    assert not g.seats[2].pass_hu_any  # W's own discard ended the lock


def test_qingdao_rob_offered_without_a_passed_win():
    """Control for the two tests above: with no passed win, W robs S's 补杠 of 6m."""
    g = qd.game(
        {0: "6m", 1: "66m8p", 2: "45m123p456p789p1s9s"},
        draws="1s2s3s6m",
        replacements="3m",
    )
    drive(g, [(0, "discard 6m"), (1, "peng"), (1, "discard 8p"), (2, "discard 9s")])
    around(g, 3, 0)
    drive(g, [(1, "gang 6m"), (2, "hu")])
    assert g.wins[0].how == "rob_gang" and g.wins[0].seat == 2


def test_xuezhan_won_seat_wins_again_on_the_same_kind():
    """S wins on E's 5p; W discards another 5p before S's next turn: S may win again [X23]."""
    g = scripted_game("xuezhan_kaxinwu", {0: "5p", 1: "123s456s789s11p46p", 2: "5p"})
    drive(g, [(0, "discard 5p"), (1, "hu")])
    assert g.current == 2  # the winner's 下家 draws [X6]
    assert not g.seats[1].pass_hu  # a taken win sets no 过手 lock
    drive(g, [(2, "discard 5p")])
    assert "hu" in legal(g, 1)
    drive(g, [(1, "hu")])
    assert [(w.seat, w.from_seat, w.tile) for w in g.wins] == [(1, 0, 13), (1, 2, 13)]
    assert sum(g.scores) == 0


# ---- 5. 荣成 payment reasons name each part once ----------------------------------------
def test_rongcheng_payment_reasons_name_each_part_once():
    """地胡 with both seats' 飘 and the winner's gang: `pihu+dihu+piao+gang`, no repeats."""
    g = rc.game({0: "4s", 1: "123m456p789s55p23s"}, piao=(2, 1, 0, 0))
    drive(g, [(0, "discard 4s"), (1, "hu")])
    (pay,) = g.settlement
    parts = pay.reason.split("+")
    assert len(parts) == len(set(parts)) and "piao" in parts, pay.reason
    assert pay.amount == 1 * 5 + 1 + 2  # 屁胡 × 地胡 + 飘 both sides [R-e8, R-e5]
    g = _fourth_gang_bao()
    drive(g, [(0, "declare cunpai"), (0, "hu")])
    for p in g.settlement:
        parts = p.reason.split("+")
        assert len(parts) == len(set(parts)) and parts.count("gang") == 1, p.reason


def test_malformed_action_texts_are_explained():
    """Every malformed action text: the text quoted, the problem in words, the legal actions."""
    g = _rongcheng_quad_declared("4m")
    before = g.to_json()
    cases = {
        "gang": "missing tile",
        "discard 9z": "no such tile '9z'",
        "fly 5p": "unknown verb 'fly'",
        "": "empty action",
        "discard 5m 6m": "one tile",
        "choose piao x": "not a whole number",
        "peng 5m": "takes no tile",
    }
    for text, problem in cases.items():
        with pytest.raises(IllegalActionError) as err:
            g.apply(0, text)
        msg = str(err.value)
        assert repr(text) in msg and problem in msg and msg.endswith("legal: discard 4m"), msg
    assert g.to_json() == before
    assert Action.parse("discard 4m") in g.legal_actions(0)
