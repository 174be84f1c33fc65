"""Learn Labyrinth: the first four turns against a bot, up to your first cub
home. The grid is forced so that each idea comes up once: a switch that carries your cub
across the board, a switch that sends the bot's cub away, the bot doing the same to you
(with two identical cards, so both gems move), and a cub reaching your Tiger Door."""

from __future__ import annotations

from ladytiger.lessons import Lesson, Step

GRID = (
    ("B1", "Blue Tiger"), ("C1", "Red Lady"),
    ("A2", "Blue Tiger"), ("B2", "Red Lady"), ("C2", "Red Tiger"), ("D2", "Blue Lady"),
    ("A3", "Red Lady"), ("B3", "Blue Tiger"), ("C3", "Red Tiger"), ("D3", "Red Tiger"),
    ("B4", "Blue Lady"), ("C4", "Blue Lady"),
)

LESSON = Lesson(
    game="labyrinth",
    title="Learn Labyrinth",
    seat=0,
    options={},
    intro=(
        "You are red: your five cubs start on the Red Lady Door (A1, top left) and must all "
        "reach the Red Tiger Door (D4, bottom right). The bot's blue cubs race from D1 to "
        "A4. Each turn you move one cub one step, then switch two cards of the labyrinth, "
        "and every cub on them rides along."
    ),
    outro=(
        "Your first cub is home on the Red Tiger Door. No switch was possible, so both gems "
        "moved and the bot plays on. Four cubs to go: the first player with all five home "
        "wins. Ready for a real game?"
    ),
    to_the_end=False,
    steps=(
        *(Step(f"place {card} at {cell}") for cell, card in GRID),
        # Turn 1: a switch that carries your cub.
        Step("move red cub from A1 to A2",
             "First move a cub one step: up, down, left or right. Step down from A1 to A2."),
        Step("switch A2 D2 with Blue/Red",
             "Now switch two cards in one row or column, one of them under a cub. The yellow "
             "gem sits on Blue, so the Blue/Red switch swaps two Blue cards: A2 and D2 are "
             "both Blue. Swap them, and your cub rides to D2, right across the row.",
             then="Your cub is at D2, and the yellow gem moved to Red: the next Blue/Red "
                  "switch swaps two Red cards."),
        Step("move blue cub from D1 to C1", "The bot stepped a blue cub from D1 to C1."),
        Step("switch C1 C4 with Lady/Tiger",
             "Then it swapped C1 and C4, two Ladies, with the Lady/Tiger switch: its cub rode "
             "down to C4, two steps from its goal at A4. The white gem moved to Tiger."),
        # Turn 2: a switch against the bot.
        Step("move red cub from D2 to D3", "Step your cub down, from D2 to D3."),
        Step("switch C2 C4 with Blue/Red",
             "Switches move every cub on the two cards, the bot's too. C4 and C2 are both "
             "Red, and the yellow gem is on Red: swap them to send the blue cub back up to "
             "C2."),
        Step("move blue cub from C2 to B2", "The bot stepped its cub left, to B2."),
        Step("switch C3 D3 with Lady/Tiger",
             "Then it paid you back: it swapped D3, under your cub, with C3. The two cards "
             "were both Red Tigers, and when the two cards are identical both gems move."),
        # Turn 3.
        Step("move red cub from C3 to C4",
             "Your cub is at C3. Step it down to C4, next to your Tiger Door."),
        Step("switch B2 C2 with Blue/Red",
             "A switch is compulsory when there is one. B2 and C2 are both Red Ladies: swap "
             "them to push the blue cub back to C2, and both gems move."),
        Step("move blue cub from C2 to C1", "The bot stepped its cub up to C1."),
        Step("switch B1 C1 with Blue/Red", "Then it swapped C1 and B1, two Blue cards."),
        # Turn 4: home.
        Step("move red cub from C4 to D4",
             "Step your cub onto the Red Tiger Door at D4. Doors never move, so a cub there "
             "stays home."),
    ),
)
