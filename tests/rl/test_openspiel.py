"""The OpenSpiel adapter, audited by OpenSpiel's own checks and bots, and held to
OpenSpiel's conventions (honest observers, pickling, zero-sum option, pyspiel.Bot)."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import ladytiger  # noqa: E402
from ladytiger.core import LadyTigerError  # noqa: E402
from ladytiger.rl.openspiel import (  # noqa: E402
    RolloutEvaluator,
    SpielBot,
    _replay,
    make_bot,
    register_all,
)

register_all()


def spiel_name(game_config, **extra):
    name, options = game_config
    args = ",".join(f"{k}={v}" for k, v in {**options, **extra}.items())
    return f"ladytiger_{name}({args})"


def play_randomly(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_game_is_registered_with_its_options():
    names = set(pyspiel.registered_names())
    for info in ladytiger.registered_games():
        assert f"ladytiger_{info.name}" in names
        spec = pyspiel.load_game(f"ladytiger_{info.name}").get_type().parameter_specification
        expected = {o.name for o in info.all_options()}
        if info.min_players <= 2 <= info.max_players:
            expected.add("zero_sum")
        assert set(spec) == expected


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
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.num_players() == game_config[1]["players"]
    assert kind.provides_information_state_tensor == (game.info_state is not None)


def test_openspiel_random_sim_test_passes(game_config):
    game = pyspiel.load_game(spiel_name(game_config))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_information_state_tensor_is_real_or_refused(game_config):
    game = pyspiel.load_game(spiel_name(game_config))
    state = play_randomly(game.new_initial_state(), np.random.RandomState(2), 40)
    if not game.get_type().provides_information_state_tensor:
        with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
            state.information_state_tensor(0)
        return
    tensor = np.asarray(state.information_state_tensor(0))
    observation = np.asarray(state.observation_tensor(0))
    assert tensor.shape == (game.information_state_tensor_size(),)
    assert np.array_equal(tensor[: observation.size], observation)
    assert tensor[observation.size:].any(), "the history part is empty after 40 steps"


def test_the_information_state_has_perfect_recall(game_config):
    """Each of a seat's decisions has its own information state (string and tensor): what
    was seen earlier is never forgotten, so no two points of one game look alike."""
    game = pyspiel.load_game(spiel_name(game_config))
    offers_tensor = game.get_type().provides_information_state_tensor
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    strings, tensors = [], []
    while not state.is_terminal() and len(strings) < 60:
        if state.is_chance_node():
            play_randomly(state, rng, 1)
            continue
        if state.current_player() == 0:
            strings.append(state.information_state_string(0))
            if offers_tensor:
                tensors.append(np.asarray(state.information_state_tensor(0)).tobytes())
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(set(strings)) == len(strings)
    assert len(set(tensors)) == len(tensors)


def test_resample_from_infostate_keeps_the_information_state(game_config):
    game = pyspiel.load_game(spiel_name(game_config))
    offers_tensor = game.get_type().provides_information_state_tensor
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        if player >= 0:
            key = state.information_state_string(player)
            tensor = state.information_state_tensor(player) if offers_tensor else None
            for _ in range(3):
                drawn = state.resample_from_infostate(player, sampler)
                # Built afresh from the drawn history: the drawn state itself carries the
                # strings over, so asking it would check nothing.
                fresh = _replay(game, drawn.inner.history())
                assert fresh.information_state_string(player) == key
                assert fresh.observation_string(player) == state.observation_string(player)
                assert drawn.information_state_string(player) == key
                assert drawn.history() == drawn.inner.history()
                # pyspiel's record of who took each step is the drawn game's, as a replay's.
                assert [(step.player, step.action) for step in drawn.full_history()] == [
                    (step.player, step.action) for step in fresh.full_history()
                ]
                if offers_tensor:
                    assert drawn.information_state_tensor(player) == tensor
            action = rng.choice(state.legal_actions())
        else:
            outcomes = state.chance_outcomes()
            action = outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]
        state.apply_action(action)


def test_verbs_answered_in_python_give_pyspiels_answers(game_config):
    """legal_actions, is_chance_node and information_state_string are answered in Python
    for speed: the same answers as pyspiel's own way (through C++), at every step."""
    game = pyspiel.load_game(spiel_name(game_config))
    players = game.num_players()
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    for _ in range(80):
        fresh = _replay(game, state.history())  # no strings kept yet
        assert state.is_chance_node() == pyspiel.State.is_chance_node(fresh)
        assert state.legal_actions() == pyspiel.State.legal_actions(fresh)
        for player in range(players):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(fresh, player)
            assert state.information_state_string(player) == (
                pyspiel.State.information_state_string(fresh, player)
            )
        current = state.current_player()
        if current >= 0:
            assert state.information_state_string() == fresh.information_state_string(current)
            with pytest.raises(pyspiel.SpielError):
                pyspiel.State.legal_actions(fresh, -1)
            with pytest.raises(pyspiel.SpielError):
                state.legal_actions(-1)
        with pytest.raises(pyspiel.SpielError):
            state.information_state_string(players)
        if state.is_terminal():
            break
        play_randomly(state, rng, 1)


def test_a_resampled_state_is_a_whole_pyspiel_state():
    """A drawn state gets pyspiel's record of steps in one piece: it clones, serialises
    and counts its moves as a state played step by step does."""
    game = pyspiel.load_game("ladytiger_traps(players=3,max_seasons=2)")
    state = play_randomly(game.new_initial_state(), np.random.RandomState(4), 20)
    assert not state.is_terminal()
    with pytest.raises(pyspiel.SpielError, match="a seat"):
        state.resample_from_infostate(-4, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    while state.is_chance_node():
        play_randomly(state, np.random.RandomState(6), 1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    player = state.current_player()
    drawn = state.resample_from_infostate(player, sampler)
    replayed = _replay(game, drawn.inner.history())
    assert drawn.move_number() == replayed.move_number() == len(drawn.history())
    twin = drawn.clone()
    assert twin.history() == drawn.history() and twin.inner.history() == drawn.history()
    assert twin.information_state_string(player) == state.information_state_string(player)
    back = game.deserialize_state(drawn.serialize())
    assert back.history() == drawn.history() and back.inner.history() == drawn.history()
    play_randomly(twin, np.random.RandomState(5), 30)
    assert drawn.history() == replayed.history()  # the twin is a separate game


def test_public_observations_carry_nothing_private(game_config):
    """Redraw every hidden card (a spectator's resample) and the public tensor and string
    stay the same; the private ones change somewhere (the redraw did swap cards)."""
    game = pyspiel.load_game(spiel_name(game_config))
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    rng = np.random.RandomState(4)
    draw = random.Random(4)
    private_changed = False
    state = game.new_initial_state()
    for _ in range(12):
        play_randomly(state, rng, 7)
        if state.is_terminal():
            break
        swapped = game.new_initial_state()
        swapped.inner = state.inner.resample(None, draw)
        for seat in range(game.num_players()):
            public.set_from(state, seat)
            before = public.tensor.copy()
            public.set_from(swapped, seat)
            assert np.array_equal(public.tensor, before)
            assert public.string_from(state, seat) == public.string_from(swapped, seat)
            private.set_from(state, seat)
            mine = private.tensor.copy()
            private.set_from(swapped, seat)
            private_changed |= not np.array_equal(private.tensor, mine)
    if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
        assert private_changed


def test_unoffered_observation_types_are_refused():
    game = pyspiel.load_game("ladytiger_doors")
    with pytest.raises(ValueError, match="public information"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                          public_info=False))
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


@pytest.mark.parametrize("name", ["doors", "labyrinth", "favor(players=2)", "traps(players=2)",
                                  "shady_lady(players=2,turn_limit=30)"])
def test_zero_sum_returns_are_plus_and_minus_one(name):
    game = pyspiel.load_game(f"ladytiger_{name[:-1]},zero_sum=True)" if "(" in name
                             else f"ladytiger_{name}(zero_sum=True)")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.min_utility() == -1.0 and game.max_utility() == 1.0
    assert game.utility_sum() == 0.0
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    rng = np.random.RandomState(7)
    seen = set()
    for _ in range(6):
        state = play_randomly(game.new_initial_state(), rng, 100_000)
        returns = state.returns()
        assert sum(returns) == 0.0
        general = state.inner.returns()
        assert returns[0] == general[0] - general[1]
        seen.add(returns[0])
    assert seen <= {-1.0, 0.0, 1.0}
    if name != "labyrinth":  # random Labyrinth games run out of turns: draws
        assert seen & {-1.0, 1.0}


def test_zero_sum_is_off_by_default_and_needs_two_players():
    assert pyspiel.load_game("ladytiger_doors").get_type().utility == (
        pyspiel.GameType.Utility.GENERAL_SUM)
    with pytest.raises(Exception, match="two players"):
        pyspiel.load_game("ladytiger_favor(players=3,zero_sum=True)")


def test_games_and_states_pickle():
    game = pyspiel.load_game("ladytiger_favor(players=3)")
    copy = pickle.loads(pickle.dumps(game))
    assert str(copy) == str(game) and copy.num_players() == 3
    state = play_randomly(game.new_initial_state(), np.random.RandomState(1), 30)
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)
    assert again.observation_tensor(2) == state.observation_tensor(2)


def test_native_action_to_string_refuses_the_openspiel_argument_order():
    state = pyspiel.load_game("ladytiger_doors").new_initial_state()
    play_randomly(state, np.random.RandomState(0), 3)
    action = state.legal_actions()[0]
    player = state.current_player()
    with pytest.raises(TypeError, match="player by keyword"):
        state.inner.action_to_string(player, action)
    assert state.inner.action_to_string(action, player=player) == state.action_to_string(
        player, action)


def test_load_bot_takes_our_pyspiel_games_and_refuses_others():
    bot = ladytiger.load_bot("heuristic", pyspiel.load_game("ladytiger_doors"), seed=1)
    assert bot.game == ladytiger.load_game("doors")
    with pytest.raises(LadyTigerError, match="does not provide"):
        ladytiger.load_bot("random", pyspiel.load_game("kuhn_poker"))
    with pytest.raises(LadyTigerError, match="needs a ladytiger game"):
        ladytiger.load_bot("random", 42)


def bot_games():
    """Each bot with the first game it accepts."""
    pairs = []
    from ladytiger.bots.registry import registered_bots

    for name in registered_bots():
        if name == "hoard_clairvoyant":
            continue  # an upper bound told the deck order before play, not a player
        for info in ladytiger.registered_games():
            try:
                ladytiger.load_bot(name, info.name, seed=0, iterations=4)
            except LadyTigerError:
                continue
            pairs.append((name, info.name))
            break
    return pairs


@pytest.mark.parametrize(("bot", "game_name"), bot_games())
def test_every_bot_is_a_pyspiel_bot(bot, game_name):
    game = pyspiel.load_game(f"ladytiger_{game_name}")
    bots = [make_bot(bot, game, seat, seed=seat, iterations=4)
            for seat in range(game.num_players())]
    assert all(isinstance(b, pyspiel.Bot) for b in bots)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert len(returns) == game.num_players()


def test_a_spiel_bot_plays_the_seat_it_was_given():
    game = pyspiel.load_game("ladytiger_doors")
    bot = SpielBot("random", game, player_id=1, seed=3)
    state = game.new_initial_state()
    play_randomly(state, np.random.RandomState(0), 3)
    while state.current_player() != 1:
        play_randomly(state, np.random.RandomState(1), 1)
    assert bot.step(state) in state.legal_actions()


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
    ours = make_bot("random", game, 1, seed=2)
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player < 0:
            play_randomly(state, rng, 1)
        elif player == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(ours.step(state) if player == 1
                               else rng.choice(state.legal_actions()))
    assert len(state.returns()) == game.num_players()


def test_our_rollout_evaluator_drives_openspiel_ismcts():
    game = pyspiel.load_game("ladytiger_doors(gems_to_win=2,zero_sum=True)")
    evaluator = RolloutEvaluator(2, seed=1)
    state = game.new_initial_state()
    play_randomly(state, np.random.RandomState(0), 6)
    while state.is_chance_node():
        play_randomly(state, np.random.RandomState(0), 1)
    values = evaluator.evaluate(state)
    assert values.shape == (2,) and values.sum() == 0.0
    assert sum(p for _, p in evaluator.prior(state)) == pytest.approx(1.0)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=20,
                           random_state=np.random.RandomState(2))
    assert bot.step(state) in state.legal_actions()


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
