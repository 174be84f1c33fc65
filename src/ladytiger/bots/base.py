"""The interface every bot implements."""

from __future__ import annotations

import random

from ladytiger.core import Game, State


class Bot:
    """A seeded player. `step` returns the action to play for `seat` in `state`.

    A bot may use `state.observation(seat)`, `state.legal_actions()` and states drawn with
    `state.resample(seat, rng)`; reading anything else of the state is cheating.
    """

    name = "bot"

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def step(self, state: State, seat: int) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{self.name} bot for {self.game.info.name}"
