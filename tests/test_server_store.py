"""Storage: two server processes writing one room are fenced by the log's primary key."""

from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy")

from mjcore.server.lobby import Lobby  # noqa: E402
from mjcore.server.store import Store  # noqa: E402


def test_second_writer_of_a_room_is_refused_and_reloads(tmp_path):
    db = str(tmp_path / "shared.db")
    first = Lobby(Store(db))
    room = first.create({"variant": "xuezhan_kaxinwu", "seats": ["human"] * 4})
    second = Lobby(Store(db))
    assert second.restore_all() == 1
    twin = second.get(room.id)
    assert twin.game.view(0) == room.game.view(0)

    seat = room.game.to_act()[0]
    legal = [str(a) for a in room.game.legal_actions(seat)]
    mine, theirs = legal[0], legal[-1]
    assert mine != theirs
    room.act(seat, mine)
    room.flush()  # the first process records entry n
    twin.act(seat, theirs)  # the second, unaware, applies another action in memory …
    with pytest.raises(Exception, match="UNIQUE|unique|IntegrityError"):
        twin.flush()  # … but cannot record it: entry n exists
    # The refused writer went back to what the database holds: the first process's action.
    assert twin.game.view(seat) == room.game.view(seat)
    assert [str(a) for _, a in twin.game.history] == [str(a) for _, a in room.game.history]
    first.store.close()
    second.store.close()


def test_database_url_accepts_paths_and_urls(tmp_path):
    from mjcore.server.store import database_url

    assert database_url("rooms.db") == "sqlite:///rooms.db"
    assert database_url("/var/mj/rooms.db") == "sqlite:////var/mj/rooms.db"
    url = "postgresql+psycopg://mj@db/mj"
    assert database_url(url) == url


def test_a_room_asked_for_while_its_lease_is_given_up_keeps_an_owner(tmp_path):
    """A renewal round gives up the lease of a room nobody is connected to. A request for it
    arriving before that release is written is served once it is, under a lease taken again:
    the database never shows a room in use as unowned (a proxy reading it would route the
    room's players to another process)."""
    import asyncio
    import threading
    import time

    store = Store(str(tmp_path / "leases.db"))
    lobby = Lobby(store, owner="me", lease_s=30.0)
    release = store.release
    entered, go = threading.Event(), threading.Event()

    def slow_release(owner, room_ids):
        entered.set()
        assert go.wait(10)
        release(owner, room_ids)

    async def scenario():
        room = await lobby.create_async({"variant": "xuezhan_kaxinwu", "seats": ["human"] * 4})
        assert await lobby.fetch(room.id) is room
        assert store.lease_of(room.id)[0] == "me"
        store.release = slow_release
        renewal = asyncio.ensure_future(lobby.keep_leases())
        assert await asyncio.to_thread(entered.wait, 10)  # the release is being written
        asked = asyncio.ensure_future(lobby.fetch(room.id))
        await asyncio.sleep(0.1)
        assert not asked.done()  # served only once the release is written
        go.set()
        await renewal
        assert await asked is room
        owner, until = store.lease_of(room.id)
        assert owner == "me" and until is not None and until > time.time()
        assert room.leased_until == until

    try:
        asyncio.run(scenario())
    finally:
        store.close()
