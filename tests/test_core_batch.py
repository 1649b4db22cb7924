"""Batch functions agree with the single-hand ones and with the reference."""

from __future__ import annotations

import numpy as np
import pytest
import reference as ref
from core_hands import any_hand, forms, ref_forms
from hypothesis import given, settings
from hypothesis import strategies as st

import mjcore
from mjcore import batch


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
