"""Scripted play for golden tests: build a wall for a situation, then drive the engine."""

from __future__ import annotations

from mjcore import tiles as T
from mjcore.engine.actions import PASS
from mjcore.engine.wall import build_wall
from mjcore.variants import get_variant


def scripted_game(
    variant: str,
    hands: dict,
    draws: str = "",
    replacements: str = "",
    players: int = 4,
    dealer: int = 0,
    options: dict | None = None,
    carry=None,
):
    """A game whose wall realises the given hands, draws and replacement tiles."""
    v = get_variant(variant)
    opts = v.parse_options(options)
    # Flowers not named in the script stay in the middle of the wall (never dealt by accident).
    wall = build_wall(
        v.tile_kinds(opts),
        players,
        dealer,
        hands,
        draws,
        replacements,
        apart=v.flower_kinds(opts),
    )
    return v.new_game(players=players, options=options, wall=wall, dealer=dealer, carry=carry)


def _resolve(game, text: str) -> str:
    if text == "tsumogiri" and game.drawn >= 0:
        return f"discard {T.format([game.drawn])}"
    return text


def drive(game, script) -> None:
    """Apply ``(seat, action)`` steps in order; seats asked in between pass.

    ``"tsumogiri"`` discards the tile just drawn. A seat that is asked but whose
    scripted action is not legal yet passes (when it may). If the last step was a
    claim, the other seats of that window pass so that it resolves.
    """
    in_window = False
    for seat, text in script:
        while True:
            asked = game.to_act()
            if seat in asked:
                action = _resolve(game, text)
                if action in map(str, game.legal_actions(seat)):
                    in_window = game.phase in ("claim", "rob")
                    game.apply(seat, action)
                    break
            waiting = [s for s in asked if PASS in game.legal_actions(s)]
            if not waiting:
                legal = {s: list(map(str, game.legal_actions(s))) for s in asked}
                raise AssertionError(f"cannot reach ({seat}, {text!r}); asked {legal}")
            game.apply(waiting[0], PASS)
    if in_window:
        settle(game)


def settle(game) -> None:
    """Every seat asked in an open claim window passes (where it may)."""
    while game.phase in ("claim", "rob"):
        waiting = [s for s in game.to_act() if PASS in game.legal_actions(s)]
        if not waiting:
            break
        game.apply(waiting[0], PASS)


def play_out(game) -> None:
    """Finish the hand: every turn discards the drawn tile (or any tile), every claim passes."""
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if PASS in legal and game.phase != "turn":
            game.apply(seat, PASS)
        elif game.drawn >= 0 and f"discard {T.format([game.drawn])}" in map(str, legal):
            game.apply(seat, f"discard {T.format([game.drawn])}")
        else:
            game.apply(seat, next(a for a in legal if a.kind in ("discard", "pass")))


def net(game) -> list[int]:
    return game.scores


def paid(game, reason: str | None = None) -> list[tuple[int, int, int, str]]:
    return [
        (p.payer, p.payee, p.amount, p.reason)
        for p in game.settlement
        if reason is None or p.reason == reason
    ]
