"""The speed paths agree with the reference rules, in every game and configuration.

`apply_action` trusts a game's `_is_legal` look-up before falling back to `illegal_reason`;
a look-up that vouched for an illegal move would let it through, so each one is checked
against `legal_actions()` on random games, numbers outside the action space included.
"""

from __future__ import annotations

import random

import pytest

import ladytiger
from ladytiger.core import CHANCE, State
from ladytiger.core.playout import random_step

GAMES_PER_CONFIG = 3
STEPS_PER_GAME = 250


def walk(name: str, options: dict[str, object], seed: int) -> list[State]:
    """The states of one random game (cut at STEPS_PER_GAME), each one a copy."""
    rng = random.Random(seed)
    state = ladytiger.load_game(name, **options).new_initial_state()
    states = []
    for _ in range(STEPS_PER_GAME):
        states.append(state.clone())
        if state.is_terminal():
            break
        state.apply_action(random_step(state, rng))
    return states


def space(state: State) -> range:
    player = state.current_player()
    game = state.game
    size = game.max_chance_outcomes() if player == CHANCE else game.num_distinct_actions()
    return range(-2, size + 2)


def test_quick_legality_vouches_only_for_legal_moves(game_config):
    name, options = game_config
    for seed in range(GAMES_PER_CONFIG):
        for state in walk(name, options, seed):
            legal = set(state.legal_actions())
            vouched = {a for a in [*space(state), 10**9] if state._is_legal(a)}
            assert vouched <= legal, f"{name}: _is_legal accepts illegal {vouched - legal}"
            # A game's look-up covers a step wholly or not at all (then the reference decides).
            assert vouched in (set(), legal), f"{name}: _is_legal misses {legal - vouched}"
            assert state.is_terminal() == (state.current_player() == -4)


def test_terminal_states_vouch_for_nothing(game_config):
    name, options = game_config
    state, rng = walk(name, options, 0)[-1], random.Random(1)
    while not state.is_terminal():
        state.apply_action(random_step(state, rng))
    assert not any(state._is_legal(a) for a in range(-2, 200))


@pytest.mark.parametrize("difficulty", ["easy", "moderate", "hard", "impossible"])
def test_hoard_shared_legal_lists_match_its_rule(difficulty):
    # Hoard keeps the legal list of each position key; the rule `_forbid` stays the judge.
    for seed in range(4):
        for state in walk("hoard", {"difficulty": difficulty}, seed):
            if state.current_player() == 0:
                expected = [a for a in state._candidates() if state._forbid(a) is None]
                assert state.legal_actions() == expected


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_traps_offered_moves_are_exactly_those_its_rule_allows(players):
    # Traps offers only cards in hand; `_refusal` alone decides legality.
    for seed in range(3):
        for state in walk("traps", {"players": players}, seed):
            if state.current_player() >= 0:
                expected = [a for a in range(44) if state._refusal(a) is None]
                assert state.legal_actions() == expected


def test_labyrinth_kept_occupancy_and_switch_lists_match_the_rule():
    # Labyrinth keeps a mask of cells with cubs and lists switches from a table of pairs;
    # both must agree with the cubs on the grid and with `_switch_fault`, the rule.
    from ladytiger.games.labyrinth import CELLS, NUM_ACTIONS, SWITCH

    for seed in range(3):
        for state in walk("labyrinth", {}, seed):
            occupied = sum(
                1 << cell for cell in range(CELLS) if state.cubs[0][cell] or state.cubs[1][cell]
            )
            assert state.occupied() == occupied
            if state.phase in ("move a cub", "move the labyrinth") and state.placed == 12:
                expected = [
                    a for a in range(SWITCH, NUM_ACTIONS) if state._switch_fault(a) is None
                ]
                assert state.legal_switches() == expected


def test_doors_deck_counts_are_the_cards_not_yet_seen():
    # Doors keeps the deck's contents per kind instead of deriving them every refill.
    from ladytiger.games.lady_tiger_cards import CLUE_COUNTS

    for seed in range(6):
        for state in walk("doors", {}, seed):
            assert list(state.deck_counts) == [
                total - shown - taken - thrown
                for total, shown, taken, thrown in zip(
                    CLUE_COUNTS, state.display, state.collected, state.discarded, strict=True
                )
            ]
            assert sum(state.deck_counts) == state.deck


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 4, "random_first_lead": True},
                                     {"players": 3, "mode": "short"}])
def test_tighee_undealt_list_is_the_undealt_mask(options):
    # Tighee keeps its undealt cards as a sorted list too, for the deal's chance outcomes.
    from ladytiger.games.tighee import cards_in

    for seed in range(2):
        for state in walk("tighee", options, seed):
            assert state.undealt_cards == cards_in(state.undealt)


def test_favor_card_points_table_is_the_trait_rule():
    from ladytiger.games.favor import TRAIT_POINTS, card_points
    from ladytiger.games.lady_tiger_cards import IDENTITIES, shared_traits

    for card in IDENTITIES:
        for door in IDENTITIES:
            assert card_points(card, door) == TRAIT_POINTS[shared_traits(card, door)]
