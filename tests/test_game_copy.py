"""Game.copy() (an independent game), repr(game) and the table drawn as text (issue 35).

Run compiled and pure (``MJCORE_PURE_PYTHON=1``): the copy reads the fields the .pxd declares."""

from __future__ import annotations

import pytest

from mjcore import tiles as T
from mjcore.bots.registry import make_bot
from mjcore.engine.game import STATE
from mjcore.engine.render import render_table
from mjcore.variants import get_variant, names

MUTABLE = (list, dict, bytearray, set)


def _play(game, bots, steps=None):
    """Let ``bots`` play ``game`` (``steps`` actions, or to the end); the actions taken."""
    taken = []
    while not game.is_over and (steps is None or len(taken) < steps):
        seat = game.to_act()[0]
        action = bots[seat].act_fast(game, seat, game.legal_actions(seat))
        game.apply(seat, action)
        taken.append((seat, str(action)))
    return taken


def _fingerprint(game):
    return (
        game.to_dict(),
        [game.legal_actions(s) for s in range(game.n)],
        [game.view(s) for s in range(game.n)],
        game.events,
        game.scores,
    )


@pytest.mark.parametrize("variant", names())
@pytest.mark.parametrize("cut", [0, 7, 25, 60])
def test_a_copy_plays_on_exactly_as_the_original_and_apart_from_it(variant, cut):
    game = get_variant(variant).new_game(seed=11 + cut)
    _play(game, [make_bot("greedy", s) for s in range(4)], cut)
    before = _fingerprint(game)
    twin = game.copy()
    assert type(twin) is type(game) and twin is not game
    assert _fingerprint(twin) == before
    # The copy played to the end (random bots) leaves the original as it was ...
    played = _play(twin, [make_bot("random", 100 + s) for s in range(4)])
    assert _fingerprint(game) == before
    # ... and the original, played with the same bots from the same point, ends alike.
    assert _play(game, [make_bot("random", 100 + s) for s in range(4)]) == played
    assert _fingerprint(game) == _fingerprint(twin)
    assert sum(twin.scores) == 0


@pytest.mark.parametrize("variant", names())
def test_a_copy_shares_no_container_the_engine_changes(variant):
    game = get_variant(variant).new_game(seed=3)
    _play(game, [make_bot("greedy", s) for s in range(4)], 30)
    twin = game.copy()
    for name in STATE:
        a, b = getattr(game, name), getattr(twin, name)
        if isinstance(a, MUTABLE) or name in ("wall", "_events"):
            assert a is not b, name
    for st, tw in zip(game.seats, twin.seats, strict=True):
        assert st is not tw
        for name in ("hand", "melds", "discards", "choices", "claimed_from", "extra"):
            assert getattr(st, name) is not getattr(tw, name), name
    # A change in place to a copy's parts never reaches the original.
    twin.seats[0].hand[0] += 1
    twin.wall.head += 1
    twin.extra["probe"] = [1]
    assert game.seats[0].hand != twin.seats[0].hand
    assert game.wall.head != twin.wall.head and "probe" not in game.extra


def test_a_copy_in_an_open_claim_window_keeps_the_answers_apart():
    game = get_variant("qingdao").new_game(seed=4)
    bots = [make_bot("greedy", s) for s in range(4)]
    while not game.is_over and game.phase != "claim":
        _play(game, bots, 1)
    assert game.phase == "claim"
    twin = game.copy()
    seat = twin.to_act()[0]
    twin.apply(seat, "pass")
    assert game.phase == "claim" and seat in game.to_act() and not game.decisions
    assert twin.to_act() != game.to_act() or twin.phase != "claim"


def test_repr_names_variant_phase_seat_to_act_and_scores():
    game = get_variant("xuezhan_kaxinwu").new_game(seed=2)
    _play(game, [make_bot("greedy", s) for s in range(4)], 5)
    text = repr(game)
    assert "xuezhan_kaxinwu" in text and f"phase={game.phase}" in text
    assert f"to_act={game.to_act()}" in text and f"scores={game.scores}" in text
    _play(game, [make_bot("greedy", s) for s in range(4)])
    assert "phase=over" in repr(game) and "to_act=[]" in repr(game)


@pytest.mark.parametrize("variant", names())
def test_the_table_shows_melds_rivers_flowers_and_only_the_viewers_hand(variant):
    game = get_variant(variant).new_game(seed=21)
    bots = [make_bot("greedy", s) for s in range(4)]
    while not game.is_over and not any(st.melds for st in game.seats):
        _play(game, bots, 1)
    if game.is_over:
        pytest.skip("no meld in this hand")
    text = render_table(game, seat=0)
    lines = text.splitlines()
    assert lines[0].startswith(variant) and f"phase {game.phase}" in lines[0]
    blocks = "\n".join(lines)
    for s, st in enumerate(game.seats):
        block = blocks.split(f"seat {s} (")[1].split("\nseat ")[0]
        river = " ".join(T.NOTATION[t] for t in st.discards) or "-"
        assert f"river   {river}" in block
        for m in st.melds:
            if m.kind != "angang" or s == 0 or game.variant.angang_public:
                assert T.format(list(m.tiles)) in block
        if st.flowers:
            assert "flowers " + " ".join(T.NOTATION[t] for t in st.flowers) in block
        if s == 0:
            assert "you" in block.splitlines()[0]
            assert T.format_sorted(T.from_counts(st.hand)) in block.replace(" + ", "")
        else:
            assert f"hand    {st.tile_count()} tiles" in block
    # other seats' concealed tiles are never drawn: the text does not change when they do
    twin = game.copy()
    h1, h2 = twin.seats[1].hand, twin.seats[2].hand
    k1 = next(
        k
        for k in range(34)
        if h1[k] and not h2[k] == 4 and k != next((j for j in range(34) if h2[j]), -1)
    )
    k2 = next(j for j in range(34) if h2[j] and j != k1)
    h1[k1] -= 1
    h2[k1] += 1
    h2[k2] -= 1
    h1[k2] += 1
    assert render_table(twin, seat=0) == text


def test_the_finished_table_shows_the_won_tiles_and_every_hand():
    game = get_variant("xuezhan_kaxinwu").new_game(seed=8)
    _play(game, [make_bot("greedy", s) for s in range(4)])
    text = render_table(game, seat=1)
    for st in game.seats:
        if st.won_tiles:
            assert "won     " + " ".join(T.NOTATION[t] for t in st.won_tiles) in text
        assert "hand    " + (T.format_sorted(T.from_counts(st.hand)) or "-") in text
    assert any(st.won_tiles for st in game.seats)
