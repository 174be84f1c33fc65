"""Compiled Tighee: the game of tighee.py with its playout verbs in C, opt-in.

Same rules, numbering, chance and outcomes as the pure-Python TigheeState, which stays the
default and the reference. Rules page: docs/rules/tighee.md ("Engine notes").

    from ladytiger.games.tighee_compiled import load_compiled_tighee
    game = load_compiled_tighee(players=4)        # same options as load_game("tighee", ...)

The C state answers current_player, legal_actions, chance_outcomes, apply_action, is_terminal,
returns, scores, clone, history and actors. Everything a person reads (texts, observations,
logs, moments, reasons for refusing a move) and resampling are answered by the reference state
rebuilt from the history, so they are the reference's words by construction, at the cost of a
replay.
"""

from __future__ import annotations

import random
from typing import Any

from ladytiger.core import Game, LadyTigerError
from ladytiger.games.tighee import TigheeGame, TigheeState

try:
    from ladytiger.games._tighee_engine import TigheeEngine
except ImportError:  # not built (no C compiler at install time): the reference still works
    TigheeEngine = None


def compiled_available() -> bool:
    """Whether the C extension was built with this install."""
    return TigheeEngine is not None


def load_compiled_tighee(**options: Any) -> CompiledTigheeGame:
    """A Tighee game whose states are compiled; options as for load_game("tighee", ...)."""
    if TigheeEngine is None:
        raise LadyTigerError(
            "the compiled Tighee engine is not built: reinstall with a C compiler and Python "
            "headers (pip install -e .), or use load_game('tighee') (pure Python)"
        )
    return CompiledTigheeGame(**options)


class CompiledTigheeGame(Game):
    """Tighee with the same options and declaration; only its states differ."""

    info = TigheeGame.info

    def __init__(self, /, **options: Any) -> None:
        # The reference game checks the options and works out the deal; the C states read
        # its sizes from here. A wrapper, not a subclass: the reference game's class may be
        # compiled, and compiled classes take no subclasses from outside.
        self.reference = TigheeGame(**options)
        super().__init__(**self.reference.options)
        self.hand_size = self.reference.hand_size
        self.put_out_count = self.reference.put_out_count
        self.deck_mask = self.reference.deck_mask

    def num_distinct_actions(self) -> int:
        return self.reference.num_distinct_actions()

    def max_chance_outcomes(self) -> int:
        return self.reference.max_chance_outcomes()

    def max_game_length(self) -> int:
        return self.reference.max_game_length()

    def new_initial_state(self) -> CompiledTigheeState:  # type: ignore[override]
        return CompiledTigheeState(self)

    def state_from_history(self, history: list[int]) -> CompiledTigheeState:
        state = CompiledTigheeState(self)
        for action in history:
            state.apply_action(action)
        return state


_Base: Any = TigheeEngine if TigheeEngine is not None else object


class CompiledTigheeState(_Base):  # type: ignore[misc,valid-type]
    """A Tighee state in C; reads go through `to_reference()`."""

    __slots__ = ()
    game: CompiledTigheeGame

    def to_reference(self) -> TigheeState:
        """The pure-Python state at the same point, replayed from the history."""
        reference = TigheeState(self.game.reference)
        for action in self.history():
            reference.apply_trusted(action)
        return reference

    def _refuse(self, action: Any) -> int:
        """Called by the C code for a move it does not vouch for: the reference decides.

        Raises the reference's IllegalActionError; returns the action as a plain int when
        the reference accepts it (an int subclass, say).
        """
        self.to_reference().apply_action(action)
        return int(action)

    # ------------------------------------------------------------------ read through the reference
    def observation(self, player: int | None) -> dict[str, Any]:
        return self.to_reference().observation(player)

    def log(self, player: int | None) -> list[str]:
        return self.to_reference().log(player)

    def action_to_string(self, action: int, *misplaced: Any, player: int | None = None) -> str:
        return self.to_reference().action_to_string(action, *misplaced, player=player)

    def string_to_action(self, text: str) -> int:
        return self.to_reference().string_to_action(text)

    def describe_action(self, action: int) -> dict[str, Any]:
        return self.to_reference().describe_action(action)

    def illegal_reason(self, action: int) -> str | None:
        return self.to_reference().illegal_reason(action)

    def winners(self) -> list[int]:
        return self.to_reference().winners()

    def moment(self, after: Any) -> dict[str, Any] | None:
        later = after.to_reference() if isinstance(after, CompiledTigheeState) else after
        return self.to_reference().moment(later)

    def resample(self, player: int | None, rng: random.Random) -> CompiledTigheeState:
        drawn = self.to_reference().resample(player, rng)
        return self.game.state_from_history(drawn.history())

    def __deepcopy__(self, memo: dict[int, Any]) -> CompiledTigheeState:
        return self.clone()

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, CompiledTigheeState)
            and other.game == self.game
            and other.history() == self.history()
        )

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    def __str__(self) -> str:
        return f"{self.game!r} (compiled) after {len(self.history())} actions"
