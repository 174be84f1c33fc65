"""The guided game of Favor: its first day, a real game the engine accepts, and what the coach
says of each position is what the engine shows there."""

from __future__ import annotations

import dataclasses

import pytest

from ladytiger.core import LadyTigerError
from ladytiger.lessons import LESSON_GAMES, frames, lesson_for

LESSON = lesson_for("favor")


def at(shown: list[dict], words: str) -> dict:
    (frame,) = [f for f in shown if words in f["say"]]
    return frame


def test_it_plays_the_first_day_and_the_learner_wins_it(shown):
    assert "favor" in LESSON_GAMES and not LESSON.to_the_end
    end = shown[-1]["view"]
    assert end["moment"]["kind"] == "day_end"
    (day,) = end["observation"]["past_days"]
    assert day["identities"][LESSON.seat] == "Blue Tiger"
    assert day["points"][LESSON.seat] > day["points"][1 - LESSON.seat]
    assert "day 1" in shown[-1]["say"] and "yours" in shown[-1]["say"]
    # The outro's figures are the score sheet's.
    mine, its = day["points"][LESSON.seat], day["points"][1 - LESSON.seat]
    assert f"{mine} points to the bot's {its}" in shown[-1]["say"]
    assert f"{day['card_points'][1]} for its cards, {day['gem_bonus'][1]} for" in shown[-1]["say"]



def test_the_gems_move_as_the_coach_says(shown):
    sold = at(shown, "pays you 3 gems")
    assert sold["view"]["observation"]["gems"] == [7, 3]
    unbeatable = at(shown, "cannot be beaten")
    assert unbeatable["expect"] == "bid 3"
    assert unbeatable["view"]["observation"]["gems"][1] == 3
    bids = [a["text"] for a in unbeatable["view"]["legal_actions"]]
    assert "bid 3" in bids
    final = at(shown, "all 4 of your gems")
    assert final["view"]["observation"]["gems"][LESSON.seat] == 4


def test_the_wild_the_coach_names_is_used_as_it_says(shown):
    (day,) = shown[-1]["view"]["observation"]["past_days"]
    assert "Blue/Red turns a Red Lady into a Blue Lady" in day["wilds"][LESSON.seat]
    assert day["gem_bonus"] == [0, 3]  # the bot kept its gems for the bonus


def test_the_learner_never_sees_the_bots_door_before_the_day_ends(shown):
    for frame in shown[:-1]:
        assert frame["view"]["observation"]["identities"][1 - LESSON.seat] is None


def test_a_lesson_for_the_whole_game_may_not_stop_early():
    whole = dataclasses.replace(LESSON, to_the_end=True)
    with pytest.raises(LadyTigerError, match="before the game does"):
        frames(whole)


def test_a_step_that_is_no_move_here_is_refused_naming_the_step():
    steps = list(LESSON.steps)
    index = next(i for i, step in enumerate(steps) if step.action == "bid 1")
    steps[index] = dataclasses.replace(steps[index], action="bid seven")
    with pytest.raises(LadyTigerError, match=f"lesson step {index} \\('bid seven'\\)"):
        frames(dataclasses.replace(LESSON, steps=tuple(steps)))
