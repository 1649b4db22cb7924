"""The shared game engine: actions, melds, wall, the game loop and the variant interface."""

from .actions import Action
from .game import Game
from .melds import Meld
from .seat import SeatState
from .variant import Variant, option
from .wall import Wall

__all__ = ["Action", "Game", "Meld", "SeatState", "Variant", "Wall", "option"]
