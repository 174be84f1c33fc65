"""A state that moves on keeps its log folded as it goes (`State.log` folds the lines before
the run that may still grow once, and keeps them): read after every step, the log must be
exactly the log of a fresh state with the same history, for every viewer."""

from __future__ import annotations

import random

import pytest

import ladytiger
from ladytiger.core.log_parts import LogPart, settled
from ladytiger.core.playout import random_step
from ladytiger.core.state import replay_history

CONFIGURATIONS = [(info.name, options) for info in ladytiger.registered_games()
                  for options in info.configurations()[:2]]


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS,
                         ids=[f"{n}-{o}" for n, o in CONFIGURATIONS])
def test_a_log_read_at_every_step_reads_as_a_fresh_one(name, options):
    game = ladytiger.load_game(name, **options)
    viewers = [None, *range(game.num_players)]
    rng = random.Random(11)
    state = game.new_initial_state()
    for step in range(400):
        if state.is_terminal():
            break
        # Read at most steps by some viewers, and rarely by others, so that both long and
        # short stretches are folded at once.
        for viewer in viewers:
            if viewer is None or step % (viewer + 2) == 0:
                assert state.log(viewer) == replay_history(game, state.history()).log(viewer)
        state.apply_action(random_step(state, rng))
    for viewer in viewers:
        assert state.log(viewer) == replay_history(game, state.history()).log(viewer)


def merge(data):
    return f"{len(data)} cards"


def other_merge(data):
    return f"{len(data)} gems"


def test_the_run_that_may_still_grow_begins_after_the_last_line_of_another_kind():
    part = LogPart("deal", merge)
    lines = ["A line.", part, part, "Another line.", part, part, part]
    assert settled(lines, 0) == 4
    assert settled(lines, 5) == 5  # never before the place known to be settled
    assert settled(lines[:4], 0) == 4  # a plain last line: everything is settled
    mixed = [part, LogPart("deal", other_merge), LogPart("gems", merge)]
    assert settled(mixed, 0) == 2
    assert settled([], 0) == 0
