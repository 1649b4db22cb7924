"""The value types a scored win builds (WinContext, Hit, Breakdown, HandFacts) write their
fields in their own ``__init__`` (see mjcore/scoring/context.py): each must stay exactly the
dataclass it declares — the same fields, order and defaults, frozen, equal and hashed by value.
"""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import numpy as np
import pytest

from mjcore import tiles
from mjcore.engine.melds import Meld
from mjcore.hand import HandFacts, hand_facts
from mjcore.scoring.context import Breakdown, Hit, Payment, Win, WinContext

CLASSES = [WinContext, Hit, Breakdown, HandFacts]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_init_takes_exactly_the_fields_with_their_defaults(cls):
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        if f.default is dataclasses.MISSING:
            assert p.default is inspect.Parameter.empty, f.name
        else:
            assert p.default == f.default, f.name


def _sample(cls):
    """Distinct non-default values for every field (positional), then the same by keyword."""
    values = {
        WinContext: (np.arange(34) % 3, 5, "self_draw", (), 1, 2, 3, frozenset({"x"}), 7, (34,)),
        Hit: ("qingyise", "清一色", 2, "base"),
        Breakdown: ((Hit("a", "甲", 1),), 8, 3, "2^3 = 8"),
        HandFacts: (True, False, False, False, True, True, 2, 1, False, 1 << 9, 5),
    }[cls]
    names = [f.name for f in dataclasses.fields(cls)]
    return values, dict(zip(names, values, strict=True))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_each_field_holds_what_was_given_and_stays_frozen(cls):
    values, by_name = _sample(cls)
    a, b = cls(*values), cls(**by_name)
    for name, value in by_name.items():
        assert getattr(a, name) is value and getattr(b, name) is value
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(a, next(iter(by_name)), None)
    with pytest.raises(TypeError):
        cls(*values, None)  # one value too many
    assert repr(a) == repr(b) and repr(a).startswith(f"{cls.__name__}(")
    if cls is not WinContext:  # (its counts are an array: no value equality, no hash)
        assert a == b and hash(a) == hash(b)
        assert pickle.loads(pickle.dumps(a)) == a
        assert dataclasses.replace(a, **{next(iter(by_name)): values[0]}) == a


def test_defaults_are_the_declared_ones():
    ctx = WinContext(np.zeros(34, dtype=np.uint8), 3)
    assert (ctx.how, ctx.melds, ctx.jokers, ctx.flags, ctx.joker_kind) == (
        "discard",
        (),
        0,
        frozenset(),
        -1,
    )
    assert Hit("a", "甲", 1).combine == "add"
    assert Breakdown((), 1) == Breakdown((), 1, 0, "")


def test_hand_facts_builds_its_value_from_the_core():
    c = np.zeros(34, dtype=np.uint8)
    for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 20, 20):
        c[t] += 1
    facts = hand_facts(c, 4)
    assert facts.standard and not facts.seven_pairs and facts.pure_straight_suits == 1
    assert facts == hand_facts(c.copy(), 4)


def test_suits_are_the_suits_of_every_natural_tile():
    rng = np.random.default_rng(7)
    melds = [Meld("peng", (30, 30, 30)), Meld("chi", (12, 13, 14)), Meld("angang", (8,) * 4)]
    for _ in range(300):
        counts = np.zeros(34, dtype=np.uint8)
        for t in rng.choice(34, size=int(rng.integers(1, 8)), replace=False):
            counts[t] = rng.integers(1, 4)
        held = tuple(m for m in melds if rng.random() < 0.4)
        ctx = WinContext(counts, int(np.flatnonzero(counts)[0]), melds=held)
        kinds = ctx.all_kinds()
        suits = {tiles.suit(k) for k in kinds}
        assert ctx.suits() == suits
        assert ctx.kinds_held() == tiles.kinds_mask(kinds)
        assert (
            ctx.suit_bits()
            == tiles.suit_bits(tiles.kinds_mask(kinds))
            == sum(1 << s for s in suits)
        )
        assert ctx.one_suit() == (len(suits) == 1 and 3 not in suits)


def test_suit_bits_are_the_suits_of_the_kinds_in_a_mask():
    rng = np.random.default_rng(8)
    for _ in range(500):
        kinds = rng.choice(34, size=int(rng.integers(0, 12)), replace=False).tolist()
        expect = sum(1 << s for s in {tiles.suit(k) for k in kinds})
        assert tiles.suit_bits(tiles.kinds_mask(kinds)) == expect
    assert tiles.suit_bits(0) == 0
    assert tiles.suit_bits(tiles.ALL_KINDS_MASK) == 0b1111


def test_a_win_copy_is_an_equal_win_with_its_own_payments():
    """``Game.wins`` hands out ``Win.copy()``: every field, the payments in a new list."""
    bd = Breakdown((Hit("a", "甲", 1),), 8, 3, "2^3 = 8")
    win = Win(2, 5, "discard", 1, bd, [Payment(1, 2, 8, "a")])
    copy = win.copy()
    assert copy == win and copy is not win
    assert [getattr(copy, f.name) for f in dataclasses.fields(Win)] == [
        2,
        5,
        "discard",
        1,
        bd,
        [Payment(1, 2, 8, "a")],
    ]
    copy.payments.append(Payment(0, 2, 8, "a"))
    assert len(win.payments) == 1
