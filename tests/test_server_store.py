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
