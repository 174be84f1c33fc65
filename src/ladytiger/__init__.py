"""ladytiger: rules engines, bots and a game server for seven tabletop card games."""

# First: it decides whether the imports below load the compiled rules or their source.
from ladytiger import engine_build  # noqa: F401
from ladytiger.core import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    LadyTigerError,
    load_game,
    registered_games,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "IllegalActionError",
    "LadyTigerError",
    "load_bot",
    "load_game",
    "registered_games",
]
__version__ = "0.1.0"


def load_bot(name: str, game: object, **options: object) -> object:
    """Make a bot by name for a game (see ladytiger.bots)."""
    from ladytiger.bots import load_bot as _load_bot

    return _load_bot(name, game, **options)  # type: ignore[arg-type]
