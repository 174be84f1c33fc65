"""A replay lists each step as the viewer chosen saw it: what they did not know is told in
their own log's words, and a step they learnt later (a Door shown at a contest's end) is
named in full from then on."""

from __future__ import annotations

from ladytiger.core.record import to_record
from ladytiger.web.replays import replay_steps, replay_view
from tests.helpers import random_game


def played(game: str, seed: int, **options) -> dict:
    return to_record(random_game(game, seed, **options))


def hidden_at(record: dict, step: int, viewer: int | None) -> dict[int, str]:
    return {entry["index"]: entry["seen"]
            for entry in replay_view(record, step, viewer)["hidden"]}


def test_cards_put_out_face_down_are_named_only_to_the_seat_that_put_them_out():
    record = played("tighee", 1, players=3)
    steps = replay_steps(record)
    put_outs = [step for step in steps if step["text"].startswith("put out ")]
    assert len(put_outs) == 3 * 3 * 5  # three rounds, five cards a seat
    for step in put_outs:
        card = step["text"].removeprefix("put out ")
        seen = step["seen"]
        assert len(seen) == 4  # the spectator, then seats 0-2
        for slot, words in enumerate(seen):
            if slot == step["actor"] + 1:
                assert words is None  # their own card, named in the record's text
            else:
                assert words == f"Seat {step['actor']} puts out a card face down."
                assert card not in words
    # A trick's cards are played face up: nobody's list hides them.
    plays = [step for step in steps if step["text"].startswith("play ")]
    assert plays and all(step["seen"] is None for step in plays)
    # The view of any step says the same of the steps before it (the Forest cards' owners
    # are never shown).
    middle = put_outs[20]["index"] + 1
    for viewer in (None, 0, 1, 2):
        hidden = hidden_at(record, middle, viewer)
        for step in put_outs:
            if step["index"] < middle and step["actor"] != viewer:
                assert hidden[step["index"]] == step["seen"][0 if viewer is None else viewer + 1]
            else:
                assert step["index"] not in hidden


def test_a_door_hidden_when_dealt_is_named_once_the_contest_shows_it():
    record = played("doors", 4, gems_to_win=1)
    steps = replay_steps(record)
    dealt = next(step for step in steps
                 if step["actor"] == -1 and step["text"].endswith("to seat 1"))
    card = " ".join(dealt["text"].split()[1:3])
    # Right after the deal seat 0 and the spectator see only that a Door was dealt; seat 1
    # sees its own.
    for viewer in (None, 0):
        words = hidden_at(record, dealt["index"] + 1, viewer)[dealt["index"]]
        assert card not in words and "Door" in words
    assert dealt["index"] not in hidden_at(record, dealt["index"] + 1, 1)
    # Once the contest is over everyone knows it, so the list names it from every view.
    assert dealt["index"] not in hidden_at(record, len(steps), 0)
    assert dealt["seen"] is None
