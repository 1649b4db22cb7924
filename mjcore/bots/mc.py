"""MCBot: determinized Monte-Carlo search over a few candidate actions.

At a decision with more than one sensible action (the :class:`~mjcore.bots.expert.ExpertBot`'s
best few discards, a claim against passing, a declaration against playing on) it

1. samples a *world*: the tiles it cannot see (other seats' concealed hands, the wall's
   undrawn tiles, a hidden 宝) are shuffled among the places that hold them, so every sample
   is consistent with its view and none keeps what is really hidden (:func:`determinize`);
2. plays each candidate on a copy of that world (the engine has no clone: :class:`Snapshot`
   pickles the Game once and unpickles a copy per rollout, about 4x faster than
   ``copy.deepcopy``; a replay from ``to_dict`` would redo the whole hand) and
   rolls the hand out with :class:`~mjcore.bots.greedy.GreedyBot` at every seat;
3. keeps the expert's pick unless an alternative's mean gain over it — paired world by world
   (common random numbers: each world is played once per candidate) — is more than
   ``margin`` (2.0) standard errors above zero over at least :data:`MIN_WORLDS` worlds; then
   the best such alternative.

Budget: ``MCBot(rollouts=200)`` (``mc:rollouts=200``) plays that many rollouts in all and is
deterministic for a seed — the reproducible mode; ``MCBot(ms=50)`` (``mc:ms=50``) plays worlds
until 50 ms have passed, so how many it plays (and so what it decides) depends on the machine.
Everything else (per-hand choices, a single sensible action) is the expert's decision.
"""

from __future__ import annotations

import io
import math
import pickle
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import tiles as T
from ..engine.actions import PASS, Action
from ..engine.wall import Wall
from .base import BaseBot, SeedLike
from .expert import ExpertBot, Info
from .greedy import GreedyBot

if TYPE_CHECKING:
    from ..engine.game import Game

MIN_WORLDS = 4
"""Fewer worlds than this never overrule the expert's pick (too little evidence)."""
MAX_ROLLOUT_ACTIONS = 3000
"""A rollout still running after this many actions is abandoned (scored as it stands)."""


class MCBot(BaseBot):
    """Determinized Monte-Carlo over the expert's candidates (see the module docstring)."""

    name = "mc"

    def __init__(
        self,
        seed: SeedLike = None,
        *,
        rollouts: int | None = None,
        ms: float | None = None,
        candidates: int = 3,
        margin: float = 2.0,
    ) -> None:
        super().__init__(seed)
        if rollouts is not None and ms is not None:
            raise ValueError("mc: give rollouts= or ms=, not both")
        if rollouts is None and ms is None:
            rollouts = 60
        if rollouts is not None and rollouts < 1:
            raise ValueError(f"mc: rollouts must be at least 1, got {rollouts}")
        if ms is not None and ms <= 0:
            raise ValueError(f"mc: ms must be positive, got {ms}")
        self.rollouts, self.ms, self.candidates = rollouts, ms, max(1, candidates)
        self.margin = margin
        self.expert = ExpertBot(seed)
        self.played = 0  # rollouts played over the bot's life (the ms mode's real count)

    def reseed(self, seed: SeedLike) -> None:
        super().reseed(seed)
        expert = getattr(self, "expert", None)
        if expert is not None:
            expert.reseed(seed)

    def __repr__(self) -> str:
        budget = f"ms={self.ms}" if self.ms is not None else f"rollouts={self.rollouts}"
        return f"MCBot({budget})"

    # ---- entry points ---------------------------------------------------------------------
    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Without the engine there is nothing to roll out on: the expert's decision."""
        return self.expert.act(view, legal)

    def act_fast(self, game: Game, seat: int, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        info = Info.from_game(game, seat)
        cands = self._candidates(info, legal)
        if len(cands) == 1:
            return cands[0]
        return self._search(game, seat, cands)

    # ---- search ---------------------------------------------------------------------------
    def _candidates(self, info: Info, legal: Sequence[Action]) -> list[Action]:
        """The expert's pick first, then its next best alternatives (at most ``candidates``)."""
        pick = self.expert.decide(info, legal)
        if info.phase not in ("turn", "claim", "rob") or pick.kind == "hu":
            return [pick]
        if any(a.kind == "hu" for a in legal):
            return [pick]
        out = [pick]
        if info.phase == "turn":
            discards = [a for a in legal if a.kind == "discard" and a.tile < T.N_KINDS]
            if len(discards) == len([a for a in legal if a.kind == "discard"]) and discards:
                scored = self.expert.score_discards(info, [a.tile for a in discards])
                order = sorted(range(len(discards)), key=lambda i: -scored[i][1])
                out += [discards[i] for i in order]
            out += [a for a in legal if a.kind in ("gang", "declare", "niu")]
        else:
            out += [a for a in legal if a.kind == "pass"]
            out += [a for a in legal if a.kind in ("peng", "gang")]
            out += [a for a in legal if a.kind == "chi"][:1]
        unique: list[Action] = []
        for a in out:
            if a not in unique:
                unique.append(a)
        return unique[: self.candidates]

    def _search(self, game: Game, seat: int, cands: list[Action]) -> Action:
        """Play worlds within the budget; an alternative replaces the expert's pick (the first
        candidate) only when its mean gain over it, paired world by world, is more than
        ``margin`` standard errors above zero (rollouts are noisy: a bare argmax of a few
        dozen of them overruled good decisions by luck, measurably: 1 standard error lost
        to the expert in lipu and qingdao)."""
        gain = [0.0] * len(cands)  # sums of (candidate - first) per world, and their squares
        gain2 = [0.0] * len(cands)
        worlds = 0
        rng = self.rng
        deadline = time.perf_counter() + self.ms / 1000 if self.ms is not None else None
        limit = max(2, (self.rollouts or 0) // len(cands))
        saved = Snapshot(game)
        while True:
            world_seed, *seeds = rng.integers(0, 2**32, size=game.n + 1).tolist()
            scores = [
                rollout(determinize(saved.copy(), seat, world_seed), seat, action, seeds)
                for action in cands  # one world, played once per candidate
            ]
            for i in range(1, len(cands)):
                d = scores[i] - scores[0]
                gain[i] += d
                gain2[i] += d * d
            worlds += 1
            self.played += len(cands)
            if deadline is not None:
                if time.perf_counter() >= deadline and worlds >= 2:
                    break
            elif worlds >= limit:
                break
        best, best_mean = 0, 0.0
        for i in range(1, len(cands) if worlds >= MIN_WORLDS else 1):
            mean = gain[i] / worlds
            var = max(gain2[i] / worlds - mean * mean, 0.0) / (worlds - 1)
            if mean > best_mean and mean > self.margin * math.sqrt(var):
                best, best_mean = i, mean
        return cands[best]


class Snapshot:
    """A game pickled once, copied by unpickling (about 4x faster than ``copy.deepcopy``);
    the variant and options stay the same objects (the engine caches by their identity)."""

    def __init__(self, game: Game) -> None:
        self._shared = [game.variant, game.opts]
        ids = {id(o): i for i, o in enumerate(self._shared)}
        buf = io.BytesIO()
        _Pickler(buf, ids).dump(game)
        self._data = buf.getvalue()

    def copy(self) -> Game:
        """A fresh, independent copy of the game as it was."""
        return _Unpickler(io.BytesIO(self._data), self._shared).load()  # type: ignore[no-any-return]


class _Pickler(pickle.Pickler):
    def __init__(self, buf: io.BytesIO, ids: dict[int, int]) -> None:
        super().__init__(buf, protocol=pickle.HIGHEST_PROTOCOL)
        self._ids = ids

    def persistent_id(self, obj: Any) -> int | None:
        return self._ids.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, buf: io.BytesIO, shared: list[Any]) -> None:
        super().__init__(buf)
        self._shared = shared

    def persistent_load(self, pid: Any) -> Any:
        return self._shared[pid]


def determinize(game: Game, seat: int, seed: int) -> Game:
    """``game`` changed in place (give it a copy) so that every tile ``seat`` cannot see is
    shuffled, by ``seed``, among the places that hold one: other seats' concealed hands (not
    a hand shown face up, 荣成 明搂), the undrawn wall (flowers keep their places: they never
    enter a concealed hand) and a hidden 宝. Other seats' answers in an open claim window
    become ``pass`` (their real options came from their real hands). Returns ``game``."""
    g = game
    shown = _shown_hands(g)
    others = [s for s in range(g.n) if s != seat and s not in shown]
    pool: list[int] = []
    for s in others:
        pool += T.from_counts(g.seats[s].hand)
    wall = g.wall
    order = wall.tiles
    flower = g.is_flower  # (宿松: 中发白 too)
    slots = [i for i in range(wall.head, wall.tail) if not flower[order[i]]]
    pool += [order[i] for i in slots]
    hidden = list(g.hidden_indicators)
    pool += hidden
    random.Random(seed).shuffle(pool)
    k = 0
    for s in others:
        st = g.seats[s]
        n = sum(st.hand)
        fresh = bytearray(T.N_KINDS)
        for t in pool[k : k + n]:
            fresh[t] += 1
        k += n
        st.hand[:] = fresh
        g._hand_changed(s)
    for i in slots:
        order[i] = pool[k]
        k += 1
    g.wall = Wall(order, wall.head, wall.tail, wall.kept, wall.reserve)
    if hidden:
        new = pool[k : k + len(hidden)]
        if g.extra.get("joker_kind", -1) == hidden[0]:
            g.extra["joker_kind"] = new[0]
        g.hidden_indicators = new
    if g.phase in ("claim", "rob", "fenzhang"):
        for s in list(g.pending):
            if s != seat and PASS in g.pending[s]:
                g.pending[s] = [PASS]
                if s in g.decisions:
                    g.decisions[s] = PASS
    g._forget_legal()
    return g


def _shown_hands(game: Game) -> set[int]:
    """Seats whose concealed hand every seat sees (a public ``hand`` in the variant's state)."""
    public = game.variant.public_state(game)
    ting = public.get("ting") if isinstance(public, dict) else None
    if not isinstance(ting, list):
        return set()
    return {s for s, e in enumerate(ting) if isinstance(e, dict) and "hand" in e}


def rollout(g: Game, seat: int, action: Action, seeds: list[int]) -> int:
    """``seat``'s final score after it plays ``action`` in ``g`` (changed: a copy) and greedy
    bots seeded ``seeds`` play every seat to the end of the hand."""
    bots = [GreedyBot(s) for s in seeds]
    try:
        g.apply(seat, action)
        steps = 0
        while not g.is_over and steps < MAX_ROLLOUT_ACTIONS:
            s = g.first_to_act()
            g.apply(s, bots[s].act_fast(g, s, g.legal_actions(s)))
            steps += 1
    except Exception:  # a sampled world the engine cannot go on with: scored as it stands
        FAILED[0] += 1
    return int(g.scores[seat])


FAILED = [0]
"""Rollouts abandoned on an engine error (a determinization the rules reject); should stay 0."""
