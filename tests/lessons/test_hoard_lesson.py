"""The guided game of Hoard: its first eight cards, real moves the engine accepts, and what the
coach says of each position is what the engine shows there."""

from __future__ import annotations

from ladytiger.lessons import LESSON_GAMES, lesson_for

LESSON = lesson_for("hoard")


def doors(frame: dict) -> dict:
    return frame["view"]["observation"]["doors"]


def test_it_stops_with_three_treasures_collected(shown):
    assert "hoard" in LESSON_GAMES and not LESSON.to_the_end
    end = shown[-1]["view"]["observation"]
    assert end["collected"] == {"red": 2, "blue": 1}
    assert not end["terminal"] and "Three Treasures" in shown[-1]["say"]



def test_each_collect_is_from_a_door_the_coach_calls_clean(shown):
    for frame in shown:
        if (frame["expect"] or "").startswith("collect"):
            door = frame["expect"].split(" from ")[1]
            assert doors(frame)[door]["white"] == doors(frame)[door]["black"] == 0


def test_unpaired_trash_stays_as_the_coach_says(shown):
    index = next(i for i, f in enumerate(shown) if f["expect"] == "remove pairs from Red Tiger")
    before, after = doors(shown[index])["Red Tiger"], doors(shown[index + 1])["Red Tiger"]
    assert (before["white"], before["black"]) == (2, 1)
    assert (after["white"], after["black"]) == (1, 0)


def test_the_wild_brings_a_pair_back_onto_the_tigers(shown):
    index = next(i for i, f in enumerate(shown) if (f["expect"] or "").startswith("put"))
    removed_before = shown[index]["view"]["observation"]["removed"]
    removed_after = shown[index + 1]["view"]["observation"]["removed"]
    assert removed_after["white"] == removed_before["white"] - 1
    assert doors(shown[index + 1])["Red Lady"]["white"] == 0
    assert doors(shown[index + 1])["Blue Lady"]["black"] == 0


def test_each_move_acts_on_the_row_of_the_card_turned_up(shown):
    for frame in shown:
        card = frame["view"]["observation"]["revealed"]
        if frame["expect"] and card in ("Red Lady", "Blue Lady", "Red Tiger", "Blue Tiger"):
            assert card.split()[1] in frame["expect"], (card, frame["expect"])
