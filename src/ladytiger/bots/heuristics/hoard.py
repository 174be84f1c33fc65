"""Hoard rules of thumb, and the position value the Hoard planner and solver share.

Greedy: play the move after which the doors look best. Treasure collected counts most;
Treasure on a door of its own colour counts more than Treasure one move away, and more still
when that door holds no Trash (it can be collected); Trash in white+black pairs on one door
costs little (one Remove clears them), unpaired Trash costs more, and removed Trash adds a
little (it is the score). A win is worth everything, and more with more Trash removed.
"""

from __future__ import annotations

import functools
import math
import operator
import random
from collections.abc import Iterable
from typing import Any, NamedTuple

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

# What one door holds: its red, blue, white and black gems.
DoorGems = tuple[int, int, int, int]
# What a move does to one door: gems to add (or take off, negative), or CLEAR_PAIRS for a
# Remove, which takes off as many pairs as the door holds.
Change = DoorGems | None
CLEAR_PAIRS = None

# The view names each door, and counts each door's gems by colour word.
named_doors = operator.itemgetter(*DOORS)  # the doors' counts, in door order
counted_gems = operator.itemgetter(*GEMS)  # one door's counts as its DoorGems


# ---------------------------------------------------------------------------- the doors
# Every weight is a multiple of a half (keep them so), so a value comes out as the same exact
# number in whatever order its parts are added: a move can be judged by what it changes on
# the doors it touches, and two moves tie exactly when their whole values would.


def door_worth(door: int, gems: DoorGems) -> float:
    """What the gems on `door` are worth: its Treasure, less its Trash."""
    red, blue, white, black = gems
    own, other = (red, blue) if door >> 1 == RED else (blue, red)
    trash = white + black
    pairs = min(white, black)
    return (own * (READY if trash == 0 else OWN_COLOUR) + other * ONE_MOVE_AWAY
            + 2 * pairs * PAIRED_TRASH + (trash - 2 * pairs) * LOOSE_TRASH)


def changed(gems: DoorGems, change: Change) -> DoorGems:
    red, blue, white, black = gems
    if change is CLEAR_PAIRS:
        pairs = min(white, black)
        return red, blue, white - pairs, black - pairs
    return red + change[0], blue + change[1], white + change[2], black + change[3]


# A door never holds more than five gems of a kind, so few holdings ever occur, and only a
# handful of changes reach each: both are worked out once, when they first come up.
class DoorValue(dict[Change, float]):
    """One door holding `gems`: its worth, and what each change to it gains. A change gains
    the door's worth after it less its worth now, plus what the gems it takes off the door
    add elsewhere: Treasure leaves the doors only to be collected, Trash only for the removed
    pile."""

    def __init__(self, door: int, gems: DoorGems) -> None:
        super().__init__()
        self.door, self.gems = door, gems
        self.worth = door_worth(door, gems)

    def __missing__(self, change: Change) -> float:
        red, blue, white, black = self.gems
        new = changed(self.gems, change)
        collected = red + blue - new[RED] - new[BLUE]
        removed = white + black - new[WHITE] - new[BLACK]
        gain = door_worth(self.door, new) - self.worth + COLLECTED * collected + REMOVED * removed
        self[change] = gain
        return gain


class Holdings(dict[DoorGems, DoorValue]):
    """One door's value for each holding it has been seen with."""

    def __init__(self, door: int) -> None:
        super().__init__()
        self.door = door

    def __missing__(self, gems: DoorGems) -> DoorValue:
        door_value = self[gems] = DoorValue(self.door, gems)
        return door_value


DOOR_VALUES = tuple(Holdings(door) for door in range(4))  # DOOR_VALUES[door][gems]


def door_gems(gems: list[int], door: int) -> DoorGems:
    red, blue, white, black = gems[door * 4:door * 4 + 4]
    return red, blue, white, black


def door_values(gems: list[int]) -> list[DoorValue]:
    return [DOOR_VALUES[door][door_gems(gems, door)] for door in range(4)]


def value(gems: list[int], removed: list[int], collected: list[int]) -> float:
    total_collected = collected[0] + collected[1]
    if total_collected == TREASURES:
        return WIN + removed[0] + removed[1]
    score = COLLECTED * total_collected + REMOVED * (removed[0] + removed[1])
    for door in door_values(gems):
        score += door.worth
    return score


# ---------------------------------------------------------------------------- the moves
class Move(NamedTuple):
    """What a move does: its change to each door it touches, and the Treasure it collects."""

    changes: tuple[tuple[int, Change], ...]
    collects: int = 0


def door_named(words: list[str]) -> int:
    return DOORS.index(" ".join(words))


def gathered(*steps: tuple[int, int, int]) -> tuple[tuple[int, Change], ...]:
    """(door, gem, count) steps as one change per door."""
    counts: dict[int, list[int]] = {}
    for door, gem, count in steps:
        counts.setdefault(door, [0, 0, 0, 0])[gem] += count
    return tuple((door, (red, blue, white, black))
                 for door, (red, blue, white, black) in counts.items())


# The same few dozen move texts come back turn after turn: each is read once.
@functools.cache
def read(text: str) -> Move:
    words = text.split()
    if words[0] == "move":  # move red Treasure from Red Lady to Blue Lady
        gem = GEMS.index(words[1])
        source, target = door_named(words[4:6]), door_named(words[7:9])
        return Move(gathered((source, gem, -1), (target, gem, +1)))
    if words[0] == "remove":  # remove pairs from Red Lady
        return Move(((door_named(words[3:5]), CLEAR_PAIRS),))
    if words[0] == "collect":  # collect red Treasure from Red Lady
        return Move(gathered((door_named(words[4:6]), GEMS.index(words[1]), -1)), collects=1)
    if words[0] == "put":  # put white Trash on Red Lady and black Trash on Blue Lady
        white_door, black_door = door_named(words[4:6]), door_named(words[10:12])
        return Move(gathered((white_door, WHITE, +1), (black_door, BLACK, +1)))
    if words[0] == "swap":  # swap black Trash on Red Lady with white Trash on Blue Lady
        black_door, white_door = door_named(words[4:6]), door_named(words[10:12])
        return Move(gathered((black_door, BLACK, -1), (black_door, WHITE, +1),
                             (white_door, WHITE, -1), (white_door, BLACK, +1)))
    return Move(())


def after(position: Position, text: str) -> Position:
    """The position after the move called `text` (the Hoard move texts)."""
    gems, removed, collected = position[0].copy(), position[1].copy(), position[2].copy()
    for door, change in read(text).changes:
        old = door_gems(gems, door)
        new = changed(old, change)
        gems[door * 4:door * 4 + 4] = new
        # Treasure leaves the doors only to be collected, Trash only for the removed pile.
        collected[RED] += old[RED] - new[RED]
        collected[BLUE] += old[BLUE] - new[BLUE]
        removed[0] += old[WHITE] - new[WHITE]
        removed[1] += old[BLACK] - new[BLACK]
    return gems, removed, collected


def position_of(view: dict[str, Any]) -> Position:
    gems = [count for counts in named_doors(view["doors"]) for count in counted_gems(counts)]
    removed = [view["removed"]["white"], view["removed"]["black"]]
    collected = [view["collected"]["red"], view["collected"]["blue"]]
    return gems, removed, collected


# ---------------------------------------------------------------------------- choosing
def best_moves(position: Position, moves: Iterable[tuple[int, str]]) -> tuple[int, ...]:
    """The moves after which the doors look best (several when they tie)."""
    gems, removed, collected = position
    return best_moves_from(door_values(gems), removed[0] + removed[1],
                           collected[0] + collected[1], moves)


def best_moves_from(doors: list[DoorValue], removed: int, collected: int,
                    moves: Iterable[tuple[int, str]]) -> tuple[int, ...]:
    """`best_moves`, from each door's value and the Trash removed and Treasure collected.

    Every move starts from the same position, so the best moves are those that gain most."""
    best: list[int] = []
    top = -math.inf
    for action, text in moves:
        changes, collects = read(text)
        if collected + collects == TREASURES:
            gain = win_gain(doors, removed, collected, changes)
        else:
            gain = 0.0
            for door, change in changes:
                gain += doors[door][change]
        if gain > top:
            top, best = gain, [action]
        elif gain == top:
            best.append(action)
    return tuple(best)


def win_gain(doors: list[DoorValue], removed: int, collected: int,
             changes: tuple[tuple[int, Change], ...]) -> float:
    """What a winning move gains: a win is worth everything, and more with more Trash
    removed."""
    now = COLLECTED * collected + REMOVED * removed
    for door in doors:
        now += door.worth
    for door, change in changes:
        held = doors[door].gems
        new = changed(held, change)
        removed += held[WHITE] + held[BLACK] - new[WHITE] - new[BLACK]
    return WIN + removed - now


def pick(best: tuple[int, ...], rng: random.Random) -> int:
    return best[0] if len(best) == 1 else rng.choice(best)


def greedy(position: Position, moves: list[tuple[int, str]], rng: random.Random) -> int:
    return pick(best_moves(position, moves), rng)


def choose(view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
    # The view is read straight into door values: no Position is built on the way.
    doors = [DOOR_VALUES[door][counted_gems(counts)]
             for door, counts in enumerate(named_doors(view["doors"]))]
    removed, collected = view["removed"], view["collected"]
    return pick(best_moves_from(doors, removed["white"] + removed["black"],
                                collected["red"] + collected["blue"],
                                zip(moves.actions, moves.texts, strict=True)), rng)


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
