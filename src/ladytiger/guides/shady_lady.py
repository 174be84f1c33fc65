"""Shady Lady, for players (the developer reference is docs/rules/shady_lady.md)."""

from __future__ import annotations

from typing import Any

THREE = {"players": 3}
# The rulebook's ladder, weakest first: 1-2-3, 7-8-9, 6-6-6. You hold the run 7-8-9.
LADDER_DEAL = [
    "deal 7 to seat 0", "deal 8 to seat 0", "deal 9 to seat 0",
    "deal 6 to seat 1", "deal 6 to seat 1", "deal 6 to seat 1",
    "deal 1 to seat 2", "deal 2 to seat 2", "deal 4 to seat 2",
]
PLAIN_DEAL = [
    "deal 7 to seat 0", "deal 8 to seat 0", "deal 2 to seat 0",
    "deal 6 to seat 1", "deal 6 to seat 1", "deal 3 to seat 1",
    "deal 1 to seat 2", "deal 2 to seat 2", "deal 4 to seat 2",
]

GUIDE: dict[str, Any] = {
    "title": "Shady Lady",
    "facts": "2 to 6 players · about 20 minutes · first to 3 points",
    "intro": (
        "Keep three cards in your hand and try to hold a combination. Show it off with "
        "**Try!**, or accuse someone else of holding one with **Jack!**"
    ),
    "minute": [
        "**Goal:** be the first to 3 points.",
        "You always hold three cards; a **combination** is a triple (6-6-6) or a run "
        "(7-8-9).",
        "On your turn: **draw** a card or **take** the top card of any discard pile, then "
        "discard one.",
        "Or call **Try!** with a combination: the best hand shown scores a point.",
        "Or call **Jack!** on a player: if their hand is a combination you score, if not "
        "they do.",
    ],
    "roles": {"Declarer": "try.declarer"},
    "sections": [
        {
            "id": "cards",
            "title": "The cards",
            "body": (
                "Eighty number cards: ten each of 1, 2, 3, 4, 6, 7, 8 and 9. There is **no "
                "5**. Each player also has a personal discard pile, face up, of which only "
                "the top card can be taken."
            ),
        },
        {
            "id": "setup",
            "title": "Setting up",
            "short": "Set-up",
            "steps": [
                "Shuffle the cards and deal three to each player, face down. The rest are "
                "the draw pile.",
                "The first player at the table starts; play goes round the table.",
            ],
            "moments": [
                {"phase": "deal", "say": "The cards are being dealt."},
                {"phase": "choose first player",
                 "say": "The first player is being drawn at random."},
                {"phase": "draw", "say": "A card is being drawn."},
            ],
        },
        {
            "id": "combinations",
            "title": "Combinations",
            "body": (
                "A combination is your whole hand of three cards:\n\n"
                "- a **triple**: three cards of one number, such as 6-6-6;\n"
                "- a **run**: three numbers in a row. Since there is no 5 and numbers do not "
                "wrap round, the only runs are 1-2-3, 2-3-4, 6-7-8 and 7-8-9.\n\n"
                "Any triple beats any run. Between two triples, or two runs, the higher "
                "numbers win. From weakest to strongest, for example: 1-2-3, 7-8-9, 6-6-6."
            ),
        },
        {
            "id": "turn",
            "title": "Your turn",
            "body": "Do exactly one of these four things:",
            "steps": [
                "**Draw** the top card of the draw pile, then discard one of your four cards "
                "face up onto your own pile.",
                "**Take** the top card of anyone's pile (your own included), then discard "
                "one card onto your own pile.",
                "**Try!**, if your hand is a combination (below).",
                "**Jack!**: name another player (below).",
            ],
            "scenes": [
                {
                    "id": "drawn",
                    "options": THREE,
                    "actions": [*PLAIN_DEAL, "draw", "seat 0 draws 9"],
                    "seat": 0,
                    "caption": (
                        "You held 7, 8 and 2 and drew a 9. Discard the 2 and your hand is "
                        "the run 7-8-9."
                    ),
                },
            ],
            "moments": [
                {"phase": "turn", "role": "to move",
                 "say": "Your turn: draw, take a top card from a pile, call Try! with a "
                        "combination, or call Jack! on someone."},
                {"phase": "turn",
                 "say": "The player to move draws, takes, calls Try! or calls Jack!"},
                {"phase": "discard", "role": "to move",
                 "say": "Discard one of your four cards onto your own pile."},
                {"phase": "discard", "say": "The player to move discards a card."},
            ],
        },
        {
            "id": "try",
            "title": "Try!",
            "steps": [
                "Show your hand: it must be a combination.",
                "Then each other player in turn, ending with the player on your right, may "
                "show their hand too, but only if it is a **stronger** combination than the "
                "best shown so far.",
                "The best combination shown scores **1 point**.",
                "Everyone who showed their hand puts those three cards on their own pile, "
                "one at a time in the order they choose (the last one stays on top), and "
                "draws three new cards.",
            ],
            "scenes": [
                {
                    "id": "rulebook-ladder",
                    "options": THREE,
                    "actions": [*LADDER_DEAL, "try", "reveal"],
                    "seat": 0,
                    "caption": (
                        "You called Try! with the run 7-8-9. Ben answered with the triple "
                        "6-6-6, which beats any run. Cleo's hand is no combination, and "
                        "even a 1-2-3 would be weaker, so she can only let it go: Ben "
                        "scores the point."
                    ),
                },
            ],
            "moments": [
                {"phase": "try", "role": "to move",
                 "say": "Answer the Try!: show your hand only if it is a stronger "
                        "combination, or let it go."},
                {"phase": "try", "role": "Declarer",
                 "say": "Your Try!: the others may each show a stronger combination."},
                {"phase": "try",
                 "say": "A Try!: each player may show a stronger combination."},
            ],
        },
        {
            "id": "jack",
            "title": "Jack!",
            "steps": [
                "Name another player: they must show their hand.",
                "If it is a combination, **you** score 1 point. If not, **they** score 1 "
                "point.",
                "Either way they put those three cards on their own pile in the order they "
                "choose, and draw three new cards.",
            ],
            "scenes": [
                {
                    "id": "jacked",
                    "options": THREE,
                    "actions": [*PLAIN_DEAL, "draw", "seat 0 draws 9", "discard 2",
                                "take 2 from seat 0", "discard 3", "jack seat 0"],
                    "seat": 0,
                    "caption": (
                        "You discarded the 2 and held 7-8-9; then Cleo called Jack! on you. "
                        "Your hand is a combination, so Cleo scores a point. Now put your "
                        "three cards on your pile in the order you like: the last one ends "
                        "on top, where anyone may take it."
                    ),
                },
            ],
            "moments": [
                {"phase": "discard hand", "role": "to move",
                 "say": "Put your shown cards on your pile one at a time, in the order you "
                        "choose: the last stays on top."},
                {"phase": "discard hand",
                 "say": "Shown hands go onto their owners' piles, then each draws three."},
            ],
        },
        {
            "id": "end",
            "title": "Running out, and the end",
            "short": "The end",
            "body": (
                "When a card must be drawn and the draw pile is empty, every personal pile "
                "keeps only its top card; the rest are shuffled into a new draw pile.\n\n"
                "The moment a player has **3 points**, that player wins."
            ),
            "moments": [
                {"phase": "game over",
                 "say": "The game is over: the first player to 3 points has won."},
            ],
        },
        {
            "id": "options",
            "title": "Players and options",
            "short": "Options",
            "body": (
                "Shady Lady is for 2 to 6 players. A table may draw the first player at "
                "random, and may set a **turn limit**: when that many turns have been played "
                "without a winner, the game is a draw."
            ),
        },
    ],
    "fine_points": [
        {"rule": "The deck is 80 cards, ten each of 1 to 4 and 6 to 9.",
         "why": "the rulebook's contents; the missing 5 is what shapes the runs."},
        {"rule": "A combination is your whole hand; the only runs are 1-2-3, 2-3-4, 6-7-8 and "
                 "7-8-9; any triple beats any run, and higher numbers win within a type.",
         "why": "hands are three cards, there is no 5, and the rulebook ranks triples "
                "above runs."},
        {"rule": "After a Try! the caller shows first; then each other player in turn, ending "
                 "with the player on the caller's right, may show a stronger combination.",
         "why": "the rulebook: others answer only with something stronger, and the Try! ends "
                "at the caller's right."},
        {"rule": "After a Try!, all the shown hands are put on their piles first (the "
                 "caller's, then the others' in turn order), and then everyone who showed "
                 "draws three, in the same order.",
         "why": "the rulebook says discard, then draw; the order only matters when the draw "
                "pile runs out during the new draws."},
        {"rule": "After a Jack!, the named player's hand is shown; a combination scores for "
                 "the caller, anything else for the named player, who then discards and "
                 "draws three.",
         "why": "the rulebook's Jack! rule."},
        {"rule": "The draw pile is rebuilt only when a card must be drawn from an empty pile, "
                 "even in the middle of someone's three new cards.",
         "why": "the rulebook ties the rebuild to running out."},
        {"rule": "Three points win at once, even in the middle of a Try! or Jack!: nobody "
                 "discards or draws after that.",
         "why": "the game ends as soon as a player has 3 points."},
        {"rule": "The first player at the table starts (a table may draw the first player at "
                 "random).",
         "why": "\"the person who most recently stole something\" cannot be known by a "
                "website."},
        {"rule": "A table may set a turn limit; a game that reaches it without a winner is a "
                 "draw, and the points stand.",
         "why": "not in the rulebook: nothing else forces the game to end."},
        {"rule": "Answering a Try! is never required, and an equal combination may not be "
                 "shown. Letting it go says nothing certain about your hand.",
         "why": "the rulebook says the others *may* answer, and only with a *stronger* "
                "combination."},
        {"rule": "Showing your hand is part of calling Try!, and the named player's showing "
                 "is part of Jack!: neither is a separate move.",
         "why": "neither is a choice: the caller shows, and the named player must show."},
        {"rule": "You may take a top card, even from your own pile, and discard it again.",
         "why": "the rulebook allows any pile and any discard; such a turn simply passes."},
        {"rule": "Jack! may name any other player, even one whose hand everyone already "
                 "knows.",
         "why": "the rulebook sets no limit."},
        {"rule": "Play goes down the players' list; the player on your right is the one "
                 "before you.",
         "why": "a website has no table to sit around."},
        {"rule": "The cards are dealt three to each player in turn.",
         "why": "nobody sees anyone else's cards, so the order changes nothing."},
        {"rule": "There is no limit on points handed out.",
         "why": "the box's 13 tokens always suffice: before anyone reaches 3, each player "
                "has at most 2."},
        {"rule": "Every hand is shown when the game ends.",
         "why": "with nothing left at stake, seeing the hands lets players check the result "
                "and learn."},
        {"rule": "Jack! is listed first among your moves, before drawing and taking.",
         "why": "a fixed order makes the moves easy to find."},
    ],
}
