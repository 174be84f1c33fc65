"""Labyrinth, rule by rule (rulebook section "Labyrinth"; rulings in docs/rules/labyrinth.md)."""

from __future__ import annotations

import json
import random

import pytest
from rich.console import Console

import ladytiger
from ladytiger.cli.views.labyrinth import render
from ladytiger.core import CHANCE, TERMINAL, IllegalActionError, UnknownActionError
from ladytiger.core.playout import random_playout
from ladytiger.core.record import from_record, to_record
from tests.helpers import legal_texts, new_game, play, reason

# A layout lists the twelve Clue cards in the order they are placed, row by row from the top,
# skipping the Doors in the corners: B1 C1 / A2 B2 C2 D2 / A3 B3 C3 D3 / B4 C4.
#
#         A              B             C             D
#  1  [Red Lady]     Blue Lady     Red Tiger    [Blue Lady]
#  2   Blue Tiger    Blue Lady     Blue Tiger    Red Lady
#  3   Red Tiger     Red Lady      Blue Lady     Red Tiger
#  4  [Blue Tiger]   Blue Tiger    Red Lady     [Red Tiger]
MAZE = (
    "Blue Lady", "Red Tiger",
    "Blue Tiger", "Blue Lady", "Blue Tiger", "Red Lady",
    "Red Tiger", "Red Lady", "Blue Lady", "Red Tiger",
    "Blue Tiger", "Red Lady",
)
# Like MAZE, but two Red Ladies stand at B1 and B2.
RED_LADIES = (
    "Red Lady", "Blue Lady",
    "Blue Tiger", "Red Lady", "Blue Tiger", "Blue Lady",
    "Red Tiger", "Red Lady", "Blue Lady", "Red Tiger",
    "Blue Tiger", "Red Tiger",
)
# Two Red Tigers at B1 and C1, the cards next to the red start.
RED_TIGERS = (
    "Red Tiger", "Red Tiger",
    "Blue Tiger", "Blue Lady", "Blue Tiger", "Red Lady",
    "Red Tiger", "Red Lady", "Blue Lady", "Blue Lady",
    "Blue Tiger", "Red Lady",
)
PLACED_CELLS = ("B1", "C1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3", "B4", "C4")


def labyrinth(layout=MAZE, **options):
    """A game at seat 0's first move, the grid built from `layout`."""
    state = new_game("labyrinth", **options)
    placements = zip(layout, PLACED_CELLS, strict=True)
    return play(state, *(f"place {card} at {cell}" for card, cell in placements))


def card_at(state, cell):
    return next(sq["card"] for row in state.observation(None)["grid"] for sq in row
                if sq["cell"] == cell)


def cubs_at(state, cell):
    return next(sq["cubs"] for row in state.observation(None)["grid"] for sq in row
                if sq["cell"] == cell)


def gems(state):
    view = state.observation(None)["switches"]
    return view["Blue/Red"], view["Lady/Tiger"]


# ------------------------------------------------------------------ setup
def test_doors_stand_in_the_ruled_corners_with_same_colours_opposite():
    state = labyrinth()
    corners = {cell: card_at(state, cell) for cell in ("A1", "D1", "A4", "D4")}
    assert corners == {"A1": "Red Lady", "D1": "Blue Lady", "A4": "Blue Tiger",
                       "D4": "Red Tiger"}
    doors = [sq["cell"] for row in state.observation(None)["grid"] for sq in row if sq["door"]]
    assert doors == ["A1", "D1", "A4", "D4"]


def test_the_twelve_regular_clue_cards_fill_the_other_cells_by_chance_cell_by_cell():
    state = new_game("labyrinth")
    assert state.current_player() == CHANCE
    assert legal_texts(state) == ["place Red Lady at B1", "place Red Tiger at B1",
                                  "place Blue Lady at B1", "place Blue Tiger at B1"]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([0.25] * 4)
    play(state, "place Red Lady at B1", "place Red Lady at C1", "place Red Lady at A2")
    # All three Red Ladies are placed; nine cards remain, three of each other kind.
    assert legal_texts(state) == ["place Red Tiger at B2", "place Blue Lady at B2",
                                  "place Blue Tiger at B2"]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    assert reason(state, "place Red Lady at B2") == "no Red Lady is left to place in the grid"


def test_no_wild_card_is_placed_in_the_grid():
    state = labyrinth()
    cards = [sq["card"] for row in state.observation(None)["grid"] for sq in row]
    assert "Blue/Red" not in cards and "Lady/Tiger" not in cards
    assert sorted(cards) == sorted(["Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger"] * 4)


def test_switch_cards_start_with_yellow_on_blue_and_white_on_lady():
    assert gems(labyrinth()) == ("Blue", "Lady")


def test_red_cubs_start_on_red_lady_blue_cubs_on_blue_lady_and_seat_0_plays_red_first():
    state = labyrinth()
    assert cubs_at(state, "A1") == {"red": 5, "blue": 0}
    assert cubs_at(state, "D1") == {"red": 0, "blue": 5}
    assert state.current_player() == 0
    view = state.observation(0)
    assert view["seat_colours"] == ["red", "blue"]
    assert view["goal_doors"] == ["D4", "A4"]
    assert legal_texts(state) == ["move red cub from A1 to B1", "move red cub from A1 to A2"]


# ------------------------------------------------------------------ 1. move a cub
def test_a_cub_moves_one_cell_up_down_left_or_right():
    state = play(labyrinth(), "move red cub from A1 to B1", "switch B1 B4 with Blue/Red",
                 "move blue cub from D1 to D2", "switch D2 D3 with Blue/Red")
    assert legal_texts(state) == [
        "move red cub from A1 to B1", "move red cub from A1 to A2",
        "move red cub from B4 to B3", "move red cub from B4 to A4", "move red cub from B4 to C4",
    ]
    with pytest.raises(UnknownActionError):  # diagonal and long moves are no moves at all
        state.string_to_action("move red cub from B4 to C3")
    with pytest.raises(UnknownActionError):
        state.string_to_action("move red cub from A1 to C1")


def test_cubs_may_step_onto_any_card_doors_included_and_share_cells():
    state = labyrinth(RED_TIGERS)
    play(state, "move red cub from A1 to B1")  # onto a Red Tiger; no switch exists
    play(state, "move blue cub from D1 to C1", "switch B1 C1 with Blue/Red")  # cubs trade
    assert cubs_at(state, "C1") == {"red": 1, "blue": 0}
    assert "move red cub from C1 to D1" in legal_texts(state)  # onto blue's Door and cubs
    play(state, "move red cub from C1 to B1")  # shares B1 with the blue cub
    assert cubs_at(state, "B1") == {"red": 1, "blue": 1}


def test_you_move_only_your_own_cubs():
    state = labyrinth()
    assert reason(state, "move red cub from D1 to C1") == (
        "you have no red cub on D1; you move only your own cubs")
    assert reason(state, "move red cub from B2 to B3") == "you have no red cub on B2"
    with pytest.raises(IllegalActionError, match="you have no red cub on B2"):
        state.apply_action(state.string_to_action("move red cub from B2 to B3"))


def test_the_cub_moves_before_the_labyrinth():
    state = labyrinth()
    assert reason(state, "switch B1 B2 with Blue/Red") == (
        "first move one of your cubs; the labyrinth moves after")
    play(state, "move red cub from A1 to B1")
    assert state.current_player() == 0  # the same player now moves the labyrinth
    assert reason(state, "move red cub from A1 to A2") == (
        "you have already moved a cub this turn; now move the labyrinth")


# ------------------------------------------------------------------ 2. move the labyrinth
def test_at_the_start_you_can_switch_two_blue_cards_or_two_lady_cards():
    # Rulebook "Example Play": at the start, 2 Blue cards or 2 Lady cards. The red cub on the
    # Blue Lady at B1 is the only cub off the Doors, so each switch includes B1.
    state = play(labyrinth(), "move red cub from A1 to B1")
    assert legal_texts(state) == [
        "switch B1 B2 with Blue/Red", "switch B1 B4 with Blue/Red",  # Blue Lady, Blue Tiger
        "switch B1 B2 with Lady/Tiger", "switch B1 B3 with Lady/Tiger",  # Blue/Red Lady
    ]


def test_switching_blue_cards_moves_the_yellow_gem_to_red():
    state = play(labyrinth(), "move red cub from A1 to B1", "switch B1 B4 with Blue/Red")
    assert gems(state) == ("Red", "Lady")
    assert state.current_player() == 1


def test_switching_lady_cards_moves_the_white_gem_to_tiger():
    state = play(labyrinth(), "move red cub from A1 to B1", "switch B1 B3 with Lady/Tiger")
    assert gems(state) == ("Blue", "Tiger")


def test_with_the_yellow_gem_on_red_blue_red_switches_two_red_cards_then_the_gem_goes_blue():
    # Rulebook "Example: Switching Cards".
    state = play(labyrinth(), "move red cub from A1 to B1", "switch B1 B4 with Blue/Red",
                 "move blue cub from D1 to D2")
    assert gems(state) == ("Red", "Lady")
    assert "switch D2 D3 with Blue/Red" in legal_texts(state)  # Red Lady and Red Tiger
    assert reason(state, "switch B2 D2 with Blue/Red") == (
        "the yellow gem is on Red, so the Blue/Red card switches only two Red cards; "
        "B2 is a Blue Lady")
    play(state, "switch D2 D3 with Blue/Red")
    assert gems(state) == ("Blue", "Lady")


@pytest.mark.parametrize(
    ("layout", "move", "switch"),
    [
        (MAZE, "move red cub from A1 to B1", "switch B1 B2 with Blue/Red"),  # 2 Blue Ladies
        (MAZE, "move red cub from A1 to B1", "switch B1 B2 with Lady/Tiger"),  # 2 Blue Ladies
        (MAZE, "move red cub from A1 to A2", "switch A2 C2 with Blue/Red"),  # 2 Blue Tigers
        (RED_LADIES, "move red cub from A1 to B1", "switch B1 B2 with Lady/Tiger"),  # 2 Red L.
    ],
)
def test_switching_two_identical_cards_moves_both_gems(layout, move, switch):
    # Rulebook "Example Play": 2 Blue Ladies, 2 Blue Tigers or 2 Red Ladies move both gems.
    state = play(labyrinth(layout), move, switch)
    assert gems(state) == ("Red", "Tiger")
    assert "identical, so both gems move: the yellow to Red, the white to Tiger." in (
        state.log(None)[-1])


def test_red_tiger_cards_cannot_be_switched_at_the_start_so_both_gems_move():
    # Rulebook "Example Play": neither Red nor Tiger is covered at the start. The red cub on
    # the Red Tiger at B1 (beside the Red Tiger at C1) leaves no legal switch: no card moves,
    # both gems move, and the turn passes by itself.
    state = play(labyrinth(RED_TIGERS), "move red cub from A1 to B1")
    assert card_at(state, "B1") == "Red Tiger" and card_at(state, "C1") == "Red Tiger"
    assert gems(state) == ("Red", "Tiger")
    assert state.current_player() == 1
    assert state.observation(1)["phase"] == "move a cub"
    assert state.log(None)[-1] == (
        "No switch is possible with either Switch card, so both gems move: "
        "the yellow to Red, the white to Tiger.")
    # With the gems moved, Red cards and Tiger cards are now what the Switch cards move.
    play(state, "move blue cub from D1 to C1")
    assert legal_texts(state) == [
        "switch B1 C1 with Blue/Red", "switch B1 B3 with Blue/Red", "switch C1 C4 with Blue/Red",
        "switch B1 C1 with Lady/Tiger", "switch B1 B4 with Lady/Tiger",
        "switch C1 C2 with Lady/Tiger",
    ]


def test_a_switch_is_compulsory_whenever_one_exists():
    state = play(labyrinth(), "move red cub from A1 to B1")
    assert all(text.startswith("switch ") for text in legal_texts(state))
    assert state.current_player() == 0


def test_switched_cards_share_a_row_or_column_at_any_distance():
    state = play(labyrinth(), "move red cub from A1 to B1")
    assert "switch B1 B4 with Blue/Red" in legal_texts(state)  # three rows apart
    with pytest.raises(UnknownActionError):  # a diagonal pair is not a switch at all
        state.string_to_action("switch B1 C2 with Blue/Red")


def test_door_cards_are_never_switched():
    state = play(labyrinth(), "move red cub from A1 to B1")
    assert reason(state, "switch A1 B1 with Lady/Tiger") == (
        "A1 is the Red Lady Door; Door cards cannot be switched")
    assert reason(state, "switch B1 D1 with Blue/Red") == (
        "D1 is the Blue Lady Door; Door cards cannot be switched")


def test_switched_cards_must_both_show_the_gems_trait():
    state = play(labyrinth(), "move red cub from A1 to B1")
    assert reason(state, "switch B1 C1 with Blue/Red") == (
        "the yellow gem is on Blue, so the Blue/Red card switches only two Blue cards; "
        "C1 is a Red Tiger")
    assert reason(state, "switch B1 B4 with Lady/Tiger") == (
        "the white gem is on Lady, so the Lady/Tiger card switches only two Lady cards; "
        "B4 is a Blue Tiger")


def test_at_least_one_switched_card_carries_a_cub():
    state = play(labyrinth(), "move red cub from A1 to B1")
    assert reason(state, "switch A2 C2 with Blue/Red") == (
        "neither A2 nor C2 carries a cub; at least one switched card must carry a cub")


def test_the_cub_on_a_switched_card_need_not_be_yours():
    state = play(labyrinth(), "move red cub from A1 to B1", "switch B1 B4 with Blue/Red",
                 "move blue cub from D1 to D2")
    # The Blue Lady at B4 carries only a red cub; blue may still switch it.
    assert "switch B4 C4 with Lady/Tiger" in legal_texts(state)
    play(state, "switch B4 C4 with Lady/Tiger")
    assert cubs_at(state, "C4") == {"red": 1, "blue": 0}
    assert card_at(state, "C4") == "Blue Lady"


def test_cubs_ride_with_the_switched_cards_both_ways():
    state = play(labyrinth(), "move red cub from A1 to B1", "switch B1 B2 with Blue/Red")
    assert cubs_at(state, "B2") == {"red": 1, "blue": 0}  # the Blue Lady took it along
    assert cubs_at(state, "B1") == {"red": 0, "blue": 0}
    play(state, "move blue cub from D1 to C1", "switch C1 C2 with Lady/Tiger")
    assert cubs_at(state, "C2") == {"red": 0, "blue": 1}
    play(state, "move red cub from A1 to B1", "switch B1 B2 with Lady/Tiger")
    play(state, "move blue cub from C2 to B2")
    assert cubs_at(state, "B1") == {"red": 1, "blue": 0}
    assert cubs_at(state, "B2") == {"red": 1, "blue": 1}
    play(state, "switch B1 B2 with Blue/Red")
    assert cubs_at(state, "B1") == {"red": 1, "blue": 1}
    assert cubs_at(state, "B2") == {"red": 1, "blue": 0}
    assert state.log(None)[-1].startswith(
        "The Blue Lady at B1 and the Blue Lady at B2 trade places, with 1 red cub riding from "
        "B1 to B2 and 1 red cub and 1 blue cub riding from B2 to B1; the cards are identical")


def test_the_log_tells_which_cards_traded_places_and_who_rode():
    state = play(labyrinth(), "move red cub from A1 to B1", "switch B1 B4 with Blue/Red")
    assert state.log(1)[-2:] == [
        "Seat 0 switches B1 and B4 with the Blue/Red.",
        "The Blue Lady at B1 and the Blue Tiger at B4 trade places, "
        "with 1 red cub riding from B1 to B4; the yellow gem moves to Red.",
    ]
    assert state.log(0)[-2] == "You switch B1 and B4 with the Blue/Red."


# ------------------------------------------------------------------ game end
def distance_home(state, seat):
    goal = (3, 3) if seat == 0 else (3, 0)
    total = 0
    for r, row in enumerate(state.observation(None)["grid"]):
        for c, square in enumerate(row):
            total += square["cubs"][("red", "blue")[seat]] * (abs(goal[0] - r) + abs(goal[1] - c))
    return total


def race_home(state, seat):
    """Play both sides so that `seat`'s cubs head straight for their Tiger door."""
    while not state.is_terminal():
        def after(action):
            twin = state.clone()
            twin.apply_action(action)
            return distance_home(twin, seat), action
        state.apply_action(min(state.legal_actions(), key=after))
    return state


@pytest.mark.parametrize(("seat", "goal", "door"), [(0, "D4", "Red Tiger"),
                                                    (1, "A4", "Blue Tiger")])
def test_the_game_is_won_the_moment_all_five_cubs_reach_your_tiger_door(seat, goal, door):
    state = race_home(labyrinth(), seat)
    colour = ("red", "blue")[seat]
    assert cubs_at(state, goal)[colour] == 5
    assert state.returns() == [1.0 if s == seat else 0.0 for s in (0, 1)]
    assert state.scores()[seat] == 5
    # The winning step ends the game at once: the labyrinth does not move after it.
    assert state.log(None)[-2].startswith(f"Seat {seat} moves a {colour} cub from ")
    assert state.log(None)[-1] == (
        f"Seat {seat} wins: all five {colour} cubs have escaped to the {door} Door at {goal}.")
    assert state.log(seat)[-1] == (
        f"You win: all five {colour} cubs have escaped to the {door} Door at {goal}.")
    assert state.current_player() == TERMINAL


def test_cubs_may_leave_the_tiger_door_again():
    state = labyrinth()
    while not (cubs_at(state, "D4")["red"] and state.current_player() == 0
               and state.observation(0)["phase"] == "move a cub"):
        def after(action):
            twin = state.clone()
            twin.apply_action(action)
            return distance_home(twin, 0), action
        state.apply_action(min(state.legal_actions(), key=after))
    assert "move red cub from D4 to D3" in legal_texts(state)


def test_the_legal_switches_and_their_explanations_agree():
    rng = random.Random(11)
    checked = 0
    while checked < 40:
        state = random_playout(labyrinth(), rng, max_steps=rng.randrange(1, 80))
        if state.is_terminal() or state.observation(None)["phase"] != "move the labyrinth":
            continue
        legal = set(state.legal_actions())
        for action in range(48, 144):
            assert (action in legal) == (state._switch_fault(action) is None)
        checked += 1


def test_a_win_on_the_last_turn_before_the_cap_is_a_win():
    finished = race_home(labyrinth(), 0)
    turns = finished.observation(None)["turns_played"] + 1  # the winning turn never ended
    state = labyrinth(turn_cap=turns)
    for action in finished.history()[12:]:
        state.apply_action(action)
    assert state.returns() == [1.0, 0.0]


def test_the_turn_cap_ends_the_game_in_a_draw():
    state = labyrinth(turn_cap=2)
    play(state, "move red cub from A1 to B1", "switch B1 B4 with Blue/Red")
    assert not state.is_terminal()
    play(state, "move blue cub from D1 to D2", "switch D2 D3 with Blue/Red")
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.log(None)[-1] == "The turn cap of 2 turns is reached: the game is a draw."


def test_the_turn_cap_defaults_to_300_turns_and_bounds_the_game_length():
    game = ladytiger.load_game("labyrinth")
    assert game.options["turn_cap"] == 300
    assert game.max_game_length() == 12 + 2 * 300
    state = random_playout(game.new_initial_state(), random.Random(5))
    assert state.is_terminal() and len(state.history()) <= game.max_game_length()


def test_a_turn_without_a_switch_counts_toward_the_cap():
    state = play(labyrinth(RED_TIGERS, turn_cap=1), "move red cub from A1 to B1")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


# ------------------------------------------------------------------ what each player knows
def test_nothing_is_hidden_after_setup():
    assert not ladytiger.load_game("labyrinth").info.imperfect_information
    state = play(labyrinth(), "move red cub from A1 to B1")
    views = [state.observation(v) for v in (0, 1, None)]
    logs = [view.pop("log") for view in views]
    for view in views:
        del view["viewer"]
    assert views[0] == views[1] == views[2]
    # The logs tell the same story; only the mover reads its own move as "You".
    assert logs[1] == logs[2] and logs[0][:-1] == logs[2][:-1]
    assert logs[0][-1] == "You move a red cub from A1 to B1."
    assert logs[2][-1] == "Seat 0 moves a red cub from A1 to B1."
    assert state._hidden_steps(0) == set() and state._hidden_steps(None) == set()
    assert state.resample(1, random.Random(1)) == state


def test_the_observation_shows_the_grid_cubs_gems_and_the_cub_moved_this_turn():
    state = play(labyrinth(), "move red cub from A1 to B1")
    view = state.observation(1)
    assert json.loads(json.dumps(view)) == view
    assert view["grid"][0][1] == {"cell": "B1", "card": "Blue Lady", "door": False,
                                  "cubs": {"red": 1, "blue": 0}}
    assert view["switches"] == {"Blue/Red": "Blue", "Lady/Tiger": "Lady"}
    assert view["cub_moved"] == {"from": "A1", "to": "B1"}
    assert view["phase"] == "move the labyrinth"
    assert view["turn"] == 1 and view["turn_cap"] == 300


def test_moves_carry_a_structured_description_for_clients():
    state = labyrinth()
    move = state.describe_action(state.string_to_action("move red cub from A1 to B1"))
    assert move["verb"] == "move" and move["from"] == "A1" and move["to"] == "B1"
    play(state, "move red cub from A1 to B1")
    switch = state.describe_action(state.string_to_action("switch B1 B2 with Lady/Tiger"))
    assert switch["cells"] == ["B1", "B2"] and switch["switch"] == "Lady/Tiger"


def test_blue_moves_read_as_blue():
    state = play(labyrinth(), "move red cub from A1 to B1", "switch B1 B4 with Blue/Red")
    assert legal_texts(state) == ["move blue cub from D1 to C1", "move blue cub from D1 to D2"]


def test_a_record_replays_the_same_game():
    state = random_playout(labyrinth(turn_cap=40), random.Random(2))
    assert from_record(json.loads(json.dumps(to_record(state)))) == state


def test_the_terminal_view_draws_the_grid_cubs_and_switch_cards():
    state = play(labyrinth(), "move red cub from A1 to B1")
    console = Console(width=120, record=True, color_system=None)
    console.print(render(state.observation(0)))
    text = console.export_text()
    for word in ("Red Lady  door", "Blue Tiger", "red goal", "blue start", "Blue/Red",
                 "Lady/Tiger", "Blue ◆", "Lady ◆", "●●●●", "(from A1)", "switch two cards"):
        assert word in text
