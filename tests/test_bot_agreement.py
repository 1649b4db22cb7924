"""``act(view)`` and ``act_fast(game)`` of every bot make the same decision (issue 33).

Both are documented as "the same decision": the view path reads the rules from the view
(``view["options"]``) and the fast path from the engine. Random play drives seeded hands of
every variant, with default and main options, for 4, 3 and 2 players: at every decision the
bot that drives (``act_fast``) and a twin with the same seed asked through the seat's view
(``act``) must agree. (``mc`` is left out by design: without the engine there is nothing to
roll out on, and its ``act(view)`` is the expert's decision.)
"""

from __future__ import annotations

import pytest

import mjcore
from mjcore.bots import make_bot

MAIN_OPTIONS = {
    "xuezhan_kaxinwu": {"three_suits": True, "gang_chain": "compound"},
    "lipu": {"zuoma": True, "laogang": True, "zhuama": 2},
    "susong": {"piaohua": True, "chuzeng": 1},
    "qingdao": {"niupai": True, "pair258": True},
    "rongcheng": {"luanzhang": True},
}
"""The main options of each variant (bench/bench_bots.py's, with 青岛 258将)."""


def disagreements(bot: str, variant: str, options: dict | None, players: int, seed: int):
    """Play one hand with ``bot`` at every seat; every decision where the view's answer
    differs from the engine's, and the number of decisions."""
    rules = mjcore.get_variant(variant).rules(options, players)
    game = rules.new_game(seed=seed, dealer=seed % players)
    fast = [make_bot(bot, seed=seed * 10 + s) for s in range(players)]
    viewing = [make_bot(bot, seed=seed * 10 + s) for s in range(players)]
    wrong, decisions = [], 0
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        by_engine = fast[seat].act_fast(game, seat, legal)
        by_view = viewing[seat].act(game.view(seat), legal)
        decisions += 1
        if by_view != by_engine:
            wrong.append((decisions, game.phase, str(by_view), str(by_engine)))
        game.apply(seat, by_engine)
    return wrong, decisions


@pytest.mark.parametrize("players", [4, 3, 2])
@pytest.mark.parametrize("label", ["default", "main"])
@pytest.mark.parametrize("variant", sorted(MAIN_OPTIONS))
@pytest.mark.parametrize("bot", ["greedy", "expert", "random"])
def test_view_and_engine_decide_alike(bot, variant, label, players):
    options = MAIN_OPTIONS[variant] if label == "main" else None
    total = 0
    for seed in range(2):
        wrong, decisions = disagreements(bot, variant, options, players, seed)
        assert not wrong, f"{bot} {variant} {label} {players}p seed {seed}: {wrong[:5]}"
        total += decisions
    assert total > 20  # (hands were played)


def test_a_view_carries_its_rules():
    """The view shows the options the game is played under, and a bot reads them."""
    from mjcore.bots.hand import rules_of_view

    game = mjcore.get_variant("qingdao").new_game(3, {"pair258": True}, seed=1)
    view = game.view(0)
    assert view["options"]["pair258"] is True
    assert rules_of_view(view) is game.rules
    assert rules_of_view({**view, "options": {}}) is mjcore.get_variant("qingdao").rules(None, 3)
