"""Generate the lookup tables of the native hand core (stdlib only, deterministic).

Run by CMake at build time::

    python src/gen_tables.py OUTPUT.c

Layout (see ``mj_tables.h``):

* A *group* is one suit (9 ranks, sequences allowed) or the honors (7 kinds, no
  sequences). Its key is the count vector of the group, restricted to counts
  0..4 with a total <= 14 (a hand never holds more than 14 tiles).
* Keys are ranked lexicographically (not base 5): 405,350 suit keys instead of
  5**9 = 1,953,125, which is what keeps the tables under 5 MB. The rank of a key
  is ``A[key of the low ranks] + B[sum of the low ranks][key of the high
  ranks]`` (two lookups; ``A`` packs the low-rank sum in bits 24..31).
* ``ov(p, m)`` (15 values per key, index ``5 * p + m``) is the largest number
  of the group's tiles that fit into *some* shape of ``m`` sets (chows/pungs,
  copies unlimited) plus, for ``p = 1``, one pair of any kind or, for
  ``p = 2``, one pair of a 2/5/8 kind (honors: no such pair, the column equals
  ``p = 0``). This "overlap" gives shanten directly. It is not stored per key:
* a *view* is the 10 values ``ov(0, 0..4), ov(p, 0..4)`` of one pair mode
  (``p = 1`` any pair, ``p = 2`` a 2/5/8 pair). A suit has only 110 distinct
  any-pair views and 247 distinct 2/5/8 views, honors 55 distinct vectors, so
  ``SUIT_VIEW[mode][rank]`` and ``HON_VEC[rank]`` store small ids (uint8), and
  ``PAIR_SS_ANY`` / ``PAIR_SS_258`` (suit x suit) and ``PAIR_SH_ANY`` /
  ``PAIR_SH_258`` (suit x honors) hold the max-plus combination of two views,
  packed as 10 nibbles: ``no[m]`` at nibble ``m``, ``yes[m]`` at ``5 + m``
  (suit x suit) or reversed, ``yes[4 - j]`` at nibble ``j`` and ``no[4 - j]`` at
  ``5 + j`` (suit x honors), so the shanten kernel adds the two words and takes
  the largest nibble. Every combined value is an overlap (<= 3m + 2 <= 14), so
  it fits a nibble and nibble sums never carry.
* ``NEED[rank]`` packs 3 nibbles: the fewest jokers that complete the group into
  sets only (bits 0..3), sets + any pair (4..7), sets + a 2/5/8 pair (8..11);
  15 means "15 or more" (impossible, a hand has at most 14 tiles). Derived
  from ``ov``: ``need = 3 m + 2 [p] - n`` for the smallest ``m`` with
  ``ov(p, m) == n``.
"""

from __future__ import annotations

import hashlib
import itertools
import sys

MAX_TILES = 14
MAX_SETS = 4
NIBBLE_CAP = 15


def _count_tuples(length: int, budget: int, memo: dict[tuple[int, int], int]) -> int:
    """Number of tuples of ``length`` values in 0..4 with a sum <= ``budget``."""
    if budget < 0:
        return 0
    if length == 0:
        return 1
    key = (length, budget)
    if key not in memo:
        memo[key] = sum(_count_tuples(length - 1, budget - v, memo) for v in range(5))
    return memo[key]


def rank_tables(length: int, low: int) -> tuple[list[int], list[int], int]:
    """The ``A`` (low ranks) and ``B`` (high ranks) tables for keys of ``length``.

    ``B`` has one row of ``5 ** (length - low)`` entries per low-rank sum
    ``0 .. 4 * low``; entries for impossible totals are 0 so any input stays in
    bounds.
    """
    memo: dict[tuple[int, int], int] = {}
    high = length - low

    def part(values: tuple[int, ...], start: int, used: int) -> int:
        r = 0
        for i, c in enumerate(values):
            pos = start + i
            for v in range(c):
                r += _count_tuples(length - pos - 1, MAX_TILES - used - v, memo)
            used += c
        return r

    a_table = []
    for key in range(5**low):
        values = tuple((key // 5**i) % 5 for i in range(low))
        total = sum(values)
        partial = part(values, 0, 0) if total <= MAX_TILES else 0
        a_table.append(partial | (total << 24))
    b_table = []
    for used in range(4 * low + 1):
        for key in range(5**high):
            values = tuple((key // 5**i) % 5 for i in range(high))
            ok = used + sum(values) <= MAX_TILES
            b_table.append(part(values, low, used) if ok else 0)
    return a_table, b_table, _count_tuples(length, MAX_TILES, memo)


def overlap_vectors(length: int, chows: bool) -> dict[tuple[int, ...], tuple[int, ...]]:
    """``ov`` (15 values, index ``5 * p + m``) for every key, by dynamic programming.

    The lowest non-empty rank ``i`` is either left out of the shape entirely, or
    one group covers some of its tiles: a pung (up to 3 of them), the chow
    starting at ``min(i, length - 3)`` (one of each rank it spans; starting lower
    can only cover fewer tiles, as the ranks below ``i`` are empty) or the pair.
    Covering as many tiles as the group can is never worse, because the overlap
    only grows with the tiles held. Keys are visited by increasing tile count,
    so every smaller key is already known.
    """
    pair258 = {1, 4, 7} if chows else set()
    keys = [c for c in itertools.product(range(5), repeat=length) if sum(c) <= MAX_TILES]
    keys.sort(key=sum)
    table: dict[tuple[int, ...], tuple[int, ...]] = {}
    zero = (0,) * 15
    for c in keys:
        i = next((r for r, v in enumerate(c) if v), None)
        if i is None:
            table[c] = zero
            continue
        best = list(table[c[:i] + (0,) + c[i + 1 :]])
        options = [(min(c[i], 3), c[:i] + (c[i] - min(c[i], 3),) + c[i + 1 :])]
        if chows:
            s = min(i, length - 3)
            lst = list(c)
            covered = 0
            for r in range(s, s + 3):
                if lst[r]:
                    lst[r] -= 1
                    covered += 1
            options.append((covered, tuple(lst)))
        for covered, rest in options:
            sub = table[rest]
            for p in range(3):
                for m in range(1, MAX_SETS + 1):
                    v = covered + sub[5 * p + m - 1]
                    if v > best[5 * p + m]:
                        best[5 * p + m] = v
        two = min(c[i], 2)
        sub = table[c[:i] + (c[i] - two,) + c[i + 1 :]]
        for p in (1, 2) if i in pair258 else (1,):
            for m in range(MAX_SETS + 1):
                v = two + sub[m]
                if v > best[5 * p + m]:
                    best[5 * p + m] = v
        table[c] = tuple(best)
    return table


def need_nibbles(c: tuple[int, ...], ov: tuple[int, ...]) -> int:
    """Pack need0 / need-any-pair / need-258-pair (see the module docstring)."""
    n = sum(c)
    packed = 0
    for p in range(3):
        need = NIBBLE_CAP
        for m in range(MAX_SETS + 1):
            if ov[5 * p + m] == n:
                need = min(3 * m + (2 if p else 0) - n, NIBBLE_CAP)
                break
        packed |= need << (4 * p)
    return packed


def view(ov: tuple[int, ...], p: int) -> tuple[int, ...]:
    """The 10 overlaps ``ov(0, 0..4) + ov(p, 0..4)`` of one pair mode."""
    return ov[:5] + ov[5 * p : 5 * p + 5]


def combine(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
    """Max-plus combination of two views (sets 0..4 split, at most one pair)."""
    no = [max(x[a] + y[m - a] for a in range(m + 1)) for m in range(5)]
    yes = [
        max(max(x[5 + a] + y[m - a], x[a] + y[5 + m - a]) for a in range(m + 1)) for m in range(5)
    ]
    out = tuple(no + yes)
    assert max(out) <= NIBBLE_CAP
    return out


def pack_nibbles(values: tuple[int, ...] | list[int]) -> int:
    return sum(v << (4 * j) for j, v in enumerate(values))


def reverse_view(v: tuple[int, ...]) -> tuple[int, ...]:
    """``yes[4 - j]`` at j, then ``no[4 - j]`` at 5 + j (see the module docstring)."""
    return tuple(v[9 - j] for j in range(5)) + tuple(v[4 - j] for j in range(5))


def group_tables(length: int, low: int, chows: bool) -> tuple[dict[str, list[int]], list]:
    """Rank and NEED tables of one group, and its overlap vectors in rank order."""
    a_table, b_table, size = rank_tables(length, low)
    vectors = overlap_vectors(length, chows)
    ranked = sorted(vectors)  # lexicographic order == rank order
    assert len(ranked) == size
    tables = {"A": a_table, "B": b_table, "NEED": [need_nibbles(c, vectors[c]) for c in ranked]}
    return tables, [vectors[c] for c in ranked]


def ids_of(values: list) -> tuple[list[int], list]:
    """Small ids of the values (by first appearance) and the distinct values."""
    index: dict = {}
    ids = [index.setdefault(v, len(index)) for v in values]
    return ids, list(index)


def shanten_tables(suit_ov: list, hon_ov: list) -> dict[str, list[int]]:
    """View ids of every key and the pairwise combination tables."""
    hon_ids, hon_vecs = ids_of(hon_ov)
    assert len(hon_vecs) == HON_VECS
    out = {"HON_VEC": hon_ids}
    for mode, (p, count) in {"ANY": (1, SUIT_VIEWS_ANY), "258": (2, SUIT_VIEWS_258)}.items():
        ids, views = ids_of([view(ov, p) for ov in suit_ov])
        assert len(views) == count, (mode, len(views))
        out[f"SUIT_VIEW_{mode}"] = ids
        out[f"PAIR_SS_{mode}"] = [pack_nibbles(combine(x, y)) for x in views for y in views]
        hon = [view(ov, p) for ov in hon_vecs]
        out[f"PAIR_SH_{mode}"] = [
            pack_nibbles(reverse_view(combine(x, y))) for x in views for y in hon
        ]
    return out


def c_type(name: str) -> str:
    """C element type of table ``name`` (``SUIT_A``, ``PAIR_SS_ANY``, ...)."""
    if name.startswith("PAIR_"):
        return "uint64_t"
    return {"A": "uint32_t", "B": "uint32_t", "NEED": "uint16_t"}.get(name.split("_")[1], "uint8_t")


# Distinct views / vectors (mj_tables.h declares the same sizes).
SUIT_VIEWS_ANY = 110
SUIT_VIEWS_258 = 247
HON_VECS = 55


def emit_array(out: list[str], name: str, ctype: str, values: list[int]) -> None:
    out.append(f"const {ctype} {name}[{len(values)}] = {{")
    suffix = "ull" if ctype == "uint64_t" else "u"
    for start in range(0, len(values), 12):
        chunk = values[start : start + 12]
        out.append("  " + ",".join(f"{v}{suffix}" for v in chunk) + ",")
    out.append("};")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: gen_tables.py OUTPUT.c", file=sys.stderr)
        return 2
    out = [
        "/* DO NOT EDIT - generated by src/gen_tables.py (see its docstring). */",
        '#include "mj_tables.h"',
        "",
    ]
    digest = hashlib.sha256()
    sizes = {}
    vectors = {}
    tables = {}
    for prefix, (length, low, chows) in {"SUIT": (9, 5, True), "HON": (7, 4, False)}.items():
        parts, vectors[prefix] = group_tables(length, low, chows)
        tables.update({f"{prefix}_{part}": values for part, values in parts.items()})
    tables.update(shanten_tables(vectors["SUIT"], vectors["HON"]))
    for part, values in tables.items():
        name = f"MJ_{part}"
        emit_array(out, name, c_type(part), values)
        digest.update(name.encode())
        digest.update(",".join(map(str, values)).encode())
        sizes[name] = len(values)
    checksum = digest.hexdigest()[:16]
    out.append(f'const char MJ_TABLES_CHECKSUM[] = "{checksum}";')
    with open(argv[1], "w", encoding="ascii") as fh:
        fh.write("\n".join(out) + "\n")
    print(f"gen_tables: wrote {argv[1]} checksum {checksum} sizes {sizes}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
