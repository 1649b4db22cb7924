"""The lobby: every room of this server process, backed by one Store (creating, restoring,
leasing and forgetting rooms)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..errors import clip
from . import snapshots
from .botpool import BotPool
from .config import RoomBusy, RoomError, RoomsFull, config_from_request
from .rooms import LEASE_MARGIN_S, LEASE_S, ROOM_ID, TOKEN_TTL_S, Room
from .snapshots import Snapshot
from .store import Lease, Store, StoredRoom, StoreError


class Lobby:
    """Every room of this server process, backed by one Store."""

    def __init__(
        self,
        store: Store,
        schedule: Callable[[float, Callable[[], None]], Any] | None = None,
        max_rooms: int = 10_000,
        defaults: dict[str, Any] | None = None,
        metrics: Any = None,
        post: Callable[[Callable[[], None]], Any] | None = None,
        lease_s: float = LEASE_S,
        owner: str = "",
        token_ttl_s: float = TOKEN_TTL_S,
        bots: BotPool | None = None,
    ) -> None:
        self.store = store
        self.schedule = schedule
        self.bots = bots  # decides for bots too slow for the loop (botpool.py)
        snapshots.ensure_table(store)
        # Stores snapshots off the loop (with ``post``); one thread: they are small and rare.
        self.snapshot_writer = (
            ThreadPoolExecutor(1, thread_name_prefix="mjcore-snapshots") if post else None
        )
        self.metrics = metrics
        self.post = post  # with it, rooms commit off the loop (Room.commit)
        # This server's name in room leases (a restarted server with the same name takes its
        # rooms back at once), and how long a lease lasts unrenewed.
        self.owner = owner or f"{socket.gethostname()[:40]}:{os.getpid()}"
        self.lease_s = lease_s
        self.token_ttl_s = token_ttl_s
        self._fetching: dict[str, asyncio.Future[Room]] = {}
        # Rooms whose lease a renewal round is giving up, and that round's end: a request
        # for one of them waits for the release to be written, then takes the lease again.
        self._releasing: set[str] = set()
        self._round_done: asyncio.Future[None] | None = None
        self.max_rooms = max_rooms
        self.defaults = defaults or {}
        self.rooms: dict[str, Room] = {}

    def restore_all(self) -> int:
        """Load every stored room (after a restart); returns how many.

        A room whose log no longer replays (e.g. stored by an incompatible engine version)
        is reported on stderr and left out, instead of keeping the server from starting.
        """
        for room_id in snapshots.room_ids(self.store):
            try:
                found = snapshots.load_room(self.store, room_id)
                if found is not None:
                    self._add(self._restored(*found, deal=True))
            except ValueError as exc:
                print(f"mjcore server: room {room_id} not restored: {exc}", file=sys.stderr)
        return len(self.rooms)

    def _restored(self, stored: StoredRoom, snap: Snapshot | None, deal: bool) -> Room:
        """The stored room rebuilt (from ``snap`` on); it may run in a worker thread (with
        ``deal`` False: dealing a missing first hand touches the store's queue)."""
        room = Room.restore(
            stored, self.store, snap, deal, schedule=self.schedule, metrics=self.metrics,
            post=self.post, bots=self.bots,
        )  # fmt: skip
        room.token_ttl_s = self.token_ttl_s
        room.snapshot_writer = self.snapshot_writer
        return room

    def _add(self, room: Room) -> Room:
        """On the loop: a restored room joins the lobby (and gets a missing first hand)."""
        if room.match.current is None:
            room._new_hand()
            room.flush()
        room._write_snapshots()  # (a room replayed without one gets its current hand's)
        self.rooms[room.id] = room
        if self.metrics is not None:
            self.metrics.restores.inc()
        return room

    # ---- rooms by id, under a lease -------------------------------------------------------
    def get(self, room_id: Any) -> Room:
        """The room, under this process's lease: from memory when that copy is current,
        else restored from the database. RoomError if there is no such room, RoomBusy if
        another process serves it, StoreError if the database fails (blocking: servers use
        :meth:`fetch`)."""
        room = self._leased(room_id)
        if room is not None:
            return room
        current = self._current(room_id, self.store.acquire(room_id, self.owner, self.lease_s))
        if current is not None:
            return current
        return self._adopt(room_id, self._load(room_id))

    def _load(self, room_id: str) -> Room:
        """The room rebuilt from the database (its latest snapshot and the log after it):
        RoomError if there is no such room or its log does not replay. Safe in a thread."""
        found = snapshots.load_room(self.store, room_id)
        if found is None:
            raise RoomError(f"no room {room_id!r}")
        try:
            return self._restored(*found, deal=False)
        except ValueError as exc:
            raise RoomError(f"room {room_id} cannot be restored: {exc}") from None

    async def fetch(self, room_id: Any) -> Room:
        """:meth:`get` with every database step in a worker thread (the loop goes on);
        concurrent requests for one room share one fetch."""
        room = self._leased(room_id)
        if room is not None:
            return room
        task = self._fetching.get(room_id)
        if task is None:
            task = self._fetching[room_id] = asyncio.ensure_future(self._fetch(room_id))
            task.add_done_callback(lambda _: self._fetching.pop(room_id, None))
        return await asyncio.shield(task)

    async def _fetch(self, room_id: str) -> Room:
        if room_id in self._releasing and self._round_done is not None:
            await asyncio.shield(self._round_done)  # else the release would undo our lease
        lease = await asyncio.to_thread(self.store.acquire, room_id, self.owner, self.lease_s)
        current = self._current(room_id, lease)
        if current is not None:
            return current
        # Read and rebuilt in a worker thread: a long room's restore never stalls the loop.
        return self._adopt(room_id, await asyncio.to_thread(self._load, room_id))

    def _leased(self, room_id: Any) -> Room | None:
        """The room if it is in memory under a lease that is not about to run out; else
        None after checking that ``room_id`` can be a room id at all."""
        room = self.rooms.get(room_id) if isinstance(room_id, str) else None
        if room is not None and room.leased_until > time.time() + LEASE_MARGIN_S:
            return room
        if not isinstance(room_id, str) or not ROOM_ID.fullmatch(room_id):
            raise RoomError(f"no room {clip(room_id)}")  # (not worth a query)
        return None

    def _current(self, room_id: str, lease: Lease) -> Room | None:
        """After ``acquire``: the copy in memory if the database holds no more of its log
        (nobody else played it meanwhile), else None (reload it)."""
        if not lease.exists:
            raise RoomError(f"no room {room_id!r}")
        if not lease.taken:
            raise RoomBusy(room_id, max(0.0, lease.until - time.time()))
        room = self.rooms.get(room_id)
        if room is None or not room.holds_count(lease.entries):
            return None
        room.leased_until = lease.until
        return room

    def _adopt(self, room_id: str, room: Room) -> Room:
        """A restored room (lazy restore) replaces any stale copy in memory."""
        old = self.rooms.pop(room_id, None)
        if old is not None:
            old.moved("this server's copy of the room was out of date; reconnect")
        if len(self.rooms) >= self.max_rooms:
            self.drop_idle(0.0)
        self._add(room)
        room.leased_until = time.time() + self.lease_s
        return room

    async def keep_leases(self) -> None:
        """One renewal round: renew the leases of rooms in use, give up those of rooms nobody
        is connected to, and take back rooms in use whose lease was given up. A room being
        given up is not served from memory until the release is written (a request for it
        then takes the lease again): the database never shows a room in use as unowned.
        Database steps run in worker threads; StoreError if one fails (leases then run out
        by themselves, and writes stay fenced)."""
        renew, release, retake = self.leases_to_renew()
        for room_id in release:
            self.rooms[room_id].leased_until = 0.0
        self._releasing = set(release)
        done = self._round_done = asyncio.get_running_loop().create_future()
        try:
            held = await asyncio.to_thread(self.store.renew, self.owner, renew, self.lease_s)
            await asyncio.to_thread(self.store.release, self.owner, release)
        finally:
            self._releasing = set()
            self._round_done = None
            done.set_result(None)
        retaken = {
            room_id: await asyncio.to_thread(self.store.acquire, room_id, self.owner, self.lease_s)
            for room_id in retake
        }
        self.renewed(renew, held, retaken)

    def leases_to_renew(self) -> tuple[list[str], list[str], list[str]]:
        """(rooms whose lease to renew: someone is connected or a commit is under way; rooms
        whose lease to give up: nobody is connected and everything is stored; rooms in use
        whose lease was given up meanwhile, to take again)."""
        renew: list[str] = []
        release: list[str] = []
        retake: list[str] = []
        for room_id, room in self.rooms.items():
            busy = room.conns or room._in_flight or self.store.pending(room_id)
            if room.leased_until:
                (renew if busy else release).append(room_id)
            elif busy:
                retake.append(room_id)
        return renew, release, retake

    def renewed(self, asked: list[str], held: set[str], retaken: dict[str, Lease]) -> None:
        """After a renewal round: extend what is held, and drop the rooms another process
        took or played meanwhile (their connections are told to reconnect, and resume from
        the database wherever they land)."""
        until = time.time() + self.lease_s
        lost = [r for r in asked if r not in held]
        for room_id in asked:
            room = self.rooms.get(room_id)
            if room is not None and room_id in held:
                room.leased_until = until
        for room_id, lease in retaken.items():
            room = self.rooms.get(room_id)
            if room is not None and lease.taken and room.holds_count(lease.entries):
                room.leased_until = lease.until
            elif room is not None:
                lost.append(room_id)
        for room_id in lost:
            room = self.rooms.pop(room_id, None)
            if room is not None:
                room.moved("another server took this room over; reconnect")

    def release_all(self) -> None:
        """Give every lease up (a clean shutdown: other processes may take the rooms now)."""
        held = [room_id for room_id, room in self.rooms.items() if room.leased_until]
        with contextlib.suppress(StoreError):
            self.store.release(self.owner, held)

    def drop_idle(self, idle_s: float) -> list[str]:
        """Forget rooms nobody has been connected to for ``idle_s`` seconds (their state is
        in the database: the next request restores them); returns their ids."""
        dropped = [
            room_id
            for room_id, room in self.rooms.items()
            if room.idle_since is not None
            and room.clock() - room.idle_since >= idle_s
            and not room.leased_until
            and not room._in_flight
            and not self.store.pending(room_id)
        ]
        for room_id in dropped:
            self.rooms.pop(room_id).close()
        return dropped

    def check_room_space(self) -> None:
        """RoomsFull if this process holds its maximum of rooms (after dropping unused ones)."""
        if len(self.rooms) >= self.max_rooms:
            self.drop_idle(0.0)  # rooms nobody uses (stored, lease given up) make space
        if len(self.rooms) >= self.max_rooms:
            raise RoomsFull(f"this server holds its maximum of {self.max_rooms} rooms; "
                            "try again later or another server")  # fmt: skip

    def create(self, request: Any) -> Room:
        self.check_room_space()
        config = config_from_request(request, self.defaults)
        room_id = secrets.token_hex(8)
        room = Room.create(
            room_id, config, self.store, schedule=self.schedule, metrics=self.metrics,
            post=self.post, bots=self.bots,
        )  # fmt: skip
        room.token_ttl_s = self.token_ttl_s
        room.snapshot_writer = self.snapshot_writer
        self.rooms[room_id] = room
        return room

    async def create_async(self, request: Any) -> Room:
        """:meth:`create` with the database writes in worker threads (fresh pooled
        connections, checked before use: the first room after a database outage is stored
        like any other)."""
        self.check_room_space()
        config = config_from_request(request, self.defaults)
        room_id = secrets.token_hex(8)
        await asyncio.to_thread(self.store.create_room, room_id, config.to_json(), time.time())
        room = Room(
            room_id, config, self.store, schedule=self.schedule, metrics=self.metrics,
            post=self.post, bots=self.bots,
        )  # fmt: skip
        room.token_ttl_s = self.token_ttl_s
        room.snapshot_writer = self.snapshot_writer
        room._new_hand()
        rows = self.store.take(room_id)
        await asyncio.wrap_future(self.store.submit(rows))
        room.durable = room.log_len
        room._write_snapshots()
        self.check_room_space()
        self.rooms[room_id] = room
        return room

    def close(self) -> None:
        """Stop the room timers and the snapshot writer (at shutdown)."""
        for room in self.rooms.values():
            room.close()
        if self.snapshot_writer is not None:
            self.snapshot_writer.shutdown(wait=True)
