"""Traps, rule by rule (rulebook section "Traps"; rulings in docs/rules/traps.md).

Most rules are checked at every player count, 2 to 6. Deals are forced by their text; the
standard deal hands out the Clue cards in card order (Red Ladies first), so seat 0 always
holds Red Ladies and the last seat a Blue Tiger.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladytiger.core import CHANCE, TERMINAL, IllegalActionError
from ladytiger.core.playout import random_playout, random_step, sample_chance
from ladytiger.games.lady_tiger_cards import CARD_NAMES, card_from_name
from ladytiger.games.traps import MATCHES, draw_hands
from tests.helpers import legal_texts, new_game, play, reason

COUNTS = [2, 3, 4, 5, 6]
HAND = {2: 6, 3: 4, 4: 3, 5: 2, 6: 2}
ORDER = (["Red Lady"] * 3 + ["Red Tiger"] * 3 + ["Blue Lady"] * 3 + ["Blue Tiger"] * 3
         + ["Blue/Red", "Lady/Tiger"])


def standard_hands(n):
    size = HAND[n]
    return [ORDER[seat * size:(seat + 1) * size] for seat in range(n)]


def dealt(n, hands=None, **options):
    """A new game of `n` players with the hands dealt (the rest set aside unseen)."""
    state = new_game("traps", players=n, **options)
    deal(state, hands or standard_hands(n))
    return state


def deal(state, hands):
    for seat, cards in enumerate(hands):
        play(state, *(f"deal {card} to seat {seat}" for card in cards))


def start_stacks(state, cards):
    """Every player starts a stack, in turn from the starting player; cards[seat] is theirs."""
    for _ in range(state.num_players()):
        play(state, f"start stack with {cards[state.current_player()]}")


def season(n, goal, starts=None, hands=None, **options):
    """A game at the first build-or-bid turn of season 1 with the given goal and stacks."""
    state = dealt(n, hands, **options)
    play(state, f"goal {goal}")
    start_stacks(state, starts or [cards[0] for cards in standard_hands(n)])
    return state


def win_bidding(state, seat, amount):
    """Bidding in which `seat` bids `amount`; the first player bids 1 if it is another seat,
    everyone else passes."""
    while state.phase in ("build or bid", "bidding"):
        if state.current_player() == seat:
            play(state, f"bid {amount}")
        elif state.phase == "build or bid":
            play(state, "bid 1")
        else:
            play(state, "pass")
    assert state.current_player() == seat


def gems(state):
    return state.observation(None)["gems"]


def view(state, seat=None):
    return state.observation(seat)


# ------------------------------------------------------------------ setup
@pytest.mark.parametrize("n", COUNTS)
def test_setup_gems_and_pot(n):
    state = new_game("traps", players=n)
    public = view(state)
    assert public["gems"] == [1] * n
    assert public["pot"] == 3  # the first season has begun: 3 gems from the treasury
    assert public["treasury"] == 25 - n - 3
    assert state.conserved()["gems"] == 25


@pytest.mark.parametrize("n", COUNTS)
def test_hands_are_dealt_one_card_at_a_time_from_the_fourteen(n):
    state = new_game("traps", players=n)
    assert state.current_player() == CHANCE
    odds = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert odds["deal Red Lady to seat 0"] == pytest.approx(3 / 14)
    assert odds["deal Lady/Tiger to seat 0"] == pytest.approx(1 / 14)
    play(state, "deal Lady/Tiger to seat 0")
    assert "deal Lady/Tiger to seat 0" not in legal_texts(state)
    assert reason(state, "deal Lady/Tiger to seat 0") == "no Lady/Tiger is left to deal"
    odds = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert odds["deal Red Lady to seat 0"] == pytest.approx(3 / 13)


@pytest.mark.parametrize("n", COUNTS)
def test_hand_sizes_and_cards_set_aside_unseen(n):
    state = dealt(n)
    public = view(state)
    assert public["hand_sizes"] == [HAND[n]] * n
    assert public["set_aside"] == (4 if n == 5 else 2)
    assert HAND[n] * n + public["set_aside"] == 14
    # The set-aside cards are never dealt as chance outcomes: nobody sees them.
    assert len(state.history()) == HAND[n] * n
    assert state.current_player() == CHANCE
    assert all(text.startswith("goal") for text in legal_texts(state))


# Seat 0's view of the standard deal.
DEAL_LINES = {
    2: "You are dealt three Red Ladies and three Red Tigers; Seat 1 is dealt 6 cards.",
    3: "You are dealt three Red Ladies and a Red Tiger; Seat 1 and Seat 2 are dealt 4 cards "
       "each.",
    4: "You are dealt three Red Ladies; Seat 1, Seat 2 and Seat 3 are dealt 3 cards each.",
    5: "You are dealt two Red Ladies; Seat 1, Seat 2, Seat 3 and Seat 4 are dealt 2 cards each.",
    6: "You are dealt two Red Ladies; Seat 1, Seat 2, Seat 3, Seat 4 and Seat 5 are dealt 2 "
       "cards each.",
}


@pytest.mark.parametrize("n", COUNTS)
def test_each_player_sees_only_their_own_hand(n):
    state = dealt(n)
    hands = standard_hands(n)
    for seat in range(n):
        assert view(state, seat)["hand"] == hands[seat]
    assert view(state)["hand"] is None
    # The whole deal is one line: the viewer's cards by name, everyone else's counted.
    assert view(state, 0)["log"] == [DEAL_LINES[n]]
    assert "Red Ladies" not in view(state, n - 1)["log"][0]


# ------------------------------------------------------------------ starting a season
@pytest.mark.parametrize("n", COUNTS)
def test_the_goal_is_the_top_door_card_each_door_once_a_year(n):
    state = dealt(n)
    assert state.chance_outcomes() == [(6, 0.25), (7, 0.25), (8, 0.25), (9, 0.25)]
    play(state, "goal Red Tiger")
    assert view(state)["goal"] == "Red Tiger"
    assert view(state)["door_deck"] == 3
    quick_season_end(state)
    assert view(state)["goal"] is None
    assert reason(state, "goal Red Tiger") == (
        "the Red Tiger Door has already been a goal this year")
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "goal Red Lady", "goal Blue Lady", "goal Blue Tiger"]
    assert all(p == pytest.approx(1 / 3) for _, p in state.chance_outcomes())


def quick_season_end(state):
    """Start stacks with any card, the starting player bids 13, the rest pass, the revealer
    stops at once by giving a gem to the next seat."""
    n = state.num_players()
    start_stacks(state, [view(state, s)["hand"][0] for s in range(n)])
    revealer = state.current_player()
    play(state, "bid 13", *["pass"] * (n - 1))
    play(state, f"stop and give a gem to seat {(revealer + 1) % n}")


@pytest.mark.parametrize("n", COUNTS)
def test_stacks_start_with_hidden_choices_in_turn_from_the_starting_player(n):
    state = dealt(n)
    play(state, "goal Blue Lady")
    assert state.current_player() == 0
    assert legal_texts(state) == ["start stack with Red Lady"] + (
        ["start stack with Red Tiger"] if n in (2, 3) else [])
    assert reason(state, "bid 3") == (
        "the bidding is not open; seat 0 now starts a stack with one card from hand")
    play(state, "start stack with Red Lady")
    assert state.current_player() == 1
    # Nobody else learns the card: only that a stack was started.
    assert "Seat 0 starts their stack with a face-down card." in view(state, 1)["log"]
    assert "You start your stack with the Red Lady." in view(state, 0)["log"]
    assert view(state, 1)["stacks"][0] == {"face_down": 1, "revealed": [], "cards": None}
    assert view(state, 0)["stacks"][0]["cards"] == ["Red Lady"]
    assert view(state, 0)["hand_sizes"][0] == HAND[n] - 1
    for seat in range(1, n):
        assert state.current_player() == seat
        play(state, f"start stack with {standard_hands(n)[seat][0]}")
    assert state.phase == "build or bid"
    assert state.current_player() == 0


@pytest.mark.parametrize("n", COUNTS)
def test_another_seats_stack_start_is_redrawn_by_resampling(n):
    state = dealt(n)
    play(state, "goal Blue Lady", "start stack with Red Lady")
    starts = {state.resample(1, random.Random(i)).stacks[0][0] for i in range(40)}
    assert len(starts) > 1
    assert {state.resample(0, random.Random(i)).stacks[0][0] for i in range(10)} == {
        card_from_name("Red Lady")}


# ------------------------------------------------------------------ build, bid, pass
@pytest.mark.parametrize("n", COUNTS)
def test_before_any_bid_each_player_builds_or_bids_and_cannot_pass(n):
    state = season(n, "Red Lady")
    held = sorted(set(view(state, 0)["hand"]), key=card_from_name)
    assert legal_texts(state) == [f"build {card}" for card in held] + [
        f"bid {k}" for k in range(1, 14)]
    assert reason(state, "pass") == (
        "no one has bid yet, so there is nothing to pass on: build or bid")
    assert reason(state, "build Lady/Tiger") == "you hold no Lady/Tiger"
    play(state, f"build {held[0]}")
    assert view(state, 1)["stacks"][0] == {"face_down": 2, "revealed": [], "cards": None}
    assert "Seat 0 builds a face-down card onto their stack." in view(state, 1)["log"]
    assert f"You build the {held[0]} onto your stack." in view(state, 0)["log"]
    assert view(state, 0)["stacks"][0]["cards"] == ["Red Lady", held[0]]
    assert state.current_player() == 1


@pytest.mark.parametrize("n", COUNTS)
def test_after_the_first_bid_players_only_bid_higher_or_pass(n):
    state = season(n, "Red Lady")
    play(state, "bid 5")
    assert state.current_player() == 1
    assert legal_texts(state) == [f"bid {k}" for k in range(6, 14)] + ["pass"]
    assert reason(state, "bid 5") == "a bid must be higher than the current bid of 5"
    assert reason(state, "build Red Lady") == (
        "once anyone has bid, no one builds: bid higher or pass")
    play(state, "bid 13")
    if n > 2:
        assert legal_texts(state) == ["pass"]  # 13 is the highest bid
        play(state, *["pass"] * (n - 2))
    # The player who bid first passes too; the high bidder is never asked again.
    assert state.current_player() == 0
    play(state, "pass")
    assert state.phase == "revealing"
    assert state.current_player() == 1
    assert view(state)["revealer"] == 1 and view(state)["high_bid"] == 13


@pytest.mark.parametrize("n", COUNTS)
def test_passing_is_for_the_rest_of_the_season(n):
    if n == 2:
        state = season(n, "Red Lady")
        play(state, "bid 1", "pass")
        assert state.phase == "revealing" and state.current_player() == 0
        return
    state = season(n, "Red Lady")
    play(state, "bid 1", "pass", "bid 2")  # seat 1 passed, seat 2 outbids
    play(state, *["pass"] * (n - 3))  # seats 3.. pass
    assert state.current_player() == 0  # seat 1 is skipped from now on
    play(state, "bid 3")
    assert state.current_player() == 2
    play(state, "pass")
    assert state.phase == "revealing" and state.current_player() == 0
    assert view(state)["passed"] == [False] + [True] * (n - 1)


@pytest.mark.parametrize("n", COUNTS)
def test_a_player_with_no_cards_in_hand_must_bid(n):
    state = season(n, "Red Lady")
    while view(state)["hand_sizes"][0]:
        seat = state.current_player()
        play(state, f"build {view(state, seat)['hand'][0]}")
        while state.current_player() != 0:
            seat = state.current_player()
            play(state, f"build {view(state, seat)['hand'][0]}")
    assert legal_texts(state) == [f"bid {k}" for k in range(1, 14)]
    assert reason(state, "build Red Lady") == "your hand is empty, so you must bid"


# ------------------------------------------------------------------ revealing
@pytest.mark.parametrize(
    ("card", "traits"),
    [("Red Tiger", 2), ("Red Lady", 1), ("Blue Tiger", 1), ("Blue Lady", 0),
     ("Blue/Red", 1), ("Lady/Tiger", 0)],
)
def test_the_rulebooks_matching_table_for_a_red_tiger_goal(card, traits):
    assert MATCHES[card_from_name("Red Tiger")][card_from_name(card)] == traits


@pytest.mark.parametrize("goal", ["Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger"])
def test_wilds_blue_red_matches_one_trait_lady_tiger_is_always_a_trap(goal):
    door = card_from_name(goal)
    assert MATCHES[door][card_from_name("Blue/Red")] == 1
    assert MATCHES[door][card_from_name("Lady/Tiger")] == 0
    assert MATCHES[door][door] == 2
    opposite = door ^ 3  # the other colour and the other role
    assert MATCHES[door][opposite] == 0


@pytest.mark.parametrize("n", COUNTS)
def test_revealing_takes_the_top_card_of_any_stack_one_at_a_time(n):
    state = season(n, "Red Lady", starts=[cards[-1] for cards in standard_hands(n)])
    play(state, "bid 13", *["pass"] * (n - 1))
    assert legal_texts(state)[:n] == [f"reveal seat {s}" for s in range(n)]
    play(state, f"reveal seat {n - 1}")  # a Blue Tiger: a trap for the Red Lady
    shown = view(state, 0)["stacks"][n - 1]
    assert shown == {"face_down": 0, "revealed": ["Blue Tiger"], "cards": None}
    assert reason(state, f"reveal seat {n - 1}") == (
        f"seat {n - 1}'s stack has no face-down card left")
    if n < 6:
        assert reason(state, "reveal seat 5") == f"there is no seat 5 in a {n}-player game"


@pytest.mark.parametrize("n", COUNTS)
def test_a_trap_from_an_opponents_stack_gives_that_opponent_a_gem_from_the_pot(n):
    state = season(n, "Red Lady", starts=[cards[-1] for cards in standard_hands(n)])
    play(state, "bid 13", *["pass"] * (n - 1), f"reveal seat {n - 1}")
    assert gems(state) == [1] * (n - 1) + [2]
    assert view(state)["pot"] == 2
    assert f"You reveal the Blue Tiger from Seat {n - 1}'s stack: a trap, so Seat {n - 1} " \
           "takes a gem from the pot." in view(state, 0)["log"]
    assert "Seat 0 reveals the Blue Tiger from your stack: a trap, so you take a gem " \
           "from the pot." in view(state, n - 1)["log"]


@pytest.mark.parametrize("n", COUNTS)
def test_matches_add_up_towards_the_bid(n):
    state = season(n, "Red Lady", starts=[cards[-1] for cards in standard_hands(n)])
    play(state, "bid 13", *["pass"] * (n - 1))
    play(state, "reveal seat 0")
    expected = 2 if standard_hands(n)[0][-1] == "Red Lady" else 1
    assert view(state)["matched"] == expected
    assert gems(state) == [1] * n


@pytest.mark.parametrize("n", COUNTS)
def test_a_trap_from_ones_own_stack_the_revealer_chooses_the_opponent(n):
    state = season(n, "Blue Tiger")  # seat 0 started with a Red Lady: a trap here
    play(state, "bid 13", *["pass"] * (n - 1), "reveal seat 0")
    assert state.phase == "trap gem" and state.current_player() == 0
    assert legal_texts(state) == [f"trap gem to seat {s}" for s in range(1, n)]
    assert reason(state, "trap gem to seat 0") == (
        "the gem must go to an opponent, not to yourself")
    assert reason(state, "reveal seat 1") == (
        "cards are revealed only after the bidding; seat 0 must first choose the opponent "
        "who takes the gem for the trap")
    assert reason(state, "stop and give a gem to seat 1").startswith(
        "only the revealer may stop, while revealing")
    play(state, f"trap gem to seat {n - 1}")
    assert gems(state) == [1] * (n - 1) + [2]
    assert view(state)["pot"] == 2
    assert state.phase == "revealing"


# ------------------------------------------------------------------ season end
@pytest.mark.parametrize("n", COUNTS)
def test_reaching_the_bid_takes_the_whole_pot_and_ends_the_season(n):
    state = season(n, "Red Lady")  # seat 0's Red Lady matches both traits
    play(state, "bid 2", *["pass"] * (n - 1), "reveal seat 0")
    assert gems(state) == [4] + [1] * (n - 1)
    record = view(state)["past_seasons"][-1]
    assert record["how"] == "Seat 0 reached the bid of 2 and took 3 gems from the pot."
    # Each seat reads it in its own words.
    assert view(state, 0)["past_seasons"][-1]["how"] == (
        "You reached the bid of 2 and took 3 gems from the pot.")
    assert record["revealed"][0] == ["Red Lady"]
    # The next season has begun: stacks back in hand, a fresh pot, left of the high bidder.
    public = view(state)
    assert public["season"] == 2 and public["pot"] == 3
    assert public["treasury"] == 25 - n - 6
    assert public["hand_sizes"] == [HAND[n]] * n
    assert all(s == {"face_down": 0, "revealed": [], "cards": None} for s in public["stacks"])
    play(state, "goal Blue Lady")
    assert state.current_player() == 1
    assert view(state, 0)["hand"] == standard_hands(n)[0]


@pytest.mark.parametrize("n", COUNTS)
def test_the_season_ends_when_the_revealer_runs_out_of_cards(n):
    state = season(n, "Red Lady")
    play(state, "bid 13", *["pass"] * (n - 1))
    for seat in range(n):
        play(state, f"reveal seat {seat}")
    record = view(state)["past_seasons"][-1]
    assert record["how"] == "Seat 0 ran out of cards to reveal."
    assert view(state, 0)["past_seasons"][-1]["how"] == "You ran out of cards to reveal."
    assert record["matched"] < 13
    assert view(state)["season"] == 2
    assert state.conserved()["gems"] == 25


def red_ladies_first(n):
    """Hands where seats 0, 1 and 2 each hold a Red Lady (for 2 players: seat 1 all three)."""
    if n == 2:
        return [["Red Tiger"] * 3 + ["Blue Lady"] * 3, ["Red Lady"] * 3 + ["Blue Tiger"] * 3]
    rest, hands = ORDER[3:], []
    for seat in range(n):
        take = HAND[n] - (seat < 3)
        hands.append(["Red Lady"] * (seat < 3) + rest[:take])
        rest = rest[take:]
    return hands


@pytest.mark.parametrize("n", COUNTS)
def test_the_season_ends_when_the_pot_is_empty(n):
    hands = red_ladies_first(n)
    state = dealt(n, hands)
    play(state, "goal Blue Tiger")  # every Red Lady is a trap
    start_stacks(state, [cards[0] for cards in hands])
    if n == 2:
        play(state, "build Red Tiger", "build Red Lady", "build Red Tiger", "build Red Lady")
    play(state, "bid 13", *["pass"] * (n - 1))
    if n == 2:
        play(state, "reveal seat 1", "reveal seat 1", "reveal seat 1")
        assert gems(state) == [1, 4]
    else:
        play(state, "reveal seat 1", "reveal seat 2", "reveal seat 0", "trap gem to seat 1")
        assert gems(state) == [1, 3, 2] + [1] * (n - 3)
    assert view(state)["past_seasons"][-1]["how"] == "The pot is empty."
    assert view(state)["season"] == 2 and view(state)["treasury"] == 25 - n - 6


@pytest.mark.parametrize("n", COUNTS)
def test_the_revealer_may_stop_by_giving_a_gem_to_an_opponent_with_three_or_fewer(n):
    state = season(n, "Red Lady")
    play(state, "bid 13", *["pass"] * (n - 1))
    assert f"stop and give a gem to seat {n - 1}" in legal_texts(state)  # even before a reveal
    assert reason(state, "stop and give a gem to seat 0") == (
        "the gem must go to an opponent, not to yourself")
    play(state, "reveal seat 0", "stop and give a gem to seat 1")
    assert gems(state) == [0, 2] + [1] * (n - 2)
    assert view(state)["past_seasons"][-1]["how"] == (
        "Seat 0 stopped revealing and gave a gem to Seat 1.")
    assert view(state, 1)["past_seasons"][-1]["how"] == (
        "Seat 0 stopped revealing and gave a gem to you.")
    assert view(state)["pot"] == 3 and view(state)["season"] == 2
    # A revealer without gems cannot stop.
    play(state, "goal Blue Lady")
    start_stacks(state, [cards[0] for cards in standard_hands(n)])
    win_bidding(state, 0, 2)
    assert reason(state, "stop and give a gem to seat 1") == (
        "you have no gem to give, so you cannot stop: keep revealing")
    assert not any(text.startswith("stop") for text in legal_texts(state))


@pytest.mark.parametrize("n", COUNTS)
def test_the_next_season_starts_left_of_the_highest_bidder(n):
    state = season(n, "Red Lady")
    win_bidding(state, n - 1, 2)
    play(state, "stop and give a gem to seat 0")
    play(state, "goal Blue Lady")
    assert state.current_player() == 0  # left of the last seat is seat 0
    assert view(state)["starting_player"] == 0
    start_stacks(state, [cards[0] for cards in standard_hands(n)])
    win_bidding(state, 0, 2)
    play(state, "stop and give a gem to seat 1")
    play(state, "goal Blue Tiger")
    assert state.current_player() == 1


@pytest.mark.parametrize("n", COUNTS)
def test_a_new_year_after_four_seasons_reshuffles_and_deals_anew(n):
    state = dealt(n)
    for goal in ("Red Lady", "Red Tiger", "Blue Lady"):
        play(state, f"goal {goal}")
        quick_season_end(state)
    play(state, "goal Blue Tiger")
    assert view(state)["door_deck"] == 0
    quick_season_end(state)
    public = view(state)
    assert public["year"] == 2 and public["season"] == 5 and public["door_deck"] == 4
    assert public["hand_sizes"] == [0] * n
    odds = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert odds["deal Red Lady to seat 0"] == pytest.approx(3 / 14)
    assert "Year 2 begins: the Door and Clue cards are shuffled together " in " ".join(
        public["log"])
    new_hands = standard_hands(n)[::-1]
    deal(state, new_hands)
    assert len(state.chance_outcomes()) == 4
    assert view(state, 0)["hand"] == sorted(new_hands[0], key=card_from_name)


# ------------------------------------------------------------------ winning and the cap
@pytest.mark.parametrize("n", COUNTS)
def test_a_fifth_gem_from_a_trap_wins_at_once(n):
    state = season(n, "Red Lady")
    play(state, "bid 2", *["pass"] * (n - 1), "reveal seat 0")  # seat 0 now holds 4
    play(state, "goal Blue Tiger")  # a Red Lady is a trap for the Blue Tiger
    start_stacks(state, [cards[0] for cards in standard_hands(n)])
    win_bidding(state, 1, 13)
    play(state, "reveal seat 0")
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0] + [0.0] * (n - 1)
    assert gems(state)[0] == 5
    assert view(state)["winner"] == 0
    assert view(state)["past_seasons"][-1]["how"] == (
        "Seat 0's trap gave them a gem, and Seat 0 wins with 5 gems.")
    assert view(state, 0)["past_seasons"][-1]["how"] == (
        "Your trap gave you a gem, and you win with 5 gems.")
    assert state.conserved()["gems"] == 25


@pytest.mark.parametrize("n", COUNTS)
def test_reaching_the_bid_to_five_or_more_gems_wins(n):
    state = season(n, "Red Lady")
    play(state, "bid 2", *["pass"] * (n - 1), "reveal seat 0")  # seat 0 now holds 4
    play(state, "goal Blue Lady")  # a Red Lady matches one trait
    start_stacks(state, [cards[0] for cards in standard_hands(n)])
    win_bidding(state, 0, 2)
    play(state, "reveal seat 0", f"reveal seat {n - 1}")  # a Blue Lady or a Blue Tiger
    assert state.is_terminal()
    assert state.scores()[0] == 7  # 4 and the whole pot of 3: five or more wins
    assert state.returns() == [1.0] + [0.0] * (n - 1)


@pytest.mark.parametrize("n", COUNTS)
def test_the_season_cap_ends_the_game_in_a_draw(n):
    state = dealt(n, max_seasons=2)
    play(state, "goal Red Lady")
    quick_season_end(state)
    play(state, "goal Red Tiger")
    assert not state.is_terminal()
    quick_season_end(state)
    assert state.current_player() == TERMINAL
    assert state.returns() == [0.0] * n  # nobody won
    assert view(state)["winner"] is None
    assert "The game is a draw: the cap of 2 seasons is reached." in view(state)["log"]


def test_the_season_cap_defaults_to_200():
    assert new_game("traps").observation(None)["max_seasons"] == 200


# ------------------------------------------------------------------ the rulebook's example
def rulebook_example():
    """Four players, A B C D in seats 0 to 3. Three seasons bring B to 4 gems and C and D
    to 3; in the fourth, against the Blue Lady, A bids 5 and everyone else passes."""
    state = dealt(4, [
        ["Blue/Red", "Red Tiger", "Blue Lady"],   # A
        ["Red Lady", "Blue Tiger", "Lady/Tiger"],  # B
        ["Red Tiger", "Red Lady", "Blue Tiger"],  # C
        ["Red Tiger", "Red Lady", "Blue Tiger"],  # D
    ])  # Two Blue Ladies are set aside.
    # Season 1: A reveals a Red Lady trap from each of B, C and D; the pot runs dry.
    play(state, "goal Blue Tiger")
    start_stacks(state, ["Red Tiger", "Red Lady", "Red Lady", "Red Lady"])
    play(state, "bid 5", "pass", "pass", "pass",
         "reveal seat 1", "reveal seat 2", "reveal seat 3")
    # Season 2, B starts: three Blue Tiger traps against the Red Lady.
    play(state, "goal Red Lady")
    start_stacks(state, ["Red Tiger", "Blue Tiger", "Blue Tiger", "Blue Tiger"])
    play(state, "bid 1", "pass", "pass", "bid 2", "pass",
         "reveal seat 1", "reveal seat 2", "reveal seat 3")
    # Season 3: B's Lady/Tiger is a trap, then A's own Red Tiger reaches the bid of 2.
    play(state, "goal Red Tiger")
    start_stacks(state, ["Red Tiger", "Lady/Tiger", "Red Lady", "Red Lady"])
    play(state, "bid 1", "pass", "pass", "bid 2", "pass", "reveal seat 1", "reveal seat 0")
    assert gems(state) == [3, 4, 3, 3]
    play(state, "goal Blue Lady")
    assert state.current_player() == 1  # B: left of A, the last highest bidder
    return state


def test_rulebook_example_a_bids_five_traps_feed_c_and_d_every_opponent_at_four():
    state = rulebook_example()
    start_stacks(state, ["Blue/Red", "Red Lady", "Red Lady", "Red Lady"])
    play(state, "build Lady/Tiger", "build Red Tiger", "build Red Tiger")
    play(state, "bid 5", "pass", "pass", "pass")
    assert state.current_player() == 0 and state.phase == "revealing"
    play(state, "reveal seat 0")  # A's own Blue/Red: 1 trait
    assert view(state)["matched"] == 1
    play(state, "reveal seat 3")  # D's Red Tiger: a trap, D takes a gem
    play(state, "reveal seat 2")  # C's Red Tiger: another trap
    assert gems(state) == [3, 4, 4, 4]
    play(state, "reveal seat 3")  # D's Red Lady: 2 traits matched, 3 to go
    assert view(state)["matched"] == 2 and view(state)["pot"] == 1
    # Every opponent holds 4 gems: A cannot stop and must keep revealing.
    assert not any(text.startswith("stop") for text in legal_texts(state))
    assert reason(state, "stop and give a gem to seat 1") == (
        "every opponent holds 4 gems, so no one can take your gem")
    assert legal_texts(state) == ["reveal seat 1", "reveal seat 2"]
    # B's Lady/Tiger is a trap: B takes the last gem, its fifth, and wins.
    play(state, "reveal seat 1")
    assert state.is_terminal()
    assert state.returns() == [0.0, 1.0, 0.0, 0.0]
    assert gems(state) == [3, 5, 4, 4]


def test_rulebook_example_own_trap_with_every_opponent_at_four():
    # The same season, but A stacks a Red Tiger (a trap for the Blue Lady) under the Blue/Red.
    state = rulebook_example()
    start_stacks(state, ["Red Tiger", "Red Lady", "Red Lady", "Red Lady"])
    play(state, "build Lady/Tiger", "build Red Tiger", "build Red Tiger", "build Blue/Red")
    play(state, "bid 4", "pass", "pass", "bid 5", "pass")
    play(state, "reveal seat 0", "reveal seat 3", "reveal seat 2", "reveal seat 3")
    assert gems(state) == [3, 4, 4, 4]
    assert (view(state)["pot"], view(state)["treasury"]) == (1, 9)
    play(state, "reveal seat 0")  # A's own Red Tiger
    # The gem goes back to the treasury, A pays 2 into the pot, the season ends (and the
    # pot returns to the treasury).
    assert gems(state) == [1, 4, 4, 4]
    assert view(state)["past_seasons"][-1]["how"] == (
        "Seat 0 revealed their own trap with every opponent at 4 gems and paid 2 gems into "
        "the pot.")
    assert view(state, 0)["past_seasons"][-1]["how"] == (
        "You revealed your own trap with every opponent at 4 gems and paid 2 gems into the "
        "pot.")
    assert view(state)["year"] == 2 and view(state)["pot"] == 3
    assert view(state)["treasury"] == 25 - 13 - 3
    assert "from their own stack: a trap, and every opponent holds 4 gems" in " ".join(
        view(state, 2)["log"])


def test_rulebook_example_own_trap_gem_cannot_go_to_an_opponent_holding_four():
    state = rulebook_example()
    start_stacks(state, ["Red Tiger", "Red Lady", "Red Lady", "Red Lady"])
    play(state, "build Lady/Tiger", "build Red Tiger", "build Red Tiger", "build Blue/Red")
    play(state, "bid 4", "pass", "pass", "bid 5", "pass")
    play(state, "reveal seat 0", "reveal seat 3")  # D takes a gem: B and D now hold 4
    play(state, "reveal seat 0")  # A's own Red Tiger: only C may take the gem
    assert legal_texts(state) == ["trap gem to seat 2"]
    assert reason(state, "trap gem to seat 1") == (
        "seat 1 holds 4 gems; the gem must go to an opponent with 3 or fewer")
    play(state, "trap gem to seat 2")
    assert gems(state) == [3, 4, 4, 4]


def test_your_opponents_cannot_win_from_your_own_traps():
    state = rulebook_example()
    start_stacks(state, ["Red Tiger", "Red Lady", "Red Lady", "Red Lady"])
    play(state, "build Lady/Tiger", "build Red Tiger", "build Red Tiger", "build Blue/Red")
    play(state, "bid 4", "pass", "pass", "bid 5", "pass", "reveal seat 0", "reveal seat 0")
    assert legal_texts(state) == ["trap gem to seat 2", "trap gem to seat 3"]


# ------------------------------------------------------------------ situations found in play
def feeder_move(state, rng):
    """A full-information driver (a test tool, not a bot): the starting player bids 13 and
    the revealer feeds traps to the poorest opponents, so gems pile up without a winner."""
    player = state.current_player()
    if player == CHANCE:
        return sample_chance(state, rng)
    phase, n = state.phase, state.num_players()
    if phase == "build or bid":
        builds = [a for a in state.legal_actions() if state.action_to_string(a)[:5] == "build"]
        if builds and rng.random() < 0.6:
            return rng.choice(builds)
        return state.string_to_action("bid 13")
    if phase == "bidding":
        return state.string_to_action("pass")
    if phase == "trap gem":
        return min(state.legal_actions(), key=lambda a: state.gems[a - 32])
    if phase == "revealing":
        def trap(seat):
            return MATCHES[state.goal][state.stacks[seat][-1]] == 0
        live = [s for s in range(n) if state.stacks[s]]
        feed = [s for s in live if s != player and trap(s) and state.gems[s] <= 3]
        if feed:
            return state.string_to_action(f"reveal seat {min(feed, key=state.gems.__getitem__)}")
        receivers = any(state.gems[s] <= 3 for s in range(n) if s != player)
        if player in live and trap(player) and receivers:
            return state.string_to_action(f"reveal seat {player}")
        safe = [s for s in live if not trap(s)]
        if safe:
            return state.string_to_action(f"reveal seat {rng.choice(safe)}")
        stops = [a for a in state.legal_actions() if a >= 38]
        return rng.choice(stops or state.legal_actions())
    return rng.choice(state.legal_actions())


def find(n, wanted, seeds=range(40), limit=4000):
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game("traps", players=n)
        for _ in range(limit):
            if wanted(state):
                return state
            if state.is_terminal():
                break
            state.apply_action(feeder_move(state, rng))
    raise AssertionError("the situation never arose")


def own_trap_with_every_opponent_at_four(state):
    if state.phase != "revealing":
        return False
    me = state.current_player()
    return (
        bool(state.stacks[me])
        and MATCHES[state.goal][state.stacks[me][-1]] == 0
        and all(g == 4 for s, g in enumerate(state.gems) if s != me)
    )


@pytest.mark.parametrize("n", COUNTS)
def test_own_trap_with_every_opponent_at_four_at_every_count(n):
    state = find(n, own_trap_with_every_opponent_at_four)
    me = state.current_player()
    before = view(state)
    assert reason(state, f"stop and give a gem to seat {(me + 1) % n}") in (
        "every opponent holds 4 gems, so no one can take your gem",
        "you have no gem to give, so you cannot stop: keep revealing")
    play(state, f"reveal seat {me}")
    paid = min(2, before["gems"][me])
    after = view(state)
    assert after["gems"][me] == before["gems"][me] - paid
    assert after["past_seasons"][-1]["how"].endswith(
        f"every opponent at 4 gems and paid {paid} gem{'s' if paid != 1 else ''} into the pot.")
    # The season is over: the pot went home; the next one took what the treasury allows.
    assert after["treasury"] + after["pot"] == before["treasury"] + before["pot"] + paid
    assert after["season"] == before["season"] + 1


@pytest.mark.parametrize("n", [3, 4, 5, 6])  # with 2 players the all-at-4 rule applies
def test_a_trap_gem_skips_opponents_at_four_at_every_count(n):
    def wanted(state):
        me = state.current_player()
        return state.phase == "trap gem" and 0 < sum(
            g == 4 for s, g in enumerate(state.gems) if s != me) < n - 1
    state = find(n, wanted)
    me = state.current_player()
    allowed = [s for s in range(n) if s != me and state.gems[s] <= 3]
    assert legal_texts(state) == [f"trap gem to seat {s}" for s in allowed]
    rich = next(s for s in range(n) if s != me and state.gems[s] == 4)
    assert reason(state, f"trap gem to seat {rich}") == (
        f"seat {rich} holds 4 gems; the gem must go to an opponent with 3 or fewer")


def test_the_pot_takes_what_is_left_when_the_treasury_runs_short():
    # Only six players can hold so many gems: 5 x 4 + 3 leaves 2 in the treasury.
    state = find(6, lambda s: s.phase == "goal card" and s.treasury + s.pot < 3)
    public = view(state)
    assert public["pot"] < 3 and public["treasury"] == 0
    assert sum(public["gems"]) + public["pot"] == 25
    assert f"{public['pot']} gem" in public["log"][-1]


# ------------------------------------------------------------------ conservation
@pytest.mark.parametrize("n", COUNTS)
@given(rng=st.randoms(use_true_random=False))
def test_gems_are_conserved_players_pot_and_treasury_make_25(n, rng):
    state = new_game("traps", players=n)
    while not state.is_terminal():
        public = view(state) if rng.random() < 0.02 else None
        if public:
            assert sum(public["gems"]) + public["pot"] + public["treasury"] == 25
        assert sum(state.gems) + state.pot + state.treasury == 25
        assert min(state.gems) >= 0 and state.pot >= 0 and state.treasury >= 0
        if state.phase != "game over":
            assert max(state.gems) <= 4  # a fifth gem ends the game at once
        if state.phase in ("deal", "goal card"):
            # A season begins with 3 gems from the treasury, or all it has left.
            assert state.pot == min(3, 25 - sum(state.gems))
        state.apply_action(random_step(state, rng))
    assert state.conserved() == {"gems": 25, "clue cards": 14}


# ------------------------------------------------------------------ knowledge and resampling
@pytest.mark.parametrize("n", COUNTS)
def test_a_stack_is_known_to_its_owner_others_see_height_and_revealed_cards(n):
    state = season(n, "Red Lady", starts=[cards[-1] for cards in standard_hands(n)])
    play(state, "bid 13", *["pass"] * (n - 1), f"reveal seat {n - 1}")
    for viewer in [*range(n), None]:
        stacks = view(state, viewer)["stacks"]
        for seat, stack in enumerate(stacks):
            assert stack["face_down"] == (0 if seat == n - 1 else 1)
            assert (stack["cards"] is not None) == (seat == viewer)
        assert stacks[n - 1]["revealed"] == ["Blue Tiger"]


def won_with_stacks_standing():
    """Three players; seat 0 wins with a trap revealed from its stack in season 2, while
    seat 0 keeps a Red Lady face down, seat 1 a Red Tiger under a Blue Lady and seat 2 a
    Blue Lady under a Blue Tiger."""
    state = season(3, "Red Lady")
    play(state, "bid 2", "pass", "pass", "reveal seat 0")  # seat 0 now holds 4
    play(state, "goal Blue Tiger")  # a Red Lady is a trap for the Blue Tiger
    start_stacks(state, [cards[0] for cards in standard_hands(3)])
    play(state, "build Blue Lady", "build Blue Tiger", "build Red Lady")
    win_bidding(state, 1, 13)
    before = state.clone()
    play(state, "reveal seat 0")
    assert state.is_terminal() and view(state)["winner"] == 0
    return before, state


STANDING = [["Red Lady"], ["Red Tiger", "Blue Lady"], ["Blue Lady", "Blue Tiger"]]


def test_at_a_win_every_stack_is_turned_face_up_for_everyone():
    before, state = won_with_stacks_standing()
    for viewer in (0, 1, 2, None):
        assert view(before, viewer)["stacks"][2]["cards"] == (
            STANDING[2] if viewer == 2 else None)
        stacks = view(state, viewer)["stacks"]
        assert [stack["cards"] for stack in stacks] == STANDING
        assert [stack["face_down"] for stack in stacks] == [1, 2, 2]
    assert state.log(2)[-1] == (
        "Every stack is turned face up (top card first): Seat 0's stack holds the Red Lady; "
        "Seat 1's stack holds the Blue Lady and the Red Tiger; your stack holds the Blue "
        "Tiger and the Blue Lady.")
    moment = before.moment(state)
    assert moment["kind"] == "game_end"
    assert ("Every stack is turned face up (top card first): Seat 0's stack holds the Red "
            "Lady; Seat 1's stack holds the Blue Lady and the Red Tiger; Seat 2's stack holds "
            "the Blue Tiger and the Blue Lady.") in moment["lines"]


def test_resampling_a_won_game_keeps_the_stacks_turned_face_up():
    before, state = won_with_stacks_standing()
    for viewer in (0, 1, 2, None):
        hands = set()
        for i in range(30):
            other = state.resample(viewer, random.Random(i))
            assert other.stacks == state.stacks
            assert other.observation(viewer) == state.observation(viewer)
            # The turned-up cards were in their owners' hands this year.
            for seat in range(3):
                assert year_cards(other, seat) >= Counter(STANDING[seat])
            hands.add(tuple(map(tuple, other.hands)))
        # What stays in hand is still hidden: the resample does not just copy the state.
        assert len(hands) > 1, viewer
    # Before the last reveal, another seat's stack is still redrawn.
    assert {tuple(before.resample(0, random.Random(i)).stacks[2]) for i in range(30)} != {
        tuple(before.stacks[2])}


def test_at_the_season_cap_the_stacks_are_back_in_hand_and_stay_unseen():
    state = dealt(3, max_seasons=1)
    play(state, "goal Red Lady")
    start_stacks(state, ["Red Tiger", "Blue Lady", "Blue Tiger"])
    play(state, "bid 13", "pass", "pass", "stop and give a gem to seat 1")
    assert state.is_terminal() and view(state)["winner"] is None
    for viewer in (0, 1, 2, None):
        assert all(stack["face_down"] == 0 for stack in view(state, viewer)["stacks"])
    assert not any("turned face up" in line for line in state.log(None))
    assert len({tuple(state.resample(0, random.Random(i)).history()) for i in range(20)}) > 1


def year_cards(state, seat):
    """All the cards a seat holds this year: hand, stack and revealed, by name."""
    held = Counter(CARD_NAMES[c] for c, k in enumerate(state.hands[seat]) for _ in range(k))
    held.update(CARD_NAMES[c] for c in [*state.stacks[seat], *state.revealed[seat]])
    return held


@pytest.mark.parametrize("n", COUNTS)
def test_resampling_keeps_every_revealed_card_in_its_owners_hand(n):
    state = season(n, "Red Lady", starts=[cards[-1] for cards in standard_hands(n)])
    play(state, "bid 13", *["pass"] * (n - 1), f"reveal seat {n - 1}")
    hands = set()
    for viewer in [0, None]:
        for i in range(30):
            other = state.resample(viewer, random.Random(i))
            assert year_cards(other, n - 1)["Blue Tiger"] >= 1
            assert other.revealed[n - 1] == state.revealed[n - 1]
            if viewer == 0:
                assert other.hands[0] == state.hands[0]
                assert other.stacks[0] == state.stacks[0]
            hands.add(tuple(other.hands[n - 1]))
    assert len(hands) > 1


def test_a_years_reveals_can_pin_every_hand_down():
    # In the rulebook example, once A has turned up the Blue/Red and the Red Tigers of D and
    # C, every card of B, C and D has been seen this year (Red Lady, Blue Tiger, and a
    # Lady/Tiger or Red Tiger each), and A has shown a Red Tiger and the Blue/Red: only Blue
    # Ladies are left for A's third card. Even a spectator's resample deals exactly these.
    state = rulebook_example()
    start_stacks(state, ["Blue/Red", "Red Lady", "Red Lady", "Red Lady"])
    play(state, "build Lady/Tiger", "build Red Tiger", "build Red Tiger")
    play(state, "bid 5", "pass", "pass", "pass", "reveal seat 0", "reveal seat 3",
         "reveal seat 2")
    truth = [year_cards(state, seat) for seat in range(4)]
    for i in range(20):
        other = state.resample(None, random.Random(i))
        assert [year_cards(other, seat) for seat in range(4)] == truth
        assert other.undealt == state.undealt  # the two Blue Ladies set aside


@pytest.mark.parametrize("n", COUNTS)
def test_resampled_states_are_exactly_their_replayed_histories(n):
    rng = random.Random(n)
    game = new_game("traps", players=n).game
    for _ in range(6):
        state = game.new_initial_state()
        for _ in range(rng.randrange(20, 400)):
            if state.is_terminal():
                break
            state.apply_action(random_step(state, rng))
        for viewer in [*range(n), None]:
            other = state.resample(viewer, rng)
            replay = game.new_initial_state()
            for action in other.history():
                replay.apply_action(action)  # every step legal
            assert replay == other
            assert other.observation(viewer) == state.observation(viewer)


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("dealt_so_far", [0, 1, 5])
def test_resampling_at_a_new_years_deal(n, dealt_so_far):
    state = dealt(n)
    for goal in ("Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger"):
        play(state, f"goal {goal}")
        quick_season_end(state)
    play(state, *[f"deal {card} to seat {i // HAND[n]}"
                  for i, card in enumerate(ORDER[:dealt_so_far])])
    for viewer in [*range(n), None]:
        for i in range(5):
            other = state.resample(viewer, random.Random(i))
            assert other.observation(viewer) == state.observation(viewer)
            replay = state.game.new_initial_state()
            for action in other.history():
                replay.apply_action(action)
            assert replay == other


@pytest.mark.parametrize("n", COUNTS)
def test_resampling_redraws_hands_across_past_years(n):
    rng = random.Random(3)
    state = new_game("traps", players=n)
    while state.year < 2 or state.phase != "build or bid":
        state.apply_action(random_step(state, rng))
    first_year_deals = state.history()[: 14 - (4 if n == 5 else 2)]
    redrawn = {tuple(state.resample(0, random.Random(i)).history()[HAND[n]:len(
        first_year_deals)]) for i in range(20)}
    assert len(redrawn) > 1


@pytest.mark.parametrize("n", COUNTS)
def test_a_resample_is_fast(n):
    rng = random.Random(11)
    game = new_game("traps", players=n).game
    states = []
    for _ in range(10):
        state = game.new_initial_state()
        for _ in range(rng.randrange(50, 400)):
            if state.is_terminal():
                break
            state.apply_action(random_step(state, rng))
        states.append(state)
    begin = time.perf_counter()
    for state in states:
        for viewer in [*range(n), None]:
            state.resample(viewer, rng)
    per_resample = (time.perf_counter() - begin) / (len(states) * (n + 1))
    assert per_resample < 0.02  # measured: well under a millisecond


@pytest.mark.parametrize("tries", [1000, 0])  # rejection, and the exact count-and-draw
def test_hands_are_drawn_as_a_uniform_deal_conditioned_on_revealed_cards(tries):
    # Five cards (two Red Ladies, Red Tiger, Blue Lady, Blue/Red) into two hands of two and
    # one card aside; the first hand showed a Red Lady, the second the Blue/Red.
    pool = [2, 1, 1, 0, 1, 0]
    slots = [(2, (1, 0, 0, 0, 0, 0)), (2, (0, 0, 0, 0, 1, 0)), (1, (0,) * 6)]
    exact: Counter[str] = Counter()
    for order in permutations([0, 0, 1, 2, 4]):
        hands = [sorted(order[:2]), sorted(order[2:4]), list(order[4:])]
        if 0 in hands[0] and 4 in hands[1]:
            exact[repr(hands)] += 1
    total = sum(exact.values())
    rng = random.Random(5)
    drawn = Counter()
    samples = 6000
    for _ in range(samples):
        split = draw_hands(pool, slots, rng, tries=tries)
        drawn[repr([[c for c, k in enumerate(h) for _ in range(k)] for h in split])] += 1
    assert set(drawn) == set(exact)
    for key, count in exact.items():
        assert drawn[key] / samples == pytest.approx(count / total, abs=0.025)


# ------------------------------------------------------------------ texts and views
def test_move_texts_and_structured_descriptions():
    state = season(3, "Red Lady")
    described = {d["text"]: d for d in map(state.describe_action, state.legal_actions())}
    assert described["build Red Lady"]["card"] == "Red Lady"
    assert described["bid 13"]["amount"] == 13
    play(state, "bid 13", "pass", "pass")
    described = {d["text"]: d for d in map(state.describe_action, state.legal_actions())}
    assert described["reveal seat 2"]["seat"] == 2
    assert described["stop and give a gem to seat 1"]["seat"] == 1


def test_illegal_moves_raise_with_the_rule_and_change_nothing():
    state = season(2, "Red Lady")
    before = state.clone()
    with pytest.raises(IllegalActionError, match="nothing to pass on"):
        state.apply_action(state.string_to_action("pass"))
    assert state == before
    assert reason(state, "reveal seat 1") == (
        "cards are revealed only after the bidding; seat 0 now builds or bids")
    assert reason(state, "trap gem to seat 1").startswith(
        "you choose who takes a gem only after revealing a trap from your own stack")
    assert reason(state, "start stack with Red Lady") == (
        "stacks are started only as a season begins; seat 0 now builds or bids")


def test_the_terminal_view_draws_a_seats_table():
    from rich.console import Console

    from ladytiger.cli.views.traps import render

    state = rulebook_example()
    start_stacks(state, ["Blue/Red", "Red Lady", "Red Lady", "Red Lady"])
    play(state, "bid 5", "pass", "pass", "pass", "reveal seat 3")
    console = Console(width=120, record=True)
    console.print(render(state.observation(0)))
    text = console.export_text()
    assert "Blue Lady" in text and "Red Lady" in text and "pot" in text
    console.print(render(state.observation(None)))


@pytest.mark.slow
@pytest.mark.parametrize("n", COUNTS)
def test_two_hundred_random_games_finish(n):
    from ladytiger import load_game

    game = load_game("traps", players=n)
    for seed in range(200):
        state = random_playout(game.new_initial_state(), random.Random(seed))
        assert state.is_terminal()
        assert len(state.history()) <= game.max_game_length()
