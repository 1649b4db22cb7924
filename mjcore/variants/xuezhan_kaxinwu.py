# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""血战卡心五麻将 (``xuezhan_kaxinwu``) — RULES.md V1.

72 tiles of 筒/条 (108 with 三堆牌), no chi, 一炮多响, play continues after a
win (血战: the winner auto-plays), ``2^(N+M)`` points, immediate gang scores
with 杠上杠 doubling, and 查叫 when the wall runs out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from ..engine.actions import PASS, PENG, Action
from ..engine.melds import Meld
from ..engine.variant import BaseOptions, Variant, option
from ..hand import hand_facts, waits
from ..scoring import Breakdown, Hit, Payment, PayReason, WinContext
from ..scoring.context import GANG_REASONS, pattern_table

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..scoring.context import Win

QIDUI = [
    ("xiaoqidui", "小七对", 2),
    ("longqidui", "龙七对", 3),
    ("shuanglong_qidui", "双龙七对", 4),
    ("sanlong_qidui", "三龙七对", 5),
]
GANGSHANGHUA = {
    1: ("gangshanghua", "杠上花"),
    2: ("shuang_gangshanghua", "双杠上花"),
    3: ("san_gangshanghua", "三杠上花"),
    4: ("si_gangshanghua", "四杠上花"),
}
FANS = {  # id -> (name, fan) of the other patterns; 鬼 is 1 fan per kind
    "pinghu": ("平胡", 1),
    "daduizi": ("大对子", 2),
    "kaxinwu": ("卡心五", 2),
    "gui": ("鬼", 1),
    "qingyise": ("清一色", 1),
    "gangshangpao": ("杠上炮", 1),
    "qiangganghu": ("抢杠胡", 1),
}
RULES = {  # one line per pattern (docs/rules/xuezhan_kaxinwu.md has the full table)
    "pinghu": "base: a standard hand that is neither 大对子 nor 卡心五",
    "daduizi": "base: a standard hand whose four sets are all triplets or quads",
    "kaxinwu": "base: a standard hand won on a 5 as the middle of 4-5-6 from the hand",
    "xiaoqidui": "base: seven pairs, no kind four times",
    "longqidui": "base: seven pairs, one kind four times",
    "shuanglong_qidui": "base: seven pairs, two kinds four times",
    "sanlong_qidui": "base: seven pairs, three kinds four times",
    "gui": "+1 fan per kind held four times concealed and not ganged (standard readings only)",
    "qingyise": "+1 fan: all 14 tiles, melds included, of one suit",
    "gangshanghua": "+1 fan: self-draw on a gang's replacement",
    "shuang_gangshanghua": "+2 fan: self-draw on the replacement of a chain's 2nd gang",
    "san_gangshanghua": "+3 fan: self-draw on the replacement of a chain's 3rd gang",
    "si_gangshanghua": "+4 fan: self-draw on the replacement of a chain's 4th gang",
    "gangshangpao": "+1 fan: a discard win on the tile discarded right after a gang replacement",
    "qiangganghu": "+1 fan: robbing a 补杠",
}
GANG_POINTS = {"zhigang": 2, "bugang": 1, "angang": 2}


_BASES = ("pinghu", "daduizi", "kaxinwu")
ENGLISH = {  # the English name players use for each pattern (not pinyin)
    "pinghu": "Chicken Hand",
    "daduizi": "All Triplets",
    "kaxinwu": "Closed Wait on Five",
    "xiaoqidui": "Seven Pairs",
    "longqidui": "Dragon Seven Pairs",
    "shuanglong_qidui": "Double Dragon Seven Pairs",
    "sanlong_qidui": "Triple Dragon Seven Pairs",
    "gui": "Concealed Four",
    "qingyise": "Full Flush",
    "gangshanghua": "Kong Bloom",
    "shuang_gangshanghua": "Double Kong Bloom",
    "san_gangshanghua": "Triple Kong Bloom",
    "si_gangshanghua": "Quadruple Kong Bloom",
    "gangshangpao": "Win on a Kong Discard",
    "qiangganghu": "Robbing the Kong",
}
PATTERNS = pattern_table(
    [(p, *FANS[p], "fan") for p in _BASES]
    + [(p, name, fan, "fan") for p, name, fan in QIDUI]
    + [(p, *FANS[p], "fan") for p in ("gui", "qingyise")]
    + [(p, name, fan, "fan") for fan, (p, name) in GANGSHANGHUA.items()]
    + [(p, *FANS[p], "fan") for p in ("gangshangpao", "qiangganghu")],
    RULES,
    ENGLISH,
)
PAY_REASONS = (  # the other parts of a pay event's reason
    *GANG_REASONS,
    PayReason("chajiao", "查叫", "end: a seat not ready, never won, pays each ready seat/winner"),
)


@dataclass(frozen=True)
class XuezhanOptions(BaseOptions):
    three_suits: bool = option(
        False, doc="三堆牌: add 万 (108 tiles); 4-6万 waiting 5万 is 卡心五 too"
    )
    must_gang: bool = option(False, doc="有杠必杠: a possible 直杠/补杠 must be made")
    gang_chain: str = option(
        "flat",
        ("flat", "compound"),
        "杠上杠: gangs after the first of a chain pay ×2 (flat) or ×2^(k-1)",
    )
    kaxinwu_single_wait_only: bool = option(
        False, doc="卡心五 only when the 5 is the only wait [DEC X9]"
    )
    creator_is_dealer: bool = option(True, doc="开房者为庄: the first dealer is the room creator")
    auto_play: bool = option(False, doc="自动摸打: a client feature, no rule effect")


class XuezhanKaxinwu(Variant):
    name = "xuezhan_kaxinwu"
    title = "血战卡心五麻将"
    Options = XuezhanOptions
    pass_hu_rule = "same_kind"
    pass_hu_bigger_ok = True  # 「加番可以胡」
    pass_peng_rule = True
    pattern_registry = PATTERNS
    payment_registry = PAY_REASONS
    # The expert bot's weights here: a winner plays on (its danger is its won kinds), 查叫
    # punishes a folded hand at the wall's end and gangs pay at once: defend little, claim
    # when no worse, always gang. Two suits only: a hand leans to one suit by chance, and
    # chasing 清一色 (one fan) costs more than it pays (measured: bench/bench_bots.py).
    bot_tuning = MappingProxyType(
        {"won": 0.4, "defense": 0.3, "peng_no_worse": 1.0, "gang_always": 1.0, "flush": 0.0}
    )

    def tile_kinds(self, opts: XuezhanOptions) -> list[int]:
        first = 0 if opts.three_suits else 9
        return [k for k in range(first, 27) for _ in range(4)]

    # ---- turn and claim restrictions --------------------------------------
    def after_claim(self, game: Game, seat: int, meld: Meld) -> None:
        """A peng of a tile it could have 直杠'd: never 补杠 it (:func:`_after_claim`)."""
        _after_claim(game, seat, meld)

    def plain_turns_filtered(self, opts: XuezhanOptions) -> str:
        """Before a seat's first win its discards stand as they are: 有杠必杠 looks at gangs."""
        return "never"

    def filter_turn(self, game: Game, seat: int, actions: tuple[Action, ...]) -> Sequence[Action]:
        """After a win: hu, wait-keeping gangs, the drawn tile; 有杠必杠 (:func:`_filter_turn`)."""
        return _filter_turn(self, game, seat, actions)

    def plain_claims_filtered(self, opts: XuezhanOptions) -> bool:
        """过胡后 and 有杠必杠 look at a seat that has won and at gangs only."""
        return False

    def filter_claims(self, game: Game, seat: int, actions: list[Action]) -> list[Action]:
        """After a win: no peng, a 直杠 only if it keeps the waits (and then it must be made);
        有杠必杠 (:func:`_filter_claims`)."""
        return _filter_claims(self, game, seat, actions)

    def _gang_keeps_waits(self, game: Game, seat: int, tile: int) -> bool:
        """After-win gang rule: still tenpai and the waits contain every kind already won on."""
        counts = game.seats[seat].counts_copy()
        if seat != game.current:  # claim window (phase is still "turn" while filter_claims runs)
            counts[tile] -= 3  # 直杠 on a discard
        else:
            counts[tile] -= 4 if counts[tile] == 4 else 1  # 暗杠 / 补杠
        after = set(waits(counts))
        return bool(after) and set(game.seats[seat].won_tiles) <= after

    # ---- scoring ------------------------------------------------------------
    def score(self, ctx: WinContext, opts: XuezhanOptions) -> Breakdown | None:
        readings = self._readings(ctx, opts)
        if not readings:
            return None
        extras = self._extra_fans(ctx, opts)
        # The best total; on a tie the larger base pattern (it is what 查叫 looks at).
        best = max(readings, key=lambda r: (sum(h.value for h in r), r[0].value))
        hits = best + extras
        fan = sum(h.value for h in hits)
        return Breakdown(
            tuple(hits),
            points=2**fan,
            fan=fan,
            formula=f"2^({' + '.join(str(h.value) for h in hits)}) = {2**fan}",
        )

    def _readings(self, ctx: WinContext, opts: XuezhanOptions) -> list[list[Hit]]:
        """Each way to read the hand: its base pattern first, then 鬼 (standard reading only)."""
        facts = hand_facts(ctx.concealed, ctx.win_tile)
        readings = []
        if facts.standard:
            readings.append(self._standard_reading(ctx, opts, facts))
        if facts.seven_pairs and not ctx.melds:
            readings.append([Hit(*QIDUI[min(facts.quads_natural, 3)], "base")])
        return readings

    def _standard_reading(self, ctx: WinContext, opts: XuezhanOptions, facts: Any) -> list[Hit]:
        w = ctx.win_tile
        base = _hit("pinghu", "base")
        if facts.all_triplets and all(m.is_set_of_one_kind for m in ctx.melds):
            base = _hit("daduizi", "base")
        elif (
            w < 27
            and w % 9 == 4
            and (w >= 9 or opts.three_suits)
            and facts.closed_wait
            and (not opts.kaxinwu_single_wait_only or waits(_minus(ctx.concealed, w)) == [w])
        ):
            base = _hit("kaxinwu", "base")
        # 鬼 belongs to standard readings: 「龙七对、双龙七对、三龙七对不算"鬼"加番」.
        gui = facts.quads_natural  # kinds held four times (no wildcards here)
        return [base] + ([Hit("gui", FANS["gui"][0], gui, "add")] if gui else [])

    def _extra_fans(self, ctx: WinContext, opts: XuezhanOptions) -> list[Hit]:
        hits = []
        if len(ctx.suits()) == 1:
            hits.append(_hit("qingyise", "add"))
        if ctx.gang_chain and ctx.is_self_draw:
            hits.append(Hit(*GANGSHANGHUA[min(ctx.gang_chain, 4)], min(ctx.gang_chain, 4), "add"))
        if ctx.after_gang and ctx.how == "discard":
            hits.append(_hit("gangshangpao", "add"))
        if ctx.how == "rob_gang":
            hits.append(_hit("qiangganghu", "add"))
        return hits

    # ---- payments -----------------------------------------------------------
    def win_payments(self, game: Game, win: Win) -> list[Payment]:
        reason = "+".join(win.breakdown.ids)
        payers = game.others(win.seat) if win.how == "self_draw" else [win.from_seat]
        return [Payment(p, win.seat, win.breakdown.points, reason) for p in payers]

    def gang_payments(self, game: Game, seat: int, meld: Meld, chain: int) -> list[Payment]:
        amount = GANG_POINTS[meld.kind]
        if chain > 1:
            amount *= 2 if game.opts.gang_chain == "flat" else 2 ** (chain - 1)
        payers = [meld.from_seat] if meld.kind == "zhigang" else game.others(seat)
        return [Payment(p, seat, amount, meld.kind) for p in payers]

    def after_wins(self, game: Game, wins: list[Win]) -> int | None:
        if len(wins) > 1:  # 「一炮多响后，谁放的炮就轮到谁摸牌」
            return wins[0].from_seat
        return game.next_seat(wins[0].seat)  # [DEC X6]

    def settle_end(self, game: Game) -> list[Payment]:
        """查叫: each seat that never won and is not tenpai pays the winners and tenpai seats
        (:func:`_chajiao`)."""
        return _chajiao(self, game)

    def first_dealer(self, opts: XuezhanOptions, creator: int) -> int:
        """「开局可设定开房者为庄」: the creator, or seat 0 with the option off."""
        return creator if opts.creator_is_dealer else 0

    def next_dealer(self, game: Game) -> int:
        """「后续以摸到最后一张牌的玩家为庄」."""
        return game.last_drawer if game.last_drawer >= 0 else game.dealer


@cache
def _hit(pid: str, combine: str) -> Hit:
    """The pattern's Hit, made once (a Hit is frozen: every win shares it)."""
    return Hit(pid, *FANS[pid], combine)


def _chajiao(variant: XuezhanKaxinwu, game: Game) -> list[Payment]:
    """XuezhanKaxinwu.settle_end (a module function: typed when compiled, xuezhan_kaxinwu.pxd)."""
    n = game.n
    values = [_chajiao_value(variant, game, s) for s in range(n)]
    payments = []
    for u in range(n):
        if values[u] is not None:
            continue
        for i in range(1, n):  # the others from u's 下家 on (Game.others)
            v = (u + i) % n
            value = values[v]
            if value is not None:
                payments.append(Payment(u, v, 2**value, "chajiao"))
    return payments


def _chajiao_value(variant: XuezhanKaxinwu, game: Game, seat: int) -> int | None:
    """Max (base + 清一色) over the seat's wins, else over its waits; None if neither."""
    st = game.seats[seat]
    if st.wins:  # (loops, not generators, here: a cpdef function when compiled)
        return max([_base_plus_qys(w.breakdown) for w in st.wins])
    if not game.seat_waits(seat):  # (the core's waits of this hand: = waits(counts) below)
        return None
    counts = st.counts
    held = counts.copy()
    for m in st.melds:
        held[m.tiles[0]] += len(m.tiles)
    best = None
    for t in waits(counts):
        if held[t] >= 4:
            continue  # all four copies are the seat's own: not a wait [DEC X16]
        ctx = WinContext(_plus(counts, t), t, "discard", tuple(st.melds))
        readings = variant._readings(ctx, game.opts)
        if readings:  # the largest base pattern of any reading, + 清一色 [DEC X17]
            qys = int("qingyise" in [h.id for h in variant._extra_fans(ctx, game.opts)])
            value = max([r[0].value for r in readings]) + qys
            best = value if best is None else max(best, value)
    return best


def _base_plus_qys(bd: Breakdown) -> int:
    return sum(h.value for h in bd.hits if h.combine == "base" or h.id == "qingyise")


def _minus(counts: np.ndarray, t: int) -> np.ndarray:
    out = counts.copy()
    out[t] -= 1
    return out


def _plus(counts: np.ndarray, t: int) -> np.ndarray:
    return _core.counts_array(counts, t)  # (a new array with one more t: one C call)


VARIANT = XuezhanKaxinwu()


def _after_claim(game: Game, seat: int, meld: Meld) -> None:
    """XuezhanKaxinwu.after_claim (a module function: typed when compiled)."""
    st, kind = game.seats[seat], meld.tiles[0]
    if meld.kind == "peng" and st.hand[kind]:
        st.no_bugang |= {kind}  # pung a tile it could have 直杠'd: never 补杠 it


def _filter_claims(
    variant: XuezhanKaxinwu, game: Game, seat: int, actions: list[Action]
) -> list[Action]:
    """XuezhanKaxinwu.filter_claims (a module function: typed when compiled)."""
    st = game.seats[seat]
    tile = game.claim[1]
    if st.wins:  # 胡牌后不可碰; a 直杠 keeping the waits is mandatory
        actions = [
            a
            for a in actions
            if a != PENG and (a.kind != "gang" or variant._gang_keeps_waits(game, seat, tile))
        ]
        for a in actions:
            if a.kind == "gang":  # (a loop, not any(): typed when compiled)
                actions.remove(PASS)
                break
        return actions
    if game.opts.must_gang:
        for a in actions:
            if a.kind == "gang":
                return [b for b in actions if b.kind in ("gang", "hu")]
    return actions


def _filter_turn(
    variant: XuezhanKaxinwu, game: Game, seat: int, actions: Sequence[Action]
) -> Sequence[Action]:
    """XuezhanKaxinwu.filter_turn (a module function: typed when compiled, xuezhan_kaxinwu.pxd)."""
    st = game.seats[seat]
    if st.wins:  # auto-play after a win: hu, gangs that keep the waits, discard the drawn tile
        return [
            a
            for a in actions
            if a.kind == "hu"
            or (a.kind == "gang" and variant._gang_keeps_waits(game, seat, a.tile))
            or (a.kind == "discard" and a.tile == game.drawn)
        ]
    # 有杠必杠: gangs precede the discards (Variant.filter_turn), so a list that starts with a
    # discard offers none and the option is not read
    if not actions:
        return actions
    a = actions[0]
    if a.kind != "discard" and game.opts.must_gang:
        for a in actions:
            if a.kind == "gang" and st.hand[a.tile] < 4:  # a 直杠/补杠 possible: it must be made
                return [a for a in actions if a.kind != "discard"]
    return actions
