"""Hoard, rule by rule (rulebook section "Hoard"; rulings in docs/rules/hoard.md)."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

from ladytiger.cli.views.hoard import render
from ladytiger.core import CHANCE, TERMINAL, BadOptionError, UnknownActionError, load_game
from ladytiger.core.playout import random_playout, random_step
from tests.helpers import legal_texts, new_game, play, reason

GEM_TEXT = {
    "red": "red Treasure",
    "blue": "blue Treasure",
    "white": "white Trash",
    "black": "black Trash",
}


def board(red_lady, blue_lady, red_tiger, blue_tiger, set_aside=(), **options):
    """A Hoard game just after setup, each door's five gems given as words."""
    state = new_game("hoard", **options)
    for door, gems in (
        ("Red Lady", red_lady),
        ("Blue Lady", blue_lady),
        ("Red Tiger", red_tiger),
        ("Blue Tiger", blue_tiger),
    ):
        for gem in gems.split():
            play(state, f"deal {GEM_TEXT[gem]} to {door}")
    return play(state, *(f"set aside {card}" for card in set_aside))


# The Treasure on the Lady doors, the Trash on the Tiger doors.
TREASURE_UP = ("red red red red red", "blue blue blue blue blue",
               "white white white black black", "black black black white white")


def turn(state, card, action=None):
    """Reveal `card`, then take `action` (when one is possible)."""
    play(state, f"reveal {card}")
    if action is not None:
        play(state, action)
    return state


def doors(state):
    return state.observation(0)["doors"]


def probabilities(state):
    return {state.action_to_string(a): p for a, p in state.chance_outcomes()}


def play_out_round(state, cards):
    """Reveal `cards` in order, each time taking the lowest-numbered legal action (a move,
    when one is possible: never a collection, so these games are never won)."""
    for card in cards:
        play(state, f"reveal {card}")
        if state.current_player() == 0:
            state.apply_action(state.legal_actions()[0])
    return state


FULL_DECK = ["Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger"] * 3 + ["Blue/Red", "Lady/Tiger"]


# ------------------------------------------------------------------ setup
def test_doors_lie_in_a_square_ladies_on_top_red_on_the_left():
    view = new_game("hoard").observation(0)
    assert view["layout"] == [["Red Lady", "Blue Lady"], ["Red Tiger", "Blue Tiger"]]


def test_twenty_gems_are_dealt_by_chance_five_to_each_door():
    state = new_game("hoard")
    assert state.current_player() == CHANCE
    assert probabilities(state) == {
        "deal red Treasure to Red Lady": 0.25, "deal blue Treasure to Red Lady": 0.25,
        "deal white Trash to Red Lady": 0.25, "deal black Trash to Red Lady": 0.25}
    play(state, *["deal red Treasure to Red Lady"] * 5)
    # All five red Treasures are out: the next door is dealt from the fifteen others.
    assert probabilities(state) == pytest.approx({
        "deal blue Treasure to Blue Lady": 1 / 3, "deal white Trash to Blue Lady": 1 / 3,
        "deal black Trash to Blue Lady": 1 / 3})
    assert reason(state, "deal red Treasure to Blue Lady") == (
        "all 5 red Treasure gems are already placed")


def test_after_the_gems_the_fourteen_clue_cards_are_revealed_one_by_one():
    state = board(*TREASURE_UP)
    assert doors(state) == {
        "Red Lady": {"red": 5, "blue": 0, "white": 0, "black": 0},
        "Blue Lady": {"red": 0, "blue": 5, "white": 0, "black": 0},
        "Red Tiger": {"red": 0, "blue": 0, "white": 3, "black": 2},
        "Blue Tiger": {"red": 0, "blue": 0, "white": 2, "black": 3},
    }
    assert probabilities(state) == pytest.approx({
        "reveal Red Lady": 3 / 14, "reveal Red Tiger": 3 / 14, "reveal Blue Lady": 3 / 14,
        "reveal Blue Tiger": 3 / 14, "reveal Blue/Red": 1 / 14, "reveal Lady/Tiger": 1 / 14})
    assert state.observation(0)["deck"] == 14
    assert state.observation(0)["round"] == 1


# ------------------------------------------------------------------ the three actions
def test_rulebook_example_the_four_choices_after_revealing_the_red_tiger():
    state = board("red red red red white", "blue blue blue black black",
                  "red white black blue blue", "white white white black black")
    play(state, "reveal Red Tiger")
    assert state.current_player() == 0
    assert legal_texts(state) == [
        # Move 1 Treasure or Trash from the Red Tiger to the Blue Tiger ...
        "move red Treasure from Red Tiger to Blue Tiger",
        "move blue Treasure from Red Tiger to Blue Tiger",
        "move white Trash from Red Tiger to Blue Tiger",
        "move black Trash from Red Tiger to Blue Tiger",
        # ... or from the Blue Tiger to the Red Tiger (it holds only Trash);
        "move white Trash from Blue Tiger to Red Tiger",
        "move black Trash from Blue Tiger to Red Tiger",
        # remove all black/white pairs from the Red Tiger.
        "remove pairs from Red Tiger",
    ]
    # The fourth choice, collecting a red Treasure, needs a Red Tiger free of Trash.
    assert reason(state, "collect red Treasure from Red Tiger") == (
        "no Treasure can be collected from the Red Tiger while it holds Trash "
        "(1 white, 1 black)")
    clean = board("red red red white white", "blue blue white black black",
                  "red red blue blue blue", "white white black black black")
    play(clean, "reveal Red Tiger")
    assert "collect red Treasure from Red Tiger" in legal_texts(clean)
    assert "remove pairs from Red Tiger" not in legal_texts(clean)


def test_a_move_goes_between_the_two_doors_of_the_revealed_role_in_either_direction():
    state = turn(board(*TREASURE_UP), "Red Tiger", "move black Trash from Blue Tiger to Red Tiger")
    assert doors(state)["Red Tiger"]["black"] == 3 and doors(state)["Blue Tiger"]["black"] == 2
    turn(state, "Blue Lady", "move blue Treasure from Blue Lady to Red Lady")
    assert doors(state)["Red Lady"] == {"red": 5, "blue": 1, "white": 0, "black": 0}


def test_gems_never_move_vertically():
    state = turn(board(*TREASURE_UP), "Red Tiger")
    assert reason(state, "move red Treasure from Red Lady to Blue Lady") == (
        "the Red Tiger card moves a gem only between the two Tiger doors "
        "(gems never move between a Lady and a Tiger)")
    assert not any("Lady" in text for text in legal_texts(state))


def test_a_move_needs_that_gem_on_the_source_door():
    state = turn(board(*TREASURE_UP), "Red Tiger")
    assert reason(state, "move red Treasure from Blue Tiger to Red Tiger") == (
        "the Blue Tiger holds no red Treasure to move")


def test_remove_takes_every_white_black_pair_and_leaves_the_odd_trash():
    state = turn(board(*TREASURE_UP), "Red Tiger", "remove pairs from Red Tiger")
    assert doors(state)["Red Tiger"] == {"red": 0, "blue": 0, "white": 1, "black": 0}
    assert state.observation(0)["removed"] == {"white": 2, "black": 2}


def test_remove_is_offered_only_with_a_pair_on_the_revealed_door():
    state = turn(board("red red red red white", "blue blue blue blue blue",
                       "white white white black black", "black black black white red"),
                 "Red Lady")
    assert "remove pairs from Red Lady" not in legal_texts(state)
    assert reason(state, "remove pairs from Red Lady") == (
        "the Red Lady holds no pair of one white and one black Trash (1 white, 0 black)")
    assert reason(state, "remove pairs from Red Tiger") == (
        "the Red Lady card lets you remove Trash only from the Red Lady")


def test_collect_takes_one_treasure_of_the_doors_colour_from_a_door_without_trash():
    state = turn(board(*TREASURE_UP), "Red Lady")
    assert "collect red Treasure from Red Lady" in legal_texts(state)
    play(state, "collect red Treasure from Red Lady")
    assert doors(state)["Red Lady"]["red"] == 4
    assert state.observation(0)["collected"] == {"red": 1, "blue": 0}


def test_treasure_is_collected_only_from_a_door_of_its_colour():
    state = turn(board("red red red blue blue", "blue blue blue red red",
                       "white white white black black", "black black black white white"),
                 "Red Lady")
    assert reason(state, "collect blue Treasure from Red Lady") == (
        "blue Treasure is collected only from a Blue door, and the Red Lady is Red")
    assert reason(state, "collect blue Treasure from Blue Lady") == (
        "the Red Lady card lets you collect only from the Red Lady")
    assert legal_texts(state)[-1] == "collect red Treasure from Red Lady"


def test_collect_needs_a_treasure_of_that_colour_on_the_door():
    state = turn(board("blue blue blue blue blue", "red red red red red",
                       "white white white black black", "black black black white white"),
                 "Red Lady")
    assert reason(state, "collect red Treasure from Red Lady") == (
        "the Red Lady holds no red Treasure to collect")


def test_an_action_is_forced_there_is_no_pass_when_one_is_possible():
    state = turn(board(*TREASURE_UP), "Red Tiger")
    assert state.current_player() == 0 and legal_texts(state)
    with pytest.raises(UnknownActionError):
        state.string_to_action("pass")


def test_with_no_possible_action_the_turn_passes_by_itself():
    # The Tiger row holds only Trash: clear it in four Tiger turns, then a Tiger card can do
    # nothing (no gem to move, nothing to remove or collect).
    state = board(*TREASURE_UP)
    turn(state, "Red Tiger", "remove pairs from Red Tiger")  # Red Tiger keeps 1 white
    turn(state, "Blue Tiger", "remove pairs from Blue Tiger")  # Blue Tiger keeps 1 black
    turn(state, "Red Tiger", "move white Trash from Red Tiger to Blue Tiger")
    turn(state, "Blue Tiger", "remove pairs from Blue Tiger")
    assert doors(state)["Red Tiger"] == doors(state)["Blue Tiger"] == {
        "red": 0, "blue": 0, "white": 0, "black": 0}
    play(state, "reveal Red Tiger")
    assert state.current_player() == CHANCE  # straight on to the next reveal
    view = state.observation(0)
    assert view["deck"] == 9 and view["revealed"] is None
    assert view["log"][-2:] == [
        "The Red Tiger is turned up.", "No action is possible with the Red Tiger: the turn passes."]


# ------------------------------------------------------------------ the wild cards
def with_removed_pair():
    """A game where a Red Lady turn has put one white+black pair on the removed pile."""
    state = board("white black red red red", "blue blue blue blue white",
                  "red red white black blue", "white white black black black")
    return turn(state, "Red Lady", "remove pairs from Red Lady")


def test_blue_red_puts_a_removed_pair_back_on_the_two_doors_of_one_colour():
    state = turn(with_removed_pair(), "Blue/Red")
    assert legal_texts(state) == [
        "put white Trash on Red Lady and black Trash on Red Tiger",
        "put white Trash on Red Tiger and black Trash on Red Lady",
        "put white Trash on Blue Lady and black Trash on Blue Tiger",
        "put white Trash on Blue Tiger and black Trash on Blue Lady",
    ]
    play(state, "put white Trash on Blue Tiger and black Trash on Blue Lady")
    assert state.observation(0)["removed"] == {"white": 0, "black": 0}
    assert doors(state)["Blue Lady"]["black"] == 1 and doors(state)["Blue Tiger"]["white"] == 3


def test_lady_tiger_puts_a_removed_pair_back_on_the_two_doors_of_one_role():
    state = turn(with_removed_pair(), "Lady/Tiger")
    assert legal_texts(state) == [
        "put white Trash on Red Lady and black Trash on Blue Lady",
        "put white Trash on Red Tiger and black Trash on Blue Tiger",
        "put white Trash on Blue Lady and black Trash on Red Lady",
        "put white Trash on Blue Tiger and black Trash on Red Tiger",
    ]
    assert reason(state, "put white Trash on Red Lady and black Trash on Red Tiger") == (
        "the Lady/Tiger card puts one white and one black Trash from the removed pile on the "
        "two Lady doors or on the two Tiger doors, one on each")
    assert reason(state, "swap black Trash on Blue Tiger with white Trash on Red Tiger") == (
        "the removed pile holds Trash, so the Lady/Tiger card puts one white and one black "
        "Trash from the removed pile on the two Lady doors or on the two Tiger doors, "
        "one on each")
    play(state, "put white Trash on Red Lady and black Trash on Blue Lady")
    assert doors(state)["Red Lady"] == {"red": 3, "blue": 0, "white": 1, "black": 0}


def test_a_wild_with_no_removed_trash_swaps_a_black_and_a_white_between_any_two_doors():
    # Every door holds both colours of Trash, so all twelve swaps are open, diagonal and
    # Lady-to-Tiger ones included.
    state = turn(board("white black red red red", "white black blue blue blue",
                       "white black red red blue", "white white black black blue"),
                 "Lady/Tiger")
    texts = legal_texts(state)
    assert len(texts) == 12 and all(text.startswith("swap") for text in texts)
    assert "swap black Trash on Red Lady with white Trash on Blue Tiger" in texts
    assert "swap black Trash on Blue Lady with white Trash on Blue Tiger" in texts
    play(state, "swap black Trash on Red Lady with white Trash on Blue Tiger")
    assert doors(state)["Red Lady"] == {"red": 3, "blue": 0, "white": 2, "black": 0}
    assert doors(state)["Blue Tiger"] == {"red": 0, "blue": 1, "white": 1, "black": 3}


def test_a_swap_needs_a_black_on_one_door_and_a_white_on_another():
    state = turn(board(*TREASURE_UP), "Blue/Red")
    assert legal_texts(state) == [
        "swap black Trash on Red Tiger with white Trash on Blue Tiger",
        "swap black Trash on Blue Tiger with white Trash on Red Tiger",
    ]
    assert reason(state, "swap black Trash on Red Lady with white Trash on Red Tiger") == (
        "the Red Lady holds no black Trash to swap")
    assert reason(state, "swap black Trash on Red Tiger with white Trash on Red Tiger") == (
        "a swap takes its black and its white Trash from two different doors")
    assert reason(state, "put white Trash on Red Lady and black Trash on Red Tiger") == (
        "the removed pile holds no Trash, so the Blue/Red card swaps a black Trash on one door "
        "with a white Trash on another")
    assert reason(state, "move black Trash from Red Tiger to Blue Tiger") == (
        "the Blue/Red card does not move, remove or collect: the Blue/Red card swaps a black "
        "Trash on one door with a white Trash on another")


def test_a_wild_with_no_removed_trash_and_no_possible_swap_changes_nothing():
    # Five Lady turns stack all ten Trash on the Red Lady: no other door has any to swap.
    state = board("white white white white white", "black black black black black",
                  "red red red red red", "blue blue blue blue blue")
    for card in ("Red Lady", "Red Lady", "Red Lady", "Blue Lady", "Blue Lady"):
        turn(state, card, "move black Trash from Blue Lady to Red Lady")
    before = doors(state)
    play(state, "reveal Blue/Red")
    assert state.current_player() == CHANCE
    assert doors(state) == before
    assert state.observation(0)["log"][-1] == (
        "The removed pile is empty and no door's black Trash can be swapped with another "
        "door's white Trash: the Blue/Red changes nothing.")


def test_regular_cards_neither_put_back_nor_swap_trash():
    state = turn(with_removed_pair(), "Red Tiger")
    assert reason(state, "put white Trash on Red Lady and black Trash on Red Tiger") == (
        "only the wild cards (Blue/Red, Lady/Tiger) put back or swap Trash; "
        "the Red Tiger card moves, removes or collects")


# ------------------------------------------------------------------ rounds
def test_the_last_card_of_a_round_goes_under_a_marker_and_the_rest_are_reshuffled():
    state = play_out_round(board(*TREASURE_UP), FULL_DECK)
    view = state.observation(0)
    assert view["round_markers"] == ["Lady/Tiger"]
    assert view["round"] == 2 and view["deck"] == 13 and view["played"] == []
    assert "Round 1 ends: the Lady/Tiger goes under the first round marker." in view["log"]
    # The Lady/Tiger is out of the game: round 2 deals from the thirteen others.
    assert probabilities(state) == pytest.approx({
        "reveal Red Lady": 3 / 13, "reveal Red Tiger": 3 / 13, "reveal Blue Lady": 3 / 13,
        "reveal Blue Tiger": 3 / 13, "reveal Blue/Red": 1 / 13})
    assert reason(state, "reveal Lady/Tiger") == "no Lady/Tiger is left in this round's deck"


def test_the_third_card_under_a_marker_ends_the_game_lost_with_score_zero():
    state = play_out_round(board(*TREASURE_UP), FULL_DECK)
    play_out_round(state, FULL_DECK[:-1])  # ends with the Blue/Red
    assert state.observation(0)["round_markers"] == ["Lady/Tiger", "Blue/Red"]
    play_out_round(state, FULL_DECK[:-2])  # twelve cards; the last is a Blue Tiger
    assert state.current_player() == TERMINAL
    view = state.observation(0)
    assert view["round_markers"] == ["Lady/Tiger", "Blue/Red", "Blue Tiger"]
    assert state.returns() == [0.0] and state.scores() == [0]
    assert view["log"][-1] == (
        "The third round is over with 0 of 10 Treasures collected: the game is lost.")
    assert len(state.history()) == state.game.max_game_length()


def test_a_pass_on_the_last_card_still_ends_the_round():
    # Hard, without the wilds: the Tiger row is cleared early, so the round's last card, a
    # Red Tiger, can do nothing; it still goes under the marker.
    state = board(*TREASURE_UP, set_aside=("Blue/Red", "Lady/Tiger"), difficulty="hard")
    turn(state, "Red Tiger", "remove pairs from Red Tiger")
    turn(state, "Blue Tiger", "remove pairs from Blue Tiger")
    turn(state, "Red Tiger", "move white Trash from Red Tiger to Blue Tiger")
    turn(state, "Blue Tiger", "remove pairs from Blue Tiger")
    play_out_round(state, ["Red Lady"] * 3 + ["Blue Lady"] * 3 + ["Blue Tiger"])
    assert state.observation(0)["deck"] == 1
    play(state, "reveal Red Tiger")
    view = state.observation(0)
    assert view["round_markers"] == ["Red Tiger"] and view["deck"] == 11
    assert view["log"][-2:] == [
        "No action is possible with the Red Tiger: the turn passes.",
        "Round 1 ends: the Red Tiger goes under the first round marker."]


# ------------------------------------------------------------------ winning
def test_collecting_the_tenth_treasure_wins_at_once_scoring_the_removed_trash():
    state = board("red red red red red", "blue blue blue blue blue",
                  "white white white white white", "black black black black black")
    # Round 1.
    turn(state, "Blue/Red", "swap black Trash on Blue Tiger with white Trash on Red Tiger")
    turn(state, "Red Tiger", "remove pairs from Red Tiger")
    turn(state, "Blue Tiger", "remove pairs from Blue Tiger")
    # A wild must give back a removed pair when the pile holds one.
    turn(state, "Lady/Tiger", "put white Trash on Red Tiger and black Trash on Blue Tiger")
    for _ in range(3):
        turn(state, "Red Lady", "collect red Treasure from Red Lady")
        turn(state, "Blue Lady", "collect blue Treasure from Blue Lady")
    turn(state, "Red Tiger", "move black Trash from Blue Tiger to Red Tiger")
    turn(state, "Red Tiger", "remove pairs from Red Tiger")
    turn(state, "Blue Tiger", "move white Trash from Red Tiger to Blue Tiger")
    turn(state, "Blue Tiger", "remove pairs from Blue Tiger")
    assert state.observation(0)["round_markers"] == ["Blue Tiger"]
    # Round 2: four more Treasures.
    turn(state, "Red Lady", "collect red Treasure from Red Lady")
    turn(state, "Red Lady", "collect red Treasure from Red Lady")
    turn(state, "Blue Lady", "collect blue Treasure from Blue Lady")
    assert not state.is_terminal() and state.scores() == [0]
    turn(state, "Blue Lady", "collect blue Treasure from Blue Lady")
    assert state.current_player() == TERMINAL  # nine cards of the round are never revealed
    view = state.observation(0)
    assert view["collected"] == {"red": 5, "blue": 5}
    assert view["removed"] == {"white": 3, "black": 3}
    assert state.scores() == [6] and state.returns() == [1.0]
    assert view["won"] is True and view["terminal"] is True
    assert view["log"][-1] == (
        "All 10 Treasures are collected: you win, scoring 6 for the removed Trash.")
    assert state.observation(None)["log"][-1] == (
        "All 10 Treasures are collected: Seat 0 wins, scoring 6 for the removed Trash.")


def test_the_tenth_treasure_on_a_rounds_last_card_wins_before_the_round_ends():
    state = board(*TREASURE_UP)
    for _ in range(3):
        turn(state, "Red Lady", "collect red Treasure from Red Lady")
        turn(state, "Blue Lady", "collect blue Treasure from Blue Lady")
    play_out_round(state, ["Red Tiger"] * 3 + ["Blue Tiger"] * 3 + ["Lady/Tiger", "Blue/Red"])
    play_out_round(state, ["Red Tiger"] * 3 + ["Blue Tiger"] * 3 + ["Lady/Tiger"])
    turn(state, "Red Lady", "collect red Treasure from Red Lady")
    turn(state, "Red Lady", "collect red Treasure from Red Lady")
    turn(state, "Blue Lady", "collect blue Treasure from Blue Lady")
    turn(state, "Red Lady", "move blue Treasure from Blue Lady to Red Lady")
    turn(state, "Blue Lady", "move blue Treasure from Red Lady to Blue Lady")
    assert state.observation(0)["deck"] == 1
    turn(state, "Blue Lady", "collect blue Treasure from Blue Lady")
    assert state.returns() == [1.0]
    assert state.observation(0)["round_markers"] == ["Blue/Red"]  # no second marker


# ------------------------------------------------------------------ difficulty
def test_difficulty_option_defaults_to_easy_and_rejects_other_levels():
    assert load_game("hoard").options["difficulty"] == "easy"
    with pytest.raises(BadOptionError, match="one of 'easy', 'moderate', 'hard', 'impossible'"):
        load_game("hoard", difficulty="nightmare")


def test_every_difficulty_is_covered_by_the_shared_property_tests():
    configs = load_game("hoard").info.configurations()
    assert {config.get("difficulty", "easy") for config in configs} == {
        "easy", "moderate", "hard", "impossible"}


def test_moderate_sets_one_card_aside_face_up_for_the_whole_game():
    state = board(*TREASURE_UP, difficulty="moderate")
    assert state.current_player() == CHANCE
    assert probabilities(state)["set aside Blue/Red"] == pytest.approx(1 / 14)
    play(state, "set aside Blue/Red")
    view = state.observation(0)
    assert view["set_aside"] == ["Blue/Red"] and view["deck"] == 13
    assert "reveal Blue/Red" not in probabilities(state)
    play_out_round(state, [card for card in FULL_DECK if card != "Blue/Red"])
    assert state.observation(0)["deck"] == 12
    assert "reveal Blue/Red" not in probabilities(state)


def test_hard_sets_two_cards_aside_face_up():
    state = board(*TREASURE_UP, set_aside=("Red Lady", "Red Lady"), difficulty="hard")
    view = state.observation(0)
    assert view["set_aside"] == ["Red Lady", "Red Lady"] and view["deck"] == 12
    assert probabilities(state)["reveal Red Lady"] == pytest.approx(1 / 12)
    assert reason(state, "reveal Blue/Red") is None


def test_impossible_sets_three_cards_aside_face_down_unknown_until_deduced():
    state = board(*TREASURE_UP, difficulty="impossible")
    # No set-aside step: nobody sees the face-down cards, so each reveal is drawn from all
    # fourteen cards the player has not seen, though only eleven are in the deck.
    view = state.observation(0)
    assert view["deck"] == 11 and view["face_down"] == 3 and view["set_aside"] == []
    assert probabilities(state)["reveal Red Lady"] == pytest.approx(3 / 14)
    round_one = [*FULL_DECK[:8], "Red Lady", "Red Tiger", "Blue/Red"]
    play_out_round(state, round_one[:-1])
    assert state.observation(0)["still_unseen"] == [
        "Blue Lady", "Blue Tiger", "Blue/Red", "Lady/Tiger"]
    play_out_round(state, round_one[-1:])
    # All eleven deck cards are seen: the three never revealed are the face-down ones.
    view = state.observation(0)
    assert view["face_down"] == 0
    assert view["set_aside"] == ["Blue Lady", "Blue Tiger", "Lady/Tiger"]
    assert view["deck"] == 10 and view["round_markers"] == ["Blue/Red"]
    assert view["log"][-1] == (
        "The face-down cards, never revealed this round, must be the Blue Lady, the Blue Tiger "
        "and the Lady/Tiger.")
    assert "reveal Lady/Tiger" not in probabilities(state)
    assert sum(probabilities(state).values()) == pytest.approx(1.0)


@pytest.mark.parametrize(("difficulty", "length"),
                         [("easy", 98), ("moderate", 93), ("hard", 88), ("impossible", 80)])
def test_game_length_bound_is_the_three_rounds_of_shrinking_decks(difficulty, length):
    assert load_game("hoard", difficulty=difficulty).max_game_length() == length


# ------------------------------------------------------------------ what the player sees
def test_the_player_sees_the_whole_board_and_the_spectator_the_same():
    state = turn(board(*TREASURE_UP), "Red Tiger")
    view = state.observation(0)
    assert view["revealed"] == "Red Tiger" and view["played"] == ["Red Tiger"]
    spectator = state.observation(None)
    assert {k: v for k, v in spectator.items() if k != "viewer"} == {
        k: v for k, v in view.items() if k != "viewer"}


def test_moves_carry_a_structured_description_for_clients():
    state = turn(with_removed_pair(), "Blue/Red")
    described = state.describe_action(state.legal_actions()[0])
    assert described["verb"] == "put"
    assert described["white"] == "Red Lady" and described["black"] == "Red Tiger"
    state = turn(board(*TREASURE_UP), "Red Tiger")
    moved = state.describe_action(state.string_to_action("move white Trash from Red Tiger "
                                                         "to Blue Tiger"))
    assert moved["gem"] == "white Trash" and moved["to"] == "Blue Tiger"


def test_terminal_view_draws_the_square_of_doors_and_the_piles():
    state = turn(with_removed_pair(), "Red Tiger")
    console = Console(width=100, record=True, color_system=None)
    console.print(render(state.observation(0)))
    text = console.export_text()
    for words in ("Red Lady", "Blue Lady", "Red Tiger", "Blue Tiger", "removed Trash",
                  "collected", "round markers", "revealed"):
        assert words in text
    # The Red Lady panel is to the left of the Blue Lady's, above the Red Tiger's.
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if "Red Lady" in line and "Blue Lady" in line)
    assert lines[top].index("Red Lady") < lines[top].index("Blue Lady")
    assert any("Red Tiger" in line and "Blue Tiger" in line for line in lines[top + 1:])


# ------------------------------------------------------------------ whole games
def test_every_refused_move_is_explained_by_the_hoard_rules():
    # The one function that decides legality also words the refusal: no move the rules
    # forbid falls back to the generic message.
    rng = random.Random(5)
    for difficulty in ("easy", "impossible"):
        for _ in range(20):
            state = load_game("hoard", difficulty=difficulty).new_initial_state()
            while not state.is_terminal():
                if state.current_player() == 0:
                    legal = set(state.legal_actions())
                    for action in range(state.game.num_distinct_actions()):
                        if action not in legal:
                            assert state._forbid(action), state.action_to_string(action)
                state.apply_action(random_step(state, rng))


def test_random_games_of_every_difficulty_finish_within_the_bound():
    for difficulty in ("easy", "moderate", "hard", "impossible"):
        game = load_game("hoard", difficulty=difficulty)
        for seed in range(50):
            state = random_playout(game.new_initial_state(), random.Random(seed))
            assert state.is_terminal()
            assert len(state.history()) <= game.max_game_length()
            assert state.conserved() == game.new_initial_state().conserved()
