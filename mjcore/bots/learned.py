"""LearnedBot (``learned``): a small trained network, run with numpy alone.

The policy scores every legal action of the variant's action table (``mjcore.rl``) from

* the seat's observation (``mjcore.rl`` encoder: only what the seat may know), through a
  two-layer ReLU network (``H`` units) to one logit per action of the table; and
* a few features of each legal action from the native hand analysis the reference bots use:
  for a discard, the shanten after it (step above the best), its ukeire over *unseen* tiles,
  the live waits of a ready discard, its connectedness and a danger estimate; for a claim or
  a gang, the shanten change it brings; a win, a pass, a declaration. Each feature's weight
  is itself a function of the network's hidden state (a bilinear term), so, say, danger can
  weigh more when the table is threatening.

It was trained by imitation of the ``expert`` bot on self-play deals of mjcore's own games
(``tools/train_learned.py``: data, network and measured strength in docs/bots.md); the
weights live in ``learned_weights.npz`` beside this module, one network per variant, trained
at the variant's default options. Under other options the inputs are matched by field name
and the outputs by action text (an action the network never saw is scored by its features).

Decisions are the arg-max (``learned:temperature=T`` samples from the softmax at
temperature ``T`` with the bot's seeded stream instead). It reads nothing its seat may not
know (tests/test_learned_bot.py swaps hidden tiles and checks every decision stays).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import tiles as T
from .._core import discard_features, legal_logits, mlp_forward
from ..engine.actions import Action
from .base import BaseBot, SeedLike
from .expert import Info

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.rules import Rules

WEIGHTS = os.path.join(os.path.dirname(__file__), "learned_weights.npz")
"""The shipped weights file (``tools/train_learned.py`` writes it)."""

FEATURES = (
    "discard",  # a discard of a concealed tile
    "flower",  # a held flower's discard (飘花): first, as the other bots play it
    "step",  # shanten after the discard minus the best discard's (capped at 3)
    "best",  # the discard keeps the least shanten
    "ukeire",  # unseen tiles that lower the shanten after it ÷ 20 (at the least shanten)
    "live",  # unseen copies of the waits after a ready discard ÷ 8
    "danger",  # danger of the tile to threatening seats (the expert's estimate)
    "conn",  # the tile's connectedness in hand ÷ 8
    "hu",
    "pass",
    "claim",  # a chi / peng / gang on a discard
    "turn_gang",  # a gang on its own turn
    "delta",  # the claim's or gang's shanten change (negative: better)
    "declare",
    "ready",  # the best discard leaves the hand ready (for declarations)
)
F = len(FEATURES)
_TURN_PHASES = ("turn",)
_CLAIM_PHASES = ("claim", "rob")


(
    _DISCARD, _FLOWER, _STEP, _BEST, _UKEIRE, _LIVE, _DANGER, _CONN, _HU, _PASS,
    _CLAIM, _TURN_GANG, _DELTA, _DECLARE, _READY,
) = range(F)  # fmt: skip
_DISCARD_COLUMNS = (_DISCARD, _STEP, _BEST, _UKEIRE, _LIVE, _CONN)  # (discard_features' order)


def action_features(game: Game, seat: int, legal: Sequence[Action]) -> np.ndarray:
    """float32[len(legal), F]: the features of each legal action (see :data:`FEATURES`).

    The discards' features come from one native call (``_core.discard_features``)."""
    out = np.zeros((len(legal), F), dtype=np.float32)
    info = Info.from_game(game, seat)
    hand = info.hand
    counts = hand.counts
    tiles: list[int] = []
    rows: list[int] = []
    others = False
    for i, a in enumerate(legal):
        kind = a.kind
        if kind == "discard":
            t = a.tile
            if t >= T.N_KINDS or not counts[t]:
                out[i, _FLOWER] = 1.0
            else:
                tiles.append(t)
                rows.append(i)
        elif kind == "hu":
            out[i, _HU] = 1.0
        elif kind == "pass":
            out[i, _PASS] = 1.0
        else:
            others = True
    best = 99
    if tiles:
        best = discard_features(
            counts, hand.joker_kind, hand.bits, info.unseen, tiles, rows, out, _DISCARD_COLUMNS
        )
        if info.threat > 0:
            for i, t in zip(rows, tiles, strict=True):
                out[i, _DANGER] = info.danger(t)
    if others:
        _other_features(game, legal, out, hand, info.phase, best, bool(tiles))
    return out


def _other_features(
    game: Game, legal: Sequence[Action], out: np.ndarray, hand: Any, phase: str,
    best: int, discards: bool,
) -> None:  # fmt: skip
    """The declarations', claims' and gangs' features (rows of ``out``)."""
    for i, a in enumerate(legal):
        kind = a.kind
        if kind == "declare":
            out[i, _DECLARE] = 1.0
            out[i, _READY] = float(best <= 0)
        elif kind in ("chi", "peng", "gang"):
            if phase in _CLAIM_PHASES:
                tile = game.claim[1]
                now = hand.shanten_without({})
                if kind == "gang":
                    after = hand.shanten_without({tile: 3})
                elif kind == "peng":
                    after = hand.best_after_discard({tile: 2})
                else:
                    after = hand.best_after_discard({t: 1 for t in a.tiles if t != tile})
                out[i, _CLAIM] = 1.0
            elif phase in _TURN_PHASES and kind == "gang":
                take = 4 if hand.counts[a.tile] == 4 else 1
                now = best if discards else hand.shanten_without({})
                after = hand.shanten_without({a.tile: take})
                out[i, _TURN_GANG] = 1.0
            else:
                continue
            out[i, _DELTA] = max(min(after - now, 2), -2)


class Policy:
    """One variant's network, matched to an encoder's layout and action table."""

    def __init__(self, arrays: dict[str, np.ndarray], rules: Rules) -> None:
        from ..rl.encoding import Encoder

        self.encoder = Encoder(rules)
        offsets = {f.name: (f.offset, f.size) for f in self.encoder.layout()}
        cols = []
        for name, pos in zip(arrays["input_fields"], arrays["input_pos"], strict=True):
            off, size = offsets.get(str(name), (-1, 0))
            cols.append(off + int(pos) if 0 <= pos < size else -1)
        cols_arr = np.array(cols, dtype=np.int64)
        present = np.flatnonzero(cols_arr >= 0)
        f32 = np.float32
        # the first layer over the whole observation: a row per column, zero where unused
        self.w1 = np.zeros((self.encoder.size, arrays["w1"].shape[1]), dtype=f32)
        np.add.at(self.w1, cols_arr[present], arrays["w1"].astype(f32)[present])
        self.b1 = arrays["b1"].astype(f32)
        self.w2, self.b2 = arrays["w2"].astype(f32), arrays["b2"].astype(f32)
        self.c, self.cb = arrays["c"].astype(f32), arrays["cb"].astype(f32)
        w3, b3 = arrays["w3"].astype(f32), arrays["b3"].astype(f32)
        trained = {str(t): i for i, t in enumerate(arrays["actions"])}
        table = self.encoder.table
        rows = np.array([trained.get(t, -1) for t in table.texts], dtype=np.int64)
        self.w3 = np.where(rows[None, :] >= 0, w3[:, rows], 0).astype(f32)  # (H, table)
        self.b3 = np.where(rows >= 0, b3[rows], 0).astype(f32)
        self.n_actions = len(table)
        # one product for the action logits and the feature weights: [w3 | c], [b3 | cb]
        self.w_out = np.ascontiguousarray(np.hstack([self.w3, self.c]))
        self.b_out = np.concatenate([self.b3, self.cb])
        self.table = table

    def logits(self, obs: np.ndarray, legal_idx: np.ndarray, feats: np.ndarray) -> np.ndarray:
        """The legal actions' logits from the observation and their features."""
        z = np.empty(len(self.b_out), dtype=np.float32)  # (a policy is shared: no scratch)
        mlp_forward(obs, self.w1, self.b1, self.w2, self.b2, self.w_out, self.b_out, z)
        out = np.empty(len(legal_idx), dtype=np.float32)
        legal_logits(z, self.n_actions, legal_idx, feats, out)
        return out


@functools.cache
def _weights(path: str) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


@functools.lru_cache(maxsize=64)
def policy_for(rules: Rules, path: str = WEIGHTS) -> Policy:
    """The (read-only, shared) policy of the rules' variant under their options."""
    arrays = _weights(path)
    prefix = f"{rules.name}/"
    mine = {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}
    if not mine:
        from ..errors import InvalidOptionError

        raise InvalidOptionError(f"the learned bot has no network for {rules.name!r}")
    return Policy(mine, rules)


def _encode(spec: Any, planes: Any, game: Game, seat: int, out: np.ndarray) -> None:
    """The compiled observation writer (imported on first use: mjcore.rl is optional)."""
    global _encode
    from ..rl._fast import encode

    _encode = encode  # type: ignore[assignment]
    encode(spec, planes, game, seat, out)


def _indices(spec: Any, legal: Sequence[Action], out: np.ndarray) -> None:
    """The compiled action-table lookup (imported on first use, as :func:`_encode`)."""
    global _indices
    from ..rl._fast import action_indices

    _indices = action_indices  # type: ignore[assignment]
    action_indices(spec, legal, out)


class LearnedBot(BaseBot):
    """A trained network over the seat's observation and the legal actions' features."""

    name = "learned"

    def __init__(self, seed: SeedLike = None, temperature: float = 0.0) -> None:
        super().__init__(seed)
        if not temperature >= 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        self.temperature = float(temperature)
        self._planes: Any = None  # this bot's SeatPlanes (the encoder's incremental cache)
        self._obs: np.ndarray | None = None
        self._rules: Any = None
        self._policy: Any = None

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise NotImplementedError(
            "the learned bot reads the engine (act_fast); a view carries no observation"
        )

    def act_fast(self, game: Game, seat: int, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        for a in legal:  # a win is always taken, as every reference bot (and the expert) does
            if a.kind == "hu":
                return a
        if game.rules is not self._rules:  # (the rules of this bot's game: looked up once)
            self._policy = policy_for(game.rules)
            self._rules = game.rules
        policy = self._policy
        return legal[self._pick(policy.logits(*self._inputs(policy, game, seat, legal)))]

    def _inputs(
        self, policy: Policy, game: Game, seat: int, legal: Sequence[Action]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        enc = policy.encoder
        if self._obs is None or self._obs.shape[0] != enc.size:
            self._obs = np.zeros(enc.size, dtype=np.float32)
            from ..rl._fast import SeatPlanes

            self._planes = SeatPlanes()
        _encode(enc.spec, self._planes, game, seat, self._obs)
        idx = np.empty(len(legal), dtype=np.int64)
        _indices(enc.spec, legal, idx)
        return self._obs, idx, action_features(game, seat, legal)

    def _pick(self, logits: np.ndarray) -> int:
        if self.temperature <= 0:
            return int(logits.argmax())
        z = (logits - logits.max()) / self.temperature
        p = np.exp(z)
        p /= p.sum()
        return int(self.rng.choice(len(p), p=p))
