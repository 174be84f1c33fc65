"""The guided game of Shady Lady: its script is a real game the engine accepts, and what the
coach says of each position is what the engine shows there."""

from __future__ import annotations

from ladytiger.lessons import LESSON_GAMES, lesson_for

LESSON = lesson_for("shady_lady")


def asked(shown: list[dict], move: str) -> list[dict]:
    return [f for f in shown if f["expect"] == move]


def test_it_is_listed_and_the_learner_wins_with_three_points(shown):
    assert "shady_lady" in LESSON_GAMES
    end = shown[-1]["view"]["observation"]
    assert end["terminal"] and end["winner"] == LESSON.seat
    assert end["scores"][LESSON.seat] == 3 > end["scores"][1 - LESSON.seat]



def test_the_coach_names_the_hand_the_learner_holds(shown):
    first = shown[0]
    assert "3, 7 and 8" in first["say"]
    assert sorted(first["view"]["observation"]["hands"][LESSON.seat]) == [3, 7, 8]
    (take,) = asked(shown, "take 3 from seat 1")
    assert "3, 3 and 1" in take["say"]
    o = take["view"]["observation"]
    assert sorted(o["hands"][LESSON.seat]) == [1, 3, 3]
    assert o["piles"][1][-1] == 3  # the card the coach says the bot just threw away


def test_every_try_the_coach_asks_for_shows_a_combination_and_scores(shown):
    tries = [i for i, f in enumerate(shown) if f["expect"] == "try"]
    assert len(tries) == 2
    for index in tries:
        before = shown[index]["view"]["observation"]
        assert before["combination"], "Try! is only allowed on a combination"
        after = next(f for f in shown[index + 1:] if f["view"]["observation"]["scores"]
                     != before["scores"])["view"]["observation"]
        assert after["scores"][LESSON.seat] == before["scores"][LESSON.seat] + 1


def test_the_jack_pays_off_as_the_coach_says_and_the_bots_jack_costs_a_point(shown):
    index = next(i for i, f in enumerate(shown) if f["expect"] == "jack seat 1")
    assert shown[index]["view"]["observation"]["scores"] == [1, 0]
    revealed = shown[index + 1]
    assert "Three 9s" in revealed["say"]
    assert revealed["view"]["observation"]["hands"][1] == [9, 9, 9]
    assert revealed["view"]["observation"]["scores"] == [2, 0]
    assert revealed["view"]["moment"]["kind"] == "jack"
    jacked = next(f for f in shown[index + 1:] if "called Jack! on you" in f["say"])
    assert jacked["view"]["observation"]["scores"] == [2, 1]


def test_the_learner_never_sees_the_bots_hidden_cards(shown):
    # The bot's hand shows only what everyone saw: the 8 it took from the learner's pile,
    # the three 9s its Jack! revealed (until they are discarded), and every card at the end.
    jack = next(i for i, f in enumerate(shown) if f["expect"] == "jack seat 1")
    for index, frame in enumerate(shown):
        o = frame["view"]["observation"]
        assert o["viewer"] == LESSON.seat
        if not o["terminal"]:
            seen = {None, 8} if index <= jack else {None, 9}
            assert set(o["hands"][1]) <= seen, index
    assert any(8 in f["view"]["observation"]["hands"][1] for f in shown)
