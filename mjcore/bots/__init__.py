"""Bots behind one small protocol: ``act(view, legal_actions) -> Action``.

``RandomBot`` plays a uniformly random legal action; ``GreedyBot`` discards to
minimise shanten, takes every win and claims when that does not raise shanten.
Both are deterministic given their seed. The simulator uses the fast path
``act_fast(game, seat, legal)``, which reads the engine state directly.
"""

from .base import BOTS, BaseBot, Bot, make_bot, make_bots
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = ["BOTS", "BaseBot", "Bot", "GreedyBot", "RandomBot", "make_bot", "make_bots"]
