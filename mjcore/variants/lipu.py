# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""荔浦麻将 (``lipu``) — RULES.md V2.

136 tiles, 2–4 players, every tile drawable; chi/peng/直杠/暗杠, 捞杠 (补杠 and 抢杠胡) as an
option; 一炮多响. A win is worth one cell of the literal table ``TABLE`` (pattern row ×
win-method column), ×2 per further stacked pattern, × the 坐马 base of the winner–payer pair,
× (1 + horse hits). 三比: three claims of one seat on another bind the pair (互包: 陪杀 / 全包);
four with a chi, or three pengs/直杠, seal the seat claimed from (封胡). Gang scores are
settled at the end of the hand, 流局 included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from .. import tiles as T
from ..engine.actions import Action
from ..engine.melds import Meld
from ..engine.variant import BaseOptions, Variant, choice_values, option
from ..errors import InvalidHandError
from ..hand import hand_facts
from ..scoring import Breakdown, Hit, Payment, PayReason, WinContext
from ..scoring.context import GANG_REASONS, pattern_table

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..scoring.context import Win

# ---- the score table (图1), literally: one row per pattern, one column per win method --------
COLUMNS = (
    ("dianpao", "点炮"),
    ("zimo", "自摸"),
    ("menqing_zimo", "门清自摸"),
    ("diangang_shanghua", "点杠上花"),
    ("angang_shanghua", "暗杠上花"),
    ("angang_shanghua_menqing", "暗杠上花+门清"),
    ("minggang_gangshangpao", "明杠杠上炮"),
    ("angang_gangshangpao", "暗杠杠上炮"),
    ("qiangganghu", "抢杠胡"),
)
NA = None  # "—" in the figure: an impossible combination
TABLE: dict[str, tuple[int | None, ...]] = {
    # columns as COLUMNS: 点炮 自摸 门清自摸 点杠上花 暗杠上花 暗杠上花+门清
    #                     明杠杠上炮 暗杠杠上炮 抢杠胡
    "pinghu": (1, 1, 2, 7, 3, 6, 7, 9, 7),
    "pengpenghu": (3, 2, 4, 21, 6, 12, 21, 27, 21),
    "qingyise": (3, 2, 4, 21, 6, 12, 21, 27, 21),
    "dadiaoche": (6, 4, NA, 42, 12, NA, 42, 54, 42),
    "xiaodiaoche": (3, 2, NA, 21, 6, NA, 21, 27, 21),
    "qidui": (3, 2, 4, NA, NA, NA, 21, 27, 21),
    "haohua_qidui": (6, 4, 8, NA, NA, NA, 42, 54, 42),
    "chaohaohua_qidui": (12, 8, 16, NA, NA, NA, 84, 108, 84),
}
PATTERN_NAMES = {
    "pinghu": "平胡",
    "pengpenghu": "碰碰胡",
    "qingyise": "清一色",
    "dadiaoche": "大吊车",
    "xiaodiaoche": "小吊车",
    "qidui": "七对",
    "haohua_qidui": "豪华七对",
    "chaohaohua_qidui": "超豪华七对",
}
WHEN = {  # one line per row and column (docs/rules/lipu.md has the table and its columns)
    "pinghu": "a standard hand with no other pattern",
    "pengpenghu": "all triplets/quads",
    "qingyise": "one suit only, melds included",
    "dadiaoche": "four peng/gang melds, won on the single tile's pair",
    "xiaodiaoche": "four melds with a chi, won on the single tile's pair",
    "qidui": "seven pairs",
    "haohua_qidui": "seven pairs, one kind four times",
    "chaohaohua_qidui": "seven pairs, two or more kinds four times",
    "dianpao": "column: a discard win, the discarder pays",
    "zimo": "column: a self-draw, every other seat pays",
    "menqing_zimo": "column: a self-draw with no chi/peng/直杠/补杠",
    "diangang_shanghua": "column: self-draw on a 直杠's replacement, its discarder pays",
    "angang_shanghua": "column: self-draw on an 暗杠's or 补杠's replacement",
    "angang_shanghua_menqing": "column: 暗杠上花, 门清",
    "minggang_gangshangpao": "column: a discard win right after a 直杠/补杠 replacement",
    "angang_gangshangpao": "column: a discard win right after an 暗杠 replacement",
    "qiangganghu": "column: robbing a 补杠, the robbed seat pays",
}
COLUMN_INDEX = {c: i for i, (c, _name) in enumerate(COLUMNS)}
COLUMN_NAMES = dict(COLUMNS)
# Columns paid by every other seat; the others have one payer (「…均按点炮计算」).
SELF_DRAW_COLUMNS = frozenset(
    {"zimo", "menqing_zimo", "angang_shanghua", "angang_shanghua_menqing"}
)
# Wins whose gang right before them scores 0 (「刚好杠上来胡牌的那个杠不计算杠分…杠上炮同理」).
GANG_COLUMNS = frozenset(
    {
        "diangang_shanghua",
        "angang_shanghua",
        "angang_shanghua_menqing",
        "minggang_gangshangpao",
        "angang_gangshangpao",
    }
)
# A 大吊车 of four 暗杠 is 门清 but its 门清 cells are blank: it reads the plain self-draw
# column (which equals the 碰碰胡 门清 cell it would otherwise be: 4, 12). [DEC L23]
MENQING_FALLBACK = {"menqing_zimo": "zimo", "angang_shanghua_menqing": "angang_shanghua"}
QIDUI_FAMILY = ("qidui", "haohua_qidui", "chaohaohua_qidui")
# 抓马 hits: 「抓到1、5、9、东、中则为中马」 — rank 1/5/9 of any suit, 东 (1z), 中 (7z).
HORSE_KINDS = frozenset({s * 9 + r for s in range(3) for r in (0, 4, 8)} | {27, 33})
GANG_FLAGS = ("after_zhigang", "after_bugang", "after_angang")


def _row_text(pattern: str) -> str:
    cells = " ".join("—" if v is None else str(v) for v in TABLE[pattern])
    return f"{WHEN[pattern]}; points 点炮…抢杠胡 {cells}; ×2 stacked on a larger one"


ENGLISH = {  # the English name players use for each pattern and column (not pinyin)
    "pinghu": "Chicken Hand",
    "pengpenghu": "All Triplets",
    "qingyise": "Full Flush",
    "dadiaoche": "Big Melded Hand",
    "xiaodiaoche": "Small Melded Hand",
    "qidui": "Seven Pairs",
    "haohua_qidui": "Luxury Seven Pairs",
    "chaohaohua_qidui": "Super Luxury Seven Pairs",
    "dianpao": "Win on a Discard",
    "zimo": "Self-Drawn Win",
    "menqing_zimo": "Concealed Self-Drawn Win",
    "diangang_shanghua": "Kong Bloom on a Discard Kong",
    "angang_shanghua": "Kong Bloom on an Own Kong",
    "angang_shanghua_menqing": "Concealed-Hand Kong Bloom",
    "minggang_gangshangpao": "Win on an Open Kong Discard",
    "angang_gangshangpao": "Win on a Concealed Kong Discard",
    "qiangganghu": "Robbing the Kong",
}
PATTERNS = pattern_table(
    [(p, PATTERN_NAMES[p], TABLE[p][0] or 0, "points") for p in TABLE]
    + [(c, name, TABLE["pinghu"][i] or 0, "column") for i, (c, name) in enumerate(COLUMNS)],
    {**{p: _row_text(p) for p in TABLE}, **{c: WHEN[c] for c, _name in COLUMNS}},
    ENGLISH,
)
PAY_REASONS = (  # the other parts of a pay event's reason
    *GANG_REASONS,
    PayReason("horses", "中马", "horsesN: N horse tiles hit, the win's payments ×(1+N)", True),
    PayReason("peisha", "陪杀", "a partner of a discard win pays its own share again"),
    PayReason("quanbao", "全包", "a partner pays the share of a non-partner on a self-draw"),
)
ZUOMA = "zuoma"
_ZUOMA_CHOICES = tuple(Action("choose", name=ZUOMA, value=v) for v in (0, 1))


@dataclass(frozen=True)
class LipuOptions(BaseOptions):
    laogang: bool = option(
        False, doc="捞杠 (先碰后杠): 补杠 allowed and scored as 明杠; 抢杠胡 exists"
    )
    no_chi_adjacent: bool = option(
        False, doc="不能吃打相同及相邻: after chi X, no discard of X, X-3, X+3 that turn"
    )
    zuoma: bool = option(False, doc="坐马: each seat chooses yes/no before every hand; base 1/2/4")
    zhuama: int = option(0, (0, 2, 4, 6), "抓马: horses after a win; 1/5/9/东/中 hit; x(1+hits)")


class Lipu(Variant):
    name = "lipu"
    title = "荔浦麻将"
    Options = LipuOptions
    pattern_registry = PATTERNS
    payment_registry = PAY_REASONS
    pass_hu_rule = "same_kind"  # 过手胡 as V1 [DEC L13]
    pass_peng_rule = True  # 过手碰
    calculator_flags: ClassVar[frozenset[str]] = frozenset(GANG_FLAGS)
    offered_choices = choice_values(_ZUOMA_CHOICES)
    bet_choices = frozenset({"zuoma"})  # 坐马
    choices_before_deal = True  # 坐马: 「开局前每人均可选择是否坐马」 [DEC LP3]

    # ---- data hooks ---------------------------------------------------------
    def tile_kinds(self, opts: LipuOptions) -> list[int]:
        return [k for k in range(34) for _ in range(4)]

    def chi_allowed(self, opts: LipuOptions) -> bool:
        return True

    def post_win_draws(self, opts: LipuOptions) -> int:
        """抓马: k horses at the first win, as many as remain [DEC LP4]."""
        return opts.zhuama

    def no_discard_after_chi(self, opts: LipuOptions, chow: tuple[int, ...], tile: int) -> set[int]:
        """不能吃打相同及相邻: X and X±3 of X's suit, whatever chow was made [DEC L12]."""
        if not opts.no_chi_adjacent:
            return set()
        low = tile - tile % 9
        return {t for t in (tile - 3, tile, tile + 3) if low <= t < low + 9}

    def table_actions(self, opts: LipuOptions, kinds: frozenset[int]) -> list[Action]:
        """坐马 is only asked with the zuoma option."""
        return list(_ZUOMA_CHOICES) if opts.zuoma else []

    # ---- flow hooks ---------------------------------------------------------
    def hand_choices(self, game: Game, seat: int) -> list[Action]:
        if not game.opts.zuoma:
            return []
        return list(_ZUOMA_CHOICES)  # shared actions, built once

    def after_claim(self, game: Game, seat: int, meld: Meld) -> None:
        st = game.seats[seat]
        if meld.kind == "peng" and not game.opts.laogang:
            st.no_bugang |= {meld.tiles[0]}  # 「未勾选捞杠时，对局中不允许先碰后杠」
        count_claims(game, seat, meld)

    def win_flags(self, game: Game, seat: int, tile: int, how: str) -> set[str]:
        """The kind of the gang right before a 杠上花 / 杠上炮 (it chooses the column)."""
        last = game.extra.get("last_gang")
        gang_draw = game.draw_how == "replacement" and game.draw_cause == "gang"
        if last and ((how == "self_draw" and gang_draw) or (how == "discard" and game.after_gang)):
            return {f"after_{last[1]}"}
        return set()

    def gang_payments(self, game: Game, seat: int, meld: Meld, chain: int) -> list[Payment]:
        """Gang scores are settled at the end of the hand; remember the last gang's kind."""
        game.extra["last_gang"] = (seat, meld.kind, meld.from_seat)
        return []

    # ---- the calculator -----------------------------------------------------
    def meld_kinds(self, opts: LipuOptions) -> frozenset[str]:
        kinds = set(super().meld_kinds(opts))
        if not opts.laogang:
            kinds.discard("bugang")  # 补杠 only with 捞杠
        return frozenset(kinds)

    def check_description(self, ctx: WinContext, opts: LipuOptions) -> None:
        """The shared checks, then 荔浦's: no 分张, 抢杠胡 only with 捞杠, and the one flag
        naming the gang before a 杠上花/杠上炮 (it chooses the column)."""
        super().check_description(ctx, opts)
        _check(ctx, opts)

    def score(self, ctx: WinContext, opts: LipuOptions) -> Breakdown | None:
        column = _column(ctx)
        readings = _readings(ctx)
        if not readings:
            return None
        best = max(readings, key=lambda p: _value(p, column))
        return _breakdown(tuple(best), column)

    # ---- payments -----------------------------------------------------------
    def win_payments(self, game: Game, win: Win) -> list[Payment]:
        """hu(w, p) = cell × 2^(patterns−1) × base(w, p) × (1 + hits), with 陪杀 / 全包."""
        bd, w = win.breakdown, win.seat
        column = bd.hits[-1].id
        factor = 1 + horse_hits(game.horses)
        reason = "+".join(bd.ids) + (f"+horses{factor - 1}" if factor > 1 else "")

        def x(payer: int) -> int:
            return bd.points * zuoma_base(game, w, payer) * factor

        partners = game.partners(w)
        if column in SELF_DRAW_COLUMNS:
            # 全包: the partner pays every share (each share with the base of the seat it
            # replaces); with two partners the first in play order covers the others' shares
            # [DEC L8, L22].
            out = []
            for p in game.others(w):
                payer = p if (p in partners or not partners) else partners[0]
                out.append(Payment(payer, w, x(p), reason if payer == p else reason + "+quanbao"))
            return out
        payer = win.from_seat
        if column == "diangang_shanghua":
            payer = game.extra["last_gang"][2]  # 「点杠的玩家给…」: the discarder of the 直杠
        out = [Payment(payer, w, x(payer), reason)]
        # 陪杀: each partner pays its own hu(w, partner) again, even when it is the discarder
        # (then 2×) [DEC L8, L16, L18].
        out += [Payment(q, w, x(q), reason + "+peisha") for q in partners]
        return out

    def settle_end(self, game: Game) -> list[Payment]:
        """Gang scores (流局 too): 直杠 — the discarder 1; 补杠 — the pung's discarder 1; 暗杠 —
        each other seat 1. Not the gang right before a 杠上花/杠上炮; not a sealed seat's."""
        if not game.gangs_on_table:  # no gang made (most hands): the log need not be read
            return []
        events = game.event_log.select("gang", "sealed")  # (all this reads)
        skip = -1
        if any(set(w.breakdown.ids) & GANG_COLUMNS for w in game.wins):
            # the gang the 杠上花/杠上炮 came from: the last one before the first hu (the hu
            # events' places from the log's types: a hu's patterns are not decoded for this)
            kinds = game.event_log.types()
            before = sum(k in ("gang", "sealed") for k in kinds[: kinds.index("hu")])
            skip = max(i for i in range(before) if events[i]["type"] == "gang")
        sealed: set[int] = set()
        out = []
        for i, ev in enumerate(events):
            if ev["type"] == "sealed":
                sealed.add(ev["seat"])
            elif ev["type"] == "gang" and i != skip and ev["seat"] not in sealed:
                out += _gang_score(game, ev["seat"], ev["meld"], T.kind(ev["tile"]))
        return out

    def next_dealer(self, game: Game) -> int:
        """Winner deals; 一炮多响: the discarder (robbed seat); 流局: the dealer stays."""
        if not game.wins:
            return game.dealer
        if len(game.wins) > 1:
            return game.wins[0].from_seat
        return game.wins[0].seat

    def hand_counters(self, game: Game) -> dict[str, int]:
        """三比 / 封胡 / 陪杀 / 全包 / 抓马 / 坐马 frequencies for ``mjcore simulate``."""
        peisha = sum("+peisha" in p.reason for p in game.settlement)
        quanbao = sum("+quanbao" in p.reason for p in game.settlement)
        sealed = sum(st.sealed for st in game.seats)
        hits = horse_hits(game.horses)
        return {
            "sanbi_pairs": len(game.liabilities),
            "hands_with_sanbi": int(bool(game.liabilities)),
            "sealed_seats": sealed,
            "hands_with_sealed": int(sealed > 0),
            "peisha_payments": peisha,
            "quanbao_payments": quanbao,
            "horse_draws": int(bool(game.horses)),
            "horse_tiles": len(game.horses),
            "horse_hits": hits,
            "zuoma_seats": sum(st.choices.get(ZUOMA, 0) for st in game.seats),
        }


# ---- helpers ---------------------------------------------------------------------------
def horse_hits(horses: list[int]) -> int:
    """Horses that hit (中马): 1/5/9 of a suit, 东, 中 [DEC L9]."""
    return sum(t in HORSE_KINDS for t in horses)


def zuoma_base(game: Game, winner: int, payer: int) -> int:
    """坐马 base of a pair: 1, 2 if one of them sits a horse, 4 if both (对马) [DEC L10]."""
    n = game.seats[winner].choices.get(ZUOMA, 0) + game.seats[payer].choices.get(ZUOMA, 0)
    return 1 << n


def _gang_score(game: Game, seat: int, kind: str, tile: int) -> list[Payment]:
    if kind == "angang":
        return [Payment(p, seat, 1, kind) for p in game.others(seat)]
    meld = next(m for m in game.seats[seat].melds if m.kind == kind and m.tiles[0] == tile)
    return [Payment(meld.from_seat, seat, 1, kind)]


def _gang_flag(ctx: WinContext) -> str:
    flags = [f for f in GANG_FLAGS if f in ctx.flags]
    return flags[0][len("after_") :] if len(flags) == 1 else ""


def _menqing(ctx: WinContext) -> bool:
    """门清: no chi/peng/直杠/补杠 (「有暗杠也算门清」); only on a self-draw (「点炮不算门清」)."""
    return all(m.kind == "angang" for m in ctx.melds)


def _column(ctx: WinContext) -> str:
    """The win-method column, from how the win happened (and the kind of the gang before it)."""
    gang = _gang_flag(ctx)
    if ctx.how == "rob_gang":
        return "qiangganghu"
    if ctx.how == "discard":
        if ctx.after_gang:
            return "angang_gangshangpao" if gang == "angang" else "minggang_gangshangpao"
        return "dianpao"
    if ctx.gang_chain:
        if gang == "zhigang":
            return "diangang_shanghua"
        # a 补杠's replacement reads as 暗杠上花 [DEC L3]
        return "angang_shanghua_menqing" if _menqing(ctx) else "angang_shanghua"
    return "menqing_zimo" if _menqing(ctx) else "zimo"


def _check(ctx: WinContext, opts: Any) -> None:
    if ctx.how not in ("discard", "self_draw", "rob_gang"):
        raise InvalidHandError(f"how: 荔浦 has no {ctx.how!r} wins")
    if not opts.laogang and ctx.how == "rob_gang":
        raise InvalidHandError("how: 抢杠胡 needs the laogang (捞杠) option")
    flags = [f for f in GANG_FLAGS if f in ctx.flags]
    if ctx.gang_chain and ctx.after_gang:
        raise InvalidHandError("gang_chain/after_gang: a win is not both 杠上花 and 杠上炮")
    if ctx.gang_chain or ctx.after_gang:
        if len(flags) != 1:
            raise InvalidHandError(
                f"flags: a 杠上花/杠上炮 needs exactly one of {', '.join(GANG_FLAGS)}"
            )
    elif flags:
        raise InvalidHandError(
            f"flags: {flags[0]} needs gang_chain (杠上花) or after_gang (杠上炮)"
        )
    kind = flags[0][len("after_") :] if flags else ""
    if ctx.gang_chain and kind not in {m.kind for m in ctx.melds}:
        raise InvalidHandError(f"melds: {flags[0]} needs such a gang among the melds")
    if kind == "bugang" and not opts.laogang:
        raise InvalidHandError("flags: after_bugang needs the laogang (捞杠) option")


def _readings(ctx: WinContext) -> list[list[str]]:
    """The pattern sets of each way to read the hand ([] = 平胡)."""
    facts = hand_facts(ctx.concealed, ctx.win_tile)
    qys = ["qingyise"] if ctx.one_suit() else []
    out = []
    if facts.standard:
        pats = []
        if facts.all_triplets and all(m.is_set_of_one_kind for m in ctx.melds):
            pats.append("pengpenghu")
        if len(ctx.melds) == 4:  # one concealed tile left, won on its pair: 吊车
            if any(m.kind == "chi" for m in ctx.melds):
                pats.append("xiaodiaoche")
            else:
                pats = ["dadiaoche"]  # absorbs 碰碰胡 [DEC L2]
        out.append(pats + qys)
    if facts.seven_pairs and not ctx.melds:
        out.append([QIDUI_FAMILY[min(facts.quads_natural, 2)]] + qys)
    return out


def _cell(pattern: str, column: str) -> int:
    value = TABLE[pattern][COLUMN_INDEX[column]]
    if value is None and column in MENQING_FALLBACK:
        value = TABLE[pattern][COLUMN_INDEX[MENQING_FALLBACK[column]]]
    if value is None:  # excluded by _check for a consistent description
        raise InvalidHandError(f"{PATTERN_NAMES[pattern]} cannot win by {COLUMN_NAMES[column]}")
    return value


def _value(patterns: Sequence[str], column: str) -> int:
    """T[平胡][c] for no pattern, else max T[p][c] × 2^(|P|−1) (「每叠加一个牌型…*2」)."""
    if not patterns:
        return _cell("pinghu", column)
    return max(_cell(p, column) for p in patterns) << (len(patterns) - 1)  # × 2^(n−1)


@cache
def _breakdown(patterns: tuple[str, ...], column: str) -> Breakdown:
    """Hits: the base pattern with its table cell, ×2 per further pattern, then the column
    (made once per distinct win: a Breakdown is frozen)."""
    ranked = sorted(patterns or ["pinghu"], key=lambda p: -_cell(p, column))
    top = ranked[0]
    hits = [Hit(top, PATTERN_NAMES[top], _cell(top, column), "base")]
    hits += [Hit(p, PATTERN_NAMES[p], 2, "mul") for p in ranked[1:]]
    hits.append(Hit(column, COLUMN_NAMES[column], 1, "mul"))
    points = _value(patterns, column)
    # name the cell actually read: a blank 门清 cell reads the plain column [DEC L23]
    read = column if TABLE[top][COLUMN_INDEX[column]] is not None else MENQING_FALLBACK[column]
    cell = f"T[{PATTERN_NAMES[top]}][{COLUMN_NAMES[read]}] = {_cell(top, column)}"
    stack = "".join(f" × 2 ({PATTERN_NAMES[p]})" for p in ranked[1:])
    formula = f"{cell}{stack} = {points}" if stack else cell
    return Breakdown(tuple(hits), points=points, fan=0, formula=formula)


def count_claims(game: Game, claimer: int, meld: Meld) -> None:
    """三比 [DEC L7]: 3 claims bind the pair; 4 (with a chi) or 3 pengs/直杠 seal the seat
    claimed from (``claimed_from`` counts chi/peng/直杠; a 补杠's peng was counted). A 直杠
    is counted before its replacement draw [DEC LP5]. (Lipu.after_claim's; a module
    function: typed when compiled, lipu.pxd.)"""
    st, source = game.seats[claimer], meld.from_seat
    sets, listed = 0, False  # (loops, not generators: asked at every claim)
    for m in st.melds:
        listed = listed or m is meld  # (a 直杠 is counted before it is listed)
        if m.from_seat == source and m.kind in ("peng", "zhigang", "bugang"):
            sets += 1
    if not listed and meld.kind in ("peng", "zhigang", "bugang"):
        sets += 1
    count = st.claimed_from[source]
    if count >= 3:
        game.bind(claimer, source)
    if count >= 4 or sets >= 3:
        game.seal(source)


VARIANT = Lipu()
