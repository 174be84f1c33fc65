"""The random bot: a uniformly random legal move."""

from __future__ import annotations

from ladytiger.bots.base import Bot
from ladytiger.bots.registry import register_bot
from ladytiger.core import State


@register_bot("random", "a uniformly random legal move")
class RandomBot(Bot):
    name = "random"

    def step(self, state: State, seat: int) -> int:
        self.check_turn(state, seat)
        return self.rng.choice(state.legal_actions())
