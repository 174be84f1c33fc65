"""Traps, for players (the developer reference is docs/rules/traps.md)."""

from __future__ import annotations

from typing import Any

# The rulebook's worked example: four players A, B, C and D (Ana, Ben, Cleo and Dev here; you
# are A). Three short seasons bring B to 4 gems and C and D to 3; the fourth is the example.
HANDS = [
    ["Blue/Red", "Red Tiger", "Blue Lady"],
    ["Red Lady", "Blue Tiger", "Lady/Tiger"],
    ["Red Tiger", "Red Lady", "Blue Tiger"],
    ["Red Tiger", "Red Lady", "Blue Tiger"],
]
DEAL = [f"deal {card} to seat {seat}" for seat, cards in enumerate(HANDS) for card in cards]
EARLIER_SEASONS = [
    "goal Blue Tiger",
    "start stack with Red Tiger", "start stack with Red Lady", "start stack with Red Lady",
    "start stack with Red Lady",
    "bid 5", "pass", "pass", "pass", "reveal seat 1", "reveal seat 2", "reveal seat 3",
    "goal Red Lady",
    "start stack with Blue Tiger", "start stack with Blue Tiger", "start stack with Blue Tiger",
    "start stack with Red Tiger",
    "bid 1", "pass", "pass", "bid 2", "pass", "reveal seat 1", "reveal seat 2",
    "reveal seat 3",
    "goal Red Tiger",
    "start stack with Lady/Tiger", "start stack with Red Lady", "start stack with Red Lady",
    "start stack with Red Tiger",
    "bid 1", "pass", "pass", "bid 2", "pass", "reveal seat 1", "reveal seat 0",
]
# Season four against the Blue Lady: B starts, everyone builds, A bids 5 and the rest pass.
BUILT = [
    *DEAL, *EARLIER_SEASONS, "goal Blue Lady",
    "start stack with Red Lady", "start stack with Red Lady", "start stack with Red Lady",
    "start stack with Blue/Red",
    "build Lady/Tiger", "build Red Tiger", "build Red Tiger",
]
BID = [*BUILT, "bid 5", "pass", "pass", "pass"]
REVEALED = [*BID, "reveal seat 0", "reveal seat 3", "reveal seat 2", "reveal seat 3"]
FOCUS = [".tp-seat", ".tp-goal", ".tp-phase"]

GUIDE: dict[str, Any] = {
    "title": "Traps",
    "facts": "2 to 6 players · about 30 minutes · first to 5 gems",
    "intro": (
        "Everyone builds a small face-down stack of clue cards. Then you bid on how many "
        "traits matching the season's goal door you can turn up from **all** the stacks. "
        "Cards that match nothing are traps, and a trap pays the player who laid it."
    ),
    "minute": [
        "**Goal:** be the first to hold 5 gems.",
        "Each season a goal door is turned up and 3 gems go into the pot.",
        "On your turn, **build** (add a card face down to your stack) or **bid** a number "
        "of matching traits; once anyone bids, it is bid higher or pass.",
        "The last bidder left turns up cards one by one from the top of any stacks: reach "
        "the bid and take the pot.",
        "Each trap turned up gives a gem to the player whose stack it came from.",
    ],
    "roles": {"Revealer": "revealer", "Starting player": "starting_player"},
    "sections": [
        {
            "id": "cards",
            "title": "The cards and the gems",
            "body": (
                "Every card has a colour (Red or Blue) and a role (Lady or Tiger).\n\n"
                "- The fourteen **clue cards**: three each of Red Lady, Red Tiger, Blue Lady "
                "and Blue Tiger, and two wilds, **Blue/Red** and **Lady/Tiger**. They are "
                "dealt out as hands.\n"
                "- The four **door cards** are shuffled into a deck: each season turns up the "
                "next one as the **goal**.\n"
                "- 25 **gems**. Everyone's gems are public. Gems nobody holds are in the "
                "**pot** (the prize) or the **treasury** (the bank)."
            ),
        },
        {
            "id": "setup",
            "title": "Setting up",
            "short": "Set-up",
            "steps": [
                "Shuffle the clue cards and put two aside unseen (four with five players).",
                "Deal the rest: 6 cards each with 2 players, 4 with 3, 3 with 4, and 2 with "
                "5 or 6. Look at your hand and keep it secret.",
                "Everyone starts with 1 gem; the rest form the treasury.",
                "You keep the same hand for a **year** of four seasons; after every season "
                "the cards come back to their owners.",
            ],
            "moments": [
                {"phase": "deal", "say": "A new year: the hands are being dealt."},
                {"phase": "goal card", "say": "A new season: the goal door is turned up."},
            ],
        },
        {
            "id": "season",
            "title": "A season",
            "steps": [
                "3 gems go from the treasury into the pot, and the next door card is turned "
                "up: the **goal**.",
                "Everyone puts one card from their hand face down in front of them: the start "
                "of their **stack**. Nobody sees anyone else's choice.",
                "In turn, from the starting player, each player **builds** (puts one more "
                "card from hand face down on top of their stack) or **bids**: a number from 1 "
                "to 13, the matching traits they say they can turn up from all the stacks. A "
                "player with no cards left in hand must bid.",
                "Once someone has bid, nobody builds any more: each player in turn bids "
                "higher or passes. A pass is for the rest of the season.",
                "When only one bidder is left, that player is the **revealer**.",
            ],
            "scenes": [
                {
                    "id": "building",
                    "options": {"players": 4},
                    "actions": BUILT,
                    "seat": 0,
                    "caption": (
                        "The start of the rulebook's example, from player A's seat (yours). "
                        "The goal is the Blue Lady; everyone has started a stack and the "
                        "others have built on theirs. Your turn: build again, or bid."
                    ),
                },
            ],
            "moments": [
                {"phase": "start stacks", "role": "to move",
                 "say": "Choose a card from your hand to start your stack, face down."},
                {"phase": "start stacks",
                 "say": "Everyone is starting a stack with one hidden card."},
                {"phase": "build or bid", "role": "to move",
                 "say": "Your turn: build (one more card on your stack) or bid how many "
                        "matching traits you can turn up."},
                {"phase": "build or bid",
                 "say": "Each player in turn builds on their stack or makes the first bid."},
                {"phase": "bidding", "role": "to move",
                 "say": "Bid higher than the current bid, or pass for the rest of the "
                        "season."},
                {"phase": "bidding", "say": "Bidding: each player bids higher or passes."},
            ],
        },
        {
            "id": "matching",
            "title": "What matches the goal",
            "body": (
                "Each card turned up is compared with the goal door. For a **Red Tiger** "
                "goal:\n\n"
                "| Card | Matching traits |\n"
                "| --- | ---: |\n"
                "| Red Tiger (the goal itself) | 2 |\n"
                "| Red Lady (same colour) | 1 |\n"
                "| Blue Tiger (same role) | 1 |\n"
                "| Blue/Red wild | 1 |\n"
                "| Blue Lady (nothing in common) | trap |\n"
                "| Lady/Tiger wild | always a trap |\n"
            ),
        },
        {
            "id": "revealing",
            "title": "Revealing",
            "steps": [
                "The revealer turns up the top card of any stack, their own or anyone "
                "else's, one card at a time, and may change stacks whenever they like.",
                "Each match counts toward the bid. Reach the bid and you take the **whole "
                "pot**: the season ends.",
                "A **trap** from someone else's stack: that player takes a gem from the pot, "
                "even if it is their fifth and wins them the game.",
                "A trap from **your own** stack: you choose an opponent with 3 gems or fewer "
                "to take a gem from the pot. If every opponent already has 4, the gem goes "
                "back to the treasury, you pay 2 of your own gems, and the season ends.",
                "You may stop instead of turning up more cards by giving 1 of your gems to an "
                "opponent who has 3 or fewer.",
                "The season also ends when the pot is empty or there is nothing left to turn "
                "up.",
            ],
            "scenes": [
                {
                    "id": "rulebook-reveal",
                    "options": {"players": 4},
                    "actions": REVEALED,
                    "seat": 0,
                    "focus": FOCUS,
                    "caption": (
                        "The rulebook's example. You (A) bid 5 and the others passed. You "
                        "turned up your own Blue/Red (1 trait), then Red Tigers from Dev's "
                        "and Cleo's stacks: traps, so each of them took a gem. Then Dev's Red "
                        "Lady: 2 traits so far. Everyone else now holds 4 gems, so nobody "
                        "can take a gem for stopping: you must keep going."
                    ),
                },
                {
                    "id": "rulebook-end",
                    "options": {"players": 4},
                    "actions": [*REVEALED, "reveal seat 1"],
                    "seat": 0,
                    "focus": FOCUS,
                    "caption": (
                        "One way the example ends: the next card, from Ben's stack, is the "
                        "Lady/Tiger, always a trap. Ben takes a gem from the pot: his fifth, "
                        "and he wins."
                    ),
                },
            ],
            "moments": [
                {"phase": "revealing", "role": "Revealer",
                 "say": "You are the revealer: turn up cards from the top of any stacks "
                        "until you reach your bid, or stop by giving away a gem."},
                {"phase": "revealing",
                 "say": "The revealer is turning up cards; a trap from your stack pays you "
                        "a gem."},
                {"phase": "trap gem", "role": "Revealer",
                 "say": "You turned up a trap from your own stack: choose an opponent with 3 "
                        "gems or fewer to take a gem from the pot."},
                {"phase": "trap gem",
                 "say": "The revealer hit their own trap and chooses who takes the gem."},
            ],
        },
        {
            "id": "next",
            "title": "Between seasons, and the end",
            "short": "The end",
            "body": (
                "After a season the pot's gems go back to the treasury and everyone takes "
                "back their stack and the cards turned up from it. The player to the left of "
                "the season's highest bidder starts the next one. When the door deck is "
                "empty at the start of a season, a new year begins: the doors are shuffled, "
                "and the clue cards are set aside and dealt again.\n\n"
                "The first player to hold **5 gems** wins at once."
            ),
            "moments": [
                {"phase": "game over",
                 "say": "The game is over: the first player to 5 gems has won."},
            ],
        },
        {
            "id": "options",
            "title": "Players and options",
            "short": "Options",
            "body": (
                "Traps is for 2 to 6 players. A table may set a **season limit**: if that "
                "many seasons end without a winner, the game is a draw and nobody wins. "
                "Without one, the game runs until someone has 5 gems."
            ),
        },
    ],
    "fine_points": [
        {"rule": "Two clue cards are set aside unseen (four with five players); hands are "
                 "6, 4, 3, 2 or 2 cards with 2 to 6 players; everyone starts with 1 gem.",
         "why": "this is the rulebook's set-up; with the cards set aside, all fourteen "
                "cards are always used."},
        {"rule": "Each season the pot is filled up to 3 gems from the treasury, or with "
                 "what the treasury has left.",
         "why": "the pot goes back to the treasury after each season, so gems are never "
                "made or lost; only a six-player game can run the treasury that low."},
        {"rule": "Stacks are started one player after another, from the starting player, and "
                 "nobody learns what anyone else put down.",
         "why": "the rulebook has everyone choose at once; choosing in turn in secret keeps "
                "the choices just as hidden."},
        {"rule": "Bids run from 1 to 13 and must beat the current bid; once anyone has bid "
                 "nobody builds; a pass lasts the rest of the season; a player with an empty "
                 "hand must bid.",
         "why": "the rulebook's build and bid rules."},
        {"rule": "The goal door itself matches 2 traits, a card sharing one trait matches 1, "
                 "Blue/Red matches 1, and the Lady/Tiger and every card sharing nothing are "
                 "traps.",
         "why": "the rulebook's table and its rules for the wilds."},
        {"rule": "A trap from someone else's stack pays that player, even a fifth, winning "
                 "gem. A trap from your own stack pays an opponent of your choice who has 3 "
                 "gems or fewer.",
         "why": "the rulebook: your opponents cannot win from your own traps."},
        {"rule": "The season ends when the bid is reached (the revealer takes the whole pot), "
                 "when no card is left to turn up, when the pot is empty, or when the revealer "
                 "stops by giving away a gem.",
         "why": "the rulebook's season end."},
        {"rule": "The next season is started by the player to the left of the highest "
                 "bidder; a new year begins when the door deck is empty.",
         "why": "the rulebook's season end and new year."},
        {"rule": "Five gems win at once, even in the middle of a season. The 25 gems are "
                 "always all in play: in hands, in the pot or in the treasury.",
         "why": "the rulebook's game end; nothing is ever added or thrown away."},
        {"rule": "You may look at the cards in your own stack at any time.",
         "why": "you put them there; the rulebook's \"do not look\" would only test your "
                "memory."},
        {"rule": "A table may set a season limit; a game that reaches it without a winner is "
                 "a draw.",
         "why": "not in the rulebook: it makes sure every game ends."},
        {"rule": "The rulebook's example does not name its goal, but its matches and traps "
                 "only fit the Blue Lady, so the example above uses the Blue Lady.",
         "why": "Red Tigers are traps and the Blue/Red and Red Lady match once each only "
                "against the Blue Lady."},
        {"rule": "The first player at the table starts the first season.",
         "why": "\"the player who most recently caught something\" cannot be known by a "
                "website."},
        {"rule": "Play goes clockwise, which here means in the order of the players' list: "
                 "\"to your left\" is the next player in the list.",
         "why": "a website has no table to sit around."},
        {"rule": "Hands are dealt one card at a time, and the set-aside cards are simply "
                 "the ones nobody was dealt: nobody ever sees them.",
         "why": "the same deal as shuffling and dealing by hand."},
        {"rule": "The revealer may stop at any time while revealing, even before the first "
                 "card, if they have a gem and some opponent has 3 or fewer; but not while "
                 "choosing who takes the gem for their own trap.",
         "why": "the rulebook puts no other condition on stopping."},
        {"rule": "Choosing who takes the gem for your own trap is always your move, even "
                 "when only one opponent can take it.",
         "why": "the rulebook lets you choose, and the choice is shown so every gem can be "
                "followed."},
        {"rule": "After a card is turned up: reaching the bid ends the season first; after a "
                 "trap, a fifth gem wins, then an empty pot ends the season; otherwise the "
                 "season ends when nothing is left to turn up. Reaching the bid can take you "
                 "past 5 gems.",
         "why": "one order for everything that can happen at once."},
        {"rule": "The 2 gems paid for your own trap go into the pot, and return with it to "
                 "the treasury as the season ends.",
         "why": "the season ends at once, and the pot always goes back to the treasury."},
        {"rule": "After a bid of 13 the others can only pass, and they still do so in turn.",
         "why": "no higher bid exists; every pass is shown in the log."},
        {"rule": "Nothing more is shown at the end of the game: hands, set-aside cards and "
                 "unturned stack cards stay secret.",
         "why": "as in the rulebook."},
        {"rule": "Computer players know only what their own seat knows: your hand and the "
                 "cards in your stack stay hidden from them.",
         "why": "they guess what the others might hold from the cards shown so far, the "
                "same way you do."},
    ],
}
