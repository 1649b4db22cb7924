"""Hand-checked cases: RULES.md C.6, issue 2's classics and the table invariants."""

from __future__ import annotations

import numpy as np
import pytest

import mjcore
from mjcore import _core, hand
from mjcore.tiles import counts, parse


def kinds(text: str) -> list[int]:
    return sorted(set(parse(text)))


# --- RULES.md C.6 ---------------------------------------------------------


def test_c6_double_pair_wait():
    assert mjcore.waits("123m456m789m11p99p") == kinds("19p")
    assert mjcore.shanten("123m456m789m11p99p") == 0


def test_c6_pure_straight():
    h = "123m456m789m111p99p"
    assert mjcore.is_win(h)
    f = hand.hand_facts(h, parse("9p")[0])
    assert f.standard and f.pure_straight_suits == 0b001 and not f.all_triplets


def test_c6_seven_pairs_with_quad():
    h = "1111s22s33s55s66s77s"
    f = hand.hand_facts(h, parse("7s")[0])
    assert f.seven_pairs and f.quads_natural == 1
    # it is also 11s 123s 123s 567s 567s, so the standard form wins as well
    assert f.standard and f.pair_kinds == 1 << parse("1s")[0]
    assert not hand.hand_facts("1111s22s33s55s66s99s", parse("9s")[0]).standard


def test_c6_kaxinwu():
    c13 = "111p234p46p789p99p"
    assert mjcore.waits(c13) == kinds("145p")
    for w, expect in (("5p", True), ("1p", False), ("4p", False)):
        f = hand.hand_facts(c13 + w, parse(w)[0])
        assert f.closed_wait is expect
        assert f.kaxinwu(parse(w)[0]) is expect


def test_c6_open_wait_is_not_closed():
    c13 = "45s123m456p789p11z"
    assert mjcore.waits(c13) == kinds("36s")
    for w in ("3s", "6s"):
        assert not hand.hand_facts(c13 + w, parse(w)[0]).closed_wait


def test_c6_orphans_and_knitted():
    assert mjcore.is_win("19m19p19s1234567z1m", thirteen_orphans=True)
    assert not mjcore.is_win("19m19p19s1234567z1m")
    assert mjcore.is_win("147m258s369p12345z", knitted=True)
    assert not mjcore.is_win("147m258s369p12345z")


def test_c6_joker_completes_honor_pung():
    assert mjcore.is_win("23m456p789p55s11z4m", 1)
    decs = hand.decompositions("23m456p789p55s11z4m", 1)
    readings = {(d.pair.kind, tuple((g.kind, g.wild) for g in d.sets if g.jokers)) for d in decs}
    assert (parse("5s")[0], ((parse("1z")[0], (parse("1z")[0],)),)) in readings


def test_best_decomposition_prefers_the_callers_score():
    # 111m 222m 333m + 44p: three pungs or three chows 123m
    h = "111222333m44p999s"
    shapes = {tuple(g.shape for g in d.sets) for d in hand.decompositions(h)}
    assert ("chow", "chow", "chow", "pung") in shapes and ("pung",) * 4 in shapes
    pungs = hand.best_decomposition(h, key=lambda d: sum(g.shape == "pung" for g in d.sets))
    chows = hand.best_decomposition(h, key=lambda d: sum(g.shape == "chow" for g in d.sets))
    assert pungs is not None and chows is not None
    assert [g.shape for g in pungs.sets] == ["pung"] * 4
    assert [g.shape for g in chows.sets] == ["chow", "chow", "chow", "pung"]
    assert hand.best_decomposition("123m456m789m11p99p1z", key=len) is None
    # a joker hand: the reading whose joker completes the 1z pung (C.6)
    best = hand.best_decomposition(
        "23m456p789p55s11z4m", 1, key=lambda d: any(g.wild == (27,) for g in d.sets)
    )
    assert best is not None and any(g.wild == (27,) for g in best.sets)


def test_decompositions_of_free_joker_groups():
    decs = hand.decompositions("", 2)
    assert decs == [hand.Decomposition((), hand.Group("pair", -1, 2))]
    decs = hand.decompositions("11m", 3)
    assert hand.Decomposition((hand.Group("pung", -1, 3),), hand.Group("pair", 0)) in decs


def test_c6_pair258():
    h = "234m567m789s111p33p"
    assert mjcore.is_win(h) and not mjcore.is_win(h, pair258=True)


# --- classics ---------------------------------------------------------------


def test_nine_gates_waits_on_every_character():
    assert mjcore.waits("1112345678999m") == list(range(9))


def test_thirteen_orphans_thirteen_sided_wait():
    assert mjcore.waits("19m19p19s1234567z", thirteen_orphans=True) == kinds("19m19p19s1234567z")
    assert mjcore.waits("19m19p19s1234567z") == []


def test_honors_never_chow():
    assert not mjcore.is_win("123z11m")
    assert mjcore.is_win("111z11m")


def test_two_jokers_alone_win():
    assert mjcore.is_win("", 2)
    assert mjcore.is_win("", 2, pair258=True)
    assert mjcore.shanten("", 2) == -1


def test_joker_may_be_a_fifth_copy():
    assert mjcore.is_win("1111m", 1)  # 111m + 1m+joker
    assert mjcore.is_ready("1111m")  # only the fifth 1m completes it
    assert mjcore.waits("1111m") == []


def test_single_joker_waits_on_everything():
    assert mjcore.waits("123m456m789m23p99s") == kinds("14p")
    assert mjcore.waits("123m456m789m123p", 1) == list(range(34))


def test_shanten_classic_values():
    assert mjcore.shanten("123m456m789m12p5s9s") == 1
    assert mjcore.shanten("19m19p19s1234567z", thirteen_orphans=True) == 0
    # 8 - 2*sets - partials - pair: no sets, 0 partials, no pair
    assert mjcore.shanten("147m147p147s1234z", seven_pairs=False) == 8
    assert mjcore.shanten("147m147p147s1234z") == 6  # seven pairs: 13 singles -> 7 - 1
    assert mjcore.shanten("147m258p369s1234z", knitted=True) == 0


def test_seven_pairs_shanten_counts_quads_as_two_pairs():
    # 1111m 22m 33m 44m 55m 6m: seven pairs ready (6m)
    assert mjcore.shanten("1111m22334455m6m", seven_pairs=False) == 0  # 111 123 45(36) 45..
    assert mjcore.shanten("1111p33p55p77p99s1z", seven_pairs=True) == 0
    assert mjcore.waits("1111p33p55p77p99s1z") == [parse("1z")[0]]


# --- tables -------------------------------------------------------------------


def test_tables_are_small_and_checksummed():
    assert _core.TABLE_BYTES <= 5 * 1024 * 1024
    assert len(_core.TABLE_CHECKSUM) == 16
    assert _core.ensure_init() == _core.TABLE_BYTES


@pytest.mark.parametrize("text", ["", "11m", "123m11p", "111z222z333z444z55z"])
def test_complete_shapes(text):
    n = len(parse(text))
    if n % 3 == 2:
        assert mjcore.is_win(text)
    assert mjcore.shanten(text, (2 - n) % 3 if n % 3 != 2 else 0) in (-1, 0)


def test_counts_argument_forms():
    c = counts("1112345678999m")
    assert (
        mjcore.waits(c)
        == mjcore.waits(list(c))
        == mjcore.waits("一万一万一万二万三万四万五万六万七万八万九万九万九万")
    )
    assert mjcore.waits(np.asarray(c, dtype=np.int16)) == list(range(9))
