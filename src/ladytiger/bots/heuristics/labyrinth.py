"""Labyrinth rules of thumb.

Race: a cub that can step onto your Tiger door does so at once (on a Door no switch can
carry it away again); otherwise move the cub whose step cuts your cubs' walking distance
home, the straggler first (the last cub decides the race), and never step off your Tiger
door. Then switch the pair of cards that does most for you against your opponent: carry
your cubs toward your door, or carry theirs away from theirs, less half of the steps the
opponent's next switch could throw your cubs back (the gems you leave decide which cards
it may switch).
"""

from __future__ import annotations

import functools
import math
import random
from typing import Any

from ladytiger.bots.heuristics import Moves
from ladytiger.core.words import join, plural
from ladytiger.games.labyrinth import (
    CELL_NAMES,
    SIZE,
    gems_after_switch,
    switch_destinations,
    switch_partners,
)

# The board never changes shape, so its cells and the steps between them are worked out once
# here: a decision looks distances up instead of re-reading "B3" and re-counting steps. Cells
# are numbered as the game numbers them, so its answers about switches read straight.
CELLS = list(CELL_NAMES)
CELL_INDEX = {name: index for index, name in enumerate(CELLS)}
# STEPS[a][b]: steps between cells a and b, one cell up, down, left or right at a time.
STEPS = tuple(
    tuple(abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) for b in range(SIZE * SIZE))
    for a in range(SIZE * SIZE)
)

# The share of the opponent's worst answer that a switch is charged with: the opponent may
# not answer with it (it weighs its own walk too), but a blocker will.
GUARD = 0.5


def cell_index(name: str) -> int:
    return CELL_INDEX[name]


def distance(a: int, b: int) -> int:
    """Steps between two cells, one cell up, down, left or right at a time."""
    return STEPS[a][b]


# The same move texts come back turn after turn and game after game: each is read once.
@functools.cache
def step_cells(text: str) -> tuple[int, int]:
    """The cells a cub leaves and enters."""
    _, _, _, _, start, _, end = text.split()  # move red cub from A1 to B1
    return CELL_INDEX[start], CELL_INDEX[end]


@functools.cache
def switch_cells(text: str) -> tuple[int, int, str]:
    """The two cells whose cards (and cubs) a switch trades, and the Switch card used."""
    _, first, second, _, card = text.split()  # switch B1 B4 with Blue/Red
    return CELL_INDEX[first], CELL_INDEX[second], card


def cub_counts(view: dict[str, Any]) -> dict[str, list[int]]:
    counts = {colour: [0] * (SIZE * SIZE) for colour in view["seat_colours"]}
    for row in view["grid"]:
        for square in row:
            cell = CELL_INDEX[square["cell"]]
            for colour, n in square["cubs"].items():
                counts[colour][cell] = n
    return counts


def walk(cubs: list[int], goal: int) -> int:
    home = STEPS[goal]
    return sum(n * home[cell] for cell, n in enumerate(cubs) if n)


def balance(counts: dict[str, list[int]], view: dict[str, Any], seat: int) -> int:
    """Opponent's walking distance minus ours: higher is better for `seat`."""
    colours = view["seat_colours"]
    goals = [CELL_INDEX[name] for name in view["goal_doors"]]
    mine = walk(counts[colours[seat]], goals[seat])
    theirs = walk(counts[colours[1 - seat]], goals[1 - seat])
    return theirs - mine


def walks(view: dict[str, Any]) -> tuple[int, int]:
    """Each seat's walking distance: the steps all its cubs still have to take home."""
    first, second = view["seat_colours"]
    first_home, second_home = (STEPS[CELL_INDEX[door]] for door in view["goal_doors"])
    first_walk = second_walk = 0
    for row in view["grid"]:
        for square in row:
            cell, cubs = CELL_INDEX[square["cell"]], square["cubs"]
            first_walk += cubs[first] * first_home[cell]
            second_walk += cubs[second] * second_home[cell]
    return first_walk, second_walk


def cubs_by_cell(view: dict[str, Any]) -> dict[int, dict[str, int]]:
    """The cubs of each colour on each cell."""
    return {CELL_INDEX[square["cell"]]: square["cubs"] for row in view["grid"] for square in row}


def cards_by_cell(view: dict[str, Any]) -> list[str]:
    """Each cell's card by name, in the game's cell order."""
    cards = [""] * (SIZE * SIZE)
    for row in view["grid"]:
        for square in row:
            cards[CELL_INDEX[square["cell"]]] = square["card"]
    return cards


def threat(cubs: list[int], cards: list[str], yellow: str, white: str,
           home: tuple[int, ...]) -> int:
    """The most steps one switch could add to the walk home of `cubs` with the gems on
    `yellow` and `white`: the game says where a switch may carry each card (and the cubs
    riding on it); cubs on the card it trades with ride the other way."""
    worst = 0
    for a in range(SIZE * SIZE):
        n = cubs[a]
        if not n:
            continue
        for b in switch_destinations(a, cards, yellow, white):
            steps = (n - cubs[b]) * (home[b] - home[a])
            if steps > worst:
                worst = steps
    return worst


def longer_walk(cubs_at: dict[int, dict[str, int]], colour: str, home: tuple[int, ...],
                a: int, b: int) -> int:
    """How many steps switching cells a and b adds to the walk home of `colour`'s cubs: the
    cubs on a now stand where b was, and those on b where a was."""
    return (cubs_at[a][colour] - cubs_at[b][colour]) * (home[b] - home[a])


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
    first_walk, second_walk = walks(view)
    lead = second_walk - first_walk
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
    doors = view["goal_doors"]
    goal = CELL_INDEX[doors[seat]]
    home = STEPS[goal]
    if view["phase"] == "move a cub":
        best, best_key = moves.actions[0], None
        for action, text in moves:
            start, end = step_cells(text)
            # Onto the Tiger door first (there no switch reaches it); then closer home; of
            # equal steps, the cub furthest away (the straggler).
            key = (end == goal, home[start] - home[end], home[start], rng.random())
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best, ("step",)
    # Every switch starts from the same race, so it is judged by what it changes: the steps
    # it adds to their walk home minus the steps it adds to ours, less part of the steps the
    # opponent's next switch could add to ours with the gems this switch leaves.
    colours = view["seat_colours"]
    mine, theirs = colours[seat], colours[1 - seat]
    their_home = STEPS[CELL_INDEX[doors[1 - seat]]]
    cubs_at = cubs_by_cell(view)
    cubs = [cubs_at[cell][mine] for cell in range(SIZE * SIZE)]
    cards = cards_by_cell(view)
    yellow, white = view["switches"]["Blue/Red"], view["switches"]["Lady/Tiger"]
    options = []
    for action, text in moves:
        a, b, card = switch_cells(text)
        gain = (longer_walk(cubs_at, theirs, their_home, a, b)
                - longer_walk(cubs_at, mine, home, a, b))
        options.append((gain, rng.random(), action, card, a, b))
    # The answer left open only ever lowers a switch's value, so the switches are weighed
    # from the best gain down and the weighing stops once no gain left can win.
    options.sort(reverse=True)
    best, best_value, best_danger, dangers = moves.actions[0], None, 0, []
    for gain, tie, action, card, a, b in options:
        if best_value is not None and (gain, tie) <= best_value:
            break
        # Try the switch on the board, weigh the answer it leaves open, and take it back.
        cubs[a], cubs[b], cards[a], cards[b] = cubs[b], cubs[a], cards[b], cards[a]
        gems = gems_after_switch(card, cards[a], cards[b], yellow, white)
        danger = threat(cubs, cards, *gems, home)
        cubs[a], cubs[b], cards[a], cards[b] = cubs[b], cubs[a], cards[b], cards[a]
        dangers.append(danger)
        value = (gain - GUARD * danger, tie)
        if best_value is None or value > best_value:
            best, best_value, best_danger = action, value, danger
    # For the words: the chosen switch's open answer, and the greediest switch's gain and
    # open answer (the first weighed).
    return best, ("switch", best_danger, options[0][0], dangers[0])


def words(view: dict[str, Any], moves: Moves, action: int, why: tuple[Any, ...]) -> str:
    seat = view["viewer"]
    doors = view["goal_doors"]
    home_door = doors[seat]
    home = STEPS[CELL_INDEX[home_door]]
    text = moves.texts[moves.actions.index(action)]
    if why[0] == "step":
        start, end = text.split()[4], text.split()[6]
        if end == home_door:
            return (f"Moving the cub from {start} onto your Tiger Door ({home_door}) brings it "
                    "home, where no switch can carry it away again.")
        away = home[CELL_INDEX[start]]
        if away > home[CELL_INDEX[end]]:
            stragglers = [home[a] for a, b in map(step_cells, moves.texts) if home[a] > home[b]]
            if min(stragglers) < away:
                return (f"Moving the cub from {start} to {end} brings your furthest cub a "
                        f"step closer to your Tiger Door ({home_door}): the last cub home "
                        "decides the race.")
            return (f"Moving the cub from {start} to {end} brings it a step closer to your "
                    f"Tiger Door ({home_door}).")
        return (f"No cub can step closer to your Tiger Door ({home_door}) now: moving the one "
                f"at {start} costs least, and your cubs already home stay there.")
    colours = view["seat_colours"]
    theirs = colours[1 - seat]
    first, second = text.split()[1], text.split()[2]
    a, b = CELL_INDEX[first], CELL_INDEX[second]
    cubs_at = cubs_by_cell(view)
    closer = -longer_walk(cubs_at, colours[seat], home, a, b)
    further = longer_walk(cubs_at, theirs, STEPS[CELL_INDEX[doors[1 - seat]]], a, b)
    effects = []
    if closer > 0:
        effects.append(f"carries your cubs {plural(closer, 'step')} closer to {home_door}")
    if further > 0:
        effects.append(f"carries the {theirs} cubs {plural(further, 'step')} further from "
                       "their Tiger Door")
    switching = f"Switching {first} and {second}"
    _, danger, greediest, greediest_danger = why
    if closer + further < greediest:
        # The guard chose: a switch that gained more now left the cubs open.
        after = f"at most {plural(danger, 'step')}" if danger else "not at all"
        return (f"{switching} gains less now than the best switch here, but that one would "
                f"let the other player throw your cubs {plural(greediest_danger, 'step')} "
                f"back with the next switch; after this one, {after}.")
    if effects:
        said = f"{switching} {join(effects)}."
    elif closer + further == 0:
        said = f"{switching} leaves the race as it is: no switch here gains you anything."
    else:
        said = f"{switching} does the least harm: every switch here helps the {theirs} cubs."
    if danger == 0 and any(cubs_at[cell][colours[seat]] for cell in range(SIZE * SIZE)
                           if switch_partners(cell)):
        said += (" It also leaves the gems so that no switch the other player can make "
                 "carries your cubs further from home.")
    return said
