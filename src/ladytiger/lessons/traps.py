"""Learn Traps: two seasons against a bot. In the first you bid what your own
stack holds and take the pot; in the second you build traps and the bot, bidding too high,
walks into one for your fifth gem."""

from __future__ import annotations

from ladytiger.lessons import Lesson, Step

LESSON = Lesson(
    game="traps",
    title="Learn Traps",
    seat=0,
    options={"players": 2},
    intro=(
        "Each season a Door card is turned up as the goal and 3 gems go into the pot. You "
        "stack cards face down, then bid how many traits you can turn up; the winner of the "
        "bid turns cards up, and a trap pays a gem to its stack's owner. 5 gems win."
    ),
    outro=(
        "The bot's reveal hit your trap: the gem from the pot is your fifth, and you win! "
        "That is all of Traps: bid what your own stack can deliver, and stack traps for the "
        "players who bid more than theirs. Ready for a real game?"
    ),
    steps=(
        Step("deal Blue Tiger to seat 0"),
        Step("deal Blue Lady to seat 0"),
        Step("deal Red Tiger to seat 0"),
        Step("deal Lady/Tiger to seat 0"),
        Step("deal Red Lady to seat 0"),
        Step("deal Blue/Red to seat 0"),
        Step("deal Red Lady to seat 1"),
        Step("deal Red Tiger to seat 1"),
        Step("deal Blue Lady to seat 1"),
        Step("deal Blue Tiger to seat 1"),
        Step("deal Red Lady to seat 1"),
        Step("deal Red Tiger to seat 1"),
        # Season 1: bid what your own stack holds.
        Step("goal Blue Tiger"),
        Step("start stack with Blue Tiger",
             "Season 1: the goal is the Blue Tiger. Beside each card in your hand is what it "
             "counts against the goal: both traits 2, one trait 1, and traps (the Lady/Tiger "
             "wild, and cards sharing nothing). Start your stack, face down, with your Blue "
             "Tiger."),
        Step("start stack with Red Lady", "The bot started its stack, face down."),
        Step("build Blue Lady",
             "On your turn you build (one more card on your stack) or bid. Build the Blue "
             "Lady: it shares Blue, 1 trait. Your stack now holds 3 traits, and only you "
             "know it."),
        Step("build Red Tiger", "The bot built a card too."),
        Step("bid 3",
             "Now bid: the number of traits you promise to turn up. Your own stack holds "
             "exactly 3, so bid 3. Once someone bids, nobody builds any more."),
        Step("pass", "The bot passed: the bid is yours, and you turn up cards."),
        Step("reveal seat 0",
             "Turn up cards one at a time, from any stack. The bot's cards might be traps, "
             "and a trap pays its owner; yours you know. Turn up the top of your stack.",
             then="The Blue Lady: 1 trait."),
        Step("reveal seat 0",
             "The Blue Tiger beneath it makes 3, your bid. Turn it up.",
             then="3 traits: your bid is reached and the whole pot, 3 gems, is yours. You "
                  "hold 4 gems; at 5 you win. Everyone takes their cards back for the next "
                  "season."),
        # Season 2: traps.
        Step("goal Red Lady"),
        Step("start stack with Red Lady",
             "Season 2: the goal is the Red Lady. The bot starts, as the player after the "
             "last season's high bidder, you."),
        Step("start stack with Lady/Tiger",
             "The Lady/Tiger wild is always a trap. Start your stack with it: if the bot "
             "turns it up, a gem from the pot goes to you."),
        Step("build Red Tiger", "The bot built a card."),
        Step("build Blue Tiger",
             "The Blue Tiger shares nothing with the Red Lady: another trap. Build it on "
             "top. The bot cannot see that your stack is all traps."),
        Step("bid 4", "The bot bid 4 traits."),
        Step("pass",
             "With two cards the bot needs two exact Red Ladies to make 4 on its own stack, "
             "so it will likely have to turn up yours, and both are traps. Pass and let it "
             "try."),
        Step("reveal seat 1", "The bot turned up the top of its stack: a Red Tiger, 1 trait."),
        Step("reveal seat 1", "Then its Red Lady: 2 more, 3 in all. It needs one more."),
        Step("reveal seat 0"),
    ),
)
