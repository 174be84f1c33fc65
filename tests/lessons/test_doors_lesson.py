"""The guided game of Doors: its script is a real game the engine accepts, it teaches what it
says, and the server hands it out."""

from __future__ import annotations

import dataclasses

import pytest

from ladytiger.core import LadyTigerError
from ladytiger.lessons import Step, frames, lesson_for

LESSON = lesson_for("doors")


def test_every_step_is_legal_and_the_learner_wins_at_the_end():
    shown = frames(LESSON)
    end = shown[-1]["view"]
    assert end["status"] == "finished"
    assert end["observation"]["terminal"]
    scores = end["observation"]["scores"]
    assert scores[LESSON.seat] >= LESSON.options["gems_to_win"] > scores[1 - LESSON.seat]



def test_the_lesson_plays_as_collector_then_as_guesser():
    shown = frames(LESSON)
    roles = []
    for frame in shown:
        if frame["expect"]:
            o = frame["view"]["observation"]
            role = "collector" if o["collector"] == LESSON.seat else "guesser"
            if not roles or roles[-1] != role:
                roles.append(role)
    assert roles == ["collector", "guesser"]
    # The moves it teaches: taking, discarding, ending a turn, guessing the whole Door.
    verbs = {f["expect"].split()[0] for f in shown if f["expect"]}
    assert verbs >= {"take", "discard", "end", "guess"}


def test_what_the_coach_says_of_the_set_is_what_the_engine_scores():
    shown = frames(LESSON)
    held = [f for f in shown if f["view"]["moment"]]
    first = held[0]
    assert "6 gems" in first["say"]
    assert first["view"]["observation"]["past_contests"][0]["gems"] == 6
    assert first["view"]["observation"]["past_contests"][0]["winner"] == LESSON.seat


def test_the_learner_sees_only_their_own_seat():
    # The bot's Door stays face down until a contest ends.
    for frame in frames(LESSON):
        o = frame["view"]["observation"]
        assert o["viewer"] == LESSON.seat
        if frame["expect"]:
            assert o["identities"][1 - LESSON.seat] is None


def test_a_script_with_an_illegal_step_is_refused_with_its_reason():
    steps = list(LESSON.steps)
    assert steps[6].action == "take Blue Lady"  # the Collector's first move
    steps[6] = Step("discard Blue Lady")  # the Guesser's kind of move: not the Collector's
    with pytest.raises(LadyTigerError, match="lesson step 6"):
        frames(dataclasses.replace(LESSON, steps=tuple(steps)))


def test_a_script_that_stops_before_the_end_is_refused():
    short = dataclasses.replace(LESSON, steps=LESSON.steps[:10])
    with pytest.raises(LadyTigerError, match="before the game does"):
        frames(short)
