"""The fast paths of issue 13 give exactly what the plain code they replace gave.

Each speed-up is checked against a slow, obviously-correct reference (the code it replaced),
and a golden fingerprint pins the statistics of seeded runs: a change that alters any
seeded outcome (a different random draw, a different bot decision) fails here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import mjcore
from mjcore import tiles as T
from mjcore._core import form_flags
from mjcore.bots.hand import Hand as _Hand
from mjcore.bots.registry import make_bot
from mjcore.engine.actions import DISCARDS, GANGS, HU, PASS, Action
from mjcore.engine.wall import Wall
from mjcore.hand import shanten
from mjcore.sim import play_game
from mjcore.variants.rongcheng import _may_complete

# Fingerprints of simulate(v, games=60, bots=b, seed=5) recorded BEFORE the speed-ups
# (main at dbcd036), timing fields left out: sha256 of the sorted JSON, first 16 hex digits.
GOLDEN = {
    ("xuezhan_kaxinwu", "random"): "d4d233c9b9f343c0",
    ("xuezhan_kaxinwu", "greedy"): "feb5c8a8d2ff415e",
    ("qingdao", "random"): "39097f1793a99237",
    ("qingdao", "greedy"): "0a07224f90076880",
    ("lipu", "random"): "55f450fbf1a22849",
    ("lipu", "greedy"): "188c5ae829d90d25",
    ("susong", "random"): "a3429faa1d052b0b",
    ("susong", "greedy"): "f72d4c5fd724ee9c",
    ("rongcheng", "random"): "6d970f11392e7a97",
    ("rongcheng", "greedy"): "ac24204af210f879",
}
# The expert's, simulate(v, games=12, bots="expert", seed=5), recorded at 7b2c353: before its
# ukeire read a row of draws at once and its danger read the rivers as kind masks.
GOLDEN_EXPERT = {
    ("xuezhan_kaxinwu", "expert"): "ea09f438a151e2ec",
    ("qingdao", "expert"): "2d04311ce863c90a",
    ("lipu", "expert"): "6bd0a6248980cc0f",
    ("susong", "expert"): "a62a39de6c763baa",
    ("rongcheng", "expert"): "b57479c2737a4b3c",
}
_TIMING = {"seconds", "cpu_seconds", "hands_per_second"}


@pytest.mark.parametrize(("variant", "bots"), sorted(GOLDEN) + sorted(GOLDEN_EXPERT))
def test_seeded_statistics_unchanged(variant, bots):
    games = 12 if bots == "expert" else 60
    data = json.loads(
        mjcore.simulate(variant, games=games, bots=bots, seed=5, progress=False).to_json()
    )
    data = {k: v for k, v in data.items() if k not in _TIMING}
    assert data.pop("faults") == {}  # (added with exec: agents; none here)
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
    assert digest == {**GOLDEN, **GOLDEN_EXPERT}[(variant, bots)]


# ---- Action equality: the hand-written __eq__ is the dataclass field comparison -------------
_actions = st.one_of(
    st.sampled_from([*DISCARDS, *GANGS, HU, PASS]),
    st.builds(lambda t: Action("discard", tile=t), st.integers(0, T.N_ALL_KINDS - 1)),
    st.builds(lambda t: Action("gang", tile=t), st.integers(0, T.N_KINDS - 1)),
    st.builds(lambda n: Action("declare", name=n), st.sampled_from(["ting", "kouting"])),
    st.builds(
        lambda n, v: Action("choose", name=n, value=v),
        st.sampled_from(["pao", "piao"]),
        st.integers(0, 2),
    ),
    st.builds(
        lambda lo: Action("chi", tile=lo, tiles=(lo, lo + 1, lo + 2)),
        st.sampled_from([lo for lo in range(27) if lo % 9 <= 6]),
    ),
)


@settings(max_examples=300, deadline=None)
@given(_actions, _actions)
def test_action_equality_is_field_equality(a, b):
    same = dataclasses.astuple(a) == dataclasses.astuple(b)
    assert (a == b) is same and (a != b) is (not same)
    if same:
        assert hash(a) == hash(b)
    assert (a in (b,)) is same


def test_action_compares_unequal_to_other_types_and_stays_frozen():
    assert HU != "hu" and HU != ("hu", -1, (), "", 0) and HU is not None
    assert Action("discard", tile=3) == DISCARDS[3] and Action("discard", tile=3) in set(DISCARDS)
    # read-only: FrozenInstanceError in pure Python, the extension type's AttributeError (its
    # base class) compiled
    with pytest.raises(AttributeError):
        HU.kind = "pass"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        DISCARDS[3].tile = 4  # type: ignore[misc]
    with pytest.raises(ValueError):
        Action("discard", tile=99)


class _Text(str):
    """A str subclass (the compiled modules compare its contents, like any str's)."""


@pytest.mark.parametrize(
    "make",
    [lambda w: "".join(list(w)), lambda w: _Text(w), lambda w: (w + "时")[:-1]],
    ids=["built", "subclass", "wide"],
)
def test_strings_compare_by_content_not_identity(make):
    """The compiled modules test str == str by length, kind and bytes (src/mj_str_equal.h):
    equal texts that are other objects (built at run time, a subclass, a wide string cut back
    to ASCII) are equal, and texts of the same length differ."""
    game = mjcore.get_variant("xuezhan_kaxinwu").new_game(seed=3)
    seat = game.first_to_act()
    tile = game.legal_actions(seat)[0].tile
    kind = make("discard")
    assert kind == "discard" and kind is not DISCARDS[tile].kind  # (another object)
    assert Action(kind, tile=tile) == DISCARDS[tile] and Action(kind, tile=tile) in set(DISCARDS)
    assert Action(make("pass")) == PASS and Action(make("peng")) != PASS  # same length
    game.apply(seat, Action(kind, tile=tile))  # the engine's kind tests see a discard
    assert game.event_log[-1]["type"] in ("discard", "draw")
    assert [e["type"] for e in game.events].count("discard") == 1


# ---- tiles.format: the reference is the per-suit formatting it replaced ---------------------
def _format_reference(kinds: list[int]) -> str:
    digits: dict[str, list[str]] = {"m": [], "p": [], "s": [], "z": [], "f": []}
    for k in sorted(kinds):
        text = T.NOTATION[k]
        digits[text[1]].append(text[0])
    return "".join("".join(d) + suit for suit, d in digits.items() if d)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, T.N_ALL_KINDS - 1), max_size=20))
def test_format_matches_reference(kinds):
    assert T.format(kinds) == _format_reference(kinds)
    assert T.format(tuple(kinds)) == _format_reference(kinds)


@pytest.mark.parametrize("bad", [[True], [1.5], [-1], [T.N_ALL_KINDS], ["x"], [None]])
def test_to_kinds_still_rejects_bad_kinds(bad):
    with pytest.raises(ValueError):
        T.to_kinds(bad)


# ---- Wall.draw_many is repeated draw() ---------------------------------------------------
@given(st.integers(0, 20), st.integers(0, 30))
def test_draw_many_is_repeated_draw(head, k):
    tiles = list(range(40))
    a, b = Wall(list(tiles), head=head), Wall(list(tiles), head=head)
    if head + k > len(tiles):
        with pytest.raises(IndexError):
            a.draw_many(k)
        return
    assert a.draw_many(k) == [b.draw() for _ in range(k)]
    assert a.head == b.head


# ---- greedy bot: batched discard scoring = one shanten_without per discard -----------------
_FLAGS = {"seven_pairs": True, "thirteen_orphans": True, "knitted": True, "pair258": False}


@st.composite
def _hands(draw):
    """A concealed hand of 14 tiles (or 11 after a removal), counts <= 4."""
    size = draw(st.sampled_from([14, 11, 8]))
    kinds = draw(st.lists(st.integers(0, T.N_KINDS - 1), min_size=size, max_size=size))
    counts = np.zeros(T.N_KINDS, dtype=np.uint8)
    for k in kinds:
        if counts[k] < 4:
            counts[k] += 1
    while counts.sum() < size:
        counts[int(np.argmin(counts))] += 1
    return counts


def _split_by(joker):
    def split(c):
        if not c[joker]:
            return c, 0
        natural = c.copy()
        natural[joker] = 0
        return natural, int(c[joker])

    return split


@settings(max_examples=200, deadline=None)
@given(_hands(), st.integers(-1, T.N_KINDS - 1), st.sampled_from(["plain", "kind", "split"]))
def test_shanten_after_discards_matches_one_call_per_discard(counts, joker, mode):
    if mode == "plain" or joker < 0:
        hand = _Hand(counts.copy(), _FLAGS)
    elif mode == "kind":
        hand = _Hand(counts.copy(), _FLAGS, joker_kind=joker)
    else:
        hand = _Hand(counts.copy(), _FLAGS, split=_split_by(joker))
    tiles = np.flatnonzero(counts).tolist()
    fast = hand.shanten_after_discards(tiles)
    assert fast == [hand.shanten_without({t: 1}) for t in tiles]
    assert (hand.counts == counts).all()  # the hand is left as it was
    if mode == "plain":  # and the slow path agrees with the core on the plain hand
        for t, s in zip(tiles, fast, strict=True):
            c = counts.copy()
            c[t] -= 1
            assert s == shanten(c, 0, **_FLAGS)


@settings(max_examples=100, deadline=None)
@given(_hands(), st.integers(0, T.N_KINDS - 1))
def test_best_after_discard_matches_reference(counts, kind):
    """As after a peng: two of ``kind`` leave the hand (14 -> 12 tiles, then a discard)."""
    counts[kind] = max(int(counts[kind]), 2)
    while counts.sum() > 13:  # 13 tiles held, two of them go into the peng, one is discarded
        counts[max((t for t in range(T.N_KINDS) if t != kind), key=lambda t: counts[t])] -= 1
    assume(counts.sum() == 13)
    hand = _Hand(counts.copy(), _FLAGS)
    removed = {kind: 2}
    best = 99
    for t in range(T.N_KINDS):
        if counts[t] > removed.get(t, 0):
            r = dict(removed)
            r[t] = r.get(t, 0) + 1
            best = min(best, hand.shanten_without(r))
    assert hand.best_after_discard(removed) == best


# ---- greedy bot: the native decision helpers = the Python logic they replace ----------------
def _discard_reference(counts, joker, tiles, bao):
    """The greedy turn's discard ranking as plain Python (one shanten / waits call per tile)."""
    from mjcore.bots.hand import connectivity as _connectivity
    from mjcore.hand import waits

    held = counts.tolist()
    for i, t in enumerate(tiles):
        if t >= T.N_KINDS or not held[t]:
            return None, [i]

    def split(c):
        if joker >= 0 and c[joker]:
            natural = c.copy()
            natural[joker] = 0
            return natural, int(c[joker])
        return c, 0

    def after(t):
        c = counts.copy()
        c[t] -= 1
        return split(c)

    shantens = [shanten(*after(t), **_FLAGS) for t in tiles]
    best = min(shantens)
    picks = [i for i, s in enumerate(shantens) if s == best]
    ready_tie = best == 0 and len(picks) > 1
    if ready_tie:
        keys = []
        for i in picks:
            w = waits(*after(tiles[i]), **_FLAGS)
            keys.append(len(w) + (bao in w))
        picks = [i for k, i in zip(keys, picks, strict=True) if k == max(keys)]
    if len(picks) > 1:
        keys = [_connectivity(held, tiles[i]) for i in picks]
        picks = [i for k, i in zip(keys, picks, strict=True) if k == min(keys)]
    return best, picks, ready_tie


@settings(max_examples=300, deadline=None)
@given(
    _hands(),
    st.integers(-1, T.N_KINDS - 1),
    st.integers(-1, T.N_KINDS - 1),
    st.randoms(use_true_random=False),
    st.booleans(),
)
def test_greedy_discard_helpers_match_reference(counts, joker, bao, rnd, flower):
    from mjcore._core import greedy_discard, greedy_ready_discard

    bits = form_flags(**_FLAGS)
    tiles = np.flatnonzero(counts).tolist()
    rnd.shuffle(tiles)
    if flower:  # a held flower (kind >= 34) or a kind not held among the discards
        tiles.insert(
            rnd.randrange(len(tiles) + 1), rnd.choice([34, 40, *np.flatnonzero(counts == 0)])
        )
    ref = _discard_reference(counts, joker, tiles, bao)
    for row in (counts, bytearray(counts), bytes(counts)):
        best, picks = greedy_discard(row, joker, bits, tiles)
        if best is None or not ref[2]:
            assert (best, picks) == ref[:2]
        else:  # a ready tie: the rest of the tie-break needs the 宝
            assert greedy_ready_discard(row, joker, bits, tiles, picks, bao) == ref[1]
    # and the Python path of a variant's own split (the greedy bot's _Hand) ranks the same
    hand = _Hand(counts.copy(), _FLAGS, split=_split_by(joker) if joker >= 0 else lambda c: (c, 0))
    hand.public = lambda: {"bao": T.NOTATION[bao] if bao >= 0 else None}
    best, picks = hand.discard_picks(tiles)
    if best is not None and ref[2]:
        picks = hand.ready_picks(tiles, picks)
    assert (best, picks) == ref[:2]


@settings(max_examples=200, deadline=None)
@given(_hands(), st.integers(-1, T.N_KINDS - 1), st.data())
def test_shanten_removed_matches_reference(counts, joker, data):
    from mjcore._core import shanten_removed

    bits = form_flags(**_FLAGS)
    held = np.flatnonzero(counts).tolist()
    removed: dict[int, int] = {}
    for t in data.draw(st.lists(st.sampled_from(held), max_size=3)):
        if removed.get(t, 0) < counts[t]:
            removed[t] = removed.get(t, 0) + 1
    left = int(counts.sum()) - sum(removed.values())
    plain = _Hand(counts.copy(), _FLAGS, joker_kind=joker)
    split = _Hand(counts.copy(), _FLAGS, split=_split_by(joker) if joker >= 0 else lambda c: (c, 0))
    if left % 3:
        assert shanten_removed(bytearray(counts), joker, bits, removed) == split.shanten_without(
            removed
        )
        assert plain.shanten_without(removed) == split.shanten_without(removed)
    if (left - 1) % 3 and left > 1:
        assert shanten_removed(counts, joker, bits, removed, True) == split.best_after_discard(
            removed
        )
        assert plain.best_after_discard(removed) == split.best_after_discard(removed)
    assert (plain.counts == counts).all() and (split.counts == counts).all()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda f: f["greedy_discard"](bytes(33), -1, 1, [0]), "34 entries"),
        (lambda f: f["greedy_discard"](bytes(34), 34, 1, [0]), "joker_kind"),
        (lambda f: f["greedy_discard"](bytes([5] + [0] * 33), -1, 1, [0]), "count"),
        (lambda f: f["greedy_discard"](bytes(T.counts("123m456p789s1z")), -1, 1, [0]), "tiles"),
        (lambda f: f["greedy_discard"](bytes(T.counts("123m")), -1, 1, [-1]), ">= 0"),
        (lambda f: f["greedy_ready_discard"](bytes(T.counts("123m")), -1, 1, [0], [1]), "index"),
        (lambda f: f["shanten_removed"](bytes(T.counts("123m")), -1, 1, {0: 2}), "remove"),
        (lambda f: f["shanten_removed"](bytes(T.counts("123m")), -1, 1, {}), "tiles"),
    ],
)
def test_greedy_helpers_reject_bad_input(call, message):
    from mjcore import _core

    with pytest.raises(mjcore.InvalidHandError, match=message):
        call(vars(_core))


@pytest.mark.parametrize(
    "call",
    [
        lambda f: f["greedy_discard"](bytes(34), -1, 1, None),
        lambda f: f["greedy_ready_discard"](bytes(34), -1, 1, None, [0]),
        lambda f: f["greedy_ready_discard"](bytes(34), -1, 1, [0], None),
        lambda f: f["shanten_removed"](bytes(34), -1, 1, None),
        lambda f: f["greedy_discard"](bytes(34), -1, 1, (0,)),  # (a list, not a tuple)
    ],
)
def test_greedy_helpers_reject_a_missing_list(call):
    """The engine's C-level helpers (cpdef: the bots call them in C) keep their Python
    contract: a None or a tuple where a list or dict is due is a TypeError, not a crash."""
    from mjcore import _core

    with pytest.raises(TypeError):
        call(vars(_core))


# ---- lazily built bot Generator: same draws as one built up front --------------------------
def test_bot_generator_is_built_on_first_use_with_the_same_stream():
    from mjcore.bots.random_bot import RandomBot

    lazy, eager = RandomBot(123), np.random.default_rng(123)
    assert lazy._rng is None
    assert [int(lazy.rng.integers(9)) for _ in range(20)] == [
        int(eager.integers(9)) for _ in range(20)
    ]
    given_rng = np.random.default_rng(4)
    assert RandomBot(given_rng).rng is given_rng


def test_replay_of_saved_games_is_exact():
    for variant in ("xuezhan_kaxinwu", "qingdao", "rongcheng"):
        for bots in ("random", "greedy"):
            game, _ = play_game(variant, 3, bots=bots, seed=9)
            again = type(game).from_json(game.to_json())
            assert again.to_json() == game.to_json()
            assert again.events == game.events
            assert [again.events_for(s) for s in range(game.n)] == [
                game.events_for(s) for s in range(game.n)
            ]


# ---- the waits a seat had before its draw (Game._receive) -----------------------------------
def _fresh_waits(game, seat: int) -> int:
    """The seat's waits computed afresh (on a copy whose caches are cleared)."""
    fresh = game.copy()
    fresh.seats[seat]._waits = -1
    fresh.seats[seat]._waits_before_draw = -1
    return fresh.seat_waits(seat)


def _fresh_self_draw_test(game, seat: int) -> bool:
    fresh = game.copy()
    fresh.seats[seat]._waits_before_draw = -1
    return fresh._may_self_draw(seat)


@pytest.mark.parametrize("variant", ["xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng"])
def test_waits_known_before_a_draw_are_the_waits_computed_afresh(variant):
    """A seat's waits from before its draw answer the self-draw test of the drawn tile and are
    its waits again once it discards that tile: at every step of seeded hands, the same as
    the core computes afresh, and every cached waits value is the fresh one."""
    asked = restored = 0
    for i in range(10):
        game, _ = play_game(variant, i, bots="greedy", seed=11)
        replay = type(game).from_dict({**game.to_dict(), "history": []})
        for seat, action in game.history:
            st = replay.seats[seat]
            back = (
                replay.phase == "turn"
                and action.kind == "discard"
                and action.tile == replay.drawn
                and st._waits_before_draw >= 0
            )
            replay.apply(seat, action)
            if back:
                restored += 1
                assert st._waits == _fresh_waits(replay, seat) >= 0
            for s, other in enumerate(replay.seats):
                if other._waits >= 0:
                    assert other._waits == _fresh_waits(replay, s)
            turn = replay.current
            if replay.phase == "turn" and replay.drawn >= 0 and replay.draw_how != "claim":
                if replay.seats[turn]._waits_before_draw >= 0:
                    asked += 1
                    expected = _fresh_self_draw_test(replay, turn)
                    assert replay._may_self_draw(turn) == expected
    if variant != "rongcheng":  # (荣成 asks no seat's waits in play: nothing is kept)
        assert asked > 50 and restored > 10, (asked, restored)


def test_rongcheng_drawn_win_check_reads_the_waits_before_the_draw():
    """荣成's exact pre-check of a declared seat's self-draw (_may_complete) reads the engine's
    waits from before the draw when it has them: the same answer as from a fresh count, at
    every such turn of seeded hands, and some of them win."""
    asked = wins = 0
    for i in range(12):
        game, _ = play_game("rongcheng", i, bots="greedy", seed=5)
        replay = type(game).from_dict({**game.to_dict(), "history": []})
        for seat, action in game.history:
            turn, drawn = replay.current, replay.drawn
            if replay.phase == "turn" and drawn >= 0 and replay.waits_before_draw(turn) >= 0:
                asked += 1
                fresh = replay.copy()
                fresh.seats[turn]._waits_before_draw = -1
                expected = _may_complete(fresh, turn, drawn, True)
                assert _may_complete(replay, turn, drawn, True) == expected
                wins += expected
            replay.apply(seat, action)
    assert asked > 20 and wins > 0, (asked, wins)


def _turns(name, options):
    """(variant, game, seat, legal) at every turn of 12 seeded hands, half of them greedy (whose
    hands get ready), half random; the caller's checks run before the bot plays on."""
    from mjcore.bots.greedy import GreedyBot
    from mjcore.bots.random_bot import RandomBot
    from mjcore.variants import get_variant

    variant = get_variant(name)
    for seed in range(12):
        game = variant.new_game(options=options, seed=seed, dealer=seed % 4)
        bot = GreedyBot(seed) if seed % 2 else RandomBot(seed)
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            if game.phase == "turn":
                yield variant, game, seat, legal
            game.apply(seat, bot.act_fast(game, seat, legal))


# ---- 青岛 扣听: readiness of every discard in one pass = _ready_after of each ---------------
@pytest.mark.parametrize("options", [None, {"hun": False}, {"hun": True, "no_honors": True}])
def test_qingdao_ready_discards_match_ready_after(options):
    checked, ready = 0, 0
    for variant, game, seat, legal in _turns("qingdao", options):
        acts = [a for a in legal if a.kind == "discard"]
        slow = {a.tile for a in acts if variant._ready_after(game, seat, a.tile)}
        assert variant._ready_discards(game, seat, acts) == slow
        checked, ready = checked + 1, ready + bool(slow)
    assert checked > 100 and ready > 5


# ---- 荣成 报听: the ready discards (shanten-0 ones asked, unless 风一色/掌一色 are in reach) ----
@pytest.mark.parametrize("options", [None, {"luanzhang": True}, {"no_honors": True}])
def test_rongcheng_ready_discards_match_ready_after(options):
    checked, ready = 0, 0
    for variant, game, seat, legal in _turns("rongcheng", options):
        if game.seats[seat].declared:
            continue
        acts = list(legal)
        slow = [a for a in acts if a.kind == "discard" and variant._ready_after(game, seat, a)]
        assert variant._ready_discards(game, seat, acts, first=False) == slow
        assert variant._ready_discards(game, seat, acts, first=True) == slow[:1]
        checked, ready = checked + 1, ready + bool(slow)
    assert checked > 100 and ready > 5


def test_a_core_hand_is_the_hand_the_constructor_makes():
    from mjcore.bots.hand import Hand, core_hand

    counts = bytearray(T.counts("123m456p789s1122z"))
    for jk in (-1, 27):
        made, built = core_hand(counts, 5, jk), Hand(counts, 5, joker_kind=jk)
        for field in Hand.__slots__:
            assert getattr(made, field) == getattr(built, field), field
        assert made.counts is counts  # (the live hand: only read)
        assert made.shanten_without({}) == built.shanten_without({})


def test_greedy_picks_the_discard_it_scored_when_the_discards_are_not_in_a_run():
    from mjcore.bots.greedy import _nth_discard
    from mjcore.engine.actions import DISCARDS, PASS

    legal = (DISCARDS[3], PASS, DISCARDS[7], DISCARDS[9])
    assert [_nth_discard(legal, -1, i) for i in range(3)] == [legal[0], legal[2], legal[3]]
    run = (PASS, DISCARDS[3], DISCARDS[7])
    assert [_nth_discard(run, 1, i) for i in range(2)] == [run[1], run[2]]
    with pytest.raises(IndexError):
        _nth_discard(legal, -1, 3)


def test_connectivity_matches_reference():
    import random

    from mjcore.bots.hand import connectivity as _connectivity

    def reference(counts, t):
        score = 3 * (int(counts[t]) - 1)
        if t >= 27:
            return score
        r = t % 9
        for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= r + d <= 8:
                score += w * int(counts[t + d])
        return 2 * score + (0 if r in (0, 8) else 1)

    rng = random.Random(0)
    for _ in range(5000):
        counts = [rng.randint(0, 4) for _ in range(T.N_KINDS)]
        t = rng.randrange(T.N_KINDS)
        assert _connectivity(counts, t) == reference(counts, t)


# ---- tiles.format_sorted: the suit-run formatting is the tile-by-tile loop it replaced -------
def _format_reference(kinds):
    out, suit = [], ""
    for k in sorted(kinds):
        s = T.NOTATION[k][1]
        if s != suit:
            if suit:
                out.append(suit)
            suit = s
        out.append(T.NOTATION[k][0])
    return "".join(out + [suit] if suit else out)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, T.N_ALL_KINDS - 1), max_size=30))
def test_format_sorted_is_the_tile_by_tile_notation(kinds):
    assert T.format(kinds) == T.format_sorted(sorted(kinds)) == _format_reference(kinds)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=0, max_size=T.N_KINDS))
def test_format_counts_is_the_notation_of_the_tiles_counted(counts):
    """The deal's hands, read off the seat's count bytes: the same text as the sorted tiles."""
    kinds = [k for k, n in enumerate(counts) for _ in range(n)]
    expect = _format_reference(kinds)
    assert T.format_counts(bytearray(counts)) == T.format_counts(bytes(counts)) == expect


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3, T.N_ALL_KINDS + 3), max_size=20), st.booleans())
def test_kinds_mask_is_the_bits_of_the_kinds(kinds, as_numpy):
    """Bit t for every kind t in 0..33 given (numpy integers too); flowers and anything
    outside the kinds are left out, as the plain loop left them."""
    given_kinds = [np.int64(t) for t in kinds] if as_numpy else kinds
    expect = 0
    for t in kinds:
        if 0 <= t < T.N_KINDS:
            expect |= 1 << t
    assert T.kinds_mask(given_kinds) == expect
    assert T.kinds_mask([33, 32, 31]) == 0b111 << 31


@pytest.mark.parametrize("name", ["xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng"])
def test_a_self_drawn_win_is_paid_as_offered_without_scoring_it_again(name, monkeypatch):
    """The turn's (and a 分张 tile's) 胡 is scored once, when it is offered: taking it asks the
    scorer nothing before the win is recorded, and the win paid has the breakdown a fresh
    evaluation of that moment gives."""
    variant = mjcore.get_variant(name)
    score = type(variant).score
    game = None
    early = []  # score calls made while the taken win is not yet recorded

    def counted(ctx, opts):
        if game is not None and len(game.wins) == wins_before:
            early.append(ctx)
        return score(variant, ctx, opts)

    monkeypatch.setattr(variant, "score", counted)
    taken = 0
    for i in range(60):
        game, wins_before = None, -1
        g = variant.new_game(seed=i)
        bots = [make_bot("greedy", seed=i * 4 + s) for s in range(g.n)]
        while not g.is_over:
            seat = g.first_to_act()
            action = bots[seat].act_fast(g, seat, g.legal_actions(seat))
            if action.kind == "hu" and g.phase in ("turn", "fenzhang"):
                how = "fenzhang" if g.draw_how == "fenzhang" else "self_draw"
                expected = g.copy().evaluate_win(seat, g.drawn, how)
                game, wins_before = g, len(g.wins)
                g.apply(seat, action)
                game = None
                assert not early, early
                assert g.wins[wins_before].breakdown == expected
                taken += 1
            else:
                g.apply(seat, action)
    assert taken >= 5, taken


def _win_contexts(name: str, hands: int) -> list:
    """Every would-be win of every seat at every turn of some seeded greedy hands (the
    offered ones and the refused ones alike: the scorer is asked of each)."""
    variant = mjcore.get_variant(name)
    out = []
    for i in range(hands):
        g = variant.new_game(seed=100 + i, options=_VARIED.get(name, {}) if i % 2 else None)
        bots = [make_bot("greedy", seed=i * 4 + s) for s in range(g.n)]
        while not g.is_over:
            seat = g.first_to_act()
            if g.phase == "turn" and 0 <= g.drawn < T.N_KINDS:
                out.append((g.win_context(seat, g.drawn, "self_draw"), g.opts))
            g.apply(seat, bots[seat].act_fast(g, seat, g.legal_actions(seat)))
    return out


_VARIED = {  # an option set that changes what a win is worth
    "xuezhan_kaxinwu": {"three_suits": True},
    "qingdao": {"pingdu8": True},
    "lipu": {"laogang": True},
    "susong": {"piaohua": True, "flower_bonus_stack": False},
    "rongcheng": {"cunpai_mode": "gangkai"},
}


@pytest.mark.parametrize("name", ["xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng"])
def test_a_score_does_not_depend_on_the_wins_scored_before_it(name):
    """The variants keep each distinct win's Breakdown (and Hits) once made: scoring the same
    wins in the opposite order, every such cache emptied first, gives equal breakdowns (a
    cache key that misses something the value depends on fails here)."""
    import sys

    variant = mjcore.get_variant(name)
    module = sys.modules[type(variant).__module__]
    cached = [f for f in vars(module).values() if callable(getattr(f, "cache_clear", None))]
    assert cached or name == "xuezhan_kaxinwu"
    wins = _win_contexts(name, 40)
    forward = [variant.score(ctx, opts) for ctx, opts in wins]
    assert sum(bd is not None for bd in forward) >= 3
    for f in cached:
        f.cache_clear()
    backward = [variant.score(ctx, opts) for ctx, opts in reversed(wins)]
    assert forward == backward[::-1]


@pytest.mark.parametrize("name", ["xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng"])
def test_a_replayed_bot_plays_every_hand_as_a_fresh_one(name):
    """A chunk of a simulation keeps its replayable bots (random, greedy) from hand to hand,
    reseeded: every hand is the hand that freshly built bots play (same actions, events and
    scores), and the bots kept are the first hand's."""
    from mjcore.sim.play import play_hand
    from mjcore.sim.runner import make_job

    for bots in ("random", "greedy", "greedy,random,random,greedy"):
        job = make_job(name, 10, 4, None, bots, 9, False, False)
        kept: list = [None] * 4
        for i in range(10):
            game, actions, labels = play_hand(job, i, None, kept)
            fresh, fresh_actions, fresh_labels = play_hand(job, i)
            assert (actions, labels, game.scores) == (fresh_actions, fresh_labels, fresh.scores)
            assert game.events == fresh.events
            if i == 0:
                first = [k[1] for k in kept]
        assert all(k[1] is f for k, f in zip(kept, first, strict=True))


def test_only_bots_whose_own_class_says_so_are_replayed():
    """A subclass of a replayable bot is built afresh for every hand unless it declares
    ``replayable`` itself (its own state is its business), and so is every bot a factory of
    the caller's makes (each call is the caller's business); the registered bots are kept."""
    from mjcore.bots.greedy import GreedyBot
    from mjcore.bots.random_bot import RandomBot
    from mjcore.sim.play import play_hand
    from mjcore.sim.runner import make_job

    built: list = []

    class Counting(RandomBot):
        def __init__(self, seed=None):
            super().__init__(seed)
            built.append(self)

    class Replayed(Counting):
        replayable = True

    def factory(seed):
        built.append(seed)
        return GreedyBot(seed)

    job = make_job(
        "xuezhan_kaxinwu", 6, 4, None, [Counting, "random", Replayed, factory], 3, False, False
    )
    built.clear()  # (resolving the bots may build one of each class to check it)
    kept: list = [None] * 4
    seen: list[list] = [[] for _ in range(4)]  # (the bots kept alive: ids stay distinct)
    for i in range(6):
        play_hand(job, i, None, kept)
        for s in range(4):
            seen[s].append(kept[s][1])
    assert [len({id(b) for b in bots}) for bots in seen] == [6, 1, 1, 6]
    assert len(built) == 6 + 1 + 6  # Counting and the factory every hand, Replayed once


# ---- the claim pre-filter (Variant.waits_prefilter / shapeless_win_kinds) and 荣成's 摸宝 -----
def _claim_windows(name, seeds=range(8)):
    """(game, src, tile) at every claimed-or-not discard of seeded greedy hands, every seat's
    win then asked with no pre-filter: the caller checks the engine's."""
    for seed in seeds:
        game, _ = play_game(name, seed, bots="greedy", seed=11)
        replay = type(game).from_dict({**game.to_dict(), "history": []})
        for seat, action in game.history:
            replay.apply(seat, action)
            if action.kind == "discard" and replay.phase in ("claim", "turn"):
                yield replay, seat, action.tile


@pytest.mark.parametrize("name", ["xuezhan_kaxinwu", "lipu", "susong", "qingdao", "rongcheng"])
def test_claim_wins_lie_in_the_prefilter(name):
    """A discard wins for another seat only on a kind the engine asks: its shape waits or the
    variant's shapeless_win_kinds (all kinds when waits_prefilter is off and none are named).
    Asked of every seat at every discard of seeded hands, the win evaluated in full."""
    asked = wins = 0
    for game, src, tile in _claim_windows(name):
        kinds = game._claim_win_kinds
        for s in game._others[src]:
            st = game.seats[s]
            if st.wins or sum(st.hand) % 3 != 1:  # (a seat out of 血战, or mid-claim)
                continue
            asked += 1
            bd = game.evaluate_win(s, tile, "discard")
            if bd is not None:
                wins += 1
                assert kinds < 0 or (game.seat_waits(s) | kinds) >> tile & 1, (s, tile)
    assert asked > 300 and wins > 0, (asked, wins)


def _rongcheng_locked(hand: str):
    """A 荣成 game whose seat 1 holds ``hand``, declared 报听 and locked (discarded since)."""
    from mjcore.variants import get_variant

    game = get_variant("rongcheng").new_game(seed=3)
    st = game.seats[1]
    st.hand[:] = bytes(T.counts(hand))
    st.declared, st.discard_count, st.extra["ting_discards"] = "baoting", 2, 1
    game._hand_changed(1)
    game.first_go_around = False
    return game


def test_rongcheng_shapeless_claim_win_is_offered():
    """风一色 on a discard with no shape wait (a golden case): the honor is asked and won, a
    2/5/8 asked and not won, another kind not asked; with the engine's shapeless kinds
    emptied the win is lost — the pre-filter is what lets it through."""
    game = _rongcheng_locked("1112223334456z")  # (13 honors: no shape waits)
    assert game.seat_waits(1) == 0
    seven = T.kind("7z")
    assert game._claim_options(1, 2, seven, "discard") == [HU]  # (from 对家: no chi asked)
    assert game._claim_options(1, 2, T.kind("1m"), "discard") is None  # (not asked)
    assert game._claim_options(1, 2, T.kind("5m"), "discard") == []  # (asked: 掌一色 is out)
    game._offered_wins.clear()
    game._claim_win_kinds = 0  # (as if 荣成 named no shapeless kinds)
    assert game._claim_options(1, 2, seven, "discard") is None


@pytest.mark.parametrize("bots", ["greedy", "random"])
def test_rongcheng_wildcards_only_on_a_drawn_bao(bots):
    """Variant.jokers_only_drawn (荣成 摸宝): whenever the tile drawn is not the 宝, no seat's
    hand holds a wildcard by the variant's own split, at every step of seeded hands; and the
    hands the bots read then are the core's plain hands."""
    from mjcore.bots.hand import hand_of

    variant, asked = mjcore.get_variant("rongcheng"), 0
    for seed in range(10):
        game, _ = play_game("rongcheng", seed, bots=bots, seed=17)
        replay = type(game).from_dict({**game.to_dict(), "history": []})
        for seat, action in game.history:
            for s in range(replay.n):
                held = replay.seats[s].counts_copy()
                jokers = variant.jokers(replay, s, held)[1]
                if replay._no_drawn_joker():
                    asked += 1
                    assert jokers == 0 and hand_of(replay, s).joker_kind == -1
                    assert hand_of(replay, s).split is None
            replay.apply(seat, action)
    assert replay._drawn_jokers and asked > 1000, asked


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=34, max_size=34), st.integers(0, 26))
def test_chow_held_is_any_chow_of_the_claim_loop(counts, tile):
    """The claim window's pre-check (no list made when no chi can be) says yes exactly when
    one of the chows through ``tile`` that the claim loop walks has both other kinds held."""
    from mjcore.engine.game import _chow_held

    hand = bytearray(counts)
    r = tile % 9
    lows = range(tile - min(r, 2), tile + 1 - max(r - 6, 0))  # (as Game._claim_options walks)
    chows = [[k for k in (low, low + 1, low + 2) if k != tile] for low in lows]
    assert _chow_held(hand, tile) == any(hand[a] and hand[b] for a, b in chows)


def test_random_bot_declares_when_a_declaration_is_offered_last():
    """The random pick looks for declarations only at the end of the list (where the variants
    put them; they carry no tile): with one offered it always declares, otherwise it picks
    uniformly among every action, PASS and discards alike."""
    bot = make_bot("random", seed=3)
    ting = Action("declare", name="ting")
    turn = (DISCARDS[0], DISCARDS[5], ting)
    assert {bot.act_fast(None, 0, turn) for _ in range(50)} == {ting}
    assert {bot.act(None, list(turn)) for _ in range(20)} == {ting}
    claim = (HU, PASS)
    assert {bot.act_fast(None, 0, claim) for _ in range(50)} == {HU, PASS}
    plain = (DISCARDS[0], GANGS[0])
    assert {bot.act_fast(None, 0, plain) for _ in range(50)} == {DISCARDS[0], GANGS[0]}
    with pytest.raises(ValueError, match="no legal action"):
        bot.act_fast(None, 0, ())
