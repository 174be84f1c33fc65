"""Labyrinth rules of thumb.

Race: move the cub whose step cuts your cubs' walking distance home, the straggler first
(the last cub decides the race), and never step off your Tiger door. Then switch the pair of
cards that does most for you against your opponent: carry your cubs toward your door, or
carry theirs away from theirs.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ladytiger.bots.heuristics import Moves
from ladytiger.core.words import join, plural

SIZE = 4
COLUMNS = "ABCD"


def cell_index(name: str) -> int:
    return (int(name[1]) - 1) * SIZE + COLUMNS.index(name[0])


def distance(a: int, b: int) -> int:
    """Steps between two cells, one cell up, down, left or right at a time."""
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


def cub_counts(view: dict[str, Any]) -> dict[str, list[int]]:
    counts = {colour: [0] * (SIZE * SIZE) for colour in view["seat_colours"]}
    for row in view["grid"]:
        for square in row:
            for colour, n in square["cubs"].items():
                counts[colour][cell_index(square["cell"])] = n
    return counts


def walk(cubs: list[int], goal: int) -> int:
    return sum(n * distance(cell, goal) for cell, n in enumerate(cubs) if n)


def balance(counts: dict[str, list[int]], view: dict[str, Any], seat: int) -> int:
    """Opponent's walking distance minus ours: higher is better for `seat`."""
    colours = view["seat_colours"]
    goals = [cell_index(name) for name in view["goal_doors"]]
    mine = walk(counts[colours[seat]], goals[seat])
    theirs = walk(counts[colours[1 - seat]], goals[1 - seat])
    return theirs - mine


# Walking steps of lead that make the race about 73% won (one unit of the logistic).
LEAD_SCALE = 3.0
# How the search suits Labyrinth (ladytiger.bots.ismcts takes these as its defaults here):
# random playouts cut after a few steps and judged by `evaluate`. Rules-of-thumb playouts
# weigh every possible switch at every step (about 50 iterations a second), and random
# playouts to the end of a maze race say little about who leads.
SEARCH_DEFAULTS = {"rollout": "random", "rollout_limit": 8}


def evaluate(view: dict[str, Any]) -> list[float]:
    """Each seat's chance of winning, judged by the race: the walking distance of the
    other seat's cubs home minus that of the seat's own, squashed by a logistic."""
    if view["winner"] is not None:
        return [1.0 if seat == view["winner"] else 0.0 for seat in (0, 1)]
    lead = balance(cub_counts(view), view, 0)
    first = 1.0 / (1.0 + math.exp(-lead / LEAD_SCALE))
    return [first, 1.0 - first]


def choose(view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
    return decide(view, moves, rng)[0]


def explain(view: dict[str, Any], moves: Moves, rng: random.Random) -> tuple[int, str]:
    """The move these rules choose, and the rule that chose it in a player's words."""
    action, why = decide(view, moves, rng)
    return action, words(view, moves, action, why)


def decide(
    view: dict[str, Any], moves: Moves, rng: random.Random
) -> tuple[int, tuple[Any, ...]]:
    """The move, and what settled it (read by `words`; playouts never ask for the words)."""
    seat = view["viewer"]
    counts = cub_counts(view)
    goal = cell_index(view["goal_doors"][seat])
    if view["phase"] == "move a cub":
        best, best_key = moves.actions[0], None
        for action, text in moves:
            _, _, _, _, start, _, end = text.split()  # move red cub from A1 to B1
            a, b = cell_index(start), cell_index(end)
            gain = distance(a, goal) - distance(b, goal)
            key = (gain, distance(a, goal), rng.random())
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best, ("step",)
    best, best_value = moves.actions[0], None
    for action, text in moves:
        _, first, second, *_ = text.split()  # switch B1 B4 with Blue/Red
        a, b = cell_index(first), cell_index(second)
        after = {colour: cubs.copy() for colour, cubs in counts.items()}
        for cubs in after.values():
            cubs[a], cubs[b] = cubs[b], cubs[a]
        value = (balance(after, view, seat), rng.random())
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best, ("switch",)


def words(view: dict[str, Any], moves: Moves, action: int, why: tuple[Any, ...]) -> str:
    seat = view["viewer"]
    home = view["goal_doors"][seat]
    goal = cell_index(home)
    text = moves.texts[moves.actions.index(action)]
    if why[0] == "step":
        start, end = text.split()[4], text.split()[6]
        gain = distance(cell_index(start), goal) - distance(cell_index(end), goal)
        away = distance(cell_index(start), goal)
        if gain > 0:
            others = [distance(cell_index(t.split()[4]), goal) for _, t in moves
                      if distance(cell_index(t.split()[4]), goal)
                      - distance(cell_index(t.split()[6]), goal) > 0]
            if min(others) < away:
                return (f"Moving the cub from {start} to {end} brings your furthest cub a "
                        f"step closer to your Tiger Door ({home}): the last cub home decides "
                        "the race.")
            return (f"Moving the cub from {start} to {end} brings it a step closer to your "
                    f"Tiger Door ({home}).")
        return (f"No cub can step closer to your Tiger Door ({home}) now: moving the one at "
                f"{start} costs least, and your cubs already home stay there.")
    colours = view["seat_colours"]
    goals = [cell_index(name) for name in view["goal_doors"]]
    counts = cub_counts(view)
    first, second = text.split()[1], text.split()[2]
    a, b = cell_index(first), cell_index(second)
    after = {colour: cubs.copy() for colour, cubs in counts.items()}
    for cubs in after.values():
        cubs[a], cubs[b] = cubs[b], cubs[a]
    mine = colours[seat]
    theirs = colours[1 - seat]
    closer = walk(counts[mine], goals[seat]) - walk(after[mine], goals[seat])
    further = walk(after[theirs], goals[1 - seat]) - walk(counts[theirs], goals[1 - seat])
    effects = []
    if closer > 0:
        effects.append(f"carries your cubs {plural(closer, 'step')} closer to {home}")
    if further > 0:
        effects.append(f"carries the {theirs} cubs {plural(further, 'step')} further from "
                       "their Tiger Door")
    switching = f"Switching {first} and {second}"
    if effects:
        return f"{switching} {join(effects)}."
    if closer + further == 0:
        return f"{switching} leaves the race as it is: no switch here gains you anything."
    return f"{switching} does the least harm: every switch here helps the {theirs} cubs."
