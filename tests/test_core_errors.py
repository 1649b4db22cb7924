"""Garbage input raises InvalidHandError (a ValueError) naming what was wrong."""

from __future__ import annotations

import numpy as np
import pytest

import mjcore
from mjcore import hand

FOURTEEN = mjcore.tiles.counts("123m456m789m111p99p")
THIRTEEN = mjcore.tiles.counts("123m456m789m11p99p")


@pytest.mark.parametrize(
    "counts, jokers, match",
    [
        (np.zeros(33, dtype=np.uint8), 2, "shape"),
        (np.zeros((2, 34), dtype=np.uint8), 2, "shape"),
        ([0] * 35, 2, "shape"),
        (None, 0, "shape|counts"),
        (object(), 0, "shape|counts"),
        (np.full(34, 5, dtype=np.uint8), 0, "must be 0..4"),
        (np.full(34, 255, dtype=np.uint8), 0, "must be 0..4"),
        ([-1] + [0] * 33, 3, "must be 0..4"),
        (np.zeros(34, dtype=np.float32), 2, "integers"),
        (np.array(["a"] * 34), 2, "integers"),
        (np.zeros(34, dtype=np.uint8), -1, "jokers must be >= 0"),
        (np.zeros(34, dtype=np.uint8), 1.0, "jokers must be an integer"),
        (np.zeros(34, dtype=np.uint8), "2", "jokers must be an integer"),
        (np.zeros(34, dtype=np.uint8), 10**30, "jokers"),
        (FOURTEEN, 1, "15 tiles|14 tiles \\+ 1"),
        (THIRTEEN, 0, "13 tiles"),
        ("1111m2222m3333m4444m", 0, "16 tiles"),
    ],
)
def test_is_win_garbage(counts, jokers, match):
    with pytest.raises(mjcore.InvalidHandError, match=match):
        mjcore.is_win(counts, jokers)


@pytest.mark.parametrize("fn", [mjcore.waits, mjcore.is_ready])
def test_waits_need_3m_plus_1(fn):
    with pytest.raises(ValueError, match="3m\\+1"):
        fn(FOURTEEN)
    with pytest.raises(ValueError, match="3m\\+1"):
        fn("", 0)
    with pytest.raises(ValueError, match="3m\\+1"):
        fn("1234567899m", 4)


def test_shanten_totals():
    with pytest.raises(ValueError, match="got 12 tiles"):
        mjcore.shanten("123m456m789m123p")
    with pytest.raises(ValueError, match="got 15 tiles|14 tiles"):
        mjcore.shanten(FOURTEEN, 1)


def test_bad_tile_text():
    with pytest.raises(mjcore.InvalidTileError, match="abc"):
        mjcore.is_win("abc")


def test_five_copies_in_text():
    with pytest.raises(mjcore.InvalidHandError, match="5 times"):
        mjcore.is_win("11111m")


def test_facts_and_decompositions_check_input():
    with pytest.raises(mjcore.InvalidHandError, match="win_tile"):
        hand.hand_facts(FOURTEEN, 20)
    for bad in (34, -2, 10**30, "1m", 1.0, True):
        with pytest.raises(mjcore.InvalidHandError, match="win_tile|integer"):
            hand.hand_facts(FOURTEEN, bad)
    with pytest.raises(mjcore.InvalidHandError):
        hand.hand_facts(THIRTEEN, 0)
    with pytest.raises(mjcore.InvalidHandError):
        hand.decompositions(THIRTEEN)
    assert hand.decompositions(mjcore.tiles.counts("123m456m789m11p99p1z")) == []


def test_input_not_modified():
    c = FOURTEEN.copy()
    mjcore.waits(THIRTEEN)
    hand.hand_facts(c, 0)
    hand.decompositions(c)
    assert (c == FOURTEEN).all()
