"""Property tests: the native core against tests/reference.py on many kinds of hands."""

from __future__ import annotations

import numpy as np
import pytest
import reference as ref
from core_hands import any_hand, forms, ref_forms
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import mjcore
from mjcore import _core, hand
from mjcore.errors import InvalidHandError

WIN_SIZES = (2, 5, 8, 11, 14)
WAIT_SIZES = (1, 4, 7, 10, 13)


@settings(max_examples=400, deadline=None)
@given(any_hand(WIN_SIZES), forms)
def test_is_win_matches_reference(h, f):
    c, k = h
    assert mjcore.is_win(c, k, **f) == ref.is_win(c, k, **ref_forms(f))


@settings(max_examples=300, deadline=None)
@given(any_hand(WAIT_SIZES), forms)
def test_waits_and_ready_match_reference(h, f):
    c, k = h
    got = mjcore.waits(c, k, **f)
    assert got == ref.waits(c, k, **ref_forms(f))
    assert mjcore.is_ready(c, k, **f) == ref.is_ready(c, k, **ref_forms(f))
    if got:
        assert mjcore.is_ready(c, k, **f)


@settings(max_examples=300, deadline=None)
@given(any_hand(WAIT_SIZES), forms)
def test_waits_is_win_of_each_added_tile(h, f):
    c, k = h
    expect = []
    for t in range(34):
        if c[t] < 4:
            c2 = c.copy()
            c2[t] += 1
            if mjcore.is_win(c2, k, **f):
                expect.append(t)
    assert mjcore.waits(c, k, **f) == expect


@settings(max_examples=250, deadline=None)
@given(any_hand(), forms)
def test_shanten_matches_reference(h, f):
    c, k = h
    s = mjcore.shanten(c, k, **f)
    assert s == ref.shanten(c, k, **ref_forms(f))
    total = int(c.sum()) + k
    if total % 3 == 2:
        assert (s == -1) == mjcore.is_win(c, k, **f)
    else:
        assert (s == 0) == mjcore.is_ready(c, k, **f)


@settings(max_examples=200, deadline=None)
@given(any_hand(WIN_SIZES), forms)
def test_input_forms_agree(h, f):
    """uint8 array, other int dtypes, lists and tile strings give the same answers."""
    c, k = h
    expect = mjcore.is_win(c, k, **f)
    assert mjcore.is_win(c.astype(np.int64), k, **f) == expect
    assert mjcore.is_win([int(x) for x in c], np.int32(k), **f) == expect
    assert mjcore.is_win(mjcore.tiles.format(c), k, **f) == expect
    assert mjcore.is_win(np.repeat(c, 2)[::2], k, **f) == expect  # non-contiguous


def _valid(dec, c, k):
    tiles = [t for g in (*dec.sets, dec.pair) for t in g.natural]
    assert sorted(tiles) == [t for t in range(34) for _ in range(int(c[t]))]
    assert sum(g.jokers for g in (*dec.sets, dec.pair)) == k
    for g in dec.sets:
        assert g.shape in ("chow", "pung")
        if g.kind >= 0 and g.shape == "chow":
            assert g.kind < 27 and g.kind % 9 <= 6
        assert len(g.wild) == (g.jokers if g.kind >= 0 else 0)
    assert dec.pair.shape == "pair"


@settings(max_examples=200, deadline=None)
@given(any_hand(WIN_SIZES, max_jokers=3), forms)
def test_decompositions_valid_and_complete(h, f):
    c, k = h
    decs = hand.decompositions(c, k, pair258=f["pair258"])
    assert bool(decs) == ref.win_standard(c, k, f["pair258"])
    assert len(set(decs)) == len(decs)
    for d in decs:
        _valid(d, c, k)
        if f["pair258"] and d.pair.kind >= 0:
            assert ref.is258(d.pair.kind)
    pair_mask = 0
    for d in decs:
        if d.pair.kind >= 0:
            pair_mask |= 1 << d.pair.kind
    facts_pairs = hand.hand_facts(c, -1, k, pair258=f["pair258"]).pair_kinds
    if not any(d.pair.kind < 0 for d in decs):  # a free pair may be any kind
        assert pair_mask == facts_pairs


@settings(max_examples=200, deadline=None)
@given(any_hand(WIN_SIZES, max_jokers=4), forms)
def test_decompositions_match_reference_enumerator(h, f):
    c, k = h
    decs = hand.decompositions(c, k, pair258=f["pair258"])
    assert decs == ref.decompositions(c, k, f["pair258"])  # same readings, same order
    if decs:
        jokers = hand.best_decomposition(
            c, k, key=lambda d: sum(g.jokers for g in d.sets), pair258=f["pair258"]
        )
        assert jokers == max(decs, key=lambda d: sum(g.jokers for g in d.sets))
    else:
        assert hand.best_decomposition(c, k, key=len, pair258=f["pair258"]) is None


@settings(max_examples=250, deadline=None)
@given(any_hand(WIN_SIZES), forms)
def test_hand_facts_match_reference(h, f):
    c, k = h
    p258 = f["pair258"]
    held = [t for t in range(34) if c[t]]
    for w in held[:3] + [-1]:
        facts = hand.hand_facts(c, w, k, pair258=p258)
        assert facts.standard == ref.win_standard(c, k, p258)
        total = int(c.sum()) + k
        assert facts.seven_pairs == (
            total == 14 and ref.seven_pairs(tuple(int(x) for x in c), k, 7, p258)
        )
        assert facts.thirteen_orphans == (total == 14 and ref.orphans(tuple(c), k))
        assert facts.knitted == ref.knitted(tuple(c), k)
        assert facts.all_triplets == ref.win_standard(c, k, p258, chows=False)
        assert facts.closed_wait == ref.closed_wait(c, w, k, p258)
        assert facts.pure_straight_suits == ref.pure_straight_suits(c, k, p258)
        assert facts.pair_kinds == ref.pair_kinds(c, k, p258)
        assert facts.quads_natural == int((c == 4).sum())
        assert facts.win_completes_quad == (w >= 0 and c[w] == 4)


@settings(max_examples=300, deadline=None)
@given(any_hand((1, 2, 4, 5, 7, 8, 10, 11, 13, 14), max_jokers=0), forms, st.integers(-1, 33))
def test_hand_waits_bits_splits_the_joker_kind(h, f, jk):
    """The engine's one-call waits: every copy of ``jk`` a joker, nothing unless 3m+1 tiles."""
    c, _ = h
    natural, k = c.copy(), 0
    if jk >= 0:
        natural[jk], k = 0, int(c[jk])
    expect = 0
    if int(c.sum()) % 3 == 1:
        expect = sum(1 << t for t in ref.waits(natural, k, **ref_forms(f)))
    assert _core.hand_waits_bits(bytearray(c.tobytes()), jk, _core.form_flags(**f)) == expect
    assert _core.hand_waits_bits(c, jk, _core.form_flags(**f)) == expect


@settings(max_examples=300, deadline=None)
@given(any_hand((2, 5, 8, 11, 14)), forms)
def test_no_discard_lowers_the_shanten(h, f):
    """A tile more never raises the shanten: after any discard a hand is at least as far from
    ready as before it. (青岛's 扣听 offer asks the shanten of the whole hand first: above 0,
    no discard can leave it ready.)"""
    c, k = h
    bits = _core.form_flags(**f)
    before = _core.shanten_bits(c, k, bits)  # (= the reference's: test_shanten_matches_…)
    for t in np.flatnonzero(c):
        c2 = c.copy()
        c2[t] -= 1
        assert _core.shanten_bits(c2, k, bits) >= before
    if k:  # a joker discarded
        assert _core.shanten_bits(c, k - 1, bits) >= before


@settings(max_examples=200, deadline=None)
@given(any_hand(max_jokers=0), st.integers(0, (1 << 34) - 1))
def test_tiles_in_counts_the_masked_kinds(h, kinds):
    c, _ = h
    expect = sum(int(c[t]) for t in range(34) if kinds >> t & 1)
    assert _core.tiles_in(bytearray(c.tobytes()), kinds) == expect == _core.tiles_in(c, kinds)


@settings(max_examples=200, deadline=None)
@given(any_hand(max_jokers=0), st.integers(-1, 33))
def test_counts_array_is_a_new_copy_with_one_more_tile(h, plus):
    """A hand's copy in one C call (``SeatState.counts_copy``, a claimed winning tile added):
    a new uint8[34] array, equal to the counts with one more ``plus``, from each input form."""
    c, _ = h
    assume(plus < 0 or c[plus] < 4)
    expect = c.astype(np.uint8)
    if plus >= 0:
        expect[plus] += 1
    for form in (c, bytearray(c.tobytes()), bytes(c.tobytes()), c.astype(np.int64)):
        out = _core.counts_array(form, plus)
        assert out.dtype == np.uint8 and out.shape == (34,) and out.flags.writeable
        assert (out == expect).all() and out is not form
        out[0] = 9  # a copy: the input is not changed
        assert form[0] == c[0]


def test_counts_array_refuses_bad_input():
    full = np.zeros(34, np.uint8)
    full[5] = 4
    for counts, plus, match in (
        (full, 5, "fifth"),
        (full, 34, "plus"),
        (full, -2, "plus"),
        (bytearray(33), -1, "34"),
        (bytearray([5] + [0] * 33), -1, "0..4"),
    ):
        with pytest.raises(InvalidHandError, match=match):
            _core.counts_array(counts, plus)


@settings(max_examples=200, deadline=None)
@given(any_hand(max_jokers=0))
def test_held_mask_is_the_kinds_held(h):
    c, _ = h
    expect = sum(1 << t for t in range(34) if c[t])
    assert _core.held_mask(c) == expect == _core.held_mask(bytearray(c.tobytes()))
    with pytest.raises(InvalidHandError, match="34"):
        _core.held_mask(bytearray(35))


def test_address_is_the_object_id():
    """The RL mask's identity table keys objects by ``_core.address`` (a C cast): ``id``."""
    from mjcore.engine.actions import DISCARDS, HU

    for obj in (HU, DISCARDS[5], None, 3, "x", object(), [1], _core):
        assert _core.address(obj) == id(obj)


@given(st.integers(0, 300))
def test_zeros_is_a_new_zeroed_bytearray(n):
    """A seat's new count vectors come from ``_core.zeros`` (a C call): ``bytearray(n)``."""
    a, b = _core.zeros(n), _core.zeros(n)
    assert type(a) is bytearray and a == bytearray(n) and a is not b
    if n:
        a[0] = 1
        assert b[0] == 0


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 40), st.data())
def test_zero_floats_clears_exactly_the_first_n(size, data):
    row = np.arange(1, size + 1, dtype=np.float32)
    n = data.draw(st.integers(0, size))
    _core.zero_floats(row, n)
    assert not row[:n].any() and (row[n:] == np.arange(n + 1, size + 1)).all()
    for bad in (-1, size + 1):
        with pytest.raises(ValueError, match="row's length"):
            _core.zero_floats(row, bad)


def test_zeros_of_a_negative_size_raises():
    with pytest.raises(ValueError, match="size"):
        _core.zeros(-1)


@settings(max_examples=200, deadline=None)
@given(any_hand(max_jokers=0))
def test_held_items_is_one_item_per_kind_held(h):
    """The engine's discard actions of a hand: items[t] for every kind held, in kind order."""
    c, _ = h
    items = tuple(f"item {t}" for t in range(34))
    expect = [items[t] for t in range(34) if c[t]]
    assert _core.held_items(items, bytearray(c.tobytes())) == expect == _core.held_items(items, c)
    got = _core.held_items(items, c)
    assert all(a is items[int(a.split()[1])] for a in got)  # the items themselves, shared
    assert _core.held_tuple(items, bytearray(c.tobytes())) == tuple(expect)  # (one turn's legal)
    assert all(a is b for a, b in zip(_core.held_tuple(items, c), got, strict=True))
    for held in (_core.held_items, _core.held_tuple):
        with pytest.raises(TypeError):
            held(None, c)
        with pytest.raises(InvalidHandError, match="at least 34"):
            held(items[:33], c)


def test_tiles_in_rejects_a_bad_mask():
    for bad in (-1, 1 << 34, 1 << 70, -(1 << 70), 2.0, "1", True, None):
        with pytest.raises(InvalidHandError, match="bitmask"):
            _core.tiles_in(bytearray(34), bad)


@settings(max_examples=200, deadline=None)
@given(any_hand(max_jokers=0), st.integers(0, (1 << 34) - 1))
def test_tiles_in_counts_the_tiles_of_the_masked_kinds(h, kinds):
    c, _ = h
    expect = sum(int(c[t]) for t in range(34) if kinds >> t & 1)
    assert _core.tiles_in(c, kinds) == expect == _core.tiles_in(bytearray(c.tobytes()), kinds)


@settings(max_examples=300, deadline=None)
@given(any_hand((2, 5, 8, 11, 14), max_jokers=0), forms, st.integers(-1, 33))
def test_shanten_of_each_discard_and_draw_is_one_shanten_each(h, f, jk):
    """The bots' loops over discards and draws (one group's rank recomputed per kind, the
    special forms' facts updated) give the shanten a fresh call gives, every form included."""
    c, _ = h
    assume(int(c.sum()) % 3 == 2)  # (a hand that capped a kind at 4 holds fewer tiles)
    bits = _core.form_flags(**f)

    def fresh(counts):  # every copy of jk a joker, as the bots' hands split them
        counts = counts.copy()
        k = 0
        if jk >= 0:
            k, counts[jk] = int(counts[jk]), 0
        return mjcore.shanten(counts, k, **f)

    held = np.flatnonzero(c).tolist()
    shantens, _ = _core.expert_discards(bytearray(c), jk, bits, held)
    expect = []
    for t in held:
        after = c.copy()
        after[t] -= 1
        expect.append(fresh(after))
    assert shantens == expect
    unseen = [4 - int(n) for n in c]
    # (only kinds near the hand are tried: each held kind and its suit's within two ranks)
    near = {u for t in held for u in range(t - 2, t + 3) if u // 9 == t // 9 < 3} | set(held)
    got = _core.expert_ukeire(bytearray(c), jk, bits, unseen, held)
    for t, n in zip(held, got, strict=True):
        after = c.copy()
        after[t] -= 1
        base = fresh(after)
        draws = 0
        for u in near:
            if unseen[u]:
                after[u] += 1
                if fresh(after) < base:
                    draws += unseen[u]
                after[u] -= 1
        assert n == draws
