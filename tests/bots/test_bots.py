"""Every bot, in every registered game: legal moves, seeded choices, and no peeking.

A bot may use what its seat observes, the legal moves and states drawn with
`resample(seat, rng)`. So a bot given the same seed must make the same choice on the true
state and on any resample of it: a choice that changed would have read a hidden card.
"""

from __future__ import annotations

import random

import pytest

import ladytiger
from ladytiger.bots import load_bot, registered_bots
from ladytiger.core import CHANCE, LadyTigerError, State
from ladytiger.core.playout import random_step, sample_chance

GAMES = [info.name for info in ladytiger.registered_games()]

# Small budgets keep the suite quick; the choice must still be a search's, not a default.
# Each entry: (label, bot name, options, games it plays or None for all).
VARIANTS: list[tuple[str, str, dict[str, object], set[str] | None]] = [
    ("random", "random", {}, None),
    ("heuristic", "heuristic", {}, None),
    ("ismcts", "ismcts", {"iterations": 24, "rollout_limit": 60, "rollout": "random"}, None),
    ("ismcts-heuristic-playouts", "ismcts",
     {"iterations": 12, "rollout_limit": 40, "rollout": "heuristic"}, None),
    ("ismcts-weighted-worlds", "ismcts",
     {"iterations": 12, "rollout_limit": 40, "worlds": 6, "depth": 0}, None),
    ("labyrinth_search", "labyrinth_search", {"iterations": 60}, {"labyrinth"}),
    ("hoard_planner", "hoard_planner", {"iterations": 12}, {"hoard"}),
]
# hoard_clairvoyant is told the deck order by design, so it is not in the no-peeking test.
OPTIONS = {label: options for label, _, options, _ in VARIANTS}
CASES = [
    (game, label, name, options)
    for game in GAMES
    for label, name, options, only in VARIANTS
    if only is None or game in only
]


def decision_points(game: str, seed: int, wanted: int = 4, horizon: int = 160) -> list[State]:
    """Positions from one random game where a seat has a real choice, spread over the game."""
    rng = random.Random(seed)
    state = ladytiger.load_game(game).new_initial_state()
    found: list[State] = []
    for _ in range(horizon):
        if state.is_terminal():
            break
        if state.current_player() != CHANCE and len(state.legal_actions()) > 1:
            found.append(state.clone())
        state.apply_action(random_step(state, rng))
    if len(found) <= wanted:
        return found
    step = len(found) / wanted
    return [found[int(i * step)] for i in range(wanted)]


def test_every_bot_is_registered_with_a_summary():
    bots = registered_bots()
    for name in ("random", "heuristic", "ismcts", "labyrinth_search", "hoard_planner",
                 "hoard_clairvoyant"):
        assert bots.get(name)


def test_an_unknown_bot_is_named_with_the_choices():
    with pytest.raises(LadyTigerError, match="there is no bot called 'genius'.*ismcts"):
        load_bot("genius", "doors")


def test_a_budget_is_iterations_or_seconds_not_both():
    with pytest.raises(LadyTigerError, match="not both"):
        load_bot("ismcts", "doors", iterations=10, seconds=1)
    with pytest.raises(LadyTigerError, match="at least 1"):
        load_bot("ismcts", "doors", iterations=0)
    with pytest.raises(LadyTigerError, match="bad options for the ismcts bot"):
        load_bot("ismcts", "doors", wisdom=3)


def test_budget_texts_name_their_unit():
    assert str(load_bot("ismcts", "doors", iterations=50).budget) == "50 iterations/move"
    assert str(load_bot("ismcts", "doors", seconds=0.5).budget) == "0.5 s/move"


def test_a_time_budget_stops_the_search_in_time():
    import time

    state = decision_points("doors", 1)[0]
    bot = load_bot("ismcts", "doors", seed=1, seconds=0.05)
    started = time.perf_counter()
    bot.step(state, state.current_player())
    assert time.perf_counter() - started < 0.5
    assert bot.last_iterations >= 1


@pytest.mark.parametrize("game", GAMES)
def test_the_heuristic_bot_knows_every_registered_game(game):
    load_bot("heuristic", game)


@pytest.mark.parametrize(("game", "label", "bot", "options"), CASES,
                         ids=[f"{case[1]}-{case[0]}" for case in CASES])
def test_choices_survive_resampling_the_hidden_state(game, label, bot, options):
    checked = 0
    for seed in (1, 2):
        for state in decision_points(game, seed):
            seat = state.current_player()
            other = state.resample(seat, random.Random(seed * 1000 + checked))
            assert other.observation(seat) == state.observation(seat)
            real = load_bot(bot, game, seed=7, **options).step(state, seat)
            drawn = load_bot(bot, game, seed=7, **options).step(other, seat)
            assert real == drawn, (
                f"{label} chose {state.action_to_string(real)!r} on the true state but "
                f"{other.action_to_string(drawn)!r} on a resample: it read a hidden fact"
            )
            checked += 1
    assert checked, "no decision points found"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bot", ["random", "heuristic", "ismcts"])
def test_bots_make_legal_seeded_moves_for_a_stretch_of_play(game, bot):
    """Each seat played by the bot for up to 60 moves: legal, and the same for one seed."""

    def run() -> list[int]:
        rng = random.Random(5)
        instance = load_bot(bot, game, seed=3, **OPTIONS[bot])
        state = ladytiger.load_game(game).new_initial_state()
        moves = []
        while not state.is_terminal() and len(moves) < 60:
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            action = instance.step(state, state.current_player())
            assert state.illegal_reason(action) is None
            state.apply_action(action)
            moves.append(action)
        return moves

    assert run() == run()


def test_a_bot_refuses_to_move_out_of_turn():
    state = decision_points("doors", 1)[0]
    seat = state.current_player()
    for bot in ("random", "heuristic", "ismcts"):
        with pytest.raises(LadyTigerError, match="not seat"):
            load_bot(bot, "doors").step(state, 1 - seat)


@pytest.mark.parametrize("bot", ["random", "heuristic", "ismcts"])
def test_a_bot_refuses_a_finished_game_and_a_chance_node(bot):
    state = ladytiger.load_game("doors").new_initial_state()
    with pytest.raises(LadyTigerError, match="not seat"):
        load_bot(bot, "doors").step(state, CHANCE)  # the deal comes first
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(random_step(state, rng))
    for seat in (0, state.current_player()):
        with pytest.raises(LadyTigerError, match="the game is over"):
            load_bot(bot, "doors").step(state, seat)


def test_ismcts_checks_its_playout_choice():
    with pytest.raises(LadyTigerError, match="rollout must be one of"):
        load_bot("ismcts", "doors", rollout="smart")
    with pytest.raises(LadyTigerError, match="between 0 and 1"):
        load_bot("ismcts", "doors", rollout_epsilon=1.5)


def test_a_playout_cut_short_is_scored_by_the_standings():
    from ladytiger.bots.ismcts import standing

    assert standing([5, 2]) == [1.0, 0.0]
    assert standing([3, 3]) == [0.5, 0.5]
    shares = standing([9, 1, 1, 4])  # first beats 3, last beats 2, the middle two tie
    assert shares == pytest.approx([1 / 2, 1 / 12, 1 / 12, 1 / 3])
    assert sum(shares) == pytest.approx(1.0)
