"""The reference agents (expert, mc) and the league: legality, no hidden information, seeds,
backends, the league's JSON. Strength itself is measured in bench/bench_bots.py, not here."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from mjcore.bots import BOTS, make_bot, make_bots
from mjcore.bots.expert import ExpertBot
from mjcore.bots.mc import MCBot, Snapshot, determinize
from mjcore.bots.spec import resolve_bots
from mjcore.engine.actions import Action
from mjcore.errors import InvalidOptionError
from mjcore.sim import play_game
from mjcore.variants import get_variant

pytest.importorskip("openskill")

from mjcore.sim.league import league  # noqa: E402  (after the skip)
from mjcore.sim.league_cli import league_command  # noqa: E402

MAIN_OPTIONS = {
    "xuezhan_kaxinwu": {"three_suits": True, "must_gang": True},
    "lipu": {"zuoma": True, "laogang": True, "zhuama": 2},
    "susong": {"piaohua": True, "chuzeng": 1},
    "qingdao": {"niupai": True, "pair258": True},
    "rongcheng": {"luanzhang": True, "no_huangzhuang": True},
}
VARIANTS = sorted(MAIN_OPTIONS)


def _seat(game):
    return game.current if game.phase == "turn" else game.to_act()[0]


# ---- legality ------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("main", [False, True])
def test_every_agent_only_plays_legal_actions(variant, main):
    opts = MAIN_OPTIONS[variant] if main else None
    var = get_variant(variant)
    for hand in range(2):
        game = var.new_game(seed=100 + hand, options=opts, dealer=hand)
        bots = [ExpertBot(1), MCBot(2, rollouts=3), make_bot("greedy", 3), ExpertBot(4)]
        steps = 0
        while not game.is_over:
            seat = _seat(game)
            legal = game.legal_actions(seat)
            action = bots[seat].act_fast(game, seat, legal)
            assert action in legal, (seat, action, legal)
            if isinstance(bots[seat], ExpertBot) and steps % 7 == 0:  # the view path too
                view = game.view(seat)
                texts = [Action.parse(a) for a in view["legal_actions"]]
                assert ExpertBot(9).act(view, texts) in legal
            game.apply(seat, action)
            steps += 1
        assert steps > 4


# ---- no hidden information ---------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_expert_decisions_ignore_hidden_tiles(variant):
    """Other seats' hands and the wall (and a hidden 宝) are shuffled; the expert's decision,
    from the engine and from the view, stays the same — while the worlds really differ.
    (The view path plays the default options' shapes: a view does not carry the options.)"""
    game = get_variant(variant).new_game(seed=7, options=MAIN_OPTIONS[variant])
    bots = [ExpertBot(s) for s in range(4)]
    compared = changed = 0
    step = 0
    while not game.is_over:
        seat = _seat(game)
        legal = game.legal_actions(seat)
        if len(legal) > 1 and step % 3 == 0:
            world = determinize(Snapshot(game).copy(), seat, seed=step)
            assert Counter(world.tiles_in_play()) == Counter(game.tiles_in_play())
            assert bytes(world.seats[seat].hand) == bytes(game.seats[seat].hand)
            assert world.legal_actions(seat) == legal
            others = [s for s in range(game.n) if s != seat]
            changed += any(bytes(world.seats[s].hand) != bytes(game.seats[s].hand) for s in others)
            mine = ExpertBot(step).act_fast(game, seat, legal)
            assert ExpertBot(step).act_fast(world, seat, legal) == mine, step
            seen = ExpertBot(step).act(game.view(seat), legal)  # (a view has no options)
            assert ExpertBot(step).act(world.view(seat), legal) == seen, step
            compared += 1
        game.apply(seat, bots[seat].act_fast(game, seat, legal))
        step += 1
    assert compared >= 5 and changed >= compared // 2


def test_determinize_depends_on_the_seed_only():
    game = get_variant("qingdao").new_game(seed=3)
    a = determinize(Snapshot(game).copy(), 0, seed=11)
    b = determinize(Snapshot(game).copy(), 0, seed=11)
    c = determinize(Snapshot(game).copy(), 0, seed=12)
    assert a.wall.tiles == b.wall.tiles and bytes(a.seats[1].hand) == bytes(b.seats[1].hand)
    assert a.wall.tiles != c.wall.tiles


# ---- seeds, budgets, specs -----------------------------------------------------------------------
def test_seeded_agents_reproduce_whole_hands():
    bots = ["mc:rollouts=4", "expert", "greedy", "expert"]
    first = play_game("lipu", 3, bots=bots, seed=5)[0]
    again = play_game("lipu", 3, bots=bots, seed=5)[0]
    assert first.history == again.history and first.scores == again.scores


def test_mc_budget_modes():
    game = get_variant("susong").new_game(seed=4)
    seat = _seat(game)
    fixed = MCBot(0, rollouts=6)
    timed = MCBot(0, ms=5)
    for bot in (fixed, timed):
        while not game.is_over and bot.played == 0:
            seat = _seat(game)
            legal = game.legal_actions(seat)
            action = bot.act_fast(game, seat, legal)
            assert action in legal
            game.apply(seat, action)
    assert fixed.played == 6  # 3 candidates x 2 worlds
    assert timed.played >= 1
    with pytest.raises(ValueError):
        MCBot(0, rollouts=5, ms=5)


def test_mc_search_can_overrule_the_expert():
    """With no margin the rollouts decide: some decisions of a hand differ from the expert's;
    with the default margin and few worlds, none does."""
    game = get_variant("lipu").new_game(seed=2)
    eager, careful = MCBot(1, rollouts=9, margin=0.0), MCBot(1, rollouts=6)  # 6: < 4 worlds
    reference = ExpertBot(1)  # the same stream as the careful bot's expert (tie-breaks)
    differ = same = 0
    while not game.is_over:
        seat = _seat(game)
        legal = game.legal_actions(seat)
        expert = reference.act_fast(game, seat, legal)
        differ += eager.act_fast(game, seat, legal) != expert
        same += careful.act_fast(game, seat, legal) == expert
        game.apply(seat, expert)
    assert differ >= 1 and eager.played > 0
    assert same == game.action_count


def test_specs_accept_the_new_agents():
    assert {"expert", "mc"} <= set(BOTS)
    seats = resolve_bots("random,mc:ms=50,mc:rollouts=200&candidates=4,expert", 4)
    assert [sb.label for sb in seats] == [
        "random",
        "mc:ms=50",
        "mc:rollouts=200&candidates=4",
        "expert",
    ]
    bots = make_bots(["mc:rollouts=200&candidates=4"] * 4, 4, seeds=[1, 2, 3, 4])
    assert bots[0].rollouts == 200 and bots[0].candidates == 4 and bots[0].ms is None
    assert isinstance(make_bot("expert", 1), ExpertBot)
    for bad in ("mc:rollouts=0", "mc:speed=3", "mc:rollouts=x", "expert:depth=2", "mc:ms"):
        with pytest.raises(InvalidOptionError):
            resolve_bots(bad, 4)


# ---- the league ----------------------------------------------------------------------------------
AGENTS = ["random", "greedy", "expert"]


def _stats(**kw):
    return league("lipu", AGENTS, 8, seed=3, **kw).statistics()


def test_league_statistics_identical_across_backends():
    inline = _stats()
    assert _stats(workers=2, chunk_size=4) == inline
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
            silence_logs=50,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert _stats(cluster=client, chunk_size=4) == inline
    table = inline["pairwise"]
    assert table["greedy"]["random"]["mean"] > 0 > table["random"]["greedy"]["mean"]


def test_league_json_shape_and_plot(tmp_path):
    plot = tmp_path / "league.png"
    args = ["-v", "qingdao", "-b", "random,greedy", "-n", "8", "--json", "--plot", str(plot)]
    result = CliRunner().invoke(league_command, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["agents"] == ["random", "greedy"] and data["hands_per_matchup"] == 8
    cell = data["pairwise"]["greedy"]["random"]
    assert set(cell) >= {"mean", "ci95", "low", "high", "deals", "hands", "deals_won"}
    assert cell["deals"] == 2 and cell["hands"] == 8
    assert np.isclose(cell["low"], cell["mean"] - cell["ci95"])
    assert data["pairwise"]["random"].keys() == {"greedy"}
    assert [r["agent"] for r in data["ratings"]] == ["greedy", "random"]
    assert all(r["sigma"] > 0 for r in data["ratings"])
    assert plot.stat().st_size > 1000


def test_league_rejects_bad_arguments():
    with pytest.raises(InvalidOptionError):
        league("lipu", ["greedy"], 8)
    with pytest.raises(InvalidOptionError):
        league("lipu", ["greedy", "greedy"], 8)
    result = CliRunner().invoke(league_command, ["-b", "greedy,nobot", "-n", "4"])
    assert result.exit_code == 2 and "nobot" in result.output
