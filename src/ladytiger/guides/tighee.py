"""Tighee, for players (the developer reference is docs/rules/tighee.md)."""

from __future__ import annotations

from typing import Any

# A short game for three: these hands are dealt one card at a time round the table; the
# Blue 4 is the card left over.
HANDS = [
    ["Red 1", "Red 5", "Red 8", "Purple 2", "Purple 6", "Purple 8", "Blue 3", "Blue 7",
     "Green 4", "Green 8", "Black 1", "Black 3", "Black 6"],
    ["Red 2", "Red 6", "Red 7", "Purple 1", "Purple 5", "Blue 1", "Blue 5", "Blue 8",
     "Green 1", "Green 5", "Green 7", "Black 2", "Black 5"],
    ["Red 3", "Red 4", "Purple 3", "Purple 4", "Purple 7", "Blue 2", "Blue 6", "Green 2",
     "Green 3", "Green 6", "Black 4", "Black 7", "Black 8"],
]
DEAL = [f"deal {HANDS[seat][i]} to seat {seat}" for i in range(13) for seat in range(3)]
PUT_OUT = [
    "put out Red 8", "put out Purple 8", "put out Green 8",
    "put out Blue 8", "put out Red 7", "put out Green 7",
    "put out Black 8", "put out Purple 7", "put out Black 7",
]
FIRST_TRICK = ["reveal Purple 7", "play Black 3", "play Purple 5", "play Purple 4"]
SECOND_TRICK = ["reveal Green 8", "play Red 2", "play Red 4", "play Black 1"]
SHORT = {"players": 3, "mode": "short"}

GUIDE: dict[str, Any] = {
    "title": "Tighee",
    "facts": "3 or 4 players · about 30 minutes · as many rounds as players",
    "intro": (
        "A trick-taking game where tricks usually cost you points, unless you take exactly "
        "4, 8 or 12 of them: four tigers melt into a \"Tighee\". Black cards are tigers "
        "hiding in the dark: once played they take the colour of the Forest card."
    ),
    "minute": [
        "**Goal:** the highest total after as many rounds as there are players.",
        "Each trick starts by turning up a **Forest card**; played Black cards take its "
        "colour.",
        "Follow the lead's colour if you can (a Black card is always allowed).",
        "If everyone followed, the highest card wins the trick; if not, the **lowest card "
        "that did not follow** wins.",
        "Each trick costs 10 points, but exactly 4, 8 or 12 tricks pay 50, 100 or 169.",
    ],
    "roles": {"Lead": "lead"},
    "sections": [
        {
            "id": "cards",
            "title": "The cards",
            "body": (
                "Sixty cards in five colours, **Red, Purple, Blue, Green and Black**, each "
                "numbered 1 to 12. The short game uses only the numbers 1 to 8."
            ),
        },
        {
            "id": "setup",
            "title": "Setting up a round",
            "short": "Set-up",
            "steps": [
                "Deal all the cards, one at a time round the table.",
                "Everyone secretly **puts out** some cards face down. These, shuffled "
                "together, form the **Forest deck**: one card for every trick of the round.",
                "The player with the lowest total leads the first trick (the first player "
                "at the table in the first round).",
            ],
            "body": (
                "| Players | Cards | Dealt each | Put out each | Tricks a round |\n"
                "| --- | --- | ---: | ---: | ---: |\n"
                "| 4 | 1 to 12 | 15 | 3 | 12 |\n"
                "| 3 | 1 to 12 | 20 | 5 | 15 |\n"
                "| 3, short game | 1 to 8 | 13 | 3 | 10 |\n\n"
                "In the short game one card is left over after the deal; it goes into the "
                "Forest deck too."
            ),
            "scenes": [
                {
                    "id": "first-lead",
                    "options": SHORT,
                    "actions": [*DEAL, *PUT_OUT, "reveal Purple 7"],
                    "seat": 0,
                    "caption": (
                        "A short game for three, from your seat. You put out the Red 8, "
                        "Purple 8 and Green 8. The first Forest card is the Purple 7, and "
                        "you lead the first trick."
                    ),
                },
            ],
            "moments": [
                {"phase": "deal", "say": "A new round: the cards are being dealt."},
                {"phase": "choose first lead",
                 "say": "The first lead is being drawn at random."},
                {"phase": "put out", "role": "to move",
                 "say": "Put out a card face down for the Forest deck."},
                {"phase": "put out",
                 "say": "Everyone is putting out cards face down for the Forest deck."},
                {"phase": "reveal Forest card",
                 "say": "A new trick: the Forest card is turned up."},
            ],
        },
        {
            "id": "trick",
            "title": "Playing a trick",
            "steps": [
                "Turn up the top card of the Forest deck: the **Forest card**.",
                "The lead plays any card, then the others play in turn, clockwise.",
                "A **Black card** in your hand is Black. Once played, it counts as the "
                "Forest card's colour for this trick (under a Black Forest card it stays "
                "Black). Its number never changes.",
                "The **colour to follow** is the lead card's colour, after that change: a "
                "Black lead asks for the Forest card's colour.",
                "If you hold a card printed in the colour to follow, you must play that "
                "colour or a Black card. If not, play anything.",
            ],
            "moments": [
                {"phase": "play", "role": ["to move", "Lead"],
                 "say": "You lead this trick: play any card. A Black card takes the Forest "
                        "card's colour."},
                {"phase": "play", "role": "to move",
                 "say": "Your card: follow the colour to follow if you can, or play a Black "
                        "card."},
                {"phase": "play", "say": "A trick is being played."},
            ],
        },
        {
            "id": "winner",
            "title": "Who takes the trick",
            "steps": [
                "Look at the colours the cards count as.",
                "If **every** card has the colour to follow, the highest number wins.",
                "Otherwise the **lowest** number among the cards that do **not** follow "
                "wins.",
                "On equal numbers, the card played later wins.",
                "The winner gathers the trick with the Forest card on top and leads the "
                "next trick. Only the top card of each won pile can be seen.",
            ],
            "scenes": [
                {
                    "id": "two-tricks",
                    "options": SHORT,
                    "actions": [*DEAL, *PUT_OUT, *FIRST_TRICK, *SECOND_TRICK,
                                "reveal Blue 4"],
                    "seat": 0,
                    "caption": (
                        "Two tricks later. Under the Purple 7 you led the Black 3, which "
                        "counted as Purple 3; everyone followed Purple and Ben's Purple 5, "
                        "the highest, won. Under the Green 8 Ben led Red; you had no need to "
                        "follow with a Black card: your Black 1 counted as Green 1, the "
                        "lowest card not following Red, and took the trick."
                    ),
                },
            ],
        },
        {
            "id": "scoring",
            "title": "Scoring a round",
            "body": (
                "When the hands are empty, each player scores for the number of tricks they "
                "took:\n\n"
                "| Tricks | Points |\n"
                "| --- | ---: |\n"
                "| 0 | 0 |\n"
                "| 4 | +50 |\n"
                "| 8 | +100 |\n"
                "| 12 | +169 |\n"
                "| any other number | -10 for each trick (5 tricks: -50) |\n\n"
                "The game lasts as many rounds as there are players. The highest total "
                "wins; a tie goes to whoever of them scored more in the last round, and if "
                "that is tied too, they share the win."
            ),
            "moments": [
                {"phase": "game over",
                 "say": "The game is over: the highest total wins."},
            ],
        },
        {
            "id": "options",
            "title": "Players and variants",
            "short": "Variants",
            "body": (
                "- **Four players:** cards 1 to 12, four rounds.\n"
                "- **Three players:** cards 1 to 12, three rounds.\n"
                "- **Short game** (three players only): cards 1 to 8, ten tricks a round.\n"
                "- A table may draw the first lead at random instead of starting with the "
                "first player at the table."
            ),
        },
    ],
    "fine_points": [
        {"rule": "There are three ways to play: four players, three players, and the short "
                 "game for three. The short game cannot be played by four.",
         "why": "the rulebook describes the short game for three players only."},
        {"rule": "The cards are dealt one at a time and each Forest card is drawn at random "
                 "from the Forest deck at the moment it is turned up.",
         "why": "the same as shuffling and dealing by hand: nobody sees a card before it "
                "is theirs to see."},
        {"rule": "A played Black card takes the Forest card's colour, and stays Black under a "
                 "Black Forest card; the colour to follow is the lead's colour after that "
                 "change.",
         "why": "the rulebook's chart and examples: a Black 1 under a Green Forest card "
                "counts as Green 1."},
        {"rule": "Under a Black Forest card with a lead that is not Black, the lead's colour "
                 "is followed. A Black card may still be played there, but it counts as "
                 "Black, so it does not follow, and it can win as the lowest card not "
                 "following.",
         "why": "the rulebook's chart leaves that case blank; this is the same rule as every "
                "other case."},
        {"rule": "A Black card may always be played, except when the Forest card and the lead "
                 "are both Black: then a player holding Black must play Black. A Black card "
                 "in your hand never forces you to follow.",
         "why": "only cards printed in the colour to follow oblige you to follow."},
        {"rule": "If every card follows, the highest wins; otherwise the lowest card not "
                 "following; equal numbers go to the later card. The winner leads next.",
         "why": "the rulebook's trick rules."},
        {"rule": "The first player at the table leads the first round (a table may draw it "
                 "at random); later rounds are led by the player with the lowest total.",
         "why": "\"whoever last saw a tiger or ate ghee\" cannot be known by a website."},
        {"rule": "You see your hand, the cards you put out, the Forest card, the trick, each "
                 "player's number of tricks and the top card of each won pile.",
         "why": "what a player at a real table sees; the game also keeps the tricks you "
                "watched this round, so you need not memorise them."},
        {"rule": "A card you may not play explains why, naming the colour to follow and the "
                 "card that obliges you.",
         "why": "so that nobody has to guess the rule."},
        {"rule": "Every round is dealt one card at a time round the table, starting with the "
                 "first player at the table.",
         "why": "the rulebook names no dealer, and the order of a face-down deal changes "
                "nothing."},
        {"rule": "Players put out their cards one after another, one card at a time, and a "
                 "card put out cannot be taken back.",
         "why": "the choices are secret, so the order tells nobody anything."},
        {"rule": "When players tie for the lowest total, the next round's lead goes to the "
                 "first of them after the previous round's first lead, going round.",
         "why": "it passes the lead on when players are level."},
        {"rule": "Clockwise means down the players' list, and back to the top.",
         "why": "a website has no table to sit around."},
        {"rule": "The short game's left-over card stays unseen until it turns up as a Forest "
                 "card.",
         "why": "nobody sees it before then."},
        {"rule": "Who put out which card is never shown, not even at the end.",
         "why": "the rulebook never shows it."},
        {"rule": "Between tricks the Forest spot is empty: the old Forest card sits on a won "
                 "pile, and the next one is turned up as the next trick starts.",
         "why": "the Forest card goes to the trick's winner."},
        {"rule": "The game log sums up each deal in one line and names each trick's winner and "
                 "why they won.",
         "why": "your hand is on view, and the reason for a trick is the hardest part to "
                "follow."},
    ],
}
