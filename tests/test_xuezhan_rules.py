"""血战卡心五 rules beyond the worked examples: 过手胡/过手碰, play after a win, gang limits."""

from __future__ import annotations

import json

import pytest
from scenario import drive, scripted_game, settle

from mjcore import get_variant
from mjcore.engine.actions import Action
from mjcore.errors import IllegalActionError, InvalidHandError, InvalidOptionError, InvalidWallError

V = "xuezhan_kaxinwu"


def legal(g, seat):
    return [str(a) for a in g.legal_actions(seat)]


def test_pass_hu_locks_same_kind_until_own_draw():
    # S waits 1s/4s and passes E's 4s; W pengs it and discards the last 4s: S may not win on it.
    g = scripted_game(V, {0: "4s", 1: "123p456p789p11s23s", 2: "444s"})
    drive(g, [(0, "discard 4s"), (1, "pass"), (2, "peng"), (2, "discard 4s")])
    assert 1 not in g.to_act() or "hu" not in legal(g, 1)
    assert g.seats[1].pass_hu


def test_pass_hu_bigger_fan_may_win():
    # S passes 平胡 on E's 4s; W pengs, 暗杠s, and discards the last 4s: 杠上炮 makes it bigger.
    g = scripted_game(V, {0: "4s", 1: "123p456p789p11s23s", 2: "444s8888s"}, replacements="7p")
    drive(g, [(0, "discard 4s"), (1, "pass"), (2, "peng"), (2, "gang 8s"), (2, "discard 4s")])
    assert "hu" in legal(g, 1)
    g.apply(1, "hu")
    assert sorted(g.wins[0].breakdown.ids) == ["gangshangpao", "pinghu"]


def test_pass_peng_lock_set_and_cleared_by_own_draw():
    g = scripted_game(V, {0: "5p", 1: "55p"}, draws="9s")
    drive(g, [(0, "discard 5p"), (1, "pass")])
    assert g.current == 1 and g.drawn >= 0  # S drew: the lock has ended
    assert not g.seats[1].pass_peng


def test_after_win_only_discard_drawn_and_no_peng():
    g = scripted_game(V, {0: "3p", 1: "1112p456s789s234s", 3: "99s"}, draws="5s6s7s8s")
    drive(g, [(0, "discard 3p"), (1, "hu")])
    # W draws 5s, discards it; N draws 6s; ... S's own turn: only the drawn tile may be discarded.
    drive(g, [(2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri")])
    settle(g)
    assert g.current == 1 and legal(g, 1) == ["discard 8s"]


def test_after_win_gang_must_keep_won_waits():
    # S won on 3p with 1112p: a 暗杠 of 1p would leave waits {2p} that miss 3p -> not offered.
    g = scripted_game(V, {0: "3p", 1: "1112p456s789s234s"}, draws="5s6s9p1p")
    drive(g, [(0, "discard 3p"), (1, "hu"), (2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri")])
    settle(g)
    assert g.current == 1 and legal(g, 1) == ["discard 1p"]


def test_after_win_gang_allowed_when_waits_kept():
    g = scripted_game(V, {0: "2p", 1: "1112p456s789s234s"}, draws="5s6s9p1p")
    drive(g, [(0, "discard 2p"), (1, "hu"), (2, "tsumogiri"), (3, "tsumogiri"), (0, "tsumogiri")])
    settle(g)
    assert "gang 1p" in legal(g, 1)


def test_pung_instead_of_gang_forbids_later_bugang():
    g = scripted_game(V, {0: "5p", 1: "555p"})
    drive(g, [(0, "discard 5p"), (1, "peng")])
    assert "gang 5p" not in legal(g, 1)


def test_illegal_action_changes_nothing():
    g = scripted_game(V, {0: "5p", 1: "555p"})
    before = g.to_json()
    for bad in ["discard 1m", "hu", "peng", "chi 123p", "gang 5p"]:
        with pytest.raises(IllegalActionError):
            g.apply(0, bad)
    with pytest.raises(IllegalActionError, match="not to act"):
        g.apply(2, "discard 5p")
    with pytest.raises(IllegalActionError, match="unknown verb"):
        g.apply(0, "fly 5p")
    assert g.to_json() == before


def test_bad_options_and_walls():
    v = get_variant(V)
    with pytest.raises(InvalidOptionError, match="three_suit"):
        v.new_game(options={"three_suit": True})
    with pytest.raises(InvalidOptionError, match="gang_chain"):
        v.new_game(options={"gang_chain": "double"})
    with pytest.raises(InvalidOptionError, match="players"):
        v.new_game(players=5)
    with pytest.raises(InvalidWallError, match="72"):
        v.new_game(wall="123p")
    with pytest.raises(ValueError, match="xuezhan_kaxinwu"):
        get_variant("riichi")


def test_three_suits_has_108_tiles_and_wan_kaxinwu():
    v = get_variant(V)
    assert len(v.tile_kinds(v.parse_options({"three_suits": True}))) == 108
    win = {"concealed": "46m5m123p456p789s11s", "win_tile": "5m", "how": "discard"}
    assert v.calculate(win, {"three_suits": True}).ids == ["kaxinwu"]


def test_calculator_json_matches_example_x_e4():
    bd = get_variant(V).calculate(
        json.dumps(
            {
                "concealed": "46s5s123p789s99p",
                "melds": ["angang 8p"],
                "win_tile": "5s",
                "how": "self_draw",
                "gang_chain": 1,
            }
        )
    )
    assert sorted(bd.ids) == ["gangshanghua", "kaxinwu"] and bd.points == 8


def test_calculator_not_a_win_and_malformed():
    v = get_variant(V)
    assert v.calculate({"concealed": "1357p2468s123456p", "win_tile": "4p"}) is None
    with pytest.raises(InvalidHandError):
        v.calculate({"concealed": "1234p", "win_tile": "4p"})
    with pytest.raises(InvalidHandError, match="field"):
        v.calculate({"concealed": "11p", "win_tile": "1p", "winner": 3})


def test_kaxinwu_single_wait_option():
    # 3446p waits 2p and 5p; the 5p win reads 345p + 456p (卡心五) but is not a single wait.
    win = {"concealed": "344556p77s123s789s", "win_tile": "5p"}
    v = get_variant(V)
    assert "kaxinwu" in v.calculate(win).ids
    assert "kaxinwu" not in v.calculate(win, {"kaxinwu_single_wait_only": True}).ids


def test_view_hides_other_hands_and_wall():
    g = scripted_game(V, {0: "5p", 1: "555p"})
    view = g.view(1)
    assert "hand" in view["seats"][1]
    assert all("hand" not in s for i, s in enumerate(view["seats"]) if i != 1)
    text = json.dumps(view)
    assert 'wall"' not in text and view["wall_remaining"] == 72 - 53
    assert view["legal_actions"] == [] and g.view(0)["legal_actions"]


def test_json_round_trip_mid_hand():
    g = scripted_game(V, {0: "5p", 1: "555p"})
    drive(g, [(0, "discard 5p"), (1, "peng")])
    h = type(g).from_json(g.to_json())
    assert h.to_json() == g.to_json() and h.view(1) == g.view(1)


def test_action_text_round_trips():
    for text in [
        "discard 5p",
        "chi 456p",
        "peng",
        "gang 7s",
        "hu",
        "pass",
        "declare ting",
        "choose piao 2",
        "niu 567z",
    ]:
        assert str(Action.parse(text)) == text


def test_match_first_dealer_and_last_tile_rule():
    from scenario import play_out

    from mjcore import Match

    m = Match(V, seed=5, first_dealer=2)
    g = m.new_hand()
    assert g.dealer == 2
    play_out(g)
    assert m.new_hand().dealer == g.last_drawer  # 「以摸到最后一张牌的玩家为庄」
    assert Match(V, options={"creator_is_dealer": False}, first_dealer=2).new_hand().dealer == 0


def test_events_for_seat_hide_private_tiles():
    g = scripted_game(V, {0: "9s", 1: "123p456p789p11s23s", 2: "4s"}, draws="8s7s")
    drive(g, [(0, "discard 9s"), (1, "tsumogiri"), (2, "discard 4s"), (1, "hu")])
    json.dumps(g.events)  # the full log is JSON-ready
    mine = g.events_for(2)
    deal = next(e for e in mine if e["type"] == "deal")
    assert deal["hands"][2] is not None and deal["hands"][1] is None
    draws = [e for e in mine if e["type"] == "draw"]
    assert all((e["tile"] is None) == (e["seat"] != 2) for e in draws)
    assert len(mine) == len(g.events)


@pytest.mark.parametrize("meld", ["chi 135p", "peng 12p", "gang 5p", "angang 55p6p", "chi 789p1m"])
def test_malformed_melds_are_rejected(meld):
    win = {"concealed": "11p", "win_tile": "1p", "melds": [meld]}
    with pytest.raises(InvalidHandError):
        get_variant(V).calculate(win)


@pytest.mark.parametrize(
    "win",
    [
        {"concealed": "5555p123s456s789s", "win_tile": "5p", "melds": ["peng 5p"]},
        {"concealed": "123p456p789p11s23s", "win_tile": "4s"},
        {"concealed": "123p456p789p11s234s", "win_tile": "4s", "gang_chain": -1},
    ],
)
def test_impossible_descriptions_are_rejected(win):
    with pytest.raises(InvalidHandError):
        get_variant(V).calculate(win)
