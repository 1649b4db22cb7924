"""Observation encoding: what one seat may know, written into a preallocated float32 vector.

The vector is ``planes`` (``rows × 42``, one column per tile kind ``1m..7z, 1f..8f``) followed
by ``scalars``; :meth:`Encoder.layout` names every row and scalar (docs/rl.md has the table).
Seats are relative: block ``r`` describes the seat ``r`` places after the observer (0: itself).
The encoder reads the Game and SeatState attributes directly (no ``view()`` dict) and reads
nothing a seat may not know: other seats' concealed tiles and drawn tiles, the wall order, a
face-down indicator (荣成 半暗宝) and another seat's 暗杠 kind (unless the variant shows it) are
never looked at.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import tiles as T
from ..engine.rules import ActionTable, Rules
from ..engine.variant import Variant
from . import _fast
from .actions import resolve_rules

if TYPE_CHECKING:
    from ..engine.game import Game

K = T.N_ALL_KINDS  # 42 columns
SEATS = 4  # seat blocks (always 4: the shape does not depend on the player count)
LAST_DISCARDS = 6  # the last K discards of each seat, as one-hot rows (most recent first)
SCORE_SCALE = 0.01  # scores are written ×0.01
BOUND = 1e4  # the observation space's bound (scores ±1e6 points)
PHASES = ("turn", "choose", "claim", "rob", "fenzhang", "waiting", "over")
DRAW_HOWS = ("deal", "wall", "replacement", "claim", "fenzhang")

OWN_ROWS = (
    ("hand", "own concealed tiles (count 0–4 per kind)"),
    ("held_flowers", "own flowers held in hand, not set aside (宿松 飘)"),
    ("drawn", "own drawn tile on own turn (one-hot)"),
    ("claim_tile", "the tile this seat is asked about (claim/rob window, one-hot)"),
    ("pass_hu", "own 过手胡 locks (same-kind rule): the points passed on each locked kind"),
    ("pass_peng", "own 过手碰 locks: kinds it passed a peng on"),
    ("no_discard", "kinds it may not discard this turn (吃后不能打 after its chi)"),
    ("no_bugang", "own pung kinds it may never upgrade (补杠)"),
)
SEAT_ROWS = (
    ("chi", "tiles of the seat's chows (count per kind)"),
    ("peng", "the seat's pungs (3 on the kind)"),
    ("minggang", "the seat's 直杠/补杠 (4 on the kind)"),
    ("angang", "the seat's 暗杠 (4 on the kind; others' only if the variant shows them)"),
    ("niu", "tiles of the seat's 扭 groups (青岛)"),
    ("river", "tiles in the seat's river (count per kind; claimed ones removed)"),
    *(
        (f"last_discard_{i}", f"the seat's {i + 1}. most recent discard (one-hot)")
        for i in range(LAST_DISCARDS)
    ),
    ("flowers", "flowers the seat set aside (count per kind)"),
    ("won_tiles", "tiles the seat has won on (血战)"),
    ("revealed_hand", "the seat's concealed hand if shown (荣成 明搂; own seat: empty)"),
    ("shown_waits", "the seat's waits if shown (荣成 亮听, one per kind)"),
)
PUBLIC_ROWS = (
    ("indicators", "face-up indicator tiles (青岛 混 indicator, 荣成 宝 once turned)"),
    ("joker", "the wildcard kind once public (青岛 混, 荣成 宝; one-hot)"),
    ("set_aside", "tiles exposed in 分张"),
    ("horses", "抓马 horse tiles"),
)


def _check_out(out: Any, size: int, dtype: type) -> None:
    """``out`` must be a writable C-contiguous ``dtype[size]`` array (the writers do not
    check their indices)."""
    if not (
        isinstance(out, np.ndarray)
        and out.shape == (size,)
        and out.dtype == dtype
        and out.flags.c_contiguous
        and out.flags.writeable
    ):
        raise ValueError(f"out must be a writable C-contiguous {np.dtype(dtype)}[{size}] array")


@dataclasses.dataclass(frozen=True)
class Field:
    """One named part of the observation: ``size`` entries from ``offset``."""

    name: str
    offset: int
    size: int
    doc: str


class Encoder:
    """Writes the observation of one seat of a game into a float32 vector (fixed length for a
    variant and its options) and the legal-action mask into an int8 vector."""

    def __init__(
        self, variant: Rules | Variant | str, options: dict[str, Any] | None = None
    ) -> None:
        self.rules = rules = resolve_rules(variant, options)
        self.variant = variant = rules.variant
        self.table: ActionTable = rules.actions
        self.opts = rules.opts
        self.declares = rules.declarations
        self.choice_names = tuple(
            dict.fromkeys(a.name for a in self.table.actions if a.kind == "choose")
        )
        if variant.choice_locks:  # 长跑 keeps its value under the locked name
            self.choice_names = tuple(n for n in self.choice_names if n not in variant.choice_locks)
        self.show_angang = variant.angang_public
        self.total_tiles = len(rules.tile_set)
        n_rows = len(OWN_ROWS) + SEATS * len(SEAT_ROWS) + len(PUBLIC_ROWS)
        self.n_rows = n_rows
        self.seat_row0 = len(OWN_ROWS)
        self.public_row0 = self.seat_row0 + SEATS * len(SEAT_ROWS)
        self.n_seat_rows = len(SEAT_ROWS)
        fields: list[Field] = []
        pos = 0

        def add(name: str, size: int, doc: str) -> int:
            nonlocal pos
            fields.append(Field(name, pos, size, doc))
            pos += size
            return pos - size

        for name, doc in OWN_ROWS:
            add(f"plane.{name}", K, doc)
        for r in range(SEATS):
            for name, doc in SEAT_ROWS:
                add(f"plane.seat{r}.{name}", K, doc)
        for name, doc in PUBLIC_ROWS:
            add(f"plane.{name}", K, doc)
        self.s_phase = add("phase", len(PHASES), "phase as this seat sees it: " + "/".join(PHASES))
        self.s_to_act = add("to_act", 1, "1 if this seat must decide now")
        self.s_draw_how = add("draw_how", len(DRAW_HOWS), "own turn: how its tile came")
        self.s_claim_from = add("claim_from", SEATS, "asked about a claim: the discarder")
        self.s_wall = add("wall", 3, "wall remaining, live (÷ tile set), hidden indicators")
        self.s_first = add(
            "first_go_around", 1, "no claim yet and the dealer's 上家 has not discarded"
        )
        self.s_locks = add("pass_hu_any", 1, "own 过胡 lock on every discard win (青岛's rule)")
        self.seat_scalars = 0
        self.s_seat = pos
        per_seat = (
            ("present", 1, "the seat is at the table"),
            ("score", 1, f"score so far ×{SCORE_SCALE}"),
            ("tiles", 1, "tiles in hand ÷ 14"),
            ("dealer", 1, "the seat deals"),
            ("wind", SEATS, "seat wind: places after the dealer (one-hot)"),
            ("current", 1, "the seat's turn (game.current)"),
            ("sealed", 1, "封胡 (荔浦)"),
            ("hidden_gangs", 1, "暗杠 not shown"),
            ("wins", 1, "wins so far (血战)"),
            ("declared", len(self.declares), "declaration: " + ("/".join(self.declares) or "-")),
            (
                "choices",
                2 * len(self.choice_names),
                "per choice " + ("/".join(self.choice_names) or "-") + ": made, value",
            ),
            ("claimed_from", SEATS, "chi/peng/直杠 taken from each seat (relative)"),
            ("liable", SEATS, "liability relation (互包, 荔浦) with each seat (relative)"),
            ("hua", 1, "宿松 public 花: flowers set aside and melds (飘: 0)"),
            ("sanbi", SEATS, "宿松 吃三比 relation with each seat (relative)"),
        )
        self.per_seat: dict[str, list[int]] = {}
        for r in range(SEATS):
            for name, size, doc in per_seat:
                off = add(f"seat{r}.{name}", size, doc)
                self.per_seat.setdefault(name, []).append(off)
        self.seat_stride = self.per_seat["present"][1] - self.per_seat["present"][0]
        self.s_options = add("options", 0, "the options (bools 0/1, choices one-hot)")
        self.option_values = self._encode_options(fields)
        pos = self.s_options + len(self.option_values)
        self.size = pos
        self.fields = tuple(fields)
        self._check_rows()
        self.spec = _fast.Spec(self)
        self._planes = _fast.SeatPlanes()

    def _encode_options(self, fields: list[Field]) -> np.ndarray:
        vals: list[float] = []
        for f in dataclasses.fields(self.opts):
            value = getattr(self.opts, f.name)
            choices = f.metadata.get("choices")
            if isinstance(value, bool):
                vals.append(float(value))
            elif choices:
                vals += [float(value == c) for c in choices]
            else:
                vals.append(float(value))
        fields[-1] = Field("options", self.s_options, len(vals), fields[-1].doc)
        return np.array(vals, dtype=np.float32)

    # ------------------------------------------------------------------ layout
    def layout(self) -> tuple[Field, ...]:
        """Every field of the observation, in order."""
        return self.fields

    def low_high(self) -> tuple[np.ndarray, np.ndarray]:
        low = np.zeros(self.size, dtype=np.float32)
        high = np.full(self.size, BOUND, dtype=np.float32)
        for off in self.per_seat["score"]:
            low[off] = -BOUND
        return low, high

    def _check_rows(self) -> None:
        """The row numbers the compiled writers use are this layout's (mjcore/rl/_fast.py)."""
        rows = _fast.rows()
        for names in (OWN_ROWS, SEAT_ROWS, PUBLIC_ROWS):
            for i, (name, _) in enumerate(names):
                assert rows.get(name, i) == i, name
        assert PHASES == tuple(_fast.PHASE_INDEX) and DRAW_HOWS == tuple(_fast.DRAW_INDEX)
        self.waits_row = rows["shown_waits"]

    # ------------------------------------------------------------------ encoding
    def encode(self, game: Game, seat: int, out: np.ndarray) -> None:
        """Write seat's observation into ``out`` (a C-contiguous float32[size])."""
        _check_out(out, self.size, np.float32)
        self._planes.forget(game)  # (any game, changed in any way: its seats read afresh)
        _fast.encode(self.spec, self._planes, game, seat, out)

    def shown_waits(self, game: Game, seat: int, out: np.ndarray) -> None:
        """The waits another seat shows every seat (``Variant.shown_waits``: 荣成 亮听)."""
        n = game.n
        for r in range(1, n):
            ss = game.seats[(seat + r) % n]
            if ss.declared:
                mask = self.variant.shown_waits(game, ss)
                row = (self.seat_row0 + r * self.n_seat_rows + self.waits_row) * K
                for t in range(T.N_KINDS):
                    if mask >> t & 1:
                        out[row + t] = 1

    def mask(self, game: Game, seat: int, out: np.ndarray) -> None:
        """Write the legal-action mask of ``seat`` into ``out`` (int8[actions])."""
        _check_out(out, len(self.table), np.int8)
        _fast.fill_mask(self.spec, game, seat, out)

    def observation(self, game: Game, seat: int) -> np.ndarray:
        """A new observation vector of ``seat``."""
        out = np.empty(self.size, dtype=np.float32)
        self.encode(game, seat, out)
        return out

    def action_mask(self, game: Game, seat: int) -> np.ndarray:
        """A new legal-action mask of ``seat``."""
        out = np.empty(len(self.table), dtype=np.int8)
        self.mask(game, seat, out)
        return out
