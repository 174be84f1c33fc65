"""The registry of games: `load_game(name, **options)` and `registered_games()`."""

from __future__ import annotations

from typing import Any

from ladytiger.core.errors import UnknownGameError
from ladytiger.core.game import Game, GameInfo

_GAMES: dict[str, type[Game]] = {}


def register_game(game_class: type[Game]) -> type[Game]:
    """Class decorator: make a game loadable by its declared name."""
    name = game_class.info.name
    if name in _GAMES and _GAMES[name] is not game_class:
        raise ValueError(f"two games claim the name {name!r}")
    _GAMES[name] = game_class
    return game_class


def _ensure_games_loaded() -> None:
    # The game modules register themselves on import; importing here keeps core free of
    # a hard dependency on any one game.
    import ladytiger.games  # noqa: F401


def registered_games() -> list[GameInfo]:
    """Every registered game's declaration, sorted by name."""
    _ensure_games_loaded()
    return [_GAMES[name].info for name in sorted(_GAMES)]


def game_class(name: str) -> type[Game]:
    _ensure_games_loaded()
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in _GAMES:
        raise UnknownGameError(
            f"there is no game called {name!r}; the games are: {', '.join(sorted(_GAMES))}"
        )
    return _GAMES[key]


def load_game(name: str, /, **options: Any) -> Game:
    """Make a game by name. Unknown names and bad options raise errors listing what is allowed."""
    return game_class(name)(**options)
