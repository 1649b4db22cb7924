# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""宿松麻将 (``susong``) — RULES.md V3.

144 tiles: 124 ordinary (万 筒 条, 东南西北) and 20 flowers — 中发白 ×4 are played as
flowers beside 春夏秋冬梅兰竹菊. Chi, peng and every gang (暗杠 shown face up), 抢杠胡,
一炮多响, 过手碰 / 过手胡 until the seat's next draw. Flowers are set aside and replaced
from the tail, unless a seat declares 飘 (飘花 option): it keeps and discards them.

A win is worth a tier (底分, 1–4) set by the seat's flower count 花 and its pattern —
patterns never stack, 一索 (4) is the cap — plus 2 per 花奖 of its flower area, plus
出增分 × (增 of winner + 增 of payer). Who may win on a discard depends on both seats'
花 (无花果 只能接无花果). 吃三比 doubles or spreads payments between two seats where
one claimed from the other three times.

[READ] A flower drawn when no replacement is left ends the hand as 流局, like any empty wall
(「所有人牌摸完后没人胡牌则流局」): the engine's replacement draw finds the wall empty.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from .. import _core
from .. import tiles as T
from ..engine.actions import Action
from ..engine.melds import Meld
from ..engine.variant import BaseOptions, Variant, choice_values, option
from ..errors import InvalidHandError
from ..hand import hand_facts
from ..scoring import Breakdown, Hit, Payment, PayReason, WinContext
from ..scoring.context import pattern_table

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..scoring.context import Win

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)  # 白 发 中: flowers here (「春夏秋冬梅兰竹菊、中发白为花牌」)
SEASONS = (34, 35, 36, 37)  # 春夏秋冬
PLANTS = (38, 39, 40, 41)  # 梅兰竹菊
FLOWER_KINDS = frozenset((*DRAGONS, *SEASONS, *PLANTS))
ZENG = (0, 1, 2, 3)  # each seat's 增 at hand start (UI 0–3) [DEC S9]
PIAO_CHOICES = tuple(Action("choose", name="piao", value=v) for v in (0, 1))
ZENG_CHOICES = tuple(Action("choose", name="zeng", value=v) for v in ZENG)
TIER_NAMES = {1: "小胡", 2: "大胡", 3: "大大胡", 4: "一索"}
# 一索 patterns: all are worth 4 and never stack. The breakdown names the most specific one
# (this order) and the formula lists the others; 无花果 (every 飘 win) comes last.
YISUO = {
    "tianhu": "天胡",
    "dihu": "地胡",
    "shuanggang": "双杠",
    "gangkai": "杠开",  # with 6+ 花
    "qiangganghu": "抢杠胡",
    "daqidui": "大七对",
    "xiaoqidui": "小七对",
    "qingyise": "清一色",
    "hunyise": "混一色",
    "quanqiuren": "全求人",
    "pengpenghu": "碰碰胡",
    "wuhuaguo": "无花果",
}
RULES = {  # one line per pattern (docs/rules/susong.md has the full table)
    "tianhu": "一索: the dealer wins its dealt hand after 补花",
    "dihu": "一索: a non-dealer self-draws on its first draw, no chi/peng/gang before",
    "shuanggang": "一索: 杠开 after two or more gangs of the same turn",
    "gangkai": "杠开/花开 (self-draw on a gang's or flower's replacement): 花 ≥ 6 一索 4, "
    "1–3 大胡 2, 4–5 大大胡 3",
    "qiangganghu": "一索: robbing a 补杠",
    "daqidui": "一索: seven pairs with an undeclared 4-of-a-kind",
    "xiaoqidui": "一索: seven pairs",
    "qingyise": "一索: one suit, no winds",
    "hunyise": "一索: one suit and at least one wind tile",
    "quanqiuren": "一索: four peng/直杠/补杠 melds, winning on the single tile's pair",
    "pengpenghu": "一索: four triplets or quads and a pair",
    "wuhuaguo": "一索: 花 = 0 (every 飘 win)",
    "pinghu": "no other pattern: 花 1–4 小胡 1, 5–9 大胡 2, ≥ 10 大大胡 3",
    "huajiang": "+2 per 花奖 (a complete flower kind, …) of the flower area",
}
ENGLISH = {  # the English name players use for each pattern (not pinyin)
    "tianhu": "Heavenly Hand",
    "dihu": "Earthly Hand",
    "shuanggang": "Double Kong Bloom",
    "gangkai": "Kong Bloom",
    "qiangganghu": "Robbing the Kong",
    "daqidui": "Big Seven Pairs",
    "xiaoqidui": "Seven Pairs",
    "qingyise": "Full Flush",
    "hunyise": "Half Flush",
    "quanqiuren": "Melded Hand",
    "pengpenghu": "All Triplets",
    "wuhuaguo": "No Flowers",
    "pinghu": "Chicken Hand",
    "huajiang": "Flower Bonus",
}
PATTERNS = pattern_table(
    [(p, name, 4, "points") for p, name in YISUO.items()]
    + [("pinghu", "平胡", 1, "points"), ("huajiang", "花奖", 2, "add")],
    RULES,
    ENGLISH,
)
PAY_REASONS = (  # the other parts of a pay event's reason
    PayReason("sanbi", "三比", "吃三比: a 三比 partner pays again (or the discarder double)"),
)
NAMES = {p.id: p.name for p in PATTERNS}
_YISUO_ORDER = {p: i for i, p in enumerate(YISUO)}
_WINDS_MASK = T.kinds_mask(WINDS)
FLAGS = frozenset({"piao", "tianhu", "dihu", "huakai"})
_SELF_DRAW_FLAGS = ("tianhu", "dihu", "huakai")


@dataclass(frozen=True)
class SusongOptions(BaseOptions):
    chuzeng: int = option(
        0,
        (0, 1, 2, 5),
        "出增分 (不出增/1分/2分/5分): per payer 出增分 × (增 of winner + 增 of payer) [DEC S9]",
    )
    piaohua: bool = option(
        False, doc="飘花: each seat declares 飘 (keep and discard flowers) or 不飘 at hand start"
    )
    flower_bonus_stack: bool = option(
        True, doc="花奖叠加: every disjoint 花奖 counts (+2 each); off: at most one"
    )


# ---- 花 (flower count) ---------------------------------------------------------------
def meld_hua(meld: Meld) -> int:
    """花 of a meld in its final state: suited 明杠 1 / 暗杠 2, wind 明杠 2 / 暗杠 3, 风碰 1.

    An upgraded wind peng (补杠) counts 2 in all, not 1 + 2 [DEC S2].
    """
    wind = meld.tiles[0] in WINDS
    if meld.kind == "peng":
        return 1 if wind else 0
    if meld.kind in ("zhigang", "bugang"):
        return 2 if wind else 1
    if meld.kind == "angang":
        return 3 if wind else 2
    return 0


def concealed_wind_triplets(counts: Any) -> int:
    """Winds held three (or four) times in the concealed hand: 1 花 each [DEC S25].

    「手里如果有三张相同风牌」 — counted on the winning hand, the winning tile included.
    """
    n = 0
    for w in WINDS:  # (a loop: every discard-win check asks it)
        if counts[w] >= 3:
            n += 1
    return n


def win_hua(ctx: WinContext) -> int:
    """The winner's 花: flower tiles set aside + melds + concealed wind triplets; 飘: 0."""
    if "piao" in ctx.flags:
        return 0
    hua = len(ctx.flowers) + concealed_wind_triplets(ctx.concealed)
    for m in ctx.melds:
        hua += meld_hua(m)
    return hua


def tier_of(ctx: WinContext, hua: int, facts: Any) -> tuple[int, str, list[str]]:
    """(tier, pattern id, every 一索 pattern that applies) of a winning hand."""
    self_draw = ctx.is_self_draw
    gangkai = self_draw and (ctx.gang_chain > 0 or "huakai" in ctx.flags)
    yisuo = []
    if gangkai and hua >= 6:
        yisuo.append("gangkai")
    if self_draw and ctx.gang_chain >= 2:
        yisuo.append("shuanggang")  # flower replacements do not count toward 2 [DEC S6]
    if facts.seven_pairs and not ctx.melds:
        yisuo.append("daqidui" if facts.quads_natural else "xiaoqidui")
    held = ctx.kinds_held()
    if T.suit_bits(held) & 0b111 in T.ONE_SUIT_BITS:  # one suit, honors or not [DEC S12]
        yisuo.append("hunyise" if held & _WINDS_MASK else "qingyise")
    if facts.standard:
        if facts.all_triplets and all(m.is_set_of_one_kind for m in ctx.melds):
            yisuo.append("pengpenghu")
        if (
            len(ctx.melds) == 4
            and all(m.kind in ("peng", "zhigang", "bugang") for m in ctx.melds)
            and int(ctx.concealed.sum()) == 2
        ):
            yisuo.append("quanqiuren")  # 全碰 then 单吊: no chi, no 暗杠 [DEC S13]
    if hua == 0:
        yisuo.append("wuhuaguo")  # also every 飘 win [DEC S4, S5]
    if ctx.how == "rob_gang":
        yisuo.append("qiangganghu")
    yisuo += [f for f in ("tianhu", "dihu") if f in ctx.flags]
    yisuo.sort(key=_YISUO_ORDER.__getitem__)
    if yisuo:
        return 4, yisuo[0], yisuo
    if gangkai:  # 1-3 花 杠开 大胡, 4-5 花 大大胡 (0 花 is 无花果 above) [DEC S24]
        return (2 if hua <= 3 else 3), "gangkai", []
    return (1 if hua <= 4 else 2 if hua <= 9 else 3), "pinghu", []  # 5-9 花: 大胡 [DEC S3]


# ---- 花奖 (flower bonus) ---------------------------------------------------------------
def flower_groups(flowers: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Tiles of each of the five 花奖 kinds: 中, 发, 白, 梅兰竹菊, 春夏秋冬."""
    c = Counter(flowers)
    return (
        c[33],
        c[32],
        c[31],
        sum(c[k] > 0 for k in PLANTS),
        sum(c[k] > 0 for k in SEASONS),
    )


@cache
def _max_awards(groups: tuple[int, ...]) -> int:
    best = 0
    for size, need in ((1, 4), (3, 3), (4, 2)):  # ① one kind ×4, ② 3 kinds ×3, ③ 4 kinds ×2
        for combo in combinations(range(len(groups)), size):
            if all(groups[i] >= need for i in combo):
                rest = list(groups)
                for i in combo:
                    rest[i] -= need
                best = max(best, 1 + _max_awards(tuple(sorted(rest))))
    return best


def flower_awards(flowers: tuple[int, ...] | list[int], stack: bool = True) -> int:
    """Number of 花奖: the most disjoint awards (no tile used twice) [DEC S7]; ≤ 1 unstacked."""
    n = _awards_of(tuple(flowers))
    return n if stack else min(n, 1)


@cache
def _awards_of(flowers: tuple[int, ...]) -> int:
    return _max_awards(tuple(sorted(flower_groups(flowers))))


@cache
def _breakdown(pattern: str, tier: int, hua: int, yisuo: tuple[str, ...], awards: int) -> Breakdown:
    """The tier's hit, the 花奖 hit, the formula (made once per distinct win: frozen)."""
    name = NAMES[pattern]
    hits = [Hit(pattern, name, tier, "base")]
    if awards:
        hits.append(Hit("huajiang", NAMES["huajiang"], 2 * awards, "add"))
    points = tier + 2 * awards
    also = f" [{', '.join(YISUO[p] for p in yisuo)}]" if len(yisuo) > 1 else ""
    formula = f"{name} {hua}花 {TIER_NAMES[tier]} {tier}{also}"
    if awards:
        formula += f" + 花奖 {awards}×2"
    return Breakdown(tuple(hits), points=points, fan=0, formula=f"{formula} = {points}")


# ---- the variant ------------------------------------------------------------------------
class Susong(Variant):
    name = "susong"
    title = "宿松麻将"
    Options = SusongOptions
    pass_hu_rule = "same_kind"  # 过手胡: not on the same kind until the next draw [DEC S22]
    pass_peng_rule = True  # 过手碰
    # 「必须过一轮后，才能再接点炮」: only the seat's next draw from the wall ends them [DEC S22]
    pass_locks_end = frozenset({"wall"})
    angang_public = True  # 「暗杠需要翻开一张」 [DEC S17]
    pattern_registry = PATTERNS
    payment_registry = PAY_REASONS
    calculator_flags: ClassVar[frozenset[str]] = FLAGS
    offered_choices = choice_values([*PIAO_CHOICES, *ZENG_CHOICES])
    bet_choices = frozenset({"zeng"})  # 增 (飘花 keeps the flowers: not a bet)

    # ---- data hooks -----------------------------------------------------------------------
    def tile_kinds(self, opts: SusongOptions) -> list[int]:
        return [k for k in range(34) for _ in range(4)] + list(range(T.FIRST_FLOWER, T.N_ALL_KINDS))

    def flower_kinds(self, opts: SusongOptions) -> frozenset[int]:
        return FLOWER_KINDS

    def chi_allowed(self, opts: SusongOptions) -> bool:
        return True

    def no_discard_after_chi(
        self, opts: SusongOptions, chow: tuple[int, ...], tile: int
    ) -> set[int]:
        """「不能吃打同一张牌」: only the chowed tile itself [DEC S18]."""
        return {tile}

    def table_actions(self, opts: SusongOptions, kinds: frozenset[int]) -> list[Action]:
        """飘 with the piaohua option, 增 with chuzeng."""
        return [*(PIAO_CHOICES if opts.piaohua else ()), *(ZENG_CHOICES if opts.chuzeng else ())]

    # ---- the public 花 and 吃三比 in the RL observation (mjcore/rl)
    def meld_hua(self, meld: Meld) -> int:
        return meld_hua(meld)

    def seat_hua(self, st: Any, meld_hua: int) -> int:
        """花 shown for a seat: its flowers set aside and its melds' 花; 0 for a 飘 seat."""
        return 0 if st.choices.get("piao", 0) == 1 else len(st.flowers) + meld_hua

    def seat_relations(self, game: Game) -> list[tuple[int, int]]:
        return sanbi_pairs(game)

    # ---- per-hand choices and flowers -----------------------------------------------------
    def hand_choices(self, game: Game, seat: int) -> list[Action]:
        """飘/不飘 one seat after another from the dealer [DEC S10], then every seat's 增."""
        if game.opts.piaohua:
            undecided = [
                s for s in game.order_from(game.dealer) if "piao" not in game.seats[s].choices
            ]
            if undecided:
                return list(PIAO_CHOICES) if undecided[0] == seat else []
        # [READ] 增 by every seat at once, after 飘: 「游戏开始后可选择出增数」.
        return list(ZENG_CHOICES) if game.opts.chuzeng else []

    def replace_flowers(self, game: Game, seat: int) -> bool:
        return not is_piao(game, seat)

    def flowers_may_be_kept(self, opts: SusongOptions) -> bool:
        """Only a 飘 seat keeps its flowers, and only 飘花 offers 飘."""
        return bool(opts.piaohua)

    # ---- who may do what --------------------------------------------------------------------
    def turns_filtered(self, opts: SusongOptions) -> bool:
        """A turn is only filtered for a 飘 seat, and only 飘花 offers 飘."""
        return bool(opts.piaohua)

    def plain_turns_filtered(self, opts: SusongOptions) -> str:
        """飘 only takes gangs away, and a seat holding a flower is not on a plain turn."""
        return "never"

    def filter_turn(self, game: Game, seat: int, actions: tuple[Action, ...]) -> Sequence[Action]:
        if not is_piao(game, seat):
            return actions
        if game.seats[seat].held_flowers:  # a 飘 seat holding a flower must discard one
            return [a for a in actions if a.kind == "discard" and game.is_flower[a.tile]]
        return [a for a in actions if a.kind != "gang"]  # 飘: 不能杠普通牌, 不能杠风牌

    def plain_claims_filtered(self, opts: SusongOptions) -> bool:
        """Only 飘 takes claims away (with 飘花); a chi that leaves no discard (「不能吃打同一张
        牌」) the engine does not offer (``Rules.chi_bans``)."""
        return bool(opts.piaohua)

    def filter_claims(self, game: Game, seat: int, actions: list[Action]) -> list[Action]:
        """飘: no gang, no peng of a wind (:func:`_filter_claims`)."""
        return _filter_claims(game, seat, actions)

    def can_win(self, game: Game, seat: int, tile: int, how: str) -> bool:
        """Discard-win (and 抢杠胡) eligibility by both seats' 花, RULES.md V3.3 table."""
        if how not in ("discard", "rob_gang"):
            return True  # self-draw is always allowed
        src = game.claim[0]
        # [READ] the discarder's 花 is what lies on the table: 「如果不飘花的玩家后面摸到花补花，
        # 就不能点炮飘花玩家了」 — its concealed tiles are not looked at.
        src_hua = public_hua(game, src)
        if is_piao(game, seat):  # 飘 wins only on a non-飘 无花果 seat's discard [DEC S11]
            return not is_piao(game, src) and src_hua == 0
        # [READ] the winner's 花 is the winning hand's, as scored (无花果 iff 0)
        counts = _core.counts_array(game.seats[seat].hand, tile)
        if public_hua(game, seat) + concealed_wind_triplets(counts) >= 1:
            return True  # 「花牌下地才能接点炮胡」
        return src_hua == 0  # 无花果只能接无花果 (飘 or not) 玩家点炮

    def win_flags(self, game: Game, seat: int, tile: int, how: str) -> set[str]:
        st, flags = game.seats[seat], set()
        if is_piao(game, seat):
            flags.add("piao")
        if how != "self_draw":
            return flags
        if seat == game.dealer and game.draw_how == "deal":
            flags.add("tianhu")  # 「庄家起牌发花后胡牌」 [DEC S15]
        elif (
            seat != game.dealer
            and st.discard_count == 0
            and game.first_go_around
            and game.gangs_on_table == 0
            and game.draw_how in ("wall", "replacement")
        ):
            flags.add("dihu")  # first draw, no chi/peng/gang before it; 补花 allowed [DEC S14]
        if game.draw_how == "replacement" and game.draw_cause == "flower":
            flags.add("huakai")  # 「补花后摸牌…自摸，都算杠上开花」
        return flags

    # ---- scoring ---------------------------------------------------------------------------
    def score(self, ctx: WinContext, opts: SusongOptions) -> Breakdown | None:
        c = ctx.concealed
        if any(c[k] for k in DRAGONS) or not c[ctx.win_tile]:
            return None  # 「胡牌前手中不能有花牌」
        facts = hand_facts(c, ctx.win_tile)
        if not (facts.standard or (facts.seven_pairs and not ctx.melds)):
            return None
        hua = win_hua(ctx)
        tier, pattern, yisuo = tier_of(ctx, hua, facts)
        awards = flower_awards(ctx.flowers, opts.flower_bonus_stack)
        return _breakdown(pattern, tier, hua, tuple(yisuo), awards)

    def check_description(self, ctx: WinContext, opts: Any) -> None:
        """The shared checks (中发白 and 春…菊 only in the flower area), then 宿松's own: 飘,
        the 花开 flag."""
        super().check_description(ctx, opts)
        check_susong_win(ctx)

    # ---- payments --------------------------------------------------------------------------
    def win_payments(self, game: Game, win: Win) -> list[Payment]:
        """Per payer tier + 2×花奖 + 出增分×(增_w + 增_p) [DEC S9], then 吃三比 ①–④ [DEC S16]."""
        w, points = win.seat, win.breakdown.points
        reason = "+".join(win.breakdown.ids)
        unit = game.opts.chuzeng

        def amount(payer: int) -> int:
            return points + unit * (zeng(game, w) + zeng(game, payer))

        if win.how == "self_draw":  # every other seat pays in full [DEC S20]
            out = [Payment(p, w, amount(p), reason) for p in game.others(w)]
            for a, b in sanbi_pairs(game):
                if w in (a, b):  # ③ the partner pays double
                    partner = b if w == a else a
                    out.append(Payment(partner, w, amount(partner), "sanbi"))
            return out
        # [READ] in 抢杠胡 the robbed seat stands in for the discarder of 「A点炮给玩家C」.
        d = win.from_seat
        x = amount(d)
        out = [Payment(d, w, x, reason)]
        for a, b in sanbi_pairs(game):
            pair = (a, b)
            if d in pair and w in pair:  # ② the discarder pays double
                out.append(Payment(d, w, x, "sanbi"))
            elif d in pair:  # ① the discarder's partner pays the same
                out.append(Payment(b if d == a else a, w, x, "sanbi"))
            elif w in pair:  # ④ the winner's partner pays the same
                out.append(Payment(b if w == a else a, w, x, "sanbi"))
        return out

    def next_dealer(self, game: Game) -> int:
        """Winner (一炮多响: the first after the discarder [DEC S23]); 流局: the dealer stays."""
        return game.wins[0].seat if game.wins else game.dealer

    # ---- views, bots, statistics -------------------------------------------------------------
    def public_state(self, game: Game) -> dict[str, Any]:
        return {
            "hua": [public_hua(game, s) for s in range(game.n)],
            "sanbi": [list(p) for p in sanbi_pairs(game)],
        }

    def bot_choice(self, view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
        """Bots play 飘 exactly when they were dealt no flower, and always choose 增 0."""
        if Action("choose", name="piao", value=1) in legal:
            held = view["seats"][view["seat"]].get("held_flowers", "")
            return Action("choose", name="piao", value=0 if held else 1)
        return None

    def hand_counters(self, game: Game) -> dict[str, int]:
        out: Counter = Counter()
        for win in game.wins:
            hits = win.breakdown.hits
            out[f"tier {TIER_NAMES[hits[0].value]}"] += 1
            awards = sum(h.value for h in hits if h.id == "huajiang") // 2
            out[f"huajiang {awards}"] += 1
        out["piao seats"] += sum(is_piao(game, s) for s in range(game.n))
        return dict(out)


# ---- helpers ----------------------------------------------------------------------------
def is_piao(game: Game, seat: int) -> bool:
    """The seat chose 飘 this hand."""
    st = game.seats[seat]
    return st.choices.get("piao", 0) == 1


def zeng(game: Game, seat: int) -> int:
    """The seat's 增 this hand."""
    st = game.seats[seat]
    return st.choices.get("zeng", 0)  # type: ignore[no-any-return]


def public_hua(game: Game, seat: int) -> int:
    """花 visible on the table: flowers set aside and melds (飘: always 0)."""
    if is_piao(game, seat):
        return 0
    st = game.seats[seat]
    return len(st.flowers) + sum(meld_hua(m) for m in st.melds)


def sanbi_pairs(game: Game) -> list[tuple[int, int]]:
    """吃三比 relations {A, B} (A < B): one seat claimed from the other 3 times this hand.

    [READ] counted within the hand: 「玩家吃、碰、杠同一玩家三次，则产生吃三比关系」.
    """
    out = []
    for a, b in combinations(range(game.n), 2):
        if game.seats[a].claimed_from[b] >= 3 or game.seats[b].claimed_from[a] >= 3:
            out.append((a, b))
    return out


def _filter_claims(game: Game, seat: int, actions: list[Action]) -> list[Action]:
    """Susong.filter_claims (a module function: typed when compiled, susong.pxd)."""
    # ([READ] a chi after which 「不能吃打同一张牌」 would leave no discard is not offered: the
    # engine's check of every chi, Rules.chi_bans from no_discard_after_chi)
    if not is_piao(game, seat):
        return actions
    tile = game.claim[1]
    out = []
    for a in actions:
        if a.kind == "gang" or (a.kind == "peng" and tile in WINDS):
            continue  # 飘: 不能碰、杠风牌，不能杠普通牌 [DEC S26]
        out.append(a)
    return out


def check_susong_win(ctx: WinContext) -> None:
    """Calculator input checks beyond the generic ones (飘, situation flags); the generic ones
    keep 中发白 and 春…菊 out of the hand and count the flower area against the tile set."""
    if not ctx.is_self_draw and any(f in ctx.flags for f in _SELF_DRAW_FLAGS):
        raise InvalidHandError("flags: tianhu/dihu/huakai need how=self_draw")
    if "huakai" in ctx.flags and not ctx.flowers:
        raise InvalidHandError("flags: huakai (花开) needs a flower set aside")
    if "piao" in ctx.flags:
        if ctx.flowers:
            raise InvalidHandError("flowers: a 飘 seat sets no flower aside")
        if any(m.is_gang or (m.kind == "peng" and m.tiles[0] in WINDS) for m in ctx.melds):
            raise InvalidHandError("melds: a 飘 seat makes no gang and no wind peng")


VARIANT = Susong()
