"""Labyrinth: a 2-player maze race of The Lady and the Tiger (rulebook section "Labyrinth").

Each player walks five tiger cubs from their Lady door to their Tiger door across a 4x4 grid
of cards that shifts every turn. Rules page: docs/rules/labyrinth.md.
"""

from __future__ import annotations

import random
from itertools import chain
from typing import Any, Final

from ladytiger.core.game import Game, GameInfo
from ladytiger.core.log_parts import LogPart
from ladytiger.core.options import Option
from ladytiger.core.registry import register_game
from ladytiger.core.state import (
    CHANCE,
    TERMINAL,
    State,
    combine_moments,
    game_end_moment,
    new_moment,
    with_entry,
)
from ladytiger.core.words import a, does, join, plural, seat_word, sentence
from ladytiger.games.lady_tiger_cards import (
    BLUE,
    BLUE_LADY,
    BLUE_RED,
    BLUE_TIGER,
    CARD_NAMES,
    CLUE_COUNTS,
    COLOUR_NAMES,
    IDENTITIES,
    LADY,
    LADY_TIGER,
    RED,
    RED_LADY,
    RED_TIGER,
    ROLE_NAMES,
    TIGER,
    identity,
)

# ---------------------------------------------------------------------------- constants
SIZE: Final = 4
CELLS: Final = SIZE * SIZE
COLUMNS: Final = "ABCD"  # left to right; rows are numbered 1 to 4 from the top
CELL_NAMES: Final = tuple(f"{COLUMNS[cell % SIZE]}{cell // SIZE + 1}" for cell in range(CELLS))
CUBS: Final = 5
EMPTY: Final = -1  # a cell whose Clue card is not placed yet

# The Doors sit in the corners, same colours in opposite corners (issue ruling).
DOOR_AT: Final = {0: RED_LADY, 3: BLUE_LADY, 12: BLUE_TIGER, 15: RED_TIGER}
DEAL_ORDER: Final = tuple(cell for cell in range(CELLS) if cell not in DOOR_AT)  # reading order
REGULAR_COUNTS: Final = tuple(CLUE_COUNTS[card] for card in IDENTITIES)  # the 12 regular Clue cards

# Seat 0 plays red, seat 1 blue: cubs start on their Lady door and head for their Tiger door.
SEAT_COLOURS: Final = ("red", "blue")
START_CELL: Final = (0, 3)
GOAL_CELL: Final = (15, 12)

# The Switch cards (the two wild Clue cards) and their gems.
SWITCHES: Final = (BLUE_RED, LADY_TIGER)
GEM_NAMES: Final = ("yellow", "white")  # the yellow gem sits on Blue/Red, the white on Lady/Tiger
YELLOW, WHITE = 0, 1


def _neighbours(cell: int) -> list[int]:
    row, col = divmod(cell, SIZE)
    near = []
    if row > 0:
        near.append(cell - SIZE)
    if col > 0:
        near.append(cell - 1)
    if col < SIZE - 1:
        near.append(cell + 1)
    if row < SIZE - 1:
        near.append(cell + SIZE)
    return near  # ascending, so move actions come out sorted


# Player actions. A cub move is one step between neighbouring cells; a switch names a Switch
# card and two cells in one row or column (Doors included, so that trying one is explained).
STEPS: Final = tuple((cell, to) for cell in range(CELLS) for to in _neighbours(cell))
STEPS_FROM: Final = tuple(
    tuple(index for index, (start, _) in enumerate(STEPS) if start == cell) for cell in range(CELLS)
)
PAIRS: Final = tuple(
    (a, b)
    for a in range(CELLS)
    for b in range(a + 1, CELLS)
    if a // SIZE == b // SIZE or a % SIZE == b % SIZE
)
PAIR_MASKS: Final = tuple((1 << a) | (1 << b) for a, b in PAIRS)
MOVE: Final = 0  # + step index: move one of your cubs along that step
SWITCH: Final = len(STEPS)  # + switch * len(PAIRS) + pair index
NUM_ACTIONS: Final = SWITCH + len(SWITCHES) * len(PAIRS)
MOVES_FROM: Final = tuple(tuple(MOVE + step for step in steps) for steps in STEPS_FROM)
STEP_START: Final = tuple(start for start, _ in STEPS)

# For each cell, the cells after it in its row or column (a bitmask), and where each such
# pair is in PAIRS (PAIR_INDEX[a * CELLS + b]; -1 when a and b share no line). Walking the
# bits of a Switch card's cells in order with these lists its actions in action order.
LATER_IN_LINE: Final = tuple(
    sum(1 << b for b in range(a + 1, CELLS) if a // SIZE == b // SIZE or a % SIZE == b % SIZE)
    for a in range(CELLS)
)
PAIR_INDEX: Final = tuple(
    PAIRS.index((a, b)) if (a, b) in PAIRS else -1 for a in range(CELLS) for b in range(CELLS)
)


def switch_actions(switch: int, cells: int, occupied: int, into: list[int]) -> None:
    """Add to `into` Switch card `switch`'s actions on pairs in one row or column with both
    cells in the bitmask `cells` and at least one in the bitmask `occupied`, in action order."""
    # Worked out each time rather than remembered: a table by position grew to some 60,000
    # entries a card, and looking an answer up there cost more than this walk.
    base = SWITCH + switch * len(PAIRS)
    rest = cells
    while rest:
        low = rest & -rest
        rest ^= low
        first = low.bit_length() - 1
        partners = LATER_IN_LINE[first] & cells
        if not low & occupied:
            partners &= occupied
        row = first * CELLS
        while partners:
            high = partners & -partners
            partners ^= high
            into.append(base + PAIR_INDEX[row + high.bit_length() - 1])


# The moves out of every cell in a bitmask of cells holding a player's cubs, in action
# order; listed once per bitmask, when first met (at most 2**16 of them).
_CUB_MOVES: dict[int, tuple[int, ...]] = {}


def cub_moves(cells: int) -> tuple[int, ...]:
    moves = _CUB_MOVES.get(cells)
    if moves is None:
        moves = tuple(chain.from_iterable(
            MOVES_FROM[cell] for cell in range(CELLS) if cells >> cell & 1
        ))
        _CUB_MOVES[cells] = moves
    return moves


# The two Clue cards a Switch card moves, by its gem's position: the Yellow gem names a
# colour (both roles of it move), the White gem a role (both colours of it move).
TRAIT_CARDS: Final = (
    tuple((identity(colour, LADY), identity(colour, TIGER)) for colour in (RED, BLUE)),
    tuple((identity(RED, role), identity(BLUE, role)) for role in (LADY, TIGER)),
)


# ---------------------------------------------------------------------------- switches, asked
# The switch rules ("Switching Cards") answered in the observation's words, for players'
# aids (the rules of thumb) that weigh switches on a grid they read from a view: cells are
# numbered as CELL_NAMES lists them (A1 = 0, B1 = 1, ..., D4 = 15), cards and gems go by
# their names ("Red Lady"; the yellow gem on "Blue", the white on "Lady"). The answers are
# worked out here once, at import; the returned tables are shared: read them, never change
# them.

# SWITCH_PARTNERS[cell]: the cells whose cards the card at `cell` may trade places with (the
# switch actions' pairs, less those with a Door).
SWITCH_PARTNERS: Final = tuple(
    ()
    if a in DOOR_AT
    else tuple(
        b
        for b in range(CELLS)
        if b != a and b not in DOOR_AT and PAIR_INDEX[min(a, b) * CELLS + max(a, b)] >= 0
    )
    for a in range(CELLS)
)
# The colour or role a gem moves to when its Switch card is used.
OTHER_TRAIT: Final = {
    COLOUR_NAMES[RED]: COLOUR_NAMES[BLUE],
    COLOUR_NAMES[BLUE]: COLOUR_NAMES[RED],
    ROLE_NAMES[LADY]: ROLE_NAMES[TIGER],
    ROLE_NAMES[TIGER]: ROLE_NAMES[LADY],
}
# _SWITCH_MATES[(yellow, white)][card]: the cards `card` may trade places with while the
# yellow gem lies on colour `yellow` and the white gem on role `white`: those that one
# Switch card moves along with it (TRAIT_CARDS, as the engine reads it).
_SWITCH_MATES: Final = {
    (COLOUR_NAMES[yellow], ROLE_NAMES[white]): {
        CARD_NAMES[card]: frozenset(
            CARD_NAMES[mate]
            for moved in (TRAIT_CARDS[YELLOW][yellow], TRAIT_CARDS[WHITE][white])
            if card in moved
            for mate in moved
        )
        for card in IDENTITIES
    }
    for yellow in (RED, BLUE)
    for white in (LADY, TIGER)
}

def switch_partners(cell: int) -> tuple[int, ...]:
    """The cells whose cards the card at `cell` may trade places with, whatever the gems:
    the other Clue cells of its row and of its column, at any distance. None at all for a
    Door: Door cards never move."""
    return SWITCH_PARTNERS[cell]


def switch_mates(yellow: str, white: str) -> dict[str, frozenset[str]]:
    """For each Clue card (by name), the cards it may trade places with while the yellow gem
    lies on colour `yellow` and the white gem on role `white`: with the Blue/Red card two
    cards of the yellow gem's colour, with the Lady/Tiger card two of the white gem's role
    (either Switch card will do). Empty for a card neither Switch card may move now."""
    return _SWITCH_MATES[(yellow, white)]


def switch_destinations(cell: int, cards: list[str], yellow: str, white: str) -> list[int]:
    """The cells one switch may carry the card at `cell` to, and with it every cub on that
    card, while the yellow gem lies on colour `yellow` and the white gem on role `white`:
    `switch_partners` of `cell` holding a card that `switch_mates` pairs with it. `cards`:
    each cell's card by name, in CELL_NAMES order. A cub on `cell` is what makes each such
    switch legal (a switched card must carry one); a cub on a Door is never carried."""
    mates = _SWITCH_MATES[(yellow, white)][cards[cell]]
    return [other for other in SWITCH_PARTNERS[cell] if cards[other] in mates]


def gems_after_switch(
    switch: str, first: str, second: str, yellow: str, white: str
) -> tuple[str, str]:
    """Where the yellow and white gems lie once Switch card `switch` ("Blue/Red" or
    "Lady/Tiger") has traded the cards named `first` and `second`, the gems lying on colour
    `yellow` and role `white` before: the chosen card's gem moves to its other colour or
    role; when the two cards are identical, both gems move."""
    if first == second:
        return OTHER_TRAIT[yellow], OTHER_TRAIT[white]
    if switch == CARD_NAMES[BLUE_RED]:
        return OTHER_TRAIT[yellow], white
    return yellow, OTHER_TRAIT[white]


# Chance outcomes.
PLACE: Final = 0  # + regular card: that Clue card fills the next empty cell
NUM_CHANCE_OUTCOMES: Final = len(IDENTITIES)

# Phases, named after the rulebook.
BUILD: Final = "setup"  # the 12 Clue cards are placed cell by cell
MOVE_A_CUB: Final = "move a cub"
MOVE_THE_LABYRINTH: Final = "move the labyrinth"
GAME_OVER: Final = "game over"

INFO: Final = GameInfo(
    name="labyrinth",
    title="Labyrinth",
    description="A maze race for 2: lead five cubs to your Tiger door while the grid shifts.",
    min_players=2,
    max_players=2,
    options=(
        Option("turn_cap", 300, "turns (both players') after which the game is a draw",
               minimum=1, maximum=100_000),
    ),
    imperfect_information=False,
    rules_page="docs/rules/labyrinth.md",
)


@register_game
class LabyrinthGame(Game):
    info = INFO

    def new_initial_state(self) -> LabyrinthState:
        return LabyrinthState(self)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        # The 12 placements, then at most two actions per turn until the cap.
        return len(DEAL_ORDER) + 2 * self.options["turn_cap"]


def swapped(values: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    """`values` with the entries at `a` and `b` traded."""
    if values[a] == values[b]:
        return values
    changed = list(values)
    changed[a], changed[b] = values[b], values[a]
    return tuple(changed)


def cubs_text(count: int, colour: str) -> str:
    return plural(count, f"{colour} cub")


def laid_out(steps: list[dict[str, Any]]) -> str:
    """The setup's twelve placements in one sentence, in the order they were placed."""
    if len(steps) == 1:
        return sentence(f"{a(steps[0]['card'])} is placed at {steps[0]['cell']}")
    cards = join([f"{step['card']} at {step['cell']}" for step in steps])
    return sentence(f"the labyrinth is laid out: {cards}")


def switch_text(action: int) -> str:
    switch, pair = divmod(action - SWITCH, len(PAIRS))
    a, b = PAIRS[pair]
    return f"switch {CELL_NAMES[a]} {CELL_NAMES[b]} with {CARD_NAMES[SWITCHES[switch]]}"


class LabyrinthState(State):
    def __init__(self, game: Game, copy_of: LabyrinthState | None = None) -> None:
        super().__init__(game, copy_of)
        if copy_of is not None:  # clone() copies the rest of the position in
            return
        self.turn_cap: int = game.options["turn_cap"]
        self.board = [DOOR_AT.get(cell, EMPTY) for cell in range(CELLS)]
        self.placed = 0  # Clue cards placed so far, in DEAL_ORDER
        # `left` and the fields that are tuples (the cubs too) are replaced when they change,
        # never changed in place, so that clone() can share them instead of copying.
        self.left = list(REGULAR_COUNTS)  # per regular card, the copies not yet placed
        # Per regular card, a bitmask of its Clue cells.
        self.cells_of: tuple[int, ...] = (0,) * len(IDENTITIES)
        # Per seat, the cubs on each cell.
        self.cubs: tuple[tuple[int, ...], ...] = (
            with_entry((0,) * CELLS, START_CELL[0], CUBS),
            with_entry((0,) * CELLS, START_CELL[1], CUBS),
        )
        # Per seat, the cells (a bitmask) carrying at least one of its cubs, kept up to
        # date by every move: the legal cub moves and switches are read from these.
        self.cub_cells: tuple[int, ...] = (1 << START_CELL[0], 1 << START_CELL[1])
        # gems[YELLOW] is the colour under the yellow gem, gems[WHITE] the role under the white.
        self.gems: tuple[int, ...] = (BLUE, LADY)
        self.player = 0
        self.turns = 0  # completed turns, both players counted
        self.last_step = -1  # the step index of this turn's cub move, until the turn ends
        # The legal switches, found once after the cub move: nothing changes until the switch.
        self.open_switches: list[int] = []
        self.winner: int | None = None
        self.phase = BUILD

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        phase = self.phase
        if phase in (MOVE_A_CUB, MOVE_THE_LABYRINTH):
            return self.player
        if phase == BUILD:
            return CHANCE
        return TERMINAL

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self) -> list[int]:
        # Asked at every step of a playout: on a seat's turn, answer without first
        # asking whose turn it is; chance nodes and the end take the shared verb.
        if self.phase in (MOVE_A_CUB, MOVE_THE_LABYRINTH):
            return self._legal_actions()
        return super().legal_actions()

    def _legal_actions(self) -> list[int]:
        if self.phase == MOVE_A_CUB:
            return list(cub_moves(self.cub_cells[self.player]))
        return self.open_switches.copy()

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == MOVE_A_CUB:
            step = action - MOVE
            return 0 <= step < len(STEPS) and self.cubs[self.player][STEP_START[step]] > 0
        if phase == MOVE_THE_LABYRINTH:
            return action in self.open_switches
        if phase == BUILD:
            card = action - PLACE
            return 0 <= card < len(IDENTITIES) and self.left[card] > 0
        return False

    def switchable(self, switch: int) -> int:
        """Cells (a bitmask) a Switch card may move now: Clue cards showing its gem's trait."""
        # Doors are in none of these masks, so they never switch.
        first, second = TRAIT_CARDS[switch][self.gems[switch]]
        return self.cells_of[first] | self.cells_of[second]

    def occupied(self) -> int:
        """Cells (a bitmask) carrying at least one cub of either player."""
        return self.cub_cells[0] | self.cub_cells[1]

    def legal_switches(self) -> list[int]:
        """Two switchable cards in one row or column, at least one of them carrying a cub."""
        occupied = self.cub_cells[0] | self.cub_cells[1]
        switches: list[int] = []
        switch_actions(YELLOW, self.switchable(YELLOW), occupied, switches)
        switch_actions(WHITE, self.switchable(WHITE), occupied, switches)
        return switches

    def _why_illegal(self, action: int) -> str | None:
        phase = self.phase
        if phase == BUILD:
            return f"no {CARD_NAMES[action - PLACE]} is left to place in the grid"
        if action < SWITCH:
            if phase == MOVE_THE_LABYRINTH:
                return "you have already moved a cub this turn; now move the labyrinth"
            start, _ = STEPS[action - MOVE]
            colour = SEAT_COLOURS[self.player]
            if self.cubs[1 - self.player][start]:
                return (
                    f"you have no {colour} cub on {CELL_NAMES[start]}; "
                    "you move only your own cubs"
                )
            return f"you have no {colour} cub on {CELL_NAMES[start]}"
        if phase == MOVE_A_CUB:
            return "first move one of your cubs; the labyrinth moves after"
        return self._switch_fault(action)

    def _switch_fault(self, action: int) -> str | None:
        switch, index = divmod(action - SWITCH, len(PAIRS))
        cells = PAIRS[index]
        for cell in cells:
            if cell in DOOR_AT:
                return (
                    f"{CELL_NAMES[cell]} is the {CARD_NAMES[DOOR_AT[cell]]} Door; "
                    "Door cards cannot be switched"
                )
        allowed = self.switchable(switch)
        trait = (
            COLOUR_NAMES[self.gems[YELLOW]] if switch == YELLOW else ROLE_NAMES[self.gems[WHITE]]
        )
        for cell in cells:
            if not allowed >> cell & 1:
                return (
                    f"the {GEM_NAMES[switch]} gem is on {trait}, so the "
                    f"{CARD_NAMES[SWITCHES[switch]]} card switches only two {trait} cards; "
                    f"{CELL_NAMES[cell]} is a {CARD_NAMES[self.board[cell]]}"
                )
        if not PAIR_MASKS[index] & self.occupied():
            a, b = cells
            return (
                f"neither {CELL_NAMES[a]} nor {CELL_NAMES[b]} carries a cub; "
                "at least one switched card must carry a cub"
            )
        return None

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase != BUILD:
            return []
        total = len(DEAL_ORDER) - self.placed
        return [(PLACE + card, n / total) for card, n in enumerate(self.left) if n]

    # ------------------------------------------------------------------ apply
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == BUILD:
            card, cell = action - PLACE, DEAL_ORDER[self.placed]
            self.board[cell] = card
            self.cells_of = with_entry(self.cells_of, card, self.cells_of[card] | 1 << cell)
            left = self.left.copy()
            left[card] -= 1
            self.left = left
            self.placed += 1
            if self.placed == len(DEAL_ORDER):
                self.phase = MOVE_A_CUB
        elif phase == MOVE_A_CUB:
            self._move_cub(action - MOVE)
        else:
            self._switch(action)

    def _move_cub(self, step: int) -> None:
        start, to = STEPS[step]
        own = list(self.cubs[self.player])
        own[start] -= 1
        own[to] += 1
        red, blue = self.cubs
        self.cubs = (tuple(own), blue) if self.player == 0 else (red, tuple(own))
        cells = self.cub_cells[self.player] | 1 << to
        if not own[start]:
            cells ^= 1 << start
        other = self.cub_cells[1 - self.player]
        self.cub_cells = (cells, other) if self.player == 0 else (other, cells)
        self.last_step = step
        if own[GOAL_CELL[self.player]] == CUBS:
            # The escape is immediate: the labyrinth does not move after a winning step.
            self.winner = self.player
            self.phase = GAME_OVER
        elif switches := self.legal_switches():
            self.open_switches = switches
            self.phase = MOVE_THE_LABYRINTH
        else:
            # No switch exists with either card: both gems move and the turn is over.
            self.gems = (self.gems[0] ^ 1, self.gems[1] ^ 1)
            self._end_turn()

    def _switch(self, action: int) -> None:
        switch, index = divmod(action - SWITCH, len(PAIRS))
        a, b = PAIRS[index]
        board = self.board
        identical = board[a] == board[b]
        if not identical:
            both = (1 << a) | (1 << b)
            moved = (board[a], board[b])
            self.cells_of = tuple(
                cells ^ both if kind in moved else cells for kind, cells in enumerate(self.cells_of)
            )
        board[a], board[b] = board[b], board[a]
        red, blue = self.cubs  # the cubs ride with their cards
        self.cubs = (swapped(red, a, b), swapped(blue, a, b))
        self.cub_cells = tuple(
            cells ^ PAIR_MASKS[index] if (cells >> a ^ cells >> b) & 1 else cells
            for cells in self.cub_cells
        )
        yellow, white = self.gems
        if identical or switch == YELLOW:
            yellow ^= 1
        if identical or switch == WHITE:
            white ^= 1
        self.gems = (yellow, white)
        self._end_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        self.last_step = -1
        self.open_switches = []
        if self.turns >= self.turn_cap:
            self.phase = GAME_OVER  # a draw: the cap is ours, not the rulebook's
            return
        self.player = 1 - self.player
        self.phase = MOVE_A_CUB

    # ------------------------------------------------------------------ outcome
    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0 if seat == self.winner else 0.0 for seat in (0, 1)]

    def scores(self) -> list[int]:
        """Cubs standing on their own Tiger door (the game keeps no other score)."""
        return [self.cubs[seat][GOAL_CELL[seat]] for seat in (0, 1)]

    # ------------------------------------------------------------------ texts
    def _action_text(self, action: int, player: int) -> str:
        if player == CHANCE:
            cell = DEAL_ORDER[self.placed] if self.placed < len(DEAL_ORDER) else None
            where = CELL_NAMES[cell] if cell is not None else "the grid"
            return f"place {CARD_NAMES[action - PLACE]} at {where}"
        if action < SWITCH:
            start, to = STEPS[action - MOVE]
            colour = SEAT_COLOURS[player] if player in (0, 1) else "a"
            return f"move {colour} cub from {CELL_NAMES[start]} to {CELL_NAMES[to]}"
        return switch_text(action)

    def _action_fields(self, action: int) -> dict[str, Any]:
        if self.current_player() == CHANCE:
            return {}
        if action < SWITCH:
            start, to = STEPS[action - MOVE]
            return {"from": CELL_NAMES[start], "to": CELL_NAMES[to]}
        switch, index = divmod(action - SWITCH, len(PAIRS))
        return {
            "cells": [CELL_NAMES[cell] for cell in PAIRS[index]],
            "switch": CARD_NAMES[SWITCHES[switch]],
        }

    def gem_text(self, gem: int) -> str:
        """Where a gem now lies, e.g. "the yellow gem moves to Red"."""
        trait = COLOUR_NAMES[self.gems[YELLOW]] if gem == YELLOW else ROLE_NAMES[self.gems[WHITE]]
        return f"the {GEM_NAMES[gem]} gem moves to {trait}"

    def both_gems_text(self) -> str:
        yellow = COLOUR_NAMES[self.gems[YELLOW]]
        white = ROLE_NAMES[self.gems[WHITE]]
        return f"both gems move: the yellow to {yellow}, the white to {white}"

    def _describe(self, action: int, actor: int, viewer: int | None, after: State) -> list[str]:
        assert isinstance(after, LabyrinthState)
        if actor == CHANCE:
            cell = CELL_NAMES[DEAL_ORDER[self.placed]]
            return [LogPart("grid", laid_out, card=CARD_NAMES[action - PLACE], cell=cell)]
        lines: list[str]
        if self.phase == MOVE_THE_LABYRINTH:
            switch, index = divmod(action - SWITCH, len(PAIRS))
            first, second = (CELL_NAMES[cell] for cell in PAIRS[index])
            card = CARD_NAMES[SWITCHES[switch]]
            lines = [
                sentence(does(actor, viewer, "switch", f"{first} and {second} with the {card}")),
                self._switch_story(action, after),
            ]
        else:
            start, to = STEPS[action - MOVE]
            colour = SEAT_COLOURS[actor]
            cub = f"a {colour} cub from {CELL_NAMES[start]} to {CELL_NAMES[to]}"
            lines = [sentence(does(actor, viewer, "move", cub))]
            if after.winner is not None:
                goal = GOAL_CELL[actor]
                escaped = (
                    f"all five {colour} cubs have escaped to the "
                    f"{CARD_NAMES[after.board[goal]]} Door at {CELL_NAMES[goal]}"
                )
                lines.append(sentence(f"{does(actor, viewer, 'win')}: {escaped}"))
            elif after.phase != MOVE_THE_LABYRINTH:
                lines.append(
                    "No switch is possible with either Switch card, so "
                    f"{after.both_gems_text()}."
                )
        if after.phase == GAME_OVER and after.winner is None:
            lines.append(self._cap_words())
        return lines

    def _cap_words(self) -> str:
        return f"The turn cap of {plural(self.turn_cap, 'turn')} is reached: the game is a draw."

    def _switch_story(self, action: int, after: LabyrinthState) -> str:
        switch, index = divmod(action - SWITCH, len(PAIRS))
        one, other = PAIRS[index]
        board = self.board
        story = (
            f"The {CARD_NAMES[board[one]]} at {CELL_NAMES[one]} and the {CARD_NAMES[board[other]]} "
            f"at {CELL_NAMES[other]} trade places"
        )
        rides = []
        for start, to in ((one, other), (other, one)):
            riders = [
                cubs_text(self.cubs[seat][start], SEAT_COLOURS[seat])
                for seat in (0, 1)
                if self.cubs[seat][start]
            ]
            if riders:
                rides.append(f"{join(riders)} riding from {CELL_NAMES[start]} to {CELL_NAMES[to]}")
        if rides:
            story += f", with {join(rides)}"
        if board[one] == board[other]:
            return f"{story}; the cards are identical, so {after.both_gems_text()}."
        return f"{story}; {after.gem_text(switch)}."

    # ------------------------------------------------------------------ moments
    def moment(self, after: State) -> dict[str, Any] | None:
        """"cub_home" when a cub steps onto its own Tiger door (the game's only score), and
        "game_end", an escape or a draw at the turn cap."""
        found = []
        for before, _, actor, step in self.steps_to(after):
            assert isinstance(before, LabyrinthState) and isinstance(step, LabyrinthState)
            if actor == CHANCE or before.phase != MOVE_A_CUB:
                continue
            home = step.cubs[actor][GOAL_CELL[actor]]
            # The last cub home is the escape itself: the game's end tells it.
            if home > before.cubs[actor][GOAL_CELL[actor]] and step.winner is None:
                colour = SEAT_COLOURS[actor]
                found.append(
                    new_moment(
                        "cub_home",
                        f"{seat_word(actor)} brings a {colour} cub home",
                        [step._home_words(actor)],
                    )
                )
        if after.is_terminal() and not self.is_terminal():
            assert isinstance(after, LabyrinthState)
            homes = [after._home_words(seat) for seat in (0, 1)]
            if after.winner is None:
                found.append(
                    game_end_moment(after, title="The game ends in a draw",
                                    lines=[after._cap_words(), *homes])
                )
            else:
                colour = SEAT_COLOURS[after.winner]
                escaped = f"All five {colour} cubs have escaped."
                found.append(game_end_moment(after, lines=[escaped, *homes]))
        return combine_moments(found)

    def _home_words(self, seat: int) -> str:
        goal = GOAL_CELL[seat]
        return (
            f"{seat_word(seat)} has {self.cubs[seat][goal]} of {CUBS} {SEAT_COLOURS[seat]} cubs "
            f"on the {CARD_NAMES[self.board[goal]]} Door at {CELL_NAMES[goal]}."
        )

    # ------------------------------------------------------------------ views
    def _observe(self, player: int | None) -> dict[str, Any]:
        # Nothing is hidden: every seat and a spectator see the same table.
        grid = [
            [
                {
                    "cell": CELL_NAMES[cell],
                    "card": CARD_NAMES[self.board[cell]] if self.board[cell] != EMPTY else None,
                    "door": cell in DOOR_AT,
                    "cubs": {SEAT_COLOURS[seat]: self.cubs[seat][cell] for seat in (0, 1)},
                }
                for cell in range(row * SIZE, row * SIZE + SIZE)
            ]
            for row in range(SIZE)
        ]
        moved = None
        if self.last_step >= 0:
            start, to = STEPS[self.last_step]
            moved = {"from": CELL_NAMES[start], "to": CELL_NAMES[to]}
        return {
            "phase": self.phase,
            "seat_colours": list(SEAT_COLOURS),
            "start_doors": [CELL_NAMES[cell] for cell in START_CELL],
            "goal_doors": [CELL_NAMES[cell] for cell in GOAL_CELL],
            "grid": grid,
            "switches": {
                CARD_NAMES[BLUE_RED]: COLOUR_NAMES[self.gems[YELLOW]],
                CARD_NAMES[LADY_TIGER]: ROLE_NAMES[self.gems[WHITE]],
            },
            "turn": min(self.turns + 1, self.turn_cap),
            "turns_played": self.turns,
            "turn_cap": self.turn_cap,
            "cub_moved": moved,
            "winner": self.winner,
        }

    def _hidden_steps(self, player: int | None) -> set[int]:
        return set()  # the grid is face up; every step is public

    def resample(self, player: int | None, rng: random.Random) -> LabyrinthState:
        return self.clone()  # nothing is hidden: the only consistent state is this one

    # ------------------------------------------------------------------ copying
    def clone(self) -> LabyrinthState:
        twin = LabyrinthState(self.game, self)
        twin.turn_cap = self.turn_cap
        twin.board = self.board.copy()
        twin.placed = self.placed
        twin.left = self.left  # replaced, never changed in place
        twin.cells_of = self.cells_of
        twin.cubs = self.cubs
        twin.cub_cells = self.cub_cells
        twin.gems = self.gems
        twin.player = self.player
        twin.turns = self.turns
        twin.last_step = self.last_step
        twin.open_switches = self.open_switches  # replaced, never changed in place
        twin.winner = self.winner
        twin.phase = self.phase
        return twin

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self._history),
            tuple(self._actors),
            tuple(self.board),
            self.placed,
            tuple(self.left),
            tuple(self.cells_of),
            tuple(self.cubs[0]),
            tuple(self.cubs[1]),
            tuple(self.gems),
            self.player,
            self.turns,
            self.last_step,
            tuple(self.open_switches),
            self.winner,
            self.phase,
        )

    def conserved(self) -> dict[str, int]:
        """Quantities that never change in play (checked by the property tests)."""
        on_grid = [0] * len(IDENTITIES)
        for cell in DEAL_ORDER:
            if self.board[cell] != EMPTY:
                on_grid[self.board[cell]] += 1
        totals = {
            f"{CARD_NAMES[card]} Clue cards": on_grid[card] + self.left[card]
            for card in IDENTITIES
        }
        totals["Doors in their corners"] = sum(
            self.board[cell] == door for cell, door in DOOR_AT.items()
        )
        totals["red cubs"] = sum(self.cubs[0])
        totals["blue cubs"] = sum(self.cubs[1])
        totals["gems on Switch cards"] = len(self.gems)
        return totals

    def balance_facts(self) -> dict[str, int | float | str]:
        """For the balance lab: turns played, whether a cub escape or the turn cap ended the
        game, and how many cubs each side had home at the end."""
        scores = self.scores()
        return {
            "first_player": 0,  # red always starts
            # A winning step ends the game inside its turn, before the turn is counted.
            "length": self.turns + (self.winner is not None),
            "length_unit": "turns",
            "ending": "turn cap" if self.winner is None else "escape",
            "cubs home, most": max(scores),
            "cubs home, fewest": min(scores),
        }
