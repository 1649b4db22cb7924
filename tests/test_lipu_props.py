"""荔浦 calculator against a slow, obviously correct reference (hypothesis).

Random described wins (melds, concealed sets and pair or seven pairs, how, gang situation)
are scored by the variant and by ``reference_value`` below, which reads the document's
table as text and finds patterns by brute force (tests/reference.py), with no code shared
with mjcore/variants/lipu.py.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference import win_standard

from mjcore import tiles as T
from mjcore.variants import get_variant

# 图1 as text (rows: pattern; columns: 点炮 自摸 门清 点杠上花 暗杠上花 暗杠上花+门清 明杠杠上炮
# 暗杠杠上炮 抢杠胡; "-" = blank)
FIGURE = """
平胡 1 1 2 7 3 6 7 9 7
碰碰胡 3 2 4 21 6 12 21 27 21
清一色 3 2 4 21 6 12 21 27 21
大吊车 6 4 - 42 12 - 42 54 42
小吊车 3 2 - 21 6 - 21 27 21
七对 3 2 4 - - - 21 27 21
豪华七对 6 4 8 - - - 42 54 42
超豪华七对 12 8 16 - - - 84 108 84
"""
ROWS = {
    line.split()[0]: [None if v == "-" else int(v) for v in line.split()[1:]]
    for line in FIGURE.strip().splitlines()
}
COLS = [
    "点炮",
    "自摸",
    "门清",
    "点杠上花",
    "暗杠上花",
    "暗杠上花+门清",
    "明杠杠上炮",
    "暗杠杠上炮",
    "抢杠胡",
]


def cell(row: str, col: str) -> int:
    v = ROWS[row][COLS.index(col)]
    if v is None:  # 大吊车 of four 暗杠: the 门清 cell is blank, read the plain column
        v = ROWS[row][COLS.index({"门清": "自摸", "暗杠上花+门清": "暗杠上花"}[col])]
    return v


def reference_value(concealed: list[int], melds: list[tuple[str, int]], win: dict) -> int | None:
    c = tuple(concealed.count(t) for t in range(34))
    tiles = concealed + [t for kind, low in melds for t in _meld_tiles(kind, low)[:3]]
    menqing = all(kind == "angang" for kind, _ in melds)
    how, flag = win["how"], win.get("flag", "")
    if how == "rob_gang":
        col = "抢杠胡"
    elif how == "discard":
        col = ("暗杠杠上炮" if flag == "angang" else "明杠杠上炮") if win.get("after") else "点炮"
    elif win.get("chain"):
        col = "点杠上花" if flag == "zhigang" else ("暗杠上花+门清" if menqing else "暗杠上花")
    else:
        col = "门清" if menqing else "自摸"
    qys = ["清一色"] if all(t < 27 for t in tiles) and len({t // 9 for t in tiles}) == 1 else []
    readings = []
    if win_standard(c, 0):
        rows = []
        if win_standard(c, 0, chows=False) and all(k != "chi" for k, _ in melds):
            rows.append("碰碰胡")
        if len(melds) == 4:
            rows = ["小吊车"] if any(k == "chi" for k, _ in melds) else ["大吊车"]
        readings.append(rows + qys)
    if not melds and all(n % 2 == 0 for n in c):
        quads = sum(n == 4 for n in c)
        readings.append([["七对", "豪华七对", "超豪华七对"][min(quads, 2)]] + qys)
    if not readings:
        return None
    return max(
        max(cell(r, col) for r in rows) * 2 ** (len(rows) - 1) if rows else cell("平胡", col)
        for rows in readings
    )


def _meld_tiles(kind: str, low: int) -> list[int]:
    if kind == "chi":
        return [low, low + 1, low + 2]
    return [low] * (3 if kind == "peng" else 4)


@st.composite
def described_wins(draw):
    suits = draw(st.sampled_from([[0], [1], [2], [0, 1, 2, 3]]))  # often one suit (清一色)
    kinds = [t for t in range(34) if (t // 9 if t < 27 else 3) in suits]
    suited = [t for t in kinds if t < 27 and t % 9 <= 6]
    if draw(st.booleans()) and draw(st.booleans()):  # seven pairs
        pairs = draw(st.lists(st.sampled_from(kinds), min_size=7, max_size=7))
        concealed, melds = [t for t in pairs for _ in range(2)], []
    else:
        n_melds = draw(st.integers(0, 4))
        melds = []
        for _ in range(n_melds):
            kind = draw(st.sampled_from(["chi", "peng", "zhigang", "bugang", "angang"]))
            if kind == "chi" and not suited:
                kind = "peng"
            melds.append((kind, draw(st.sampled_from(suited if kind == "chi" else kinds))))
        concealed = []
        for _ in range(4 - n_melds):
            if suited and draw(st.booleans()):
                low = draw(st.sampled_from(suited))
                concealed += [low, low + 1, low + 2]
            else:
                concealed += [draw(st.sampled_from(kinds))] * 3
        concealed += [draw(st.sampled_from(kinds))] * 2
    all_tiles = concealed + [t for k, low in melds for t in _meld_tiles(k, low)]
    assume(max(Counter(all_tiles).values()) <= 4)
    win_tile = draw(st.sampled_from(sorted(set(concealed))))
    how = draw(st.sampled_from(["discard", "self_draw", "rob_gang"]))
    gangs = [k for k, _ in melds if k in ("zhigang", "bugang", "angang")]
    win = {"how": how}
    if how == "self_draw" and gangs and draw(st.booleans()):
        win.update(chain=1, flag=draw(st.sampled_from(gangs)))
    elif how == "discard" and draw(st.booleans()):
        win.update(after=1, flag=draw(st.sampled_from(["zhigang", "bugang", "angang"])))
    return concealed, melds, win_tile, win


@settings(max_examples=300, deadline=None)
@given(described_wins())
def test_calculator_matches_reference(case):
    concealed, melds, win_tile, win = case
    ctx = {
        "concealed": T.format(concealed),
        "win_tile": T.NOTATION[win_tile],
        "how": win["how"],
        "melds": [f"{k} {T.format(_meld_tiles(k, low))}" for k, low in melds],
        "gang_chain": win.get("chain", 0),
        "after_gang": win.get("after", 0),
        "flags": [f"after_{win['flag']}"] if "flag" in win else [],
    }
    bd = get_variant("lipu").calculate(ctx, {"laogang": True})
    expected = reference_value(concealed, melds, win)
    assert (bd.points if bd else None) == expected, (ctx, bd)


# ---- settlement of whole hands against a reference read off the game record ----------------
HORSE_HITS = set(T.to_kinds("159m159p159s1z7z"))
SELF_DRAW_COLUMNS = {"zimo", "menqing_zimo", "angang_shanghua", "angang_shanghua_menqing"}
GANG_COLUMNS = {
    "diangang_shanghua",
    "angang_shanghua",
    "angang_shanghua_menqing",
    "minggang_gangshangpao",
    "angang_gangshangpao",
}


def reference_scores(game) -> tuple[list[int], set, set]:
    """Net scores, 互包 pairs and sealed seats recomputed from the events and choices alone."""
    n, events = game.n, game.events
    counts, sets, pairs, sealed_at = Counter(), Counter(), set(), {}
    claims = [e for e in events if e["type"] == "claim"]
    for i, e in enumerate(events):
        if e["type"] != "claim":
            continue
        a, b = e["seat"], e["from_seat"]
        counts[a, b] += 1
        sets[a, b] += e["kind"] != "chi"
        if counts[a, b] >= 3:
            pairs.add((min(a, b), max(a, b)))
        if (counts[a, b] >= 4 or sets[a, b] >= 3) and b not in sealed_at:
            sealed_at[b] = i
    net = [0] * n
    zuoma = [game.seats[s].choices.get("zuoma", 0) for s in range(n)]
    factor = 1 + sum(t in HORSE_HITS for t in game.horses)
    hu_at = [i for i, e in enumerate(events) if e["type"] == "hu"]
    gang_at = [i for i, e in enumerate(events) if e["type"] == "gang"]
    for e in (events[i] for i in hu_at):
        w, column, v = e["seat"], e["patterns"][-1]["id"], e["points"]
        partners = [s for s in range(n) if (min(s, w), max(s, w)) in pairs]
        order = [(w + k) % n for k in range(1, n)]
        partners.sort(key=order.index)

        def x(p, w=w, v=v):
            return v * 2 ** (zuoma[w] + zuoma[p]) * factor

        if column in SELF_DRAW_COLUMNS:
            for p in order:
                payer = p if (not partners or p in partners) else partners[0]
                net[payer] -= x(p)
                net[w] += x(p)
            continue
        payer = e["from_seat"]
        if column == "diangang_shanghua":
            payer = [c for c in claims if c["kind"] == "zhigang" and c["seat"] == w][-1][
                "from_seat"
            ]
        for p in [payer, *partners]:
            net[p] -= x(p)
            net[w] += x(p)
    skip = -1
    if hu_at and any(e["patterns"][-1]["id"] in GANG_COLUMNS for e in events if e["type"] == "hu"):
        skip = max(i for i in gang_at if i < hu_at[0])
    for i in gang_at:
        e = events[i]
        s, kind, tile = e["seat"], e["meld"], e["tile"]
        if i == skip or sealed_at.get(s, 10**9) < i:
            continue
        if kind == "angang":
            payers = [p for p in range(n) if p != s]
        else:
            source = "zhigang" if kind == "zhigang" else "peng"
            payers = [
                c["from_seat"]
                for c in claims
                if c["seat"] == s and c["kind"] == source and c["tile"] == tile
            ]
        for p in payers:
            net[p] -= 1
            net[s] += 1
    return net, pairs, set(sealed_at)


def test_whole_hands_settle_as_the_reference():
    import numpy as np

    from mjcore.sim import play_game

    rng = np.random.default_rng(9)
    seen = Counter()
    for i in range(160):
        players = int(rng.integers(2, 5))
        options = {
            "laogang": bool(rng.integers(2)),
            "no_chi_adjacent": bool(rng.integers(2)),
            "zuoma": bool(rng.integers(2)),
            "zhuama": int(rng.choice([0, 2, 4, 6])),
        }
        bots = ["greedy", "random"] * 2
        game, _ = play_game("lipu", i, players, options, bots[:players], seed=5)
        net, pairs, sealed = reference_scores(game)
        assert game.scores == net, (i, options, game.settlement)
        assert set(game.liabilities) == pairs
        assert {s for s in range(players) if game.seats[s].sealed} == sealed
        seen["wins"] += bool(game.wins)
        seen["sanbi"] += bool(pairs)
        seen["sealed"] += bool(sealed)
        seen["horses"] += bool(game.horses)
    assert min(seen.values()) > 5, seen  # the situations were reached
