"""Tighee, rule by rule (rulebook "Tighee"; rulings in docs/rules/tighee.md)."""

from __future__ import annotations

import json
import random
import time

import pytest
from rich.console import Console

import ladytiger
from ladytiger.cli.views.tighee import render
from ladytiger.core import CHANCE, TERMINAL, BadOptionError, IllegalActionError
from ladytiger.core.playout import random_playout, random_step
from ladytiger.games.tighee import (
    CARD_NAMES,
    COLOUR_MASKS,
    PURPLE,
    RED,
    next_first_lead,
    round_points,
    trick_winner,
    winners,
)
from tests.helpers import legal_texts, new_game, play, reason

CARD = {name: card for card, name in enumerate(CARD_NAMES)}


def cards(spec: str) -> list[str]:
    """'Red 2-4, Black 1' -> ['Red 2', 'Red 3', 'Red 4', 'Black 1']."""
    listed = []
    for part in spec.split(","):
        colour, numbers = part.split()
        low, _, high = numbers.partition("-")
        listed += [f"{colour} {number}" for number in range(int(low), int(high or low) + 1)]
    return listed


# A short game (cards 1-8): 13 cards each, Black 8 is the left-over card.
HANDS = (
    "Red 1-4, Purple 1-4, Green 1-3, Black 1-2",
    "Red 5-8, Blue 1-4, Green 4-6, Black 3-4",
    "Purple 5-8, Blue 5-8, Green 7-8, Black 5-7",
)
PUT_OUTS = ("Red 1, Purple 1, Green 1", "Red 5, Blue 1, Green 4", "Purple 5, Blue 5, Green 7")
# So the tricks start with
#   seat 0: Red 2-4, Purple 2-4, Green 2-3, Black 1-2
#   seat 1: Red 6-8, Blue 2-4, Green 5-6, Black 3-4
#   seat 2: Purple 6-8, Blue 6-8, Green 8, Black 5-7
# and the Forest deck holds the nine put-out cards and Black 8.


def deal(state, hands=HANDS):
    """Deal the hands one card at a time, round the table from seat 0."""
    dealt = [cards(hand) for hand in hands]
    for index in range(len(dealt[0])):
        for seat, hand in enumerate(dealt):
            play(state, f"deal {hand[index]} to seat {seat}")
    return state


def put_out(state, put_outs=PUT_OUTS):
    for chosen in put_outs:
        play(state, *(f"put out {card}" for card in cards(chosen)))
    return state


def short_game(forest=None, hands=HANDS, put_outs=PUT_OUTS, **options):
    """A short game after the deal and the put-out; `forest` turns up the first Forest card."""
    state = put_out(deal(new_game("tighee", players=3, mode="short", **options), hands), put_outs)
    if forest:
        play(state, f"reveal {forest}")
    return state


def trick_view(state, viewer=0):
    return [(entry["seat"], entry["card"], entry["counts_as"])
            for entry in state.observation(viewer)["trick"]]


def first_legal(state):
    """Play the first legal move, or draw chance with a fixed generator."""
    return play(state, legal_texts(state)[0])


def finish_round(state, rng):
    rounds = len(state.past_rounds)
    while len(state.past_rounds) == rounds:
        state.apply_action(random_step(state, rng))
    return state


# ------------------------------------------------------------------ modes (Set Up table)
@pytest.mark.parametrize(
    ("options", "dealt", "out", "tricks", "forest_deck", "top"),
    [
        ({"players": 4}, 15, 3, 12, 12, 12),
        ({"players": 3}, 20, 5, 15, 15, 12),
        ({"players": 3, "mode": "short"}, 13, 3, 10, 10, 8),
    ],
)
def test_each_mode_deals_puts_out_and_plays_the_set_up_tables_numbers(
    options, dealt, out, tricks, forest_deck, top
):
    state = new_game("tighee", **options)
    n = options["players"]
    deck = {state.action_to_string(a).split(" to ")[0] for a in state.legal_actions()}
    assert len(deck) == 5 * top and f"deal Black {top}" in deck
    rng = random.Random(5)
    while state.phase == "deal":
        state.apply_action(random_step(state, rng))
    assert state.observation(None)["hand_sizes"] == [dealt] * n
    while state.phase == "put out":
        state.apply_action(random_step(state, rng))
    view = state.observation(None)
    assert view["put_out_counts"] == [out] * n
    assert view["forest_deck"] == forest_deck  # the short game adds its left-over card
    assert view["tricks_per_round"] == tricks
    finish_round(state, rng)
    assert sum(state.past_rounds[0]["tricks_won"]) == tricks


def test_default_is_the_basic_game_and_short_is_for_three_players_only():
    assert ladytiger.load_game("tighee").options["mode"] == "basic"
    with pytest.raises(BadOptionError, match="3-player short game"):
        ladytiger.load_game("tighee", players=4, mode="short")
    with pytest.raises(BadOptionError, match="'basic', 'short'"):
        ladytiger.load_game("tighee", mode="long")


def test_modes_are_declared_as_variants_for_the_property_tests():
    info = ladytiger.load_game("tighee").info
    assert {"players": 3, "mode": "short"} in info.configurations()
    assert {"players": 4} in info.configurations()


# ------------------------------------------------------------------ the deal
def test_the_deal_is_chance_one_card_at_a_time_round_the_table():
    state = new_game("tighee", players=4)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 60 and all(p == pytest.approx(1 / 60) for _, p in outcomes)
    assert legal_texts(state)[0] == "deal Red 1 to seat 0"
    play(state, "deal Green 7 to seat 0")
    assert legal_texts(state)[0] == "deal Red 1 to seat 1"
    assert len(state.chance_outcomes()) == 59
    assert reason(state, "deal Green 7 to seat 1") == "Green 7 has already been dealt"


def test_a_dealt_card_is_known_only_to_its_receiver_and_hands_list_sorted():
    state = play(new_game("tighee", players=3, mode="short"),
                 "deal Green 1 to seat 0", "deal Red 5 to seat 1", "deal Blue 2 to seat 2",
                 "deal Red 2 to seat 0")
    assert state.observation(0)["hand"] == ["Red 2", "Green 1"]  # colour order, not deal order
    assert state.observation(1)["hand"] == ["Red 5"]
    assert state.observation(None)["hand"] is None
    assert state.observation(1)["hand_sizes"] == [2, 1, 1]
    assert "Green 1" not in json.dumps(state.observation(1))


def test_the_short_game_uses_cards_1_to_8():
    state = new_game("tighee", players=3, mode="short")
    assert reason(state, "deal Red 9 to seat 0") == (
        "there is no Red 9 in the short game (cards 1 to 8)")


# ------------------------------------------------------------------ putting out (Set Up 2)
def test_each_player_secretly_puts_out_cards_one_at_a_time():
    state = deal(new_game("tighee", players=3, mode="short"))
    assert state.current_player() == 0
    assert legal_texts(state) == [f"put out {card}" for card in cards(HANDS[0])]
    play(state, "put out Red 1")
    assert state.observation(0)["put_out"] == ["Red 1"]
    assert state.observation(0)["hand_sizes"] == [12, 13, 13]
    seen_by_1 = state.observation(1)
    assert seen_by_1["put_out"] == [] and seen_by_1["put_out_counts"] == [1, 0, 0]
    assert seen_by_1["log"][-1] == "Seat 0 puts out a card face down."
    assert state.observation(0)["log"][-1] == "You put out Red 1 face down."
    assert "Red 1" not in json.dumps(seen_by_1)
    play(state, "put out Purple 1", "put out Green 1")
    assert state.current_player() == 1


def test_tricks_wait_for_every_put_out_and_only_held_cards_go_out():
    state = play(deal(new_game("tighee", players=3, mode="short")), "put out Red 1")
    assert reason(state, "put out Red 5") == "you do not hold Red 5"
    assert reason(state, "play Red 2") == (
        "the tricks start once everyone has put out cards for the Forest deck; "
        "put out 2 more cards")
    with pytest.raises(IllegalActionError, match="put out 2 more cards"):
        state.apply_action(state.string_to_action("play Red 2"))


def test_the_forest_deck_is_the_put_out_cards_and_the_left_over_card_shuffled():
    state = short_game()
    odds = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    put = [card for chosen in PUT_OUTS for card in cards(chosen)]
    assert sorted(odds) == sorted(f"reveal {card}" for card in [*put, "Black 8"])
    assert all(p == pytest.approx(1 / 10) for p in odds.values())
    assert reason(state, "reveal Red 2") == "Red 2 is not in the Forest deck"
    assert state.observation(2)["forest_deck"] == 10


def test_each_trick_turns_up_a_new_forest_card():
    state = short_game("Purple 1")
    assert state.observation(1)["forest"] == "Purple 1"
    play(state, "play Black 1", "play Black 3", "play Purple 6")
    assert state.current_player() == CHANCE
    assert "reveal Purple 1" not in legal_texts(state)
    assert len(state.chance_outcomes()) == 9


# ------------------------------------------------------------------ Black cards
def test_rulebook_example_black_3_played_under_a_purple_forest_card_is_purple_3():
    state = short_game("Purple 1")
    play(state, "play Black 1")  # seat 0 leads: a Black lead takes the Forest colour
    assert state.observation(1)["follow"] == "Purple"
    play(state, "play Black 3")  # seat 1 holds no Purple
    assert trick_view(state) == [(0, "Black 1", "Purple 1"), (1, "Black 3", "Purple 3")]
    assert state.observation(2)["log"][-1] == "Seat 1 plays Black 3, which counts as Purple 3."
    assert state.observation(1)["log"][-1] == "You play Black 3, which counts as Purple 3."


def test_rulebook_example_black_1_under_a_green_forest_card_counts_as_green_1():
    state = play(short_game("Green 1"), "play Black 1")
    assert trick_view(state) == [(0, "Black 1", "Green 1")]
    assert state.observation(1)["follow"] == "Green"
    assert legal_texts(state) == ["play Green 5", "play Green 6", "play Black 3", "play Black 4"]


def test_a_black_card_in_hand_is_black():
    state = short_game("Green 1")
    assert "Black 1" in state.observation(0)["hand"]


# ------------------------------------------------------------------ the chart, cell by cell
def test_chart_plain_forest_plain_lead_follow_the_lead_colour():
    state = play(short_game("Red 1"), "play Green 2")
    assert state.observation(1)["follow"] == "Green"
    assert legal_texts(state) == ["play Green 5", "play Green 6", "play Black 3", "play Black 4"]


def test_chart_plain_forest_black_lead_follow_the_forest_colour():
    state = play(short_game("Purple 1"), "play Black 1", "play Black 3")
    assert state.observation(2)["follow"] == "Purple"
    assert legal_texts(state) == [
        "play Purple 6", "play Purple 7", "play Purple 8",
        "play Black 5", "play Black 6", "play Black 7",
    ]


def test_chart_black_forest_black_lead_follow_black_and_a_black_holder_must_play_black():
    state = play(short_game("Black 8"), "play Black 1")
    assert state.observation(1)["follow"] == "Black"
    assert legal_texts(state) == ["play Black 3", "play Black 4"]
    assert reason(state, "play Red 6") == (
        "you must follow Black: the Forest card and the lead are both Black, "
        "and you hold Black 3")
    play(state, "play Black 4")
    assert trick_view(state)[1] == (1, "Black 4", "Black 4")
    play(state, "play Black 5")
    assert state.tricks[-1][-1] == 2  # all followed Black: the highest, Black 5, wins


def test_chart_black_forest_black_lead_a_player_without_black_plays_anything():
    state = short_game(
        "Black 8",
        put_outs=("Red 1, Purple 1, Green 1", "Black 3, Black 4, Green 4",
                  "Purple 5, Blue 5, Green 7"))
    play(state, "play Black 1")
    assert len(legal_texts(state)) == 10
    play(state, "play Red 6")
    assert state.observation(2)["follow"] == "Black"


def test_chart_blank_cell_black_forest_plain_lead_follow_the_lead_and_black_does_not_follow():
    # Ruling: follow the lead's colour; a Black card may still be played, stays Black and so
    # does not follow, which makes it a candidate for the lowest card.
    state = play(short_game("Black 8"), "play Red 2")
    assert state.observation(1)["follow"] == "Red"
    assert legal_texts(state) == ["play Red 6", "play Red 7", "play Red 8",
                                  "play Black 3", "play Black 4"]
    play(state, "play Black 3")
    assert trick_view(state)[1] == (1, "Black 3", "Black 3")
    assert state.observation(0)["log"][-1] == (
        "Seat 1 plays Black 3, which stays Black under a Black Forest card.")
    assert len(legal_texts(state)) == 10  # seat 2 holds no Red
    play(state, "play Blue 6")
    assert state.observation(0)["tricks"][-1]["winner"] == 1  # Black 3 < Blue 6
    assert state.observation(0)["log"][-1] == (
        "Seat 1 takes the trick with Black 3, the lowest card not following Red.")


# ------------------------------------------------------------------ following
def test_a_player_holding_the_colour_must_follow_or_play_black():
    state = play(short_game("Red 1"), "play Green 2")
    assert reason(state, "play Red 6") == (
        "you must follow Green or play a Black card: you hold Green 5")
    with pytest.raises(IllegalActionError, match="you hold Green 5"):
        state.apply_action(state.string_to_action("play Blue 2"))
    assert reason(state, "play Black 4") is None  # Black may always be played


def test_a_player_without_the_colour_plays_any_card():
    state = play(short_game("Red 1"), "play Purple 2")
    assert len(legal_texts(state)) == 10  # seat 1 holds no Purple


def test_the_lead_plays_any_card_and_cards_not_held_are_refused():
    state = short_game("Red 1")
    assert len(legal_texts(state)) == 10
    assert reason(state, "play Red 6") == "you do not hold Red 6"
    assert reason(state, "put out Red 2") == (
        "the Forest deck was made before the first trick; now play a card")


# ------------------------------------------------------------------ who takes the trick
def test_when_everyone_follows_the_highest_number_wins():
    state = play(short_game("Purple 1"), "play Black 1", "play Black 3", "play Purple 6")
    view = state.observation(1)
    assert view["tricks_won"] == [0, 0, 1]
    assert view["log"][-1] == "Seat 2 takes the trick with Purple 6, the highest Purple."
    assert state.log(2)[-1] == "You take the trick with Purple 6, the highest Purple."


def test_otherwise_the_lowest_card_that_does_not_follow_wins():
    # Red Forest card: seat 2's Black 7 counts as Red 7 and does not follow Green. It is the
    # only card that does not follow, so it wins although Green 2 is lower.
    state = play(short_game("Red 1"), "play Green 2", "play Green 5", "play Black 7")
    assert state.observation(0)["tricks_won"] == [0, 0, 1]


def test_the_lowest_of_several_cards_not_following_wins():
    state = play(short_game("Red 1"), "play Purple 2", "play Blue 2", "play Black 6")
    assert state.observation(0)["tricks_won"] == [0, 1, 0]  # Blue 2 below Red 6


def test_equal_numbers_the_later_card_wins():
    state = play(short_game("Red 1"), "play Purple 2", "play Green 6", "play Black 6")
    assert state.observation(0)["tricks_won"] == [0, 0, 1]  # Red 6 after Green 6


@pytest.mark.parametrize(
    ("played", "forest", "winner"),
    [
        (["Red 5", "Red 7", "Black 7"], "Red 2", 2),  # all follow; tie at the top: later
        (["Red 5", "Red 7", "Black 7", "Red 3"], "Red 2", 2),
        (["Red 5", "Red 9", "Black 7"], "Red 2", 1),
        (["Red 5", "Blue 3", "Green 3"], "Red 2", 2),  # tie among non-followers: later
        (["Red 5", "Blue 3", "Green 4"], "Red 2", 1),
        (["Black 5", "Blue 3", "Green 7"], "Green 2", 1),  # Black lead counts as Green 5
        (["Black 5", "Black 1", "Red 7"], "Black 2", 2),  # Black Forest: Black lead is Black
        (["Red 5", "Black 1", "Red 7"], "Black 2", 1),  # blank cell: Black 1 does not follow
        (["Red 12", "Red 11", "Red 1", "Red 10"], "Blue 2", 0),
    ],
)
def test_trick_winner(played, forest, winner):
    assert trick_winner([CARD[card] for card in played], CARD[forest]) == winner


def test_the_winner_takes_the_trick_under_the_forest_card_and_leads_next():
    state = play(short_game("Purple 1"), "play Black 1", "play Black 3", "play Purple 6")
    view = state.observation(0)
    assert view["pile_tops"] == [None, None, "Purple 1"]
    assert view["tricks"] == [
        {"trick": 1, "lead": 0, "forest": "Purple 1",
         "cards": [[0, "Black 1"], [1, "Black 3"], [2, "Purple 6"]], "winner": 2},
    ]
    play(state, "reveal Green 1")
    assert state.current_player() == 2
    assert state.observation(0)["lead"] == 2
    assert state.conserved()["cards"] == 40


# ------------------------------------------------------------------ scoring and rounds
@pytest.mark.parametrize(
    ("tricks", "points"),
    [(0, 0), (1, -10), (2, -20), (3, -30), (4, 50), (5, -50), (6, -60), (7, -70),
     (8, 100), (9, -90), (10, -100), (11, -110), (12, 169), (13, -130), (14, -140),
     (15, -150)],
)
def test_round_points(tricks, points):
    # Rulebook examples: 5 tricks is minus 50, and the fantastic Tighee of 12 is worth 169.
    assert round_points(tricks) == points


def test_a_round_ends_when_the_hands_are_empty_and_scores_its_tricks():
    state = short_game()
    finish_round(state, random.Random(3))
    result = state.past_rounds[0]
    assert sum(result["tricks_won"]) == 10
    assert result["points"] == [round_points(t) for t in result["tricks_won"]]
    assert state.scores() == result["points"]
    assert state.phase == "deal" and state.observation(0)["round"] == 2
    assert state.observation(0)["tricks_won"] == [0, 0, 0]
    assert state.observation(0)["first_lead"] == next_first_lead(result["points"], 0)


@pytest.mark.parametrize(
    ("totals", "previous", "lead"),
    [
        ([0, -20, 50], 0, 1),  # the lowest total leads
        ([-30, 50, -30], 0, 2),  # tie: the first tied seat clockwise after seat 0
        ([-30, 50, -30], 2, 0),
        ([-30, -30, 50], 0, 1),
        ([-10, -10, -10, -10], 1, 2),
        ([-10, 40, 40, -10], 3, 0),
        ([-10, 40, 40, -10], 0, 3),
    ],
)
def test_later_rounds_are_led_by_the_lowest_total(totals, previous, lead):
    assert next_first_lead(totals, previous) == lead


@pytest.mark.parametrize("players", [3, 4])
def test_the_game_lasts_one_round_per_player(players):
    game = ladytiger.load_game("tighee", players=players)
    state = random_playout(game.new_initial_state(), random.Random(players))
    assert state.current_player() == TERMINAL
    assert len(state.past_rounds) == players
    assert len(state.history()) == game.max_game_length()
    for before, after in zip(state.past_rounds, state.past_rounds[1:], strict=False):
        assert after["first_lead"] == next_first_lead(before["totals"], before["first_lead"])


@pytest.mark.parametrize(
    ("totals", "last", "best"),
    [
        ([100, 50, -20], [0, 0, 0], [0]),
        ([100, 50, 100], [50, 0, -10], [0]),  # tie on totals: the better last round
        ([100, 50, 100], [-10, 0, 50], [2]),
        ([100, 100, 0], [50, 50, 0], [0, 1]),  # still tied: a shared win
    ],
)
def test_winner_is_the_highest_total_then_the_last_round(totals, last, best):
    assert winners(totals, last) == best


def test_returns_follow_the_winner_rule():
    state = random_playout(new_game("tighee", players=4), random.Random(11))
    best = winners(state.scores(), state.past_rounds[-1]["points"])
    assert state.observation(None)["winners"] == best
    assert state.returns() == [1 / len(best) if s in best else 0.0 for s in range(4)]
    last = state.observation(None)["log"][-1]
    if len(best) == 1:
        assert last.startswith(f"Seat {best[0]} wins the game with ")
    else:
        assert " share the win with " in last


def test_seat_0_leads_first_unless_the_option_draws_it():
    assert short_game("Red 1").current_player() == 0
    state = new_game("tighee", players=3, mode="short", random_first_lead=True)
    assert state.chance_outcomes() == [(120, pytest.approx(1 / 3)), (121, pytest.approx(1 / 3)),
                                       (122, pytest.approx(1 / 3))]
    play(state, "seat 2 leads first")
    put_out(deal(state))
    play(state, "reveal Red 1")
    assert state.current_player() == 2


def test_play_goes_clockwise_from_the_lead_with_four_players():
    state = play(new_game("tighee", players=4, random_first_lead=True), "seat 3 leads first")
    rng = random.Random(6)
    assert legal_texts(state)[0] == "deal Red 1 to seat 0"  # the deal always starts at seat 0
    while state.current_player() == CHANCE or state.phase == "put out":
        state.apply_action(random_step(state, rng))
    order = []
    for _ in range(4):
        order.append(state.current_player())
        first_legal(state)
    assert order == [3, 0, 1, 2]


# ------------------------------------------------------------------ what a seat sees
def test_a_seat_sees_its_hand_its_put_out_cards_and_the_table_only():
    state = play(short_game("Purple 1"), "play Black 1", "play Black 3", "play Purple 6",
                 "reveal Green 1", "play Blue 6")
    view = state.observation(1)
    assert view["hand"] == cards("Red 6-8, Blue 2-4, Green 5-6, Black 4")
    assert view["put_out"] == ["Red 5", "Blue 1", "Green 4"]
    assert view["forest"] == "Green 1" and view["forest_deck"] == 8
    assert view["hand_sizes"] == [9, 9, 8]
    assert view["tricks_won"] == [0, 0, 1] and view["pile_tops"] == [None, None, "Purple 1"]
    text = json.dumps(view)
    for hidden in [*cards("Red 2-4, Purple 2-4, Green 2-3, Black 2"),  # seat 0's hand
                   "Purple 5", "Blue 5", "Green 7", "Red 1"]:  # others' put-out cards
        assert f'"{hidden}"' not in text
    spectator = state.observation(None)
    assert spectator["hand"] is None and spectator["put_out"] is None


def test_won_piles_show_their_top_while_the_memory_of_tricks_stays_in_the_observation():
    state = play(short_game("Purple 1"), "play Black 1", "play Black 3", "play Purple 6")
    for viewer in (0, 1, 2, None):
        view = state.observation(viewer)
        assert view["pile_tops"][2] == "Purple 1"
        assert view["tricks"][0]["cards"][2] == [2, "Purple 6"]


def test_the_log_masks_the_deal_and_the_put_outs():
    state = short_game("Purple 1")
    log = state.observation(2)["log"]
    assert log == [
        "Round 1: the deck is dealt, 13 cards to each player.",
        *["Seat 0 puts out a card face down."] * 3,
        *["Seat 1 puts out a card face down."] * 3,
        "You put out Purple 5 face down.",
        "You put out Blue 5 face down.",
        "You put out Green 7 face down.",
        "Trick 1: the Forest card is Purple 1.",
    ]


def test_the_terminal_view_draws_a_seats_table():
    state = play(short_game("Purple 1"), "play Black 1")
    console = Console(record=True, width=120)
    console.print(render(state.observation(1)))
    text = console.export_text()
    assert "Purple 1" in text and "Black 1" in text and "your hand" in text
    final = random_playout(new_game("tighee", players=4), random.Random(2))
    console.print(render(final.observation(None)))
    assert "win" in console.export_text()


# ------------------------------------------------------------------ resampling
def test_resample_respects_voids_and_keeps_the_seats_own_cards():
    # Seat 1 shows out of Purple: no resample may give seat 1 a Purple card.
    state = play(short_game("Red 1"), "play Purple 2", "play Green 6")
    purple = COLOUR_MASKS[PURPLE]
    held_by_0 = set()
    for seed in range(60):
        other = state.resample(2, random.Random(seed))
        assert other.hands[1] & purple == 0
        assert other.hands[2] == state.hands[2] and other.put_out[2] == state.put_out[2]
        assert other.observation(2) == state.observation(2)
        held_by_0.add(other.hands[0])
    assert len(held_by_0) > 10


def test_resample_redraws_who_put_out_which_forest_card():
    state = short_game()
    finish_round(state, random.Random(4))
    # History 42-47 hold seats 1 and 2's put-out choices of round 1.
    puts = {tuple(state.resample(0, random.Random(seed)).history()[42:48])
            for seed in range(20)}
    assert len(puts) > 1


def test_resampled_histories_replay_legally():
    rng = random.Random(8)
    for options in ({"players": 4}, {"players": 3}, {"players": 3, "mode": "short"}):
        game = ladytiger.load_game("tighee", **options)
        for _ in range(4):
            state = game.new_initial_state()
            for _ in range(rng.randrange(game.max_game_length())):
                state.apply_action(random_step(state, rng))
            for viewer in (*range(game.num_players), None):
                other = state.resample(viewer, rng)
                replay = game.new_initial_state()
                for action in other.history():
                    replay.apply_action(action)  # raises on any illegal step
                assert replay == other
                assert other.observation(viewer) == state.observation(viewer)


def test_resampling_is_fast():
    rng = random.Random(1)
    state = new_game("tighee", players=4)
    for _ in range(350):  # round 3, mid-trick
        state.apply_action(random_step(state, rng))
    start = time.perf_counter()
    for _ in range(20):
        state.resample(1, rng)
    assert (time.perf_counter() - start) / 20 < 0.02


def test_a_spectators_resample_respects_voids_too():
    # Everyone saw seat 2 play Blue on a Red lead: seat 2 holds no Red.
    state = play(short_game("Green 1"), "play Red 2", "play Red 6", "play Blue 6")
    assert state.voids() == [0, 0, 1 << RED]
    for seed in range(20):
        assert state.resample(None, random.Random(seed)).hands[2] & COLOUR_MASKS[RED] == 0


@pytest.mark.slow
def test_many_random_games_finish_at_their_exact_length():
    for options in ({"players": 4}, {"players": 3}, {"players": 3, "mode": "short"}):
        game = ladytiger.load_game("tighee", **options)
        for seed in range(100):
            state = random_playout(game.new_initial_state(), random.Random(seed))
            assert state.is_terminal()
            assert len(state.history()) == game.max_game_length()
