"""Seeded bulk simulation of full hands with bots, and aggregate statistics."""

from .runner import GameFailedError, game_seeds, play_game, simulate
from .stats import BotTally, SimStats

__all__ = ["BotTally", "GameFailedError", "SimStats", "game_seeds", "play_game", "simulate"]
