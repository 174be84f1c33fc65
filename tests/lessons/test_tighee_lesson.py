"""The guided game of Tighee: the start of a three-player short game, real moves the engine
accepts, and what the coach says of each trick is what the engine decides."""

from __future__ import annotations

from ladytiger.lessons import LESSON_GAMES, lesson_for
from ladytiger.lessons.tighee import HANDS

LESSON = lesson_for("tighee")


def test_the_deal_uses_every_card_but_the_one_left_over():
    dealt = [card for hand in HANDS for card in hand]
    assert len(dealt) == len(set(dealt)) == 39
    every = {f"{colour} {n}" for colour in ("Red", "Purple", "Blue", "Green", "Black")
             for n in range(1, 9)}
    assert every - set(dealt) == {"Red 6"}


def test_it_stops_after_the_learners_first_trick(shown):
    assert "tighee" in LESSON_GAMES and not LESSON.to_the_end
    end = shown[-1]
    assert end["view"]["observation"]["tricks_won"] == [1, 1, 1]
    assert end["view"]["moment"]["kind"] == "trick"



def tricks_after(shown: list[dict], move: str) -> list[int]:
    index = next(i for i, f in enumerate(shown) if f["expect"] == move)
    return next(f for f in shown[index + 1:] if f["view"]["moment"]
                and f["view"]["moment"]["kind"] == "trick")["view"]["observation"]["tricks_won"]


def test_each_trick_goes_where_the_coach_says(shown):
    # Trick 1: the Blue 1, lowest of the cards that do not follow, is Bot 2's.
    assert tricks_after(shown, "play Red 2") == [0, 0, 1]
    # Trick 2: all follow (the Black 4 counts as Purple), the Purple 5 is highest: Bot 1's.
    black_lead = next(f for f in shown if f["expect"] == "play Purple 1")
    assert black_lead["view"]["observation"]["follow"] == "Purple"
    assert tricks_after(shown, "play Purple 1") == [0, 1, 1]
    # Trick 3: the learner's Black 6 counts as Green 6, the highest.
    assert shown[-1]["view"]["observation"]["tricks_won"][LESSON.seat] == 1


def test_the_learners_black_card_is_allowed_and_the_forest_is_green(shown):
    play = next(f for f in shown if f["expect"] == "play Black 6")
    o = play["view"]["observation"]
    assert o["forest"] == "Green 8" and o["follow"] == "Green"
    assert "play Green 2" in [a["text"] for a in play["view"]["legal_actions"]]
