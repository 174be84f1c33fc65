"""The game and state model shared by all ladytiger games."""

from ladytiger.core.errors import (
    BadOptionError,
    IllegalActionError,
    LadyTigerError,
    RecordError,
    UnknownActionError,
    UnknownGameError,
)
from ladytiger.core.game import Game, GameInfo
from ladytiger.core.options import Option
from ladytiger.core.registry import load_game, register_game, registered_games
from ladytiger.core.state import CHANCE, TERMINAL, State, shared_win_returns

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BadOptionError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "LadyTigerError",
    "Option",
    "RecordError",
    "State",
    "UnknownActionError",
    "UnknownGameError",
    "load_game",
    "register_game",
    "registered_games",
    "shared_win_returns",
]
