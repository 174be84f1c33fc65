"""The interface every bot implements, and the thinking budget search bots share."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ladytiger.core import Game, LadyTigerError, State

DEFAULT_ITERATIONS = 1000


@dataclass(frozen=True)
class Budget:
    """How long a search bot thinks per move: a number of iterations or of seconds.

    Iterations make a bot reproducible for its seed (the arena's backends then agree to the
    last game); seconds adapt to the machine but depend on its speed and load.
    """

    iterations: int | None = None
    seconds: float | None = None

    @classmethod
    def make(
        cls, iterations: int | str | None, seconds: float | str | None, default: int
    ) -> Budget:
        if iterations is not None and seconds is not None:
            raise LadyTigerError("give a budget in iterations or in seconds, not both")
        if seconds is not None:
            value = float(seconds)
            if not value > 0:
                raise LadyTigerError(f"a budget in seconds must be positive, not {seconds!r}")
            return cls(seconds=value)
        count = default if iterations is None else int(iterations)
        if count < 1:
            raise LadyTigerError(f"a budget in iterations must be at least 1, not {iterations!r}")
        return cls(iterations=count)

    def start(self) -> BudgetClock:
        return BudgetClock(self)

    def __str__(self) -> str:
        if self.seconds is not None:
            return f"{self.seconds:g} s/move"
        return f"{self.iterations} iterations/move"


class BudgetClock:
    """Counts one move's iterations against its budget."""

    __slots__ = ("deadline", "done", "limit")

    def __init__(self, budget: Budget) -> None:
        self.done = 0
        self.limit = budget.iterations
        self.deadline = (
            None if budget.seconds is None else time.perf_counter() + budget.seconds
        )

    def more(self) -> bool:
        """Whether another iteration fits; always at least one."""
        if self.done == 0:
            return True
        if self.deadline is not None:
            return time.perf_counter() < self.deadline
        assert self.limit is not None
        return self.done < self.limit

    def tick(self) -> None:
        self.done += 1


class CappedClock(BudgetClock):
    """Counts iterations against a number and a deadline both: whichever ends first."""

    __slots__ = ()

    def more(self) -> bool:
        if self.done == 0:
            return True
        if self.limit is not None and self.done >= self.limit:
            return False
        return self.deadline is None or time.perf_counter() < self.deadline


@dataclass(frozen=True)
class CappedBudget(Budget):
    """A number of iterations that also stops at a deadline (the bot levels' budgets, and
    the hints'). The iterations make a move reproducible for its seed; the deadline keeps a
    slow or loaded machine from making a player wait, at the price of that reproducibility
    on the moves where it strikes."""

    def start(self) -> BudgetClock:
        return CappedClock(self)

    def __str__(self) -> str:
        if self.iterations is None:
            return super().__str__()
        cap = "" if self.seconds is None else f", at most {self.seconds:g} s"
        return f"{self.iterations} iterations/move{cap}"


class Bot:
    """A seeded player. `step` returns the action to play for `seat` in `state`.

    A bot may use `state.observation(seat)`, `state.legal_actions()` and states drawn with
    `state.resample(seat, rng)`; reading anything else of the state is cheating (the tests
    check that every bot's choice survives resampling the hidden parts of the state).

    Every bot accepts `seed` and a budget (`iterations` or `seconds` per move); bots that do
    not search ignore the budget, so the arena can hand the same options to every bot.
    """

    name = "bot"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = Budget.make(iterations, seconds, DEFAULT_ITERATIONS)

    def step(self, state: State, seat: int) -> int:
        raise NotImplementedError

    @staticmethod
    def check_turn(state: State, seat: int) -> None:
        """Refuse to move for `seat` unless it is a seat and its turn (not over, not chance)."""
        if state.is_terminal():
            raise LadyTigerError("the game is over; there is no move to choose")
        if not isinstance(seat, int) or seat < 0 or state.current_player() != seat:
            raise LadyTigerError(f"it is not seat {seat}'s turn")

    def __repr__(self) -> str:
        return f"{self.name} bot for {self.game.info.name}"
