# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""RandomBot: a uniformly random legal action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine.actions import PASS, Action
from .base import BaseBot

if TYPE_CHECKING:
    from ..engine.game import Game


class RandomBot(BaseBot):
    """Picks uniformly among the legal actions (deterministic given the seed).

    One exception: when a ``declare`` (听 / 扣听) is offered it declares (a random one of
    them) — where a declaration is needed to win, a bot that skips it never wins.
    """

    name = "random"
    replayable = True  # (no state besides the random stream: BaseBot.replayable)

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return _pick(self, legal)

    def act_fast(self, game: Game, seat: int, legal: Sequence[Action]) -> Action:
        return _pick(self, legal)


def _pick(bot: BaseBot, legal: Sequence[Action]) -> Action:
    """RandomBot's choice (a module function: a C call when compiled, random_bot.pxd)."""
    options = legal if type(legal) is tuple else tuple(legal)  # (the engine's: a tuple)
    n = len(options)
    if n == 0:
        raise ValueError("no legal action to choose from")
    if n == 1:
        return options[0]
    last = options[n - 1]
    # declarations are listed last (Variant.filter_turn) and carry no tile; a claim's list
    # ends with PASS, a turn's mostly with a discard
    if last is not PASS and last.tile == -1 and last.kind == "declare":
        options = tuple([a for a in options if a.kind == "declare"])
        n = len(options)
    return options[bot.integers(n)]
