"""``Match.new_hand(wall=...)``: scripted (or recorded) walls hand by hand, the dealer and the
carried state still from the match's rules. A three-hand match of every variant on scripted
walls checks dealer rotation, 连庄, carried 飘/长跑 and 荒庄翻倍 where the variant has them;
a bot-played match is replayed from its recorded walls; a wrong wall is an InvalidWallError."""

from __future__ import annotations

import pytest
from scenario import drive, play_out

from mjcore import Match
from mjcore.bots import make_bot
from mjcore.engine.wall import build_wall
from mjcore.errors import InvalidWallError

STANDARD = "123m456p789s55p23s"  # waits 1s/4s, a 258 pair (荣成's 掌)


def deal(m: Match, dealer: int, hands: dict, draws: str = "", replacements: str = ""):
    """The match's next hand on a wall scripted for ``dealer`` (the dealer the test expects)."""
    v = m.variant
    opts = v.parse_options(m.options)
    wall = build_wall(
        v.tile_kinds(opts),
        m.players,
        dealer,
        hands,
        draws,
        replacements,
        apart=v.flower_kinds(opts),
    )
    game = m.new_hand(wall=wall)
    assert game.dealer == dealer and game.seed is None
    assert list(game.wall.tiles) == wall
    return game


def choose(game, **values):
    """Every seat asked in the 'choose' phase answers ``values[name]`` (default 0)."""
    while game.phase == "choose":
        seat = game.to_act()[0]
        acts = [str(a) for a in game.legal_actions(seat)]
        name = acts[0].split()[1]
        game.apply(seat, f"choose {name} {values.get(f'{name}{seat}', 0)}")


def check_totals(m: Match) -> None:
    for g in m.hands:
        assert g.is_over and sum(g.scores) == 0
    assert m.scores == [sum(col) for col in zip(*(g.scores for g in m.hands), strict=True)]
    back = Match.from_json(m.to_json())  # scripted hands keep their walls
    assert back.scores == m.scores and back.dealers == m.dealers
    assert [g.wall.tiles for g in back.hands] == [g.wall.tiles for g in m.hands]


def last_drawer(game, skipped: int = 0) -> int:
    """Who draws the last tile when no one claims, gangs or replaces: the k-th draw after the
    deal is the dealer's k-th next seat. A self-draw win leaves that order (the winner's 下家
    draws next, as after its discard); a win on a discard by the discarder's 下家 skips the
    winner's draw (its 下家 draws next) [X6]: ``skipped`` such wins shift the order."""
    return (game.dealer + len(game.wall.tiles) - 13 * game.n - 1 + skipped) % game.n


def test_rongcheng_match_changpao_dealer_stays_and_passes():
    m = Match("rongcheng", seed=5)
    # 1: E 长跑 2 (kept for the match), 天胡 屁胡: 1 × 10 + 飘 2 = 12 from each seat
    g = deal(m, 0, {0: "123m456p789s55p234s"})
    g.apply(0, "choose changpao 2")
    choose(g)
    drive(g, [(0, "hu")])
    assert g.scores == [36, -12, -12, -12]
    # 2: the dealer won: 连庄. E's 飘 2 is not asked again; S 飘 1 wins 地胡 on E's 4s:
    # 1 × 5 + 飘 2 + 飘 1 = 8 [R-e8, R-e5, R12]
    g = deal(m, 0, {0: "4s", 1: STANDARD})
    assert not g.legal_actions(0) and g.seats[0].choices["piao"] == 2
    assert [e["locked"] for e in g.events if e["type"] == "choose"] == [True]
    choose(g, piao1=1)
    drive(g, [(0, "discard 4s"), (1, "hu")])
    assert g.scores == [-8, 8, 0, 0]
    # 3: S deals (a non-dealer won); nobody declares: 无杠荒牌, S stays dealer [R16]
    g = deal(m, 1, {})
    assert g.seats[0].choices["piao"] == 2
    choose(g)
    play_out(g)
    assert g.exhausted and not g.wins and not g.gangs_on_table and g.next_dealer == 1
    assert m.dealers == [0, 0, 1]
    check_totals(m)


def test_qingdao_match_huangzhuang_doubles_the_next_win_once():
    m = Match("qingdao", options={"hun": False}, seed=5)
    g = deal(m, 0, {})  # 1: 荒庄 with no gang: 无杠连庄 [Q10]
    choose(g)
    play_out(g)
    assert g.exhausted and not g.gangs_on_table and g.next_dealer == 0
    # 2: S (跑 1) wins 屁胡 on E's (跑 2) 4s: 1 × 2 (荒庄翻倍) + 1 + 2 = 5 [Q13, Q14]
    g = deal(m, 0, {0: "4s", 1: STANDARD})
    assert g.carry == {"huangzhuang": True}
    choose(g, pao0=2, pao1=1)
    drive(g, [(0, "discard 4s"), (1, "hu")])
    assert sorted(g.wins[0].breakdown.ids) == ["huangzhuang_fanbei", "pihu"]
    assert g.scores == [-5, 5, 0, 0]
    # 3: S deals; 天胡 屁胡 × 5, no doubling (the last hand was won), 跑 asked again (all 0)
    g = deal(m, 1, {1: "123m456p789s55p234s"})
    assert g.carry == {"huangzhuang": False}
    choose(g)
    drive(g, [(1, "hu")])
    assert sorted(g.wins[0].breakdown.ids) == ["pihu", "tianhu"]
    assert g.scores == [-5, 15, -5, -5] and g.next_dealer == 1
    assert m.dealers == [0, 0, 1]
    check_totals(m)


def test_xuezhan_match_the_last_drawer_deals():
    m = Match("xuezhan_kaxinwu", seed=5)
    g = deal(m, 0, {})  # 1: nobody wins: 「以摸到最后一张牌的玩家为庄」
    play_out(g)
    assert not g.wins and g.last_drawer == last_drawer(g) and g.next_dealer == g.last_drawer
    d = g.next_dealer
    # 2: the dealer's 下家 wins 卡心五 on the dealer's 5p; play goes on to the wall's end
    s = (d + 1) % 4
    g = deal(m, d, {d: "5p", s: "123s456s789s11p46p"})
    drive(g, [(d, "discard 5p"), (s, "hu")])
    play_out(g)
    assert [(w.seat, w.from_seat) for w in g.wins][:1] == [(s, d)]
    assert g.next_dealer == last_drawer(g, skipped=1)
    d2 = g.next_dealer
    # 3: the dealer wins on its dealt tiles
    g = deal(m, d2, {d2: "123s456s789s11p46p5p"})
    drive(g, [(d2, "hu")])
    play_out(g)
    assert g.wins[0].seat == d2 and g.next_dealer == last_drawer(g)
    assert m.dealers == [0, d, d2]
    check_totals(m)


def test_lipu_match_winner_deals_and_liuju_keeps_the_dealer():
    m = Match("lipu", seed=5)
    g = deal(m, 0, {0: "7z", 3: "1122m3344p5566s7z"})  # 1: N wins 七对 on E's 7z
    drive(g, [(0, "discard 7z"), (3, "hu")])
    assert g.wins[0].seat == 3 and g.next_dealer == 3  # the winner deals
    g = deal(m, 3, {})  # 2: 流局: the dealer stays
    play_out(g)
    assert g.exhausted and not g.wins and g.next_dealer == 3
    g = deal(m, 3, {3: "1122m3344p5566s77z"})  # 3: the dealer wins its dealt hand (自摸)
    drive(g, [(3, "hu")])
    assert g.wins[0].seat == 3 and g.next_dealer == 3
    assert m.dealers == [0, 3, 3]
    check_totals(m)


def test_susong_match_winner_deals_and_liuju_keeps_the_dealer():
    m = Match("susong", seed=5)
    # 1: S (no 花) wins 无花果 on E's 6s [S-e10]
    g = deal(m, 0, {0: "6s", 1: "123m456p789s11z45s"}, replacements="9m9m")
    drive(g, [(0, "discard 6s"), (1, "hu")])
    assert g.wins[0].seat == 1 and g.next_dealer == 1
    g = deal(m, 1, {})  # 2: 流局: the dealer stays
    play_out(g)
    assert g.exhausted and not g.wins and g.next_dealer == 1
    g = deal(m, 1, {1: "123m456p789s11z456s"})  # 3: 天胡
    drive(g, [(1, "hu")])
    assert "tianhu" in g.wins[0].breakdown.ids and g.next_dealer == 1
    assert m.dealers == [0, 1, 1]
    check_totals(m)


@pytest.mark.parametrize("variant", ["rongcheng", "qingdao", "lipu"])
def test_a_bot_match_replays_from_its_recorded_walls(variant):
    """Hands of a bot-played match, replayed through new_hand(wall=recorded wall) and the
    recorded actions, give the same dealers, carried state and scores."""
    m = Match(variant, seed=11)
    bots = [make_bot("greedy", seed=s) for s in range(4)]
    for _ in range(3):
        g = m.new_hand()
        while not g.is_over:
            seat = g.to_act()[0]
            g.apply(seat, bots[seat].act_fast(g, seat, g.legal_actions(seat)))
    replay = Match(variant, seed=999)  # another seed: every tile comes from the walls
    for g in m.hands:
        again = replay.new_hand(wall=list(g.wall.tiles))
        assert (again.dealer, again.carry) == (g.dealer, g.carry)
        for seat, action in g.history:
            again.apply(seat, str(action))
        assert again.scores == g.scores
    assert replay.scores == m.scores and replay.dealers == m.dealers


def test_a_wrong_wall_deals_nothing():
    m = Match("rongcheng")
    short = build_wall(list(range(34)) * 4, 4)[:-1]
    with pytest.raises(InvalidWallError, match="not the rongcheng tile set"):
        m.new_hand(wall=short)
    with pytest.raises(InvalidWallError, match="bad wall"):
        m.new_hand(wall="1m2x")
    assert m.hands == [] and m.current is None
    m.new_hand()  # the seeded shuffle still deals hand 0
    assert m.current.seed == m.hand_seed(0)
