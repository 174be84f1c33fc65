"""Per-game rules of thumb for the heuristic bot, one module per game.

Each module defines `choose(view, moves, rng) -> action`: `view` is `observation(seat)`,
`moves` the legal moves with their texts. Nothing else of the state is passed in, so a
heuristic cannot see what its seat may not. Each also defines `explain(view, moves, rng) ->
(action, reason)`: the same move, with the rule that chose it in a player's words (the hints
of ladytiger.bots.advice).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from ladytiger.core import LadyTigerError

Policy = Callable[[dict[str, Any], "Moves", random.Random], int]

# Game name -> module under ladytiger.bots.heuristics.
HEURISTIC_MODULES = {
    "doors": "doors",
    "favor": "favor",
    "traps": "traps",
    "hoard": "hoard",
    "labyrinth": "labyrinth",
    "tighee": "tighee",
    "shady_lady": "shady_lady",
}


class Moves:
    """The legal moves of the seat to play, by number and by text."""

    __slots__ = ("_by_text", "actions", "texts")

    def __init__(self, actions: list[int], texts: list[str]) -> None:
        if len(actions) != len(texts):
            raise ValueError(f"{len(actions)} moves but {len(texts)} texts")
        self.actions = actions
        self.texts = texts
        self._by_text: dict[str, int] | None = None

    @property
    def by_text(self) -> dict[str, int]:
        """Each move's action by its text. Built on first use: most rules of thumb never look
        a move up by text, and a playout builds a `Moves` for every move it makes."""
        found = self._by_text
        if found is None:
            found = self._by_text = dict(zip(self.texts, self.actions, strict=True))
        return found

    def __len__(self) -> int:
        return len(self.actions)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(zip(self.actions, self.texts, strict=True))

    def has(self, text: str) -> bool:
        return text in self.by_text

    def get(self, text: str) -> int | None:
        return self.by_text.get(text)

    def starting(self, prefix: str) -> list[tuple[int, str]]:
        """The moves whose text starts with `prefix` (e.g. "take ")."""
        return [(a, t) for a, t in zip(self.actions, self.texts, strict=True)
                if t.startswith(prefix)]


def policy_for(game: str) -> Policy:
    module_name = HEURISTIC_MODULES.get(game)
    if module_name is None:
        raise LadyTigerError(f"the heuristic bot has no rules of thumb for {game!r} yet")
    try:
        module = importlib.import_module(f"ladytiger.bots.heuristics.{module_name}")
    except ModuleNotFoundError as error:
        if error.name != f"ladytiger.bots.heuristics.{module_name}":
            raise
        raise LadyTigerError(
            f"the heuristic bot has no rules of thumb for {game!r} yet"
        ) from error
    return module.choose  # type: ignore[no-any-return]


def _module(game: str) -> Any:
    module_name = HEURISTIC_MODULES.get(game)
    if module_name is None:
        return None
    return importlib.import_module(f"ladytiger.bots.heuristics.{module_name}")


def round_points(game: str) -> int:
    """The largest number of points one round can move, where the game's rules of thumb
    judge a position by its rounds (0 where they do not)."""
    return int(getattr(_module(game), "ROUND_POINTS", 0))


def evaluation_for(game: str) -> Callable[[dict[str, Any]], list[float]] | None:
    """The rules of thumb's judgement of a position, each seat's chance of winning from a
    view of it (`evaluate(view)`), where the game's module has one."""
    return getattr(_module(game), "evaluate", None)


def search_defaults(game: str) -> dict[str, Any]:
    """Settings of the search bot that suit this game better than the general defaults,
    each with its reason beside it in the game's module (`SEARCH_DEFAULTS`)."""
    return dict(getattr(_module(game), "SEARCH_DEFAULTS", {}))


# An explainer: the move a game's rules of thumb choose and, in a player's words, the rule
# that chose it. It picks exactly the move `choose` picks with the same random stream.
Explainer = Callable[[dict[str, Any], "Moves", random.Random], tuple[int, str]]


def explainer_for(game: str) -> Explainer:
    """The game's `explain(view, moves, rng) -> (action, reason)`."""
    module = _module(game)
    explain = getattr(module, "explain", None)
    if explain is None:
        raise LadyTigerError(f"the rules of thumb for {game!r} cannot explain their moves")
    return explain  # type: ignore[no-any-return]
