"""Labyrinth's switch rules as players' aids ask them (rulebook "Switching Cards"): where one
switch may carry a card and its cubs, and where the gems lie after a switch. The answers must
be the engine's own: checked against its legal switches and their outcomes."""

from __future__ import annotations

import random

import ladytiger
from ladytiger.core import CHANCE
from ladytiger.core.playout import random_step, sample_chance
from ladytiger.games.labyrinth import (
    CELL_NAMES,
    gems_after_switch,
    switch_destinations,
    switch_mates,
    switch_partners,
)

INDEX = {name: cell for cell, name in enumerate(CELL_NAMES)}


def cells(*names: str) -> set[int]:
    return {INDEX[name] for name in names}


def test_a_card_trades_places_with_clue_cells_in_its_row_or_column_only():
    assert set(switch_partners(INDEX["B2"])) == cells("A2", "C2", "D2", "B1", "B3", "B4")
    # Row 1 holds two Doors: B1 pairs with C1 in its row, and the rest of its column.
    assert set(switch_partners(INDEX["B1"])) == cells("C1", "B2", "B3", "B4")
    for door in ("A1", "D1", "A4", "D4"):
        assert switch_partners(INDEX[door]) == ()


def test_the_gems_name_the_cards_a_switch_may_move():
    mates = switch_mates("Blue", "Lady")
    assert mates["Blue Tiger"] == {"Blue Lady", "Blue Tiger"}  # by colour only
    assert mates["Red Lady"] == {"Red Lady", "Blue Lady"}  # by role only
    assert mates["Blue Lady"] == {"Red Lady", "Blue Lady", "Blue Tiger"}  # either card
    assert mates["Red Tiger"] == frozenset()  # neither Switch card may move it


def test_a_switch_moves_its_own_gem_and_identical_cards_move_both():
    assert gems_after_switch("Blue/Red", "Blue Lady", "Blue Tiger", "Blue", "Lady") == (
        "Red", "Lady")
    assert gems_after_switch("Lady/Tiger", "Red Lady", "Blue Lady", "Blue", "Lady") == (
        "Blue", "Tiger")
    assert gems_after_switch("Lady/Tiger", "Blue Lady", "Blue Lady", "Blue", "Lady") == (
        "Red", "Tiger")


def test_the_answers_are_the_engines_legal_switches_and_their_outcomes():
    game = ladytiger.load_game("labyrinth")
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 300:
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            view = state.observation(player, with_log=False)
            if view["phase"] == "move the labyrinth":
                squares = [square for row in view["grid"] for square in row]
                cards = [square["card"] for square in squares]
                yellow, white = view["switches"]["Blue/Red"], view["switches"]["Lady/Tiger"]
                legal = [(action, state.describe_action(action)) for action in
                         state.legal_actions()]
                for cell, square in enumerate(squares):
                    if not any(square["cubs"].values()):
                        continue  # a legal switch needs a cub on one of its cards
                    paired = {INDEX[name] for _, fields in legal if CELL_NAMES[cell]
                              in fields["cells"] for name in fields["cells"]} - {cell}
                    assert set(switch_destinations(cell, cards, yellow, white)) == paired
                for action, fields in legal:
                    first, second = (cards[INDEX[name]] for name in fields["cells"])
                    child = state.clone()
                    child.apply_action(action)
                    after = child.observation(player, with_log=False)
                    gems = (after["switches"]["Blue/Red"], after["switches"]["Lady/Tiger"])
                    assert gems_after_switch(fields["switch"], first, second, yellow,
                                             white) == gems
                    checked += 1
            state.apply_action(random_step(state, rng))
    assert checked > 1000
