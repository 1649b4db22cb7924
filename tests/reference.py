"""Slow, obviously correct reference for the hand core (pure Python, no tables).

Counts are tuples of 34 ints (a joker may make a count exceed 4, so nothing here
assumes <= 4). Definitions follow RULES.md C.2/C.3 and issue 2 literally:

* standard: the lowest held kind is in a pung, a chow or the pair; try all.
* seven pairs: pair the lowest tile with a copy or a joker; jokers pair up.
* orphans / knitted: try every duplicate / every suit permutation.
* shanten: the largest sub-multiset that, topped up with jokers to S tiles,
  is complete in some enabled form.
"""

from __future__ import annotations

import itertools
from functools import cache

N = 34
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNITTED_SETS = tuple(
    frozenset(9 * suit + r for suit in range(3) for r in range(perm[suit], 9, 3))
    | set(range(27, 34))
    for perm in itertools.permutations(range(3))
)


def is258(t: int) -> bool:
    return t < 27 and t % 9 in (1, 4, 7)


def _take(c: tuple[int, ...], kinds: list[int]) -> tuple[int, ...] | None:
    """c minus one of each kind in kinds, or None when a kind is missing."""
    out = list(c)
    for t in kinds:
        if out[t] == 0:
            return None
        out[t] -= 1
    return tuple(out)


@cache
def standard(
    c: tuple[int, ...], k: int, sets: int, pair: bool, pair258: bool, chows: bool = True
) -> bool:
    """c plus k jokers is exactly ``sets`` sets and (if ``pair``) one pair."""
    i = next((t for t in range(N) if c[t]), None)
    if i is None:
        return k == 3 * sets + 2 * pair
    options = []
    if sets:
        options += [([i] * x, 3 - x, 1, 0) for x in (1, 2, 3)]
        if chows and i < 27:
            r = i % 9
            for low in range(max(0, r - 2), min(r, 6) + 1):
                run = [i - r + low + d for d in range(3)]
                for mask in range(8):  # which of the 3 tiles are jokers
                    real = [t for b, t in enumerate(run) if not mask >> b & 1]
                    if i in real:
                        options.append((real, 3 - len(real), 1, 0))
    if pair and (not pair258 or is258(i)):
        options += [([i] * x, 2 - x, 0, 1) for x in (1, 2)]
    for real, jokers, used_sets, used_pair in options:
        rest = _take(c, real)
        if rest is not None and jokers <= k:
            if standard(rest, k - jokers, sets - used_sets, pair and not used_pair, pair258, chows):
                return True
    return False


@cache
def seven_pairs(c: tuple[int, ...], k: int, pairs: int, need258: bool) -> bool:
    i = next((t for t in range(N) if c[t]), None)
    if i is None:
        # jokers pair with each other; such a pair may be any kind (a 2/5/8 too)
        return k == 2 * pairs and (not need258 or pairs > 0)
    if pairs == 0:
        return False
    for real, jokers in (([i, i], 0), ([i], 1)):
        rest = _take(c, real)
        if rest is not None and jokers <= k:
            if seven_pairs(rest, k - jokers, pairs - 1, need258 and not is258(i)):
                return True
    return False


def orphans(c: tuple[int, ...], k: int) -> bool:
    for dup in ORPHANS:
        want = [0] * N
        for t in ORPHANS:
            want[t] = 1
        want[dup] += 1
        if all(c[t] <= want[t] for t in range(N)) and sum(want) - sum(c) == k:
            return True
    return False


def knitted(c: tuple[int, ...], k: int) -> bool:
    if sum(c) + k != 14:
        return False
    return any(all(c[t] <= (t in kinds) for t in range(N)) for kinds in KNITTED_SETS)


def is_win(c, k=0, seven=True, orph=False, knit=False, p258=False) -> bool:
    c = tuple(int(x) for x in c)
    total = sum(c) + k
    assert total % 3 == 2
    if standard(c, k, (total - 2) // 3, True, p258):
        return True
    if total != 14:
        return False
    return (
        (seven and seven_pairs(c, k, 7, p258))
        or (orph and orphans(c, k))
        or (knit and knitted(c, k))
    )


def plus(c, t: int) -> tuple[int, ...]:
    out = list(int(x) for x in c)
    out[t] += 1
    return tuple(out)


def waits(c, k=0, **forms) -> list[int]:
    return [t for t in range(N) if c[t] < 4 and is_win(plus(c, t), k, **forms)]


def is_ready(c, k=0, **forms) -> bool:
    """Some kind completes the hand (a fifth copy too)."""
    return any(is_win(plus(c, t), k, **forms) for t in range(N))


def _sub_multisets(c: tuple[int, ...], drop: int):
    """Every sub-multiset of c with ``drop`` fewer tiles."""
    held = [t for t in range(N) if c[t]]

    def rec(j: int, left: int, cur: list[int]):
        if left == 0:
            yield tuple(cur)
            return
        if j == len(held):
            return
        t = held[j]
        for d in range(min(left, c[t]) + 1):
            cur[t] -= d
            yield from rec(j + 1, left - d, cur)
            cur[t] += d

    yield from rec(0, drop, list(c))


def shanten(c, k=0, seven=True, orph=False, knit=False, p258=False) -> int:
    c = tuple(int(x) for x in c)
    n = sum(c)
    total = n + k
    sets = (total - 1) // 3
    slots = 3 * sets + 2
    forms = dict(
        seven=seven and slots == 14, orph=orph and slots == 14, knit=knit and slots == 14, p258=p258
    )
    for drop in range(n + 1):  # overlap = n - drop
        for d in _sub_multisets(c, drop):
            if is_win(d, slots - (n - drop), **forms):
                return slots - (n - drop) - k - 1
    raise AssertionError("the empty hand always fits")


# ---- scoring facts (RULES.md C.4), straight from the definitions ----------


def win_standard(c, k, p258=False, chows=True) -> bool:
    c = tuple(int(x) for x in c)
    return standard(c, k, (sum(c) + k - 2) // 3, True, p258, chows)


def closed_wait(c, w, k, p258=False) -> bool:
    if w < 0 or w >= 27 or w % 9 in (0, 8):
        return False
    c13 = list(c)
    c13[w] -= 1
    if not c13[w - 1] or not c13[w + 1] or sum(c) + k < 5:
        return False
    c13[w - 1] -= 1
    c13[w + 1] -= 1
    return win_standard(c13, k, p258)


def pure_straight_suits(c, k, p258=False) -> int:
    mask = 0
    for s in range(3):
        rest = list(c)
        used = 0
        for t in range(9 * s, 9 * s + 9):
            if rest[t]:
                rest[t] -= 1
            else:
                used += 1
        if used <= k and sum(rest) + k - used >= 2 and win_standard(rest, k - used, p258):
            mask |= 1 << s
    return mask


def pair_kinds(c, k, p258=False) -> int:
    mask = 0
    c = tuple(int(x) for x in c)
    sets = (sum(c) + k - 2) // 3
    for t in range(N):
        if p258 and not is258(t):
            continue
        for nat in (2, 1, 0):
            if c[t] >= nat and 2 - nat <= k:
                rest = list(c)
                rest[t] -= nat
                if standard(tuple(rest), k - (2 - nat), sets, False, False):
                    mask |= 1 << t
    return mask


# ---- standard decompositions (the former pure-Python enumerator) -----------


def decompositions(c, k=0, p258=False) -> list:
    """Sorted distinct readings, as :func:`mjcore.hand.decompositions` documents.

    The lowest held kind is in some group; every choice is tried and the
    multisets of groups are collected (free all-joker groups at the end).
    """
    from mjcore.hand import Decomposition, Group

    c = tuple(int(x) for x in c)
    total = sum(c) + k
    assert total % 3 == 2

    def groups_with(h, t, jokers, sets, pair):
        if sets:
            for x in range(1, min(h[t], 3) + 1):
                if 3 - x <= jokers:
                    yield Group("pung", t, 3 - x, (t,) * (3 - x)), [t] * x
            if t < 27:
                r = t % 9
                for low in range(max(0, r - 2), min(r, 6) + 1):
                    run = [t - r + low + d for d in range(3)]
                    for mask in range(8):  # which tiles of the chow are jokers
                        wild = tuple(p for b, p in enumerate(run) if mask >> b & 1)
                        real = [p for p in run if p not in wild]
                        if t in real and len(wild) <= jokers and _take(h, real) is not None:
                            yield Group("chow", run[0], len(wild), wild), real
        if pair and (not p258 or is258(t)):
            for x in range(1, min(h[t], 2) + 1):
                if 2 - x <= jokers:
                    yield Group("pair", t, 2 - x, (t,) * (2 - x)), [t] * x

    @cache
    def solve(h, jokers, sets, pair) -> frozenset:
        t = next((i for i in range(N) if h[i]), None)
        if t is None:
            free = [Group("pung", -1, 3)] * sets + ([Group("pair", -1, 2)] if pair else [])
            return frozenset([tuple(free)])
        if not standard(h, jokers, sets, pair, p258):
            return frozenset()
        out = set()
        for group, real in groups_with(h, t, jokers, sets, pair):
            is_pair = group.shape == "pair"
            left = (jokers - group.jokers, sets - (not is_pair), pair and not is_pair)
            rest = solve(_take(h, real), *left)
            out.update(tuple(sorted((group, *r))) for r in rest)
        return frozenset(out)

    found = solve(c, k, (total - 2) // 3, True)
    return sorted(
        Decomposition(tuple(g for g in gs if g.shape != "pair"), gs_pair)
        for gs in found
        for gs_pair in [next(g for g in gs if g.shape == "pair")]
    )
