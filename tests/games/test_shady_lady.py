"""Shady Lady, rule by rule (its rulebook; rulings in docs/rules/shady_lady.md)."""

from __future__ import annotations

import random

import pytest

from ladytiger import load_game
from ladytiger.core import CHANCE, TERMINAL, IllegalActionError, State
from ladytiger.core.playout import random_playout, sample_chance
from ladytiger.games.shady_lady import DRAW, TRY, combination, combination_name
from tests.helpers import legal_texts, new_game, play, reason

PLAYER_COUNTS = [2, 3, 4, 5, 6]


def start(*hands: str, **options: object) -> State:
    """A game after the deal: seat k is dealt the numbers in hands[k] ("1 2 3")."""
    state = new_game("shady_lady", players=len(hands), **options)
    for seat, hand in enumerate(hands):
        play(state, *(f"deal {card} to seat {seat}" for card in hand.split()))
    return state


def seat_draws(state: State, seat: int, *cards: int) -> State:
    return play(state, *(f"seat {seat} draws {card}" for card in cards))


def draw_and_discard(state: State, seat: int, card: int) -> State:
    """Turn A: draw `card` and discard it again."""
    return play(state, "draw", f"seat {seat} draws {card}", f"discard {card}")


def view(state: State, seat: int | None = None) -> dict:
    return state.observation(seat)


# Hands with no combination, for filling seats that only pass the turn along.
LOOSE = ["1 4 9", "2 6 9", "1 3 8", "2 4 7", "3 6 9", "1 6 8"]


def loose_hands(n: int) -> list[str]:
    return LOOSE[:n]


# ------------------------------------------------------------------ components and setup
def test_the_deck_is_eighty_cards_ten_each_of_1_to_4_and_6_to_9():
    state = new_game("shady_lady")
    outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert sorted(outcomes) == [f"deal {n} to seat 0" for n in (1, 2, 3, 4, 6, 7, 8, 9)]
    assert all(p == pytest.approx(1 / 8) for p in outcomes.values())
    assert view(state)["draw_pile"] == 80
    assert state.conserved()["cards numbered 7"] == 10


def test_there_is_no_5_to_deal():
    state = new_game("shady_lady")
    with pytest.raises(Exception, match="'deal 5 to seat 0' is not a move"):
        state.string_to_action("deal 5 to seat 0")


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_three_cards_each_dealt_seat_by_seat_then_seat_0_starts(n):
    state = new_game("shady_lady", players=n)
    for seat in range(n):
        for _ in range(3):
            assert state.current_player() == CHANCE
            assert state.action_to_string(state.legal_actions()[0]).endswith(f"to seat {seat}")
            play(state, f"deal 7 to seat {seat}" if seat == 0 else legal_texts(state)[0])
    assert state.current_player() == 0
    assert view(state)["draw_pile"] == 80 - 3 * n


def test_deal_probabilities_follow_the_cards_left():
    state = play(new_game("shady_lady"), "deal 7 to seat 0", "deal 7 to seat 0")
    probabilities = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert probabilities["deal 7 to seat 0"] == pytest.approx(8 / 78)
    assert probabilities["deal 1 to seat 0"] == pytest.approx(10 / 78)


def test_a_dealt_card_is_known_only_to_its_receiver():
    state = start("1 2 3", "7 8 9")
    assert view(state, 0)["hands"] == [[1, 2, 3], [None, None, None]]
    assert view(state, 1)["hands"] == [[None, None, None], [7, 8, 9]]
    assert view(state, None)["hands"] == [[None] * 3, [None] * 3]
    assert view(state, 0)["log"] == ["You are dealt a 1, a 2 and a 3; Seat 1 is dealt 3 cards."]
    assert view(state, 1)["log"] == ["Seat 0 is dealt 3 cards; you are dealt a 7, an 8 and a 9."]
    assert view(state, None)["log"] == ["Seat 0 and Seat 1 are dealt 3 cards each."]


def test_option_draws_the_starting_player():
    state = new_game("shady_lady", players=4, random_first_player=True)
    assert [(state.action_to_string(a), p) for a, p in state.chance_outcomes()] == [
        (f"seat {s} starts", 0.25) for s in range(4)
    ]
    play(state, "seat 2 starts")
    for seat in range(4):
        play(state, *(f"deal {c} to seat {seat}" for c in LOOSE[seat].split()))
    assert state.current_player() == 2
    assert view(state)["first_player"] == 2


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_turns_go_clockwise(n):
    state = start(*loose_hands(n))
    order = []
    for _ in range(n + 1):
        seat = state.current_player()
        order.append(seat)
        draw_and_discard(state, seat, 6)
    assert order == [*range(n), 0]


# ------------------------------------------------------------------ A: draw, then discard
def test_draw_then_discard_one_of_four_onto_your_own_pile():
    state = start("1 4 9", "2 6 9")
    assert legal_texts(state)[:2] == ["jack seat 1", "draw"]
    play(state, "draw")
    assert state.current_player() == CHANCE
    play(state, "seat 0 draws 8")
    assert legal_texts(state) == ["discard 1", "discard 4", "discard 8", "discard 9"]
    play(state, "discard 4")
    assert view(state, None)["piles"] == [[4], []]
    assert view(state, 0)["hands"][0] == [1, 8, 9]
    assert state.current_player() == 1


def test_a_drawn_card_is_known_only_to_the_drawer():
    state = play(start("1 4 9", "2 6 9"), "draw", "seat 0 draws 8")
    assert view(state, 0)["log"][-1] == "You draw an 8."
    assert view(state, 1)["log"][-1] == "Seat 0 draws a card."
    assert view(state, 1)["hands"][0] == [None] * 4


def test_draw_probabilities_follow_the_draw_pile():
    state = play(start("7 7 7", "7 7 8"), "draw")
    probabilities = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert probabilities["seat 0 draws 7"] == pytest.approx(5 / 74)
    assert probabilities["seat 0 draws 8"] == pytest.approx(9 / 74)


def test_discarding_before_drawing_or_a_card_you_lack_is_explained():
    state = start("1 4 9", "2 6 9")
    assert reason(state, "discard 1") == (
        "you discard only after drawing a card or taking the top of a discard pile; "
        "first choose draw, take, try or jack")
    play(state, "draw", "seat 0 draws 8")
    assert reason(state, "discard 2") == "you hold no 2; your hand is 1 4 8 9"
    assert reason(state, "draw") == "you hold four cards: discard one of 1 4 8 9 to end your turn"
    with pytest.raises(IllegalActionError, match="you hold no 2"):
        state.apply_action(state.string_to_action("discard 2"))


# ------------------------------------------------------------------ B: take a top card
def test_take_the_top_card_of_any_pile_then_discard():
    state = draw_and_discard(start("1 4 9", "2 6 9", "1 3 8"), 0, 7)
    draw_and_discard(state, 1, 2)
    assert "take 7 from seat 0" in legal_texts(state)
    assert "take 2 from seat 1" in legal_texts(state)
    play(state, "take 7 from seat 0")
    assert view(state, None)["piles"] == [[], [2], []]
    assert view(state, 2)["hands"][2] == [1, 3, 7, 8]
    play(state, "discard 1")
    assert view(state, None)["piles"] == [[], [2], [1]]


def test_a_player_may_take_the_top_of_their_own_pile():
    state = draw_and_discard(start("1 4 9", "2 6 9"), 0, 7)
    draw_and_discard(state, 1, 2)
    play(state, "take 7 from seat 0")
    assert view(state, 0)["hands"][0] == [1, 4, 7, 9]


def test_the_taken_card_may_be_discarded_again():
    # The rulebook sets no limit: taking and discarding the same card is a legal (idle) turn.
    state = draw_and_discard(start("1 4 9", "2 6 9"), 0, 7)
    play(state, "take 7 from seat 0", "discard 7")
    assert view(state, None)["piles"] == [[], [7]]


def test_a_taken_card_is_known_to_everyone_until_discarded():
    state = draw_and_discard(start("1 4 9", "2 6 9", "1 3 8"), 0, 7)
    play(state, "take 7 from seat 0", "discard 2")
    assert view(state, 0)["hands"][1] == [7, None, None]
    assert view(state, None)["hands"][1] == [7, None, None]
    assert view(state, 1)["hands"][1] == [6, 7, 9]
    draw_and_discard(state, 2, 8)
    draw_and_discard(state, 0, 8)
    play(state, "draw", "seat 1 draws 3", "discard 7")
    assert view(state, 0)["hands"][1] == [None, None, None]


def test_an_empty_pile_cannot_be_taken_from():
    state = start("1 4 9", "2 6 9")
    assert not any(text.startswith("take") for text in legal_texts(state))
    assert reason(state, "take from seat 1") == "seat 1's discard pile is empty"
    assert reason(state, "take from seat 4") == "there is no seat 4 in a 2-player game"


def test_personal_piles_keep_their_whole_order_in_public():
    state = start("1 4 9", "2 6 9")
    for card in (7, 3, 8):
        draw_and_discard(state, 0, card)
        draw_and_discard(state, 1, 6)
    assert view(state, 1)["piles"][0] == [7, 3, 8]  # bottom first, the top last


# ------------------------------------------------------------------ combinations
@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ([6, 6, 6], "6-6-6 (triple)"),
        ([1, 1, 1], "1-1-1 (triple)"),
        ([1, 2, 3], "1-2-3 (run)"),
        ([2, 3, 4], "2-3-4 (run)"),
        ([6, 7, 8], "6-7-8 (run)"),
        ([7, 8, 9], "7-8-9 (run)"),
    ],
)
def test_the_combinations(hand, name):
    assert combination_name(combination(hand)) == name


@pytest.mark.parametrize("hand", [[3, 4, 6], [4, 6, 7], [1, 2, 9], [1, 8, 9], [6, 6, 7]])
def test_no_run_jumps_the_missing_5_or_wraps_around(hand):
    assert combination(hand) == 0


def test_rulebook_example_from_weak_to_strong():
    # "from weak to strong: 1-2-3, 7-8-9, 6-6-6"
    assert combination([1, 2, 3]) < combination([7, 8, 9]) < combination([6, 6, 6])


def test_any_triple_beats_any_run_and_higher_numbers_win_within_a_type():
    runs = [[1, 2, 3], [2, 3, 4], [6, 7, 8], [7, 8, 9]]
    triples = [[n] * 3 for n in (1, 2, 3, 4, 6, 7, 8, 9)]
    strengths = [combination(hand) for hand in runs + triples]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)
    assert combination([1, 1, 1]) > combination([7, 8, 9])


# ------------------------------------------------------------------ C: Try!
def test_try_only_while_holding_a_combination():
    state = start("1 4 9", "2 6 9")
    assert "try" not in legal_texts(state)
    assert reason(state, "try") == (
        "you may declare Try! only while holding a combination (a triple or a run); "
        "your 1 4 9 is none")
    assert "try" in legal_texts(start("6 7 8", "2 6 9"))


def test_rulebook_example_as_a_try_each_stronger_combination_may_answer():
    # 1-2-3 < 7-8-9 < 6-6-6: each answer must beat the best shown so far.
    state = start("1 2 3", "7 8 9", "6 6 6", "2 3 4")
    play(state, "try")
    assert view(state, 3)["hands"][0] == [1, 2, 3]
    assert state.current_player() == 1 and legal_texts(state) == ["reveal", "decline"]
    play(state, "reveal")
    assert state.current_player() == 2 and legal_texts(state) == ["reveal", "decline"]
    play(state, "reveal")
    assert state.current_player() == 3 and legal_texts(state) == ["decline"]
    assert reason(state, "reveal") == (
        "you may reveal only a combination stronger than 6-6-6 (triple) (shown by seat 2); "
        "your 2 3 4 is 2-3-4 (run)")
    play(state, "decline")
    assert state.scores() == [0, 0, 1, 0]
    assert view(state, 0)["hands"][3] == [None] * 3  # who declined stays hidden
    assert "The Try! ends: Seat 2 has the best combination, a 6-6-6 triple, so Seat 2 scores " \
        "a point (1 point in all)." in view(state, 0)["log"]
    assert "The Try! ends: you have the best combination, a 6-6-6 triple, so you score " \
        "a point (1 point in all)." in view(state, 2)["log"]


def test_an_equal_combination_may_not_answer():
    state = play(start("1 2 3", "1 2 3"), "try")
    assert legal_texts(state) == ["decline"]


def test_revealing_is_optional():
    state = play(start("1 2 3", "6 6 6"), "try")
    play(state, "decline")
    assert state.scores() == [1, 0]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_try_answers_go_in_turn_order_ending_on_the_declarers_right(n):
    hands = loose_hands(n)
    declarer = n - 1
    hands[declarer] = "1 2 3"
    state = start(*hands)
    for seat in range(declarer):
        draw_and_discard(state, seat, 6)
    play(state, "try")
    answered = []
    while state.current_player() != CHANCE and view(state)["phase"] == "try":
        answered.append(state.current_player())
        play(state, "decline")
    assert answered == [(declarer + k) % n for k in range(1, n)]
    assert state.scores()[declarer] == 1


def test_after_a_try_revealers_discard_in_their_order_then_draw_three_each():
    state = start("1 2 3", "7 8 9", "6 6 6", "2 3 4")
    play(state, "try", "reveal", "decline", "decline")
    assert state.scores() == [0, 1, 0, 0]
    # Revealers discard in turn order from the declarer, each in the order they choose.
    assert state.current_player() == 0 and view(state)["discarding"] == [0, 1]
    assert legal_texts(state) == ["discard 1", "discard 2", "discard 3"]
    play(state, "discard 2", "discard 3", "discard 1")
    assert state.current_player() == 1
    assert reason(state, "discard 1") == "you hold no 1; discard your revealed cards 7 8 9"
    assert reason(state, "draw") == (
        "discard your revealed cards 7 8 9 one at a time before play goes on")
    play(state, "discard 9", "discard 7", "discard 8")
    assert view(state, None)["piles"] == [[2, 3, 1], [9, 7, 8], [], []]
    # Then the draws: three to the declarer, then three to seat 1.
    seat_draws(state, 0, 6, 6, 6)
    seat_draws(state, 1, 4, 4, 4)
    assert view(state, 0)["hands"][0] == [6, 6, 6]
    assert view(state, 0)["hands"][1] == [None] * 3
    assert state.current_player() == 1  # the turn passes on from the declarer


def test_revealed_cards_are_known_until_discarded():
    state = play(start("1 2 3", "7 8 9", "1 4 9"), "try", "reveal", "decline")
    assert view(state, 2)["hands"][:2] == [[1, 2, 3], [7, 8, 9]]
    play(state, "discard 3")
    assert view(state, 2)["hands"][0] == [1, 2]


def test_try_with_no_answer_scores_for_the_declarer():
    state = play(start("6 7 8", "1 4 9", "2 6 9"), "try", "decline", "decline")
    assert state.scores() == [1, 0, 0]
    assert view(state)["discarding"] == [0]


def test_try_answers_accept_only_reveal_or_decline():
    state = play(start("6 7 8", "1 4 9"), "try")
    assert reason(state, "draw") == "seat 0 declared Try!: you reveal or decline"
    assert reason(state, "discard 1") == "answer seat 0's Try! first: reveal or decline"
    assert reason(start("6 7 8", "1 4 9"), "decline") == (
        "reveal and decline answer another player's Try!; nobody has declared one")


# ------------------------------------------------------------------ D: Jack!
def test_jack_on_a_hand_with_a_combination_scores_for_the_declarer():
    state = play(start("1 4 9", "7 7 7"), "jack seat 1")
    assert state.scores() == [1, 0]
    assert view(state, None)["hands"][1] == [7, 7, 7]
    assert view(state, None)["log"][-3:] == [
        "Seat 0 declares Jack! on Seat 1.",
        "Seat 1 reveals 7, 7 and 7: a 7-7-7 triple.",
        "The Jack! succeeds: Seat 1 holds a 7-7-7 triple, so Seat 0 scores a point "
        "(1 point in all).",
    ]


def test_jack_on_a_hand_without_a_combination_scores_for_the_named_player():
    state = play(start("1 4 9", "2 6 9"), "jack seat 1")
    assert state.scores() == [0, 1]
    assert view(state, 0)["results"][-1]["why"] == "seat 1 holds no combination"


def test_after_a_jack_the_named_player_discards_in_their_order_and_draws_three():
    state = play(start("1 4 9", "2 6 9", "1 3 8"), "jack seat 2")
    assert state.current_player() == 2
    play(state, "discard 8", "discard 1", "discard 3")
    assert view(state, None)["piles"][2] == [8, 1, 3]
    seat_draws(state, 2, 7, 7, 7)
    assert view(state, 0)["hands"][2] == [None] * 3
    assert state.current_player() == 1


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_jack_works_at_every_player_count(n):
    hands = loose_hands(n)
    hands[n - 1] = "8 8 8"
    state = play(start(*hands), f"jack seat {n - 1}")
    assert state.scores() == [1] + [0] * (n - 1)
    assert state.current_player() == n - 1
    play(state, "discard 8", "discard 8", "discard 8")
    seat_draws(state, n - 1, 1, 2, 4)
    assert state.current_player() == 1
    assert view(state, None)["piles"][n - 1] == [8, 8, 8]


def test_jack_must_name_another_player():
    state = start("1 4 9", "2 6 9", "1 3 8")
    assert [t for t in legal_texts(state) if t.startswith("jack")] == ["jack seat 1", "jack seat 2"]
    assert reason(state, "jack seat 0") == "name another player for Jack!, not yourself"
    assert reason(state, "jack seat 5") == "there is no seat 5 in a 3-player game"


# ------------------------------------------------------------------ running out of cards
def run_down_draw_pile(state: State, leave: int) -> State:
    """Turns of A, each drawing the lowest number left and discarding it, until `leave`."""
    while view(state)["draw_pile"] > leave:
        seat = state.current_player()
        play(state, "draw")
        card = state.action_to_string(state.legal_actions()[0]).split()[-1]
        play(state, f"seat {seat} draws {card}", f"discard {card}")
    return state


def test_an_empty_draw_pile_is_rebuilt_from_the_piles_under_their_top_cards():
    state = run_down_draw_pile(start("1 4 9", "2 6 9"), leave=0)
    piles = view(state, None)["piles"]
    assert sum(map(len, piles)) == 74
    tops = [pile[-1] for pile in piles]
    gathered = [card for pile in piles for card in pile[:-1]]
    seat = state.current_player()
    play(state, "draw")
    after = view(state, None)
    assert after["piles"] == [[top] for top in tops]
    assert after["draw_pile"] == 72 and after["reshuffles"] == 1
    # The shuffle draws nothing: the next card is a chance outcome among the gathered cards.
    assert state.current_player() == CHANCE
    probabilities = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    for card in set(gathered):
        assert probabilities[f"seat {seat} draws {card}"] == pytest.approx(
            gathered.count(card) / 72)
    assert "The draw pile is empty: every discard pile but its top card is shuffled into a " \
        "new draw pile of 72 cards." in after["log"]


def test_the_pile_is_not_rebuilt_before_a_draw_is_needed():
    state = run_down_draw_pile(start("1 4 9", "2 6 9"), leave=0)
    play(state, next(text for text in legal_texts(state) if text.startswith("take")))
    play(state, legal_texts(state)[0])
    assert view(state)["draw_pile"] == 0 and view(state)["reshuffles"] == 0


def test_a_pile_running_out_during_redraws_takes_the_discarded_hand_along():
    state = run_down_draw_pile(start("1 4 9", "2 6 9"), leave=1)
    other = 1 - state.current_player()
    play(state, f"jack seat {other}")
    hand = view(state, None)["hands"][other]
    for card in hand:
        play(state, f"discard {card}")
    piles_before = sum(map(len, view(state, None)["piles"]))
    play(state, legal_texts(state)[0])  # the last card of the old pile
    assert view(state)["reshuffles"] == 1
    # Everything but the two tops went back, the first two discards of the hand included.
    assert view(state)["draw_pile"] == piles_before - 2
    assert state.current_player() == CHANCE


# ------------------------------------------------------------------ the end
def test_the_first_player_to_three_points_wins_at_once():
    state = start("1 4 9", "2 6 9")
    play(state, "jack seat 1", "discard 2", "discard 6", "discard 9")
    seat_draws(state, 1, 1, 3, 8)
    play(state, "jack seat 0", "discard 1", "discard 4", "discard 9")
    seat_draws(state, 0, 2, 4, 9)
    play(state, "jack seat 1", "discard 1", "discard 3", "discard 8")
    seat_draws(state, 1, 6, 8, 9)
    assert state.scores() == [1, 2]
    play(state, "jack seat 0")  # seat 0 holds no combination: seat 0 scores
    assert state.scores() == [2, 2]
    play(state, "discard 2", "discard 4", "discard 9")
    seat_draws(state, 0, 6, 6, 6)
    play(state, "jack seat 1")  # seat 1's 6 8 9 is no combination: its third point
    assert state.current_player() == TERMINAL
    assert state.returns() == [0.0, 1.0]
    assert view(state, 0)["winner"] == 1
    assert "Seat 1 has 3 points and wins the game." in view(state, 0)["log"]
    assert "You have 3 points and win the game." in view(state, 1)["log"]


def test_a_try_that_brings_three_points_ends_the_game_before_any_discard():
    state = start("1 2 3", "6 7 8", "1 4 9")
    for _ in range(2):
        play(state, "try", "reveal", "decline")
        play(state, "discard 1", "discard 2", "discard 3", "discard 6", "discard 7", "discard 8")
        seat_draws(state, 0, 1, 2, 3)
        seat_draws(state, 1, 6, 7, 8)
        draw_and_discard(state, 1, 9)
        draw_and_discard(state, 2, 9)
    play(state, "try", "reveal", "decline")
    assert state.scores() == [0, 3, 0]
    assert state.is_terminal() and state.returns() == [0.0, 1.0, 0.0]


def test_every_hand_is_shown_when_the_game_ends():
    state = start("1 4 9", "2 6 9", "1 3 8", turn_limit=1)
    draw_and_discard(state, 0, 7)
    assert state.is_terminal()
    assert view(state, None)["hands"] == [[1, 4, 9], [2, 6, 9], [1, 3, 8]]


def test_the_turn_limit_ends_the_game_as_a_draw():
    state = start("1 4 9", "2 6 9", turn_limit=3)
    draw_and_discard(state, 0, 7)
    play(state, "jack seat 0", "discard 1", "discard 4", "discard 9")
    seat_draws(state, 0, 1, 1, 2)
    assert not state.is_terminal()
    draw_and_discard(state, 0, 7)
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0] and state.scores() == [1, 0]
    assert "The turn limit of 3 turns is reached: the game is a draw." in view(state)["log"]


def test_the_default_turn_limit_is_one_thousand():
    assert load_game("shady_lady").options["turn_limit"] == 1000


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_max_game_length_covers_a_capped_game_of_all_out_tries(n):
    # Every turn a Try! that everyone answers is the longest turn there is.
    game = load_game("shady_lady", players=n, turn_limit=2)
    assert game.max_game_length() == 1 + 3 * n + 2 * 7 * n


# ------------------------------------------------------------------ texts
def test_move_texts():
    state = draw_and_discard(start("1 2 3", "2 6 9", "1 3 8"), 0, 7)
    draw_and_discard(state, 1, 6)
    draw_and_discard(state, 2, 8)
    assert legal_texts(state) == [
        "jack seat 1", "jack seat 2", "draw", "take 7 from seat 0", "take 6 from seat 1",
        "take 8 from seat 2", "try"]
    assert state.string_to_action("Take 7 From Seat 0") == state.string_to_action(
        "take 7 from seat 0")


# ------------------------------------------------------------------ resampling
def long_game(n: int, seed: int, steps: int, after_rebuild: int | None = None) -> State:
    """Random play with no Jack! and few Try!, so games run long enough to rebuild the pile.

    With `after_rebuild`, play stops that many actions after the first rebuild instead.
    """
    state = new_game("shady_lady", players=n)
    rng = random.Random(seed)
    rebuilt_at = None
    for step in range(steps):
        if state.is_terminal():
            break
        if after_rebuild is not None:
            if rebuilt_at is None and state.reshuffles:
                rebuilt_at = step
            if rebuilt_at is not None and step - rebuilt_at >= after_rebuild:
                break
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
            continue
        moves = [a for a in state.legal_actions() if a >= DRAW and (a != TRY or rng.random() < 0.2)]
        state.apply_action(rng.choice(moves or state.legal_actions()))
    return state


def assert_sound_resample(state: State, seat: int | None, rng: random.Random) -> State:
    other = state.resample(seat, rng)
    replay = state.game.new_initial_state()
    for action in other.history():
        replay.apply_action(action)  # every move of the new history is legal
    assert replay == other
    assert other.observation(seat) == state.observation(seat)
    return other


def test_resample_keeps_cards_known_to_be_in_a_hand():
    state = draw_and_discard(start("1 4 9", "2 6 9", "1 3 8"), 0, 7)
    play(state, "take 7 from seat 0", "discard 2")
    for i in range(30):
        other = assert_sound_resample(state, 0, random.Random(i))
        assert 7 in other.hands[1]
        assert other.hands[0] == [1, 4, 9]


def test_resample_honours_what_a_discard_says_about_a_hidden_hand():
    # Seat 1 discarded a 3 nobody knew of: every redrawn history dealt seat 1 a 3.
    state = start("1 4 9", "2 3 9", "1 3 8")
    draw_and_discard(state, 0, 7)
    play(state, "draw", "seat 1 draws 8", "discard 3")
    hands = set()
    for i in range(40):
        other = assert_sound_resample(state, 0, random.Random(i))
        before_discard = new_game("shady_lady", players=3)
        for action in other.history()[:-1]:
            before_discard.apply_action(action)
        assert 3 in before_discard.hands[1]
        hands.add(tuple(other.hands[1]))
    assert len(hands) > 5


def test_resample_redraws_only_what_the_seat_did_not_see():
    state = play(start("1 4 9", "2 6 9", "1 3 8"), "draw", "seat 0 draws 8", "discard 1")
    for i in range(20):
        other = assert_sound_resample(state, 0, random.Random(i))
        assert other.hands[0] == [4, 8, 9]
    spectator = {tuple(assert_sound_resample(state, None, random.Random(i)).hands[0])
                 for i in range(20)}
    assert len(spectator) > 1


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_resample_stays_consistent_after_the_pile_is_rebuilt(n):
    rebuilt = 0
    for seed in range(4):
        # Half the games stop soon after the rebuild, while old cards are still in hands.
        cut = random.Random(seed).randrange(60) if seed % 2 else None
        state = long_game(n, seed, steps=3000, after_rebuild=cut)
        rebuilt += state.reshuffles > 0
        for seat in [*range(n), None]:
            assert_sound_resample(state, seat, random.Random(seed))
    assert rebuilt >= 2


def test_resampled_opponent_hands_follow_the_unseen_cards():
    # Seat 0 holds 7 7 7: each of seat 1's three cards is a 7 with chance 7/77.
    state = start("7 7 7", "1 2 3")
    rng = random.Random(5)
    sevens = sum(state.resample(0, rng).hands[1].count(7) for _ in range(400))
    assert sevens / 1200 == pytest.approx(7 / 77, abs=0.025)


def test_a_resample_reads_the_position_it_is_asked_about_not_an_earlier_one():
    """resample() keeps what it learnt of the history for a seat while the history stays
    the same: asking for another seat, or after a move, must not reuse it."""
    state = long_game(4, 8, steps=1400)
    assert state.reshuffles and not state.is_terminal()
    for round_ in range(6):
        for seat in (1, 2, 1, None, 1):
            assert_sound_resample(state, seat, random.Random(round_))
        rng = random.Random(round_)
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    twin = state.clone()  # a copy learns for itself
    twin.apply_action(twin.legal_actions()[0] if twin.current_player() != CHANCE
                      else sample_chance(twin, random.Random(0)))
    for seat in (1, None):
        assert_sound_resample(twin, seat, random.Random(9))
        assert_sound_resample(state, seat, random.Random(9))


# ------------------------------------------------------------------ whole games
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_random_games_end_within_the_bound(n):
    game = load_game("shady_lady", players=n)
    for seed in range(30):
        state = random_playout(game.new_initial_state(), random.Random(seed))
        assert state.is_terminal()
        assert len(state.history()) <= game.max_game_length()
        assert max(state.scores()) == 3 or state.returns() == [0.0] * n
