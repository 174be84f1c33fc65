"""Four bot levels for every game, under the same names everywhere: beginner, casual, strong
and expert (the server's create form, `ladytiger play --bot`, the hints, the arena).

- beginner: the rules of thumb with a beginner's slips and short sight, never nonsense
  (ladytiger.bots.beginner);
- casual: the rules of thumb (the `heuristic` bot);
- strong: the search at a short budget;
- expert: the search at its full budget, or the game's own solver (Labyrinth's alpha-beta
  search, Hoard's planner), never more than `EXPERT_CAP` seconds a move.

Each level is a registered bot (`load_bot("expert", "doors")`). The search levels count
their budget in iterations, so a seed replays the same moves, and also stop at a deadline so
a loaded machine never makes a player wait; where the deadline strikes, that move depends on
the machine's speed. An explicit `iterations` or `seconds` replaces a level's budget (tests
and benchmarks use it); the server lets no table's creator give one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ladytiger.bots.base import Bot, CappedBudget
from ladytiger.bots.beginner import BeginnerPolicy
from ladytiger.bots.heuristics import Moves
from ladytiger.bots.registry import load_bot, register_bot
from ladytiger.core import Game, LadyTigerError, State

LEVELS = ("beginner", "casual", "strong", "expert")
# Seconds a move may take at most, whatever the iterations left.
STRONG_CAP = 0.5
EXPERT_CAP = 1.5

# Search iterations per move of the strong and expert levels, per game. The expert's are
# set to take about a second a move (mean over the first 20-25 moves of games against casual
# seats, on one core of the reference machine, a 2-core shared server, with the compiled
# engine) at the player count where the search is slowest: Doors 0.9 s, Favor 0.9 s at 2
# players, Traps 1.0 s at 6, Shady Lady 1.1 s at 6 (0.5 s at 2), Tighee 0.9 s at 3. The
# strong level keeps the short budget it was given when the engine was slower, except in
# Favor: the 2-player ladders of 2026-12-06 put 100 iterations 343 Elo above casual and
# only 49 below the expert, and 25 iterations 87 above casual and 354 below the expert; it
# now has 50. Tighee's search plays out at random since the same day (its rules of
# thumb's SEARCH_DEFAULTS): its budgets went from 100 and 2,000 iterations to 300 and
# 6,000, which cost the CPU time the old ones did where each is slowest (process time, mean
# of the first 25 moves against casual seats: 6,000 at random 1.04 s at 3 players and 1.41
# at 4, where 2,000 by the rules of thumb took 1.42 at 3; figures from a loaded machine,
# to be read as ratios).
SEARCH_ITERATIONS: dict[str, tuple[int, int]] = {
    "doors": (300, 12000),
    "favor": (50, 2000),
    "traps": (60, 1800),
    "shady_lady": (150, 2000),
    "tighee": (300, 6000),
}
# Games with a solver of their own: (bot, strong budget, expert budget) in its units.
SOLVERS: dict[str, tuple[str, int, int]] = {
    # Search nodes: 1,500 finish about 3 plies, 60,000 about 6 (the deadline ends it first
    # on a slow machine); 60,000 take about 0.9 s a move.
    "labyrinth": ("labyrinth_search", 1500, 60000),
    # Playouts per move on sampled deck orders: 16, and 4,000 (about 0.4 s a move).
    "hoard": ("hoard_planner", 16, 4000),
}
# Iterations of the generic search for everything else.
DEFAULT_ITERATIONS = (100, 1000)


@dataclass(frozen=True)
class Plan:
    """How a level plays a game: which bot, with which options, under which deadline."""

    bot: str
    options: dict[str, Any] = field(default_factory=dict)
    cap: float | None = None

    def describe(self) -> str:
        budget = self.options.get("iterations")
        if budget is None:
            return self.bot
        unit = {"labyrinth_search": "nodes", "hoard_planner": "playouts"}.get(
            self.bot, "iterations")
        return f"{self.bot}, {budget:,} {unit}/move, at most {self.cap:g} s"


def plan_for(game: str, level: str) -> Plan:
    """The bot and budget behind `level` in `game`."""
    if level not in LEVELS:
        raise LadyTigerError(f"there is no level {level!r}; the levels are: "
                             f"{', '.join(LEVELS)}")
    if level == "beginner":
        return Plan("beginner")
    if level == "casual":
        return Plan("heuristic")
    strong = level == "strong"
    cap = STRONG_CAP if strong else EXPERT_CAP
    if game in SOLVERS:
        bot, low, high = SOLVERS[game]
        return Plan(bot, {"iterations": low if strong else high}, cap)
    low, high = SEARCH_ITERATIONS.get(game, DEFAULT_ITERATIONS)
    return Plan("ismcts", {"iterations": low if strong else high}, cap)


def hint_iterations(game: str, level: str) -> int:
    """The search iterations a hint at `level` runs: none for beginner and casual (their
    word is the rules of thumb's), the level's own for strong and expert. A hint's search is
    the generic one, so in Labyrinth and Hoard it takes the generic budgets."""
    if level not in LEVELS:
        raise LadyTigerError(f"there is no level {level!r}; the levels are: "
                             f"{', '.join(LEVELS)}")
    if level in ("beginner", "casual"):
        return 0
    low, high = SEARCH_ITERATIONS.get(game, DEFAULT_ITERATIONS)
    return low if level == "strong" else high


class _Beginner(Bot):
    """The beginner's player itself (not registered: the level is the name people use)."""

    name = "beginner"

    def __init__(self, game: Game, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = None) -> None:
        super().__init__(game, seed, iterations, seconds)
        self.policy = BeginnerPolicy(game.info.name)

    def step(self, state: State, seat: int) -> int:
        self.check_turn(state, seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        moves = Moves(legal, [state.action_to_string(action) for action in legal])
        action = self.policy(state.observation(seat, with_log=False), moves, self.rng)
        if action not in legal:
            raise LadyTigerError(f"the {self.game.info.name} beginner chose an illegal move")
        return action


class LevelBot(Bot):
    """A level: the bot its plan names for the game, with the plan's budget."""

    level = "casual"

    def __init__(self, game: Game, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = None) -> None:
        super().__init__(game, seed, iterations, seconds)
        self.plan = plan_for(game.info.name, self.level)
        options = dict(self.plan.options)
        told = iterations is not None or seconds is not None
        if told:
            options.pop("iterations", None)
            options.update({"iterations": iterations} if iterations is not None
                           else {"seconds": seconds})
        if self.plan.bot == "beginner":
            self.inner: Bot = _Beginner(game, seed=seed)
        else:
            self.inner = load_bot(self.plan.bot, game, seed=seed, **options)
        if not told and self.plan.cap is not None:
            self.inner.budget = CappedBudget(iterations=self.inner.budget.iterations,
                                             seconds=self.plan.cap)
        self.budget = self.inner.budget

    def step(self, state: State, seat: int) -> int:
        return self.inner.step(state, seat)

    @property
    def last_iterations(self) -> int:
        return int(getattr(self.inner, "last_iterations", 0))

    def __repr__(self) -> str:
        return f"{self.level} bot for {self.game.info.name} ({self.plan.describe()})"


@register_bot("beginner", "level 1: the rules of thumb with a beginner's slips, never nonsense")
class BeginnerBot(LevelBot):
    name = level = "beginner"


@register_bot("casual", "level 2: the rules of thumb of each game")
class CasualBot(LevelBot):
    name = level = "casual"


@register_bot("strong", "level 3: the search at a short budget")
class StrongBot(LevelBot):
    name = level = "strong"


@register_bot("expert", "level 4: the search at full budget, or the game's own solver")
class ExpertBot(LevelBot):
    name = level = "expert"
