"""Finished contests and seasons are worded once per viewer and kept with the state
(`State.shown_records`): a view must read the same whether the state was viewed at every
step or only at the end, whoever looks, and a reader changing its view changes nothing."""

from __future__ import annotations

import random

import pytest

import ladytiger
from ladytiger.core.playout import random_step
from ladytiger.core.state import replay_history

# The games whose views carry finished records, with the field that holds them.
RECORDS = [("doors", {}, "past_contests"), ("traps", {"players": 3}, "past_seasons")]


@pytest.mark.parametrize(("name", "options", "field"), RECORDS)
@pytest.mark.parametrize("seed", range(4))
def test_records_read_alike_however_often_the_state_was_viewed(name, options, field, seed):
    game = ladytiger.load_game(name, **options)
    viewers = [None, *range(game.num_players)]
    rng = random.Random(seed)
    watched = game.new_initial_state()
    grew = False
    while not watched.is_terminal():
        for viewer in viewers:
            view = watched.observation(viewer, with_log=False)
            # A fresh state with the same history has worded nothing yet.
            fresh = replay_history(game, watched.history())
            assert view[field] == fresh.observation(viewer, with_log=False)[field]
            # A clone words its own, and agrees.
            assert watched.clone().observation(viewer, with_log=False)[field] == view[field]
            if view[field]:
                grew = True
                # A reader that changes its copy changes nothing for the next reader.
                view[field][0]["how"] = "tampered"
                view[field].append({"how": "added"})
        watched.apply_action(random_step(watched, rng))
    assert grew, "the game ended before any record was written: pick other seeds"


def test_each_viewer_reads_the_records_in_their_own_words():
    game = ladytiger.load_game("doors")
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.observation(None, with_log=False)["past_contests"]:
        state.apply_action(random_step(state, rng))
    spectator = state.observation(None, with_log=False)["past_contests"][0]["how"]
    seats = [state.observation(seat, with_log=False)["past_contests"][0]["how"]
             for seat in (0, 1)]
    # One of the two seats reads "You ..." where the spectator reads a seat's name.
    assert any(how.startswith("You") or " you" in how for how in seats)
    assert "You" not in spectator and " you" not in spectator
