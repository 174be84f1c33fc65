"""Labyrinth, for players (the developer reference is docs/rules/labyrinth.md)."""

from __future__ import annotations

from typing import Any

# The twelve clue cards, placed face up in reading order around the four door corners.
CELLS = ["B1", "C1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3", "B4", "C4"]
CARDS = ["Blue Lady", "Red Tiger", "Red Lady", "Blue Tiger", "Red Lady", "Blue Tiger",
         "Red Tiger", "Blue Lady", "Red Tiger", "Red Lady", "Blue Tiger", "Blue Lady"]
GRID = [f"place {card} at {cell}" for card, cell in zip(CARDS, CELLS, strict=True)]
STEP = [*GRID, "move red cub from A1 to B1"]

GUIDE: dict[str, Any] = {
    "title": "Labyrinth",
    "facts": "2 players · about 20 minutes · red against blue",
    "intro": (
        "Lead your five tiger cubs across a 4-by-4 labyrinth of cards to the Tiger door of "
        "your colour. The labyrinth shifts every turn, carrying cubs, yours and your "
        "opponent's, with it."
    ),
    "minute": [
        "**Goal:** get all five of your cubs onto the Tiger door of your colour.",
        "Red starts on the Red Lady (top left) and heads for the Red Tiger (bottom right); "
        "blue goes from the Blue Lady to the Blue Tiger.",
        "On your turn, first **move one of your cubs** one card up, down, left or right.",
        "Then **switch two cards** of the colour or role a gem on the Switch cards shows; "
        "the cubs on them ride along.",
        "The first to bring all five cubs home wins at once.",
    ],
    "roles": {},
    "sections": [
        {
            "id": "setup",
            "title": "Setting up",
            "short": "Set-up",
            "steps": [
                "The two wild cards are the **Switch cards**: a yellow gem starts on Blue on "
                "the Blue/Red card, a white gem on Lady on the Lady/Tiger card.",
                "The four door cards take the corners: Red Lady top left, Blue Lady top "
                "right, Blue Tiger bottom left, Red Tiger bottom right. The other twelve "
                "clue cards fill the grid face up, at random.",
                "Red's five cubs start on the Red Lady, blue's five on the Blue Lady. The "
                "first player at the table plays red and moves first.",
            ],
            "scenes": [
                {
                    "id": "start",
                    "actions": GRID,
                    "seat": 0,
                    "caption": (
                        "The start, as red sees it. Your five cubs are on the Red Lady, top "
                        "left; your goal is the Red Tiger, bottom right. Columns are A to D "
                        "and rows 1 to 4, from the top."
                    ),
                },
            ],
            "moments": [
                {"phase": "setup", "say": "The labyrinth is being laid out."},
            ],
        },
        {
            "id": "cub",
            "title": "1. Move a cub",
            "body": (
                "Move one of your cubs to a card directly next to it: up, down, left or "
                "right, onto any card, doors included. You must move a cub every turn. Any "
                "number of cubs, of both colours, may share a card."
            ),
            "moments": [
                {"phase": "move a cub", "role": "to move",
                 "say": "Your turn: first move one of your cubs one card up, down, left or "
                        "right."},
                {"phase": "move a cub", "say": "The player to move moves one of their cubs."},
            ],
        },
        {
            "id": "switch",
            "title": "2. Move the labyrinth",
            "steps": [
                "Choose a Switch card. With **Blue/Red**, swap two clue cards of the colour "
                "under the yellow gem; with **Lady/Tiger**, two clue cards of the role under "
                "the white gem.",
                "The two cards must be in the same row or the same column (at any distance), "
                "and at least one must carry a cub, of either colour. Door cards never move.",
                "Every cub on the two cards rides along with its card.",
                "Then the gem on the Switch card you chose moves to the other colour or "
                "role. If the two cards were identical, both gems move.",
                "If no switch is possible with either Switch card, nothing is swapped and "
                "both gems move.",
            ],
            "scenes": [
                {
                    "id": "choose-switch",
                    "actions": STEP,
                    "seat": 0,
                    "caption": (
                        "You moved a cub onto the Blue Lady at B1. The yellow gem is on Blue "
                        "and the white gem on Lady, so you may swap two Blue cards or two "
                        "Lady cards in B1's row or column."
                    ),
                },
                {
                    "id": "switched",
                    "actions": [*STEP, "switch B1 B3 with Blue/Red"],
                    "seat": 0,
                    "caption": (
                        "You swapped B1 with B3: your cub rode down to B3. Both cards were "
                        "Blue Ladies, so both gems moved: the next player switches Red or "
                        "Tiger cards."
                    ),
                },
            ],
            "moments": [
                {"phase": "move the labyrinth", "role": "to move",
                 "say": "Now switch two cards of the colour or role the gems show, in one row "
                        "or column, at least one carrying a cub."},
                {"phase": "move the labyrinth",
                 "say": "The player to move switches two cards of the labyrinth."},
            ],
        },
        {
            "id": "end",
            "title": "Winning",
            "short": "The end",
            "body": (
                "The moment all five of your cubs stand on your Tiger door, you win; the "
                "turn stops there. A table may set a turn limit: if it is reached with "
                "nobody home, the game is a draw."
            ),
            "moments": [
                {"phase": "game over",
                 "say": "The game is over: the first to bring all five cubs home wins."},
            ],
        },
    ],
    "fine_points": [
        {"rule": "The corners are always Red Lady top left, Blue Lady top right, Blue Tiger "
                 "bottom left and Red Tiger bottom right.",
         "why": "the rulebook only asks for same colours in opposite corners; a fixed layout "
                "lets you learn your start and goal once."},
        {"rule": "The twelve clue cards are laid out at random; after that nothing is hidden.",
         "why": "the rulebook shuffles them into the grid face up."},
        {"rule": "The first player at the table is red and moves first.",
         "why": "\"the player who most recently asked for directions\" cannot be known by a "
                "website."},
        {"rule": "Your escape counts the moment your cub move brings the fifth cub home; no "
                 "switch follows.",
         "why": "the rulebook says \"as soon as\"; a switch could never finish an escape, "
                "since doors never move."},
        {"rule": "Switched cards must share a row or a column, at any distance, and one must "
                 "carry a cub.",
         "why": "the rulebook names no distance limit."},
        {"rule": "Swapping two identical cards moves both gems, whichever Switch card you "
                 "chose.",
         "why": "the rulebook's switching rules and its list of identical pairs."},
        {"rule": "You must switch when you can; when no switch exists with either card, both "
                 "gems move.",
         "why": "the rulebook says you must take both actions."},
        {"rule": "A table may set a turn limit, after which the game is a draw.",
         "why": "not in the rulebook: the labyrinth could shift forever."},
        {"rule": "Cards are named by column letter and row number, rows from the top: B2.",
         "why": "short, clear names for the cells."},
        {"rule": "The clue cards are placed one by one in reading order, each drawn at random "
                 "from those left.",
         "why": "the same as shuffling them: every card is face up at once."},
        {"rule": "When no switch is possible, both gems move by themselves and the turn "
                 "passes.",
         "why": "there is no choice to make."},
        {"rule": "Every player's turn counts toward a turn limit, and an escape on the very "
                 "last turn still wins.",
         "why": "the limit is checked when a turn ends."},
        {"rule": "A game that reaches the turn limit is a draw: nobody wins.",
         "why": "nobody escaped."},
        {"rule": "A player's score shows how many of their cubs are home.",
         "why": "the rulebook keeps no points; this shows progress."},
        {"rule": "The same pair of cards may be offered with both Switch cards; the move says "
                 "which card you chose.",
         "why": "each choice names the gem that moves."},
        {"rule": "Swapping two identical cards is allowed: the cubs ride and both gems move.",
         "why": "the rulebook's example lists such swaps."},
        {"rule": "Any of your cubs may move, even one already home, and a cub may step off "
                 "its Tiger door again.",
         "why": "the rulebook only asks that one of your cubs moves."},
        {"rule": "A switch names its two cards in reading order; trying to switch a door card "
                 "is refused with the rule.",
         "why": "so that you learn the rule rather than wonder why nothing happened."},
    ],
}
