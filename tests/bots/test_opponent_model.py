"""The search's model of its opponents: the odds that each plays by the rules of thumb."""

from __future__ import annotations

import random

import pytest

import ladytiger
from ladytiger.bots import load_bot
from ladytiger.bots.heuristics import policy_for
from ladytiger.bots.opponent_model import FLOOR, PRIOR, policy_odds
from ladytiger.core import CHANCE
from ladytiger.core.playout import sample_chance


def play_against(game: str, opponent: str, decisions: int, seed: int = 3, **options):
    """A game in which seat 0 moves at random and seat 1 is `opponent`, until seat 1 has
    made `decisions` choices with more than one move (or the game ends)."""
    state = ladytiger.load_game(game, **options).new_initial_state()
    rng = random.Random(seed)
    bot = load_bot(opponent, state.game, seed=seed)
    made = 0
    while not state.is_terminal() and made < decisions:
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if player == 1:
            made += len(legal) > 1
            state.apply_action(bot.step(state, 1))
        else:
            state.apply_action(rng.choice(legal))
    return state


def odds_of_seat_1(state) -> float:
    policy = policy_for(state.game.info.name)
    return policy_odds(state, 0, policy, random.Random(9))[1]


def test_before_any_choice_an_opponent_is_taken_to_play_sensibly():
    state = play_against("doors", "heuristic", decisions=0)
    assert odds_of_seat_1(state) == pytest.approx(PRIOR)


@pytest.mark.parametrize(("game", "options"), [("doors", {}), ("traps", {"players": 2}),
                                               ("favor", {"players": 2})])
def test_the_odds_follow_what_the_opponent_does(game, options):
    sensible = odds_of_seat_1(play_against(game, "heuristic", decisions=20, **options))
    careless = odds_of_seat_1(play_against(game, "random", decisions=20, **options))
    # Both move away from the prior (0.8): up for the sensible player, well down for the
    # careless one (a short random game of Traps shows little: its cards go face down).
    assert sensible > 0.9
    assert careless < 0.5
    assert careless >= FLOOR and sensible <= 1 - FLOOR


@pytest.mark.parametrize("game", ["doors", "shady_lady", "tighee"])
def test_the_odds_read_nothing_the_seat_cannot_see(game):
    """Odds computed on the true state and on a resample of it agree: only what seat 0 saw
    of seat 1's moves can have moved them."""
    state = play_against(game, "heuristic", decisions=6)
    assert not state.is_terminal()
    other = state.resample(0, random.Random(4))
    policy = policy_for(game)
    assert policy_odds(state, 0, policy, random.Random(9)) == policy_odds(
        other, 0, policy, random.Random(9)
    )


def test_the_search_uses_the_odds_it_found():
    state = play_against("doors", "random", decisions=8, seed=2)
    while state.current_player() != 0:
        assert not state.is_terminal()
        state.apply_action(sample_chance(state, random.Random(1)) if state.current_player()
                           == CHANCE else state.legal_actions()[0])
    bot = load_bot("ismcts", state.game, seed=1, iterations=20)
    bot.step(state, 0)
    assert bot.policy_odds[1] < 0.2
    fixed = load_bot("ismcts", state.game, seed=1, iterations=20, opponents="policy")
    fixed.step(state, 0)
    assert fixed.policy_odds == {1: 1.0}
