# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""Per-seat views: what one seat may know, as plain JSON-ready data."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .. import tiles as T
from .actions import action_texts
from .events import copy_plain

if TYPE_CHECKING:
    from .game import Game


_WINDOWS = ("claim", "rob", "fenzhang")


def public_phase(game: Game, seat: int) -> str:
    """The phase as ``seat`` may see it.

    A reaction window (claim, rob, a 分张 win decision) is shown only to the seats still
    to decide in it; every other seat (also one that has answered) sees ``"waiting"``, so
    a view never tells who else may claim or is still deciding.
    """
    if game.phase in _WINDOWS and (seat not in game.pending or seat in game.decisions):
        return "waiting"
    return game.phase


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """Own concealed hand and drawn tile; for others only public facts and tile counts.

    When the hand is over every hand is shown (``hand`` of each seat).
    """
    seats = []
    over = game.phase == "over"
    notation = T.NOTATION  # (read once: a module attribute per tile costs more than the tile)
    for s, st in enumerate(game.seats):
        public: dict[str, Any] = {
            "seat": s,
            "melds": [
                _meld_text(m)
                if m.kind != "angang" or s == seat or over or game.variant.angang_public
                else "angang ?"
                for m in st.melds
            ],
            "discards": [notation[t] for t in st.discards],
            "flowers": _text(st.flowers),
            "won_tiles": [notation[t] for t in st.won_tiles],
            "concealed_count": st.tile_count(),
            "declared": st.declared,
            "choices": dict(st.choices),
            "sealed": st.sealed,
        }
        if s == seat or over:
            public["hand"] = T.format_counts(st.hand)  # == T.format(st.counts)
            public["held_flowers"] = _text(st.held_flowers)  # flowers not (yet) set aside
        if s == seat and game.current == seat and game.drawn >= 0:
            if game.phase in ("turn", "fenzhang"):
                public["drawn"] = notation[game.drawn]
        seats.append(public)
    phase = public_phase(game, seat)
    return {
        "variant": game.variant.name,
        "options": game.rules.options,  # the rules a seat plays under (bots decide by them)
        "seat": seat,
        "dealer": game.dealer,
        "phase": phase,
        "current": game.current,
        "to_act": [seat] if seat in game.to_act() else [],
        "legal_actions": action_texts(game.legal_actions(seat)),
        "claim": _claim_view(game) if phase != "waiting" else None,
        "wall_remaining": game.wall.remaining,
        "wall_live": game.wall.live,
        "indicators": [notation[t] for t in game.indicators],
        "set_aside": [notation[t] for t in game.set_aside],
        "horses": [notation[t] for t in game.horses],
        "liabilities": [list(p) for p in game.liabilities],
        "seats": seats,
        "scores": game.scores,
        "public": copy_plain(game.variant.public_state(game)),  # never the variant's own data
    }


def _text(kinds: tuple[int, ...]) -> str:
    """``T.format`` of the engine's own kind tuples (valid already: no checks), the view's
    hot path (an agent gets a view at every decision)."""
    return T.format_sorted(sorted(kinds)) if kinds else ""


def _meld_text(meld: Any) -> str:
    """``str(meld)`` (a meld's text depends on its kind and tiles only: looked up)."""
    return _meld_text_of(meld.kind, meld.tiles)


@functools.lru_cache(maxsize=4096)  # a few hundred distinct melds exist; read-only strings
def _meld_text_of(kind: str, tiles: tuple[int, ...]) -> str:
    return f"{kind} {T.format_sorted(sorted(tiles))}"


def _claim_view(game: Game) -> dict[str, Any] | None:
    if game.phase not in ("claim", "rob"):
        return None
    src, tile, kind = game.claim
    return {"from": src, "tile": T.NOTATION[tile], "kind": kind}


_PRIVATE_TILE = {"draw", "fenzhang", "flower"}  # flower: its replacement


def seat_events(game: Game, seat: int, since: int = 0) -> list[dict[str, Any]]:
    """Events ``since`` a sequence number, with what ``seat`` may not know replaced by ``None``.

    Other seats' dealt hands, drawn tiles and flower replacements are hidden, and
    so is the kind of another seat's 暗杠 unless the variant shows it. Every event
    carries ``seq`` (its index in the log), so a server streams ``since=last_seq + 1``.
    """
    out = []
    for ev in game.event_log.since(since):
        kind, owner = ev["type"], ev.get("seat", seat)
        if kind == "deal":
            ev = {**ev, "hands": [h if s == seat else None for s, h in enumerate(ev["hands"])]}
        elif owner != seat and kind in _PRIVATE_TILE:
            ev = {**ev, "tile": None}
        elif owner != seat and kind == "gang" and ev["meld"] == "angang":
            if not game.variant.angang_public:
                ev = {**ev, "tile": None}
        out.append(ev)
    return out
