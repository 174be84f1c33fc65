"""The heuristic bot: each game's rules of thumb, written from how a good player plays it.

The per-game logic lives in `ladytiger.bots.heuristics.<game>`; each module exposes
`choose(view, moves, rng) -> action` and sees only the seat's observation and its legal moves.
"""

from __future__ import annotations

from ladytiger.bots.base import Bot
from ladytiger.bots.heuristics import Moves, policy_for
from ladytiger.bots.registry import register_bot
from ladytiger.core import Game, LadyTigerError, State


@register_bot("heuristic", "a rule-of-thumb player written for each game (see docs/bots.md)")
class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> None:
        super().__init__(game, seed, iterations, seconds)
        self.policy = policy_for(game.info.name)

    def step(self, state: State, seat: int) -> int:
        self.check_turn(state, seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        moves = Moves(legal, [state.action_to_string(a) for a in legal])
        # No rule of thumb reads the log, and rebuilding it is most of a move's cost.
        action = self.policy(state.observation(seat, with_log=False), moves, self.rng)
        if action not in legal:  # a heuristic's bug must not become an illegal move
            raise LadyTigerError(f"the {self.game.info.name} heuristic chose an illegal move")
        return action
