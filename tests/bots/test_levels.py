"""The four bot levels: they load everywhere, keep the no-peeking guarantee, the beginner never
plays nonsense, and a seeded arena run between levels replays exactly."""

from __future__ import annotations

import random
import time

import pytest

import ladytiger
from ladytiger.arena.tournament import parse_bots, run_arena
from ladytiger.bots import load_bot, registered_bots
from ladytiger.bots.advice import advise
from ladytiger.bots.base import CappedBudget
from ladytiger.bots.beginner import NONSENSE, BeginnerPolicy, nonsense
from ladytiger.bots.heuristics import Moves, policy_for
from ladytiger.bots.levels import EXPERT_CAP, LEVELS, hint_iterations, plan_for
from ladytiger.core import CHANCE, LadyTigerError, State
from ladytiger.core.playout import random_step, sample_chance
from tests.bots.test_bots import decision_points
from tests.helpers import new_game

GAMES = [info.name for info in ladytiger.registered_games()]
# Small budgets for the search levels keep these quick; the bot behind the level is the same.
QUICK = {"beginner": {}, "casual": {}, "strong": {"iterations": 12}, "expert": {"iterations": 24}}


def moves_of(state: State) -> Moves:
    legal = state.legal_actions()
    return Moves(legal, [state.action_to_string(action) for action in legal])


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_is_a_registered_bot(level):
    assert registered_bots()[level].startswith("level")


@pytest.mark.parametrize("game", GAMES)
def test_levels_load_for_every_game_and_player_count(game):
    info = ladytiger.load_game(game).info
    for players in range(info.min_players, info.max_players + 1):
        options = {"players": players} if info.min_players != info.max_players else {}
        loaded = ladytiger.load_game(game, **options)
        for level in LEVELS:
            bot = load_bot(level, loaded, seed=1)
            assert bot.plan == plan_for(game, level)
            if level in ("strong", "expert"):
                # The search levels stop at a deadline as well as at their iterations.
                assert bot.budget.seconds is not None and bot.budget.seconds <= EXPERT_CAP
                assert bot.budget.iterations


def test_the_levels_rise_in_budget_in_every_game():
    for game in GAMES:
        strong, expert = plan_for(game, "strong"), plan_for(game, "expert")
        assert strong.bot == expert.bot
        assert strong.options["iterations"] < expert.options["iterations"]
    assert plan_for("labyrinth", "expert").bot == "labyrinth_search"
    assert plan_for("hoard", "expert").bot == "hoard_planner"
    assert plan_for("doors", "casual").bot == "heuristic"
    with pytest.raises(LadyTigerError, match="there is no level 'genius'"):
        plan_for("doors", "genius")


def test_a_given_budget_replaces_the_levels_own():
    assert load_bot("expert", "doors", iterations=7).budget.iterations == 7
    assert load_bot("expert", "doors", iterations=7).budget.seconds is None
    assert load_bot("strong", "favor", seconds=0.2).budget.seconds == 0.2


def test_a_capped_budget_stops_at_the_deadline_before_its_iterations():
    state = decision_points("traps", 1)[1]
    bot = load_bot("ismcts", "traps", seed=1)
    bot.budget = CappedBudget(iterations=10**6, seconds=0.05)
    started = time.perf_counter()
    bot.step(state, state.current_player())
    assert time.perf_counter() - started < 1.0
    assert 1 <= bot.last_iterations < 10**6
    assert str(bot.budget) == "1000000 iterations/move, at most 0.05 s"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_each_level_decides_the_same_on_a_state_and_on_a_resample(game, level):
    checked = 0
    for seed in (1, 2, 3):
        for state in decision_points(game, seed):
            seat = state.current_player()
            other = state.resample(seat, random.Random(seed * 100 + checked))
            real = load_bot(level, game, seed=11, **QUICK[level]).step(state, seat)
            drawn = load_bot(level, game, seed=11, **QUICK[level]).step(other, seat)
            assert real == drawn, f"the {level} bot read a hidden fact in {game}"
            checked += 1
    assert checked


# ---------------------------------------------------------------------------- the beginner
def beginner_positions(game: str, games: int, seed: int):
    """(state, seat) at each of the beginner's real choices, in games where the beginner
    holds every seat: where its own slips take it, it still must not play nonsense."""
    for index in range(games):
        rng = random.Random(seed * 1000 + index)
        bot = load_bot("beginner", game, seed=index)
        state = ladytiger.load_game(game).new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 400:
            steps += 1
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            if len(state.legal_actions()) > 1:
                yield state, player, bot
            state.apply_action(bot.step(state, player))


@pytest.mark.parametrize("game", GAMES)
def test_the_beginner_never_plays_nonsense_and_the_list_is_not_empty(game):
    flagged = 0
    decisions = 0
    for state, seat, _ in beginner_positions(game, 6, seed=3):
        offered = moves_of(state)
        view = state.observation(seat, with_log=False)
        bad = nonsense(game, view, offered)
        flagged += bool(bad)
        decisions += 1
        choice = load_bot("beginner", game, seed=decisions).step(state, seat)
        assert choice not in bad, (
            f"the {game} beginner played {state.action_to_string(choice)!r}, listed as "
            "nonsense")
    assert decisions > 10
    # Each game's list must catch something in real play, or this test could not fail.
    assert flagged, f"no nonsense move was ever on offer in {game}"


def test_a_blind_doors_guess_after_the_first_take_is_nonsense():
    """The Guesser's first decision comes after one take, which says next to nothing about
    the Collector's door: every guess there is listed, and the beginner makes none."""
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game("doors")
        while state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        state.apply_action(load_bot("heuristic", "doors").step(state, state.current_player()))
        while state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        seat = state.current_player()
        view = state.observation(seat, with_log=False)
        assert len(view["collected"]) == 1
        offered = moves_of(state)
        guesses = {action for action, _ in offered.starting("guess ")}
        assert guesses and guesses <= nonsense("doors", view, offered)
        for number in range(20):
            assert load_bot("beginner", "doors", seed=number).step(state, seat) not in guesses


def test_a_shady_lady_beginner_always_calls_try_with_a_combination():
    rule = NONSENSE["shady_lady"]
    offered = Moves([0, 1, 2], ["jack seat 1", "draw", "try"])
    view = {"viewer": 0, "phase": "turn", "hands": [[1, 2, 3], [None, None, None]]}
    assert rule(view, offered) == {0, 1}


def test_the_beginner_slips_from_the_rules_of_thumb_but_not_always():
    differs = same = 0
    rules = policy_for("favor")
    policy = BeginnerPolicy("favor")
    for state, seat, _ in beginner_positions("favor", 4, seed=5):
        view = state.observation(seat, with_log=False)
        offered = moves_of(state)
        if policy(view, offered, random.Random(differs + same)) == rules(
                view, offered, random.Random(0)):
            same += 1
        else:
            differs += 1
    assert differs and same > differs


# ---------------------------------------------------------------------------- the arena
def test_a_small_seeded_arena_run_between_levels_replays_exactly():
    game = ladytiger.load_game("favor", players=2)
    bots = parse_bots("beginner,casual,strong:iterations=8")

    def run():  # type: ignore[no-untyped-def]
        return run_arena(game, bots, games=6, seed=4, jobs=1).outcome_key()

    assert run() == run()


# ---------------------------------------------------------------------------- hints
def test_a_hint_at_a_level_searches_with_that_levels_budget():
    state = decision_points("doors", 2)[1]
    seat = state.current_player()
    casual = advise(state, seat, seed=3, level="casual")
    assert casual.search is None
    assert hint_iterations("doors", "strong") == plan_for("doors", "strong").options[
        "iterations"]
    strong = advise(state, seat, seed=3, level="strong")
    assert strong.search is not None
    assert strong.search.simulations == hint_iterations("doors", "strong")
    assert strong.action == casual.action  # the suggestion is the rules of thumb's
    with pytest.raises(LadyTigerError, match="no level"):
        advise(state, seat, seed=3, level="wizard")


def test_random_nonsense_is_what_the_random_bot_plays():
    """The lists are not vacuous: a random player plays listed nonsense in every game with
    opponents (so the beginner's never doing so is a property of the beginner)."""
    for game in ("doors", "favor", "shady_lady", "labyrinth"):
        hits = 0
        for state in decision_points(game, 4, wanted=40, horizon=400):
            seat = state.current_player()
            bad = nonsense(game, state.observation(seat, with_log=False), moves_of(state))
            hits += random_step(state, random.Random(hits)) in bad
        assert hits, game


# ---------------------------------------------------------------------------- the server, the CLI
@pytest.mark.parametrize("level", LEVELS)
def test_a_table_may_seat_a_level_but_not_tune_it(level):
    from ladytiger.web.bot_options import allowed_options, check_options, lenient_options
    from ladytiger.web.protocol import ProtocolError

    assert allowed_options(level) == {}
    check_options(level, {}, "seat 1")
    with pytest.raises(ProtocolError, match="takes no option 'seconds'"):
        check_options(level, {"seconds": 1.0}, "seat 1")
    # A stored table whose level carries options (hand-edited, say) still loads, untuned.
    assert lenient_options(level, {"iterations": 99})[0] == {}


@pytest.mark.parametrize("bot", ["random", "heuristic", "ismcts", "labyrinth_search",
                                 "hoard_planner"])
def test_the_bots_older_tables_name_are_still_offered_with_their_options(bot):
    from ladytiger.web.bot_options import allowed_options

    assert "seconds" in allowed_options(bot)


def test_the_cli_plays_against_a_level():
    from typer.testing import CliRunner

    from ladytiger.cli.main import app

    answers = "\n".join(["1"] * 400) + "\n"
    result = CliRunner().invoke(app, ["play", "doors", "--seed", "2", "--bot", "beginner"],
                                input=answers)
    assert result.exit_code == 0, result.output
    assert "wins" in result.output
    listed = CliRunner().invoke(app, ["bots"])
    for level in LEVELS:
        assert f"{level}: level" in listed.output


def test_the_balance_lab_and_the_arena_name_players_by_level():
    from ladytiger.arena.lab import parse_mix

    mix = parse_mix("expert/casual")
    assert [spec.name for spec in mix.seats(4)] == ["expert", "casual", "casual", "casual"]
    assert [spec.name for spec in parse_bots("beginner,strong")] == ["beginner", "strong"]
