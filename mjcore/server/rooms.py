"""Rooms: one :class:`~mjcore.engine.match.Match` per room, its seats, bots, pacing and timers.

Everything here is synchronous and runs on the server's one event loop, so a room is never
changed by two things at once. A room talks to its players through :class:`Sink` objects
(one per connected seat); the ASGI layer (``app.py``) owns the sockets.

Pacing (uniform claim window): with ``claim_window_ms = W > 0`` every action taken on a
seat's own turn (discard, gang, declaration) is followed by a hold of exactly W ms. During
the hold only seats asked to react (claim, rob a gang) receive their state; everyone else
(even the next player) receives the outcome when the hold ends, and seats that were asked
and have not answered by then pass. So the time between a discard and the next public event
is W whether or not anyone could claim, and a seat that was not asked cannot tell that
someone was.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import re
import secrets
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, Protocol

import numpy as np

from ..bots import BaseBot, make_bot
from ..engine.actions import Action, parse_action
from ..engine.game import Game
from ..engine.match import Match
from ..errors import IllegalActionError
from . import snapshots
from .botpool import FALLBACK_BOT, BotPool
from .config import (  # noqa: F401  (re-exported: the room request's names)
    HUMAN,
    IDLE_TIMEOUT_FLOOR_S,
    NEXT_HAND_FLOOR_S,
    RoomBusy,
    RoomConfig,
    RoomError,
    RoomsFull,
    config_from_request,
)
from .snapshots import KEEP_HANDS, Snapshot, replay_log, snapshot_of, trim
from .store import Store, StoredRoom, StoreError

MAX_ACTIONS_PER_PUMP = 64  # bot actions applied before yielding to other rooms
ROOM_ID = re.compile(r"[0-9a-f]{16}")  # secrets.token_hex(8), as Lobby.create makes them
RETRY_AFTER_S = 1.0  # after a failed write, bots and timers wait this long before moving again
TOKEN_TTL_S = 3600.0  # a finished room's seat tokens work this long after its last hand
LEASE_S = 10.0  # a room's lease, renewed every LEASE_S / 3 while anyone is connected
LEASE_MARGIN_S = 1.0  # a lease this close to its end is renewed before the room is used


class NotYourTurnError(IllegalActionError):
    """The seat has no decision to make now (another seat's turn, or a claim it was not offered)."""


class Sink(Protocol):
    """Where a seat's messages go (one WebSocket); ``send`` must not block."""

    def send(self, message: dict[str, Any]) -> None: ...

    def close(self, reason: str) -> None: ...


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Room:
    """One table: the match, who sits where, and the pump that moves bots and timers."""

    def __init__(
        self,
        room_id: str,
        config: RoomConfig,
        store: Store,
        schedule: Callable[[float, Callable[[], None]], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        metrics: Any = None,
        post: Callable[[Callable[[], None]], Any] | None = None,
        bots: BotPool | None = None,
    ) -> None:
        self.id = room_id
        self.metrics = metrics  # a server.metrics.Metrics, or None
        # Runs a callback on the room's thread from any thread (loop.call_soon_threadsafe):
        # with it, commits run off the loop (Store.submit); without it, they block (flush).
        self._post = post
        self._in_flight = False  # a commit of this room's entries is running
        self.leased_until = 0.0  # this process's lease of the room runs to (0: not held)
        self.finished_at: float | None = None  # when the last hand ended (Unix time)
        self.token_ttl_s = TOKEN_TTL_S
        self._waiting: list[tuple[int, Callable[[StoreError | None], None]]] = []
        self.config = config
        self.store = store
        self.clock = clock
        self._schedule = schedule
        self.match = Match(config.rules, seed=config.seed, first_dealer=config.first_dealer)
        # The log from entry ``base`` on (earlier entries are stored and left memory):
        # (hand, seat, action); ``snaps``: the snapshot of each hand from ``base`` on.
        self.entries: list[tuple[int, int, str]] = []
        self.base = 0
        self.snaps: dict[int, Snapshot] = {}
        self._unwritten: list[Snapshot] = []  # snapshots to store once their entry is
        self.durable = 0  # how many log entries (from the start) the database is known to hold
        self.tokens: dict[int, str] = {}
        self.names: dict[int, str] = {}
        self.conns: dict[int, Sink] = {}
        self.cursor: dict[int, tuple[int, int]] = {}  # seat -> (hand, next event) delivered
        self.dirty: set[int] = set()
        self.away: set[int] = set()
        self.ready: set[int] = set()
        self.hold_until = 0.0
        self.paused_until = 0.0  # after a failed write: no automatic moves before this time
        # seat -> ((hand, history length), since when it is asked)
        self.asked: dict[int, tuple[tuple[int, int], float]] = {}
        self.over_since: float | None = None
        self.idle_since: float | None = clock()  # since when no seat is connected (None: one is)
        self._bots: dict[str, BaseBot] = {}
        self._pool = bots  # decides for bots too slow for the loop (None: all on the loop)
        self._deciding: tuple[int, int, int, int] | None = None  # a pool decision under way
        self._generation = 0  # bumped when the room goes back to what is stored
        self._timer: Any = None
        self.snapshot_writer: Executor | None = None  # stores snapshots off the loop

    # ------------------------------------------------------------ lifecycle
    @staticmethod
    def create(room_id: str, config: RoomConfig, store: Store, **kw: Any) -> Room:
        store.create_room(room_id, config.to_json(), time.time())
        room = Room(room_id, config, store, **kw)
        room._new_hand()
        room.flush()
        return room

    @staticmethod
    def restore(
        stored: StoredRoom, store: Store, snap: Snapshot | None = None, deal: bool = True,
        **kw: Any,
    ) -> Room:  # fmt: skip
        """Rebuild a room from its stored log — from ``snap`` on, when given (``stored.log``
        then starts at its hand) — exactly the same state. A room stored without its first
        hand gets it dealt now if ``deal`` (else the caller deals it, on the loop)."""
        room = Room(stored.room_id, RoomConfig.from_json(stored.config), store, **kw)
        room.tokens = dict(stored.token_hashes)
        room.names = dict(stored.names)
        room.finished_at = stored.finished
        room._replay(stored.log, snap)
        if room.match.current is None and deal:  # stored without its first hand: deal it now
            room._new_hand()
            room.flush()
        return room

    def _replay(self, log: list[tuple[int, int, str]], snap: Snapshot | None = None) -> None:
        """Apply stored log entries to this (fresh) room (from ``snap`` on, if given); they
        count as durable. Hands before the last KEEP_HANDS leave memory as they pass."""
        snaps: dict[int, Snapshot] = {}
        try:
            self.match = replay_log(self.config, log, snap, KEEP_HANDS, snaps)
        except (RoomError, IllegalActionError) as exc:
            raise RoomError(f"room {self.id}: {exc}") from None
        base = snap.n if snap is not None else 0
        self.entries, self.base, self.snaps = list(log), base, snaps
        self.durable = base + len(log)
        # Replayed without a stored snapshot (an older database): store the latest ones.
        self._unwritten = [] if snap is not None else [snaps[h] for h in sorted(snaps)[-1:]]
        self._trim()
        if self.match.current is not None and self.match.current.is_over:
            self.over_since = self.clock()

    def _trim(self) -> None:
        """Let stored log entries of hands before the last KEEP_HANDS leave memory (the
        match's own hands are trimmed as they are dealt)."""
        keep_from = self.hand_index - KEEP_HANDS + 1
        snap = self.snaps.get(keep_from)
        if snap is None or snap.n <= self.base or snap.n >= self.durable:
            return  # (only once that hand's new_hand entry is stored)
        del self.entries[: snap.n - self.base]
        self.base = snap.n
        for hand in [h for h in self.snaps if h < keep_from]:
            del self.snaps[hand]

    def _write_snapshots(self) -> None:
        """Store the snapshots whose hand's new_hand entry is stored (off the loop when the
        room commits off the loop); a lost one only makes a later restore replay more."""
        ready = [s for s in self._unwritten if s.n < self.durable]
        if not ready:
            return
        self._unwritten = [s for s in self._unwritten if s.n >= self.durable]

        def write() -> None:
            for snap in ready:
                try:
                    snapshots.write(self.store, self.id, snap)
                except StoreError as exc:
                    print(f"mjcore server: room {self.id}: snapshot: {exc}", file=sys.stderr)

        if self.snapshot_writer is None:
            write()
        else:
            self.snapshot_writer.submit(write)

    def holds_count(self, stored: int) -> bool:
        """Whether a count of the room's stored log entries (taken a moment ago, while this
        copy's commits may have been landing) fits this copy: between what it knows to be
        stored and what it has recorded. Anything else means another process wrote to the
        room. (A count that fits while another process wrote as many entries is caught at
        this copy's next commit: the (room_id, n) key refuses it — fencing.)"""
        return self.durable <= stored <= self.log_len

    @property
    def log_len(self) -> int:
        """Entries in the room's log, stored or queued."""
        return self.base + len(self.entries)

    @property
    def hand_count(self) -> int:
        """Hands dealt so far (finished ones included)."""
        return len(self.match._hands)

    def hand_game(self, hand: int) -> Game | None:
        """Hand ``hand`` if it is still in memory (the last KEEP_HANDS are), else None."""
        if 0 <= hand < self.hand_count:
            game = self.match._hands[hand]
            return game if isinstance(game, Game) else None
        return None

    @property
    def scores(self) -> list[int]:
        """Cumulative net scores (Match.scores, without walking the trimmed hands)."""
        return snapshots.total(self.match)

    @property
    def game(self) -> Game:
        game = self.match.current
        assert game is not None  # a room always has a hand
        return game

    @property
    def hand_index(self) -> int:
        return len(self.match._hands) - 1

    def _record(self, seat: int, action: str) -> None:
        self.store.append(self.id, self.log_len, self.hand_index, seat, action)
        self.entries.append((self.hand_index, seat, action))

    def flush(self) -> None:
        """Make everything applied so far durable (before anyone hears of it).

        If the write fails the room goes back to exactly what the database holds (nothing
        unstored stays applied) and the StoreError propagates.
        """
        try:
            self.store.flush(self.id)
        except StoreError:
            self._recover()
            raise
        self.durable = self.log_len
        self._note_finished()
        self._write_snapshots()
        self._trim()

    def commit(self, done: Callable[[StoreError | None], None] | None = None) -> None:
        """Store every entry recorded so far; ``done(None)`` runs once they are stored, or
        ``done(error)`` if they were not (the room is then back at what the database holds).

        Off the loop when the room has ``post``: one commit of the room runs at a time in a
        writer thread, and what is recorded meanwhile goes in the next one (grouped). Until
        the entries are stored nobody is told of them: delivery waits for the commit.
        """
        if done is not None:
            self._waiting.append((self.log_len, done))
        if self._post is None:
            try:
                self.flush()
            except StoreError as exc:
                self._settle(exc)
                return
            self._settle(None)
            return
        self._start_commit()

    def _start_commit(self) -> None:
        if self._in_flight:
            return  # the running commit's end starts the next
        rows = self.store.take(self.id)
        if not rows:
            self._settle(None)
            return
        self._in_flight = True
        end = self.log_len
        post = self._post
        assert post is not None
        future = self.store.submit(rows)
        future.add_done_callback(lambda f: post(lambda: self._committed(f, end)))

    def _committed(self, future: Any, end: int) -> None:
        """On the room's thread: a commit ended (``end``: entries stored if it succeeded)."""
        self._in_flight = False
        error = future.exception()
        if error is not None:
            if not isinstance(error, StoreError):  # (a bug: still never leave memory ahead)
                error = StoreError(f"commit failed: {type(error).__name__}: {error}", [self.id])
            print(f"mjcore server: room {self.id}: write failed: {error}", file=sys.stderr)
            self.store.take(self.id)  # what was recorded on top of the failed entries goes too
            self._recover(reread=error.conflict)
            self._settle(error)
            self.pump()
            return
        self.durable = max(self.durable, end)
        self._note_finished()
        self._write_snapshots()
        self._trim()
        self._settle(None)  # acknowledgements first, then the states they cause
        if self.store.pending(self.id):
            self._start_commit()  # recorded meanwhile: its end delivers
            return
        self._deliver(only_asked=self.clock() < self.hold_until)
        self.pump()

    def _settle(self, error: StoreError | None) -> None:
        """Tell the waiters: all of them of a failure, else those whose entries are stored."""
        if error is not None:
            waiting, self._waiting = self._waiting, []
        else:
            waiting = [w for w in self._waiting if w[0] <= self.durable]
            self._waiting = [w for w in self._waiting if w[0] > self.durable]
        for _, done in waiting:
            done(error)

    def _new_hand(self) -> None:
        self.match.new_hand()
        snap = snapshot_of(self.match, self.log_len)
        self.snaps[snap.hand] = snap
        self._unwritten.append(snap)
        trim(self.match, KEEP_HANDS)
        self._record(-1, "new_hand")
        self.ready.clear()
        self.over_since = None
        self.dirty.update(range(self.config.players))

    # ------------------------------------------------------------ seats
    def is_human(self, seat: int) -> bool:
        return self.config.seats[seat] == HUMAN

    def join(self, seat: int | None, name: str = "") -> tuple[int, str]:
        """Give a free human seat (the first one if ``seat`` is None) a new secret token."""
        free = [s for s in range(self.config.players) if self.is_human(s) and s not in self.tokens]
        if seat is None:
            if not free:
                raise RoomError(f"room {self.id} has no free human seat")
            seat = free[0]
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in free:
            raise RoomError(
                f"seat {seat!r} is not a free human seat of room {self.id}: free {free}"
            )
        token = secrets.token_urlsafe(24)
        self.store.set_token(self.id, seat, token_hash(token), name[:64])
        self.tokens[seat] = token_hash(token)
        self.names[seat] = name[:64]
        self.dirty.update(range(self.config.players))
        return seat, token

    @property
    def finished(self) -> bool:
        """Every hand of a room with ``max_hands`` has been played."""
        cfg = self.config
        return bool(cfg.max_hands) and self.hand_count >= cfg.max_hands and self.game.is_over

    def tokens_expired(self) -> bool:
        """Seat tokens open a finished room for ``token_ttl_s`` after its last hand ended."""
        return self.finished_at is not None and time.time() > self.finished_at + self.token_ttl_s

    def _note_finished(self) -> None:
        """Once the last hand's end is stored: remember (and store) when it ended."""
        if self.finished_at is None and self.finished:
            self.finished_at = time.time()
            try:
                self.store.mark_finished(self.id, self.finished_at)
            except StoreError as exc:  # (tokens then expire from this process's memory only)
                print(f"mjcore server: room {self.id}: {exc}", file=sys.stderr)

    def seat_for_token(self, token: Any) -> int | None:
        """The seat whose token this is (None: unknown, or the room finished too long ago)."""
        if not isinstance(token, str) or len(token) > 100 or self.tokens_expired():
            return None
        digest = token_hash(token)
        for seat, h in self.tokens.items():
            if hmac.compare_digest(h, digest):
                return seat
        return None

    def connect(self, seat: int, sink: Sink, hand: int = -1, since: int = 0) -> None:
        """Attach a seat's connection; it resumes after event ``since`` of hand ``hand``."""
        old = self.conns.get(seat)
        if old is not None and old is not sink:
            old.close("replaced by a newer connection for this seat")
        self.conns[seat] = sink
        self.idle_since = None
        self.away.discard(seat)
        if not 0 <= hand <= self.hand_index:
            hand, since = self.hand_index, 0
        self.cursor[seat] = (hand, max(0, since))
        self.dirty.update(range(self.config.players))
        self.pump()

    def disconnect(self, seat: int, sink: Sink) -> None:
        if self.conns.get(seat) is sink:
            del self.conns[seat]
            if not self.conns:
                self.idle_since = self.clock()
            self.dirty.update(range(self.config.players))
            self.pump()

    def seats_info(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": s,
                "kind": self.config.seats[s],
                "name": self.names.get(s, ""),
                "joined": s in self.tokens,
                "connected": s in self.conns,
                "away": s in self.away,
            }
            for s in range(self.config.players)
        ]

    def summary(self) -> dict[str, Any]:
        """Public facts about the room (no seed, no tokens, no hidden tiles)."""
        return {
            "room": self.id,
            "config": self.config.public(),
            "seats": self.seats_info(),
            "hand": self.hand_index,
            # Never the engine's phase: "claim" would tell anyone that a seat may claim.
            "phase": "over" if self.game.is_over else "playing",
            "scores": self.scores,
        }

    # ------------------------------------------------------------ actions
    def act(self, seat: int, text: Any) -> None:
        """A seat's action; raises IllegalActionError (nothing changes) if it may not take it.

        The caller acknowledges the action and then calls :meth:`pump` (so the reply comes
        before the states it causes).
        """
        if not isinstance(text, str) or len(text) > 64:
            raise IllegalActionError("action must be a short string such as 'discard 5p'")
        game = self.game
        if game.is_over:
            raise NotYourTurnError("the hand is over; send {'type': 'next'} for the next one")
        legal = game.legal_actions(seat)
        if not legal:
            raise NotYourTurnError(f"seat {seat} has no decision to make now")
        action = parse_action(text, legal)  # a malformed text's error lists the legal actions
        self._apply(seat, action)
        if seat in self.away:  # acting again takes the seat back from the bot
            self.away.discard(seat)

    def _apply(self, seat: int, action: Action) -> None:
        game = self.game
        on_turn = game.phase == "turn"
        before = (len(game.event_log), game.phase, game.current)
        game.apply(seat, action)  # atomic: raises and changes nothing if illegal
        self._record(seat, str(action))  # durable at the next flush, before anyone is told
        if self.metrics is not None:
            by = "human" if self.is_human(seat) and seat not in self.away else "bot"
            self.metrics.actions.labels(by=by).inc()
        if on_turn and self.config.claim_window_ms:
            self.hold_until = self.clock() + self.config.claim_window_ms / 1000
        if game.is_over:
            self.over_since = self.clock()
        if (len(game.event_log), game.phase, game.current) == before:
            # A decision that others cannot see yet (a pass in a claim window, one seat's
            # per-hand choice): only the actor's view changed. Telling the others would
            # also tell them that someone had been asked.
            self.dirty.add(seat)
        else:
            self.dirty.update(range(self.config.players))

    def _recover(self, reread: bool = True) -> None:
        """After a failed write, go back to exactly what the database holds: reread it when
        ``reread`` (another process may have written to the room), or the entries known to
        be stored (also while the database cannot be read); every seat then gets the fresh
        state."""
        log = self.entries[: self.durable - self.base]
        snap = self.snaps.get(min(self.snaps)) if self.snaps else None
        if snap is not None and (snap.n != self.base or not log):
            snap = None  # (nothing stored yet: back to no hand at all)
        if reread:
            with contextlib.suppress(StoreError):
                found = snapshots.load_room(self.store, self.id)
                if found is not None:
                    log, snap = found[0].log, found[1]
        fresh = Room(self.id, self.config, self.store, clock=self.clock)  # (replay only)
        fresh._replay(log, snap)
        self.match, self.entries, self.durable = fresh.match, fresh.entries, fresh.durable
        self.base, self.snaps = fresh.base, fresh.snaps
        self._unwritten = [s for s in self._unwritten if s.n < self.durable] + fresh._unwritten
        self._generation += 1
        self._deciding = None
        self.over_since = fresh.over_since
        self.hold_until = 0.0
        self.paused_until = self.clock() + RETRY_AFTER_S  # bots wait for the database
        self.ready.clear()
        self.dirty.update(range(self.config.players))

    def next_hand(self, seat: int, hand: Any = None) -> None:
        """The seat is ready for the hand after ``hand`` (default: the current one).

        It starts when every connected human is ready (or ``next_hand_s`` has passed). Asking
        for the hand after one that has already been followed is a harmless no-op.
        """
        if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int)):
            raise IllegalActionError("hand must be an integer")
        if hand is not None and hand < self.hand_index:
            return
        if not self.game.is_over:
            raise NotYourTurnError("the hand is not over yet")
        self.ready.add(seat)
        self.take_back(seat)  # asking for the next hand is being back at the table

    def take_back(self, seat: int) -> None:
        """A human takes the seat back from the bot that played it while they were idle."""
        if seat in self.away:
            self.away.discard(seat)
            self.dirty.update(range(self.config.players))

    # ------------------------------------------------------------ the pump
    def pump(self) -> None:
        """Deliver states, let bots and idle takeovers act, start hands; then set the timer.

        Bounded: at most MAX_ACTIONS_PER_PUMP actions, then it yields (timer at 0 s).
        Nothing moves by itself while no human seat is connected (the room sleeps).
        """
        now = self.clock()
        for _ in range(MAX_ACTIONS_PER_PUMP):
            now = self.clock()
            if now < self.hold_until or now < self.paused_until or not self.conns:
                break
            if self.config.claim_window_ms and self.game.phase == "turn":
                self._deliver(only_asked=False)  # the claim is resolved: everyone sees it
            if not self._step(now):
                break
        else:
            self._deliver(only_asked=self.clock() < self.hold_until)
            self._set_timer(0.0)
            return
        self._deliver(only_asked=now < self.hold_until)
        self._set_timer(self._next_wake(now))

    def _step(self, now: float) -> bool:
        """One automatic move if one is due; False when the room waits for someone."""
        game = self.game
        if game.is_over:
            return self._maybe_next_hand(now)
        waiting = game.to_act()
        for seat in waiting:
            if self.is_human(seat) and seat not in self.away:
                if self.config.claim_window_ms and game.phase in ("claim", "rob"):
                    self._apply(seat, Action("pass") if Action("pass") in game.legal_actions(
                        seat) else self._bot_action(seat, FALLBACK_BOT))  # fmt: skip
                    return True
                since = self._asked_since(seat, now)
                if now < since + self.config.idle_timeout_s:
                    continue
                self.away.add(seat)  # idle too long: a bot plays the seat until it is back
                self.dirty.update(range(self.config.players))
            return self._bot_move(seat)
        return False

    def _bot_name(self, seat: int) -> str:
        kind = self.config.seats[seat]
        return self.config.bot if kind == HUMAN else kind

    def _bot_move(self, seat: int) -> bool:
        """The seat's bot moves: at once on the loop, or (a bot too slow for the loop) a
        decision asked of the bot pool — False then: the room waits for the answer."""
        name = self._bot_name(seat)
        if self._pool is None or self._post is None or not self._pool.offloads(name):
            self._apply(seat, self._bot_action(seat))
            return True
        key = (self._generation, self.hand_index, self.game.action_count, seat)
        if self._deciding == key:
            return False  # asked already: wait for it
        seed = [self.config.seed, self.hand_index, self.game.action_count, seat]
        schedule = self._schedule or (lambda delay, fn: None)
        if self._pool.decide(name, self.game, seat, seed, self._post, schedule,
                             lambda action: self._bot_decided(key, action)):  # fmt: skip
            self._deciding = key
            return False
        self._apply(seat, self._bot_action(seat, FALLBACK_BOT))  # the pool is full
        return True

    def _bot_decided(self, key: tuple[int, int, int, int], text: str | None) -> None:
        """On the loop: the pool's answer (None: none in time) for the decision ``key``;
        applied if the room is still at that decision, else dropped."""
        if self._deciding != key:
            return
        self._deciding = None
        seat = key[3]
        now = (self._generation, self.hand_index, self.game.action_count, seat)
        if now != key or seat not in self.game.to_act():
            return
        clock = self.clock()
        if not self.conns or clock < self.hold_until or clock < self.paused_until:
            return  # the room sleeps or holds: its next pump asks again
        action = None
        if text is not None:
            with contextlib.suppress(ValueError):
                action = Action.parse(text)
        if action is None or action not in self.game.legal_actions(seat):
            action = self._bot_action(seat, FALLBACK_BOT)  # too late (or nonsense): the expert
        self._apply(seat, action)
        self.commit()
        self.pump()

    def _asked_since(self, seat: int, now: float) -> float:
        # (the hand too: a new hand's first decision has the action count of an old one)
        key = (self.hand_index, self.game.action_count)
        entry = self.asked.get(seat)
        if entry is None or entry[0] != key:
            entry = self.asked[seat] = (key, now)
        return entry[1]

    def _bot_action(self, seat: int, name: str | None = None) -> Action:
        """The bot's decision, made here (on the loop): the seat's own bot, or ``name``."""
        name = name or self._bot_name(seat)
        bot = self._bots.get(name)
        if bot is None:
            bot = self._bots[name] = make_bot(name, 0)
        game = self.game
        # Seeded per decision: the same room plays the same way after a restart.
        bot.rng = np.random.default_rng(
            [self.config.seed, self.hand_index, game.action_count, seat]
        )
        # act_fast: the bots' documented fast path, the same decision as act(view, legal)
        return bot.act_fast(game, seat, list(game.legal_actions(seat)))

    def _maybe_next_hand(self, now: float) -> bool:
        cfg = self.config
        if cfg.max_hands and self.hand_count >= cfg.max_hands:
            return False
        present = [s for s in self.conns if self.is_human(s) and s not in self.away]
        if not present:
            return False  # every human is away: no hand is dealt to bots alone
        over = self.over_since if self.over_since is not None else now
        # Bots never start a hand on their own: someone present must be ready, or time is up.
        if (present and all(s in self.ready for s in present)) or now >= over + cfg.next_hand_s:
            self._new_hand()
            return True
        return False

    def _next_wake(self, now: float) -> float | None:
        """Seconds until the next timed event (hold end, idle takeover, next hand), or None.

        ``now`` is the time the pump decided by, so a timer that fired a little early (event
        loops round to the millisecond) is simply set again for the rest of the hold.
        """
        if not self.conns:
            return None
        if now < self.hold_until or now < self.paused_until:
            return max(self.hold_until, self.paused_until) - now
        game = self.game
        if game.is_over:
            if self.config.max_hands and self.hand_count >= self.config.max_hands:
                return None
            if not any(self.is_human(s) and s not in self.away for s in self.conns):
                return None  # (every human away: the next hand waits for one to be back)
            over = self.over_since if self.over_since is not None else now
            return max(0.0, over + self.config.next_hand_s - now)
        due = [
            self._asked_since(s, now) + self.config.idle_timeout_s - now
            for s in game.to_act()
            if self.is_human(s) and s not in self.away
        ]
        return max(0.0, min(due)) if due else None

    def close(self) -> None:
        """Stop the room's timer (before it is dropped from memory)."""
        self._set_timer(None)

    def moved(self, reason: str) -> None:
        """This process no longer serves the room: close its connections (clients reconnect
        and resume where they were) and stop its timer."""
        for sink in list(self.conns.values()):
            sink.close(reason)
        self.conns.clear()
        self.leased_until = 0.0
        self.close()

    def _set_timer(self, delay: float | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if delay is not None and self._schedule is not None:
            self._timer = self._schedule(delay, self.pump)

    # ------------------------------------------------------------ delivery
    def _deliver(self, only_asked: bool) -> None:
        if self._post is not None and (self._in_flight or self.store.pending(self.id)):
            self._start_commit()  # states wait until what they show is stored
            return
        if self.store.pending(self.id):
            try:
                self.flush()
            except StoreError as exc:  # the room is back at its stored state; tell that instead
                print(f"mjcore server: room {self.id}: write failed: {exc}", file=sys.stderr)
        game = self.game
        shared: dict[str, Any] = {}
        for seat in sorted(self.dirty):
            sink = self.conns.get(seat)
            if sink is None:
                self.dirty.discard(seat)
                continue
            if only_asked and (game.phase == "turn" or not game.legal_actions(seat)):
                # During a hold only seats asked to react hear anything; even the next
                # player waits, or it would learn early that nobody could claim.
                continue
            self.dirty.discard(seat)
            for message in self.state_messages(seat, shared):
                sink.send(message)

    def state_messages(
        self, seat: int, shared: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """``state`` messages bringing the seat from its cursor to now (one per hand).

        ``shared`` caches the parts that are the same for every seat within one delivery.
        """
        if not shared:
            shared = shared if shared is not None else {}
            shared["seats"] = self.seats_info()
            shared["match"] = {"hands": self.hand_count, "scores": self.scores}
            shared["ready"] = sorted(self.ready)
        hand, since = self.cursor.get(seat, (self.hand_index, 0))
        if self.hand_game(hand) is None:  # (a hand that left memory: the current one whole)
            hand, since = self.hand_index, 0
        out = []
        for h in range(hand, self.hand_index + 1):
            game = self.match._hands[h]
            events = game.events_for(seat, since=since if h == hand else 0)
            out.append(
                {
                    "type": "state",
                    "hand": h,
                    "view": game.view(seat),
                    "events": events,
                    "next": len(game.event_log),
                    **shared,
                }
            )
        self.cursor[seat] = (self.hand_index, len(self.game.event_log))
        return out
