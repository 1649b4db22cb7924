"""The table as text (``render("ansi")`` of the RL envs, ``mjcore.engine.render.render_table``).

One block per seat — its melds, river (in discard order), flowers set aside, tiles won on,
score and declaration — plus the wall, the phase and the seat to act. Concealed hands are
drawn only for the viewing seat (``seat``), for every seat once the hand is over (as the
view lays them open), or for all with ``reveal=True`` (a debugging god's-eye view). Another
seat's 暗杠 shows its kind only where the variant shows it (宿松) or to its owner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import tiles as T

if TYPE_CHECKING:
    from .game import Game
    from .melds import Meld
    from .seat import SeatState

WINDS = ("E", "S", "W", "N")


def _tiles(kinds: object) -> str:
    return " ".join(T.NOTATION[t] for t in kinds) or "-"  # type: ignore[attr-defined]


def _meld(m: Meld, shown: bool) -> str:
    if m.kind == "angang" and not shown:
        return "angang ????"
    src = f"<{m.from_seat}" if m.from_seat >= 0 and m.kind != "angang" else ""
    return f"{m.kind} {T.format(list(m.tiles))}{src}"


def _hand(st: SeatState, drawn: int) -> str:
    kinds = T.from_counts(st.hand)
    if drawn >= 0 and drawn in kinds:  # the tile just drawn, apart
        kinds.remove(drawn)
        text = f"{T.format_sorted(kinds)} + {T.NOTATION[drawn]}"
    else:
        text = T.format_sorted(kinds) if kinds else "-"
    if st.held_flowers:
        text += f" (flowers held {_tiles(st.held_flowers)})"
    return text


def render_table(game: Game, seat: int | None = None, reveal: bool = False) -> str:
    """The table as seen by ``seat`` (None: a spectator); ``reveal`` shows every hand."""
    n = game.n
    to_act = game.to_act()
    head = f"{game.variant.name} · phase {game.phase}"
    if to_act:
        head += " · to act: " + ",".join(f"seat {s}" for s in to_act)
    head += f" · wall {game.wall.live} live"
    if game.indicators:
        head += f" · indicators {_tiles(game.indicators)}"
    public = game.variant.public_state(game)
    joker = public.get("joker_kind") or public.get("bao")  # 青岛 混, 荣成 宝 ("hidden" if so)
    if joker:
        head += f" · joker {joker}"
    lines = [head]
    if game.phase in ("claim", "rob") and game.claim[1] >= 0:
        src, tile, kind = game.claim
        lines.append(f"  on the table: {T.NOTATION[tile]} from seat {src} ({kind})")
    scores = game.scores
    over = game.phase == "over"
    for s in range(n):
        st = game.seats[s]
        wind = WINDS[(s - game.dealer) % n] if n <= 4 else str((s - game.dealer) % n)
        tags = [wind] + (["dealer"] if s == game.dealer else [])
        if s == seat:
            tags.append("you")
        if st.declared:
            tags.append(st.declared)
        if st.sealed:
            tags.append("sealed")
        lines.append(f"seat {s} ({', '.join(tags)}) score {scores[s]:+d}")
        own = s == seat or reveal or over
        if own:
            drawn = game.drawn if game.phase == "turn" and game.current == s else -1
            lines.append(f"  hand    {_hand(st, drawn)}")
        else:
            lines.append(f"  hand    {st.tile_count()} tiles")
        shown = own or game.variant.angang_public
        if st.melds:
            lines.append("  melds   " + "  ".join(_meld(m, shown) for m in st.melds))
        lines.append(f"  river   {_tiles(st.discards)}")
        if st.flowers:
            lines.append(f"  flowers {_tiles(st.flowers)}")
        if st.won_tiles:
            lines.append(f"  won     {_tiles(st.won_tiles)}")
    if game.set_aside:
        lines.append(f"set aside {_tiles(game.set_aside)}")
    if game.horses:
        lines.append(f"horses {_tiles(game.horses)}")
    return "\n".join(lines)
