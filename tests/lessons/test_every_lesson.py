"""What every guided game must be: a script the engine accepts, in which the learner is asked
only for legal moves, each with the coach's words, and which ends where it says it does."""

from __future__ import annotations

import pytest

from ladytiger.core import registered_games
from ladytiger.lessons import LESSON_GAMES, frames, lesson_for

# The kinds of move each lesson teaches (the first word of each move it asks for).
TAUGHT = {
    "doors": {"take", "discard", "end", "guess"},
    "favor": {"call", "bid", "pass", "add"},
    "hoard": {"remove", "collect", "put", "move"},
    "labyrinth": {"move", "switch"},
    "shady_lady": {"draw", "discard", "take", "try", "jack"},
    "tighee": {"put", "play"},
    "traps": {"start", "build", "bid", "pass", "reveal"},
}


def test_every_game_has_a_guided_game():
    assert set(LESSON_GAMES) == {info.name for info in registered_games()} == set(TAUGHT)


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_each_frame_of_the_learner_asks_one_legal_move_with_the_coachs_words(game):
    lesson = lesson_for(game)
    assert lesson is not None and lesson.game == game
    mine = [f for f in frames(lesson) if f["expect"]]
    assert len(mine) >= 6
    for frame in mine:
        view = frame["view"]
        assert view["your_turn"] and view["current_player"] == lesson.seat
        assert frame["expect"] in [a["text"] for a in view["legal_actions"]]
        assert len(frame["say"]) >= 15, frame["say"]
    assert {f["expect"].split()[0] for f in mine} == TAUGHT[game]


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_each_lesson_ends_with_its_outro_where_it_says(game):
    lesson = lesson_for(game)
    shown = frames(lesson)
    last = shown[-1]
    assert last["expect"] is None and last["say"].endswith(lesson.outro)
    assert last["view"]["observation"]["terminal"] == lesson.to_the_end
    assert all(f["view"]["observation"]["viewer"] == lesson.seat for f in shown)
    assert [f["version"] for f in shown] == list(range(len(shown)))
    assert shown[0]["say"].startswith(lesson.intro)
