"""Hoard rules of thumb, and the position value the Hoard planner and solver share.

Greedy: play the move after which the doors look best. Treasure collected counts most;
Treasure on a door of its own colour counts more than Treasure one move away, and more still
when that door holds no Trash (it can be collected); Trash in white+black pairs on one door
costs little (one Remove clears them), unpaired Trash costs more, and removed Trash adds a
little (it is the score). A win is worth everything, and more with more Trash removed.
"""

from __future__ import annotations

import random
from typing import Any

from ladytiger.bots.heuristics import Moves
from ladytiger.core.words import join, plural

DOORS = ("Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger")  # numbered colour * 2 + role
GEMS = ("red", "blue", "white", "black")
RED, BLUE, WHITE, BLACK = range(4)
TREASURES = 10
WIN = 1000.0

COLLECTED = 12.0
READY = 6.0  # own-colour Treasure on a door without Trash
OWN_COLOUR = 3.0  # own-colour Treasure behind Trash
ONE_MOVE_AWAY = 1.5  # Treasure on the other door of its row, which has the other colour
PAIRED_TRASH = -1.0
LOOSE_TRASH = -3.0
REMOVED = 0.5

# A position: gems per door (door * 4 + gem), removed pile (white, black), collected (red, blue).
Position = tuple[list[int], list[int], list[int]]


def value(gems: list[int], removed: list[int], collected: list[int]) -> float:
    total_collected = collected[0] + collected[1]
    if total_collected == TREASURES:
        return WIN + removed[0] + removed[1]
    score = COLLECTED * total_collected + REMOVED * (removed[0] + removed[1])
    for door in range(4):
        base = door * 4
        colour = door >> 1
        white, black = gems[base + WHITE], gems[base + BLACK]
        own, other = gems[base + colour], gems[base + (1 - colour)]
        score += own * (READY if white + black == 0 else OWN_COLOUR) + other * ONE_MOVE_AWAY
        pairs = min(white, black)
        score += 2 * pairs * PAIRED_TRASH + (white + black - 2 * pairs) * LOOSE_TRASH
    return score


def after(position: Position, text: str) -> Position:
    """The position after the move called `text` (the Hoard move texts)."""
    gems, removed, collected = position[0].copy(), position[1].copy(), position[2].copy()
    words = text.split()
    if words[0] == "move":  # move red Treasure from Red Lady to Blue Lady
        gem = GEMS.index(words[1])
        source = DOORS.index(f"{words[4]} {words[5]}")
        target = DOORS.index(f"{words[7]} {words[8]}")
        gems[source * 4 + gem] -= 1
        gems[target * 4 + gem] += 1
    elif words[0] == "remove":  # remove pairs from Red Lady
        door = DOORS.index(f"{words[3]} {words[4]}")
        pairs = min(gems[door * 4 + WHITE], gems[door * 4 + BLACK])
        gems[door * 4 + WHITE] -= pairs
        gems[door * 4 + BLACK] -= pairs
        removed[0] += pairs
        removed[1] += pairs
    elif words[0] == "collect":  # collect red Treasure from Red Lady
        gem = GEMS.index(words[1])
        door = DOORS.index(f"{words[4]} {words[5]}")
        gems[door * 4 + gem] -= 1
        collected[gem] += 1
    elif words[0] == "put":  # put white Trash on Red Lady and black Trash on Blue Lady
        white_door = DOORS.index(f"{words[4]} {words[5]}")
        black_door = DOORS.index(f"{words[10]} {words[11]}")
        gems[white_door * 4 + WHITE] += 1
        gems[black_door * 4 + BLACK] += 1
        removed[0] -= 1
        removed[1] -= 1
    elif words[0] == "swap":  # swap black Trash on Red Lady with white Trash on Blue Lady
        black_door = DOORS.index(f"{words[4]} {words[5]}")
        white_door = DOORS.index(f"{words[10]} {words[11]}")
        gems[black_door * 4 + BLACK] -= 1
        gems[black_door * 4 + WHITE] += 1
        gems[white_door * 4 + WHITE] -= 1
        gems[white_door * 4 + BLACK] += 1
    return gems, removed, collected


def position_of(view: dict[str, Any]) -> Position:
    gems = [0] * 16
    for door, name in enumerate(DOORS):
        counts = view["doors"][name]
        for gem, word in enumerate(GEMS):
            gems[door * 4 + gem] = counts[word]
    removed = [view["removed"]["white"], view["removed"]["black"]]
    collected = [view["collected"]["red"], view["collected"]["blue"]]
    return gems, removed, collected


def best_moves(position: Position, moves: list[tuple[int, str]]) -> tuple[int, ...]:
    """The moves after which the doors look best (several when they tie)."""
    values = [(value(*after(position, text)), action) for action, text in moves]
    top = max(score for score, _ in values)
    return tuple(action for score, action in values if score == top)


def greedy(position: Position, moves: list[tuple[int, str]], rng: random.Random) -> int:
    best = best_moves(position, moves)
    return best[0] if len(best) == 1 else rng.choice(best)


def choose(view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
    return greedy(position_of(view), list(moves), rng)


# ---------------------------------------------------------------------------- in words
def explain(view: dict[str, Any], moves: Moves, rng: random.Random) -> tuple[int, str]:
    """The move these rules choose, and what makes it best in a player's words."""
    action = choose(view, moves, rng)
    text = moves.texts[moves.actions.index(action)]
    return action, words(position_of(view), text)


def parts(gems: list[int], removed: list[int], collected: list[int]) -> dict[str, float]:
    """`value` taken apart into what a player sees (the parts add up to it short of a win):
    Treasure collected, ready to collect, on its colour behind Trash, one move away; the
    cost of the Trash on the doors; the Trash removed."""
    ready = own_colour = away = trash = 0.0
    for door in range(4):
        base = door * 4
        colour = door >> 1
        white, black = gems[base + WHITE], gems[base + BLACK]
        own, other = gems[base + colour], gems[base + (1 - colour)]
        if white + black == 0:
            ready += own * READY
        else:
            own_colour += own * OWN_COLOUR
        away += other * ONE_MOVE_AWAY
        pairs = min(white, black)
        trash += 2 * pairs * PAIRED_TRASH + (white + black - 2 * pairs) * LOOSE_TRASH
    return {
        "collected": COLLECTED * (collected[0] + collected[1]),
        "ready": ready,
        "own colour": own_colour,
        "away": away,
        "trash": trash,
        "removed": REMOVED * (removed[0] + removed[1]),
    }


def words(position: Position, text: str) -> str:
    gems, removed, collected = after(position, text)
    verb = text.split()[0]
    doing = {
        "move": lambda: f"Moving the {' '.join(text.split()[1:3])} to the "
                        f"{text.split(' to ')[1]}",
        "remove": lambda: f"Removing the pairs from the {text.removeprefix('remove pairs from ')}",
        "collect": lambda: f"Collecting the {' '.join(text.split()[1:3])}",
        "put": lambda: "Putting the Trash back this way",
        "swap": lambda: "Swapping these two Trash",
    }[verb]()
    total = collected[0] + collected[1]
    if total == TREASURES:
        return f"{doing} collects your tenth Treasure: you win."
    before = parts(*position)
    now = parts(gems, removed, collected)
    gains = sorted(((now[k] - before[k], k) for k in now), reverse=True)
    phrases = {
        "collected": f"banks a Treasure for good ({total} of {TREASURES} collected)",
        "ready": "leaves Treasure ready to collect, on a door of its colour with no Trash",
        "own colour": "brings Treasure to a door of its own colour",
        "away": "brings Treasure one move from a door of its colour",
        "trash": "pairs up Trash on the doors, so that one Remove clears it",
        "removed": (f"puts Trash on your removed pile ({removed[0] + removed[1]} so far: "
                    "your score if you win)"),
    }
    if verb == "collect":
        phrases["collected"] = f"banks it for good ({total} of {TREASURES} collected)"
    if verb == "remove":
        cleared = removed[0] - position[1][0]
        del phrases["trash"]
        phrases["removed"] = (f"clears {plural(cleared, 'pair')} of Trash onto your removed "
                              f"pile ({removed[0] + removed[1]} so far: your score if you win)")
    good = [phrases[k] for delta, k in gains if delta > 1e-9 and k in phrases]
    if not good:
        return f"{doing} does the least harm of the moves you have."
    if verb == "put" and gains[0][1] != "trash":
        # Putting Trash back always costs; say what it spares.
        return f"{doing} does the least harm: it {good[0]}."
    return f"{doing} {join(good[:2])}."
