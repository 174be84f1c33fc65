"""Driving states at random: sampling chance, random moves, whole random games."""

from __future__ import annotations

import random

from ladytiger.core.state import CHANCE, State


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one outcome of the chance node `state` by its listed probabilities."""
    outcomes = state.chance_outcomes()
    point = rng.random()
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if point < total:
            return outcome
    return outcomes[-1][0]


def random_step(state: State, rng: random.Random) -> int:
    """A chance outcome by its probability or a uniformly random legal move."""
    if state.current_player() == CHANCE:
        return sample_chance(state, rng)
    return rng.choice(state.legal_actions())


def random_playout(state: State, rng: random.Random, max_steps: int | None = None) -> State:
    """Play `state` forward at random until it ends (or `max_steps` actions), in place."""
    steps = 0
    while not state.is_terminal() and (max_steps is None or steps < max_steps):
        state.apply_action(random_step(state, rng))
        steps += 1
    return state
