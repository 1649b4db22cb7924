"""The expert bot's speed-ups (issue 26) changed none of its decisions.

A golden fingerprint pins every decision of seeded hands with ``expert`` at every seat, in
every variant, with default and main options, for 4, 3 and 2 players: ``act_fast`` drives the
hand and ``act(view)`` is asked too on every third decision. The goldens were recorded from
the expert bot BEFORE the speed-ups (main at bd73ef5), so any change to a decision, a random
draw or a tie-break fails here. Re-recorded once (issue 33) for the ``act(view)`` decisions
under 荣成 luanzhang and 血战 three_suits: a view now carries its options, so the view path
decides under the game's rules instead of the defaults (every ``act_fast`` decision and the
decision counts are unchanged). The native helpers are checked against the plain Python they
replaced.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjcore
from mjcore import tiles as T
from mjcore._core import (
    discard_shanten,
    expert_discards,
    expert_ukeire,
    expert_waits,
    form_flags,
    shanten_bits,
    unseen_counts,
    waits_mask_bits,
)
from mjcore.bots.expert import ExpertBot, Info, _threat
from mjcore.bots.hand import connectivity as _connectivity
from mjcore.variants import get_variant

MAIN_OPTIONS = {
    "xuezhan_kaxinwu": {"three_suits": True, "gang_chain": "compound"},
    "lipu": {"zuoma": True, "laogang": True, "zhuama": 2},
    "susong": {"piaohua": True, "chuzeng": 1},
    "qingdao": {"niupai": True},
    "rongcheng": {"luanzhang": True},
}
"""bench/bench_bots.py's main options of each variant."""
HANDS = {4: 20, 3: 8, 2: 8}
"""Seeded hands per player count."""

# sha256 (first 16 hex digits) of every decision's text, recorded before the speed-ups.
GOLDEN: dict[tuple[str, str, int], str] = {
    ("lipu", "default", 4): "e7f51405013cac95/1354",
    ("lipu", "default", 3): "fe3ea0ea844848bb/520",
    ("lipu", "default", 2): "982d48a5a0997902/382",
    ("lipu", "main", 4): "b36dfa4262a4a533/1464",
    ("lipu", "main", 3): "9c834e82582a42b4/552",
    ("lipu", "main", 2): "44d03cca89d7baec/406",
    ("qingdao", "default", 4): "d8961286a5c40d96/1151",
    ("qingdao", "default", 3): "eaafc3548b571264/384",
    ("qingdao", "default", 2): "01e0e70144dfd3e9/335",
    ("qingdao", "main", 4): "8461cf2351255700/1311",
    ("qingdao", "main", 3): "1a793e0f18ea6de0/432",
    ("qingdao", "main", 2): "28170a5880482ad2/335",
    ("rongcheng", "default", 4): "ff6979f0d16f05b4/1686",
    ("rongcheng", "default", 3): "d06cb275a4e5e46a/636",
    ("rongcheng", "default", 2): "3e4327f9c7076c85/481",
    ("rongcheng", "main", 4): "d268c2772c089510/1448",
    ("rongcheng", "main", 3): "4a868d56f3fed7cc/520",
    ("rongcheng", "main", 2): "4a7f96a9edc3128d/321",
    ("susong", "default", 4): "a092630193ae1b3b/1006",
    ("susong", "default", 3): "0feeee2835fbb261/338",
    ("susong", "default", 2): "c0bc1e1ccfbf0975/331",
    ("susong", "main", 4): "84ff44b804b03375/1256",
    ("susong", "main", 3): "1c3b8d20305b1d50/402",
    ("susong", "main", 2): "b120905044e31eaf/373",
    ("xuezhan_kaxinwu", "default", 4): "aa8488efad6591af/807",
    ("xuezhan_kaxinwu", "default", 3): "cd79141a89a783d7/422",
    ("xuezhan_kaxinwu", "default", 2): "0c2a354799f642b9/480",
    ("xuezhan_kaxinwu", "main", 4): "6b498755ba1408f1/1827",
    ("xuezhan_kaxinwu", "main", 3): "433338924292f389/793",
    ("xuezhan_kaxinwu", "main", 2): "a7e6c70fe41f0797/849",
}
# simulate(variant, games=12, bots="expert", seed=7) statistics, timing fields left out.
GOLDEN_SIM: dict[str, str] = {
    "lipu": "4a3cea295d638fa0",
    "qingdao": "3329a114f4e145f4",
    "rongcheng": "262b74fd96719f1e",
    "susong": "4367e8701f52b7be",
    "xuezhan_kaxinwu": "dca026102453ecda",
}
_TIMING = {"seconds", "cpu_seconds", "hands_per_second"}


def _play(variant: str, options: dict | None, players: int, seed: int) -> list[str]:
    """Every decision of one seeded hand: ``act_fast`` at each seat, ``act(view)`` of a
    second bot on every third decision (its own seed stream)."""
    game = get_variant(variant).new_game(
        players=players, options=options, seed=seed, dealer=seed % players
    )
    fast = [ExpertBot(seed * 10 + s) for s in range(players)]
    viewing = [ExpertBot(seed * 10 + s + 5) for s in range(players)]
    log = []
    for step in range(10_000):
        if game.is_over:
            break
        seat = game.current if game.phase == "turn" else game.to_act()[0]
        legal = game.legal_actions(seat)
        action = fast[seat].act_fast(game, seat, legal)
        log.append(f"{seat}:{action!r}")
        if len(legal) > 1 and step % 3 == 0:
            log.append(f"v{viewing[seat].act(game.view(seat), legal)!r}")
        game.apply(seat, action)
    return log


def fingerprint(variant: str, options: dict | None, players: int) -> str:
    """sha256 of the decisions of :data:`HANDS` seeded hands, and their number."""
    digest = hashlib.sha256()
    count = 0
    for seed in range(HANDS[players]):
        log = _play(variant, options, players, seed)
        count += len(log)
        digest.update("\n".join(log).encode() + b"\n#\n")
    return f"{digest.hexdigest()[:16]}/{count}"


def sim_fingerprint(variant: str) -> str:
    """sha256 of simulate()'s statistics with expert at every seat."""
    stats = mjcore.simulate(variant, games=12, bots="expert", seed=7, progress=False)
    data = {k: v for k, v in json.loads(stats.to_json()).items() if k not in _TIMING}
    assert data.pop("faults") == {}  # (added with exec: agents; none here)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


_CASES = [
    (variant, label, players)
    for variant in sorted(MAIN_OPTIONS)
    for label in ("default", "main")
    for players in (4, 3, 2)
]


@pytest.mark.parametrize(("variant", "label", "players"), _CASES)
def test_expert_decisions_unchanged(variant, label, players):
    options = MAIN_OPTIONS[variant] if label == "main" else None
    assert fingerprint(variant, options, players) == GOLDEN[(variant, label, players)]


@pytest.mark.parametrize("variant", sorted(MAIN_OPTIONS))
def test_expert_simulate_unchanged(variant):
    assert sim_fingerprint(variant) == GOLDEN_SIM[variant]


# ---- the native helpers = the plain Python they replaced ------------------------------------
def _ukeire_reference(counts, jk, bits, unseen, t):
    """The expert bot's former _ukeire: one shanten_bits call per near kind."""
    near = sorted(
        {
            u
            for k in range(T.N_KINDS)
            if counts[k]
            for u in ((k,) if k >= 27 else (k + d for d in range(-2, 3) if 0 <= k % 9 + d <= 8))
        }
    )
    buf = bytearray(counts)
    buf[t] -= 1
    jokers = 0
    if jk >= 0:
        jokers, buf[jk] = buf[jk], 0
    base = shanten_bits(buf, jokers, bits)
    total = 0
    for k in near:
        if not unseen[k]:
            continue
        if k == jk:
            total += unseen[k] if shanten_bits(buf, jokers + 1, bits) < base else 0
            continue
        buf[k] += 1
        total += unseen[k] if shanten_bits(buf, jokers, bits) < base else 0
        buf[k] -= 1
    return total


def _waits_reference(counts, jk, bits, t):
    c = np.array(counts, dtype=np.uint8)
    c[t] -= 1
    jokers = 0
    if jk >= 0 and c[jk]:
        jokers, c[jk] = int(c[jk]), 0
    return int(waits_mask_bits(c, jokers, bits))


@st.composite
def _hands(draw):
    """A concealed hand of 14, 11 or 8 tiles (counts <= 4) and 34 unseen counts."""
    size = draw(st.sampled_from([14, 11, 8]))
    kinds = draw(st.lists(st.integers(0, T.N_KINDS - 1), min_size=size, max_size=size))
    counts = [0] * T.N_KINDS
    for k in kinds:
        if counts[k] < 4:
            counts[k] += 1
    while sum(counts) < size:
        counts[counts.index(min(counts))] += 1
    unseen = draw(st.lists(st.integers(0, 4), min_size=T.N_KINDS, max_size=T.N_KINDS))
    return counts, [min(u, 4 - c) for u, c in zip(unseen, counts, strict=True)]


_FORMS = [
    form_flags(),
    form_flags(seven_pairs=False),
    form_flags(thirteen_orphans=True, knitted=True),
    form_flags(pair258=True),
]


@settings(max_examples=150, deadline=None)
@given(_hands(), st.integers(-1, T.N_KINDS - 1), st.sampled_from(_FORMS))
def test_expert_helpers_match_reference(hand, jk, bits):
    counts, unseen = hand
    held = [t for t in range(T.N_KINDS) if counts[t]]
    got = expert_ukeire(bytearray(counts), jk, bits, unseen, held)
    assert got == [_ukeire_reference(counts, jk, bits, unseen, t) for t in held]
    masks, lives = expert_waits(bytearray(counts), jk, bits, unseen, held)
    for t, mask, live in zip(held, masks, lives, strict=True):
        assert mask == _waits_reference(counts, jk, bits, t)
        assert live == sum(unseen[w] for w in range(T.N_KINDS) if mask >> w & 1)
    shantens, conns = expert_discards(bytearray(counts), jk, bits, held + held[:1])
    table = discard_shanten(bytearray(counts), jk, bits)
    assert shantens == [table[t] for t in held + held[:1]]
    assert conns == [_connectivity(counts, t) for t in held + held[:1]]


@settings(max_examples=100, deadline=None)
@given(
    _hands(),
    st.lists(st.lists(st.integers(0, T.N_ALL_KINDS - 1), max_size=6), max_size=8),
    st.lists(st.integers(0, 8), min_size=T.N_KINDS, max_size=T.N_KINDS),
)
def test_unseen_counts_matches_reference(hand, groups, totals):
    counts = hand[0]
    seen = [0] * T.N_KINDS
    for group in groups:
        for t in group:
            if t < T.N_KINDS:
                seen[t] += 1
    want = [max(totals[t] - seen[t] - counts[t], 0) for t in range(T.N_KINDS)]
    assert unseen_counts(totals, bytearray(counts), [tuple(g) for g in groups]) == want
    assert unseen_counts(bytes(totals), bytearray(counts), groups) == want  # (a tile set's bytes)


def test_unseen_counts_skips_every_kind_past_the_34():
    """Flowers and any larger int (past a C long too) are not counted, like the flowers."""
    counts = bytes(34)
    assert unseen_counts([4] * 34, counts, [[34, 2**40, 2**70, 0]]) == [3] + [4] * 33


_READY = bytes(T.counts("123m456p789s11z23s"))
_QUAD = bytes(T.counts("1111m234p567s77z12s"))  # a kind held 4 times, 1 copy "unseen"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: expert_ukeire(bytes(33), -1, 1, [0] * 34, [0]), "34 entries"),
        (lambda: expert_ukeire(_READY, 34, 1, [0] * 34, [0]), "joker_kind"),
        (lambda: expert_ukeire(_READY, -1, 1, [0] * 33, [0]), "unseen"),
        (lambda: expert_ukeire(_READY, -1, 1, [-1] + [0] * 33, [0]), "unseen"),
        (lambda: expert_ukeire(_READY, -1, 1, [1.0] + [0] * 33, [0]), "unseen"),
        (lambda: expert_ukeire(_READY, -1, 1, [0] * 34, [5]), "held"),
        (lambda: expert_ukeire(_READY, -1, 1, [0] * 34, [40]), "held"),
        (lambda: expert_ukeire(_READY, -1, 1, [0] * 34, [-1]), ">= 0"),
        (lambda: expert_ukeire(bytes(T.counts("123m456p789s1z")), -1, 1, [1] * 34, [0]), "tiles"),
        (lambda: expert_ukeire(_QUAD, -1, 1, [1] * 34, [T.kind("1s")]), "count"),
        (lambda: expert_ukeire(_QUAD, 5, 1, [1] * 34, [T.kind("1s")]), "count"),
        (lambda: expert_waits(_READY, -1, 1, [0] * 34, [5]), "held"),
        (lambda: expert_discards(_READY, -1, 1, [5]), "held"),
        (lambda: expert_discards(_READY, -1, 1, [34]), "held"),
        (lambda: expert_discards(bytes(T.counts("123m456p789s1z")), -1, 1, [0]), "tiles"),
        (lambda: unseen_counts([4] * 33, _READY, []), "totals"),
        (lambda: unseen_counts([4] * 33 + [256], _READY, []), "totals"),
        (lambda: unseen_counts([4] * 33 + [2**70], _READY, []), "totals"),
        (lambda: unseen_counts(bytes([4] * 33), _READY, []), "totals"),
        (lambda: unseen_counts((4,) * 34, _READY, []), "totals"),
        (lambda: unseen_counts([4] * 34, _READY, [[-1]]), ">= 0"),
        (lambda: unseen_counts([4] * 34, _READY, [["1m"]]), ">= 0"),
        (lambda: unseen_counts([4] * 34, _READY, [[-(2**70)]]), ">= 0"),
        (lambda: unseen_counts([4] * 34, _READY, [[True]]), ">= 0"),
        (lambda: unseen_counts([4] * 34, bytes(33), []), "34 entries"),
        (lambda: expert_waits(bytes(T.counts("123m456p789s1z")), -1, 1, [0] * 34, [0]), "tiles"),
    ],
)
def test_expert_helpers_reject_bad_input(call, message):
    with pytest.raises(mjcore.InvalidHandError, match=message):
        call()


_MELDS = st.lists(
    st.lists(st.integers(0, T.N_KINDS - 1), min_size=0, max_size=4).map(tuple), max_size=5
)


@settings(max_examples=300, deadline=None)
@given(_MELDS, st.integers(0, 4), st.booleans())
def test_threat_one_suit_display_matches_reference(melds, n_melds, late):
    """_threat's suit scan is the set of suits it replaced (one suit, not honors)."""
    game = get_variant("lipu").new_game(seed=1)
    info = Info.from_game(game, 0)
    info.wall_live = 5 if late else 50
    level, waits, flush, river = _threat(melds, [3, 4, 35], "", False, n_melds, None, info)
    suits = {t // 9 if t < 27 else 3 for ts in melds for t in ts}
    one = len(melds) >= 2 and len(suits) == 1 and min(suits) < 3
    assert flush == (min(suits) if one else -1)
    want = (0.0, 0.0, 0.3, 0.6)[min(n_melds, 3)]
    if n_melds and late:
        want = min(want + 0.2, 1.0)
    assert level == (max(want, 0.6) if one else want)
    assert waits == -1 and river == 1 << 3 | 1 << 4  # the river's kinds, the flower left out
