"""TypedDicts of mjcore's JSON shapes (wire format 2): the Python twin of :mod:`mjcore.schemas`.

A tile is a notation string (``Tile``), a group of tiles one notation string (``TileGroup``),
a hidden tile ``None``. ``tests/test_schemas.py`` checks that every TypedDict here has exactly
the keys of its schema object, so the two cannot drift; the schemas say more (patterns, enums,
ranges) than a type checker can. Optional keys are those of a ``total=False`` part (rather
than ``NotRequired``, which Python 3.10's ``typing`` lacks): ``__optional_keys__`` lists them.
"""

from typing import Any, Literal, TypeAlias, TypedDict

Tile: TypeAlias = str
"""One tile in notation: ``"4s"``, ``"7z"``, ``"1f"``."""
TileGroup: TypeAlias = str
"""Tiles whose order does not matter, one notation string: ``"123m456p11z"`` (``""``: none)."""
ActionText: TypeAlias = str
"""An action as ``str(Action)`` writes it: ``"discard 4s"``, ``"chi 456p"``, ``"choose pao 2"``."""
Phase = Literal["deal", "choose", "turn", "claim", "rob", "fenzhang", "over", "waiting"]
How = Literal["self_draw", "discard", "rob_gang", "fenzhang"]
OptionValue: TypeAlias = bool | int | float | str


# ---- the view ------------------------------------------------------------------------------
class _SeatViewRequired(TypedDict):
    seat: int
    melds: list[str]
    discards: list[Tile]
    flowers: TileGroup
    won_tiles: list[Tile]
    concealed_count: int
    declared: str
    choices: dict[str, int]
    sealed: bool


class SeatView(_SeatViewRequired, total=False):
    """One entry of ``view["seats"]``."""

    hand: TileGroup
    held_flowers: TileGroup
    drawn: Tile


ClaimView = TypedDict("ClaimView", {"from": int, "tile": Tile, "kind": Literal["discard", "rob"]})
"""``view["claim"]`` in a window the viewer is asked in (``from`` is a Python keyword)."""


class _TingEntryRequired(TypedDict):
    declared: str


class TingEntry(_TingEntryRequired, total=False):
    """荣成: one declared seat's entry of ``public["ting"]``."""

    hand: TileGroup
    waits: TileGroup


class PublicState(TypedDict, total=False):
    """``view["public"]``: the variant's public facts (each key only where the variant has it)."""

    joker_kind: TileGroup
    joker_indicator: TileGroup
    bao: Tile | Literal["hidden"] | None
    ting: list[TingEntry | None]
    hua: list[int]
    sanbi: list[list[int]]


class View(TypedDict):
    """``game.view(seat)``: what one seat may know."""

    variant: str
    options: dict[str, bool | int | float | str]
    seat: int
    dealer: int
    phase: Phase
    current: int
    to_act: list[int]
    legal_actions: list[ActionText]
    claim: ClaimView | None
    wall_remaining: int
    wall_live: int
    indicators: list[Tile]
    set_aside: list[Tile]
    horses: list[Tile]
    liabilities: list[list[int]]
    seats: list[SeatView]
    scores: list[int]
    public: PublicState


# ---- events --------------------------------------------------------------------------------
class Hit(TypedDict):
    """One scoring pattern of a win."""

    id: str
    name: str
    value: int
    combine: Literal["base", "add", "mul"]


class DealEvent(TypedDict):
    type: Literal["deal"]
    seq: int
    dealer: int
    hands: list[TileGroup | None]


class IndicatorEvent(TypedDict):
    type: Literal["indicator"]
    seq: int
    tile: Tile | None
    joker: Tile | None
    hidden: bool
    revealed: bool


class BaoEvent(TypedDict):
    type: Literal["bao"]
    seq: int
    tile: Tile
    replaces: Tile | None


class FlowerEvent(TypedDict):
    type: Literal["flower"]
    seq: int
    seat: int
    flower: Tile
    tile: Tile | None


class ChooseEvent(TypedDict):
    type: Literal["choose"]
    seq: int
    seat: int
    name: str
    value: int
    locked: bool


class DrawEvent(TypedDict):
    type: Literal["draw"]
    seq: int
    seat: int
    tile: Tile | None
    how: Literal["wall", "replacement"]


class DiscardEvent(TypedDict):
    type: Literal["discard"]
    seq: int
    seat: int
    tile: Tile


class ClaimEvent(TypedDict):
    type: Literal["claim"]
    seq: int
    seat: int
    kind: Literal["chi", "peng", "zhigang"]
    tile: Tile
    tiles: TileGroup
    from_seat: int


class GangEvent(TypedDict):
    type: Literal["gang"]
    seq: int
    seat: int
    meld: Literal["zhigang", "bugang", "angang"]
    tile: Tile | None
    chain: int


class BugangDeclaredEvent(TypedDict):
    type: Literal["bugang_declared"]
    seq: int
    seat: int
    tile: Tile


class DeclareEvent(TypedDict):
    type: Literal["declare"]
    seq: int
    seat: int
    name: str


class NiuEvent(TypedDict):
    type: Literal["niu"]
    seq: int
    seat: int
    tiles: TileGroup
    tiao: bool


class FenzhangEvent(TypedDict):
    type: Literal["fenzhang"]
    seq: int
    seat: int
    tile: Tile | None


class HuEvent(TypedDict):
    type: Literal["hu"]
    seq: int
    seat: int
    tile: Tile
    how: How
    from_seat: int
    patterns: list[Hit]
    fan: int
    points: int
    formula: str
    hand: TileGroup


class PayEvent(TypedDict):
    type: Literal["pay"]
    seq: int
    payer: int
    payee: int
    amount: int
    reason: str


class LiabilityEvent(TypedDict):
    type: Literal["liability"]
    seq: int
    seats: list[int]


class SealedEvent(TypedDict):
    type: Literal["sealed"]
    seq: int
    seat: int


class HorsesEvent(TypedDict):
    type: Literal["horses"]
    seq: int
    tiles: list[Tile]


class EndEvent(TypedDict):
    type: Literal["end"]
    seq: int
    scores: list[int]
    exhausted: bool


Event: TypeAlias = (
    DealEvent
    | IndicatorEvent
    | BaoEvent
    | FlowerEvent
    | ChooseEvent
    | DrawEvent
    | DiscardEvent
    | ClaimEvent
    | GangEvent
    | BugangDeclaredEvent
    | DeclareEvent
    | NiuEvent
    | FenzhangEvent
    | HuEvent
    | PayEvent
    | LiabilityEvent
    | SealedEvent
    | HorsesEvent
    | EndEvent
)
"""Any event of ``game.events`` / ``game.events_for(seat)`` (discriminated by ``type``)."""

EVENT_TYPES: dict[str, type] = {
    "deal": DealEvent,
    "indicator": IndicatorEvent,
    "bao": BaoEvent,
    "flower": FlowerEvent,
    "choose": ChooseEvent,
    "draw": DrawEvent,
    "discard": DiscardEvent,
    "claim": ClaimEvent,
    "gang": GangEvent,
    "bugang_declared": BugangDeclaredEvent,
    "declare": DeclareEvent,
    "niu": NiuEvent,
    "fenzhang": FenzhangEvent,
    "hu": HuEvent,
    "pay": PayEvent,
    "liability": LiabilityEvent,
    "sealed": SealedEvent,
    "horses": HorsesEvent,
    "end": EndEvent,
}
"""Each event type's TypedDict, by the ``type`` it carries."""


# ---- saved game and match ------------------------------------------------------------------
class SavedGame(TypedDict):
    """``Game.to_json()`` (format 2), parsed."""

    format: Literal[2]
    variant: str
    players: int
    options: dict[str, OptionValue]
    dealer: int
    seed: int | None
    carry: dict[str, Any]
    wall: list[Tile]
    history: list[list[int | ActionText]]


class SavedMatch(TypedDict):
    """``Match.to_json()`` (format 2), parsed."""

    format: Literal[2]
    variant: str
    players: int
    options: dict[str, OptionValue]
    seed: int | None
    first_dealer: int
    hands: list[SavedGame]


# ---- the calculator ------------------------------------------------------------------------
class _CalculatorInputRequired(TypedDict):
    concealed: TileGroup
    win_tile: Tile


class CalculatorInput(_CalculatorInputRequired, total=False):
    """``variant.calculate()``'s win description (``WinContext.to_json``)."""

    how: How
    melds: list[str]
    jokers: int
    joker_kind: Tile | None
    gang_chain: int
    after_gang: int
    flags: list[str]
    flowers: TileGroup
    variant: Any
    options: Any


class CalculatorResult(TypedDict):
    """``Breakdown.to_json()``: what a win is worth."""

    patterns: list[Hit]
    fan: int
    points: int
    formula: str


# ---- the server ----------------------------------------------------------------------------
class RoomConfig(TypedDict):
    """A room's public configuration (``welcome``'s and the summary's ``config``)."""

    variant: str
    players: int
    options: dict[str, OptionValue]
    seats: list[str]
    first_dealer: int
    claim_window_ms: int
    idle_timeout_s: float
    next_hand_s: float
    max_hands: int
    bot: str


class _CreateRoomRequestRequired(TypedDict):
    variant: str


class CreateRoomRequest(_CreateRoomRequestRequired, total=False):
    """``POST /api/rooms`` body (only ``variant`` is required)."""

    players: int
    options: dict[str, OptionValue]
    seats: list[str]
    first_dealer: int
    claim_window_ms: int
    idle_timeout_s: float
    next_hand_s: float
    max_hands: int
    bot: str


class SeatInfo(TypedDict):
    """One seat of a room's public seat list."""

    seat: int
    kind: str
    name: str
    joined: bool
    connected: bool
    away: bool


class RoomSummary(TypedDict):
    """``GET /api/rooms/{id}`` (and ``POST /api/rooms``) reply."""

    room: str
    config: RoomConfig
    seats: list[SeatInfo]
    hand: int
    phase: Literal["playing", "over"]
    scores: list[int]


class MatchInfo(TypedDict):
    hands: int
    scores: list[int]


class WelcomeMessage(TypedDict):
    type: Literal["welcome"]
    room: str
    seat: int
    config: RoomConfig


class StateMessage(TypedDict):
    type: Literal["state"]
    hand: int
    view: View
    events: list[Event]
    next: int
    seats: list[SeatInfo]
    match: MatchInfo
    ready: list[int]


class OkMessage(TypedDict):
    type: Literal["ok"]
    id: int | str | None


class _ErrorMessageRequired(TypedDict):
    type: Literal["error"]
    code: str
    message: str


class ErrorMessage(_ErrorMessageRequired, total=False):
    id: int | str


class PongMessage(TypedDict):
    type: Literal["pong"]
    id: int | str | None


class ClosingMessage(TypedDict):
    type: Literal["closing"]
    reason: str


ServerMessage: TypeAlias = (
    WelcomeMessage | StateMessage | OkMessage | ErrorMessage | PongMessage | ClosingMessage
)
"""Any WebSocket message the server sends."""


class _HelloMessageRequired(TypedDict):
    type: Literal["hello"]
    token: str


class HelloMessage(_HelloMessageRequired, total=False):
    hand: int
    since: int
    id: int | str
    seat: int


class _ActMessageRequired(TypedDict):
    type: Literal["act"]
    action: ActionText


class ActMessage(_ActMessageRequired, total=False):
    id: int | str
    seat: int


class _NextMessageRequired(TypedDict):
    type: Literal["next"]


class NextMessage(_NextMessageRequired, total=False):
    hand: int
    id: int | str
    seat: int


class _BackMessageRequired(TypedDict):
    type: Literal["back"]


class BackMessage(_BackMessageRequired, total=False):
    id: int | str
    seat: int


class _PingMessageRequired(TypedDict):
    type: Literal["ping"]


class PingMessage(_PingMessageRequired, total=False):
    id: int | str
    seat: int


ClientMessage: TypeAlias = HelloMessage | ActMessage | NextMessage | BackMessage | PingMessage
"""Any WebSocket message a client may send."""

SERVER_MESSAGE_TYPES: dict[str, type] = {
    "welcome": WelcomeMessage,
    "state": StateMessage,
    "ok": OkMessage,
    "error": ErrorMessage,
    "pong": PongMessage,
    "closing": ClosingMessage,
}
CLIENT_MESSAGE_TYPES: dict[str, type] = {
    "hello": HelloMessage,
    "act": ActMessage,
    "next": NextMessage,
    "back": BackMessage,
    "ping": PingMessage,
}
