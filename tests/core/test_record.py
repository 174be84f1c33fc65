"""Game records: save, load, and clear errors for anything malformed or tampered with."""

import json
import random

import pytest

import ladytiger
from ladytiger.core import RecordError
from ladytiger.core.playout import random_playout
from ladytiger.core.record import from_record, load, save, to_record


@pytest.fixture
def finished():
    return random_playout(ladytiger.load_game("doors").new_initial_state(), random.Random(5))


def test_record_holds_game_options_and_move_texts(finished):
    record = to_record(finished, {"event": "test"})
    assert record["format"] == "ladytiger-record" and record["version"] == 1
    assert record["game"] == "doors"
    assert record["options"]["gems_to_win"] == 10
    assert record["history"][0].startswith("deal ")
    assert record["metadata"]["event"] == "test"
    assert record["metadata"]["returns"] == finished.returns()


def test_save_and_load_round_trip(tmp_path, finished):
    path = tmp_path / "game.json"
    save(finished, path)
    assert load(path) == finished


def test_a_tampered_move_names_the_first_bad_entry(finished):
    record = to_record(finished)
    index = next(i for i, t in enumerate(record["history"]) if t.startswith("take "))
    taken = record["history"][index].removeprefix("take ")
    record["history"][index] = "discard " + taken
    with pytest.raises(RecordError, match=rf"history entry {index}: 'discard .*cannot be played"):
        from_record(record)


def test_an_impossible_deal_is_rejected():
    record = {"format": "ladytiger-record", "version": 1, "game": "doors", "options": {},
              "history": ["deal Red Lady to seat 0", "deal Red Lady to seat 1"]}
    with pytest.raises(RecordError, match="history entry 1: .*Red Lady Door is already dealt"):
        from_record(record)


def test_an_unknown_move_text_lists_what_was_possible():
    record = {"format": "ladytiger-record", "version": 1, "game": "doors", "options": {},
              "history": ["shuffle"]}
    with pytest.raises(RecordError, match="history entry 0: 'shuffle'.*deal Red Lady to seat 0"):
        from_record(record)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "a record must be a JSON object"),
        ({"format": "x"}, "lacks the field"),
        ({"format": "chess", "version": 1, "game": "doors", "options": {}, "history": []},
         "not a ladytiger record"),
        ({"format": "ladytiger-record", "version": 9, "game": "doors", "options": {},
          "history": []}, "version 9 is not supported"),
        ({"format": "ladytiger-record", "version": 1, "game": "go", "options": {},
          "history": []}, "no game called 'go'"),
        ({"format": "ladytiger-record", "version": 1, "game": "doors", "options": {"x": 1},
          "history": []}, "no option 'x'"),
        ({"format": "ladytiger-record", "version": 1, "game": "doors", "options": {},
          "history": [3]}, "history entry 0: expected a move text"),
        ({"format": "ladytiger-record", "version": 1, "game": "doors", "options": {},
          "history": [], "extra": 1}, "unknown field"),
    ],
)
def test_malformed_records_are_named(record, message):
    with pytest.raises(RecordError, match=message):
        from_record(record)


def test_corrupt_files_give_a_clear_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "ladytiger-record", ')
    with pytest.raises(RecordError, match="is not valid JSON"):
        load(path)
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")


def test_a_record_of_an_unfinished_game_replays_to_the_same_point():
    state = ladytiger.load_game("doors").new_initial_state()
    rng = random.Random(2)
    for _ in range(17):
        from ladytiger.core.playout import random_step

        state.apply_action(random_step(state, rng))
    assert from_record(json.loads(json.dumps(to_record(state)))) == state
