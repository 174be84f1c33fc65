"""Learn Tighee: the start of a three-player short game against two bots, up to
your first trick. The deal is forced so that each idea comes up once: putting cards out into
the Forest deck, a trick won by the lowest card that does not follow, a Black lead that
takes the Forest's colour, and your own Black card winning as the highest of its colour."""

from __future__ import annotations

from ladytiger.lessons import Lesson, Step

# Each seat's thirteen cards, dealt one at a time round the table from seat 0. The fortieth
# card, the Red 6, is left over and goes into the Forest deck unseen.
HANDS = (
    ("Red 2", "Red 5", "Red 8", "Purple 1", "Purple 8", "Purple 4", "Blue 3", "Blue 6",
     "Green 2", "Green 7", "Black 1", "Black 6", "Black 8"),
    ("Red 7", "Red 3", "Red 1", "Purple 2", "Purple 5", "Blue 2", "Blue 7", "Blue 4",
     "Green 1", "Green 4", "Green 8", "Black 2", "Black 5"),
    ("Blue 1", "Blue 5", "Blue 8", "Purple 3", "Purple 6", "Purple 7", "Green 3", "Green 5",
     "Green 6", "Black 3", "Black 4", "Black 7", "Red 4"),
)

DEAL = tuple(
    Step(f"deal {HANDS[seat][index]} to seat {seat}")
    for index in range(len(HANDS[0]))
    for seat in range(len(HANDS))
)

LESSON = Lesson(
    game="tighee",
    title="Learn Tighee",
    seat=0,
    options={"players": 3, "mode": "short"},
    intro=(
        "Tighee is a trick-taking game in five colours. Each trick, a Forest card is turned "
        "up first; Black cards take the Forest card's colour when played. Taking tricks "
        "usually costs 10 points each, but exactly 4, 8 or 12 tricks pay: 50, 100, 169. "
        "This is the short game for three: cards 1 to 8, thirteen each."
    ),
    outro=(
        "Your first trick. The round goes on until the hands are empty, ten tricks in all; "
        "then each player scores by the tricks they took, and a game has as many rounds as "
        "players. Aim for exactly 4 or 8 tricks, or none. Ready for a real game?"
    ),
    to_the_end=False,
    steps=(
        *DEAL,
        # Putting out: the Forest deck.
        Step("put out Red 8",
             "First everyone secretly puts out three cards. They are shuffled into the "
             "Forest deck, one turned up for each trick. Put out your Red 8: high cards win "
             "tricks you may not want."),
        Step("put out Green 7",
             "Put out the Green 7 too. You now know three of the ten Forest cards."),
        Step("put out Purple 4", "And the Purple 4."),
        Step("put out Green 8"),
        Step("put out Red 1"),
        Step("put out Blue 4"),
        Step("put out Red 4"),
        Step("put out Purple 7"),
        Step("put out Green 6", "The bots put out their cards too."),
        # Trick 1: the lowest card that does not follow.
        Step("reveal Green 7"),
        Step("play Red 2",
             "Trick 1. The Forest card is your Green 7, and you lead: any card will do. "
             "The colour you lead is the colour to follow. Lead your Red 2."),
        Step("play Red 7", "Bot 1 followed with the Red 7."),
        Step("play Blue 1",
             "Bot 2 had no Red and played the Blue 1. When every card follows, the highest "
             "wins; when some do not, the lowest of those that do not follow wins. The Blue "
             "1 takes the trick, and Bot 2 leads the next."),
        # Trick 2: a Black lead.
        Step("reveal Purple 4"),
        Step("play Black 4", "The Forest card is your Purple 4. Bot 2 led a Black 4."),
        Step("play Purple 1",
             "A played Black card takes the Forest card's colour: the Black 4 counts as "
             "Purple 4, so Purple is the colour to follow. You hold Purple, so you must "
             "play Purple or a Black card. Play the Purple 1: if everyone follows, the "
             "highest wins, and a 1 stays out of it."),
        Step("play Purple 5",
             "Bot 1 followed with the Purple 5, the highest: the trick is Bot 1's."),
        # Trick 3: your Black card.
        Step("reveal Green 8"),
        Step("play Green 1", "The Forest card is a Green 8. Bot 1 led the Green 1."),
        Step("play Green 3", "Bot 2 followed with the Green 3."),
        Step("play Black 6",
             "You hold Green, so you must play Green or a Black card. Your Black 6 counts "
             "as Green 6 under the Green Forest card: it follows, and it is the highest. "
             "Play it to take your first trick.",
             then="The trick is yours: one taken. Exactly 4 would pay 50 points; 5 would "
                  "cost 50."),
    ),
)
