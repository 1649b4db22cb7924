"""Hypothesis strategies for hands (shared by the tests/test_core_*.py files)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
ORPHAN_KINDS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
KNITTED = [
    [9 * s + r for s, first in enumerate(perm) for r in range(first, 9, 3)] + list(range(27, 34))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
]


def _fill(draw, kinds: list[int], n: int) -> np.ndarray:
    c = np.zeros(34, dtype=np.uint8)
    pool = [t for t in kinds for _ in range(4)]
    for t in draw(st.permutations(pool))[:n]:
        c[t] += 1
    return c


@st.composite
def random_hand(draw, total: int, max_jokers: int = 4, kinds: list[int] | None = None):
    """(counts, jokers): ``total`` tiles in all, natural tiles uniform over ``kinds``."""
    k = draw(st.integers(0, min(max_jokers, total)))
    styles = ["any", "suit", "honors", "two-suits", "orphans", "knitted", "pairs"]
    style = draw(st.sampled_from(styles)) if kinds is None else "x"
    if style in ("orphans", "knitted"):
        base = ORPHAN_KINDS if style == "orphans" else draw(st.sampled_from(KNITTED))
        extra = draw(st.lists(st.integers(0, 33), max_size=1))
        chosen = draw(st.permutations(sorted(set(base))))[: total - k] + extra
        c = np.zeros(34, dtype=np.uint8)
        for t in chosen[: total - k]:
            c[t] = min(c[t] + 1, 4)
        return c, total - int(c.sum())
    if style == "pairs":
        chosen = draw(st.lists(st.integers(0, 33), min_size=7, max_size=7))
        c = np.zeros(34, dtype=np.uint8)
        for t in (chosen * 2)[: total - k]:
            c[t] = min(c[t] + 1, 4)
        return c, total - int(c.sum())
    if style == "any":
        kinds = list(range(34))
    elif style == "suit":
        s = draw(st.integers(0, 2))
        kinds = list(range(9 * s, 9 * s + 9))
    elif style == "honors":
        kinds = list(range(27, 34)) + draw(st.lists(st.integers(0, 26), max_size=3))
    elif style == "two-suits":
        kinds = list(range(9, 27)) + [27, 31]
    kinds = sorted(set(kinds))
    n = min(total - k, 4 * len(kinds))
    return _fill(draw, kinds, n), total - n


@st.composite
def complete_hand(draw, total: int = 14, max_jokers: int = 4):
    """A standard complete hand (counts may need jokers), some tiles turned into jokers."""
    sets = (total - 2) // 3
    s = draw(st.sampled_from([None, 0, 1, 2]))  # None = any suit
    c = np.zeros(34, dtype=np.int64)
    for _ in range(sets):
        if draw(st.booleans()):
            base = draw(st.integers(0, 6)) + 9 * (s if s is not None else draw(st.integers(0, 2)))
            c[base : base + 3] += 1
        else:
            t = draw(st.integers(0, 33)) if s is None else 9 * s + draw(st.integers(0, 8))
            c[t] += 3
    t = draw(st.integers(0, 33)) if s is None else 9 * s + draw(st.integers(0, 8))
    c[t] += 2
    k = 0
    # jokers: turn some tiles into jokers, and any count above 4 must be jokers
    for t in range(34):
        while c[t] > 4:
            c[t] -= 1
            k += 1
    for _ in range(draw(st.integers(0, max_jokers))):
        held = [t for t in range(34) if c[t]]
        if not held:
            break
        c[draw(st.sampled_from(held))] -= 1
        k += 1
    return c.astype(np.uint8), k


@st.composite
def near_complete(draw, total: int, max_jokers: int = 4):
    """A complete hand of total+1 or total+2 tiles with tiles removed/changed (-> total)."""
    big = total + 1 if total % 3 == 1 else total
    c, k = draw(complete_hand(big if big <= 14 else 14, max_jokers))
    c = c.astype(np.int64)
    # remove tiles (natural or jokers) until the total fits, then maybe swap one
    while c.sum() + k > total:
        held = [t for t in range(34) if c[t]]
        if k and (not held or draw(st.booleans())):
            k -= 1
        else:
            c[draw(st.sampled_from(held))] -= 1
    if draw(st.booleans()) and c.sum():
        held = [t for t in range(34) if c[t]]
        c[draw(st.sampled_from(held))] -= 1
        free = [t for t in range(34) if c[t] < 4]
        c[draw(st.sampled_from(free))] += 1
    return c.astype(np.uint8), k


def any_hand(totals=SIZES, max_jokers: int = 4):
    """Random, one-suit, honor-heavy or near-complete hands with a total in ``totals``."""
    return st.sampled_from(totals).flatmap(
        lambda t: st.one_of(random_hand(t, max_jokers), near_complete(t, max_jokers))
    )


forms = st.fixed_dictionaries(
    {
        "seven_pairs": st.booleans(),
        "thirteen_orphans": st.booleans(),
        "knitted": st.booleans(),
        "pair258": st.booleans(),
    }
)


def ref_forms(f: dict) -> dict:
    return dict(
        seven=f["seven_pairs"], orph=f["thirteen_orphans"], knit=f["knitted"], p258=f["pair258"]
    )
