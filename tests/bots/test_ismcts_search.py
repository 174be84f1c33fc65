"""IS-MCTS's search settings: how far an iteration looks, how deep its own moves are
searched, and when the search may overrule the rules of thumb."""

from __future__ import annotations

import random

import pytest

import ladytiger
from ladytiger.bots import load_bot
from ladytiger.bots.heuristics import round_points
from ladytiger.bots.ismcts import Node
from ladytiger.bots.opponent_model import JUDGE_WORLDS, PRIOR
from ladytiger.core import CHANCE, LadyTigerError
from ladytiger.core.playout import random_step, sample_chance
from tests.bots.test_bots import decision_points


def test_doors_and_tighee_are_searched_a_round_at_a_time_and_other_games_to_the_end():
    assert round_points("doors") == 6  # a Collector's set is the largest swing
    assert round_points("tighee") == 100  # a Tighee of 8
    for game in ("doors", "tighee"):
        assert load_bot("ismcts", game).horizon == "round"
    for game in ("traps", "favor", "shady_lady"):
        assert round_points(game) == 0
        assert load_bot("ismcts", game).horizon == "game"
    assert load_bot("ismcts", "doors", horizon="game").horizon == "game"
    with pytest.raises(LadyTigerError, match="Traps has no rounds to stop at"):
        load_bot("ismcts", "traps", horizon="round")
    with pytest.raises(LadyTigerError, match="horizon must be auto, game or round"):
        load_bot("ismcts", "doors", horizon="forever")


def test_a_round_is_valued_by_the_points_each_seat_gained_against_the_others():
    bot = load_bot("ismcts", "doors")
    state = ladytiger.load_game("doors").new_initial_state()
    # The gems are the Doors scores; set by hand (the rules would take many moves).
    state.gems = (9, 4)
    # Seat 0 gained 6 (a set), seat 1 nothing: the best a round can be for seat 0.
    assert bot._round_value(state, [3, 4]) == [1.0, 0.0]
    # A wrong guess: 4 to seat 1.
    state.gems = (3, 8)
    assert bot._round_value(state, [3, 4]) == pytest.approx([1 / 6, 5 / 6])
    assert bot._round_value(state, [3, 8]) == [0.5, 0.5]


def test_a_round_that_ends_the_game_is_valued_by_the_result():
    game = ladytiger.load_game("tighee", players=3)
    bot = load_bot("ismcts", game)
    state = game.new_initial_state()
    rng = random.Random(5)
    start = state.scores()
    # Midway the round's points decide; once the game is over only winning counts.
    while not state.is_terminal() and state.scores() == start:
        state.apply_action(random_step(state, rng))
    assert not state.is_terminal()
    assert bot._ended_value(state, start) == bot._round_value(state, start)
    last = state.scores()
    while not state.is_terminal():
        state.apply_action(random_step(state, rng))
    assert bot._ended_value(state, last) == state.returns()
    assert bot._round_value(state, last) != state.returns()


def own_edges_below_the_root(root: Node, seat: int) -> int:
    found, stack = 0, list(root.children.values())
    while stack:
        node = stack.pop()
        found += sum(1 for player, _ in node.edges if player == seat)
        stack.extend(node.children.values())
    return found


@pytest.mark.parametrize("game", ["doors", "traps"])
def test_past_its_depth_the_searching_seat_follows_the_rules_of_thumb(game):
    captured: dict[str, Node] = {}
    for state in decision_points(game, seed=2, wanted=3):
        seat = state.current_player()
        for depth in (0, 1):
            bot = load_bot("ismcts", state.game, seed=5, iterations=150, depth=depth)
            original = bot.best_action

            def spy(root, seat_, legal, original=original, depth=depth):
                captured[str(depth)] = root
                return original(root, seat_, legal)

            bot.best_action = spy  # type: ignore[method-assign]
            bot.step(state, seat)
        assert own_edges_below_the_root(captured["1"], seat) == 0
        if own_edges_below_the_root(captured["0"], seat):
            break
    else:
        pytest.fail("the unlimited search never searched a later move of its own")
    with pytest.raises(LadyTigerError, match="depth must not be negative"):
        load_bot("ismcts", game, depth=-1)


def root_with(edges: dict[int, tuple[int, float]], seat: int = 0) -> Node:
    root = Node()
    for action, (visits, mean) in edges.items():
        root.edges[(seat, action)] = [visits, visits * mean, visits]
    return root


def test_the_search_overrules_the_rules_of_thumb_only_when_clearly_better():
    bot = load_bot("ismcts", "doors", margin=0.05, confidence=2.0)
    # 0.60 against 0.50 over 400 and 200 visits: a standard error of about 0.043, so the
    # gap of 0.10 is over two of them.
    assert bot._clearly_better(root_with({1: (400, 0.60), 2: (200, 0.50)}), 0, 1, 2)
    # The same gap over 40 and 20 visits is noise.
    assert not bot._clearly_better(root_with({1: (40, 0.60), 2: (20, 0.50)}), 0, 1, 2)
    # Within the margin, however many visits.
    assert not bot._clearly_better(root_with({1: (9000, 0.54), 2: (9000, 0.50)}), 0, 1, 2)
    # A sensible move the search never tried counts as fully uncertain.
    assert not bot._clearly_better(root_with({1: (400, 0.90)}), 0, 1, 2)
    assert load_bot("ismcts", "doors", margin=0.05, confidence=0.0)._clearly_better(
        root_with({1: (40, 0.60), 2: (20, 0.50)}), 0, 1, 2)
    with pytest.raises(LadyTigerError, match="margin and confidence must not be negative"):
        load_bot("ismcts", "doors", confidence=-1.0)


def test_a_game_may_suit_the_search_with_its_own_defaults():
    doors = load_bot("ismcts", "doors")
    assert (doors.depth, doors.worlds, doors.prior, doors.judges) == (1, 0, 0.5, 8)
    traps = load_bot("ismcts", "traps")
    assert (traps.depth, traps.worlds, traps.prior, traps.judges) == (0, 48, PRIOR, JUDGE_WORLDS)
    assert load_bot("ismcts", "doors", depth=0, worlds=16).worlds == 16
    assert load_bot("ismcts", "doors", prior=0.8, judges=2).prior == 0.8


def test_the_search_starts_from_its_prior_about_each_opponent():
    game = ladytiger.load_game("doors")
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state, random.Random(3)))
    assert state.current_player() == 0 and len(state.legal_actions()) > 1
    # Seat 1 has made no choice yet, so the odds are the prior itself.
    for prior in (0.5, 0.8):
        bot = load_bot("ismcts", game, seed=1, iterations=5, prior=prior)
        bot.step(state, 0)
        assert bot.policy_odds[1] == pytest.approx(prior)
    with pytest.raises(LadyTigerError, match="prior must lie strictly between 0 and 1"):
        load_bot("ismcts", game, prior=1.0)
    with pytest.raises(LadyTigerError, match="judges must be at least 1"):
        load_bot("ismcts", game, judges=0)


def test_labyrinth_is_searched_with_short_random_playouts_judged_by_the_race():
    from ladytiger.bots.heuristics.labyrinth import evaluate

    bot = load_bot("ismcts", "labyrinth")
    assert (bot.rollout, bot.rollout_limit) == ("random", 8)
    assert bot.evaluate is evaluate
    state = ladytiger.load_game("labyrinth").new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.legal_actions()[0])
    even = evaluate(state.observation(0))
    assert even == pytest.approx([0.5, 0.5])  # the start is symmetric
    # Carry seat 0's cubs onto its Tiger door in the view: seat 0 now leads the race.
    view = state.observation(0)
    colour, goal = view["seat_colours"][0], view["goal_doors"][0]
    total = sum(square["cubs"][colour] for row in view["grid"] for square in row)
    for row in view["grid"]:
        for square in row:
            square["cubs"][colour] = total if square["cell"] == goal else 0
    ahead = evaluate(view)
    assert ahead[0] > 0.9 and ahead[1] == pytest.approx(1.0 - ahead[0])
    # A playout cut at once is the evaluation of where it stands.
    cut = load_bot("ismcts", "labyrinth", rollout_limit=0)
    cut._seat = 0
    assert cut._playout(state.clone(), cut.rng, None) == evaluate(state.observation(0))
    assert load_bot("ismcts", "doors").evaluate is None


def test_tighee_is_searched_with_random_playouts_and_searched_opponents():
    bot = load_bot("ismcts", "tighee")
    assert (bot.rollout, bot.policy, bot.opponents, bot.horizon) == (
        "random", None, "search", "round")
    # Asked for, the rules-of-thumb playouts are still there.
    assert load_bot("ismcts", "tighee", rollout="heuristic").policy is not None
    # The levels keep the search's defaults: only the budget differs.
    expert = load_bot("expert", ladytiger.load_game("tighee", players=3))
    assert (expert.inner.rollout, expert.inner.budget.iterations) == ("random", 6000)
