"""The guided game of Labyrinth: its first four turns, real moves the engine accepts, and what
the coach says of each position is what the engine shows there."""

from __future__ import annotations

from ladytiger.lessons import LESSON_GAMES, lesson_for

LESSON = lesson_for("labyrinth")


def cubs(frame: dict, cell: str, colour: str) -> int:
    for row in frame["view"]["observation"]["grid"]:
        for place in row:
            if place["cell"] == cell:
                return place["cubs"][colour]
    raise KeyError(cell)


def test_it_stops_with_the_first_red_cub_home(shown):
    assert "labyrinth" in LESSON_GAMES and not LESSON.to_the_end
    end = shown[-1]
    assert cubs(end, "D4", "red") == 1
    assert end["view"]["moment"]["kind"] == "cub_home"
    assert not end["view"]["observation"]["terminal"]



def test_the_switches_carry_the_cubs_the_coach_says(shown):
    first = next(f for f in shown if "rides to D2" in f["say"])
    after = shown[shown.index(first) + 1]
    assert cubs(after, "D2", "red") == 1 and cubs(after, "A2", "red") == 0
    assert after["view"]["observation"]["switches"]["Blue/Red"] == "Red"
    back = next(f for f in shown if "back up to C2" in f["say"])
    after = shown[shown.index(back) + 1]
    assert cubs(after, "C2", "blue") == 1 and cubs(after, "C4", "blue") == 0


def test_identical_cards_move_both_gems_as_the_coach_says(shown):
    index = next(i for i, f in enumerate(shown) if f["expect"] == "move red cub from C3 to C4")
    said = shown[index]
    assert "both gems move" in said["say"]
    before = shown[index - 1]["view"]["observation"]["switches"]
    now = said["view"]["observation"]["switches"]
    assert all(before[switch] != now[switch] for switch in now)
    assert cubs(said, "C3", "red") == 1  # the bot's switch carried the learner's cub
