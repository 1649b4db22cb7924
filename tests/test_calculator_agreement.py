"""The hand calculator answers what the game would, and refuses what the game refuses.

Random seeded games of every variant and option set describe each seat's would-be win at every
self-draw and claim window (``Game.win_context``) and ask the calculator, as a ``WinContext`` and
as its JSON form: where the game offers ``hu`` the calculator scores the same points; where the
game refuses by a rule the description carries, the calculator refuses naming the rule; where
it refuses for a fact no description carries (docs/vocabulary.md, "What a calculator description
cannot carry") the comparison is skipped and counted. Then one regression test per repro of
issue 20 §3 and of the issue 21 bullet on hand-built WinContexts.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import numpy as np
import pytest

from mjcore import tiles as T
from mjcore.bots import GreedyBot
from mjcore.engine.actions import HU
from mjcore.engine.melds import Meld
from mjcore.errors import InvalidHandError
from mjcore.scoring import Breakdown, WinContext
from mjcore.variants import get_variant, names

GAMES_PER_SET = 3  # games per (variant, option set), seeds 0, 1, 2: players 2, 3, 4 where allowed
EXTRA_SETS = {  # option combinations beyond one option at a time
    "qingdao": [{"niupai": True, "niupai_forces_zimo": False}, {"hun": False, "niupai": True}],
    "rongcheng": [{"self_draw_only": True, "luanzhang": True}],
    "susong": [{"piaohua": True, "chuzeng": 1}],
    "lipu": [{"laogang": True, "no_chi_adjacent": True}],
}


def option_sets(name: str) -> list[dict[str, Any]]:
    """The defaults, each option at each other value it takes, and a few combinations."""
    v = get_variant(name)
    out: list[dict[str, Any]] = [{}]
    for f in dataclasses.fields(v.Options):
        choices = f.metadata.get("choices") or ((not f.default,) if f.default in (0, 1) else ())
        out += [{f.name: c} for c in choices if c != f.default]
    return out + EXTRA_SETS.get(name, [])


CASES = [(name, opts) for name in names() for opts in option_sets(name)]
IDS = [f"{n}-{','.join(f'{k}={v}' for k, v in o.items()) or 'defaults'}" for n, o in CASES]


# ---- what the game cannot put in a description ------------------------------------------
def _locked(st: Any) -> bool:
    """荣成: declared 听 and discarded since (the seat may win)."""
    return bool(st.declared) and st.discard_count > st.extra.get("ting_discards", 1 << 30)


def uncarried(g: Any, seat: int, tile: int, how: str) -> str:
    """The game-state fact that may refuse this win and that no description carries ('')."""
    v, st = g.variant, g.seats[seat]
    if st.sealed:
        return "封胡"
    claim = how in ("discard", "rob_gang")
    if claim and (
        (v.pass_hu_rule == "any" and st.pass_hu_any)
        or (v.pass_hu_rule == "same_kind" and tile in st.pass_hu)
    ):
        return "过手胡"
    if v.name == "rongcheng" and not _locked(st):
        return "听 declaration"
    if v.name == "susong" and claim and not v.can_win(g, seat, tile, how):
        return "the discarder's 花"
    return ""


# ---- the two answers ---------------------------------------------------------------------
def answer(v: Any, ctx: Any, options: dict[str, Any]) -> Breakdown | str | None:
    """The calculator's answer: a breakdown, None (no win by its tiles) or the refusal text."""
    try:
        return v.calculate(ctx, options)
    except InvalidHandError as exc:
        return str(exc)


def same(a: Any, b: Any) -> bool:
    if isinstance(a, Breakdown) and isinstance(b, Breakdown):
        return (a.points, a.ids) == (b.points, b.ids)
    return a == b


def compare(g: Any, seat: int, tile: int, how: str, offered: bool, tally: Counter) -> None:
    """Assert the game's offer and the calculator's answer agree on this would-be win."""
    v, options, st = g.variant, g.opts.to_dict(), g.seats[seat]
    ctx = g.win_context(seat, tile, how)
    calc = answer(v, ctx, options)
    if all(m.kind != "niu" or m.claimed < 0 for m in ctx.melds):  # (JSON has no 扭 stand-in)
        assert same(answer(v, ctx.to_json(), options), calc), (ctx, calc)
        tally["json round trips"] += 1
    if st.held_flowers:  # a flower in the hand: the game refuses, and so does the description
        assert not offered
        held = {**ctx.to_json(), "concealed": T.format(ctx.concealed) + T.format(st.held_flowers)}
        assert "flower" in str(answer(v, held, options)), held
        tally["refused alike: held flower"] += 1
        return
    if offered:
        engine = g.evaluate_win(seat, tile, how)
        assert isinstance(calc, Breakdown) and same(calc, engine), (ctx, calc, engine)
        assert v.why_not_win(ctx, options) == ""
        tally["scored alike"] += 1
        return
    reason = uncarried(g, seat, tile, how)
    if reason:
        tally[f"skipped: {reason}"] += 1
        return
    assert not isinstance(calc, Breakdown), (ctx, calc)  # the game refuses: so does the calculator
    assert v.why_not_win(ctx, options) == (calc or v.why_not_win(ctx, options) or "a reason")
    if calc is None:  # no win by its tiles
        tally["no win alike"] += 1
    else:  # a rule the game's can_win also applies, named
        assert "RULES" in calc and not v.can_win(g, seat, tile, how), (ctx, calc)
        tally["refused alike: a rule"] += 1


def windows(g: Any):
    """Each (seat, tile, how, offered) the game decides now: a self-draw or a claim window."""
    if g.phase == "turn" and g.drawn >= 0 and g.draw_how != "claim":
        seat, tile = g.current, g.drawn
        if not g.is_flower[tile]:  # a drawn flower is set aside, never a winning tile
            yield seat, tile, "self_draw", HU in g.legal_actions(seat)
    elif g.phase in ("claim", "rob") and not g.decisions:
        src, tile, kind = g.claim
        how = "discard" if kind == "discard" else "rob_gang"
        if not g.is_flower[tile]:
            for s in g.others(src):
                yield s, tile, how, HU in g.legal_actions(s)
    elif g.phase == "fenzhang" and not g.decisions:  # the game opens it only for a win
        (seat,) = g.pending
        yield seat, g.drawn, "fenzhang", True


def play(name: str, options: dict[str, Any], seed: int, tally: Counter) -> None:
    """A greedy game (wins passed now and then, declarations taken) checked at every window."""
    v = get_variant(name)
    span = v.max_players - v.min_players + 1
    players = v.min_players + seed % span
    g = v.new_game(players=players, options=options, seed=seed)
    bots = [GreedyBot(seed * 10 + s) for s in range(players)]
    rng = np.random.default_rng(seed)
    for _ in range(2000):  # (bounded: a hand ends well before)
        if g.is_over:
            return
        for seat, tile, how, offered in windows(g):
            compare(g, seat, tile, how, offered, tally)
        seat = g.to_act()[0]
        legal = list(g.legal_actions(seat))
        if HU in legal and len(legal) > 1 and rng.random() < 0.3:
            legal.remove(HU)  # pass a win: 过手 locks, and the hand goes on
        declare = [a for a in legal if a.kind == "declare"]
        if declare and rng.random() < 0.7:
            action = declare[int(rng.integers(len(declare)))]
        elif rng.random() < 0.15:
            action = legal[int(rng.integers(len(legal)))]
        else:
            action = bots[seat].act_fast(g, seat, legal)
        g.apply(seat, action)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_engine_and_calculator_agree(name: str, options: dict[str, Any]) -> None:
    tally: Counter = Counter()
    for seed in range(GAMES_PER_SET):
        play(name, options, seed, tally)
    assert tally["no win alike"] > 0 and tally["json round trips"] > 0, tally


COVERAGE = [  # (variant, options, the kinds of comparison its games must make)
    ("xuezhan_kaxinwu", {}, ("scored alike", "no win alike")),
    ("qingdao", {}, ("scored alike", "refused alike: a rule")),  # a 混 held on a discard
    ("rongcheng", {"self_draw_only": True}, ("refused alike: a rule", "skipped: 听 declaration")),
    ("lipu", {}, ("scored alike", "skipped: 封胡")),
    ("susong", {"piaohua": True}, ("refused alike: held flower", "skipped: the discarder's 花")),
]


@pytest.mark.parametrize(("name", "options", "kinds"), COVERAGE, ids=[c[0] for c in COVERAGE])
def test_the_agreement_makes_each_kind_of_comparison(name: str, options: dict, kinds: tuple):
    """More games of a few sets: each kind of answer is compared (the test is not vacuous)."""
    tally: Counter = Counter()
    for seed in range(8):
        play(name, options, seed, tally)
    assert all(tally[k] > 0 for k in kinds), tally


# ---- regressions: tiles outside the variant's set ------------------------------------------
FLOWERED = {"concealed": "123p456p789p11s234s", "win_tile": "2s", "flowers": "1f1f1f2m"}


@pytest.mark.parametrize("name", ["xuezhan_kaxinwu", "qingdao", "lipu", "rongcheng"])
def test_a_flower_area_outside_the_tile_set_is_refused(name: str) -> None:
    v = get_variant(name)
    with pytest.raises(InvalidHandError, match=rf"1f \(春, in flowers\) .* {name}'s tile set"):
        v.calculate({**FLOWERED, "flowers": "1f"})
    with pytest.raises(InvalidHandError, match=rf"{name}'s tile set"):
        v.calculate(FLOWERED)
    with pytest.raises(InvalidHandError, match=rf"flowers: 2p \(二筒\) is not a flower in {name}"):
        v.calculate({**FLOWERED, "flowers": "2p"})


def test_a_flower_among_the_concealed_tiles_is_refused_never_dropped() -> None:
    win = {"concealed": "123p456p789p11s222s1f", "win_tile": "2s"}
    for name in names():
        with pytest.raises(InvalidHandError, match=rf"^{name}: concealed: 1f \(春\) is a flower"):
            get_variant(name).calculate(win)


def test_susong_white_dragon_is_a_flower_everywhere_in_a_hand() -> None:
    v = get_variant("susong")
    with pytest.raises(InvalidHandError, match=r"concealed: 5z \(白板\) is a flower in susong"):
        v.calculate({"concealed": "123m456p789s55z45s6s", "win_tile": "6s"})
    with pytest.raises(InvalidHandError, match=r"melds: 5z \(白板\) is a flower in susong"):
        v.calculate({"concealed": "456p789s11z45s6s", "win_tile": "6s", "melds": ["peng 5z"]})
    ok = v.calculate({"concealed": "123m456p789s11z45s6s", "win_tile": "6s", "flowers": "5z1f"})
    assert ok is not None


# ---- regressions: facts in the description that forbid the win ------------------------------
HUN = {"concealed": "123m456p789s1z23s4s", "win_tile": "4s", "jokers": 1}


@pytest.mark.parametrize("how", ["discard", "rob_gang"])
def test_qingdao_a_seat_holding_a_hun_wins_by_self_draw_only(how: str) -> None:
    q = get_variant("qingdao")
    with pytest.raises(InvalidHandError, match="手牌里有混，只能自摸胡牌.*V4.3"):
        q.calculate({**HUN, "how": how})
    assert q.calculate({**HUN, "how": "self_draw"}).points == 1
    assert q.calculate({**HUN, "how": how, "jokers": 0, "concealed": "123m456p789s11z23s4s"})


@pytest.mark.parametrize(
    ("options", "rule"),
    [({"self_draw_only": True}, "自摸胡"), ({"niupai": True}, "扭牌.*Q6")],
)
def test_qingdao_self_draw_only_options_refuse_a_discard_win(options: dict, rule: str) -> None:
    q = get_variant("qingdao")
    win = {"concealed": "123m456p789s11z23s4s", "win_tile": "4s"}
    for how in ("discard", "rob_gang"):
        with pytest.raises(InvalidHandError, match=rule):
            q.calculate({**win, "how": how}, options)
    assert q.calculate({**win, "how": "self_draw"}, options).points == 1
    assert q.calculate(win, {"niupai": True, "niupai_forces_zimo": False}).points == 1


def test_rongcheng_self_draw_only_refuses_a_discard_win_but_dihu() -> None:
    r = get_variant("rongcheng")
    win = {"concealed": "123m456p789s22234s", "win_tile": "4s"}
    opts = {"self_draw_only": True}
    for how in ("discard", "rob_gang"):
        with pytest.raises(InvalidHandError, match="自摸胡.*V5.3"):
            r.calculate({**win, "how": how}, opts)
    assert r.calculate({**win, "how": "self_draw"}, opts).points == 1
    assert r.calculate({**win, "flags": ["dihu"]}, opts).points == 5  # 地胡 needs no 听
    assert r.calculate(win).points == 1


def test_why_not_win_names_the_rule_the_tiles_miss() -> None:
    r, q = get_variant("rongcheng"), get_variant("qingdao")
    pair11 = {"concealed": "123m456p789s11234s", "win_tile": "4s"}
    assert "掌" in r.why_not_win(pair11) and r.why_not_win(pair11, {"luanzhang": True}) == ""
    assert "no winning shape" in r.why_not_win({"concealed": "1357m2468s123456p", "win_tile": "1m"})
    pingdu = {"concealed": "123m456p789s11z23s4s", "win_tile": "4s"}
    assert "平度8张" in q.why_not_win(pingdu, {"pingdu8": True})
    assert "258将" in q.why_not_win(pingdu, {"pair258": True})
    assert q.why_not_win({**HUN, "how": "discard"}) == q.win_refusal(
        WinContext.from_json({**HUN, "how": "discard"}), q.parse_options(None)
    )


# ---- regressions: a hand-built WinContext is checked like the JSON form (issue 21) -------------
GOOD = WinContext(T.counts("123p456p789p22s333s"), T.kind("3s"), "self_draw")


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"how": "tianhu"}, "how"),
        ({"win_tile": "5s"}, "win_tile"),
        ({"win_tile": 5.0}, "win_tile"),
        ({"win_tile": True}, "win_tile"),
        ({"win_tile": 99}, "win_tile"),
        ({"melds": ("angang 8p",)}, "melds"),
        ({"melds": "peng 1p"}, "melds"),
        ({"melds": (Meld("peng", (99, 99, 99)),)}, "melds"),
        ({"flags": ["x"]}, "flags"),
        ({"flags": frozenset({1})}, "flags"),
        ({"jokers": None}, "jokers"),
        ({"jokers": -1}, "jokers"),
        ({"gang_chain": 1.5}, "gang_chain"),
        ({"after_gang": "1"}, "after_gang"),
        ({"joker_kind": "5p"}, "joker_kind"),
        ({"flowers": "1f"}, "flowers"),
        ({"flowers": (1.0,)}, "flowers"),
        ({"concealed": "123p456p789p11s222s"}, "concealed"),
        ({"concealed": np.zeros(33, dtype=np.uint8)}, "concealed"),
        ({"concealed": np.zeros((2, 34), dtype=np.uint8)}, "concealed"),
        ({"concealed": T.counts("123p456p789p11s222s").astype(float)}, "concealed"),
        ({"concealed": T.counts("123p456p789p11s222s").astype(bool)}, "concealed"),
        ({"concealed": np.full(34, 5, dtype=np.uint8)}, "concealed"),
        ({"concealed": np.full(34, -1, dtype=np.int64)}, "concealed"),
    ],
)
def test_a_hand_built_context_is_refused_naming_the_field(edit: dict, field: str) -> None:
    bad = dataclasses.replace(GOOD, **edit)
    for name in names():
        with pytest.raises(InvalidHandError, match=field):
            get_variant(name).calculate(bad)


def test_a_hand_built_context_scores_like_its_json_form() -> None:
    for name in names():
        v = get_variant(name)
        bd, again = v.calculate(GOOD), v.calculate(GOOD.to_json())
        assert bd is not None and (bd.points, bd.ids) == (again.points, again.ids)
    assert WinContext.from_json(GOOD.to_json()).to_json() == GOOD.to_json()
