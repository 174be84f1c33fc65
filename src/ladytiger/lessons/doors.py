"""Learn Doors in three minutes: two contests against a bot, first as the Collector, then as
the Guesser. The deal is forced so that each idea comes up once, in order."""

from __future__ import annotations

from ladytiger.lessons import Lesson, Step

LESSON = Lesson(
    game="doors",
    title="Learn Doors",
    seat=0,
    options={"gems_to_win": 10},
    intro=(
        "Each contest, both of you get a secret Door: a colour (Red or Blue) and a role "
        "(Lady or Tiger). One of you collects cards, the other tries to guess the "
        "Collector's Door. First to 10 gems wins."
    ),
    outro=(
        "Right: the bot's Door was the Red Lady. 5 gems make 11, and the game is yours! "
        "That is all of Doors: collect without giving your Door away, or read the other "
        "player's picks and guess. Ready for a real game?"
    ),
    steps=(
        # Contest 1: you collect. Your Door is the Blue Lady.
        Step("deal Blue Lady to seat 0"),
        Step("deal Red Tiger to seat 1"),
        Step("reveal Blue Tiger"),
        Step("reveal Red Lady"),
        Step("reveal Blue Lady"),
        Step("reveal Red Tiger"),
        Step("take Blue Lady",
             "You are the Collector and your Door is the Blue Lady. Four cards that all share "
             "Blue, or all share Lady, make a set, worth 6 gems. Click the Blue Lady in the "
             "display to take it."),
        Step("reveal Blue/Red"),
        Step("discard Blue/Red",
             "The bot is the Guesser: each turn it throws one display card away. It just "
             "discarded the Blue/Red, a wild that would have counted as Blue for you."),
        Step("reveal Blue Tiger"),
        Step("end turn"),
        Step("take Blue Tiger",
             "Take the Blue Tiger: it shares Blue with your Door. Taking only Blue cards "
             "tells the Guesser your colour, but the set is close."),
        Step("reveal Blue Lady"),
        Step("discard Blue Lady",
             "The Guesser saw you take Blue twice and threw away the Blue Lady to slow you "
             "down."),
        Step("reveal Lady/Tiger"),
        Step("end turn"),
        Step("take Blue Tiger",
             "A third Blue card. One more and your set is complete."),
        Step("reveal Red Tiger"),
        Step("discard Red Lady"),
        Step("reveal Blue Lady"),
        Step("end turn",
             "The Guesser did not guess yet, and a Blue Lady has turned up."),
        Step("take Blue Lady",
             "Take the Blue Lady: four Blue cards. A set of your own Door's colour is "
             "shown at once and earns you 6 gems.",
             hold=True,
             then="Your set is shown: 6 gems for you. At the end of a contest both Doors "
                  "are turned face up."),
        # Contest 2: the roles swap. You guess; the bot collects for the Red Lady.
        Step("deal Blue Tiger to seat 0",
             "Contest 2: the roles swap. Now the bot collects and you are the Guesser."),
        Step("deal Red Lady to seat 1"),
        Step("reveal Red Lady"),
        Step("reveal Red Lady"),
        Step("reveal Blue Tiger"),
        Step("reveal Blue Lady"),
        Step("take Red Lady", "The bot took a Red Lady."),
        Step("reveal Red Tiger"),
        Step("discard Red Lady",
             "As the Guesser you discard one display card each turn. Throw away the other "
             "Red Lady: the card the Collector seems to want."),
        Step("reveal Lady/Tiger"),
        Step("end turn",
             "You may also guess before or after discarding, but the bot has shown little "
             "yet. End your turn for now."),
        Step("take Lady/Tiger",
             "The bot took the Lady/Tiger wild, which counts as Lady or as Tiger."),
        Step("reveal Blue/Red"),
        Step("guess Red Lady",
             "A Red Lady, then a wild for Lady or Tiger: its Door is most likely the Red "
             "Lady. Guessing the whole Door right earns 5 gems (a colour or a role alone "
             "earns 1, and any wrong guess gives the Collector 4). Guess Red Lady."),
    ),
)
