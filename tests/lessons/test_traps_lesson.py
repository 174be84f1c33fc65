"""The guided game of Traps: two seasons the engine accepts, and what the coach says of each
position is what the engine shows there."""

from __future__ import annotations

from ladytiger.lessons import LESSON_GAMES, lesson_for

LESSON = lesson_for("traps")


def test_the_learner_wins_with_a_fifth_gem_from_a_trap(shown):
    assert "traps" in LESSON_GAMES and LESSON.to_the_end
    end = shown[-1]["view"]["observation"]
    assert end["terminal"] and end["winner"] == LESSON.seat
    assert end["gems"] == [5, 1]
    assert "trap" in shown[-1]["say"]



def test_the_first_bid_is_what_the_learners_own_stack_holds(shown):
    bid = next(f for f in shown if f["expect"] == "bid 3")
    o = bid["view"]["observation"]
    assert o["goal"] == "Blue Tiger"
    # Blue Tiger (both traits, 2) under Blue Lady (Blue, 1): the 3 the coach counts.
    assert o["stacks"][LESSON.seat]["cards"] == ["Blue Tiger", "Blue Lady"]
    assert o["stacks"][1 - LESSON.seat]["cards"] is None  # the bot's stack stays hidden
    won = next(f for f in shown if "the whole pot, 3 gems, is yours" in f["say"])
    assert won["view"]["observation"]["gems"] == [4, 1]
    assert won["view"]["moment"]["kind"] == "season_end"


def test_the_second_season_has_the_goal_and_traps_the_coach_names(shown):
    start = next(f for f in shown if f["expect"] == "start stack with Lady/Tiger")
    assert start["view"]["observation"]["goal"] == "Red Lady"
    assert start["view"]["observation"]["starting_player"] == 1  # after the high bidder
    passing = next(f for f in shown if f["expect"] == "pass")
    assert passing["view"]["observation"]["high_bid"] == 4
    # Both of the learner's cards share nothing with the Red Lady, or are the Lady/Tiger.
    assert passing["view"]["observation"]["stacks"][LESSON.seat]["cards"] == [
        "Lady/Tiger", "Blue Tiger"]
