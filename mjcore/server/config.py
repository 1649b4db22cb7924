"""A room's configuration: the create-room request checked and resolved once (variant, seats,
options into a :class:`~mjcore.engine.rules.Rules`, pacing), and the errors of room requests."""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import BOTS
from ..engine.checks import check_seat
from ..engine.rules import Rules
from ..errors import InvalidOptionError, clip
from ..variants import get_variant, names
from . import DEFAULT_BOT

HUMAN = "human"
# Pacing floors: below them a room with bots plays hundreds of hands a second by itself.
IDLE_TIMEOUT_FLOOR_S = 1.0  # idle_timeout_s: a human seat's least time to decide
NEXT_HAND_FLOOR_S = 1.0  # next_hand_s: the least pause between hands (unless all are ready)


class RoomError(InvalidOptionError):
    """A request about a room that cannot be honoured (bad config, unknown room, full seat)."""


class RoomBusy(RoomError):
    """Another server process holds the room's lease (it serves the room); ``retry_after``:
    seconds until that lease runs out unless renewed."""

    def __init__(self, room_id: str, retry_after: float) -> None:
        super().__init__(f"room {room_id} is served by another server process; retry shortly")
        self.retry_after = retry_after


class RoomsFull(RoomError):
    """This process holds its maximum of rooms (503: a proxy may try another process)."""


@dataclass(frozen=True)
class RoomConfig:
    """Everything that defines a room; ``seed`` is private to the server (it fixes the walls)."""

    variant: str
    players: int
    options: dict[str, Any]
    seats: tuple[str, ...]  # "human" or a bot name per seat
    seed: int
    first_dealer: int = 0
    claim_window_ms: int = 0
    idle_timeout_s: float = 30.0
    next_hand_s: float = 10.0
    max_hands: int = 0  # 0 = no limit
    bot: str = DEFAULT_BOT  # plays a human seat while it is away, and fills omitted seats

    @property
    def rules(self) -> Rules:
        """The room's :class:`~mjcore.engine.rules.Rules`: resolved once (by the room request,
        or from a stored config on first use), then handed to the room's Match."""
        rules = self.__dict__.get("_rules")
        if rules is None:
            rules = get_variant(self.variant).rules(self.options, self.players)
            object.__setattr__(self, "_rules", rules)
        return rules  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["seats"] = list(self.seats)
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> RoomConfig:
        # A room stored before rooms had a ``bot`` was played by greedy while a seat was away.
        return RoomConfig(**{"bot": "greedy", **data, "seats": tuple(data["seats"])})

    def public(self) -> dict[str, Any]:
        """The configuration without the seed."""
        out = self.to_json()
        del out["seed"]
        return out


def _number(
    data: dict[str, Any], key: str, default: float, low: float, high: float, whole: bool = False
) -> float:
    """``data[key]`` (or the default) checked to be a number in ``low..high`` (an integer if
    ``whole``), else RoomError."""
    value = data.get(key, default)
    kinds = (int,) if whole else (int, float)
    if type(value) not in kinds or not low <= value <= high:
        what = "an integer" if whole else "a number"
        floor = " (its floor: a room may not play faster)" if low > 0 else ""
        raise RoomError(f"{key} must be {what} {low:g}..{high:g}{floor}, got {clip(value)}")
    return value


def config_from_request(data: Any, defaults: dict[str, Any] | None = None) -> RoomConfig:
    """Validate a create-room request (JSON object) into a RoomConfig, or raise RoomError."""
    if not isinstance(data, dict):
        raise RoomError("a room request is a JSON object")
    known = {"variant", "players", "options", "seats", "first_dealer", "claim_window_ms",
             "idle_timeout_s", "next_hand_s", "max_hands", "bot"}  # fmt: skip
    unknown = set(data) - known
    if unknown:
        raise RoomError(f"unknown room field(s): {sorted(unknown)}; known: {sorted(known)}")
    data = {**(defaults or {}), **data}
    variant = data.get("variant")
    if variant not in names():
        raise RoomError(f"unknown variant {variant!r}; known variants: {', '.join(names())}")
    v = get_variant(variant)
    players = data.get("players", v.max_players)
    if isinstance(players, bool) or not isinstance(players, int):
        raise RoomError(f"players must be an integer, got {players!r}")
    if not v.min_players <= players <= v.max_players:
        raise RoomError(f"players must be {v.min_players}..{v.max_players} for {variant}")
    bot = data.get("bot", DEFAULT_BOT)
    if not isinstance(bot, str) or bot not in BOTS:
        raise RoomError(f"bot must be one of {', '.join(BOTS)}, got {clip(bot)}")
    seats = data.get("seats", [HUMAN] + [bot] * (players - 1))
    if not isinstance(seats, list) or len(seats) != players:
        raise RoomError(f"seats must be a list of {players} entries ('human' or a bot name)")
    for kind in seats:
        if not isinstance(kind, str) or (kind != HUMAN and kind not in BOTS):
            raise RoomError(f"seat kind {kind!r} is neither 'human' nor a bot ({', '.join(BOTS)})")
    if HUMAN not in seats:
        raise RoomError("a room needs at least one human seat")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RoomError("options must be a JSON object")
    first_dealer = data.get("first_dealer", 0)
    try:  # the room request is the public edge: the name and options are resolved here, once
        rules = v.rules(options, players)
        check_seat(first_dealer, players, "first_dealer", InvalidOptionError)
    except ValueError as exc:
        raise RoomError(str(exc)) from None
    config = RoomConfig(
        variant=variant,
        players=players,
        options=rules.options,
        seats=tuple(seats),
        seed=secrets.randbits(62),
        first_dealer=first_dealer,
        claim_window_ms=int(_number(data, "claim_window_ms", 0, 0, 30_000, whole=True)),
        idle_timeout_s=float(_number(data, "idle_timeout_s", 30.0, IDLE_TIMEOUT_FLOOR_S, 3600)),
        next_hand_s=float(_number(data, "next_hand_s", 10.0, NEXT_HAND_FLOOR_S, 3600)),
        max_hands=int(_number(data, "max_hands", 0, 0, 10_000, whole=True)),
        bot=bot,
    )
    object.__setattr__(config, "_rules", rules)  # (RoomConfig.rules: already resolved)
    return config
