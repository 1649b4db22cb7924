"""Per-hand snapshots of a room's match: restores in milliseconds, finished hands out of memory.

A hand of a :class:`~mjcore.engine.match.Match` is fully determined by its index (the wall
seed), its dealer, its carried state and the match's settings; the match's standing before it
is the cumulative scores. A :class:`Snapshot` holds exactly that, taken when the hand is dealt
and stored (table ``snapshots``) once the hand's ``new_hand`` log entry is committed — the
commit proves this process's log is the stored one, so any process replaying the stored log
would compute the same snapshot. A restore then reads the room's latest snapshot and the
log entries after it (one hand's worth), never the whole match; the room keeps in memory only
the hands it still needs (:data:`KEEP_HANDS`), and a finished hand's saved game is rebuilt on
demand from its snapshot and its entries (:func:`load_hand`).

Rooms stored without snapshots (older databases) still restore, by replaying their whole log
(off the event loop); their next dealt hand gets a snapshot.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Integer, MetaData, String, Table, Text, insert, select
from sqlalchemy.exc import IntegrityError

from ..engine.game import Game
from ..engine.match import Match
from .config import RoomConfig, RoomError
from .store import Store, StoredRoom, _failing_as_store_error, actions, rooms, seats

metadata = MetaData()

snapshots = Table(
    "snapshots",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("n", Integer, nullable=False),  # log position of the hand's new_hand entry
    Column("state", Text, nullable=False),  # JSON: scores before the hand, dealer, carry
)

KEEP_HANDS = 2
"""Hands a room keeps in memory: the current one and the one before (a seat resuming across
one hand boundary gets the rest of the old hand); older ones are rebuilt from the store."""


@dataclass(frozen=True)
class Snapshot:
    """What deals hand ``hand`` of a match: its log position ``n`` (the new_hand entry), the
    cumulative scores before it, its dealer and carried state."""

    hand: int
    n: int
    scores: tuple[int, ...]
    dealer: int
    carry: dict[str, Any]

    def to_json(self) -> str:
        return json.dumps({"scores": list(self.scores), "dealer": self.dealer, "carry": self.carry})

    @staticmethod
    def from_row(hand: int, n: int, state: str) -> Snapshot:
        data = json.loads(state)
        return Snapshot(hand, n, tuple(data["scores"]), data["dealer"], data["carry"])


class Done:
    """A finished hand that left memory: only its scores (Match sums them) remain. The first
    stand-in of a trimmed match carries every trimmed hand's scores; the others share one
    zero-scored instance (a pointer per hand)."""

    is_over = True

    def __init__(self, scores: list[int]) -> None:
        self.scores = scores

    def __repr__(self) -> str:
        return f"<finished hand, scores {self.scores}>"


_ZERO: dict[int, Done] = {}


def snapshot_of(match: Match, n: int) -> Snapshot:
    """The snapshot of the match's current hand (just dealt), whose new_hand entry is ``n``."""
    game = match.current
    assert game is not None
    before = total(match, len(match._hands) - 1)
    return Snapshot(len(match._hands) - 1, n, tuple(before), game.dealer, dict(game.carry))


def total(match: Match, upto: int | None = None) -> list[int]:
    """The cumulative scores of the match's first ``upto`` hands (all by default), walking only
    the hands still whole and the first stand-in (which holds the trimmed hands' sum)."""
    hands = match._hands
    end = len(hands) if upto is None else upto
    out = [0] * match.players
    i = end - 1
    while i >= 0 and not isinstance(hands[i], Done):
        for seat, s in enumerate(hands[i].scores):
            out[seat] += s
        i -= 1
    if i >= 0:  # hands[0] is the stand-in carrying every trimmed hand (the rest are zero)
        for seat, s in enumerate(hands[0].scores):
            out[seat] += s
    return out


def match_at(template: Match, snap: Snapshot) -> Match:
    """A match like ``template`` (variant, players, options, seed, first dealer) whose hands
    before ``snap.hand`` are stand-ins and whose current hand is ``snap.hand``, just dealt."""
    match = Match(template.rules, seed=template.seed, first_dealer=template.first_dealer)
    if snap.hand == 0:
        match.new_hand()
        return match
    zero = _ZERO.setdefault(match.players, Done([0] * match.players))
    stand_ins: list[Any] = [Done(list(snap.scores))] + [zero] * (snap.hand - 1)
    match._hands = stand_ins  # (Done stand-ins where finished hands were: see trim)
    game = match.rules.new_game(
        seed=match.hand_seed(snap.hand), dealer=snap.dealer, carry=snap.carry
    )
    match._hands.append(game)
    return match


def trim(match: Match, keep: int = KEEP_HANDS) -> None:
    """Replace every hand but the last ``keep`` by stand-ins (their scores summed into the
    first): the match's scores and hand count are unchanged, its memory bounded."""
    hands: list[Any] = match._hands
    cut = len(hands) - keep
    if cut < 1 or isinstance(hands[cut - 1], Done):
        return
    summed = total(match, cut)
    zero = _ZERO.setdefault(match.players, Done([0] * match.players))
    first = cut - 1  # the first whole hand before the cut
    while first > 0 and not isinstance(hands[first - 1], Done):
        first -= 1
    hands[max(first, 1) : cut] = [zero] * (cut - max(first, 1))
    hands[0] = Done(summed)


def ensure_table(store: Store) -> None:
    metadata.create_all(store.engine)


def write(store: Store, room_id: str, snap: Snapshot) -> None:
    """Store a snapshot (a second copy of the same one is ignored)."""
    row = {"room_id": room_id, "hand": snap.hand, "n": snap.n, "state": snap.to_json()}
    with _failing_as_store_error([room_id]):
        try:
            with store.engine.begin() as conn:
                conn.execute(insert(snapshots), [row])
        except IntegrityError:
            pass  # (written before: snapshots are a function of the stored log)


def room_ids(store: Store) -> list[str]:
    """Every stored room's id, in creation order."""
    with _failing_as_store_error([]), store.engine.connect() as conn:
        return [r.id for r in conn.execute(select(rooms.c.id).order_by(rooms.c.created))]


def load_room(store: Store, room_id: str) -> tuple[StoredRoom, Snapshot | None] | None:
    """The room with the log from its latest usable snapshot on (the whole log without one),
    or None if there is no such room. A snapshot is usable when the stored log holds its
    hand's new_hand entry at its position."""
    with _failing_as_store_error([room_id]), store.engine.connect() as conn:
        row = conn.execute(select(rooms).where(rooms.c.id == room_id)).first()
        if row is None:
            return None
        stored = StoredRoom(room_id, json.loads(row.config), {}, {}, [], row.finished)
        for r in conn.execute(select(seats).where(seats.c.room_id == room_id)):
            if r.token_hash:
                stored.token_hashes[r.seat] = r.token_hash
            stored.names[r.seat] = r.name
        snap = None
        found = conn.execute(
            select(snapshots).where(snapshots.c.room_id == room_id)
            .order_by(snapshots.c.hand.desc()).limit(3)
        ).all()  # fmt: skip
        for s in found:
            marker = conn.execute(
                select(actions.c.hand, actions.c.action)
                .where(actions.c.room_id == room_id, actions.c.n == s.n)
            ).first()  # fmt: skip
            if marker is not None and marker.hand == s.hand and marker.action == "new_hand":
                snap = Snapshot.from_row(s.hand, s.n, s.state)
                break
        log_q = select(actions.c.hand, actions.c.seat, actions.c.action).where(
            actions.c.room_id == room_id, actions.c.n >= (snap.n if snap else 0)
        )
        stored.log = [(r.hand, r.seat, r.action) for r in conn.execute(log_q.order_by(actions.c.n))]
    return stored, snap


def load_hand(store: Store, room_id: str, config: Any, hand: int) -> Game | None:
    """Hand ``hand`` of a room as played (finished or not), rebuilt from its snapshot and its
    log entries (from the whole log if it has no snapshot); None if it was never dealt."""
    with _failing_as_store_error([room_id]), store.engine.connect() as conn:
        found = {
            r.hand: r
            for r in conn.execute(
                select(snapshots).where(
                    snapshots.c.room_id == room_id, snapshots.c.hand.in_([hand, hand + 1])
                )
            )
        }
        s = found.get(hand)
        snap = Snapshot.from_row(s.hand, s.n, s.state) if s is not None else None
        where = [actions.c.room_id == room_id]
        if snap is not None:  # that hand's entries only: from its snapshot to the next
            where.append(actions.c.n >= snap.n)
            if hand + 1 in found:
                where.append(actions.c.n < found[hand + 1].n)
        log_q = select(actions.c.hand, actions.c.seat, actions.c.action).where(*where)
        log = []
        for r in conn.execute(log_q.order_by(actions.c.n)):
            if r.hand > hand:
                break
            log.append((r.hand, r.seat, r.action))
    if not log or log[-1][0] != hand:
        return None
    match = replay_log(config, log, snap, keep=1)
    return match.current


def replay_log(
    config: RoomConfig,
    log: list[tuple[int, int, str]],
    snap: Snapshot | None = None,
    keep: int = KEEP_HANDS,
    snaps: dict[int, Snapshot] | None = None,
) -> Match:
    """The room's match after ``log``: from its start, or from ``snap`` (then ``log`` starts
    with that hand's new_hand entry). Only the last ``keep`` hands stay whole in memory;
    ``snaps`` (if given) gets the snapshot of every hand dealt from the log."""
    match = Match(config.rules, seed=config.seed, first_dealer=config.first_dealer)
    start = 0
    if snap is not None:
        if not log or log[0] != (snap.hand, -1, "new_hand"):
            raise RoomError(f"the log does not start at hand {snap.hand}'s snapshot")
        match = match_at(match, snap)
        start = 1
        if snaps is not None:
            snaps[snap.hand] = snap
    base = snap.n if snap is not None else 0
    for i in range(start, len(log)):
        hand, seat, action = log[i]
        if action == "new_hand":
            match.new_hand()
            if snaps is not None:
                dealt = snapshot_of(match, base + i)
                snaps[dealt.hand] = dealt
            trim(match, keep)
        else:
            game = match.current
            if game is None or hand != len(match._hands) - 1:
                raise RoomError(f"log entry for hand {hand} out of order")
            game.apply(seat, action)
    return match
