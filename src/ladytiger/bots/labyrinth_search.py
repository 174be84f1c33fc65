"""A perfect-information search bot for Labyrinth: alpha-beta with iterative deepening.

After the setup nothing in Labyrinth is hidden, so the bot searches the game itself: a
minimax over both players' moves (a turn is two plies by the same player, a cub move then a
switch), cut off at a depth and scored by the race: the opponent's cubs' walking distance to
their Tiger door minus ours. It deepens one ply at a time while the budget (search nodes, or
seconds) lasts and plays the best move of the deepest finished search.
"""

from __future__ import annotations

import time

from ladytiger.bots.base import Bot
from ladytiger.bots.registry import register_bot
from ladytiger.core import Game, LadyTigerError, State

WIN = 10_000
DEFAULT_NODES = 4000


class OutOfBudget(Exception):
    pass


def race_balance(world: State, seat: int) -> int:
    """Walking distance of the opponent's cubs to their door minus that of ours."""
    from ladytiger.games.labyrinth import GOAL_CELL, SIZE

    total = 0
    for player, sign in ((seat, -1), (1 - seat, 1)):
        goal = GOAL_CELL[player]
        goal_row, goal_col = divmod(goal, SIZE)
        for cell, n in enumerate(world.cubs[player]):  # type: ignore[attr-defined]
            if n:
                row, col = divmod(cell, SIZE)
                total += sign * n * (abs(row - goal_row) + abs(col - goal_col))
    return total


@register_bot(
    "labyrinth_search",
    "Labyrinth only: alpha-beta search of the open board (budget in nodes or seconds)",
)
class LabyrinthSearchBot(Bot):
    name = "labyrinth_search"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        max_depth: int = 8,
    ) -> None:
        if game.info.name != "labyrinth":
            raise LadyTigerError("the labyrinth_search bot plays only Labyrinth")
        super().__init__(game, seed, DEFAULT_NODES if iterations is None and seconds is None
                         else iterations, seconds)
        self.max_depth = int(max_depth)
        self.last_depth = 0
        self.nodes = 0

    def step(self, state: State, seat: int) -> int:
        self.check_turn(state, seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        # Nothing is hidden after the setup, so a resample is the position itself; drawing it
        # through resample keeps the bot on the contract every bot follows.
        world = state.resample(seat, self.rng)
        self.nodes = 0
        self._deadline = (
            None if self.budget.seconds is None
            else time.perf_counter() + self.budget.seconds
        )
        self._node_limit = self.budget.iterations
        order = self._ordered(world, legal, seat)
        best = order[0]
        self.last_depth = 0
        for depth in range(1, self.max_depth + 1):
            try:
                value, move = self._root(world, order, depth, seat)
            except OutOfBudget:
                break
            best, self.last_depth = move, depth
            order = [move, *(a for a in order if a != move)]
            if abs(value) >= WIN:
                break
        return best

    # ------------------------------------------------------------------ search
    def _spend(self) -> None:
        self.nodes += 1
        if self._node_limit is not None and self.nodes > self._node_limit:
            raise OutOfBudget
        deadline = self._deadline
        if deadline is not None and self.nodes % 64 == 0 and time.perf_counter() > deadline:
            raise OutOfBudget

    def _root(self, world: State, order: list[int], depth: int, seat: int) -> tuple[int, int]:
        alpha, best = -WIN * 2, order[0]
        for action in order:
            child = world.clone()
            child.apply_action(action)
            value = self._search(child, depth - 1, alpha, WIN * 2, seat)
            if value > alpha:
                alpha, best = value, action
        return alpha, best

    def _search(self, world: State, depth: int, alpha: int, beta: int, seat: int) -> int:
        self._spend()
        if world.is_terminal():
            returns = world.returns()
            if returns[seat] > returns[1 - seat]:
                return WIN + depth  # a sooner win is better
            if returns[seat] < returns[1 - seat]:
                return -WIN - depth
            return 0
        if depth == 0:
            return race_balance(world, seat)
        maximising = world.current_player() == seat
        actions = self._ordered(world, world.legal_actions(), seat, maximising)
        for action in actions:
            child = world.clone()
            child.apply_action(action)
            value = self._search(child, depth - 1, alpha, beta, seat)
            if maximising:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
        return alpha if maximising else beta

    def _ordered(
        self, world: State, actions: list[int], seat: int, maximising: bool = True
    ) -> list[int]:
        """Moves sorted by the race balance right after them: good moves first prune most."""
        if len(actions) < 3:
            return list(actions)
        scored = []
        for action in actions:
            child = world.clone()
            child.apply_action(action)
            scored.append((race_balance(child, seat), self.rng.random(), action))
        scored.sort(reverse=maximising)
        return [action for _, _, action in scored]
