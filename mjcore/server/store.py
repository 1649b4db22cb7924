"""Durable storage of rooms: configuration, seat tokens and the action log (SQLAlchemy Core).

A room is fully described by its configuration (variant, players, options, the private
match seed, seat kinds) and the ordered log of what happened in it: ``new_hand`` markers
and every applied action with its seat. Replaying the log through a fresh
:class:`~mjcore.engine.match.Match` restores the room exactly. The default database is a
SQLite file (WAL journal: a killed process loses nothing that was committed); any URL that
SQLAlchemy understands (``postgresql+psycopg://…``) works the same way.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("config", Text, nullable=False),  # JSON: variant, players, options, seed, seats …
    Column("created", Float, nullable=False),
    # The room's lease: the process serving it (None: free) until when (Unix time).
    Column("owner", String(64), nullable=True),
    Column("lease_until", Float, nullable=True),
    # When its last hand ended (rooms with max_hands); seat tokens expire a while after.
    Column("finished", Float, nullable=True),
)
# Columns newer than the first schema, added to older databases (NULL in old rows).
ADDED_COLUMNS = {"owner": "VARCHAR(64)", "lease_until": "FLOAT", "finished": "FLOAT"}

seats = Table(
    "seats",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=True),  # sha256 of the secret; None = not joined
    Column("name", String(64), nullable=False, default=""),
)

actions = Table(
    "actions",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True),  # position in the room's log, from 0
    Column("hand", Integer, nullable=False),
    Column("seat", Integer, nullable=False),  # −1 for a new_hand marker
    Column("action", String(64), nullable=False),  # "new_hand" or str(Action)
)


CHECKPOINT_SECONDS = 1.0
CHECKPOINT_STALE_S = 10.0  # no successful checkpoint for this long (while failing): unhealthy
WAL_TRUNCATE_BYTES = 16 * 2**20  # a write-ahead log this large is truncated, not just reused
WRITERS = 4  # writer threads (one for SQLite, whose writers take turns anyway)
CONNECT_TIMEOUT = 5  # seconds to reach a database server before a write counts as failed


class StoreError(Exception):
    """A write or read the database did not take; ``rooms`` are the room ids it concerned.
    ``conflict``: the database refused the rows (another process wrote those entries), so
    it is reachable and holds the truth.

    Its text is for the server's log: it may carry driver and SQL detail, never for clients.
    """

    def __init__(self, message: str, rooms: list[str], conflict: bool = False) -> None:
        super().__init__(message)
        self.rooms = rooms
        self.conflict = conflict


_INSERT_ACTION = insert(actions)  # built once: the hot path only binds parameters


@dataclass(frozen=True)
class Lease:
    """What :meth:`Store.acquire` found: whether the room exists and the lease was taken;
    if so, how many log entries are stored (a cached copy with as many is current); the
    lease's end (the other holder's when not taken)."""

    exists: bool
    taken: bool
    entries: int
    until: float


@dataclass
class StoredRoom:
    """One room as read back from the database."""

    room_id: str
    config: dict[str, Any]
    token_hashes: dict[int, str]
    names: dict[int, str]
    log: list[tuple[int, int, str]]  # (hand, seat, action)
    finished: float | None = None  # when its last hand ended (Unix time), if it did


def database_url(path_or_url: str) -> str:
    """A SQLAlchemy URL: anything with ``://`` as given, otherwise a SQLite file path."""
    return path_or_url if "://" in path_or_url else f"sqlite:///{path_or_url}"


class Store:
    """Synchronous storage. Room and seat changes commit at once; action log entries are
    buffered by :meth:`append` and committed together by :meth:`flush` (group commit: the
    server flushes before it acknowledges an action or shows anyone its consequences).
    """

    def __init__(self, path_or_url: str) -> None:
        url = database_url(path_or_url)
        # pre-ping: a pooled connection that died with a database restart is replaced, not used
        kwargs: dict[str, Any] = {"pool_pre_ping": True}
        if url.startswith("postgresql"):
            kwargs["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT}
        self.engine: Engine = create_engine(url, **kwargs)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        self._wal_path = f"{self.engine.url.database}-wal" if url.startswith("sqlite") else ""
        self.checkpoint_ok_at = time.time()  # the last successful checkpoint
        self.checkpoint_error: str | None = None  # the last checkpoint's failure, until one works
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        self._add_columns()
        self._log_conn: Connection | None = None  # one long-lived connection for the hot path
        self._pending: dict[str, list[dict[str, Any]]] = {}  # room id -> its unstored rows
        # Told of every commit of log entries: (seconds it took, whether it was stored);
        # called from writer threads too.
        self.on_commit: Callable[[float, bool], None] | None = None
        self._writers: ThreadPoolExecutor | None = None  # started on the first submit
        if url.startswith("sqlite"):
            # Checkpoints (the only fsyncs in WAL mode) run in a thread, not inside a commit
            # on the event loop, where one stalled every table for up to ~100 ms.
            self._start_checkpointer()

    def _add_columns(self) -> None:
        """A database made before leases and token expiry gets their columns (NULL: every
        room free, none finished)."""
        have = {c["name"] for c in inspect(self.engine).get_columns("rooms")}
        with self.engine.begin() as conn:
            for name, sql_type in ADDED_COLUMNS.items():
                if name not in have:
                    conn.exec_driver_sql(f"ALTER TABLE rooms ADD COLUMN {name} {sql_type}")

    # ---- leases: one process serves a room at a time ------------------------------------
    def acquire(self, room_id: str, owner: str, seconds: float) -> Lease:
        """Take or renew the room's lease for ``seconds`` if it is free, expired or already
        ``owner``'s (one transaction)."""
        now = time.time()
        free = or_(rooms.c.owner.is_(None), rooms.c.owner == owner, rooms.c.lease_until < now)
        with _failing_as_store_error([room_id]), self.engine.begin() as conn:
            taken = conn.execute(
                update(rooms)
                .where(rooms.c.id == room_id, free)
                .values(owner=owner, lease_until=now + seconds)
            ).rowcount
            if taken:
                count = select(func.count()).where(actions.c.room_id == room_id)
                return Lease(True, True, int(conn.execute(count).scalar_one()), now + seconds)
            row = conn.execute(select(rooms.c.lease_until).where(rooms.c.id == room_id)).first()
        return Lease(row is not None, False, 0, (row.lease_until or now) if row else now)

    def renew(self, owner: str, room_ids: list[str], seconds: float) -> set[str]:
        """Extend ``owner``'s leases of these rooms; the ids it still holds."""
        if not room_ids:
            return set()
        with _failing_as_store_error(room_ids), self.engine.begin() as conn:
            mine = rooms.c.id.in_(room_ids) & (rooms.c.owner == owner)
            conn.execute(update(rooms).where(mine).values(lease_until=time.time() + seconds))
            return {r.id for r in conn.execute(select(rooms.c.id).where(mine))}

    def release(self, owner: str, room_ids: list[str]) -> None:
        """Give these rooms' leases up (those ``owner`` holds)."""
        if not room_ids:
            return
        with _failing_as_store_error(room_ids), self.engine.begin() as conn:
            conn.execute(
                update(rooms)
                .where(rooms.c.id.in_(room_ids), rooms.c.owner == owner)
                .values(owner=None, lease_until=None)
            )

    def mark_finished(self, room_id: str, when: float) -> None:
        """Record when the room's last hand ended (the start of its tokens' last hour)."""
        with _failing_as_store_error([room_id]), self.engine.begin() as conn:
            conn.execute(
                update(rooms).where(rooms.c.id == room_id, rooms.c.finished.is_(None))
                .values(finished=when)
            )  # fmt: skip

    def lease_of(self, room_id: str) -> tuple[str | None, float | None]:
        """(owner, lease end) of a room as stored."""
        with _failing_as_store_error([room_id]), self.engine.connect() as conn:
            row = conn.execute(
                select(rooms.c.owner, rooms.c.lease_until).where(rooms.c.id == room_id)
            ).first()
        return (row.owner, row.lease_until) if row is not None else (None, None)

    # ---- SQLite's write-ahead log: checkpoints in a background thread ----------------------
    def _start_checkpointer(self) -> None:
        self._checkpointer = threading.Thread(
            target=self._checkpoints, name="mjcore-checkpointer", daemon=True
        )
        self._checkpointer.start()

    def wal_bytes(self) -> int:
        """The size of SQLite's write-ahead log file (0 without one)."""
        try:
            return os.path.getsize(self._wal_path) if self._wal_path else 0
        except OSError:
            return 0

    def _checkpoints(self) -> None:
        """Every CHECKPOINT_SECONDS: copy the log back into the database (PASSIVE: never
        waits for writers). A failure (a full disk) is recorded and retried, never the end of
        the thread; after one, and whenever the log has grown past WAL_TRUNCATE_BYTES, the
        checkpoint is TRUNCATE, which empties the log file once everything is copied."""
        conn: Connection | None = None
        while not self._stop.wait(CHECKPOINT_SECONDS):
            try:
                if conn is None:
                    conn = self.engine.connect()
                truncate = self.checkpoint_error is not None
                truncate = truncate or self.wal_bytes() > WAL_TRUNCATE_BYTES
                mode = "TRUNCATE" if truncate else "PASSIVE"
                row = conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})").first()
                conn.commit()
                if truncate and row is not None and row[0]:  # busy: not all copied yet
                    continue
                self.checkpoint_ok_at, self.checkpoint_error = time.time(), None
            except Exception as exc:  # noqa: BLE001 - recorded for /api/health, retried
                if self.checkpoint_error is None:
                    print(f"mjcore server: checkpoint failed: {type(exc).__name__}: {exc}",
                          file=sys.stderr)  # fmt: skip
                self.checkpoint_error = f"{type(exc).__name__}"
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.close()
                conn = None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def restart_background(self) -> list[str]:
        """Start again every background thread that died (the names of those restarted)."""
        if self._checkpointer is None or self._stop.is_set() or self._checkpointer.is_alive():
            return []
        self.checkpoint_error = self.checkpoint_error or "the checkpoint thread died"
        self._start_checkpointer()
        return ["checkpointer"]

    def background_status(self) -> dict[str, dict[str, Any]]:
        """Each background thread's health: the checkpointer's (SQLite) is alive and has
        checkpointed within CHECKPOINT_STALE_S, or has not failed since it last did."""
        if self._checkpointer is None:
            return {}
        alive = self._checkpointer.is_alive()
        fresh = time.time() - self.checkpoint_ok_at < CHECKPOINT_STALE_S
        return {
            "checkpointer": {
                "ok": alive and (self.checkpoint_error is None or fresh),
                "alive": alive,
                "error": self.checkpoint_error,
                "last_ok": self.checkpoint_ok_at,
                "wal_bytes": self.wal_bytes(),
            }
        }

    def create_room(self, room_id: str, config: dict[str, Any], created: float) -> None:
        with _failing_as_store_error([room_id]), self.engine.begin() as conn:
            conn.execute(
                insert(rooms).values(id=room_id, config=json.dumps(config), created=created)
            )
            conn.execute(
                insert(seats),
                [
                    {"room_id": room_id, "seat": s, "token_hash": None, "name": ""}
                    for s in range(config["players"])
                ],
            )

    def set_token(self, room_id: str, seat: int, token_hash: str, name: str) -> None:
        with _failing_as_store_error([room_id]), self.engine.begin() as conn:
            conn.execute(
                update(seats)
                .where(seats.c.room_id == room_id, seats.c.seat == seat)
                .values(token_hash=token_hash, name=name)
            )

    def append(self, room_id: str, n: int, hand: int, seat: int, action: str) -> None:
        """Queue log entry ``n`` of a room for the next :meth:`flush`."""
        row = {"room_id": room_id, "n": n, "hand": hand, "seat": seat, "action": action}
        self._pending.setdefault(room_id, []).append(row)

    @property
    def dirty(self) -> bool:
        return bool(self._pending)

    def pending(self, room_id: str) -> int:
        """How many of the room's log entries are queued, not yet stored."""
        return len(self._pending.get(room_id, ()))

    def flush(self, room_id: str | None = None) -> None:
        """Commit the queued log entries of one room (of every room if None) in one
        transaction.

        On failure (the database is unreachable, or a duplicate ``n``: another process wrote
        to the room) nothing of the batch is stored, those entries leave the queue and the
        error propagates as a :class:`StoreError`; callers bring the rooms back to what the
        database holds.
        """
        ids = list(self._pending) if room_id is None else [room_id]
        rows = [row for i in ids for row in self._pending.pop(i, ())]
        if not rows:
            return
        start = time.perf_counter()
        try:
            conn = self._log_conn
            if conn is None or conn.invalidated or conn.closed:
                conn = self._log_conn = self.engine.connect()
            conn.execute(_INSERT_ACTION, rows)
            conn.commit()
        except Exception as exc:
            self._drop_log_conn()
            raise self._failed(exc, rows, ids, start) from exc
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - start, True)

    def take(self, room_id: str) -> list[dict[str, Any]]:
        """The room's queued log entries, out of the queue (for :meth:`submit`)."""
        return self._pending.pop(room_id, [])

    def submit(self, rows: list[dict[str, Any]]) -> Future[None]:
        """Commit ``rows`` in a writer thread (off the event loop); the future fails with a
        StoreError if the database does not take them. Callers keep one commit of a room in
        flight at a time, so a room's entries are stored in order and one slow commit
        delays only its own room."""
        if self._writers is None:
            workers = 1 if self.engine.dialect.name == "sqlite" else WRITERS  # (one file lock)
            self._writers = ThreadPoolExecutor(workers, thread_name_prefix="mjcore-store")
        return self._writers.submit(self._commit_rows, rows)

    def _commit_rows(self, rows: list[dict[str, Any]]) -> None:
        start = time.perf_counter()
        try:
            with self.engine.begin() as conn:
                conn.execute(_INSERT_ACTION, rows)
        except Exception as exc:
            raise self._failed(exc, rows, sorted({r["room_id"] for r in rows}), start) from exc
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - start, True)

    def _failed(
        self, exc: Exception, rows: list[dict[str, Any]], ids: list[str], start: float
    ) -> StoreError:
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - start, False)
        detail = f"{len(rows)} log entries not stored ({type(exc).__name__}: {exc})"
        return StoreError(detail, ids, conflict=isinstance(exc, IntegrityError))

    def _drop_log_conn(self) -> None:
        """Forget the hot-path connection after a failure (the next flush opens a new one)."""
        conn, self._log_conn = self._log_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.rollback()
            with contextlib.suppress(Exception):
                conn.close()

    def ping(self) -> None:
        """Raise StoreError unless the database answers now."""
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("SELECT 1")
        except Exception as exc:
            raise StoreError(f"the database does not answer ({type(exc).__name__})", []) from exc

    def load_all(self, room_id: str | None = None) -> list[StoredRoom]:
        """Every stored room (or just ``room_id``) with its tokens and log, in creation order."""
        room_q, seat_q = select(rooms).order_by(rooms.c.created), select(seats)
        log_q = select(actions).order_by(actions.c.room_id, actions.c.n)
        if room_id is not None:
            room_q = room_q.where(rooms.c.id == room_id)
            seat_q = seat_q.where(seats.c.room_id == room_id)
            log_q = log_q.where(actions.c.room_id == room_id)
        with _failing_as_store_error([room_id] if room_id else []), self.engine.connect() as conn:
            found = {
                r.id: StoredRoom(r.id, json.loads(r.config), {}, {}, [], r.finished)
                for r in conn.execute(room_q)
            }
            for r in conn.execute(seat_q):
                if r.room_id in found:
                    if r.token_hash:
                        found[r.room_id].token_hashes[r.seat] = r.token_hash
                    found[r.room_id].names[r.seat] = r.name
            for r in conn.execute(log_q):
                if r.room_id in found:
                    found[r.room_id].log.append((r.hand, r.seat, r.action))
        return list(found.values())

    def close(self) -> None:
        with contextlib.suppress(StoreError):  # (unstored rows were never acknowledged)
            self.flush()
        self._stop.set()
        if self._writers is not None:
            self._writers.shutdown(wait=True)
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        self._drop_log_conn()
        self.engine.dispose()


@contextlib.contextmanager
def _failing_as_store_error(rooms: list[str]) -> Iterator[None]:
    """Any database failure inside as a StoreError about ``rooms``."""
    try:
        yield
    except StoreError:
        raise
    except Exception as exc:
        raise StoreError(f"database operation failed ({type(exc).__name__}: {exc})", rooms) from exc


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL + synchronous=NORMAL: every commit survives a killed process (not a power cut).
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA wal_autocheckpoint=0")  # Store's own thread checkpoints instead
    cur.execute("PRAGMA journal_size_limit=67108864")  # the WAL file shrinks back to 64 MB
    cur.close()
