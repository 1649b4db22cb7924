"""Invariants of the shared engine that hold for every variant, option set and table size.

RULES.md §0.6: **a seat asked to act always has a legal action** — a table never freezes.
Random play on walls and policies biased toward the restrictions that shrink the legal set
(the chi bans of 荔浦/宿松/青岛 after a gang and its replacement, 封胡, 扣听 and 听 locks, a
飘 seat's flower discards, 分张, the last tile) checks, at every step, that a hand that is not
over has a seat to act and that every seat asked has something it may do.
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from typing import Any

import numpy as np
import pytest

import mjcore
from mjcore import tiles as T
from mjcore.engine.actions import CHOW_PARTNERS
from mjcore.engine.wall import build_wall
from mjcore.variants import get_variant, names

GAMES = int(os.environ.get("MJCORE_INVARIANT_GAMES", "300"))  # random hands per variant
TRAPS = 80  # scripted chi-ban traps per variant that has a ban
# Claims and declarations first: they are what sets bans, seals seats and locks hands.
PREFERRED = ("declare", "niu", "chi", "peng", "gang")


def random_options(name: str, rng: np.random.Generator) -> dict[str, Any]:
    """Every room option of the variant, each drawn from its allowed values."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(get_variant(name).Options):
        values = (False, True) if isinstance(f.default, bool) else f.metadata["choices"]
        out[f.name] = values[int(rng.integers(len(values)))]
    return out


def clumped_wall(tile_set: list[int], rng: np.random.Generator, block: int) -> list[int]:
    """The sorted tile set cut into blocks of ``block`` tiles, the blocks shuffled: hands come
    out in runs of neighbouring kinds (chows, pungs, quads and the chi bans' X±3 partners)."""
    ordered = sorted(tile_set)
    blocks = [ordered[i : i + block] for i in range(0, len(ordered), block)]
    return [t for i in rng.permutation(len(blocks)) for t in blocks[i]]


def choose(game, seat: int, rng: np.random.Generator, eager: float):
    """A legal action, preferring claims and declarations, and the last value of a per-hand
    choice (飘, 坐马 …: the value that restricts most), with probability ``eager``."""
    legal = game.legal_actions(seat)
    if rng.random() < eager:
        keen = [a for a in legal if a.kind in PREFERRED]
        if keen:
            return keen[int(rng.integers(len(keen)))]
        if legal[-1].kind == "choose":
            return legal[-1]
    return legal[int(rng.integers(len(legal)))]


class Seen(Counter):
    """How often each restriction that shrinks the legal set was met (so the test proves it
    reached them)."""

    def look(self, game, seat: int) -> None:
        st = game.seats[seat]
        if game.phase == "turn":
            if st.no_discard:
                self["chi ban"] += 1
                if not any(st.hand[k] for k in range(T.N_KINDS) if k not in st.no_discard):
                    self["chi ban lifted"] += 1
            if st.declared and st.discard_count:
                self["locked hand"] += 1
            if st.held_flowers and not game.variant.replace_flowers(game, seat):
                self["flower discards"] += 1
            if not game.wall.can_draw():
                self["last tile"] += 1
        if game.phase == "fenzhang":
            self["fenzhang"] += 1
        if any(s.sealed for s in game.seats):
            self["sealed"] += 1


def play_checking(game, rng: np.random.Generator, eager: float, seen: Seen) -> None:
    """Play the hand to its end, checking before every action that a hand not over has a seat
    to act (first_to_act the first of them) and that every seat asked has at least one legal
    action."""
    for _ in range(3000):
        asked = game.to_act()
        assert game.first_to_act() == (asked[0] if asked else -1)
        if game.is_over:
            assert asked == [], f"a finished hand asks seats {asked}"
            return
        assert asked, f"phase {game.phase}: the hand is not over but no seat is asked to act"
        for seat in asked:
            seen.look(game, seat)
            assert game.legal_actions(seat), (
                f"seat {seat} is asked to act in phase {game.phase} but has no legal action"
            )
        seat = asked[int(rng.integers(len(asked)))]
        game.apply(seat, choose(game, seat, rng, eager))
    raise AssertionError("the hand did not end within 3000 actions")


def random_hand(name: str, i: int, seen: Seen) -> None:
    rng = np.random.default_rng([i, len(name)])
    v = get_variant(name)
    opts = random_options(name, rng)
    players = int(rng.integers(v.min_players, v.max_players + 1))
    block = (0, 3, 4, 6)[i % 4]
    wall = clumped_wall(v.tile_kinds(v.parse_options(opts)), rng, block) if block else None
    game = v.new_game(players=players, options=opts, seed=i, wall=wall)
    try:
        play_checking(game, rng, (0.0, 0.6, 0.95)[i % 3], seen)
    except AssertionError as exc:
        raise AssertionError(f"{name} hand {i} ({players} seats, {opts}): {exc}") from exc


# ---- the chi ban trap ---------------------------------------------------------------------
def _take(left: Counter, kinds: list[int], n: int, rng: np.random.Generator) -> Counter | None:
    """``n`` tiles drawn at random from ``kinds`` as available in ``left`` (taken from it)."""
    got: Counter = Counter()
    for _ in range(50 * n):
        if sum(got.values()) == n:
            return got
        avail = [t for t in kinds if left[t] > 0]
        if not avail:
            return None
        t = avail[int(rng.integers(len(avail)))]
        got[t] += 1
        left[t] -= 1
    return got if sum(got.values()) == n else None


def chi_ban_trap(name: str, opts: dict[str, Any], rng: np.random.Generator) -> dict | None:
    """A scripted deal where S (seat 1) chis E's (seat 0) discard X and keeps only a concealed
    quad Q plus kinds the chi bans; its 暗杠 of Q draws a banned kind as the replacement and
    the hand does not win, so only the lifted ban leaves S an action [DEC L21]. With a prior
    peng (S pengs E's first discard P and discards Z) the hand needs fewer banned tiles.
    None when the drawn shape cannot be built."""
    v = get_variant(name)
    x = int(rng.integers(27))
    low, a, b = CHOW_PARTNERS[x][int(rng.integers(len(CHOW_PARTNERS[x])))]
    banned = sorted(v.no_discard_after_chi(v.parse_options(opts), (low, low + 1, low + 2), x))
    prior = int(rng.integers(2))
    left = Counter(t for t in v.tile_kinds(v.parse_options(opts)) if t < T.N_KINDS)
    if min(left[x], left[a], left[b]) < 1:
        return None
    for t in (x, a, b):
        left[t] -= 1
    others = [t for t in range(T.N_KINDS) if t not in banned and t not in (a, b)]
    quads = [t for t in others if left[t] == 4]
    if not banned or not quads:
        return None
    q = quads[int(rng.integers(len(quads)))]
    left[q] = 0
    extra: list[int] = []
    if prior:
        pungs = [t for t in others if left[t] >= 3]
        if not pungs:
            return None
        p = pungs[int(rng.integers(len(pungs)))]
        left[p] -= 3
        z = _take(left, others, 1, rng)
        if z is None:
            return None
        extra = [p, p, *z.elements()]
    keep = _take(left, banned, 8 - 3 * prior, rng)  # the kept tiles and the replacement
    if keep is None:
        return None
    kept = list(keep.elements())
    r = kept.pop(int(rng.integers(len(kept))))
    after = np.zeros(T.N_KINDS, np.uint8)
    np.add.at(after, kept + [r], 1)
    if mjcore.is_win(after):  # a win would be an action: no trap
        return None
    return {
        "x": x,
        "chow": (low, low + 1, low + 2),
        "q": q,
        "replacement": T.NOTATION[r],
        "first": extra[0] if prior else x,
        "discard": extra[2] if prior else None,
        "hand": T.format([a, b, q, q, q, q, *extra, *kept]),
    }


def _until_east_discards(game) -> None:
    """Every other seat discards its drawn tile and passes every claim until E's turn."""
    while not (game.phase == "turn" and game.current == 0):
        seat = game.to_act()[0]
        if game.phase == "turn":
            game.apply(seat, f"discard {T.NOTATION[game.drawn]}")
        else:
            game.apply(seat, "pass")


def play_trap(name: str, i: int, seen: Seen) -> bool:
    rng = np.random.default_rng([i, 7, len(name)])
    v = get_variant(name)
    opts = {**random_options(name, rng), **TRAP_OPTIONS[name]}
    for _ in range(40):  # most random shapes cannot be built, or win
        trap = chi_ban_trap(name, opts, rng)
        if trap is not None:
            break
    else:
        return False
    players = int(rng.integers(v.min_players, v.max_players + 1))
    tile_set = v.tile_kinds(v.parse_options(opts))
    first, x = T.NOTATION[trap["first"]], T.NOTATION[trap["x"]]
    wall = build_wall(
        tile_set,
        players,
        0,
        hands={0: first + x if first != x else x, 1: trap["hand"]},
        replacements=trap["replacement"],
        seed=i,
        apart=sorted({t for t in tile_set if t >= T.N_KINDS}),
    )
    game = v.new_game(players=players, options=opts, wall=wall, dealer=0)
    while game.phase != "turn":  # per-hand choices: the first value offered
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    game.apply(0, f"discard {first}")
    if trap["discard"] is not None:  # S pengs E's first discard, discards Z; round to E
        while game.phase == "claim":
            seat = game.to_act()[0]
            game.apply(seat, "peng" if seat == 1 else "pass")
        game.apply(1, f"discard {T.NOTATION[trap['discard']]}")
        _until_east_discards(game)
        game.apply(0, f"discard {x}")
    while game.phase == "claim":
        seat = game.to_act()[0]
        game.apply(seat, f"chi {T.format(list(trap['chow']))}" if seat == 1 else "pass")
    q = T.NOTATION[trap["q"]]
    assert game.current == 1 and f"gang {q}" in map(str, game.legal_actions(1))
    game.apply(1, f"gang {q}")
    play_checking(game, rng, 0.6, seen)
    return True


TRAP_OPTIONS = {"lipu": {"no_chi_adjacent": True}, "qingdao": {"hun": False, "no_chi": False}}


BUILT_IN = ("xuezhan_kaxinwu", "lipu", "susong", "qingdao", "rongcheng")


def test_the_five_variants_are_the_built_in_ones():
    assert set(BUILT_IN) <= set(names()) and set(EXPECTED) == set(BUILT_IN)


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_asked_seat_has_a_legal_action(name):
    """RULES §0.6 over random hands of every option set and table size (walls clumped so
    that claims, quads and bans come often), plus, where the variant has a chi ban, scripted
    traps in which only the lifted ban leaves an action [DEC L21]."""
    seen = Seen()
    for i in range(GAMES):
        random_hand(name, i, seen)
    if name in TRAP_OPTIONS:
        built = sum(play_trap(name, i, seen) for i in range(TRAPS))
        assert built >= TRAPS // 3
        assert seen["chi ban lifted"] >= built
    for what in EXPECTED[name]:
        assert seen[what], f"{name}: random play never met '{what}' ({dict(seen)})"


EXPECTED = {
    "xuezhan_kaxinwu": ["last tile"],
    "lipu": ["chi ban", "chi ban lifted", "sealed", "last tile"],
    "susong": ["chi ban", "flower discards", "last tile"],
    "qingdao": ["chi ban", "chi ban lifted", "locked hand", "fenzhang"],
    "rongcheng": ["locked hand", "fenzhang"],
}


# ---- RULES §0.6 / DEC L21: the chi ban after a gang and its replacement -------------------
def _lipu_sealed_chi_then_gang():
    """荔浦 不能吃打相同及相邻: E pengs three of S's discards, so S is 封胡 (cannot win);
    S chis 4p (banning 1p 4p 7p), makes an 暗杠 of 7z and its replacement 1p leaves only
    banned kinds in hand."""
    v = mjcore.get_variant("lipu")
    opts = {"no_chi_adjacent": True}
    wall = build_wall(
        v.tile_kinds(v.parse_options(opts)),
        2,
        0,
        hands={0: "2m2m5m5m8m8m4p1z2z3z4z5z6z9s", 1: "56p7777z11p44p777p"},
        draws="2m5m8m",
        replacements="1p",
        seed=0,
    )
    g = v.new_game(players=2, options=opts, wall=wall, dealer=0)
    script = [
        (0, "discard 1z"),
        (1, "discard 2m"),
        (0, "peng"),
        (0, "discard 2z"),
        (1, "discard 5m"),
        (0, "peng"),
        (0, "discard 3z"),
        (1, "discard 8m"),
        (0, "peng"),
        (0, "discard 4p"),
        (1, "chi 456p"),
    ]
    for seat, action in script:
        g.apply(seat, action)
    return g


def test_chi_ban_holds_through_a_gang_while_a_discard_stays_legal():
    g = _lipu_sealed_chi_then_gang()
    assert g.seats[1].sealed
    assert [str(a) for a in g.legal_actions(1)] == ["gang 7z", "discard 7z"]  # 1p 4p 7p banned


def test_chi_ban_is_lifted_when_the_gang_replacement_leaves_no_legal_discard():
    g = _lipu_sealed_chi_then_gang()
    g.apply(1, "gang 7z")
    assert g.phase == "turn" and g.to_act() == [1]
    held = [T.NOTATION[t] for t in range(T.N_KINDS) if g.seats[1].hand[t]]
    assert held == ["1p", "4p", "7p"]
    assert [str(a) for a in g.legal_actions(1)] == ["discard 1p", "discard 4p", "discard 7p"]
    g.apply(1, "discard 4p")  # the ban is lifted for this discard only
    assert not g.seats[1].no_discard


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("lipu", {"zuoma": True}),
        ("susong", {"piaohua": True}),
        ("susong", {"chuzeng": 1}),
        ("qingdao", None),
        ("rongcheng", None),
    ],
)
def test_a_seats_pending_choices_are_its_own_list(name, options):
    """The per-hand choices a game keeps are new lists (Variant.hand_choices' contract): a
    change to one game's pending actions reaches no other game."""
    from mjcore.variants import get_variant

    v = get_variant(name)
    game = v.new_game(seed=1, options=options)
    assert game.phase == "choose" and game.pending
    before = {s: list(acts) for s, acts in game.pending.items()}
    for acts in game.pending.values():
        acts.clear()
    fresh = v.new_game(seed=1, options=options)
    assert fresh.pending == before
