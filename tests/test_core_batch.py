"""Batch functions agree with the single-hand ones and with the reference."""

from __future__ import annotations

import numpy as np
import pytest
import reference as ref
from core_hands import SIZES, any_hand, forms, ref_forms
from hypothesis import given, settings
from hypothesis import strategies as st

import mjcore
from mjcore import batch
from mjcore.hand import _core


def _stack(hands):
    return np.stack([c for c, _ in hands]), np.array([k for _, k in hands], dtype=np.int64)


@settings(max_examples=60, deadline=None)
@given(st.lists(any_hand((2, 5, 8, 11, 14)), min_size=1, max_size=20), forms)
def test_batch_is_win(hands, f):
    c2, k = _stack(hands)
    got = batch.is_win(c2, k, **f)
    assert got.dtype == np.bool_ and got.shape == (len(hands),)
    assert list(got) == [ref.is_win(c, j, **ref_forms(f)) for c, j in hands]


@settings(max_examples=60, deadline=None)
@given(st.lists(any_hand((1, 4, 7, 10, 13)), min_size=1, max_size=20), forms)
def test_batch_waits_and_ready(hands, f):
    c2, k = _stack(hands)
    masks = batch.waits(c2, k, **f)
    assert masks.dtype == np.uint64
    assert [batch.mask_to_kinds(m) for m in masks] == [
        ref.waits(c, j, **ref_forms(f)) for c, j in hands
    ]
    assert list(batch.is_ready(c2, k, **f)) == [mjcore.is_ready(c, j, **f) for c, j in hands]


@settings(max_examples=60, deadline=None)
@given(st.lists(any_hand(), min_size=1, max_size=20), forms)
def test_batch_shanten(hands, f):
    c2, k = _stack(hands)
    got = batch.shanten(c2, k, **f)
    assert got.dtype == np.int8
    assert list(got) == [mjcore.shanten(c, j, **f) for c, j in hands]


def test_scalar_jokers_and_dtypes():
    c2 = np.stack([mjcore.tiles.counts("1112345678999m")] * 3)
    expect = np.full(3, (1 << 9) - 1, dtype=np.uint64)
    for arr in (c2, c2.astype(np.int32), c2.astype(np.uint16), c2.tolist()):
        assert (batch.waits(arr) == expect).all()
    assert (batch.waits(c2, np.zeros(3, dtype=np.uint8)) == expect).all()
    assert batch.is_win(np.zeros((0, 34), dtype=np.uint8)).shape == (0,)
    assert list(batch.is_win(np.zeros((2, 34), dtype=np.uint8), [2, 5])) == [True, True]


def test_non_contiguous_input():
    c2 = np.stack([mjcore.tiles.counts("123m456m789m11p99p")] * 4)[::2]
    assert list(batch.waits(c2)) == [(1 << 9) | (1 << 17)] * 2


@pytest.mark.parametrize(
    "counts2d, jokers, match",
    [
        (np.zeros(34, dtype=np.uint8), 2, "shape"),
        (np.zeros((2, 33), dtype=np.uint8), 2, "shape"),
        (np.full((1, 34), 5, dtype=np.uint8), 0, "must be 0..4"),
        (np.full((1, 34), 255, dtype=np.uint8), 0, "must be 0..4"),
        (np.full((1, 34), -1, dtype=np.int64), 0, "must be 0..4"),
        (np.zeros((1, 34), dtype=np.float64), 2, "integers"),
        (np.zeros((2, 34), dtype=np.uint8), [2, -1], "row 1: jokers must be >= 0"),
        (np.zeros((2, 34), dtype=np.uint8), [2, 2, 2], "2 ints"),
        (np.zeros((1, 34), dtype=np.uint8), 1.5, "jokers"),
        (np.zeros((1, 34), dtype=np.uint8), 3, "got 0 tiles \\+ 3 jokers"),
        (np.zeros((1, 34), dtype=np.uint8), 2**62, "jokers"),
        (np.ones((1, 34), dtype=np.uint8), 0, "got 34 tiles"),
    ],
)
def test_batch_garbage(counts2d, jokers, match):
    with pytest.raises(mjcore.InvalidHandError, match=match):
        batch.is_win(counts2d, jokers)


# Issue 13: the batch kernel checks every row in the pass that answers it, for any integer
# dtype and layout. These compare with the single-hand functions row by row.

QUESTIONS = {
    # name: (totals that fit the question, the single-hand answer as the batch stores it)
    "is_win": ((2, 5, 8, 11, 14), lambda c, k, f: mjcore.is_win(c, k, **f)),
    "is_ready": ((1, 4, 7, 10, 13), lambda c, k, f: mjcore.is_ready(c, k, **f)),
    "waits": ((1, 4, 7, 10, 13), lambda c, k, f: sum(1 << t for t in mjcore.waits(c, k, **f))),
    "shanten": (SIZES, lambda c, k, f: mjcore.shanten(c, k, **f)),
}
COUNT_DTYPES = ["uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64", ">i2"]
LAYOUTS = ["C", "F", "rows[::2]", "cols[::2]", "rows[::-1]"]
JOKER_KINDS = ["int64", "int64[::2]", "int32", "uint8", "list", "scalar"]


def _layout(c2: np.ndarray, dtype: str, layout: str) -> np.ndarray:
    """The same counts as ``c2`` in ``dtype`` and ``layout`` (a view where the layout is one)."""
    c2 = c2.astype(dtype)
    if layout == "F":
        return np.asfortranarray(c2)
    if layout == "rows[::2]":  # every other row of a taller array
        big = np.full((2 * len(c2), 34), 7, dtype=dtype)
        big[::2] = c2
        return big[::2]
    if layout == "cols[::2]":  # every other column of a wider array (column stride 2 items)
        big = np.full((len(c2), 68), 9, dtype=dtype)
        big[:, ::2] = c2
        return big[:, ::2]
    if layout == "rows[::-1]":  # negative row stride
        return c2[::-1].copy()[::-1]
    return c2


def _jokers_as(k: np.ndarray, kind: str):
    if kind == "scalar":
        return int(k[0])
    if kind == "list":
        return [int(x) for x in k]
    if kind == "int64[::2]":
        big = np.full(2 * len(k), -1, dtype=np.int64)
        big[::2] = k
        return big[::2]
    return k.astype(kind)


@st.composite
def batch_input(draw, totals, scalar: bool):
    """(hands, counts2d, jokers): a batch in any dtype/layout, jokers in any form."""
    kind = "scalar" if scalar else draw(st.sampled_from(JOKER_KINDS[:-1]))
    hands = draw(st.lists(any_hand(totals), min_size=1, max_size=12))
    if scalar:
        k0 = hands[0][1]
        hands = [(c, k) for c, k in hands if k == k0]
    c2, k = _stack(hands)
    layout = draw(st.sampled_from(LAYOUTS))
    return hands, _layout(c2, draw(st.sampled_from(COUNT_DTYPES)), layout), _jokers_as(k, kind)


@pytest.mark.parametrize("name", list(QUESTIONS))
@settings(max_examples=40, deadline=None)
@given(data=st.data(), f=forms, scalar=st.booleans())
def test_batch_equals_single_any_layout(name, data, f, scalar):
    totals, single = QUESTIONS[name]
    hands, c2, jokers = data.draw(batch_input(totals, scalar))
    before = c2.copy()
    got = getattr(batch, name)(c2, jokers, **f)
    assert got.shape == (len(hands),)
    assert [int(x) for x in got] == [int(single(c, k, f)) for c, k in hands]
    assert np.array_equal(c2, before) and c2.dtype == before.dtype  # input left alone


BAD_KINDS = ["count", "jokers", "few tiles", "many tiles"]


@st.composite
def bad_batch(draw, totals):
    """(counts2d, jokers, row, match): valid rows, then one bad row at ``row``, then any rows."""
    hands = draw(st.lists(any_hand(totals), min_size=1, max_size=10))
    c2, k = _stack(hands)
    c2 = c2.astype(np.int64)
    row = draw(st.integers(0, len(hands) - 1))
    bad = draw(st.sampled_from(BAD_KINDS))
    dtype = draw(st.sampled_from(COUNT_DTYPES))
    info = np.iinfo(np.dtype(dtype))
    if bad == "count":
        col = draw(st.integers(0, 33))
        # a value the dtype holds that is not 0..4, including ones that wrap to 0..4 in uint8
        values = (5, 6, 255, 256, 257, 260, 1000, 2**31 + 1, -1, -256, -252)
        values = [v for v in values if info.min <= v <= info.max]
        c2[row, col] = draw(st.sampled_from(values))
        cols = np.flatnonzero((c2[row] < 0) | (c2[row] > 4))
        match = f"row {row}: count of .* \\(index {cols[0]}\\) is {c2[row, cols[0]]}, must be 0..4"
    elif bad == "jokers":
        k[row] = draw(st.integers(-(2**31), -1))  # fits every jokers dtype below
        match = f"row {row}: jokers must be >= 0, got {k[row]}"
    elif bad == "few tiles":
        c2[row], k[row] = 0, 0
        match = f"row {row}: tiles \\+ jokers must be .* got 0 tiles \\+ 0 jokers"
    else:
        c2[row] = 1  # 34 tiles
        match = f"row {row}: tiles \\+ jokers must be .* got 34 tiles"
    # rows after the bad one may be bad too: only the first is named
    if row + 1 < len(hands) and draw(st.booleans()):
        c2[row + 1 :] = 4
    counts = _layout(c2, dtype, draw(st.sampled_from(LAYOUTS)))
    jokers = _jokers_as(k, draw(st.sampled_from(["int64", "int64[::2]", "int32", "list"])))
    return counts, jokers, row, match


@pytest.mark.parametrize("name", list(QUESTIONS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_batch_bad_row_named(name, data):
    counts, jokers, row, match = data.draw(bad_batch(QUESTIONS[name][0]))
    before = counts.copy()
    with pytest.raises(mjcore.InvalidHandError, match=f"^{name}: {match}"):
        getattr(batch, name)(counts, jokers)
    assert np.array_equal(counts, before)


@pytest.mark.parametrize("dtype", ["int16", "uint16", "int32", "uint32", "int64", "uint64"])
@pytest.mark.parametrize("value", [256, 260, 2**16, -256, -252])
def test_wide_counts_never_wrap(dtype, value):
    info = np.iinfo(np.dtype(dtype))
    if not info.min <= value <= info.max:
        pytest.skip("value outside the dtype")
    c2 = np.stack([mjcore.tiles.counts("123m456m789m11p99p")] * 3).astype(dtype)
    c2[2, 5] = value  # == 0..4 modulo 256 (or 2**16): a uint8 cast would hide it
    match = f"^waits: row 2: count of 6m \\(index 5\\) is {value}, must be 0..4"
    with pytest.raises(mjcore.InvalidHandError, match=match):
        batch.waits(c2)


def test_last_row_and_scalar_jokers():
    c2 = np.stack([mjcore.tiles.counts("123m456m789m11p99p")] * 5)
    c2[-1, 33] = 5
    with pytest.raises(mjcore.InvalidHandError, match="^waits: row 4: count of 7z"):
        batch.waits(c2)
    with pytest.raises(mjcore.InvalidHandError, match="^waits: row 0: jokers must be >= 0, got -1"):
        batch.waits(c2[:4], -1)
    with pytest.raises(mjcore.InvalidHandError, match="row 0: .* got 13 tiles \\+ 1000 jokers"):
        batch.waits(c2[:4], np.uint64(2**64 - 1))  # clipped, never wrapped to -1
    with pytest.raises(mjcore.InvalidHandError, match="jokers"):  # a bool is no joker count
        batch.is_win(c2[:4], True)  # (as the single-hand is_win says; issue 21)


@pytest.mark.parametrize(
    "counts, jokers, match",
    [
        (np.zeros((2, 34), dtype=np.float64), 0, "native integers"),
        (np.zeros((2, 34), dtype=np.bool_), 0, "native integers"),
        (np.zeros((2, 34), dtype=">i4"), 0, "native integers"),
        (np.zeros((2, 33), dtype=np.uint8), 0, "shape"),
        (np.zeros((2, 34, 1), dtype=np.uint8), 0, "shape"),
        (np.zeros(34, dtype=np.uint8), 0, "shape"),
        (np.zeros((2, 34), dtype=np.uint8), np.zeros(2, dtype=np.int32), "int64"),
        (np.zeros((2, 34), dtype=np.uint8), np.zeros(2, dtype=np.uint64), "int64"),
        (np.zeros((2, 34), dtype=np.uint8), np.zeros((2, 1), dtype=np.int64), "int64"),
        (np.zeros((2, 34), dtype=np.uint8), np.zeros(3, dtype=np.int64), "2 ints"),
        (np.zeros((2, 34), dtype=np.uint8), np.zeros(0, dtype=np.int64), "2 ints"),
        (np.zeros((2, 34), dtype=np.uint8), 2**63, "jokers"),
        (np.zeros((2, 34), dtype=np.uint8), 1.5, "jokers"),
    ],
)
def test_run_batch_rejects_what_it_cannot_read(counts, jokers, match):
    """The kernel entry point itself refuses any layout it would misread (no crash)."""
    flags = _core.form_flags()
    with pytest.raises(mjcore.InvalidHandError, match=match):
        _core.run_batch("is_win", counts, jokers, flags)


def test_run_batch_misaligned_jokers():
    buf = np.zeros(8 * 3 + 1, dtype=np.uint8)
    jokers = buf[1:].view(np.int64)  # not 8-byte aligned
    assert not jokers.flags.aligned
    with pytest.raises(mjcore.InvalidHandError, match="aligned"):
        _core.run_batch("is_win", np.zeros((3, 34), dtype=np.uint8), jokers, _core.form_flags())
    jokers[:] = 2
    assert list(batch.is_win(np.zeros((3, 34), dtype=np.uint8), jokers)) == [True] * 3
