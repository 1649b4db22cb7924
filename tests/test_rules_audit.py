"""Audit of RULES.md V1 (血战卡心五), V4 (青岛) and the §0 conventions they use.

Each test plays a constructed situation through the engine (``scripted_game``) or the
calculator and cites the RULES.md row it checks. The first ones were found failing by the
audit (claim priority, 青岛 without 过手碰, 查叫 on tied readings) and fixed.

Seats: E=0 (dealer, 14 tiles), S=1, W=2, N=3; draws go 0→1→2→3.
"""

from __future__ import annotations

from scenario import drive, paid, play_out, scripted_game

from mjcore import tiles as T
from mjcore.engine.actions import HU, PASS, PENG
from mjcore.engine.wall import build_wall
from mjcore.hand import waits
from mjcore.variants import get_variant

XZ = "xuezhan_kaxinwu"
QD = "qingdao"
NO_HUN = {"hun": False}


def legal(g, seat):
    return [str(a) for a in g.legal_actions(seat)]


def qd_game(hands, draws="", replacements="", options=None, pao=(0, 0, 0, 0), wall=None):
    opts = dict(NO_HUN)
    opts.update(options or {})
    if wall is None:
        g = scripted_game(QD, hands, draws, replacements, options=opts)
    else:
        g = get_variant(QD).new_game(options=opts, wall=wall)
    for seat in range(4):
        g.apply(seat, f"choose pao {pao[seat]}")
    return g


def melds(g, seat):
    return [str(m) for m in g.seats[seat].melds]


# =====================================================================================
# §0.4 claim priority — hu > zhigang = peng > chi (青岛 is the only audited variant with chi)
# =====================================================================================
def test_peng_beats_chi_of_the_xiajia():
    """RULES.md §0.4 「hu > zhigang = peng > chi」 and step 3 「Otherwise
    zhigang/peng …, otherwise chi by D's 下家」; V4.3 「Priority hu > gang/peng > chi」.

    E discards 3m; S (E's 下家) declares chi 123m, W declares peng 3m: the peng must win,
    although S comes first in play order.
    """
    g = qd_game({0: "3m", 1: "12m", 2: "33m"})
    drive(g, [(0, "discard 3m"), (1, "chi 123m"), (2, "peng")])
    assert melds(g, 2) == ["peng 333m"] and melds(g, 1) == []
    assert g.current == 2


def test_zhigang_beats_chi_of_the_xiajia():
    """RULES.md §0.4 「hu > zhigang = peng > chi」; V4.3 「Priority hu >
    gang/peng > chi」.

    E discards 3m; S (下家) declares chi 123m, W (holding 333m) declares 直杠: the gang wins.
    """
    g = qd_game({0: "3m", 1: "12m", 2: "333m"})
    drive(g, [(0, "discard 3m"), (1, "chi 123m"), (2, "gang 3m")])
    assert melds(g, 2) == ["zhigang 3333m"] and melds(g, 1) == []


def test_hu_beats_chi_and_peng():
    """RULES.md §0.4 step 2: if ≥1 seat declares hu, all other claims are cancelled."""
    g = qd_game({0: "4p", 1: "35p", 2: "44p", 3: "123m456p789s11z23p"})
    drive(g, [(0, "discard 4p"), (1, "chi 345p"), (2, "peng"), (3, "hu")])
    assert [w.seat for w in g.wins] == [3]
    assert melds(g, 1) == [] and melds(g, 2) == []
    assert g.scores == [-1, 0, 0, 1]


# =====================================================================================
# 过手碰 — V1 has it (V1.3, X12), V4 does not (V4.3, DEC Q18)
# =====================================================================================
def test_xuezhan_pass_peng_blocks_same_kind_until_own_draw():
    """RULES.md V1.3 过手碰 「If a seat could peng a discard of kind t and passes, it may
    not peng kind t again until its next own action」 [DEC X12].

    S passes peng on W's 5p; N discards the last 5p before S has drawn: no peng for S.
    """
    g = scripted_game(XZ, {0: "9s", 1: "55p", 2: "5p", 3: "5p"}, draws="8s7s6s")
    drive(g, [(0, "discard 9s"), (1, "tsumogiri"), (2, "discard 5p")])
    assert PENG in g.legal_actions(1)
    drive(g, [(1, "pass"), (3, "discard 5p")])
    assert 1 not in g.to_act() or PENG not in g.legal_actions(1)


def test_qingdao_has_no_pass_peng_rule():
    """RULES.md V4.3 「过手碰: not a rule in this variant. [DEC Q18]」
    (V4.7 Q18: 过手碰 not mentioned → none).

    S passes peng on W's 5m; N then discards the last 5m: S may peng it (the engine's
    过手碰 lock applies only where ``Variant.pass_peng_rule`` is set).
    """
    g = qd_game({0: "9s", 1: "55m", 2: "5m", 3: "5m"}, draws="8s7s6s")
    drive(g, [(0, "discard 9s"), (1, "tsumogiri"), (2, "discard 5m")])
    assert PENG in g.legal_actions(1)
    drive(g, [(1, "pass"), (3, "discard 5m")])
    assert 1 in g.to_act() and PENG in g.legal_actions(1)


# =====================================================================================
# 过手胡 (V1) — only the same kind is locked
# =====================================================================================
def test_xuezhan_pass_hu_does_not_lock_other_kinds():
    """RULES.md V1.3 过手胡: the lock is on 「another discard of the same kind t」 only
    [DEC X11]. S (waits 1s/4s) passes W's 4s and may still win on N's 1s.
    """
    g = scripted_game(XZ, {0: "9s", 1: "123p456p789p11s23s", 2: "4s", 3: "1s"}, draws="8p7p6p")
    drive(g, [(0, "discard 9s"), (1, "tsumogiri"), (2, "discard 4s")])
    assert HU in g.legal_actions(1)
    drive(g, [(1, "pass"), (3, "discard 1s")])
    assert HU in g.legal_actions(1)
    drive(g, [(1, "hu")])
    assert [w.tile for w in g.wins] == [T.kind("1s")]


# =====================================================================================
# V1 有杠必杠 (补杠 row), turn order after wins (DEC X6)
# =====================================================================================
def test_xuezhan_must_gang_forces_bugang():
    """RULES.md V1.3 有杠必杠 table, row 补杠: ON → 「must gang (hu on own draw still
    allowed instead)」. S has peng 3p and draws the 4th 3p: no discard is offered.
    """
    g = scripted_game(XZ, {0: "3p", 1: "33p9s"}, draws="8s7s6s3p", options={"must_gang": True})
    drive(
        g,
        [
            (0, "discard 3p"),
            (1, "peng"),
            (1, "discard 9s"),
            (2, "tsumogiri"),
            (3, "tsumogiri"),
            (0, "tsumogiri"),
        ],
    )
    assert g.current == 1 and g.drawn == T.kind("3p")
    acts = legal(g, 1)
    assert "gang 3p" in acts and not any(a.startswith("discard") for a in acts)


def test_xuezhan_after_single_discard_win_winners_xiajia_draws():
    """RULES.md V1.3 Turn order after wins [DEC X6]: 「after a single discard win …, the
    winner's 下家 draws next」. E discards, W wins: N (not S) draws next.
    """
    g = scripted_game(XZ, {0: "4s", 2: "123p456p789p11s23s"})
    drive(g, [(0, "discard 4s"), (2, "hu")])
    assert [w.seat for w in g.wins] == [2]
    assert g.current == 3 and g.draw_how == "wall" and not g.is_over


def test_xuezhan_after_self_draw_winners_xiajia_draws():
    """RULES.md V1.3 [DEC X6]: 「after a self-draw win the winner's 下家 draws」."""
    g = scripted_game(XZ, {0: "9s", 1: "123p456p789p11s23s"}, draws="4s")
    drive(g, [(0, "discard 9s"), (1, "hu")])
    assert g.wins[0].how == "self_draw"
    assert g.current == 2 and g.draw_how == "wall"


def test_xuezhan_multi_rob_robbed_seat_draws_next():
    """RULES.md V1.3 Rob the gang 「Several robbers may all win」, 「the robbed 补杠 scores
    nothing」, and turn order [DEC X6] 「multi-rob → robbed seat draws」."""
    g = scripted_game(
        XZ,
        {0: "12p456p789p11s234s9s", 1: "33p", 2: "3p", 3: "12p456s789s11s567p"},
        draws="9p8s9p8s7s3p",
    )
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
            (3, "hu"),
        ],
    )
    assert sorted(w.seat for w in g.wins) == [0, 3]
    assert all(w.breakdown.ids == ["pinghu", "qiangganghu"] for w in g.wins)
    assert g.scores == [4, -8, 0, 4] and paid(g, "bugang") == []
    assert g.current == 1 and g.draw_how == "wall"


# =====================================================================================
# V1.5 查叫 — max over the waits of (N + 清一色)
# =====================================================================================
def test_xuezhan_chajiao_takes_the_largest_base_pattern_of_a_wait():
    """RULES.md V1.5 查叫 (b): a tenpai seat V receives
    `2^(max over V's waits of (N + [清一色]))` — 卡心五 counts, 鬼 does not [DEC X17].

    S is tenpai on 5p with `44566p 11112233s`. With 5p the hand reads either as
    卡心五 (N=2, +1 鬼) or as 龙七对 (N=3). The largest base pattern is 龙七对, N=3,
    so a non-tenpai seat pays S 2^3 = 8. The implementation takes the single best
    *scoring* reading (both total 3 fan; it keeps 卡心五+鬼) and then drops 鬼, paying 4.
    """
    south, west = "44566p11112233s", "1p3p5p7p9p2s4s6s8s2p6p5s3s"
    assert waits(T.counts(south)) == [T.kind("5p")] and not waits(T.counts(west))
    g = scripted_game(XZ, {1: south, 2: west})
    play_out(g)
    assert not g.wins
    assert (2, 1, 8, "chajiao") in paid(g, "chajiao")


# =====================================================================================
# V4 wall end: 海底捞, 分张, 4-gang 荒庄 with 杠上花; V4.2 dealer with a multi-win
# =====================================================================================
def _end_game_wall(last_live: str, first_fenzhang: str):
    """A 青岛 wall (带混 off, 14 kept, 分张 4) where S is tenpai on 1p/4p, W on 1s/4s;
    the last normal draw (S's) is ``last_live`` and W's 分张 tile is ``first_fenzhang``."""
    v = get_variant(QD)
    kinds = v.tile_kinds(v.parse_options(NO_HUN))
    hands = {1: "123m456p789s11z23p", 2: "789m456p123p22z23s"}
    wall = build_wall(kinds, 4, 0, hands, "", "", seed=3)
    # 53 dealt; live normal draws are indexes 53 … 117 (65 draws: the 65th goes to S);
    # 118 … 121 are the 分张 tiles (W, N, E, S); 122 … 135 are the 14 kept tiles.
    for index, tile in ((117, last_live), (118, first_fenzhang)):
        want = T.kind(tile)
        j = next(i for i in range(53, 136) if wall[i] == want and i not in (117, 118))
        wall[index], wall[j] = wall[j], wall[index]
    return wall


def _pass_to(g, stop):
    """Everyone discards the drawn tile and passes claims until ``stop(g)`` is true."""
    while not g.is_over and not stop(g):
        seat = g.to_act()[0]
        acts = g.legal_actions(seat)
        if PASS in acts and g.phase != "turn":
            g.apply(seat, PASS)
        else:
            drawn = f"discard {T.format([g.drawn])}" if g.drawn >= 0 else None
            g.apply(
                seat,
                drawn if drawn in map(str, acts) else next(a for a in acts if a.kind == "discard"),
            )


def test_qingdao_haidilao_on_last_draw_before_fenzhang():
    """RULES.md V4.4 factor 海底捞 ×2 「self-draw on the last drawable tile before 分张」,
    V4.1 wall end (14 kept, 分张 n) and [DEC Q8, Q21]: the 65th normal draw is the last.
    """
    g = qd_game({}, wall=_end_game_wall("4p", "9m"))
    _pass_to(g, lambda g: g.phase == "turn" and g.current == 1 and g.haidi)
    assert g.wall.live == 4 and g.drawn == T.kind("4p")
    drive(g, [(1, "hu")])
    assert g.wins[0].breakdown.ids == ["pihu", "haidilao"]
    assert g.scores == [-2, 6, -2, -2]


def test_qingdao_fenzhang_win_is_not_haidi_and_starts_at_next_seat():
    """RULES.md §0.5 / V4.1 分张: 「each seat, in play order starting from the seat that
    would draw next, receives one tile. A seat may declare a self-draw win with its 分张
    tile; it is not 海底捞 and cannot be claimed by others」 [DEC Q21].
    """
    g = qd_game({}, wall=_end_game_wall("9m", "4s"))
    _pass_to(g, lambda g: g.phase == "fenzhang")
    assert g.to_act() == [2] and g.drawn == T.kind("4s")
    assert legal(g, 2) == ["hu", "pass"]
    drive(g, [(2, "hu")])
    (win,) = g.wins
    assert win.how == "fenzhang" and win.breakdown.ids == ["pihu"]
    assert g.scores == [-1, -1, 3, -1] and g.is_over


def test_qingdao_fourth_gang_replacement_may_win():
    """RULES.md V4.1 「4 gangs on the table → 荒庄」 with [DEC Q9]: 「after the 4th gang on
    the table and its replacement draw: the ganger may win by 杠上花」.
    """
    g = qd_game({0: "1111m2222m3333m4m5z"}, replacements="4m4m4m5z")
    drive(g, [(0, "gang 1m"), (0, "gang 2m"), (0, "gang 3m"), (0, "gang 4m")])
    assert legal(g, 0) == ["hu", "pass"]
    drive(g, [(0, "hu")])
    assert sorted(g.wins[0].breakdown.ids) == ["gangshanghua", "pengpenghu", "shoubayi"]
    # 4 暗杠 × 2 from each + 2 × 2 × 2 = 8 from each
    assert g.scores == [48, -16, -16, -16]
    assert not g.exhausted and g.next_dealer == 0


def test_qingdao_dealer_stays_when_among_multi_winners():
    """RULES.md V4.2 「dealer wins (also as one of several winners) → dealer stays」
    [DEC Q31]; V4.5 一炮多响: the discarder pays each winner."""
    g = qd_game(
        {0: "123m789m456s11z46p9m", 1: "11m22s33s44z55z66z5p", 3: "5p"},
        draws="8s7s3m",
        options={"multi_win": True},
    )
    drive(
        g,
        [
            (0, "discard 9m"),
            (1, "tsumogiri"),
            (2, "tsumogiri"),
            (3, "discard 5p"),
            (0, "hu"),
            (1, "hu"),
        ],
    )
    assert sorted(w.seat for w in g.wins) == [0, 1]
    assert g.scores == [1, 2, 0, -3]
    assert g.next_dealer == 0


def test_qingdao_dihu_after_the_dealers_angang():
    """RULES.md V4.4 地胡 「a non-dealer self-draws on its first draw, no claim before it」
    (DEC Q25). An 暗杠 is not a claim (§0.4 claims are reactions to a discard), so the
    dealer's first-turn 暗杠 does not take 地胡 away. (宿松 V3 excludes any gang; its module
    would check ``game.gangs_on_table``.)
    """
    g = qd_game({0: "1111m", 1: "123p456p789p11s23s"}, draws="4s", replacements="9m")
    drive(g, [(0, "gang 1m"), (0, "discard 9m"), (1, "hu")])
    assert "dihu" in g.wins[0].breakdown.ids
