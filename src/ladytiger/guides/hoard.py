"""Hoard, for players (the developer reference is docs/rules/hoard.md)."""

from __future__ import annotations

from typing import Any

DOORS = ("Red Lady", "Blue Lady", "Red Tiger", "Blue Tiger")


def board(*doors: str) -> list[str]:
    """The set-up's gems, door by door in reading order: "red white ..." for each door."""
    return [
        f"deal {gem} {'Treasure' if gem in ('red', 'blue') else 'Trash'} to {door}"
        for door, gems in zip(DOORS, doors, strict=True)
        for gem in gems.split()
    ]


# The rulebook's example position: the Red Tiger holds Trash, so it cannot be collected from.
EXAMPLE = board("red red red red white", "blue blue blue black black",
                "red white black blue blue", "white white white black black")
CLEAN = board("red red red white white", "blue blue white black black",
              "red red blue blue blue", "white white black black black")

GUIDE: dict[str, Any] = {
    "title": "Hoard",
    "facts": "1 player · about 10 minutes · four difficulties",
    "intro": (
        "A solo puzzle. Treasure and Trash gems lie on the four doors; each clue card you "
        "turn up lets you work on one door. Collect all ten Treasures before the third round "
        "ends."
    ),
    "minute": [
        "**Goal:** collect all 10 Treasures (red and blue gems) within three rounds.",
        "Each turn, turn up a clue card: it names one of the four doors.",
        "Then **move** a gem sideways between the two doors of that role, **remove** "
        "white-and-black Trash pairs from that door, or **collect** a Treasure of its colour.",
        "Treasure can only be collected from a door with no Trash on it.",
        "Wild cards put Trash back on the doors. Your score is the Trash you removed.",
    ],
    "roles": {},
    "sections": [
        {
            "id": "setup",
            "title": "Setting up",
            "short": "Set-up",
            "steps": [
                "The four door cards form a square: Ladies on top, Tigers below, Red on the "
                "left, Blue on the right.",
                "Twenty gems are shuffled and five are placed on each door: five red and five "
                "blue **Treasures**, five white and five black **Trash**.",
                "The fourteen clue cards are shuffled into the deck. On a harder difficulty "
                "some are first set aside for the whole game.",
            ],
            "moments": [
                {"phase": "place gems", "say": "The gems are being placed on the doors."},
                {"phase": "set aside clue cards",
                 "say": "Clue cards are being set aside for this difficulty."},
                {"phase": "reveal", "say": "The next clue card is turned up."},
            ],
        },
        {
            "id": "turn",
            "title": "A turn",
            "body": (
                "Turn up the top clue card. It names a door (the Red Tiger card names the "
                "Red Tiger door). Then take **one** of these actions:"
            ),
            "steps": [
                "**Move** one gem, Treasure or Trash, between the two doors of the card's "
                "**role**: for a Tiger card, between the Red Tiger and the Blue Tiger, either "
                "way. Gems never move up or down.",
                "**Remove** every pair of one white and one black Trash from the named door. "
                "Unpaired Trash stays.",
                "**Collect** one Treasure of the door's colour (red from a Red door, blue "
                "from a Blue door), only if the door holds no Trash at all.",
            ],
            "after": (
                "If any action is possible you must take one; if none is, the turn passes "
                "and the next card is turned up."
            ),
            "scenes": [
                {
                    "id": "rulebook-red-tiger",
                    "actions": [*EXAMPLE, "reveal Red Tiger"],
                    "seat": 0,
                    "caption": (
                        "The rulebook's example: you turned up the Red Tiger. You may move "
                        "a gem from the Red Tiger to the Blue Tiger or back, or remove the "
                        "white-and-black pair from the Red Tiger. You cannot collect its red "
                        "Treasure while Trash lies on it."
                    ),
                },
                {
                    "id": "collect",
                    "actions": [*CLEAN, "reveal Red Tiger"],
                    "seat": 0,
                    "caption": (
                        "Here the Red Tiger holds no Trash, so its red Treasures can be "
                        "collected, one per card."
                    ),
                },
            ],
            "moments": [
                {"phase": "action",
                 "say": "Use the card you turned up: move a gem between the two doors of its "
                        "role, remove Trash pairs from its door, or collect a Treasure of its "
                        "colour from a door without Trash. A wild puts Trash back."},
            ],
        },
        {
            "id": "wilds",
            "title": "The wild cards",
            "body": (
                "When you turn up a wild and you have removed Trash before, you must put one "
                "white and one black Trash back:\n\n"
                "- **Blue/Red**: one on each Red door, or one on each Blue door;\n"
                "- **Lady/Tiger**: one on each Lady door, or one on each Tiger door.\n\n"
                "You choose the pair of doors and which one gets the white. If you have "
                "removed no Trash yet, the wild instead swaps a black Trash on one door with "
                "a white Trash on another, any two doors; if no such swap exists, nothing "
                "happens."
            ),
            "scenes": [
                {
                    "id": "wild",
                    "actions": [*EXAMPLE, "reveal Red Tiger", "remove pairs from Red Tiger",
                                "reveal Blue/Red"],
                    "seat": 0,
                    "caption": (
                        "You removed the Red Tiger's pair, then turned up the Blue/Red: that "
                        "pair must go back, one gem on each Red door or one on each Blue "
                        "door."
                    ),
                },
            ],
        },
        {
            "id": "rounds",
            "title": "Rounds and the end",
            "short": "The end",
            "body": (
                "When the last card of the deck has been used, it goes under the next round "
                "marker and leaves the game; the other cards are shuffled into a new deck, so "
                "each round is one card shorter.\n\n"
                "Collect the tenth Treasure and you **win** at once: your score is the number "
                "of Trash gems you have removed (10 is perfect). When a card goes under the "
                "third marker first, you lose."
            ),
            "moments": [
                {"phase": "game over",
                 "say": "The game is over: all ten Treasures collected wins, scored by the "
                        "Trash removed."},
            ],
        },
        {
            "id": "difficulty",
            "title": "Difficulties",
            "body": (
                "| Difficulty | Clue cards set aside for the whole game |\n"
                "| --- | --- |\n"
                "| Easy | none |\n"
                "| Moderate | 1, face up |\n"
                "| Hard | 2, face up |\n"
                "| Impossible | 3, face down: you never see which |\n"
            ),
        },
    ],
    "fine_points": [
        {"rule": "The doors lie Red Lady top left, Blue Lady top right, Red Tiger bottom "
                 "left, Blue Tiger bottom right; the gems are placed at random, five a door.",
         "why": "the rulebook's layout."},
        {"rule": "Each card is drawn at random from those still in the deck.",
         "why": "the same as a shuffled deck."},
        {"rule": "Move takes the gem you choose; Remove is offered only when the door holds "
                 "at least one white-and-black pair, and takes them all; Collect needs a door "
                 "free of Trash.",
         "why": "the rulebook's three actions."},
        {"rule": "You must act when you can; when you cannot, the turn passes by itself.",
         "why": "the rulebook: \"you must take an action if possible\"."},
        {"rule": "A wild puts back one white and one black removed Trash on a colour's or a "
                 "role's two doors, you choosing where; with no removed Trash it swaps a black "
                 "and a white between any two doors, or does nothing.",
         "why": "the rulebook's wild rules."},
        {"rule": "The last card of each round goes under the next marker and leaves the game; "
                 "the third card under a marker ends the game.",
         "why": "the rulebook's round end."},
        {"rule": "The difficulties set aside 0, 1 or 2 cards face up, or 3 face down.",
         "why": "the rulebook's difficulty levels."},
        {"rule": "All ten Treasures win the moment the last is collected; the score is the "
                 "removed Trash at that moment, and a loss scores 0.",
         "why": "the rulebook's game end."},
        {"rule": "The rulebook's Red Tiger example is shown above.",
         "why": "it is checked against the game's own rules."},
        {"rule": "On Impossible, each card of the first round is drawn from all the cards you "
                 "have not seen, and once the first deck is used up you are told which three "
                 "were face down.",
         "why": "the same odds as real face-down cards; you could count them anyway."},
        {"rule": "Gems are placed door by door, each drawn from those left.",
         "why": "the same odds as shuffling all twenty."},
        {"rule": "Face-up set-aside cards are chosen after the gems are placed.",
         "why": "the order of the two set-up steps changes nothing."},
        {"rule": "The removed pile always holds as many white as black Trash.",
         "why": "Trash leaves and returns only in pairs."},
        {"rule": "A wild that can put Trash back must do so; the swap is only for when you "
                 "have removed none.",
         "why": "the rulebook says you \"must\" take the pair back."},
        {"rule": "A swap needs two different doors.",
         "why": "a swap on one door would change nothing."},
        {"rule": "A card that could do nothing has still been used: if it was the last of the "
                 "round, it goes under the marker.",
         "why": "the round ends after the last card is used."},
        {"rule": "The tenth Treasure wins even on the very last card of the third round.",
         "why": "the win is checked before the card goes under the marker."},
        {"rule": "Your score shows 0 until you win; beside the removed pile you see what you "
                 "would score if you won now.",
         "why": "the rulebook counts the removed Trash only for a win."},
        {"rule": "Trying to collect a Treasure of the wrong colour is refused with the colour "
                 "rule.",
         "why": "so that you learn the rule rather than wonder why nothing happened."},
        {"rule": "Anyone watching sees exactly what you see.",
         "why": "nothing in Hoard is secret."},
    ],
}
