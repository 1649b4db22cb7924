"""Per-hand records of a simulation as Parquet (``simulate(out=...)``), and exact replay.

One row per hand: enough to rebuild the hand with the engine (variant, players, options,
wall, dealer, carry and every action) plus what happened (wins with their patterns,
payments, scores) for analysis without replaying. Rows are written in hand order by the
process that called ``simulate`` (workers send their chunk's rows back as Arrow tables), so
the file is the same whatever the backend. Needs pyarrow (the "dask" extra:
``pip install ".[dask]"`` from a checkout).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .. import tiles as T
from .._extras import install_hint
from ..errors import InvalidOptionError, clip

if TYPE_CHECKING:
    import pyarrow as pa

    from ..engine.game import Game

FORMAT = "mjcore-hands/1"


def require_pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        hint = install_hint("dask", "pyarrow")
        raise ImportError("per-hand records need pyarrow: " + hint) from None
    return pyarrow


def schema() -> pa.Schema:
    pa = require_pyarrow()
    win = pa.struct(
        [
            ("seat", pa.int8()),
            ("tile", pa.string()),
            ("how", pa.string()),
            ("from_seat", pa.int8()),
            ("patterns", pa.list_(pa.string())),
            ("fan", pa.int32()),
            ("points", pa.int64()),
        ]
    )
    payment = pa.struct(
        [
            ("payer", pa.int8()),
            ("payee", pa.int8()),
            ("amount", pa.int64()),
            ("reason", pa.string()),
        ]
    )
    return pa.schema(
        [
            ("hand", pa.int64()),
            ("variant", pa.string()),
            ("players", pa.int8()),
            ("options", pa.string()),  # JSON of every option, defaults included
            ("run_seed", pa.string()),  # decimal: a run seed may exceed 64 bits
            ("wall_seed", pa.int64()),
            ("wall", pa.list_(pa.uint8())),  # tile kinds in draw order
            ("dealer", pa.int8()),
            ("carry", pa.string()),  # JSON
            ("bots", pa.list_(pa.string())),  # label of the bot at each seat
            ("action_seats", pa.list_(pa.int8())),
            ("actions", pa.list_(pa.string())),
            ("wins", pa.list_(win)),
            ("payments", pa.list_(payment)),
            ("scores", pa.list_(pa.int64())),
            ("exhausted", pa.bool_()),
        ]
    )


class HandRows:
    """Columns of the hands of one chunk, built as they finish."""

    def __init__(self) -> None:
        self.cols: dict[str, list[Any]] = {name: [] for name in schema().names}

    def add(self, index: int, game: Game, run_seed: int, labels: Sequence[str]) -> None:
        c = self.cols
        c["hand"].append(index)
        c["variant"].append(game.variant.name)
        c["players"].append(game.n)
        c["options"].append(json.dumps(game.opts.to_dict(), sort_keys=True))
        c["run_seed"].append(str(run_seed))
        c["wall_seed"].append(game.seed)
        c["wall"].append(game.wall.tiles)
        c["dealer"].append(game.dealer)
        c["carry"].append(json.dumps(game.carry, sort_keys=True))
        c["bots"].append(list(labels))
        c["action_seats"].append([s for s, _ in game.history])
        c["actions"].append([str(a) for _, a in game.history])
        c["wins"].append(
            [
                {
                    "seat": w.seat,
                    "tile": T.NOTATION[w.tile],
                    "how": w.how,
                    "from_seat": w.from_seat,
                    "patterns": w.breakdown.ids,
                    "fan": w.breakdown.fan,
                    "points": w.breakdown.points,
                }
                for w in game.wins
            ]
        )
        c["payments"].append(
            [
                {"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason}
                for p in game.settlement
            ]
        )
        c["scores"].append(game.scores)
        c["exhausted"].append(game.exhausted)

    def __len__(self) -> int:
        return len(self.cols["hand"])

    def table(self) -> pa.Table:
        pa = require_pyarrow()
        return pa.table(self.cols, schema=schema())


class HandWriter:
    """Appends chunk tables to one Parquet file (memory holds one chunk at a time)."""

    def __init__(self, path: str | os.PathLike[str], metadata: dict[str, Any]) -> None:
        pa = require_pyarrow()
        import pyarrow.parquet as pq

        meta = {b"mjcore": json.dumps({"format": FORMAT, **metadata}).encode()}
        self.path = os.fspath(path)
        try:
            self._writer = pq.ParquetWriter(
                local_path(path), schema().with_metadata(meta), compression="zstd"
            )
        except OSError as exc:
            raise InvalidOptionError(f"out: cannot write {self.path!r}: {exc}") from None
        self._pa = pa

    def write(self, table: pa.Table | None) -> None:
        if table is not None and table.num_rows:
            self._writer.write_table(table.replace_schema_metadata(self._writer.schema.metadata))

    def close(self) -> None:
        self._writer.close()


def local_path(path: str | os.PathLike[str]) -> str:
    """``path`` as an absolute local path: pyarrow reads a relative name with a colon
    (``run:1.parquet``) as a URI."""
    return os.path.abspath(os.fspath(path))


# ---- reading and replay -----------------------------------------------------------------------
def read_hand(path: str | os.PathLike[str], hand: int) -> dict[str, Any]:
    """The record of hand ``hand`` (its ``hand`` column value) as a dict."""
    require_pyarrow()
    import pyarrow.parquet as pq

    if isinstance(hand, bool) or not isinstance(hand, int) or hand < 0:
        raise InvalidOptionError(f"hand must be a non-negative integer, got {clip(hand)}")
    try:
        table = pq.read_table(local_path(path), filters=[("hand", "=", hand)])
    except FileNotFoundError:
        raise InvalidOptionError(f"no such file: {os.fspath(path)!r}") from None
    except Exception as exc:  # pyarrow raises ArrowInvalid & co for a file that is no record
        raise InvalidOptionError(f"{os.fspath(path)!r} is not a hands file: {exc}") from None
    if table.num_rows == 0:
        raise InvalidOptionError(f"hand {hand} is not in {os.fspath(path)!r}{_hands_in(path)}")
    return {name: table.column(name)[0].as_py() for name in table.column_names}


def _hands_in(path: str | os.PathLike[str]) -> str:
    """``"; its hands are 0..N"`` (the recorded hand numbers' range) for an error message."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    column = pq.read_table(local_path(path), columns=["hand"]).column("hand")
    if len(column) == 0:
        return "; it holds no hands"
    low, high = (v.as_py() for v in pc.min_max(column).values())
    return f"; its hands are {low}..{high}"


def rebuild(record: dict[str, Any]) -> Game:
    """A fresh game at the deal of a recorded hand (the same wall, dealer, options, carry)."""
    from ..variants import get_variant

    return get_variant(record["variant"]).new_game(
        players=record["players"],
        options=json.loads(record["options"]),
        seed=record["wall_seed"],
        wall=record["wall"],
        dealer=record["dealer"],
        carry=json.loads(record["carry"]) or None,
    )


def replay(record: dict[str, Any]) -> Iterator[tuple[int, str, list[dict[str, Any]], Game]]:
    """Apply the recorded actions one by one: (seat, action, new events, game) per move."""
    game = rebuild(record)
    for seat, action in zip(record["action_seats"], record["actions"], strict=True):
        before = len(game.event_log)
        game.apply(seat, action)
        yield seat, action, game.event_log.since(before), game


def replay_lines(record: dict[str, Any]) -> Iterator[str]:
    """The hand move by move as text; the last line checks the stored outcome."""
    game = rebuild(record)
    bots = record["bots"]
    yield (
        f"hand {record['hand']} of {record['variant']} (run seed {record['run_seed']}, "
        f"wall seed {record['wall_seed']}), dealer seat {record['dealer']}, "
        f"options {record['options']}"
    )
    events = game.events
    for s, hand in enumerate(events[0]["hands"]):
        yield f"  seat {s} ({bots[s]}): {hand}"
    for ev in events[1:]:
        yield "        " + _event_text(ev)
    n = 0
    for seat, action, events, game in replay(record):  # noqa: B007 (game: the last state)
        n += 1
        yield f"{n:4d}  seat {seat}: {action}"
        for ev in events:
            text = _event_text(ev)
            if text:
                yield "        " + text
    ok = game.is_over and game.scores == record["scores"]
    yield f"scores {game.scores}; replay {'reproduces' if ok else 'DIFFERS FROM'} the record"
    if not ok:
        raise InvalidOptionError(
            f"replay of hand {record['hand']} does not reproduce the recorded scores "
            f"{record['scores']} (got {game.scores}); was it written by another mjcore version?"
        )


def _event_text(ev: dict[str, Any]) -> str:
    kind = ev["type"]
    if kind == "hu":
        pats = "+".join(p["id"] for p in ev.get("patterns", []))
        return (
            f"hu: seat {ev['seat']} on {ev['tile']} ({ev['how']}"
            f"{', from seat ' + str(ev['from_seat']) if ev.get('from_seat', -1) >= 0 else ''})"
            f" {pats}, {ev.get('points')} per payer"
        )
    if kind == "pay":
        return f"pay: seat {ev['payer']} -> seat {ev['payee']} {ev['amount']} ({ev['reason']})"
    if kind == "discard":
        return ""  # the action line already says it
    if kind == "draw":
        return f"seat {ev['seat']} draws {_tile(ev['tile'])} ({ev['how']})"
    rest = ", ".join(
        f"{k}={_tile(v) if k == 'tile' else v}" for k, v in ev.items() if k not in ("type", "seq")
    )
    return f"{kind}: {rest}"


def _tile(value: Any) -> str:
    is_kind = isinstance(value, int) and 0 <= value < len(T.NOTATION)
    return T.NOTATION[value] if is_kind else str(value)
