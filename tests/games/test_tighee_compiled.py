"""The compiled Tighee engine plays exactly the reference game (tighee.py), step by step.

Seeded random games of every mode are driven through both engines at once: every legal
list, chance outcome (with its probability), return, score, history and actor must agree,
and at random points the compiled state, converted to the reference, must show every seat
the same observation. In CI the extension must be built: a missing one fails, never skips.
"""

from __future__ import annotations

import copy
import os
import random

import pytest

import ladytiger
from ladytiger.core import CHANCE, IllegalActionError
from ladytiger.games.tighee_compiled import compiled_available, load_compiled_tighee

if not compiled_available():
    if os.environ.get("CI"):
        raise RuntimeError("the compiled Tighee extension was not built (pip install -e .)")
    pytest.skip("the compiled Tighee extension is not built here", allow_module_level=True)

CONFIGS = [
    {"players": 3},
    {"players": 4},
    {"players": 3, "mode": "short"},
    {"players": 3, "random_first_lead": True},
    {"players": 4, "random_first_lead": True},
    {"players": 3, "mode": "short", "random_first_lead": True},
]
GAMES_PER_CONFIG = 25


def config_id(options: dict[str, object]) -> str:
    return ",".join(f"{key}={value}" for key, value in options.items())


def assert_same(fast, reference) -> None:
    assert fast.current_player() == reference.current_player()
    assert fast.is_terminal() == reference.is_terminal()
    assert fast.legal_actions() == reference.legal_actions()
    assert fast.chance_outcomes() == reference.chance_outcomes()
    assert fast.returns() == reference.returns()
    assert fast.scores() == reference.scores()
    assert fast.history() == reference.history()
    assert fast.actors() == reference.actors()


@pytest.mark.parametrize("options", CONFIGS, ids=config_id)
def test_random_games_agree_step_by_step(options):
    fast_game = load_compiled_tighee(**options)
    reference_game = ladytiger.load_game("tighee", **options)
    for seed in range(GAMES_PER_CONFIG):
        rng = random.Random(seed)
        fast, reference = fast_game.new_initial_state(), reference_game.new_initial_state()
        looks = {rng.randrange(reference_game.max_game_length()) for _ in range(2)}
        step = 0
        while True:
            assert_same(fast, reference)
            if step in looks:
                converted = fast.to_reference()
                assert converted == reference
                for seat in [None, *range(reference_game.num_players)]:
                    assert fast.observation(seat) == reference.observation(seat)
            if reference.is_terminal():
                break
            if reference.current_player() == CHANCE:
                outcomes = reference.chance_outcomes()
                action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(reference.legal_actions())
            fast.apply_action(action)
            reference.apply_action(action)
            step += 1
        assert step == reference_game.max_game_length()


def test_illegal_moves_are_refused_with_the_reference_words_and_change_nothing():
    game = load_compiled_tighee(players=4)
    rng = random.Random(5)
    state = game.new_initial_state()
    tried = 0
    while not state.is_terminal():
        if rng.random() < 0.1:
            legal = set(state.legal_actions())
            for action in [rng.randrange(-3, 130), 10**30, True, "play Red 1", 1.0]:
                if action in legal and type(action) is int:
                    continue
                reference = state.to_reference()
                with pytest.raises(IllegalActionError) as expected:
                    reference.apply_action(action)
                before = state.history()
                with pytest.raises(IllegalActionError) as refused:
                    state.apply_action(action)
                assert refused.value.reason == expected.value.reason
                assert refused.value.action == expected.value.action
                assert refused.value.text == expected.value.text
                assert state.history() == before
                tried += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert tried > 20
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(0)


def test_clones_are_independent_and_keep_their_type():
    game = load_compiled_tighee(players=3)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(70):
        state.apply_action(rng.choice(state.legal_actions()))
    twin = state.clone()
    assert type(twin) is type(state) and twin == state and twin.game is state.game
    twin.apply_action(twin.legal_actions()[0])
    assert twin != state and len(state.history()) == 70
    assert copy.deepcopy(state) == state


def test_texts_and_resampling_come_from_the_reference():
    game = load_compiled_tighee(players=3)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.current_player() == CHANCE or len(state.history()) < 80:
        state.apply_action(rng.choice(state.legal_actions()))
    reference = state.to_reference()
    seat = state.current_player()
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        reference.action_to_string(a) for a in reference.legal_actions()
    ]
    text = state.action_to_string(state.legal_actions()[0])
    assert state.string_to_action(text) == state.legal_actions()[0]
    assert state.log(seat) == reference.log(seat)
    drawn = state.resample(seat, random.Random(1))
    assert type(drawn) is type(state)
    assert drawn.observation(seat) == state.observation(seat)


def test_the_compiled_game_has_the_reference_options_and_errors():
    game = load_compiled_tighee(players=3, mode="short")
    assert game == ladytiger.load_game("tighee", players=3, mode="short")
    with pytest.raises(ladytiger.core.BadOptionError):
        load_compiled_tighee(players=4, mode="short")
