"""``Game.copy()``: an independent game in a few microseconds, for search and what-if play.

Every container the engine changes in place is copied (the wall's position, each seat's
hand, melds list, river, choices and extras, the claim window's dicts, the lists of set-aside
tiles, indicators, horses, payments, wins and the history, the event log); everything the
engine only ever *replaces* is shared (the variant and its options, tuples, frozensets,
melds, actions, breakdowns and the Win objects of finished wins: a Win is filled in while its
own ``apply`` runs, never after). A copy plays on exactly as the original would: same legal
actions, same events, same saved form (tests/test_game_copy.py checks it, compiled and pure).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game
    from .seat import SeatState

_LISTS = (
    *("set_aside", "won_pool", "indicators", "horses", "liabilities", "hidden_indicators"),
    *("locked_choices", "_settlement", "_wins", "_history_actions", "_legal"),
)
"""Lists of immutable items: a shallow copy each."""
_DICTS = ("decisions", "_offered_wins", "_answered")
"""Dicts of immutable values: a shallow copy each."""


def deep_plain(value: Any) -> Any:
    """``value`` with its lists, dicts, sets and bytearrays copied at every level."""
    kind = type(value)
    if kind is list:
        return [deep_plain(v) for v in value]
    if kind is dict:
        return {k: deep_plain(v) for k, v in value.items()}
    if kind is set:
        return {deep_plain(v) for v in value}
    if kind is bytearray:
        return bytearray(value)
    return value


def copy_seat(st: SeatState) -> SeatState:
    """An independent copy of one seat's state."""
    new = type(st).__new__(type(st))
    new.hand = bytearray(st.hand)
    new.melds = list(st.melds)
    new.discards = list(st.discards)
    new.flowers = st.flowers
    new.held_flowers = st.held_flowers
    new.won_tiles = st.won_tiles
    new.wins = st.wins
    new.choices = dict(st.choices)
    new.declared = st.declared
    new.pass_hu = st.pass_hu  # replaced on change, never changed in place
    new.pass_hu_any = st.pass_hu_any
    new.pass_peng = st.pass_peng
    new.no_discard = st.no_discard
    new.no_bugang = st.no_bugang
    new.discard_count = st.discard_count
    new.claims = st.claims
    new.claimed_from = bytearray(st.claimed_from)
    new.sealed = st.sealed
    new.extra = deep_plain(st.extra) if st.extra else {}
    new._waits = st._waits
    new._waits_before_draw = st._waits_before_draw
    return new


def _copiers() -> dict[str, Any]:
    """How each changed-in-place field of a Game is copied (every other field is shared)."""
    out: dict[str, Any] = dict.fromkeys(_LISTS, list)
    out.update(dict.fromkeys(_DICTS, dict))
    out.update(
        carry=deep_plain,
        extra=deep_plain,
        wall=lambda wall: wall.copy(),
        seats=lambda seats: [copy_seat(st) for st in seats],
        pending=lambda pending: {s: list(acts) for s, acts in pending.items()},
        _events=lambda log: log.copy(),
        _history_seats=bytearray,
    )
    return out


_COPIERS = _copiers()


def copy_game(game: Game) -> Game:
    """An independent copy of ``game`` (see the module docstring for what is shared)."""
    from .game import STATE

    cls = type(game)
    new = cls.__new__(cls)
    copiers = _COPIERS
    for name in STATE:
        value = getattr(game, name)
        how = copiers.get(name)
        setattr(new, name, value if how is None else how(value))
    return new
