"""Learn Shady Lady: a two-player game to three points against a bot. The
deal is forced so that each idea comes up once, in order: drawing into a run, Try!, taking
from a pile into a triple, calling Jack! on a hidden combination, being jacked yourself,
and a last Try! that wins."""

from __future__ import annotations

from ladytiger.lessons import Lesson, Step

LESSON = Lesson(
    game="shady_lady",
    title="Learn Shady Lady",
    seat=0,
    options={"players": 2},
    intro=(
        "You always hold three cards. Your whole hand is a combination when it is three of "
        "a number (a triple) or three numbers in a row: 1-2-3, 2-3-4, 6-7-8 or 7-8-9, as "
        "there is no 5. Show a combination with Try!, or call Jack! on a player you think "
        "holds one. First to 3 points wins."
    ),
    outro=(
        "No answer to your run: the point is yours, and that is three. You win! That is "
        "all of Shady Lady: build a combination from the pile or the discards, show it with "
        "Try!, and call Jack! when another player's picks give their hand away. Ready for "
        "a real game?"
    ),
    steps=(
        Step("deal 3 to seat 0"),
        Step("deal 7 to seat 0"),
        Step("deal 8 to seat 0"),
        Step("deal 3 to seat 1"),
        Step("deal 4 to seat 1"),
        Step("deal 9 to seat 1"),
        # Draw into a run.
        Step("draw",
             "Your hand is 3, 7 and 8: a 6 or a 9 would make a run. Draw the top card of the "
             "draw pile; you will then throw one of your four cards away."),
        Step("seat 0 draws 6"),
        Step("discard 3",
             "A 6: with 7 and 8 that is the run 6-7-8. Discard the 3 onto your own pile. "
             "Every pile lies face up, so everyone sees what you let go."),
        Step("draw", "The bot drew a card."),
        Step("seat 1 draws 9"),
        Step("discard 4", "It discarded a 4 onto its pile."),
        # Try!
        Step("try",
             "Your whole hand is a combination, so you may call Try!: you show it, and the "
             "bot may answer only with a stronger one. Any triple beats any run; between two "
             "triples, or two runs, the higher numbers win."),
        Step("decline", "The bot had nothing stronger to show."),
        Step("discard 6",
             "Your run stands: 1 point. A hand that was shown goes onto your pile, one card "
             "at a time in the order you choose; the last one ends on top, where anyone may "
             "take it. Discard the 6 first."),
        Step("discard 7", "Now discard the 7."),
        Step("discard 8",
             "And the 8 last: it ends on top. Then you draw three new cards."),
        Step("seat 0 draws 3"),
        Step("seat 0 draws 3"),
        Step("seat 0 draws 1"),
        # Take from a pile; a pick that everyone sees.
        Step("take 8 from seat 0",
             "The bot took your 8 from the top of your pile. Anyone may take the top card "
             "of any pile, and everyone sees what was taken."),
        Step("discard 3", "It discarded a 3."),
        Step("take 3 from seat 1",
             "You hold 3, 3 and 1, and the bot just threw a 3 onto its pile. Take it: three "
             "3s make a triple. Everyone sees this take, so the bot now knows one of your "
             "cards."),
        Step("discard 1", "Discard the 1, which fits nothing."),
        # Jack! the bot.
        Step("draw", "The bot drew a card."),
        Step("seat 1 draws 9"),
        Step("discard 8", "Then it threw away the 8 it took from you."),
        Step("jack seat 1",
             "You could Try! with your three 3s, but the bot just let go of the 8 it wanted: "
             "it liked the card it drew better. It may now hold a combination, and a "
             "stronger one would answer your Try! and take the point. "
             "Call Jack! on it instead: it must show its hand; if that is a combination the "
             "point is yours, if not the point is the bot's.",
             then="Three 9s: a combination, so the point is yours. The bot throws its hand "
                  "away and draws three new cards."),
        Step("discard 9"),
        Step("discard 9"),
        Step("discard 9"),
        Step("seat 1 draws 1"),
        Step("seat 1 draws 2"),
        Step("seat 1 draws 6"),
        # Jacked: a combination kept through another player's turn is at risk.
        Step("jack seat 0",
             "The bot saw you take a 3 and called Jack! on you."),
        Step("discard 3",
             "Your three 3s are a combination, so the bot scores. Keeping a combination "
             "through another player's turn is a risk; you kept it to call Jack!, which was "
             "worth it. Now your hand goes onto your pile: discard the 3s."),
        Step("discard 3", "Now discard another 3."),
        Step("discard 3", "And the last one. Then you draw three."),
        Step("seat 0 draws 7"),
        Step("seat 0 draws 8"),
        Step("seat 0 draws 2"),
        # The winning run.
        Step("draw",
             "You hold 7, 8 and 2, and neither pile's top card helps. Draw: a 6 or a 9 "
             "makes a run."),
        Step("seat 0 draws 9"),
        Step("discard 2", "A 9: 7-8-9. Discard the 2."),
        Step("draw", "The bot drew a card."),
        Step("seat 1 draws 2"),
        Step("discard 6", "It discarded a 6."),
        Step("try",
             "You have 2 points and the run 7-8-9 in hand. Show it with Try! before the "
             "bot can call Jack! on you: if nothing stronger answers, that is your third "
             "point."),
        Step("decline"),
    ),
)
