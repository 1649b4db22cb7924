"""Bots behind one small protocol: ``act(view, legal_actions) -> Action``.

``RandomBot`` plays a uniformly random legal action; ``GreedyBot`` discards to
minimise shanten, takes every win and claims when that does not raise shanten.
Both are deterministic given their seed. The simulator uses the fast path
``act_fast(game, seat, legal)``, which reads the engine state directly, when a bot has one.
:mod:`mjcore.bots.spec` says which user bots ``simulate`` accepts (names, ``module:Name``,
classes, factories, instances) and what must be picklable.
"""

from .base import BaseBot, Bot
from .greedy import GreedyBot
from .random_bot import RandomBot
from .registry import BOTS, make_bot
from .spec import BotSpec, SeatBot, load_spec, make_bots, resolve_bots

__all__ = [
    "BOTS",
    "BaseBot",
    "Bot",
    "BotSpec",
    "GreedyBot",
    "RandomBot",
    "SeatBot",
    "load_spec",
    "make_bot",
    "make_bots",
    "resolve_bots",
]
