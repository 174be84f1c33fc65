"""Two Hoard bots that search: a planner for the unknown deck, and a clairvoyant solver.

`hoard_planner` plays the real game: it samples deck orders (chance drawn by its odds, the
cards it has seen accounted for), plays every candidate move out on each sampled order with
the greedy rule of the Hoard heuristic, and plays the greedy rule's own move unless another
move does better on the same deck orders by more than two standard errors (a win counts 1
plus a hundredth per removed Trash, a loss the position reached, scaled below any win). Its
budget counts playouts (one move on one deck order).

`hoard_clairvoyant` is told the order in which the deck will come out (the arena hands it the
game's chance generator before the first deal) and searches that now fully known game with a
beam search: every line of play is extended move by move, the best positions by the Hoard
position value are kept, and the best win found is played. Its win rate estimates the upper
bound any Hoard strategy can reach; being a beam search, it may miss a win that exists, so the
true bound is at least its figure.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ladytiger.bots.base import Bot
from ladytiger.bots.heuristics.hoard import WIN, Position, best_moves, greedy, value
from ladytiger.bots.registry import register_bot
from ladytiger.core import CHANCE, Game, LadyTigerError, State
from ladytiger.core.playout import sample_chance

DEFAULT_ROLLOUTS = 64
DEFAULT_BEAM = 60
CONFIDENCE = 2.0


def world_position(world: State) -> Position:
    """The doors of a drawn Hoard world (Hoard hides nothing, so this is the observation)."""
    return (
        list(world.gems),  # type: ignore[attr-defined]
        list(world.removed),  # type: ignore[attr-defined]
        list(world.collected),  # type: ignore[attr-defined]
    )


# Playouts from one position meet the same positions again and again: the greedy rule's
# best moves are kept per position and legal moves (ties included, so a cached answer draws
# from `rng` exactly as a fresh one does and results do not depend on what is cached).
_BEST_MOVES: dict[tuple[Any, ...], tuple[int, ...]] = {}
_BEST_MOVES_LIMIT = 1 << 20


def greedy_step(world: State, rng: random.Random) -> int:
    legal = world.legal_actions()
    if len(legal) == 1:
        return legal[0]
    gems, removed, collected = world_position(world)
    key = (*gems, *removed, *collected, *legal)
    best = _BEST_MOVES.get(key)
    if best is None:
        moves = [(action, world.action_to_string(action)) for action in legal]
        best = best_moves((gems, removed, collected), moves)
        if len(_BEST_MOVES) >= _BEST_MOVES_LIMIT:
            _BEST_MOVES.clear()
        _BEST_MOVES[key] = best
    return best[0] if len(best) == 1 else rng.choice(best)


def outcome(world: State) -> float:
    """1 plus a hundredth per removed Trash for a win; a loss scores below any win.

    A sooner win counts a hair more: compared on the same deck orders, a move that only
    postpones progress the playout would make anyway then loses to making it now (without
    this, a planner can put off collecting forever).
    """
    if world.returns()[0] > 0:
        return 1.0 + world.scores()[0] / 100.0 - len(world.history()) / 1e6
    return max(0.0, min(0.9, value(*world_position(world)) / WIN))


class _Hoard(Bot):
    def __init__(self, game: Game, seed: int | None, iterations: int | None,
                 seconds: float | None, default: int) -> None:
        if game.info.name != "hoard":
            raise LadyTigerError(f"the {self.name} bot plays only Hoard")
        if iterations is None and seconds is None:
            iterations = default
        super().__init__(game, seed, iterations, seconds)


@register_bot(
    "hoard_planner",
    "Hoard only: samples deck orders and plays them out greedily (budget: rollouts)",
)
class HoardPlanner(_Hoard):
    name = "hoard_planner"

    def __init__(self, game: Game, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = None) -> None:
        super().__init__(game, seed, iterations, seconds, DEFAULT_ROLLOUTS)

    def step(self, state: State, seat: int) -> int:
        self.check_turn(state, seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        # Every move is tried on the same sampled deck orders (common random numbers), so
        # two moves are compared on the same luck of the draw.
        results: dict[int, list[float]] = {action: [] for action in legal}
        clock = self.budget.start()
        while clock.more():
            future = self.rng.getrandbits(64)
            for action in legal:
                chance = random.Random(future)
                policy = random.Random(future ^ 0x5DEECE66D)
                world = state.resample(seat, policy)
                world.apply_action(action)
                # Both moves come straight from the state's own lists: no second check.
                while not world.is_terminal():
                    if world.current_player() == CHANCE:
                        world.apply_trusted(sample_chance(world, chance))
                    else:
                        world.apply_trusted(greedy_step(world, policy))
                results[action].append(outcome(world))
                clock.tick()
        # Playouts are noisy: keep the greedy rule's move unless another beats it on the
        # same deck orders by more than CONFIDENCE standard errors.
        position = world_position(state)
        default = greedy(position, [(a, state.action_to_string(a)) for a in legal], self.rng)
        base = results[default]
        best, best_gain = default, 0.0
        for action in legal:
            paired = [mine - theirs for mine, theirs in zip(results[action], base, strict=False)]
            if action == default or len(paired) < 2:
                continue
            mean = sum(paired) / len(paired)
            spread = math.sqrt(sum((d - mean) ** 2 for d in paired) / (len(paired) - 1))
            if mean > CONFIDENCE * spread / math.sqrt(len(paired)) and mean > best_gain:
                best, best_gain = action, mean
        return best


class _Foreseen:
    """Chance as the arena will draw it: the k-th chance step uses the k-th uniform draw."""

    def __init__(self, generator: random.Random) -> None:
        self.generator = generator
        self.draws: list[float] = []

    def outcome(self, world: State, index: int) -> int:
        while len(self.draws) <= index:
            self.draws.append(self.generator.random())
        return sample_chance(world, _Fixed(self.draws[index]))


class _Fixed:
    """A stand-in generator whose next (only) uniform draw is known."""

    def __init__(self, draw: float) -> None:
        self.draw = draw

    def random(self) -> float:
        return self.draw


@register_bot(
    "hoard_clairvoyant",
    "Hoard only, sees the deck order: beam search for the best win (an upper bound)",
)
class HoardClairvoyant(_Hoard):
    """Sees the future deck order: it is excluded from the no-peeking test by design."""

    name = "hoard_clairvoyant"
    sees_chance = True

    def __init__(self, game: Game, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = None, beam: int = DEFAULT_BEAM) -> None:
        super().__init__(game, seed, iterations, seconds, 1)
        self.beam = int(beam)
        self.future: _Foreseen | None = None
        self.plan: list[int] = []
        self.plan_from: list[int] | None = None
        self.plans_made = 0  # more than one per game means the future was not as foreseen

    def foresee(self, chance: random.Random) -> None:
        """Be told the game's chance generator, in the state it has before the first deal."""
        copy = random.Random()
        copy.setstate(chance.getstate())
        self.future = _Foreseen(copy)
        self.plan, self.plan_from, self.plans_made = [], None, 0

    def step(self, state: State, seat: int) -> int:
        self.check_turn(state, seat)
        legal = state.legal_actions()
        if self.future is None:
            raise LadyTigerError(
                "the clairvoyant bot must be told the deck order (foresee) before play"
            )
        history = state.history()
        expected = None
        if self.plan_from is not None and history[: len(self.plan_from)] == self.plan_from:
            played = self._my_moves_since(state, len(self.plan_from))
            if played < len(self.plan):
                expected = self.plan[played]
        if expected is None or expected not in legal:
            self.plan = self._solve(state)
            self.plan_from = history
            self.plans_made += 1
            expected = self.plan[0] if self.plan else legal[0]
        return expected

    def _my_moves_since(self, state: State, start: int) -> int:
        return sum(1 for actor in state.actors()[start:] if actor != CHANCE)

    def _advance(self, world: State, chances: int) -> int:
        """Resolve chance steps by the foreseen draws; returns the chance steps so far."""
        assert self.future is not None
        while world.current_player() == CHANCE:
            world.apply_action(self.future.outcome(world, chances))
            chances += 1
        return chances

    def _solve(self, state: State) -> list[int]:
        """The best line of play from `state` that the beam search finds."""
        chances = sum(1 for actor in state.actors() if actor == CHANCE)
        beam: list[tuple[float, State, int, list[int]]] = [(0.0, state.clone(), chances, [])]
        best_line: list[int] = []  # the best finished line (a win if there is one)
        best_score = -math.inf
        fallback: list[int] = []  # the longest line still open, if nothing finishes
        width = self.beam
        while beam:
            children: dict[Any, tuple[float, State, int, list[int]]] = {}
            for _, world, count, line in beam:
                for action in world.legal_actions():
                    child = world.clone()
                    child.apply_action(action)
                    used = self._advance(child, count)
                    path = [*line, action]
                    if child.is_terminal():
                        score = outcome(child) * WIN
                        if score > best_score:
                            best_score, best_line = score, path
                        continue
                    position = world_position(child)
                    score = value(*position)
                    key = (tuple(position[0]), tuple(position[1]), tuple(position[2]))
                    if key not in children or children[key][0] < score:
                        children[key] = (score, child, used, path)
            beam = sorted(children.values(), key=lambda entry: -entry[0])[:width]
            if beam:
                fallback = beam[0][3]
            if best_score >= WIN:
                break  # the earliest wins are in hand; the best of them is kept
        return best_line or fallback
