"""The server's bot (issue 26): the agent that plays an away human seat and fills omitted bot
seats is configurable per server (``--bot``) and per room (``bot``), ``expert`` by default."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from test_server_pacing import FakeLoop, Sink  # noqa: E402

from mjcore.bots import BOTS  # noqa: E402
from mjcore.server import DEFAULT_BOT  # noqa: E402
from mjcore.server.rooms import Room, RoomConfig, RoomError, config_from_request  # noqa: E402
from mjcore.server.store import Store  # noqa: E402


def test_the_default_bot_is_the_expert_and_fills_omitted_seats():
    assert DEFAULT_BOT == "expert"
    config = config_from_request({"variant": "qingdao"})
    assert config.bot == "expert"
    assert config.seats == ("human", "expert", "expert", "expert")
    assert config.public()["bot"] == "expert"


def test_a_server_default_and_a_room_choice():
    config = config_from_request({"variant": "lipu", "players": 3}, {"bot": "greedy"})
    assert config.bot == "greedy" and config.seats == ("human", "greedy", "greedy")
    config = config_from_request({"variant": "lipu", "bot": "random"}, {"bot": "greedy"})
    assert config.bot == "random" and config.seats[1:] == ("random",) * 3
    seats = ["human", "greedy", "expert", "random"]
    config = config_from_request({"variant": "susong", "seats": seats, "bot": "mc"})
    assert config.seats == tuple(seats) and config.bot == "mc"


@pytest.mark.parametrize("bot", ["wizard", "", 1, None, ["expert"], "mjcore.bots:ExpertBot"])
def test_a_bot_that_is_no_registered_name_is_refused(bot):
    with pytest.raises(RoomError, match="bot must be one of"):
        config_from_request({"variant": "qingdao", "bot": bot})
    assert "expert" in BOTS


def test_a_room_stored_before_rooms_had_a_bot_keeps_greedy():
    stored = config_from_request({"variant": "qingdao"}).to_json()
    del stored["bot"]
    assert RoomConfig.from_json(stored).bot == "greedy"
    stored["bot"] = "expert"
    assert RoomConfig.from_json(stored).bot == "expert"


@pytest.mark.parametrize("bot", ["expert", "random"])
def test_an_away_seat_is_played_by_the_rooms_bot(tmp_path, bot):
    loop = FakeLoop()
    config = RoomConfig(
        variant="xuezhan_kaxinwu",
        players=4,
        options={},
        seats=("human", "greedy", "greedy", "greedy"),
        seed=7,
        idle_timeout_s=0.5,
        next_hand_s=600,
        bot=bot,
    )
    store = Store(str(tmp_path / "bot.db"))
    try:
        room = Room.create("botroom", config, store, schedule=loop.call_later, clock=loop.now)
        room.join(0)
        room.connect(0, Sink(loop))
        room.pump()
        seat0_before = sum(1 for s, _ in room.game.history if s == 0)
        loop.advance(30)
        assert 0 in room.away
        assert sum(1 for s, _ in room.game.history if s == 0) > seat0_before
        assert bot in room._bots  # the seat's decisions came from the room's bot
        assert set(room._bots) == {bot, "greedy"}
    finally:
        store.close()
