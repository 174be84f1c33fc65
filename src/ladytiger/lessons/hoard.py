"""Learn Hoard: the first eight cards of a solo game. The gems and cards are
forced so that each idea comes up once: removing Trash pairs, collecting a Treasure from a
clean door, a wild that brings Trash back, unpaired Trash that stays, and moving a gem
along a row."""

from __future__ import annotations

from ladytiger.lessons import Lesson, Step

GEMS = (
    ("Red Lady", ("red Treasure", "red Treasure", "white Trash", "black Trash", "blue Treasure")),
    ("Blue Lady", ("blue Treasure", "blue Treasure", "white Trash", "black Trash",
                   "red Treasure")),
    ("Red Tiger", ("red Treasure", "red Treasure", "blue Treasure", "white Trash",
                   "black Trash")),
    ("Blue Tiger", ("blue Treasure", "white Trash", "white Trash", "black Trash",
                    "black Trash")),
)

LESSON = Lesson(
    game="hoard",
    title="Learn Hoard",
    seat=0,
    options={},
    intro=(
        "Hoard is a solo puzzle. Four Doors hold the gems: red and blue Treasure, white and "
        "black Trash. Collect all ten Treasures within three rounds of the Clue deck. Each "
        "card you turn up names a Door, and you act on it: move a gem along its row, remove "
        "its Trash pairs, or collect a Treasure of its colour once it holds no Trash."
    ),
    outro=(
        "Three Treasures collected, seven to go. When the deck runs out its last card goes "
        "under a round marker and the rest are shuffled again, so each round is a card "
        "shorter; a card under the third marker ends the game. Win by collecting the tenth "
        "Treasure: your score is the Trash on the removed pile then. Ready for a real game?"
    ),
    to_the_end=False,
    steps=(
        *(Step(f"deal {gem} to {door}") for door, gems in GEMS for gem in gems),
        Step("reveal Red Lady"),
        Step("remove pairs from Red Lady",
             "The card is the Red Lady. Its Door holds a white and a black Trash: a pair. "
             "Remove it: pairs of Trash go to the removed pile."),
        Step("reveal Red Lady"),
        Step("collect red Treasure from Red Lady",
             "The Red Lady again, and its Door holds no Trash now. Collect one Treasure of "
             "its colour: a red one. The blue one must go to a Blue Door to be collected."),
        Step("reveal Blue Lady"),
        Step("remove pairs from Blue Lady",
             "The Blue Lady holds a Trash pair too. Remove it."),
        Step("reveal Lady/Tiger"),
        Step("put white Trash on Red Tiger and black Trash on Blue Tiger",
             "A wild card. While the removed pile holds Trash, a wild brings one white and "
             "one black back, onto both Doors of a row (Lady/Tiger) or a column (Blue/Red). "
             "Put them on the Tigers, which hold Trash anyway, and keep the Ladies clean."),
        Step("reveal Blue Lady"),
        Step("collect blue Treasure from Blue Lady",
             "The Blue Lady is clean: collect a blue Treasure."),
        Step("reveal Red Tiger"),
        Step("remove pairs from Red Tiger",
             "The Red Tiger holds two white Trash and one black. Remove the pair; the "
             "second white stays, since only pairs go."),
        Step("reveal Blue Tiger"),
        Step("move white Trash from Red Tiger to Blue Tiger",
             "The Blue Tiger names the Tiger row: you may move one gem between the two Tiger "
             "Doors. Move the last white Trash off the Red Tiger, which is then clean."),
        Step("reveal Red Tiger"),
        Step("collect red Treasure from Red Tiger",
             "The Red Tiger is clean: collect a red Treasure."),
    ),
)
