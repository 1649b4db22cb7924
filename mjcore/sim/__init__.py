"""Seeded bulk simulation of full hands with bots, and aggregate statistics."""

from .runner import GameFailedError, game_seeds, play_game, simulate
from .stats import SimStats

__all__ = ["GameFailedError", "SimStats", "game_seeds", "play_game", "simulate"]
