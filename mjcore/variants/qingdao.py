# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""青岛麻将 (``qingdao``) — RULES.md V4.

136 tiles (108 with 不带风), chi, a 混 wildcard that only acts when winning, 14
tiles kept back (none with 带飘) and a final 分张 round, 扣听 and 扭牌 on the
first discard turn, 跑 per seat per hand, multiplied pattern factors and
gang scores that depend on 平度8张.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core  # (C calls when compiled: qingdao.pxd)
from .. import tiles as T
from .._core import discard_shanten
from ..engine.actions import Action
from ..engine.melds import Meld, locked_gang_uses_drawn
from ..engine.variant import (
    BaseOptions,
    Variant,
    choice_values,
    misses_only_the_258_pair,
    option,
)
from ..hand import decompositions, hand_facts, is_ready, waits
from ..scoring import Breakdown, Hit, Payment, PayReason, WinContext
from ..scoring.context import GANG_REASONS, pattern_table

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..scoring.context import Win

WINDS, DRAGONS = (27, 28, 29, 30), (31, 32, 33)
# 扭 groups [DOC 特殊规则 7]: 中发白, 东南西北 (4 tiles: set + replacement), 东南幺鸡.
NIU_GROUPS = ((31, 32, 33), (27, 28, 29, 30), (27, 28, 18))
PAO = (0, 1, 2)  # [DEC Q14]
PAO_CHOICES = tuple(Action("choose", name="pao", value=v) for v in PAO)
KOUTING = Action("declare", name="kouting")
GANG_SCORE = {"zhigang": 1, "bugang": 1, "angang": 2}  # 明杠1分、暗杠2分
SETS = ("peng", "zhigang", "bugang", "angang")
QIDUI = {
    0: ("qidui", "七对", 2),
    1: ("haohua_qidui", "豪华七对", 4),
    2: ("chaoji_haohua_qidui", "超级豪华七对", 8),
}
BASES = {  # id -> (name, value) of the other base patterns (the 七对 family: QIDUI)
    "pihu": ("屁胡", 1),
    "pengpenghu": ("碰碰胡", 2),
    "shisanyao": ("十三幺", 2),
    "shisanbukao": ("十三不靠", 2),
    "manhun": ("满混", 1),
}
FACTORS = {  # id -> (name, factor); all multiply [DEC Q11]
    "qingyise": ("清一色", 2),
    "tianhu": ("天胡", 5),
    "dihu": ("地胡", 5),
    "haidilao": ("海底捞", 2),
    "gangshanghua": ("杠上花", 2),
    "shoubayi": ("手把一", 2),
    "kouting": ("扣听", 2),
    "huangzhuang_fanbei": ("荒庄翻倍", 2),
    "yitiaolong": ("一条龙", 2),
}
RULES = {  # one line per pattern (docs/rules/qingdao.md has the full tables)
    "pihu": "a standard hand",
    "pengpenghu": "a standard hand of triplets/quads only (扭 groups are not triplets)",
    "qidui": "seven pairs",
    "haohua_qidui": "seven pairs with one natural four-of-a-kind",
    "chaoji_haohua_qidui": "seven pairs with two or more natural four-of-a-kinds",
    "shisanyao": "the 13 terminals and honors plus one of them again",
    "shisanbukao": "147/258/369 of the three suits and honors, 14 different tiles",
    "manhun": "four 混 on a self-draw: a win with no shape (×1 when a shape exists)",
    "qingyise": "every tile, melds included, of one suit",
    "tianhu": "the dealer wins on its dealt 14 tiles",
    "dihu": "another seat self-draws on its first draw, no claim made before it",
    "haidilao": "self-draw on the last normal draw before 分张",
    "gangshanghua": "self-draw on a gang replacement (not a 扭 replacement)",
    "shoubayi": "the winner held a single concealed tile (2 with the winning tile)",
    "kouting": "the winner declared 扣听",
    "huangzhuang_fanbei": "the previous hand was 荒庄",
    "yitiaolong": "a 屁胡 reading with concealed 123, 456, 789 of one suit",
}
ENGLISH = {  # the English name players use for each pattern (not pinyin)
    "pihu": "Chicken Hand",
    "pengpenghu": "All Triplets",
    "qidui": "Seven Pairs",
    "haohua_qidui": "Luxury Seven Pairs",
    "chaoji_haohua_qidui": "Super Luxury Seven Pairs",
    "shisanyao": "Thirteen Orphans",
    "shisanbukao": "Knitted Thirteen",
    "manhun": "Four Jokers",
    "qingyise": "Full Flush",
    "tianhu": "Heavenly Hand",
    "dihu": "Earthly Hand",
    "haidilao": "Last Tile Draw",
    "gangshanghua": "Kong Bloom",
    "shoubayi": "One Tile in Hand",
    "kouting": "Concealed Ready",
    "huangzhuang_fanbei": "Doubled after a Drawn Hand",
    "yitiaolong": "Pure Straight",
}
PATTERNS = pattern_table(
    [(p, *BASES[p], "points") for p in ("pihu", "pengpenghu")]
    + [(p, name, value, "points") for p, name, value in QIDUI.values()]
    + [(p, *BASES[p], "points") for p in ("shisanyao", "shisanbukao", "manhun")]
    + [(p, name, factor, "mul") for p, (name, factor) in FACTORS.items()],
    RULES,
    ENGLISH,
)
PAY_REASONS = (  # the other parts of a pay event's reason
    *GANG_REASONS,
    PayReason("pao", "跑", "the 跑 stakes of the winner and of the payer, added to the win"),
    PayReason("gang", "杠分", "平度8张: the winner's gang scores, added to the win"),
)


@dataclass(frozen=True)
class QingdaoOptions(BaseOptions):
    hun: bool = option(
        True, doc="带混: a 混 wildcard (上滚 of the indicator); chi limit 2 [DEC Q30]"
    )
    honor_cycle: str = option(
        "split",
        ("split", "single7"),
        "上滚 over honors: 东南西北 and 中发白 apart, or one 7-honor cycle [DEC Q1]",
    )
    niupai: bool = option(
        False, doc="扭牌: expose 中发白 / 东南西北 / 东南幺鸡 at the first discard turn"
    )
    niupai_forces_zimo: bool = option(
        True, doc="with 扭牌 only self-draw wins (literal text) [DEC Q6]"
    )
    daipiao: bool = option(False, doc="带飘: nothing kept back, no 4-gang 荒庄 [DEC Q7]")
    multi_win: bool = option(
        False, doc="一炮多响: every declaring seat wins, the discarder pays all"
    )
    no_honors: bool = option(False, doc="不带风: no winds and dragons (108 tiles)")
    no_chi: bool = option(False, doc="不让吃牌: peng only")
    pingdu8: bool = option(
        False, doc="平度8张: 8 tiles of one suit to win; only the winner's gangs score"
    )
    self_draw_only: bool = option(False, doc="自摸胡: self-draw wins only")
    pair258: bool = option(False, doc="258将: the pair must be a 2/5/8 [DEC Q20]")


def hun_of(indicator: int, honor_cycle: str = "split") -> int:
    """上滚: the 混 kind for an indicator (9→1 in a suit; 东→南→西→北→东, 中→发→白→中) [DEC Q1]."""
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if honor_cycle == "single7":
        return 27 + (indicator - 27 + 1) % 7
    if indicator in WINDS:
        return 27 + (indicator - 27 + 1) % 4
    return {33: 32, 32: 31, 31: 33}[indicator]


class Qingdao(Variant):
    name = "qingdao"
    title = "青岛麻将"
    Options = QingdaoOptions
    pass_hu_rule = "any"  # 过胡: no discard win at all until the seat's own next discard
    calculator_flags = frozenset({"tianhu", "dihu", "haidi", "kouting", "prev_huangzhuang"})
    offered_choices = choice_values(PAO_CHOICES)
    bet_choices = frozenset({"pao"})  # 跑: a payment factor both ways
    carry_values = MappingProxyType({"huangzhuang": (False, True)})  # see carry()
    jokers_are_joker_kind = True  # jokers(): every held 混 is a wildcard
    shape_free_jokers = 4  # 满混 needs no shape
    pattern_registry = PATTERNS
    payment_registry = PAY_REASONS

    # ---- data hooks ---------------------------------------------------------
    def tile_kinds(self, opts: QingdaoOptions) -> list[int]:
        last = 27 if opts.no_honors else 34
        return [k for k in range(last) for _ in range(4)]

    def kept_back(self, opts: QingdaoOptions) -> int:
        return 0 if opts.daipiao else 14  # [DEC Q8]

    def fenzhang(self, opts: QingdaoOptions) -> bool:
        return True

    def gang_limit(self, opts: QingdaoOptions) -> int:
        return 0 if opts.daipiao else 4  # [DEC Q9]

    def multi_win(self, opts: QingdaoOptions) -> bool:
        return opts.multi_win

    def chi_allowed(self, opts: QingdaoOptions) -> bool:
        return not opts.no_chi

    def meld_kinds(self, opts: QingdaoOptions) -> frozenset[str]:
        return super().meld_kinds(opts) | ({"niu"} if opts.niupai else set())

    def max_jokers(self, opts: QingdaoOptions) -> int:
        return 4 if opts.hun else 0

    def shape_flags(self, opts: QingdaoOptions) -> dict[str, bool]:
        return {
            "seven_pairs": True,
            "thirteen_orphans": True,
            "knitted": True,
            "pair258": opts.pair258,
        }

    def no_discard_after_chi(
        self, opts: QingdaoOptions, chow: tuple[int, ...], tile: int
    ) -> set[int]:
        """不能吃吐门: X and the other end of the used 搭子 [DEC Q17]."""
        low, out = chow[0], {tile}
        if tile == low and low % 9 <= 5:
            out.add(low + 3)
        if tile == low + 2 and low % 9 >= 1:
            out.add(low - 1)
        return out

    # ---- flow hooks ---------------------------------------------------------
    def after_deal(self, game: Game) -> None:
        if game.opts.hun:  # the tail tile after the deal, exposed and out of play [DEC Q1]
            indicator = game.wall.draw_tail()
            game.extra["joker_kind"] = joker = hun_of(indicator, game.opts.honor_cycle)
            game.show_indicator(indicator, joker)

    def hand_choices(self, game: Game, seat: int) -> list[Action]:
        return list(PAO_CHOICES)  # shared actions, built once

    def jokers(self, game: Game, seat: int, counts: np.ndarray) -> tuple[np.ndarray, int]:
        jk = game.extra.get("joker_kind", -1)
        if jk < 0 or not counts[jk]:
            return counts, 0
        natural = counts.copy()
        natural[jk] = 0
        return natural, int(counts[jk])

    def can_win(self, game: Game, seat: int, tile: int, how: str) -> bool:
        if how not in ("discard", "rob_gang"):
            return True
        jk = game.extra.get("joker_kind", -1)
        return not _claim_refusal(game.opts, jk >= 0 and game.seats[seat].hand[jk] > 0)

    def win_refusal(self, ctx: WinContext, opts: QingdaoOptions) -> str:
        """The rules of ``can_win`` on a described win (``jokers``: the 混 held)."""
        if ctx.how not in ("discard", "rob_gang"):
            return ""
        return _claim_refusal(opts, ctx.jokers > 0)

    def no_win_reason(self, ctx: WinContext, opts: QingdaoOptions) -> str:
        if opts.pingdu8 and self.shape_win(ctx.concealed, ctx.jokers, self.shape_bits(opts)):
            return "平度8张: 8 of the 14 tiles must be of one suit (RULES V4.4, DEC Q19)"
        if misses_only_the_258_pair(ctx, self.shape_flags(opts)):
            return "258将: the pair must be a suited 2/5/8 (RULES V4.4, DEC Q20)"
        return super().no_win_reason(ctx, opts)

    def win_flags(self, game: Game, seat: int, tile: int, how: str) -> set[str]:
        st, flags = game.seats[seat], set()
        if how == "self_draw":
            if seat == game.dealer and game.draw_how == "deal":
                flags.add("tianhu")
            elif (
                seat != game.dealer
                and st.discard_count == 0
                and game.first_go_around
                and (game.draw_how == "wall" or _niu_replacement(game))
            ):
                flags.add("dihu")  # [DEC Q25]: first draw, no claim before it (扭 allowed)
            if game.draw_how == "wall" and game.haidi:
                flags.add("haidi")
        if st.declared == "kouting":
            flags.add("kouting")
        if game.carry.get("huangzhuang"):
            flags.add("prev_huangzhuang")
        return flags

    # ---- turn and claim restrictions ----------------------------------------
    def plain_turns_filtered(self, opts: QingdaoOptions) -> str:
        """扣听 is offered on a seat's first discard (a 扣听 seat has declared); with 扭牌 调牌
        is offered on every turn."""
        return "always" if opts.niupai else "first"

    def filter_turn(self, game: Game, seat: int, actions: tuple[Action, ...]) -> Sequence[Action]:
        """混 never ganged; a 扣听 hand locked; 扣听 and 扭 offered (:func:`_filter_turn`)."""
        return _filter_turn(self, game, seat, actions)

    def filter_claims(self, game: Game, seat: int, actions: list[Action]) -> list[Action]:
        """A locked hand or a discarded 混: hu or pass only (:func:`_filter_claims`)."""
        return _filter_claims(self, game, seat, actions)

    def _chi_ok(self, game: Game, seat: int, action: Action) -> bool:
        """A 3rd chi (带混) must leave a ready 手把一 [DEC Q16]. (That a legal discard follows
        the chi, 不能吃吐门 included, the engine checked before offering it.)"""
        st, tile = game.seats[seat], game.claim[1]
        if not _third_chi(game, st):
            return True
        buf = bytearray(st.hand)
        for t in action.tiles:
            if t != tile:
                buf[t] -= 1
        if sum(buf) != 2:
            return False  # 吃副打副手把一: only the last meld, leaving a single tile
        banned = self.no_discard_after_chi(game.opts, action.tiles, tile)
        outs = [d for d, n in enumerate(buf) if n and d not in banned]
        hand = np.frombuffer(buf, dtype=np.uint8).copy()
        flags = self.shape_flags(game.opts)
        for d in outs:
            hand[d] -= 1
            natural, k = self.jokers(game, seat, hand)
            ready = is_ready(natural, k, **flags)
            hand[d] += 1
            if ready:
                return True
        return False

    def _ready_after(self, game: Game, seat: int, tile: int) -> bool:
        hand = game.seats[seat].counts_copy()
        hand[tile] -= 1
        natural, k = self.jokers(game, seat, hand)
        return bool(is_ready(natural, k, **self.shape_flags(game.opts)))

    def _ready_discards(self, game: Game, seat: int, actions: Sequence[Action]) -> set[int]:
        """The discards among ``actions`` after which the hand is ready (``_ready_after`` of
        each): none if the whole hand's shanten is above 0 (a tile less never brings a hand
        nearer: one native call, most turns); else the shanten after every discard in one
        native call (the same 混 split), then is_ready for the discards at shanten 0 only (a
        hand can only be ready there), each on a bytearray view edited in place."""
        jk = game.extra.get("joker_kind", -1)
        hand = game.seats[seat].hand
        buf, jokers = bytearray(hand), 0
        if jk >= 0:
            jokers, buf[jk] = buf[jk], 0
        ready: set[int] = set()
        if _core.shanten_bits(buf, jokers, game.shape_bits) > 0:
            return ready
        after = discard_shanten(hand, jk, game.shape_bits)
        tiles = [a.tile for a in actions if a.kind == "discard" and after[a.tile] <= 0]
        if not tiles:
            return ready
        natural = np.frombuffer(buf, dtype=np.uint8)
        flags = self.shape_flags(game.opts)
        for t in tiles:
            if t == jk:  # one 混 fewer
                if is_ready(natural, jokers - 1, **flags):
                    ready.add(t)
                continue
            buf[t] -= 1
            if is_ready(natural, jokers, **flags):
                ready.add(t)
            buf[t] += 1
        return ready

    def _waits_of(self, game: Game, seat: int, hand: np.ndarray) -> set[int]:
        natural, k = self.jokers(game, seat, hand)
        return set(waits(natural, k, **self.shape_flags(game.opts)))

    def _gang_keeps_waits(self, game: Game, seat: int, tile: int) -> bool:
        """扣听: 暗杠/补杠 only with the tile just drawn, and only if the wait set is unchanged
        [DEC Q15, Q32]."""
        st = game.seats[seat]
        if not locked_gang_uses_drawn(st.hand, st.melds, game.drawn, tile):
            return False
        hand = st.counts_copy()
        before = hand.copy()
        before[game.drawn] -= 1
        hand[tile] -= 4 if hand[tile] == 4 else 1
        return self._waits_of(game, seat, before) == self._waits_of(game, seat, hand)

    def table_actions(self, opts: QingdaoOptions, kinds: frozenset[int]) -> list[Action]:
        """扣听, every 跑 choice and, with 扭牌, every 扭 group and 调牌 it can offer."""
        return [KOUTING, *PAO_CHOICES, *_table_niu(opts, kinds)]

    # ---- 扭牌 / 调牌 ----------------------------------------------------------
    def _niu_actions(self, game: Game, seat: int) -> list[Action]:
        """Groups the seat can expose now; at most one 混 stands for a missing member [DEC Q5]."""
        hand = game.seats[seat].hand
        jk = game.extra.get("joker_kind", -1)
        out: set[tuple[int, ...]] = set()
        for group in NIU_GROUPS:
            if len(group) == 4 and not game.wall.can_draw_tail():
                continue
            missing = [m for m in group if not hand[m]]
            if not missing:
                out.add(tuple(sorted(group)))
            elif len(missing) == 1 and jk >= 0 and jk not in group and hand[jk]:
                out.add(tuple(sorted([m for m in group if m != missing[0]] + [jk])))
        return [Action("niu", tile=g[0], tiles=g) for g in sorted(out)]

    def _tiao_actions(self, game: Game, seat: int) -> list[Action]:
        """调牌: the drawn tile joins one of the seat's 扭 groups of its kind (not a 混)."""
        t = game.drawn
        if (
            t < 0
            or game.draw_how not in ("wall", "replacement")
            or t == game.extra.get("joker_kind", -1)
            or not game.wall.can_draw_tail()
        ):
            return []
        for m in game.seats[seat].melds:  # (a loop, not any(): this runs every turn)
            if m.kind == "niu" and t in _niu_kinds(m):
                return [Action("niu", tile=t, tiles=(t,))]
        return []

    def on_declare(self, game: Game, seat: int, action: Action) -> None:
        st = game.seats[seat]
        if action.kind == "declare":
            st.declared = action.name
            game.log("declare", seat=seat, name=action.name)
            return
        jk = game.extra.get("joker_kind", -1)
        for t in action.tiles:
            st.hand[t] -= 1
        if len(action.tiles) == 1:  # 调牌
            t = action.tile
            i = next(i for i, m in enumerate(st.melds) if m.kind == "niu" and t in _niu_kinds(m))
            old = st.melds[i]
            st.melds[i] = Meld("niu", tuple(sorted(old.tiles + (t,))), claimed=old.claimed)
            game.log("niu", seat=seat, tiles=T.format(list(st.melds[i].tiles)), tiao=True)
            game.replacement_for(seat, cause="niu")
            return
        group = next(
            g
            for g in NIU_GROUPS
            if len(g) == len(action.tiles) and sum(t in g for t in action.tiles) >= len(g) - 1
        )
        stands = next((m for m in group if m not in action.tiles), -1) if jk in action.tiles else -1
        # claimed = the kind the 混 in the group stands for (-1: none)
        st.melds.append(Meld("niu", action.tiles, claimed=stands))
        game.log("niu", seat=seat, tiles=T.format(list(action.tiles)), tiao=False)
        if len(action.tiles) == 4:
            game.replacement_for(seat, cause="niu")

    # ---- scoring ------------------------------------------------------------
    def score(self, ctx: WinContext, opts: QingdaoOptions) -> Breakdown | None:
        c, k = ctx.concealed, ctx.jokers
        wt = ctx.win_tile if 0 <= ctx.win_tile < T.N_KINDS and c[ctx.win_tile] else -1
        if wt < 0 and k == 0:
            return None
        manhun = k >= 4 and ctx.is_self_draw  # 「可直接满混」 on a self-drawn turn; no shape needed
        facts = hand_facts(c, wt, k, pair258=opts.pair258)
        readings = _readings(ctx, opts, facts)
        if not readings:
            if not manhun:
                return None
            readings = [[_hit("manhun", "base")]]  # [DEC Q2]
        best = max(readings, key=_value)
        hits = best + self._factors(ctx, opts, facts, best)
        if manhun and hits[0].id != "manhun":
            hits.append(_hit("manhun", "mul"))
        return _breakdown(tuple(hits))

    def _factors(
        self, ctx: WinContext, opts: QingdaoOptions, facts: Any, best: list[Hit]
    ) -> list[Hit]:
        ids = []
        if _one_suit(ctx):
            ids.append("qingyise")
        fl = ctx.flags
        ids += [f for f in ("tianhu", "dihu") if f in fl]
        if "haidi" in fl and ctx.how == "self_draw":
            ids.append("haidilao")
        if ctx.gang_chain and ctx.how == "self_draw":
            ids.append("gangshanghua")
        held = _core.tiles_in(ctx.concealed, T.ALL_KINDS_MASK) + ctx.jokers
        if held == 2:  # 手把一 (单吊飘胡 too)
            ids.append("shoubayi")
        if "kouting" in fl:
            ids.append("kouting")
        if "prev_huangzhuang" in fl:
            ids.append("huangzhuang_fanbei")
        return [_factor(i) for i in ids]

    # ---- payments -----------------------------------------------------------
    def win_payments(self, game: Game, win: Win) -> list[Payment]:
        bd = win.breakdown
        payers = game.others(win.seat) if win.how in ("self_draw", "fenzhang") else [win.from_seat]
        gang = (
            sum(GANG_SCORE[m.kind] for m in game.seats[win.seat].melds if m.is_gang)
            if game.opts.pingdu8
            else 0
        )
        out = []
        for p in payers:
            pao = _pao(game, win.seat) + _pao(game, p)
            reason = "+".join(bd.ids) + ("+pao" if pao else "") + ("+gang" if gang else "")
            out.append(Payment(p, win.seat, bd.points + pao + gang, reason))
        return out

    def gang_payments(self, game: Game, seat: int, meld: Meld, chain: int) -> list[Payment]:
        """平度8张 off: every gang scores at once, whoever wins [DEC Q26, Q27]."""
        if game.opts.pingdu8:
            return []
        payers = game.others(seat) if meld.kind == "angang" else [meld.from_seat]
        return [Payment(p, seat, GANG_SCORE[meld.kind], meld.kind) for p in payers]

    def next_dealer(self, game: Game) -> int:
        if game.wins:  # 连庄 if the dealer is among the winners [DEC Q31]
            return (
                game.dealer
                if any(w.seat == game.dealer for w in game.wins)
                else game.next_seat(game.dealer)
            )
        # 荒庄: 无杠连庄, 有杠下庄 [DEC Q10]
        return game.next_seat(game.dealer) if game.gangs_on_table else game.dealer

    def carry(self, game: Game) -> dict[str, Any]:
        return {"huangzhuang": bool(game.exhausted)}  # 荒庄翻倍, not cumulative [DEC Q13]

    def public_state(self, game: Game) -> dict[str, Any]:
        jk = game.extra.get("joker_kind", -1)
        if jk < 0:
            return {}
        shown = game.indicators[:1]  # (the engine's own kinds: formatted without checks)
        return {"joker_kind": T.NOTATION[jk], "joker_indicator": T.format_sorted(shown)}


# ---- scoring helpers ---------------------------------------------------------
def _claim_refusal(opts: QingdaoOptions, holds_hun: bool) -> str:
    """Why a win on a discard or a robbed gang is forbidden ('' if it is not)."""
    if opts.self_draw_only:
        return "自摸胡 (self_draw_only): every win is a self-draw (RULES V4.4)"
    if opts.niupai and opts.niupai_forces_zimo:
        return "扭牌 (niupai): every win is a self-draw (RULES V4.3, DEC Q6)"
    if holds_hun:
        return (
            "「手牌里有混，只能自摸胡牌」: a seat holding a 混 wins by self-draw only (RULES V4.3)"
        )
    return ""


@cache
def _hit(pid: str, combine: str) -> Hit:
    """The pattern's Hit, made once (a Hit is frozen: every win shares it)."""
    return Hit(pid, *BASES[pid], combine)


@cache
def _qidui(quads: int) -> Hit:
    """The 七对 family's Hit by natural quads held (0, 1, 2+), made once."""
    return Hit(*QIDUI[quads], "base")


@cache
def _factor(pid: str) -> Hit:
    """A factor's Hit (they all multiply [DEC Q11]), made once."""
    return Hit(pid, *FACTORS[pid], "mul")


@cache
def _breakdown(hits: tuple[Hit, ...]) -> Breakdown:
    """Every factor multiplies the base (made once per distinct win: a Breakdown is frozen)."""
    points = _value(hits)
    formula = " × ".join(str(h.value) for h in hits if h.value != 1 or h.combine == "base")
    return Breakdown(hits, points=points, fan=0, formula=f"{formula} = {points}")


def _value(hits: Sequence[Hit]) -> int:
    out = 1
    for h in hits:
        out *= h.value
    return out


def _readings(ctx: WinContext, opts: QingdaoOptions, facts: Any) -> list[list[Hit]]:
    """Every shape reading (with 一条龙 on a 屁胡 reading) allowed by 平度8张."""
    out: list[list[Hit]] = []
    if facts.standard and (not opts.pingdu8 or _pingdu_standard(ctx, opts)):
        if facts.all_triplets and all(m.kind in SETS for m in ctx.melds):
            out.append([_hit("pengpenghu", "base")])
        pihu = [_hit("pihu", "base")]
        if facts.pure_straight_suits:  # concealed 123 456 789, 混 may fill [DEC Q22]
            pihu.append(_factor("yitiaolong"))
        out.append(pihu)
    if ctx.melds:
        return out
    if facts.seven_pairs and (not opts.pingdu8 or _pingdu_pairs(ctx)):
        out.append([_qidui(min(facts.quads_natural, 2))])
    if not opts.pingdu8:  # 十三幺 / 十三不靠 never hold 8 tiles of a suit
        if facts.thirteen_orphans:
            out.append([_hit("shisanyao", "base")])
        if facts.knitted:
            out.append([_hit("shisanbukao", "base")])  # [DEC Q12]
    return out


def _niu_kinds(m: Meld) -> set[int]:
    return {t for t in m.tiles} | ({m.claimed} if m.claimed >= 0 else set())


def _meld_suits(ctx: WinContext) -> list[int]:
    """Tiles per suit in the melds, a 混 in a 扭 group counted as what it stands for."""
    out = [0, 0, 0]
    for m in ctx.melds:
        # A quad is one set of the 14-tile hand: 3 of 「the 14 tiles」 [DEC Q19].
        tiles = list(m.tiles[:3]) if m.is_gang else list(m.tiles)
        if m.kind == "niu" and m.claimed >= 0:
            if ctx.joker_kind in tiles:
                tiles.remove(ctx.joker_kind)
            tiles.append(m.claimed)
        for t in tiles:
            if t < 27:
                out[t // 9] += 1
    return out


def _natural_suits(ctx: WinContext) -> list[int]:
    return [_core.tiles_in(ctx.concealed, T.SUIT_MASKS[s]) for s in range(3)]


def _one_suit(ctx: WinContext) -> bool:
    """清一色: every tile (melds, 扭 groups) of one suit; a 混 reads as that suit."""
    for m in ctx.melds:  # (a loop, not any(): the expert bot asks it of every ready discard)
        if m.kind == "niu":
            return False
    return ctx.one_suit()


def _pingdu_standard(ctx: WinContext, opts: QingdaoOptions) -> bool:
    """平度8张 for a standard reading: 8 tiles of one suit, 混 as what it stands for [DEC Q19]."""
    fixed = [a + b for a, b in zip(_natural_suits(ctx), _meld_suits(ctx), strict=True)]
    if max(fixed) >= 8:
        return True
    if max(fixed) + ctx.jokers < 8:
        return False
    for d in decompositions(ctx.concealed, ctx.jokers, pair258=opts.pair258):
        per = list(fixed)
        free = 0
        for g in (*d.sets, d.pair):
            if g.kind < 0:
                free += g.jokers
            else:
                for w in g.wild:
                    if w < 27:
                        per[w // 9] += 1
        if max(per) + free >= 8:
            return True
    return False


def _pingdu_pairs(ctx: WinContext) -> bool:
    """平度8张 for 七对: a 混 pairs an odd natural tile; spare 混 pairs read as any suit."""
    c = ctx.concealed
    odd = [int((c[9 * s : 9 * s + 9] % 2).sum()) for s in range(3)]
    spare = ctx.jokers - int((c % 2).sum())
    return any(n + odd[s] + spare >= 8 for s, n in enumerate(_natural_suits(ctx)))


def _filter_turn(
    variant: Qingdao, game: Game, seat: int, actions: Sequence[Action]
) -> Sequence[Action]:
    """Qingdao.filter_turn (a module function: typed when compiled, qingdao.pxd)."""
    st = game.seats[seat]
    jk = game.extra.get("joker_kind", -1)
    if jk >= 0 and st.hand[jk] and _may_gang(st, jk):  # 混 is never ganged
        actions = [a for a in actions if not (a.kind == "gang" and a.tile == jk)]
    if game.gang_limit_hit():
        return actions
    niupai = game.opts.niupai  # 调牌 needs a 扭 group: only with 扭牌
    if st.declared == "kouting":
        if st.discard_count:  # locked: hu, wait-keeping 暗杠/补杠, 调牌, discard the drawn tile
            drawn = game.drawn
            locked = [
                a
                for a in actions
                if a.kind == "hu"  # (a hu action is HU: it has no other field)
                or (a.kind == "discard" and a.tile == drawn)
                or (a.kind == "gang" and variant._gang_keeps_waits(game, seat, a.tile))
            ]
            return locked + variant._tiao_actions(game, seat) if niupai else locked
        ready = variant._ready_discards(game, seat, actions)
        return [a for a in actions if a.kind == "hu" or (a.kind == "discard" and a.tile in ready)]
    if st.discard_count and not niupai:
        return actions  # (most turns: nothing to add)
    extra: list[Action] = variant._tiao_actions(game, seat) if niupai else []
    # 「第一次牌权的时候…可以扣」: the seat's first turn with a discard, even after a peng.
    if st.discard_count == 0:
        if niupai:
            extra += variant._niu_actions(game, seat)
        if variant._ready_discards(game, seat, actions):
            extra.append(KOUTING)
    return [*actions, *extra] if extra else actions


def _filter_claims(variant: Qingdao, game: Game, seat: int, actions: list[Action]) -> list[Action]:
    """Qingdao.filter_claims (a module function: typed when compiled, qingdao.pxd)."""
    st = game.seats[seat]
    jk = game.extra.get("joker_kind", -1)
    tile = game.claim[1]
    if st.declared == "kouting" or tile == jk:  # locked hand / a discarded 混 is never claimed
        return [a for a in actions if a.kind in ("hu", "pass")]
    ask = _third_chi(game, st)  # (else every chi without a 混 is fine: no method call)
    return [
        a
        for a in actions
        if a.kind != "chi" or (jk not in a.tiles and (not ask or variant._chi_ok(game, seat, a)))
    ]


def _third_chi(game: Game, st: Any) -> bool:
    """A chi now would be the seat's 3rd with 混 in play: it must leave a ready 手把一."""
    if not game.opts.hun:
        return False
    chis = 0
    for m in st.melds:  # (a loop, not sum(): asked at every claim window with a chi)
        if m.kind == "chi":
            chis += 1
    return chis >= 2


def _may_gang(st: Any, kind: int) -> bool:
    """The engine may offer a gang of held ``kind``: four held (暗杠), or a peng of it (补杠)."""
    if st.hand[kind] == 4:
        return True
    for m in st.melds:  # (a loop, not any(): filter_turn asks it every turn a 混 is held)
        if m.kind == "peng" and m.tiles[0] == kind:
            return True
    return False


def _pao(game: Game, seat: int) -> int:
    return game.seats[seat].choices.get("pao", 0)


def _niu_replacement(game: Game) -> bool:
    """The turn's tile is a 扭/调牌 replacement (not a gang's)."""
    return game.draw_how == "replacement" and game.draw_cause == "niu"


def _table_niu(opts: QingdaoOptions, kinds: frozenset[int]) -> list[Action]:
    """Every 扭 action of the action table: the three groups, each with at most one member
    replaced by a 混 of any other kind when 带混 [DEC Q5], then the single-tile 调牌 of every
    kind a group holds."""
    if not opts.niupai:
        return []
    out: set[tuple[int, ...]] = set()
    jokers = sorted(kinds) if opts.hun else []
    for group in NIU_GROUPS:
        if not set(group) <= kinds:
            continue
        out.add(tuple(sorted(group)))
        for missing in group:
            for jk in jokers:
                if jk not in group:
                    out.add(tuple(sorted([m for m in group if m != missing] + [jk])))
    singles = {(t,) for g in NIU_GROUPS if set(g) <= kinds for t in g}
    groups = sorted(out, key=lambda g: (len(g), g)) + sorted(singles)
    return [Action("niu", tile=g[0], tiles=g) for g in groups]


VARIANT = Qingdao()
