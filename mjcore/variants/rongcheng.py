# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""荣成麻将 (``rongcheng``) — RULES.md V5.

136 tiles (108 with 不带风), chi/peng/gangs, 14 tiles kept back (none with 不荒庄) and a
final 分张 round, 4 gangs ⇒ 荒庄. A seat must declare 听 (报听 hidden, 亮听 shows the waits,
明搂 shows the hand) to win, except 天胡/地胡; its hand is then locked. The first declaration
takes the 宝 face down from the tail (半暗宝): it acts at once for declared seats that draw a
宝-kind tile (摸宝, a wildcard), is turned up at the start of the first declarer's next turn,
replaced then if its other three copies are all exposed (换宝), and fixed afterwards. 飘 0/1/2
per seat per hand (长跑 keeps it for the rest of the Match), a 258 pair (掌) unless 乱掌,
multiplied factors, ``raw(w,p) = pattern·2^(明搂) + 飘_w + 飘_p + gangs_w`` and a loss cap of
32 per seat per hand (封顶).

Every question about the 宝 as a wildcard goes to the core (``jokers=1``): readiness, the
winning shapes and the facts of the completed hand; the 宝 values are never enumerated here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .. import _core  # (C calls when compiled: rongcheng.pxd)
from .. import tiles as T
from ..batch import mask_to_kinds
from ..engine.actions import HU, Action
from ..engine.melds import Meld, locked_gang_uses_drawn
from ..engine.variant import (
    BaseOptions,
    Variant,
    choice_values,
    misses_only_the_258_pair,
    option,
)
from ..errors import InvalidHandError
from ..hand import hand_facts, is_win
from ..scoring import Breakdown, Hit, Payment, WinContext
from ..scoring.context import CAP_REASON, kinds_held, pattern_table

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..scoring.context import Win

CAP = 32  # 封顶: 「每局每个玩家最多输32分」
PIAO = (0, 1, 2)  # 「可以选择飘一分、两分」 + not 飘 [DEC R12]
PIAO_CHOICES = tuple(Action("choose", name=n, value=v) for n in ("piao", "changpao") for v in PIAO)
DECLARATIONS = ("baoting", "liangting", "minglou")  # 报听 (hidden), 亮听 (waits), 明搂 (hand)
READINGS = ("cunpai", "gangkai")  # 存牌: the seat's reading of a gang replacement that is the 宝
GANG_SCORE = {"zhigang": 1, "bugang": 1, "angang": 2}  # 「明杠1分、暗杠2分」
KINDS_258 = tuple(s * 9 + r for s in range(3) for r in (1, 4, 7))
_U8 = np.dtype(np.uint8)
_MASK_258 = T.kinds_mask(KINDS_258)
_MASK_HONORS = T.kinds_mask(range(27, 34))
_MASK_PATTERN_WAITS = _MASK_HONORS | _MASK_258  # kinds 风一色 or 掌一色 may add to the waits
BASES = {  # id -> (name, value)
    "pihu": ("屁胡", 1),
    "pengpenghu": ("碰碰胡", 2),
    "qidui": ("七对", 2),
    "qidadui": ("七大对", 4),
    "haohua_qidadui": ("豪华七大对", 8),
    "shisanyao": ("十三幺", 10),
    # 风一色/掌一色 「直接胡牌」 with no shape: base 1 [DEC R6]
    "zhijiehu": ("直接胡牌", 1),
}
FACTORS = {  # id -> (name, factor); all multiply
    "tianhu": ("天胡", 10),
    "dihu": ("地胡", 5),
    "qingyise": ("清一色", 2),
    "haidilao": ("海底捞", 2),
    "gangshanghua": ("杠上花", 2),
    "fengyise": ("风一色", 2),
    "zhangyise": ("掌一色", 2),
    "mobao": ("摸宝", 2),
    "baozhongbao": ("宝中宝", 2),  # on top of 摸宝 [DEC R4]
    "minglou": ("明搂", 2),  # the winner declared 明搂 [DEC R9]
    "payer_minglou": ("明搂(输家)", 2),  # the payer declared 明搂 「胜负都要翻一番」
}
_SIDE = ("minglou", "payer_minglou")
ADDS = {"piao": ("飘", 1), "gang": ("杠分", 1)}  # id -> (name, points per unit) added last
RULES = {  # one line per pattern (docs/rules/rongcheng.md has the full tables)
    "pihu": "a standard hand with a 258 pair (掌)",
    "pengpenghu": "all triplets/quads, no chow",
    "qidui": "seven pairs",
    "qidadui": "seven pairs, the winning tile completes a quad",
    "haohua_qidadui": "seven pairs, 2–3 quads, the winning tile completes one",
    "shisanyao": "the 13 terminals and honors plus one of them again",
    "zhijiehu": "风一色/掌一色 in no shape: 直接胡牌",
    "tianhu": "the dealer wins on its dealt hand",
    "dihu": "a discard win on the dealer's first discard, the hand's first",
    "qingyise": "one suit only, melds included",
    "haidilao": "self-draw of the last live tile before 分张",
    "gangshanghua": "self-draw on a gang replacement",
    "fengyise": "every tile an honor",
    "zhangyise": "every tile a suited 2/5/8",
    "mobao": "a declared seat wins with the 宝 as a wildcard",
    "baozhongbao": "摸宝 where the 宝 is also a natural wait (×4 with 摸宝)",
    "minglou": "the winner declared 明搂 (on the pattern only)",
    "payer_minglou": "the payer declared 明搂 (on the pattern only)",
    "piao": "+1 per 飘 point of the winner and of the payer (each 0–2)",
    "gang": "+1 per 明杠, +2 per 暗杠 of the winner",
}
ENGLISH = {  # the English name players use for each pattern (not pinyin)
    "pihu": "Chicken Hand",
    "pengpenghu": "All Triplets",
    "qidui": "Seven Pairs",
    "qidadui": "Big Seven Pairs",
    "haohua_qidadui": "Luxury Big Seven Pairs",
    "shisanyao": "Thirteen Orphans",
    "zhijiehu": "Shapeless Win",
    "tianhu": "Heavenly Hand",
    "dihu": "Earthly Hand",
    "qingyise": "Full Flush",
    "haidilao": "Last Tile Draw",
    "gangshanghua": "Kong Bloom",
    "fengyise": "All Honors",
    "zhangyise": "All Two-Five-Eight",
    "mobao": "Wildcard Win",
    "baozhongbao": "Wildcard on a Natural Wait",
    "minglou": "Open Hand",
    "payer_minglou": "Payer's Open Hand",
    "piao": "Float Bonus",
    "gang": "Kong Points",
}
PATTERNS = pattern_table(
    [(p, name, value, "points") for p, (name, value) in BASES.items()]
    + [(p, name, factor, "mul") for p, (name, factor) in FACTORS.items()]
    + [(p, name, value, "add") for p, (name, value) in ADDS.items()],
    RULES,
    ENGLISH,
)
PAY_REASONS = (  # the other parts of a pay event's reason
    CAP_REASON,
)


@dataclass(frozen=True)
class RongchengOptions(BaseOptions):
    luanzhang: bool = option(False, doc="乱掌: no 258 pair needed; 掌一色 cannot be won")
    self_draw_only: bool = option(False, doc="自摸胡: a declared seat may only win by self-draw")
    no_huangzhuang: bool = option(
        False, doc="不荒庄: nothing kept back, no 4-gang 荒庄 (分张 of the last n still)"
    )
    multi_win: bool = option(False, doc="一炮多响: every claimant wins, the discarder pays all")
    no_honors: bool = option(False, doc="不带风: no winds and dragons (108 tiles)")
    peng_only: bool = option(False, doc="只碰不吃: no chi")
    cunpai_mode: str = option(
        "best",
        ("best", "cunpai", "gangkai"),
        "存牌 (a gang replacement that is the 宝 and also wins as itself) when the seat does not "
        "choose (declare cunpai / gangkai): the larger, 存牌 (摸宝/宝中宝) or 杠上花 [DEC R5]",
    )


class Rongcheng(Variant):
    name = "rongcheng"
    title = "荣成麻将"
    Options = RongchengOptions
    pattern_registry = PATTERNS
    payment_registry = PAY_REASONS
    choice_locks: ClassVar[dict[str, str]] = {"changpao": "piao"}  # 长跑 keeps this 飘 [DEC R12]
    # 风一色/掌一色 win with no shape (and 摸宝 with a drawn wildcard), so wins are not
    # pre-filtered by the shape waits alone: a discard's win is asked on the shape waits, an
    # honor or a 2/5/8 (_completes); can_win (a declaration) rejects most seats first.
    waits_prefilter = False
    shapeless_win_kinds = _MASK_PATTERN_WAITS
    jokers_only_drawn = True  # 摸宝: only a locked seat's just-drawn 宝 is wild (jokers)
    claim_wins_need_declaration = True  # 「胡牌必须报听…」; 地胡 is in the first go-around
    self_draw_wins_need_declaration = True  # the same; 天胡 is in the first go-around
    calculator_flags: ClassVar[frozenset[str]] = frozenset(
        {"tianhu", "dihu", "haidi", "minglou", "payer_minglou", *READINGS}
        | {f"{side}piao{v}" for side in ("", "payer_") for v in (1, 2)}
    )
    offered_choices = choice_values(PIAO_CHOICES)
    bet_choices = frozenset({"piao"})  # 飘 (长跑 locks it for the Match: never a bot's pick)

    def __init__(self) -> None:
        self._flags: dict[Any, dict[str, bool]] = {}

    # ---- data hooks ---------------------------------------------------------
    def tile_kinds(self, opts: RongchengOptions) -> list[int]:
        last = 27 if opts.no_honors else 34
        return [k for k in range(last) for _ in range(4)]

    def kept_back(self, opts: RongchengOptions) -> int:
        return 0 if opts.no_huangzhuang else 14  # 「剩14张牌不抓…杠牌可以摸」 [DEC R15]

    def fenzhang(self, opts: RongchengOptions) -> bool:
        return True  # 「倒数15、16、17、18分张」; with 不荒庄 「除了最后四张牌分张外」

    def gang_limit(self, opts: RongchengOptions) -> int:
        return 0 if opts.no_huangzhuang else 4  # 「如果不勾选，出现四个杠就荒庄」 [DEC R17]

    def multi_win(self, opts: RongchengOptions) -> bool:
        return opts.multi_win

    def chi_allowed(self, opts: RongchengOptions) -> bool:
        return not opts.peng_only

    def max_jokers(self, opts: RongchengOptions) -> int:
        return 1  # 摸宝: the one drawn 宝 tile

    def loss_cap(self, opts: RongchengOptions) -> int:
        return CAP  # [DEC R13] on the total a seat pays in the hand

    def shape_flags(self, opts: RongchengOptions) -> dict[str, bool]:
        flags = self._flags.get(opts)
        if flags is None:  # 掌: 258 pair (七对: one 258 pair) unless 乱掌; 十三幺 exempt [DEC R7]
            flags = self._flags[opts] = {
                "seven_pairs": True,
                "thirteen_orphans": not opts.no_honors,
                "pair258": not opts.luanzhang,
            }
        return flags

    # ---- flow hooks ---------------------------------------------------------
    def hand_choices(self, game: Game, seat: int) -> list[Action]:
        """飘 0/1/2, or 长跑 with that value (kept for the rest of the Match)."""
        return list(PIAO_CHOICES)  # shared actions, built once

    def jokers(self, game: Game, seat: int, counts: np.ndarray) -> tuple[np.ndarray, int]:
        """摸宝: a declared seat's just-drawn 宝-kind tile is a wildcard; held 宝 tiles are not."""
        bao = _wild_bao(game, seat, counts)
        if bao < 0:
            return counts, 0
        natural = counts.copy()
        natural[bao] -= 1
        return natural, 1

    def can_win(self, game: Game, seat: int, tile: int, how: str) -> bool:
        """「胡牌必须报听、亮听或明搂」, except 天胡/地胡 [DEC R11]; 自摸胡 after a declaration
        (:func:`_can_win`)."""
        return _can_win(game, seat, tile, how)

    def win_flags(self, game: Game, seat: int, tile: int, how: str) -> set[str]:
        st, flags = game.seats[seat], set()
        if _tianhu(game, seat, how):
            flags.add("tianhu")
        if how == "discard" and _dihu(game, seat):
            flags.add("dihu")
        if how == "self_draw" and game.draw_how == "wall" and game.haidi:
            flags.add("haidi")  # 「分张前摸最后一张牌胡牌」 [DEC R19]
        if st.declared == "minglou":
            flags.add("minglou")
        if _piao(game, seat):
            flags.add(f"piao{_piao(game, seat)}")
        if st.extra.get("reading"):
            flags.add(st.extra["reading"])
        return flags

    def before_turn(self, game: Game, seat: int) -> None:
        """「上听一圈后才翻开宝牌」: the first declarer's next turn turns the 宝 up [DEC R1, R2]."""
        if _bao_due(game, seat):
            self._reveal_bao(game)

    def _reveal_bao(self, game: Game) -> None:
        (bao,) = game.reveal_indicators()
        game.log("bao", tile=T.NOTATION[bao], replaces=None)
        # 「宝牌翻开之前，如果发现剩余三张牌都已经亮出，则需要更换宝牌，直接显示新宝」, repeated;
        # with no tail tile left to take, the last one stays [DEC R2, R24].
        while _exposed(game, bao) >= 4:
            new = game.draw_indicator()
            if new < 0:
                break
            game.log("bao", tile=T.NOTATION[new], replaces=T.NOTATION[bao])
            bao = new
        game.extra["joker_kind"] = bao

    def on_declare(self, game: Game, seat: int, action: Action) -> None:
        st = game.seats[seat]
        if action.name in READINGS:  # 「杠上开花如果选择存牌…」: the seat's choice, then it wins
            st.extra["reading"] = action.name
            game.log("declare", seat=seat, name=action.name)
            return
        st.declared = action.name
        st.extra["ting_discards"] = st.discard_count  # locked from the next discard on
        game.log("declare", seat=seat, name=action.name)
        if "bao_declarer" not in game.extra:  # the first 听 of the hand takes the 宝 [DEC R1]
            game.extra["bao_declarer"] = seat
            bao = game.draw_indicator(hidden=True)
            if bao >= 0:
                game.extra["joker_kind"] = bao

    # ---- turn and claim restrictions ----------------------------------------
    def filter_turn(self, game: Game, seat: int, actions: tuple[Action, ...]) -> Sequence[Action]:
        """A chosen 存牌 reading wins; a declared hand plays locked; 报听/亮听/明搂 offered when
        a discard leaves the hand ready (:func:`_filter_turn`)."""
        return _filter_turn(self, game, seat, actions)

    def _two_readings(self, game: Game, seat: int) -> bool:
        """存牌: a gang replacement that is the 宝 and also completes the hand as itself."""
        bao = game.extra.get("joker_kind", -1)
        if game.drawn != bao or game.draw_how != "replacement" or game.draw_cause != "gang":
            return False
        st = game.seats[seat]
        hand = st.counts_copy()
        hand[bao] -= 1
        return bool(self.waits_mask(hand, st.melds, game.opts) >> bao & 1)

    def plain_claims_filtered(self, opts: RongchengOptions) -> bool:
        """Only a declared (locked) hand has its claims restricted."""
        return False

    def filter_claims(self, game: Game, seat: int, actions: list[Action]) -> list[Action]:
        if game.seats[seat].declared:  # a locked hand takes no chi/peng/gang
            return [a for a in actions if a.kind in ("hu", "pass")]
        return actions

    def _ready_after(self, game: Game, seat: int, action: Action) -> bool:
        st = game.seats[seat]
        hand = st.counts_copy()
        hand[action.tile] -= 1
        return self.waits_mask(hand, st.melds, game.opts) != 0

    def _ready_discards(
        self, game: Game, seat: int, actions: Sequence[Action], first: bool
    ) -> list[Action]:
        """The discards among ``actions`` after which the hand is ready (``_ready_after`` of
        each, in order; only the first one if ``first``): :func:`_ready_discards`."""
        return _ready_discards(game, seat, actions, first)

    def _gang_keeps_waits(self, game: Game, seat: int, tile: int) -> bool:
        """A locked hand may 暗杠/补杠 only with the tile just drawn, and only if its waits stay
        the same [DEC R10, R26]."""
        st = game.seats[seat]
        if not locked_gang_uses_drawn(st.hand, st.melds, game.drawn, tile):
            return False
        before = st.counts_copy()
        before[game.drawn] -= 1
        after = st.counts_copy()
        angang = after[tile] == 4
        after[tile] -= 4 if angang else 1
        melds = st.melds + [Meld("angang", (tile,) * 4)] if angang else st.melds
        opts, bits = game.opts, game.shape_bits
        return self.waits_mask(before, st.melds, opts, bits) == self.waits_mask(
            after, melds, opts, bits
        )

    def waits_mask(
        self,
        counts: np.ndarray | bytes | bytearray,
        melds: Any,
        opts: RongchengOptions,
        bits: int = -1,
    ) -> int:
        """Kinds completing a 3m+1 concealed hand: by shape (core) or as 风一色/掌一色.

        ``bits``: ``self.shape_bits(opts)`` when the caller has it (a game's shape_bits)."""
        if bits < 0:
            bits = self.shape_bits(opts)
        return _with_patterns(int(_core.waits_mask_bits(counts, 0, bits)), counts, melds, opts)

    # ---- scoring ------------------------------------------------------------
    def check_description(self, ctx: WinContext, opts: RongchengOptions) -> None:
        """A described win must be possible: 摸宝 is one drawn 宝, 天胡/地胡/海底 by their way."""
        super().check_description(ctx, opts)
        if ctx.jokers and not ctx.is_self_draw:
            raise InvalidHandError("jokers: 摸宝 is a self-drawn 宝; how must be self_draw")
        if ctx.jokers and ctx.joker_kind != ctx.win_tile:
            raise InvalidHandError("joker_kind: with 摸宝 the win tile is the drawn 宝 (its kind)")
        checks = {"tianhu": ("self_draw",), "dihu": ("discard",), "haidi": ("self_draw",)}
        for flag, hows in checks.items():
            if flag in ctx.flags and ctx.how not in hows:
                raise InvalidHandError(f"flags: {flag} needs how {' or '.join(hows)}")
        if ctx.flags & set(READINGS) and not (ctx.jokers and ctx.gang_chain):
            raise InvalidHandError("flags: cunpai/gangkai need a 宝 (jokers 1) drawn after a gang")
        if set(READINGS) <= ctx.flags:
            raise InvalidHandError("flags: cunpai and gangkai together")
        if "tianhu" in ctx.flags and ctx.melds:
            raise InvalidHandError("flags: tianhu is the dealt 14 tiles (no melds)")
        for side in ("", "payer_"):
            if {f"{side}piao1", f"{side}piao2"} <= ctx.flags:
                raise InvalidHandError(f"flags: {side}piao1 and {side}piao2 together")

    def win_refusal(self, ctx: WinContext, opts: RongchengOptions) -> str:
        """自摸胡: a declared seat wins by self-draw only, 抢杠胡 counting as 点炮; 地胡 is won
        undeclared on the dealer's first discard (as ``can_win``)."""
        if opts.self_draw_only and not ctx.is_self_draw and "dihu" not in ctx.flags:
            return (
                "自摸胡 (self_draw_only): a declared seat wins by self-draw only, "
                "抢杠胡 counting as 点炮 (RULES V5.3, DEC R21)"
            )
        return ""

    def no_win_reason(self, ctx: WinContext, opts: RongchengOptions) -> str:
        if misses_only_the_258_pair(ctx, self.shape_flags(opts)):
            return "掌: the pair must be a suited 2/5/8 unless 乱掌 (RULES V5.4)"
        return super().no_win_reason(ctx, opts)

    def score(self, ctx: WinContext, opts: RongchengOptions) -> Breakdown | None:
        """The best reading of the win; with a drawn 宝 both 摸宝/存牌 and the tile as itself."""
        readings: list[tuple[str, list[Hit]]] = []
        c, w = ctx.concealed, ctx.win_tile
        if ctx.jokers:
            hits = self._reading(ctx, opts, c, ctx.jokers, -1)
            if hits:
                readings.append(("cunpai", hits))
            c = c.copy()
            c[w] += 1
        if c[w] <= 4:
            hits = self._reading(ctx, opts, c, 0, w)
            if hits:
                readings.append(("gangkai", hits))
        if not readings:
            return None
        mode = next((r for r in READINGS if r in ctx.flags), opts.cunpai_mode)
        if ctx.jokers and ctx.gang_chain and len(readings) == 2 and mode != "best":
            hits = dict(readings)[mode]  # 「杠开存牌」: the seat's choice [DEC R5]
        else:
            hits = max((h for _, h in readings), key=_pattern)
        return _breakdown(hits, ctx)

    def _reading(
        self, ctx: WinContext, opts: RongchengOptions, c: np.ndarray, k: int, w: int
    ) -> list[Hit] | None:
        """Hits of one reading: ``c`` natural concealed, ``k`` wildcards, ``w`` natural win tile."""
        melds = ctx.melds
        feng, zhang = _patterns_open(_held_bytes(c), melds, opts, 0)
        flags = self.shape_flags(opts)
        if not (feng or zhang or is_win(c, k, **flags)):
            return None
        facts = hand_facts(c, w, k, pair258=flags["pair258"])
        bases = []
        if facts.standard:
            bases.append("pihu")
            if facts.all_triplets and all(m.kind != "chi" for m in melds):
                bases.append("pengpenghu")
        if not melds and facts.seven_pairs:
            bases.append(_qidui(c, k, facts))
        if not melds and facts.thirteen_orphans:
            bases.append("shisanyao")
        if not bases:
            if not (feng or zhang):
                return None
            bases.append("zhijiehu")
        base = max(bases, key=lambda b: BASES[b][1])
        ids: list[str] = [f for f in ("tianhu", "dihu") if f in ctx.flags]
        if _one_suit(c, melds):
            ids.append("qingyise")
        if "haidi" in ctx.flags and ctx.how == "self_draw":
            ids.append("haidilao")
        if ctx.gang_chain and ctx.is_self_draw and not k:  # 「如果杠开的牌玩家选择存牌…」
            ids.append("gangshanghua")
        ids += ["fengyise"] * feng + ["zhangyise"] * zhang
        if k:
            ids.append("mobao")
            bao = ctx.joker_kind
            natural_wait = bao >= 0 and self.waits_mask(c, melds, opts) >> bao & 1
            # 「胡风一色和掌一色时，摸到的宝牌必须手里也有时才算宝中宝」
            if natural_wait and (not (feng or zhang) or c[bao]):
                ids.append("baozhongbao")
        ids += [s for s in _SIDE if s in ctx.flags]
        return [_hit(base)] + [_hit(i) for i in ids]

    # ---- payments -----------------------------------------------------------
    def win_payments(self, game: Game, win: Win) -> list[Payment]:
        """Self-draw: every other seat its own raw(w,p); 点炮/抢杠: only that seat [DEC R18]."""
        bd = win.breakdown
        payers = game.others(win.seat) if win.how in ("self_draw", "fenzhang") else [win.from_seat]
        pattern = _pattern([h for h in bd.hits if h.id not in _SIDE])
        side_w = "minglou" in bd.ids
        gang = gang_total(game.seats[win.seat].melds)
        out = []
        for p in payers:
            side = side_w + (game.seats[p].declared == "minglou")
            piao = _piao(game, win.seat) + _piao(game, p)
            amount = pattern * 2**side + piao + gang
            parts = [*bd.ids, *(("piao",) if piao else ()), *(("gang",) if gang else ())]
            reason = "+".join(dict.fromkeys(parts))  # each part once (the breakdown has some)
            out.append(Payment(p, win.seat, amount, reason))
        return out  # the engine cuts each seat's total to 32 in this (play) order [DEC R13]

    def next_dealer(self, game: Game) -> int:
        if game.wins:  # 「本局庄家胡牌」 also as one of several winners [DEC R23]
            dealer_won = any(w.seat == game.dealer for w in game.wins)
            return game.dealer if dealer_won else game.next_seat(game.dealer)
        # 「无杠荒牌」连庄, 「有杠荒牌」下庄 — any gang by anyone [DEC R16]
        return game.next_seat(game.dealer) if game.gangs_on_table else game.dealer

    def public_state(self, game: Game) -> dict[str, Any]:
        """The 宝 once turned up (``"hidden"`` before), and what each declaration shows."""
        out: dict[str, Any] = {}
        if "bao_declarer" in game.extra:
            bao = game.extra.get("joker_kind", -1)
            hidden = bool(game.hidden_indicators) and not game.is_over
            out["bao"] = "hidden" if hidden else (T.NOTATION[bao] if bao >= 0 else None)
        ting: list[dict[str, Any] | None] = []
        for st in game.seats:
            entry: dict[str, Any] | None = None
            if st.declared:
                entry = {"declared": st.declared}
                if st.declared == "minglou":  # 明搂: the whole hand face up
                    entry["hand"] = T.format(st.counts)
                elif st.declared == "liangting" and _locked(st):  # 亮听: the waits
                    entry["waits"] = T.format(mask_to_kinds(self._shown_waits(game, st)))
            ting.append(entry)
        if any(ting):
            out["ting"] = ting
        return out

    def table_actions(self, opts: RongchengOptions, kinds: frozenset[int]) -> list[Action]:
        """报听, 亮听, 明搂 and the 存牌 readings, then every 飘 / 长跑 choice."""
        return [*(DECLARE[d] for d in DECLARATIONS + READINGS), *PIAO_CHOICES]

    def declarations(self, opts: RongchengOptions) -> tuple[str, ...]:
        return DECLARATIONS  # (the 存牌 readings are answers, never a seat's declaration)

    # ---- what every seat sees of a 明搂 / 亮听 seat in the RL observation (mjcore/rl)
    def shown_hand(self, st: Any) -> bool:
        return st.declared == "minglou"  # type: ignore[no-any-return]

    def shown_waits(self, game: Game, st: Any) -> int:
        if st.declared == "liangting" and _locked(st):
            return self._shown_waits(game, st)
        return 0

    def _shown_waits(self, game: Game, st: Any) -> int:
        hand = st.counts_copy()
        if int(hand.sum()) % 3 == 2 and game.drawn >= 0 and hand[game.drawn]:
            hand[game.drawn] -= 1  # its own turn: the waits before the draw
        return self.waits_mask(hand, st.melds, game.opts) if int(hand.sum()) % 3 == 1 else 0


DECLARE = {d: Action("declare", name=d) for d in DECLARATIONS + READINGS}


# ---- helpers ---------------------------------------------------------------------
def _can_win(game: Game, seat: int, tile: int, how: str) -> bool:
    """Rongcheng.can_win (a module function: typed when compiled, rongcheng.pxd)."""
    st = game.seats[seat]
    # (天胡/地胡 windows are checked by shape too: most first hands are not complete, and
    # _may_complete is exact for them as for a locked seat: no 宝 is wild there)
    drawn = how == "self_draw" or how == "fenzhang"
    if not st.declared:  # most seats (asked on every discard): only 天胡/地胡
        if drawn:
            return _tianhu(game, seat, how) and _may_complete(game, seat, tile, True)
        return _first_discard_win(game, seat, tile, how)
    if drawn:
        return (_locked(st) or _tianhu(game, seat, how)) and _may_complete(game, seat, tile, True)
    if _locked(st):  # 抢杠胡 counts as 点炮 [DEC R21]
        return not game.opts.self_draw_only and _may_complete(game, seat, tile, False)
    return _first_discard_win(game, seat, tile, how)


def _may_complete(game: Game, seat: int, tile: int, drawn: bool) -> bool:
    """A cheap exact pre-check of a locked seat's win (``score`` would find no reading
    otherwise): ``tile`` — drawn (in hand) or claimed — is one of the waits of the hand
    without it, unless a drawn 宝 is a wildcard (摸宝: always fully evaluated)."""
    st = game.seats[seat]
    hand = st.hand  # (the seat's bytearray: read, copied before a change)
    if drawn:
        if _wild_bao(game, seat, hand) >= 0 or not hand[tile]:
            return True
        known = game.waits_before_draw(seat) if tile == game.drawn else -1
        hand = bytearray(hand)
        hand[tile] -= 1
        if known < 0:  # (else the shape waits of this very hand: the one before the draw)
            known = _core.waits_mask_bits(hand, 0, game.shape_bits)
        return _completes(known, tile, hand, st.melds, game.opts)
    shape = game.seat_waits(seat)  # (the engine's, kept until the seat's hand changes)
    return _completes(shape, tile, hand, st.melds, game.opts)


def _completes(shape: int, tile: int, counts: Any, melds: Any, opts: RongchengOptions) -> bool:
    """``tile`` completes the 3m+1 ``counts`` whose shape waits are ``shape``: by shape, or as
    风一色 (an honor) or 掌一色 (a 2/5/8) — no other kind is ever asked the patterns."""
    if shape >> tile & 1:
        return True
    if not _MASK_PATTERN_WAITS >> tile & 1:
        return False
    return bool(_with_patterns(shape, counts, melds, opts) >> tile & 1)


def _drawn_bao(game: Game, seat: int) -> int:
    """The 宝 kind when ``seat``, declared and locked, has just drawn it (摸宝), else −1
    (Rongcheng.jokers: typed when compiled)."""
    bao = game.extra.get("joker_kind", -1)
    if (
        bao < 0
        or game.drawn != bao
        or game.current != seat
        or game.draw_how not in ("wall", "replacement", "fenzhang")
        or not _locked(game.seats[seat])
    ):
        return -1
    return bao  # type: ignore[no-any-return]


def _wild_bao(game: Game, seat: int, counts: Any) -> int:
    """The 宝 kind when it is a wildcard in ``counts`` (an array or a bytearray) of the seat's
    3m+2 hand — 摸宝, :func:`_drawn_bao` held — else −1 (Rongcheng.jokers)."""
    bao = _drawn_bao(game, seat)
    if bao < 0 or not counts[bao] or sum(counts) % 3 != 2:
        return -1
    return bao


def _bao_due(game: Game, seat: int) -> bool:
    """Rongcheng.before_turn's test (typed when compiled: asked at every turn): the 宝 is still
    face down and this is the first declarer's turn."""
    return bool(game.hidden_indicators) and seat == game.extra.get("bao_declarer")


def _locked(st: Any) -> bool:
    """Declared 听 and discarded since: the hand is locked and may win."""
    return bool(st.declared) and st.discard_count > st.extra.get("ting_discards", 1 << 30)


def _tianhu(game: Game, seat: int, how: str) -> bool:
    return how == "self_draw" and seat == game.dealer and game.draw_how == "deal"


def _first_discard_win(game: Game, seat: int, tile: int, how: str) -> bool:
    """地胡 on the dealer's first discard, if ``tile`` completes the hand."""
    return how == "discard" and _dihu(game, seat) and _may_complete(game, seat, tile, False)


def _dihu(game: Game, seat: int) -> bool:
    """「庄家打出第一张牌后闲家直接胡牌」: on the dealer's first discard, the hand's first."""
    if not game.first_go_around:  # (the hand's first discard is always in the first round)
        return False
    src, _, kind = game.claim
    if not (src == game.dealer != seat and kind == "discard"):
        return False
    discards = 0  # the dealer's one discard is the only one of the hand
    for st in game.seats:
        discards += st.discard_count
    return discards == 1 and game.seats[src].discard_count == 1


def _piao(game: Game, seat: int) -> int:
    return game.seats[seat].choices.get("piao", 0)


def _exposed(game: Game, kind: int) -> int:
    """Face-up copies of ``kind``: indicators, rivers, 分张 tiles, melds (暗杠 are face down)."""
    n = game.indicators.count(kind) + game.set_aside.count(kind)
    for st in game.seats:
        n += st.discards.count(kind)
        n += sum(m.tiles.count(kind) for m in st.melds if m.kind != "angang")
    return n


def _filter_turn(
    variant: Rongcheng, game: Game, seat: int, actions: Sequence[Action]
) -> Sequence[Action]:
    """Rongcheng.filter_turn (a module function: typed when compiled, rongcheng.pxd)."""
    st = game.seats[seat]
    if st.extra.get("reading"):
        return [HU]  # the 存牌 reading is chosen: the win follows
    if game.gang_limit_hit():  # the 4th gang's replacement may win (hu / pass);
        # a 宝 that also wins as itself offers the 存牌/杠开 choice first: the 4-gang 荒庄
        # waits for it [DEC R28, R17]
        if HU in actions and variant._two_readings(game, seat):
            return [*actions, *[DECLARE[r] for r in READINGS]]
        return actions
    if st.declared:
        if not _locked(st):  # the declaring turn: a discard that leaves the hand ready
            return _ready_discards(game, seat, actions, False)
        drawn = game.drawn
        locked = [  # locked: win, discard the drawn tile, or a gang that keeps the waits
            a
            for a in actions
            if (a.kind == "discard" and a.tile == drawn)
            or a.kind == "hu"  # (a hu action is HU: it has no other field)
            or (a.kind == "gang" and variant._gang_keeps_waits(game, seat, a.tile))
        ]
        if variant._two_readings(game, seat) and HU in locked:  # (hu actions are all HU)
            locked += [DECLARE[r] for r in READINGS]
        return locked
    if _ready_possible(game, seat) and _ready_discards(
        game, seat, actions, True
    ):  # exact: shanten 0 also counts a fifth copy of a kind held 4 times as a wait
        return [*actions, *[DECLARE[d] for d in DECLARATIONS]]
    return actions


def _ready_discards(game: Game, seat: int, actions: Sequence[Action], first: bool) -> list[Action]:
    """Rongcheng._ready_discards (typed when compiled, rongcheng.pxd): one copy of the hand,
    each discard taken out and put back in place. A discard is asked the waits only if it
    leaves shanten 0 or 风一色/掌一色 is still open to the hand less one tile (else it leaves
    no wait: one native call for the shanten of every discard)."""
    st = game.seats[seat]
    buf = bytearray(st.hand)  # (the core and the patterns read the bytes as they are)
    melds, opts, bits = st.melds, game.opts, game.shape_bits
    shantens = _core.discard_shanten(buf, -1, bits)
    feng, zhang = _patterns_open(buf, melds, opts, 1)
    out = []
    for a in actions:
        if a.kind != "discard":
            continue
        t = a.tile
        if shantens[t] > 0 and not (feng or zhang):
            continue
        buf[t] -= 1
        ready = _with_patterns(_core.waits_mask_bits(buf, 0, bits), buf, melds, opts) != 0
        buf[t] += 1
        if ready:
            out.append(a)
            if first:
                break
    return out


def _ready_possible(game: Game, seat: int) -> bool:
    """A quick necessary test: some discard may leave the hand ready (by shape, or
    风一色/掌一色 in any arrangement); ``_ready_after`` decides each discard exactly."""
    st = game.seats[seat]
    hand = st.hand
    if _core.shanten_bits(hand, 0, game.shape_bits) <= 0:  # game.shape_bits: shape_flags
        return True
    feng, zhang = _patterns_open(hand, st.melds, game.opts, 1)  # (one tile to discard)
    return feng or zhang


def _with_patterns(mask: int, counts: Any, melds: Any, opts: RongchengOptions) -> int:
    """``mask``, the shape waits of the 3m+1 concealed ``counts``, with the kinds that
    complete them as 风一色 or 掌一色 (Rongcheng.waits_mask; typed when compiled,
    rongcheng.pxd: asked at every discard to a locked seat)."""
    held = _held_bytes(counts)
    feng, zhang = _patterns_open(held, melds, opts, 0)
    if not (feng or zhang):
        return mask
    full = T.kinds_mask([t for t in range(34) if held[t] == 4]) if 4 in held else 0
    if feng:
        mask |= _MASK_HONORS & ~full
    if zhang:
        mask |= _MASK_258 & ~full
    return mask


def _held_bytes(counts: Any) -> bytearray:
    """The 34 counts, one byte per kind (the core has checked them: 0..4)."""
    if type(counts) is bytearray:
        return counts
    if isinstance(counts, bytes):
        return bytearray(counts)
    return bytearray(counts.tobytes() if counts.dtype == _U8 else counts.astype(_U8).tobytes())


def _patterns_open(
    counts: bytearray, melds: Any, opts: RongchengOptions, spare: int
) -> tuple[bool, bool]:
    """(风一色, 掌一色) still open to the concealed ``counts`` — at most ``spare`` tiles against
    each (a discard still to come) — and to the melds under the options. The hand is asked
    first, kind by kind until both are ruled out (most hands: a few kinds); only then the
    melds and options."""
    if len(counts) != 34:  # (T.N_KINDS, a C constant here: asked at every turn)
        raise InvalidHandError(f"counts must have 34 entries, got {len(counts)}")
    suited = off258 = 0  # tiles against 风一色 (a suited tile) / 掌一色 (all but a suited 2/5/8)
    for t in range(34):
        n = counts[t]
        if t >= 27:
            off258 += n
        elif n:
            suited += n
            if t % 3 != 1:  # (a suited 2/5/8 is t % 9 in 1, 4, 7)
                off258 += n
            if suited > spare and off258 > spare:
                return False, False
    feng_reach, zhang_reach = _patterns_in_reach(melds, opts)
    return suited <= spare and feng_reach, off258 <= spare and zhang_reach


def _patterns_in_reach(melds: Any, opts: RongchengOptions) -> tuple[bool, bool]:
    """(风一色, 掌一色) still possible by the melds and the options: every meld tile an honor
    (不带风 off), every meld tile a suited 2/5/8 (乱掌 off); the concealed tiles decide the rest."""
    honors, k258 = _meld_colours(melds)
    return honors and not opts.no_honors, k258 and not opts.luanzhang


def _meld_colours(melds: Any) -> tuple[bool, bool]:
    """(every meld tile is an honor, every meld tile is a suited 2/5/8)."""
    honors = k258 = True
    for m in melds:  # (a loop, not all(): asked at every turn of a seat not yet ready)
        if m.kind == "chi":  # a chow holds no honor and a non-258 tile
            return False, False
        t = m.tiles[0]
        honors = honors and t >= 27
        k258 = k258 and bool(_MASK_258 >> t & 1)  # (t in KINDS_258, as a bit test)
    return honors, k258


def _one_suit(c: np.ndarray, melds: Any) -> bool:
    """清一色: only one of 筒条万, melds included (a wildcard always joins natural tiles)."""
    return T.suit_bits(kinds_held(c, melds)) in T.ONE_SUIT_BITS


@cache
def _hit(pid: str) -> Hit:
    """A base pattern's or a factor's Hit, made once (a Hit is frozen: wins share it)."""
    if pid in BASES:
        return Hit(pid, *BASES[pid], "base")
    return Hit(pid, *FACTORS[pid], "mul")


def _qidui(c: np.ndarray, k: int, facts: Any) -> str:
    """七对 family: 七大对/豪华七大对 only when the winning tile is the 4th of a quad [DEC R8]."""
    if k:  # the wildcard pairs the one odd kind; on a 3-count it is the quad's 4th tile
        odd = int(np.flatnonzero(c & 1)[0])
        completes = c[odd] == 3
        quads = int((c == 4).sum()) + completes
    else:
        completes, quads = facts.win_completes_quad, facts.quads_natural
    if not completes:
        return "qidui"
    return "qidadui" if quads == 1 else "haohua_qidadui"  # 3 quads too [DEC R25]


def gang_total(melds: Any) -> int:
    """The winner's gangs: 明杠 1, 暗杠 2 (「只有胡牌的人的杠牌算分」)."""
    total = 0
    for m in melds:  # (a loop: every scored win asks it)
        total += GANG_SCORE.get(m.kind, 0)
    return total


def _pattern(hits: list[Hit]) -> int:
    out = 1
    for h in hits:
        if h.combine in ("base", "mul"):
            out *= h.value
    return out


def _breakdown(hits: list[Hit], ctx: WinContext) -> Breakdown:
    """raw = pattern · 2^(明搂 sides) + 飘_w + 飘_p + gangs_w, cut to the cap of 32."""
    piao = 0
    for flag, v in _PIAO_FLAGS:
        if flag in ctx.flags:
            piao += v
    return _breakdown_of(tuple([h.id for h in hits]), piao, gang_total(ctx.melds))


_PIAO_FLAGS = (("piao1", 1), ("piao2", 2), ("payer_piao1", 1), ("payer_piao2", 2))


@cache
def _breakdown_of(ids: tuple[str, ...], piao: int, gang: int) -> Breakdown:
    """:func:`_breakdown` of the hits ``ids`` (made once per distinct win: it is frozen)."""
    hits = [_hit(i) for i in ids]
    if piao:
        hits.append(Hit("piao", ADDS["piao"][0], piao, "add"))
    if gang:
        hits.append(Hit("gang", ADDS["gang"][0], gang, "add"))
    pattern = _pattern(hits)
    raw = pattern + piao + gang
    points = min(raw, CAP)
    formula = " × ".join(str(h.value) for h in hits if h.combine != "add")
    formula += "".join(f" + {h.value}" for h in hits if h.combine == "add")
    formula += f" = {raw}" + (f" → {CAP} (封顶)" if raw > CAP else "")
    return Breakdown(tuple(hits), points=points, fan=0, formula=formula)


VARIANT = Rongcheng()
