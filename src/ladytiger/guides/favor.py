"""Favor, for players (the developer reference is docs/rules/favor.md)."""

from __future__ import annotations

from typing import Any

# The rulebook's auction: A (you) calls, B bids 3, C bids 4 and A bids 5.
AUCTION = [
    "deal Red Tiger to seat 0", "deal Blue Lady to seat 1", "deal Red Lady to seat 2",
    "reveal Blue Tiger", "add to lot", "reveal Red Tiger", "add to lot", "reveal Blue Lady",
    "add to lot", "reveal Red Tiger",
    "call auction", "bid 3", "bid 4",
]

# The rulebook's Red Tiger day, played out with two players: you win one big lot for a gem,
# the rest is discarded, and your opponent ends the day with more gems.
RED_TIGER_DAY = [
    "deal Red Tiger to seat 0", "deal Blue Lady to seat 1", "reveal Red Tiger",
    "add to lot", "reveal Red Tiger", "add to lot", "reveal Red Lady",
    "add to lot", "reveal Blue Tiger", "add to lot", "reveal Blue Lady",
    "add to lot", "reveal Blue Lady", "add to lot", "reveal Blue/Red",
    "call auction", "pass", "bid 1", "reveal Red Tiger",
    "call auction", "pass", "pass", "reveal Red Lady",
    "add to lot", "reveal Red Lady", "add to lot", "reveal Blue Tiger",
    "add to lot", "reveal Blue Tiger", "add to lot", "reveal Blue Lady",
    "add to lot", "reveal Lady/Tiger",
    "pass", "pass",
    "deal Blue Tiger to seat 0", "deal Red Lady to seat 1", "reveal Red Lady",
    "reveal Blue Tiger",
]

GUIDE: dict[str, Any] = {
    "title": "Favor",
    "facts": "2 to 4 players · about 30 minutes · three days",
    "intro": (
        "For three days you bid gems on growing lots of clue cards. Each day you are secretly "
        "one of the four doors, and the cards that match your door score at the end of the "
        "day."
    ),
    "minute": [
        "**Goal:** the most points after three days.",
        "Each day you get a secret door and 5 gems to bid with.",
        "On your turn, **add** the top card of the deck to the lot, or **call an auction** "
        "on it: everyone bids once, you last.",
        "The highest bidder takes the whole lot and pays the caller (a caller who wins pays "
        "the others).",
        "At day's end: 3 points for each card matching your door, 1 for half a match, -2 for "
        "none, and 3 for the most gems.",
    ],
    "roles": {"Caller": "auction.caller"},
    "sections": [
        {
            "id": "cards",
            "title": "The cards and the gems",
            "body": (
                "Every card has a colour (Red or Blue) and a role (Lady or Tiger).\n\n"
                "- The four **door cards**: each day deals one to every player, face down. "
                "Left-over doors stay hidden all day.\n"
                "- The fourteen **clue cards**: three each of Red Lady, Red Tiger, Blue Lady "
                "and Blue Tiger, and the wilds **Blue/Red** and **Lady/Tiger**.\n"
                "- **Gems** are only for bidding: everyone starts each day with 5. **Points** "
                "are the score, and add up over the three days."
            ),
        },
        {
            "id": "setup",
            "title": "Setting up a day",
            "short": "Set-up",
            "steps": [
                "Everyone is dealt a door card face down: your identity for the day.",
                "Everyone takes 5 gems.",
                "The clue cards are shuffled into a face-down deck, and the first **lot** is "
                "turned up: 1 card on day 1, 2 on day 2, 3 on day 3.",
                "The first player at the table starts day 1. Later days start with the "
                "winner of the last day's final auction (or, if nobody won it, the player "
                "who had the first chance to bid in it).",
            ],
            "moments": [
                {"phase": "deal identities", "say": "A new day: the doors are dealt."},
                {"phase": "choose first player",
                 "say": "The first player is being drawn at random."},
                {"phase": "flip", "say": "Cards are being turned up for the lot."},
            ],
        },
        {
            "id": "turn",
            "title": "Your turn",
            "body": (
                "On your turn do one of two things; then the player on your left goes.\n\n"
                "- **Add to the lot:** turn up the top card of the deck and put it in the "
                "lot. Only one card, whatever the day.\n"
                "- **Call an auction** on the lot."
            ),
            "moments": [
                {"phase": "turn", "role": "to move",
                 "say": "Your turn: add the top card of the deck to the lot, or call an "
                        "auction on it."},
                {"phase": "turn",
                 "say": "The player to move adds a card to the lot or calls an auction."},
            ],
        },
        {
            "id": "auction",
            "title": "Auctions",
            "steps": [
                "Everyone gets **one** chance to bid, starting with the caller's left-hand "
                "neighbour; the caller bids last.",
                "A bid must beat the highest bid so far, by any amount, and cannot be more "
                "gems than you have. You may pass instead.",
                "Nobody bids: the lot is thrown away.",
                "Someone else wins: they take the lot and pay their whole bid to the caller.",
                "The caller wins: the bid is shared equally among the other players; gems "
                "that cannot be shared go to the **supply** and are out until the next day. "
                "With two players the other player always gets the whole bid.",
                "A new lot is turned up at once (1, 2 or 3 cards by the day) and play "
                "continues to the left of the caller.",
            ],
            "scenes": [
                {
                    "id": "rulebook-auction",
                    "options": {"players": 3},
                    "actions": AUCTION,
                    "seat": 0,
                    "caption": (
                        "The rulebook's auction, with you as player A. You called; Ben bid "
                        "3 and Cleo 4. You bid last: if you bid 5 you take the lot and pay "
                        "Ben and Cleo 2 gems each, and the fifth gem goes to the supply. If "
                        "you pass, Cleo takes the lot and pays you her 4 gems."
                    ),
                },
                {
                    "id": "rulebook-auction-won",
                    "options": {"players": 3},
                    "actions": [*AUCTION, "bid 5", "reveal Blue Tiger"],
                    "seat": 0,
                    "focus": [".fv-seats", ".fv-supply", ".fv-facts"],
                    "caption": (
                        "You bid 5 and won: the four cards are yours, Ben and Cleo each "
                        "have 2 more gems, and one gem went to the supply."
                    ),
                },
            ],
            "moments": [
                {"phase": "auction", "role": ["to move", "Caller"],
                 "say": "Your auction: you bid last. Beat the high bid to take the lot "
                        "yourself, or pass and let the high bidder pay you."},
                {"phase": "auction", "role": "to move",
                 "say": "Your one chance to bid on this lot: beat the high bid, or pass."},
                {"phase": "auction",
                 "say": "An auction: everyone bids once, the caller last."},
            ],
        },
        {
            "id": "final",
            "title": "The final auction and the end of a day",
            "short": "Day end",
            "body": (
                "The moment the last card of the deck is turned up, the lot goes to a "
                "**final auction**: one chance each, starting with the player whose turn it "
                "would have been. The winner takes the lot, but the gems they bid go to the "
                "supply: nobody receives them.\n\n"
                "Then the day ends: everyone shows their door and scores the cards they "
                "collected."
            ),
            "moments": [
                {"phase": "final auction", "role": "to move",
                 "say": "The final auction: your one chance to bid. The gems you bid go to "
                        "nobody."},
                {"phase": "final auction",
                 "say": "The final auction of the day: one chance each."},
            ],
        },
        {
            "id": "scoring",
            "title": "Scoring a day",
            "body": (
                "| Each card you collected | Points |\n"
                "| --- | ---: |\n"
                "| the same as your door (both traits) | 3 |\n"
                "| shares one trait with your door | 1 |\n"
                "| shares nothing with your door | -2 |\n"
                "| **Bonus:** most gems at the end of the day (ties all score it) | 3 |\n\n"
                "The wilds score nothing themselves. Instead **Blue/Red** changes the colour "
                "of one of your cards, and **Lady/Tiger** changes the role of one; both may "
                "change the same card. The best use is made for you and shown on the score "
                "sheet. Points can go below zero."
            ),
            "scenes": [
                {
                    "id": "red-tiger-day",
                    "options": {"players": 2},
                    "actions": RED_TIGER_DAY,
                    "seat": 0,
                    "focus": [".fv-sheets"],
                    "caption": (
                        "The rulebook's scoring example: you were the Red Tiger and "
                        "collected two Red Tigers (3 each), a Red Lady and a Blue Tiger (1 "
                        "each), a Blue Lady (-2), and a Blue Lady that the Blue/Red turned "
                        "into a Red Lady (1): 7 points. Ben had more gems and took the "
                        "3-point bonus."
                    ),
                },
            ],
        },
        {
            "id": "end",
            "title": "The end of the game",
            "short": "The end",
            "body": (
                "After the third day the highest total wins. A tie goes to the tied player "
                "with the most gems left at the end of day 3, then to the tied player who "
                "comes first going round from the player who started day 3."
            ),
            "moments": [
                {"phase": "game over",
                 "say": "The game is over: the highest total after three days wins."},
            ],
        },
        {
            "id": "options",
            "title": "Players and options",
            "short": "Options",
            "body": (
                "Favor is for 2 to 4 players. A table may draw the first player of day 1 at "
                "random instead of starting with the first player at the table."
            ),
        },
    ],
    "fine_points": [
        {"rule": "Everyone gets one chance to bid on a called auction, starting left of the "
                 "caller; the caller bids last. No bid throws the lot away.",
         "why": "the rulebook's \"one chance to bid for each lot\"."},
        {"rule": "A winner who is not the caller pays the whole bid to the caller; a caller "
                 "who wins shares the bid equally, rounding down, and the rest goes to the "
                 "supply until the next day.",
         "why": "the rulebook's text and its example."},
        {"rule": "New lots are 1, 2 or 3 cards on days 1, 2 and 3, or what is left of the "
                 "deck.",
         "why": "the rulebook's new-lot rule, for a deck that runs short."},
        {"rule": "The final auction starts the moment the last card is turned up, whether by "
                 "an Add or by a new lot; if it came with a new lot, only that new lot is "
                 "auctioned.",
         "why": "the lot before it has just been settled."},
        {"rule": "Each wild changes one trait of one collected card, both may change the same "
                 "card, and they are always used in the way that scores most.",
         "why": "no player would choose to score less; the score sheet shows the change."},
        {"rule": "The first player at the table starts day 1 (a table may draw it at random "
                 "instead); later days start with the winner of the final auction, or the "
                 "player who had the first chance to bid in it.",
         "why": "\"the player who last did someone a favor\" cannot be known by a website."},
        {"rule": "The highest total wins; then the most gems left on day 3; then the tied "
                 "player who comes first going round from the player who started day 3.",
         "why": "the rulebook's tie-breaks, which always name one winner."},
        {"rule": "The rulebook's two examples are shown above: the auction where A bids 5 and "
                 "the Red Tiger's 7-point day.",
         "why": "they are checked against the game's own rules."},
        {"rule": "A wild only changes regular cards, never the other wild.",
         "why": "a wild scores nothing, so changing it could never help."},
        {"rule": "When two uses of the wilds score the same, the sheet shows the one using "
                 "fewer wilds; a wild that could only lose points is left unused.",
         "why": "the score is the same; the report should be simple."},
        {"rule": "In the rulebook's \"if A hadn't bid\" line, Cleo (C), not Ben, takes the lot "
                 "for 4 gems.",
         "why": "C's 4 was the high bid; the rule \"the highest bidder takes the lot\" is "
                "clear, and the example names the wrong player."},
        {"rule": "Bids are whole gems, at least 1, up to what you hold at that moment, "
                 "including gems received earlier that day.",
         "why": "bids are gems placed in front of you, so you must have them."},
        {"rule": "Both moves, Add and Call, are always possible on a turn.",
         "why": "the last card starts the final auction at once, and a new lot follows every "
                "auction, so neither the deck nor the lot is ever empty on a turn."},
        {"rule": "Play continues left of the caller even when the caller won the lot.",
         "why": "the rulebook says so without exception."},
        {"rule": "The door cards nobody was dealt are never shown, not even at the end of the "
                 "day.",
         "why": "the rulebook puts them aside without looking at them."},
        {"rule": "Discarded lots stay in view.",
         "why": "everybody saw those cards face up; listing them only spares your memory."},
        {"rule": "Everyone's points are shown to everyone.",
         "why": "the rulebook keeps them on a shared score sheet."},
    ],
}
