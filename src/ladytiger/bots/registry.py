"""Bots by name: `load_bot(name, game, **options)`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ladytiger.core import Game, LadyTigerError, load_game

if TYPE_CHECKING:
    from ladytiger.bots.base import Bot

_BOTS: dict[str, tuple[type[Bot], str]] = {}


def register_bot(name: str, summary: str) -> Callable[[type[Bot]], type[Bot]]:
    def decorate(bot_class: type[Bot]) -> type[Bot]:
        _BOTS[name] = (bot_class, summary)
        return bot_class

    return decorate


def _ensure_bots_loaded() -> None:
    # Bot modules register themselves on import, like the games.
    import ladytiger.bots.heuristic
    import ladytiger.bots.hoard_search
    import ladytiger.bots.ismcts
    import ladytiger.bots.labyrinth_search
    import ladytiger.bots.levels
    import ladytiger.bots.random_bot  # noqa: F401


def registered_bots() -> dict[str, str]:
    """Bot names and one-line summaries."""
    _ensure_bots_loaded()
    return {name: summary for name, (_, summary) in sorted(_BOTS.items())}


def load_bot(name: str, game: Game | str, **options: Any) -> Bot:
    _ensure_bots_loaded()
    if name not in _BOTS:
        raise LadyTigerError(
            f"there is no bot called {name!r}; the bots are: {', '.join(sorted(_BOTS))}"
        )
    if isinstance(game, str):
        game = load_game(game)
    game = _ladytiger_game(game)
    try:
        return _BOTS[name][0](game, **options)
    except TypeError as error:
        raise LadyTigerError(f"bad options for the {name} bot: {error}") from error


def _ladytiger_game(game: object) -> Game:
    """The ladytiger game itself, unwrapped from our OpenSpiel adapter if need be.

    An OpenSpiel game of ours carries the game it wraps; the bot still plays ladytiger
    states (`state.inner`), or pyspiel states through `ladytiger.rl.openspiel.SpielBot`.
    Anything else is refused here rather than failing later inside `step`.
    """
    if isinstance(game, Game):
        return game
    inner = getattr(game, "inner", None)
    if isinstance(inner, Game) and any(c.__module__ == "pyspiel" for c in type(game).__mro__):
        return inner
    if any(c.__module__ == "pyspiel" for c in type(game).__mro__):
        raise LadyTigerError(
            f"{game} is an OpenSpiel game that ladytiger does not provide; ladytiger bots "
            "play only ladytiger games (pyspiel games named ladytiger_*)"
        )
    raise LadyTigerError(
        f"a bot needs a ladytiger game or a game's name, not {type(game).__name__}"
    )
