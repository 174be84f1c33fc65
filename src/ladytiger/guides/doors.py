"""Doors, for players (the developer reference is docs/rules/doors.md)."""

from __future__ import annotations

from typing import Any

# The start of a contest used by several scenes: you are the Red Tiger and collect first.
DEAL = ["deal Red Tiger to seat 0", "deal Blue Lady to seat 1"]

GUIDE: dict[str, Any] = {
    "title": "Doors",
    "facts": "2 players · about 15 minutes · first to 10 gems",
    "intro": (
        "Each of you is secretly one of four doors: the **Red Lady**, the **Red Tiger**, the "
        "**Blue Lady** or the **Blue Tiger**. One player collects clue cards hoping to show "
        "off their door; the other discards and tries to name it."
    ),
    "minute": [
        "**Goal:** be the first to earn 10 gems.",
        "You are dealt a secret door; in each contest one of you is the **Collector**, the "
        "other the **Guesser**.",
        "**Collector:** take one of the four cards on display; four cards sharing your colour "
        "or your role win you 6 gems.",
        "**Guesser:** discard one card, and at any point guess the Collector's door: right "
        "pays you, wrong pays the Collector 4.",
        "A contest ends the moment somebody earns gems; then you swap roles and play again.",
    ],
    "roles": {"Collector": "collector", "Guesser": "guesser"},
    "sections": [
        {
            "id": "cards",
            "title": "The cards",
            "body": (
                "Every card has two **traits**: a colour (Red or Blue) and a role (Lady or "
                "Tiger).\n\n"
                "- Four **Door cards**, one of each kind. Each contest deals one to each "
                "player, face down: that is who you are until the contest ends.\n"
                "- Fourteen **Clue cards**: three each of Red Lady, Red Tiger, Blue Lady and "
                "Blue Tiger, and two wilds. **Blue/Red** counts as either colour but has no "
                "role. **Lady/Tiger** counts as either role but has no colour.\n"
                "- **Gems** are the score."
            ),
        },
        {
            "id": "setup",
            "title": "Setting up a contest",
            "short": "Set-up",
            "steps": [
                "Each player is dealt a Door card face down and looks at it. The other two "
                "doors stay out of the contest, unseen.",
                "The Clue cards are shuffled into a deck and four are turned face up: the "
                "**display**.",
                "In the first contest the first player at the table is the Collector; after "
                "that the roles swap every contest.",
            ],
            "scenes": [
                {
                    "id": "start",
                    "actions": [*DEAL, "reveal Red Lady", "reveal Blue Tiger",
                                "reveal Blue/Red", "reveal Red Tiger"],
                    "seat": 0,
                    "caption": (
                        "A new contest as the Collector sees it. Your door, the Red Tiger, is "
                        "face up for you alone; your opponent's is hidden. Four clue cards lie "
                        "on display and ten wait in the deck."
                    ),
                },
            ],
            "moments": [
                {"phase": "deal identities", "say": "A contest begins: the doors are dealt."},
                {"phase": "choose first collector",
                 "say": "The first Collector is being drawn at random."},
                {"phase": "refill display", "say": "The display is being refilled."},
            ],
        },
        {
            "id": "sets",
            "title": "Sets",
            "body": (
                "A **set** is four of the Collector's cards that all share **one** trait with "
                "a door: four Red cards, four Blue, four Ladies or four Tigers. The cards may "
                "mix kinds, and wilds count for the trait they carry.\n\n"
                "- A set on one of the **Collector's own** traits must be shown at once: the "
                "Collector earns **6 gems**.\n"
                "- A set on one of the **Guesser's own** traits may be claimed by the Guesser "
                "on their turn: **2 gems**."
            ),
            "scenes": [
                {
                    "id": "red-set",
                    "options": {"gems_to_win": 6},
                    "actions": [
                        "deal Red Lady to seat 0", "deal Blue Tiger to seat 1",
                        "reveal Red Lady", "reveal Blue/Red", "reveal Blue Lady",
                        "reveal Red Lady",
                        "take Red Lady", "reveal Red Tiger", "discard Blue Lady",
                        "reveal Blue Tiger", "end turn",
                        "take Blue/Red", "reveal Lady/Tiger", "discard Lady/Tiger",
                        "reveal Blue Lady", "end turn",
                        "take Red Lady", "reveal Red Tiger", "discard Blue Tiger",
                        "reveal Blue Tiger", "end turn",
                        "take Red Tiger",
                    ],
                    "seat": 0,
                    "focus": [".dr-collected", ".dr-result"],
                    "caption": (
                        "The rulebook's example: you are the Red Lady and hold two Red "
                        "Ladies, the Blue/Red wild and a Red Tiger. All four are Red, your "
                        "colour, so you show your door and earn 6 gems."
                    ),
                },
                {
                    "id": "tiger-set",
                    "options": {"gems_to_win": 6},
                    "actions": [
                        *DEAL, "reveal Blue Tiger", "reveal Blue Tiger", "reveal Lady/Tiger",
                        "reveal Red Lady",
                        "take Blue Tiger", "reveal Blue Tiger", "discard Red Lady",
                        "reveal Blue Lady", "end turn",
                        "take Blue Tiger", "reveal Red Lady", "discard Red Lady",
                        "reveal Red Tiger", "end turn",
                        "take Lady/Tiger", "reveal Blue/Red", "discard Blue/Red",
                        "reveal Red Lady", "end turn",
                        "take Blue Tiger",
                    ],
                    "seat": 0,
                    "focus": [".dr-collected", ".dr-result"],
                    "caption": (
                        "From the rulebook's table: you are the Red Tiger. Three Blue Tigers "
                        "and the Lady/Tiger wild are four Tigers, your role: 6 gems, even "
                        "though none of them is Red."
                    ),
                },
                {
                    "id": "guesser-set",
                    "actions": [
                        *DEAL, "reveal Blue Lady", "reveal Red Lady", "reveal Blue Lady",
                        "reveal Red Tiger",
                        "take Blue Lady", "reveal Blue Lady", "discard Red Tiger",
                        "reveal Red Tiger", "end turn",
                        "take Red Lady", "reveal Blue Tiger", "discard Red Tiger",
                        "reveal Lady/Tiger", "end turn",
                        "take Blue Lady", "reveal Red Lady", "discard Lady/Tiger",
                        "reveal Blue/Red", "end turn",
                        "take Blue Lady", "reveal Blue Tiger",
                    ],
                    "seat": 1,
                    "focus": [".dr-collected", ".dr-traits", ".dr-turn-buttons"],
                    "caption": (
                        "The Collector, the Red Tiger, has taken three Blue Ladies and a Red "
                        "Lady: four Ladies, which is no set for a Red Tiger. You are the Blue "
                        "Lady and Lady is your role, so on your turn you may claim the set "
                        "for 2 gems."
                    ),
                },
            ],
        },
        {
            "id": "collector",
            "title": "The Collector's turn",
            "steps": [
                "Take any one card from the display. It does not have to match your door: "
                "taking other cards is how you keep the Guesser guessing.",
                "The display is refilled from the deck.",
                "If your cards now hold a set on your colour or your role, you must show "
                "your door: you earn 6 gems and the contest ends.",
            ],
            "moments": [
                {"phase": "collect", "role": "Collector",
                 "say": "Your turn as Collector: take one card from the display."},
                {"phase": "collect", "role": "Guesser",
                 "say": "The Collector is taking a card. Watch which cards they want."},
                {"phase": "collect", "say": "The Collector takes a card from the display."},
            ],
        },
        {
            "id": "guesser",
            "title": "The Guesser's turn",
            "steps": [
                "Discard any one card from the display, face up. The display is refilled. "
                "Discards stay in view for both players.",
                "Before **or** after your discard you may make one declaration, which ends "
                "the contest: guess a colour, guess a role, guess the whole door, or claim a "
                "set that matches your own door.",
                "If you make no declaration, end your turn after discarding.",
                "If the deck is empty when your turn ends, you earn 3 gems and the contest "
                "ends.",
            ],
            "scenes": [
                {
                    "id": "guessing",
                    "actions": [*DEAL, "reveal Red Lady", "reveal Blue Tiger",
                                "reveal Blue/Red", "reveal Red Tiger",
                                "take Red Tiger", "reveal Blue Lady"],
                    "seat": 1,
                    "caption": (
                        "The Guesser's turn. Your opponent took the Red Tiger: a hint, or a "
                        "bluff? Discard a card by clicking it, and use the buttons to guess "
                        "a colour, a role or the whole door."
                    ),
                },
            ],
            "moments": [
                {"phase": "discard", "role": "Guesser",
                 "say": "Your turn as Guesser: discard one card; you may guess before or "
                        "after."},
                {"phase": "declare", "role": "Guesser",
                 "say": "You have discarded: guess or claim a set now, or end your turn."},
                {"phase": "discard", "role": "Collector",
                 "say": "The Guesser is discarding and may guess your door at any moment."},
                {"phase": "declare", "role": "Collector",
                 "say": "The Guesser has discarded and may still guess, or end the turn."},
                {"phase": "discard", "say": "The Guesser discards a card and may guess."},
                {"phase": "declare", "say": "The Guesser may guess now, or end the turn."},
            ],
        },
        {
            "id": "scoring",
            "title": "Scoring",
            "body": (
                "| Who | How | Gems |\n"
                "| --- | --- | ---: |\n"
                "| Collector | shows a set on their own colour or role | 6 |\n"
                "| Collector | the Guesser guesses wrong (any part) | 4 |\n"
                "| Guesser | guesses the whole door right | 5 |\n"
                "| Guesser | the deck runs out | 3 |\n"
                "| Guesser | claims a set on their own colour or role | 2 |\n"
                "| Guesser | guesses the colour or the role right | 1 |\n"
            ),
            "after": (
                "A guess of the whole door must be right in both parts: the Red Tiger "
                "guessed as the Red Lady pays the Collector 4."
            ),
            "scenes": [
                {
                    "id": "wrong-guess",
                    "actions": [*DEAL, "reveal Red Lady", "reveal Blue Tiger",
                                "reveal Blue/Red", "reveal Red Tiger",
                                "take Red Tiger", "reveal Blue Lady",
                                "guess Red Lady",
                                "deal Blue Tiger to seat 0", "deal Red Lady to seat 1",
                                "reveal Lady/Tiger", "reveal Blue Lady", "reveal Red Tiger",
                                "reveal Red Lady"],
                    "seat": 0,
                    "focus": [".dr-result", ".dr-seat"],
                    "caption": (
                        "Your opponent guessed that you were the Red Lady. You were the Red "
                        "Tiger, so you earn 4 gems. A new contest begins with new doors, and "
                        "now you are the Guesser."
                    ),
                },
            ],
        },
        {
            "id": "end",
            "title": "The end of a contest and of the game",
            "body": (
                "As soon as anyone earns gems the contest ends: both doors are shown, all "
                "cards are shuffled, new doors are dealt and the players swap roles.\n\n"
                "The game ends when a contest leaves a player with **10 gems** or more; that "
                "player wins."
            ),
            "moments": [
                {"phase": "game over",
                 "say": "The game is over: the first player to reach the target wins."},
            ],
        },
        {
            "id": "options",
            "title": "Players and options",
            "short": "Options",
            "body": (
                "Doors is for exactly two players. A table may be created with:\n\n"
                "- **Gems to win**: 10 as in the rulebook; fewer makes a quicker game for "
                "learning.\n"
                "- **A random first Collector** instead of the first player at the table."
            ),
        },
    ],
    "fine_points": [
        {
            "rule": "The fourteen Clue cards are three each of Red Lady, Red Tiger, Blue Lady "
                    "and Blue Tiger, plus the two wilds.",
            "why": "the rulebook counts the cards without naming them all; published reviews "
                   "and an earlier digital edition agree on this split.",
        },
        {
            "rule": "A set is any four of the Collector's cards sharing one trait with the "
                    "door in question: the cards may be of different kinds, wilds included.",
            "why": "the rulebook's own example mixes two Red Ladies, the Blue/Red and a Red "
                   "Tiger into one Red set.",
        },
        {
            "rule": "The Collector cannot hold back a set: the moment their cards hold one on "
                    "their own traits, the door is shown, before the display is refilled.",
            "why": "the rulebook says the Collector *must* reveal; waiting would gain "
                   "nothing the rules allow.",
        },
        {
            "rule": "The Guesser makes at most one declaration a turn, before or after the "
                    "discard, and every declaration ends the contest.",
            "why": "a declaration always earns somebody gems, and a contest ends as soon as "
                   "anyone earns gems.",
        },
        {
            "rule": "The **Claim set** button works only when the Collector really holds a "
                    "set on one of your traits.",
            "why": "the rulebook gives no penalty for a false claim, so we cannot let one "
                   "happen.",
        },
        {
            "rule": "If the deck is empty when the Guesser's turn ends, the Guesser earns 3 "
                    "gems. The ten cards of the deck last exactly five rounds of turns, so "
                    "the display is always full.",
            "why": "this is the rulebook's deck-out rule, placed at the end of the "
                   "Guesser's turn as its turn summary shows.",
        },
        {
            "rule": "The first player at the table collects first (a table may draw the first "
                    "Collector at random instead); after that the roles swap every contest.",
            "why": "the rulebook picks \"the player who last opened a door\", which a "
                   "website cannot know.",
        },
        {
            "rule": "After discarding, a Guesser who does not want to declare presses **End "
                    "turn**.",
            "why": "a declaration after the discard is allowed but not required, so there "
                   "must be a way to say no.",
        },
        {
            "rule": "The rulebook's table shows a Red Tiger with \"4 blue tigers\". Only three "
                    "Blue Tigers exist, so we read it as four Tiger cards: three Blue Tigers "
                    "and the Lady/Tiger wild (shown above).",
            "why": "the hand as printed cannot occur.",
        },
        {
            "rule": "Gems never run short: the box's 20 gems are not a limit here.",
            "why": "a close game can end with both players together past 20 gems.",
        },
        {
            "rule": "Cards on the table are listed in a fixed order, not in the order they "
                    "were taken.",
            "why": "the piles stay easy to read; the game log tells what happened when.",
        },
        {
            "rule": "The number of gems that ends the game can be lowered when a table is "
                    "made.",
            "why": "short games help when learning; the rulebook's game is to 10.",
        },
    ],
}
