"""Arrange games the way the rulebooks describe them: moves and deals by their text."""

from __future__ import annotations

from typing import Any

import ladytiger
from ladytiger.core import State


def new_game(name: str, **options: Any) -> State:
    return ladytiger.load_game(name, **options).new_initial_state()


def play(state: State, *texts: str) -> State:
    """Apply each move or forced chance outcome, named by its text, in order."""
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


def legal_texts(state: State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def reason(state: State, text: str) -> str | None:
    """Why the move called `text` is illegal now (None if it is legal)."""
    return state.illegal_reason(state.string_to_action(text))


def random_game(name: str, seed: int, **options: Any) -> State:
    """A whole game of uniformly random moves and chance drawn by its odds, from `seed`."""
    import random

    from ladytiger.core.playout import random_step

    state = new_game(name, **options)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(random_step(state, rng))
    return state
