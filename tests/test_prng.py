"""mjcore._prng gives numpy's default_rng(seed) draws bit for bit (walls, bot picks, seeds).

The reference is numpy itself: SeedSequence, PCG64 and Generator.permutation/integers.
"""

from __future__ import annotations

import copy as copy_module
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjcore._prng import Pcg64, generate_state
from mjcore.bots.base import BaseBot
from mjcore.bots.random_bot import RandomBot

seeds = st.one_of(
    st.integers(0, 2**32),
    st.integers(0, 2**64),
    st.integers(0, 2**200),
    # 0, and the edges of the one-word, C long long (the fast path) and two-word seeds
    st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64]),
)


@settings(max_examples=300, deadline=None)
@given(seeds, st.lists(st.integers(0, 2**40), max_size=3), st.integers(0, 12))
def test_generate_state_is_seed_sequence(seed, spawn_key, n):
    ref = np.random.SeedSequence(seed, spawn_key=tuple(spawn_key)).generate_state(n)
    assert generate_state(seed, tuple(spawn_key), n) == ref.tolist()


@settings(max_examples=200, deadline=None)
@given(seeds, st.integers(0, 150))
def test_permutation_is_numpy_permutation(seed, size):
    items = list(range(size))
    ref = np.random.default_rng(seed).permutation(np.array(items, dtype=np.int16)).tolist()
    assert Pcg64(seed).permutation(items) == ref
    assert items == list(range(size))  # the input is not shuffled in place


@settings(max_examples=200, deadline=None)
@given(seeds, st.lists(st.integers(0, 255), max_size=150))
def test_permutation_of_bytes_is_the_same_shuffle(seed, items):
    """A wall as bytes (a byte a tile) is shuffled exactly as the list of the same kinds."""
    raw = bytes(items)
    shuffled = Pcg64(seed).permutation(raw)
    assert type(shuffled) is bytes
    by_list = Pcg64(seed)
    assert list(shuffled) == by_list.permutation(items)
    assert raw == bytes(items)
    # the generator continues where the list's shuffle leaves it
    again = Pcg64(seed)
    again.permutation(raw)
    assert [again.integers(1000) for _ in range(5)] == [by_list.integers(1000) for _ in range(5)]


@settings(max_examples=200, deadline=None)
@given(seeds, st.lists(st.one_of(st.integers(1, 40), st.integers(1, 2**32)), max_size=60))
def test_integers_and_handover_follow_numpy(seed, bounds):
    """Draw for draw, mixed with a permutation, and continued by the numpy Generator."""
    fast, ref = Pcg64(seed), np.random.default_rng(seed)
    for n in bounds:
        assert fast.integers(n) == int(ref.integers(n))
    assert fast.permutation(list(range(30))) == ref.permutation(30).tolist()
    handed = fast.to_generator()
    assert handed.integers(10**9, size=5).tolist() == ref.integers(10**9, size=5).tolist()
    assert handed.random() == ref.random()


def test_huge_seeds_fall_back_to_numpy():
    seed = 2**5000 + 17  # more entropy words than the C path holds
    assert (
        generate_state(seed, (3,), 4)
        == np.random.SeedSequence(seed, spawn_key=(3,)).generate_state(4).tolist()
    )
    assert Pcg64(seed).permutation(list(range(20))) == (
        np.random.default_rng(seed).permutation(20).tolist()
    )


@pytest.mark.parametrize("bad", [0, -1, 2**32 + 1])
def test_integers_rejects_bounds_outside_numpys_fast_range(bad):
    with pytest.raises((ValueError, OverflowError)):
        Pcg64(1).integers(bad)


@pytest.mark.parametrize("bad", [-1, -(2**70), 1.5, "7", None])
def test_bad_seeds_raise(bad):
    with pytest.raises((TypeError, ValueError)):
        Pcg64(bad)
    with pytest.raises((TypeError, ValueError)):
        generate_state(bad)


def test_bot_stream_is_default_rng_whatever_the_mix():
    """BaseBot.integers and .rng draw one stream: numpy's default_rng(seed)."""
    bot, ref = RandomBot(123), np.random.default_rng(123)
    assert [bot.integers(7) for _ in range(5)] == [int(ref.integers(7)) for _ in range(5)]
    assert bot.rng.random() == ref.random()  # handed over mid-stream
    assert bot.integers(9) == int(ref.integers(9))
    gen = np.random.default_rng(5)
    assert BaseBot(gen).rng is gen  # a Generator given is used as it is


@given(st.integers(0, 2**64), st.lists(st.integers(1, 2**32), max_size=9))
def test_a_pickled_generator_continues_the_stream(seed, draws):
    """Pickled or copied mid-stream (an odd number of draws leaves half a word buffered), the
    copy draws exactly what the original draws next."""
    g = Pcg64(seed)
    for n in draws:
        g.integers(n)
    for how in (lambda g: pickle.loads(pickle.dumps(g)), copy_module.deepcopy):
        copy = how(g)
        assert copy.numpy_state() == g.numpy_state()
        assert [copy.integers(n) for n in (7, 2**32, 3)] == [g.integers(n) for n in (7, 2**32, 3)]


def test_a_bot_that_has_drawn_pickles():
    """A bot mid-hand (its stream started) is picklable and copyable, and the copy continues
    its stream: a used bot handed to a worker process or deep-copied (SeatBot "instance")."""
    bot = RandomBot(11)
    first = [bot.integers(5) for _ in range(3)]
    ref = np.random.default_rng(11)
    assert first == [int(ref.integers(5)) for _ in range(3)]
    again = pickle.loads(pickle.dumps(bot))
    other = copy_module.deepcopy(bot)
    assert [again.integers(9) for _ in range(4)] == [other.integers(9) for _ in range(4)]
    assert [again.integers(9) for _ in range(4)] == [bot.integers(9) for _ in range(8)][4:]
