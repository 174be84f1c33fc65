"""The core contract, checked for every registered game in every configuration.

Each property drives random games whose every choice comes from hypothesis, so a failure
shrinks to a short history. A game is covered the day it is registered.
"""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ladytiger
from ladytiger.core import CHANCE, TERMINAL, IllegalActionError, State
from ladytiger.core.playout import random_step
from ladytiger.core.record import from_record, to_record

# Long games are cut short in the per-step checks; whole games are played elsewhere.
STEP_LIMIT = 400


def new_state(game_config: tuple[str, dict[str, object]]) -> State:
    name, options = game_config
    return ladytiger.load_game(name, **options).new_initial_state()


def play(state: State, rng: random.Random, steps: int = STEP_LIMIT) -> State:
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(random_step(state, rng))
    return state


def viewers(state: State) -> list[int | None]:
    return [*range(state.num_players()), None]


@given(rng=st.randoms(use_true_random=False))
def test_every_step_keeps_the_contract(game_config, rng):
    state = new_state(game_config)
    conserved = state.conserved()
    assert conserved, "a game must declare what it conserves"
    for _ in range(STEP_LIMIT):
        player = state.current_player()
        legal = state.legal_actions()
        assert legal == sorted(set(legal))
        if player == TERMINAL:
            assert legal == []
            assert state.chance_outcomes() == []
            break
        assert legal, "a live state must offer a move"
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
            assert all(p > 0 for _, p in outcomes)
            assert sorted(o for o, _ in outcomes) == legal
        else:
            assert 0 <= player < state.num_players()
            assert state.chance_outcomes() == []
        texts = [state.action_to_string(a) for a in legal]
        assert len(set(texts)) == len(texts), "two moves share a text"
        for action, text in zip(legal, texts, strict=True):
            assert state.string_to_action(text) == action
            assert state.illegal_reason(action) is None
        assert state.conserved() == conserved
        state.apply_action(random_step(state, rng))


@given(rng=st.randoms(use_true_random=False))
def test_illegal_actions_are_explained_and_change_nothing(game_config, rng):
    state = play(new_state(game_config), rng, steps=rng.randrange(60))
    if state.is_terminal():
        return
    space = (
        state.game.max_chance_outcomes()
        if state.current_player() == CHANCE
        else state.game.num_distinct_actions()
    )
    legal = set(state.legal_actions())
    before = state.clone()
    for action in [a for a in range(space) if a not in legal] + [-1, space, 10**9]:
        reason = state.illegal_reason(action)
        assert isinstance(reason, str) and reason.strip()
        with pytest.raises(IllegalActionError) as caught:
            state.apply_action(action)
        assert caught.value.reason == reason
        assert state == before


@given(rng=st.randoms(use_true_random=False))
def test_state_is_determined_by_options_and_history(game_config, rng):
    state = play(new_state(game_config), rng, steps=rng.randrange(STEP_LIMIT))
    replayed = state.game.new_initial_state()
    for action in state.history():
        replayed.apply_action(action)
    assert replayed == state
    for viewer in viewers(state):
        assert replayed.observation(viewer) == state.observation(viewer)
    assert replayed.returns() == state.returns()


@given(rng=st.randoms(use_true_random=False))
def test_clones_are_independent(game_config, rng):
    state = play(new_state(game_config), rng, steps=rng.randrange(STEP_LIMIT))
    twin = state.clone()
    assert twin == state
    frozen_state = state.clone()
    play(twin, rng, steps=30)
    assert state == frozen_state, "playing a clone changed the original"
    frozen_twin = twin.clone()
    play(state, rng, steps=30)
    assert twin == frozen_twin, "playing the original changed its clone"


@given(rng=st.randoms(use_true_random=False))
def test_records_round_trip(game_config, rng):
    state = play(new_state(game_config), rng, steps=rng.randrange(STEP_LIMIT))
    record = json.loads(json.dumps(to_record(state)))
    assert from_record(record) == state


@given(rng=st.randoms(use_true_random=False))
def test_observations_are_json_and_leak_nothing(game_config, rng):
    state = play(new_state(game_config), rng, steps=rng.randrange(STEP_LIMIT))
    draw = random.Random(rng.random())
    for viewer in viewers(state):
        view = state.observation(viewer)
        assert json.loads(json.dumps(view)) == view
        for _ in range(4):
            other = state.resample(viewer, draw)
            assert other.current_player() == state.current_player()
            assert other.observation(viewer) == view, "an observation depends on hidden facts"
            if viewer is not None and state.current_player() == viewer:
                assert other.legal_actions() == state.legal_actions()


def test_resampling_really_varies_hidden_facts(game_config):
    """Guard for the no-leak test: a resample must redraw what is hidden, not copy it."""
    rng = random.Random(7)
    info = next(i for i in ladytiger.registered_games() if i.name == game_config[0])
    if not info.imperfect_information:
        pytest.skip(f"{info.name} hides nothing after setup")
    varied = False
    for _ in range(30):
        state = play(new_state(game_config), rng, steps=rng.randrange(8, 60))
        if state.is_terminal():
            continue
        seat = rng.randrange(state.num_players())
        draws = [state.resample(seat, rng) for _ in range(12)]
        if any(d != state for d in draws):
            varied = True
            break
    assert varied, "resample never changed anything hidden from a seat"


@given(rng=st.randoms(use_true_random=False))
def test_whole_games_end_with_sound_returns(game_config, rng):
    state = new_state(game_config)
    limit = state.game.max_game_length()
    steps = 0
    while not state.is_terminal():
        state.apply_action(random_step(state, rng))
        steps += 1
        assert steps <= limit, "max_game_length() is not an upper bound"
    returns = state.returns()
    assert len(returns) == state.num_players()
    assert all(0.0 <= r <= 1.0 for r in returns)
    assert math.isclose(sum(returns), 1.0) or sum(returns) == 0.0
    assert len(state.scores()) == state.num_players()
