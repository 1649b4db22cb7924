"""The bot registry: names to bot classes (``make_bot("greedy")``).

It sits above the bots it names (each bot module imports only :mod:`mjcore.bots.base` and the
shared :mod:`mjcore.bots.hand`), so nothing below imports it back.
"""

from __future__ import annotations

from functools import cache

from ..errors import InvalidOptionError, clip
from .base import BaseBot, SeedLike
from .expert import ExpertBot
from .greedy import GreedyBot
from .learned import LearnedBot
from .mc import MCBot
from .random_bot import RandomBot

BOTS = ("greedy", "random", "expert", "mc", "learned")
"""Names accepted by :func:`make_bot` (and ``simulate(bots=...)``)."""


@cache  # built once (make_bot runs for every seat of every simulated hand); read only
def bot_classes() -> dict[str, type[BaseBot]]:
    """The registered bot classes by name."""
    return {
        "random": RandomBot,
        "greedy": GreedyBot,
        "expert": ExpertBot,
        "mc": MCBot,
        "learned": LearnedBot,
    }


def make_bot(name: str, seed: SeedLike = None) -> BaseBot:
    """A bot by name (one of :data:`BOTS`); unknown names raise InvalidOptionError."""
    registry = bot_classes()
    if not isinstance(name, str) or name not in registry:
        raise InvalidOptionError(f"unknown bot {clip(name)}; known bots: {', '.join(BOTS)}")
    return registry[name](seed)
