"""Learn Favor: the first of a game's three days, two players, against a bot.
The deal is forced so that each idea comes up once: winning your own auction, selling a lot
you do not want, adding to a lot, a bid the bot cannot beat, and the final auction, then the
day's scoring."""

from __future__ import annotations

from ladytiger.lessons import Lesson, Step

LESSON = Lesson(
    game="favor",
    title="Learn Favor",
    seat=0,
    options={"players": 2},
    intro=(
        "Each day you get a secret Door, here the Blue Tiger, and five gems to bid with. "
        "Clue cards come up in lots that are auctioned. At the day's end each card you won "
        "scores against your Door: 3 for both traits, 1 for one, -2 for none; whoever has "
        "most gems left scores 3 more. A game is three days; this lesson plays the first."
    ),
    outro=(
        "That was day 1, and it is yours: 16 points to the bot's 7 (4 for its cards, 3 for "
        "the most gems), on the score sheet below. Days 2 and 3 go the same way with new "
        "Doors and fresh gems, but each new lot starts with two cards, then three, and the "
        "points add up over the three days. Ready for a real game?"
    ),
    to_the_end=False,
    steps=(
        Step("deal Blue Tiger to seat 0"),
        Step("deal Red Lady to seat 1"),
        Step("reveal Blue Tiger"),
        # Your own auction.
        Step("call auction",
             "The lot is the Blue Tiger: 3 points for you. On your turn you add a card to "
             "the lot or call an auction on it. Call an auction."),
        Step("pass", "The bot bid first and passed: everyone gets one chance, the caller last."),
        Step("bid 1",
             "Bid 1 gem: any bid beats no bid. When the caller wins, the bid goes to the "
             "other players, here the bot.",
             then="The Blue Tiger is yours for 1 gem, which went to the bot. A new lot of one "
                  "card comes up."),
        Step("reveal Red Lady"),
        # The bot adds.
        Step("add to lot", "The bot added a card to the lot instead of calling."),
        Step("reveal Red Tiger"),
        # Selling a lot you do not want.
        Step("call auction",
             "Red Lady and Red Tiger: for your Blue Tiger that is -2 and 1, so -1 point. "
             "But you may still call an auction: when someone else wins it, they pay their "
             "bid to you."),
        Step("bid 3", "The bot bid 3."),
        Step("pass",
             "You do not want this lot: pass, and let the bot pay you.",
             then="The bot takes both cards and pays you 3 gems: you have 7, it has 3."),
        Step("reveal Blue Lady"),
        Step("add to lot", "The bot added a card."),
        Step("reveal Blue Tiger"),
        # Adding to a lot.
        Step("add to lot",
             "Blue Lady and Blue Tiger: 1 and 3 points for you. Add one more card before "
             "anyone calls: a bigger lot is worth more to whoever wins it."),
        Step("reveal Lady/Tiger"),
        # A bid the bot cannot beat.
        Step("call auction",
             "The Lady/Tiger is a wild: it changes the role of one card you won, so it "
             "could turn your Blue Lady into a Blue Tiger. The bot called an auction."),
        Step("bid 3",
             "You bid first this time. The bot holds only 3 gems and a bid must be higher "
             "than the last, so a bid of 3 cannot be beaten. Bid 3.",
             then="The bot could not beat it. The lot is yours, and your 3 gems go to the "
                  "bot, which called the auction."),
        Step("pass"),
        Step("reveal Red Tiger"),
        # Growing the last lot.
        Step("add to lot",
             "A lot of one Red Tiger: 1 point for you. The deck is almost out, and the "
             "moment its last card comes up the whole lot is auctioned one last time. Add "
             "to it."),
        Step("reveal Blue Lady"),
        Step("add to lot", "The bot added too."),
        Step("reveal Red Lady"),
        Step("add to lot",
             "A Red Lady is -2 for you, but the wild Blue/Red, still in the deck, could turn "
             "its colour. Keep adding."),
        Step("reveal Blue/Red"),
        Step("add to lot", "The bot added the next card."),
        Step("reveal Blue Tiger"),
        Step("add to lot", "Add again: two cards are left."),
        Step("reveal Red Lady"),
        Step("add to lot", "The bot added."),
        Step("reveal Blue Lady"),
        Step("add to lot",
             "The last card of the deck. Add it: that starts the final auction."),
        Step("reveal Red Tiger"),
        # The final auction.
        Step("bid 3",
             "In the final auction the bot bid first: 3 gems, keeping 3 for the gem bonus. "
             "The winner pays the supply, nobody else."),
        Step("bid 4",
             "This lot is worth more to you than it costs: its Blue cards score, and the "
             "Blue/Red wild turns a Red Lady blue. Bid all 4 of your gems.",
             then="The day ends: the Doors are turned up and every collection is scored."),
    ),
)
