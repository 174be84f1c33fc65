"""The OpenSpiel adapter, audited by OpenSpiel's own checks and bots."""

from __future__ import annotations

import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import ladytiger  # noqa: E402
from ladytiger.rl.openspiel import register_all  # noqa: E402

register_all()


def spiel_name(game_config):
    name, options = game_config
    args = ",".join(f"{k}={v}" for k, v in options.items())
    return f"ladytiger_{name}({args})"


def test_every_game_is_registered_with_its_options():
    names = set(pyspiel.registered_names())
    for info in ladytiger.registered_games():
        assert f"ladytiger_{info.name}" in names
        spec = pyspiel.load_game(f"ladytiger_{info.name}").get_type().parameter_specification
        assert set(spec) == {o.name for o in info.all_options()}


def test_game_type_flags_are_truthful(game_config):
    game = pyspiel.load_game(spiel_name(game_config))
    info = next(i for i in ladytiger.registered_games() if i.name == game_config[0])
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    expected = (pyspiel.GameType.Information.IMPERFECT_INFORMATION
                if info.imperfect_information
                else pyspiel.GameType.Information.PERFECT_INFORMATION)
    assert kind.information == expected
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == game_config[1]["players"]


def test_openspiel_random_sim_test_passes(game_config):
    game = pyspiel.load_game(spiel_name(game_config))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_resample_from_infostate_keeps_the_information_state(game_config):
    game = pyspiel.load_game(spiel_name(game_config))
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        if player >= 0:
            key = state.information_state_string(player)
            for _ in range(3):
                assert state.resample_from_infostate(player, sampler).information_state_string(
                    player) == key
            action = rng.choice(state.legal_actions())
        else:
            outcomes = state.chance_outcomes()
            action = outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]
        state.apply_action(action)


def test_openspiel_python_search_bots_play_whole_games_against_ours(game_config):
    """IS-MCTS where information is hidden; plain MCTS where nothing is after setup."""
    game = pyspiel.load_game(spiel_name(game_config))
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=8, random_state=rng)
    else:
        bot = mcts.MCTSBot(game, 2.0, max_simulations=4, evaluator=evaluator,
                           random_state=rng)
    ours = ladytiger.load_bot("random", game_config[0], seed=2)
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player < 0:
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.choice(len(outcomes),
                                                   p=[p for _, p in outcomes])][0])
        elif player == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(ours.step(state.inner, player))
    assert len(state.returns()) == game.num_players()


CPP_BOT = """
import pyspiel, ladytiger.rl.openspiel
game = pyspiel.load_game("ladytiger_doors")
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 20, 10,
                        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
print("action", bot.step(state))
"""


def test_openspiel_cpp_ismcts_on_python_games():
    result = subprocess.run([sys.executable, "-c", CPP_BOT], capture_output=True, text=True,
                            timeout=120)
    if result.returncode == -11:
        pytest.xfail("pyspiel's C++ ISMCTSBot crashes (SIGSEGV) on Python-implemented games "
                     "even though our states provide resample_from_infostate: the C++ bot "
                     "does not call into Python for resampling")
    assert result.returncode == 0, result.stderr
    assert "action" in result.stdout
