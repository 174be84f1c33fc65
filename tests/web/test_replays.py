"""A replay lists each step as the viewer chosen saw it: what they did not know is told in
their own log's words, and a step they learnt later (a Door shown at a contest's end) is
named in full from then on."""

from __future__ import annotations

import random

import ladytiger
from ladytiger.core.playout import sample_chance
from ladytiger.core.record import to_record
from ladytiger.web.replays import replay_steps, replay_view


def played(game: str, seed: int, **options) -> dict:
    rng = random.Random(seed)
    state = ladytiger.load_game(game, **options).new_initial_state()
    while not state.is_terminal():
        if state.current_player() < 0:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return to_record(state)


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
                assert words is not None and card not in words
                assert words.startswith(f"Seat {step['actor']} ")
    # A trick's cards are played face up: nobody's list hides them.
    plays = [step for step in steps if step["text"].startswith("play ")]
    assert plays and all(step["seen"] is None for step in plays)
    # At the end the Forest cards' owners are still secret (the rules never show them).
    for viewer in (None, 0, 1, 2):
        hidden = set(replay_view(record, len(steps), viewer)["hidden"])
        others = {step["index"] for step in put_outs if step["actor"] != viewer}
        mine = {step["index"] for step in put_outs if step["actor"] == viewer}
        assert others <= hidden and not mine & hidden


def test_a_door_hidden_when_dealt_is_named_once_the_contest_shows_it():
    record = played("doors", 4, gems_to_win=1)
    steps = replay_steps(record)
    # Seat 1's Door, dealt face down: seat 0 and the spectator see only that it was dealt.
    dealt = next(step for step in steps
                 if step["actor"] == -1 and step["text"].endswith("to seat 1"))
    assert dealt["seen"][0] is not None and dealt["seen"][1] is not None
    assert dealt["seen"][2] is None
    assert " ".join(dealt["text"].split()[1:3]) not in dealt["seen"][1]
    # Right after the deal seat 0 does not know it; once the contest is over, it does.
    assert dealt["index"] in replay_view(record, dealt["index"] + 1, 0)["hidden"]
    assert dealt["index"] not in replay_view(record, len(steps), 0)["hidden"]
