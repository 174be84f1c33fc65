"""The `ladytiger` command: play, learn, simulate, replay and listings."""

import json
import re

import pytest
from typer.testing import CliRunner

from ladytiger.cli.main import app
from ladytiger.lessons import LESSON_GAMES, frames, lesson_for

runner = CliRunner()


def test_games_lists_every_registered_game():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "doors" in result.output


def test_play_a_whole_game_by_numbers_and_save_it(tmp_path):
    path = tmp_path / "game.json"
    answers = "\n".join(["1"] * 400) + "\n"
    result = runner.invoke(app, ["play", "doors", "--seed", "4", "--save", str(path)],
                           input=answers)
    assert result.exit_code == 0, result.output
    assert "wins" in result.output
    record = json.loads(path.read_text())
    assert record["game"] == "doors" and record["metadata"]["human_seat"] == 0


def test_play_explains_a_rejected_move_and_asks_again():
    answers = "take Lady/Pirate\n" + "take Blue/Red\n" * 3 + "\n".join(["1"] * 400) + "\n"
    result = runner.invoke(app, ["play", "doors", "--seed", "1"], input=answers)
    assert "'take Lady/Pirate' is not a move of Doors here; the moves now are" in result.output


def test_play_explains_an_illegal_but_well_formed_move():
    # With seed 1 the first display holds no Blue/Red (checked by the message itself).
    answers = "discard Red Lady\n" + "\n".join(["1"] * 400) + "\n"
    result = runner.invoke(app, ["play", "doors", "--seed", "1"], input=answers)
    assert "you cannot discard Red Lady: discarding is the Guesser's move" in result.output


def test_play_gives_a_hint_and_asking_for_one_changes_nothing_else():
    moves = "\n".join(["1"] * 400) + "\n"
    plain = runner.invoke(app, ["play", "doors", "--seed", "3"], input=moves)
    hinted = runner.invoke(app, ["play", "doors", "--seed", "3"], input="hint\n?\n" + moves)
    assert hinted.exit_code == 0, hinted.output
    hints = [line for line in hinted.output.splitlines() if "hint:" in line]
    assert len(hints) == 2, hinted.output
    # The first position offers take Red Lady, take Blue Lady, take Blue/Red: the hint names
    # one of them by its number and text, with the rule of thumb behind it.
    assert re.search(r"hint: [1-3] take (Red Lady|Blue Lady|Blue/Red): \w", hints[0])
    # Apart from the hints, the same game: the deal and the bots' moves did not change.
    def without_hints(output: str) -> list[str]:
        return [line for line in output.splitlines() if line.startswith("·")]
    assert without_hints(hinted.output) == without_hints(plain.output)


def test_play_rejects_bad_options_with_the_rule():
    result = runner.invoke(app, ["play", "doors", "-o", "gems_to_win=0"])
    assert result.exit_code == 2
    assert "gems_to_win" in result.output


def test_simulate_prints_statistics_and_writes_json(tmp_path):
    out = tmp_path / "sim.json"
    result = runner.invoke(app, ["simulate", "doors", "-n", "50", "--seed", "3", "--json",
                                 str(out)])
    assert result.exit_code == 0, result.output
    assert "win share" in result.output and "game length" in result.output
    data = json.loads(out.read_text())
    assert data["games"] == 50
    assert abs(sum(data["win_share"]) - 1.0) < 1e-9


def test_simulate_is_deterministic_in_its_seed(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path in (first, second):
        runner.invoke(app, ["simulate", "doors", "-n", "30", "--seed", "9", "--json", str(path)])
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert a["win_share"] == b["win_share"] and a["length"] == b["length"]


def test_replay_steps_through_a_saved_game(tmp_path):
    path = tmp_path / "game.json"
    runner.invoke(app, ["play", "doors", "--seed", "4", "--save", str(path)],
                  input="\n".join(["1"] * 400) + "\n")
    result = runner.invoke(app, ["replay", str(path), "--no-step"])
    assert result.exit_code == 0, result.output
    assert "deal " in result.output and "wins" in result.output
    stepped = runner.invoke(app, ["replay", str(path), "--seat", "1"], input="\n\nb\nq\n")
    assert stepped.exit_code == 0
    assert "after 2 of" in stepped.output and "after 1 of" in stepped.output


def test_replay_from_a_seat_tells_others_secret_cards_without_naming_them(tmp_path):
    from ladytiger.core.record import save
    from tests.helpers import random_game

    state = random_game("tighee", 5, players=3)
    path = tmp_path / "tighee.json"
    save(state, path)
    history = json.loads(path.read_text())["history"]
    put_outs = {i: state.actors()[i] for i, text in enumerate(history)
                if text.startswith("put out")}

    def listed(output: str) -> dict[int, str]:
        """The numbered lines of the listing: entry index -> its words."""
        found = (re.match(r"\s*(\d+) (.*)$", line) for line in output.splitlines())
        return {int(m.group(1)) - 1: m.group(2) for m in found if m}

    watched = runner.invoke(app, ["replay", str(path), "--seat", "0", "--no-step"],
                            env={"COLUMNS": "200"})
    assert watched.exit_code == 0, watched.output
    lines = listed(watched.output)
    # Seat 0's own cards are named; the others' are told as seat 0 saw them.
    for index, seat in put_outs.items():
        if seat == 0:
            assert lines[index] == history[index]
        else:
            assert lines[index] == f"Seat {seat} puts out a card face down."
    # With no seat chosen the record is named in full.
    whole = listed(runner.invoke(app, ["replay", str(path), "--no-step"]).output)
    assert all(whole[index] == history[index] for index in put_outs)


def test_replay_of_a_corrupt_record_names_the_problem(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("not json")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "is not valid JSON" in result.output


def lesson_answers(game: str) -> list[str]:
    """What a learner types to follow a lesson: each move the coach asks for, and Enter after
    each position the coach speaks about (but the last)."""
    shown = frames(lesson_for(game))
    return [f["expect"] if f["expect"] else "" for f in shown[:-1]
            if f["expect"] or f["say"]]


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_learn_plays_each_guided_game_to_its_end(game):
    lesson = lesson_for(game)
    result = runner.invoke(app, ["learn", game], input="\n".join(lesson_answers(game)) + "\n")
    assert result.exit_code == 0, result.output
    assert lesson.title in result.output
    words = " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())  # the coach's box undone
    assert " ".join(lesson.outro.split()) in words
    assert f"ladytiger play {game} --bot beginner" in result.output


def test_learn_answers_a_move_the_lesson_does_not_ask_for():
    # By text, then by number, then something that is no move at all.
    answers = ["jack seat 1", "1", "xyzzy", *lesson_answers("shady_lady")]
    result = runner.invoke(app, ["learn", "shady_lady"], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Not this time: in this lesson, draw.") == 2
    assert "xyzzy is not a move here" in result.output


def test_learn_stops_cleanly_when_the_input_ends():
    result = runner.invoke(app, ["learn", "doors"], input="")
    assert result.exit_code == 1 and "lesson left" in result.output


def test_learn_of_an_unknown_game_names_the_games_with_a_lesson():
    result = runner.invoke(app, ["learn", "chess"])
    assert result.exit_code == 2
    assert "no guided game of 'chess'" in result.output and "shady_lady" in result.output


def test_learn_without_a_game_lists_the_guided_games():
    result = runner.invoke(app, ["learn"])
    assert result.exit_code == 0
    for game in LESSON_GAMES:
        assert f"ladytiger learn {game}" in result.output
