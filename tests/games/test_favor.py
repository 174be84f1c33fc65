"""Favor, rule by rule (rulebook section "Favor"; rulings in docs/rules/favor.md)."""

from __future__ import annotations

import random

import pytest

from ladytiger.core import CHANCE, TERMINAL, IllegalActionError
from ladytiger.core.playout import random_playout
from ladytiger.games.favor import best_wild_use, wild_use_texts
from ladytiger.games.lady_tiger_cards import card_from_name
from tests.helpers import legal_texts, new_game, play, reason

DOORS = ("Red Tiger", "Blue Lady", "Red Lady", "Blue Tiger")


def deal(players: int = 3, doors=DOORS, **opts):
    """A Favor game once every seat has its Door card (seat k gets doors[k])."""
    return play(
        new_game("favor", players=players, **opts),
        *(f"deal {door} to seat {seat}" for seat, door in enumerate(doors[:players])),
    )


def day_one(players: int = 3, lot: str = "Red Lady", doors=DOORS, **opts):
    """Day 1 at the first turn: identities dealt, the initial lot's one card turned up."""
    return play(deal(players, doors, **opts), f"reveal {lot}")


def reveal(state, *cards: str):
    return play(state, *(f"reveal {card}" for card in cards))


def view(state, seat=None):
    return state.observation(seat)


def finish_day(state):
    """Everyone adds to the lot and passes every auction until the day ends; the deck gives
    up its cards in card order."""
    day = view(state)["day"]
    while not state.is_terminal() and view(state)["day"] == day:
        phase = view(state)["phase"]
        if phase == "turn":
            play(state, "add to lot")
        elif phase in ("auction", "final auction"):
            play(state, "pass")
        else:
            play(state, legal_texts(state)[0])
    return state


def deal_day(state, doors=DOORS, lot=()):
    n = state.num_players()
    play(state, *(f"deal {door} to seat {seat}" for seat, door in enumerate(doors[:n])))
    return reveal(state, *lot)


# ------------------------------------------------------------------ setup
def test_each_player_is_dealt_one_door_and_the_rest_stay_aside_unseen():
    state = new_game("favor", players=2)
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    play(state, "deal Red Tiger to seat 0")
    assert "deal Red Tiger to seat 1" not in legal_texts(state)
    play(state, "deal Blue Lady to seat 1")
    # With two players the other two doors are never drawn: the lot starts at once.
    assert legal_texts(state)[0] == "reveal Red Lady"
    assert view(state, 0)["identities"] == ["Red Tiger", None]


def test_each_day_starts_with_five_gems_each_and_the_fourteen_card_deck():
    state = deal(players=4)
    probabilities = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert probabilities["reveal Red Lady"] == pytest.approx(3 / 14)
    assert probabilities["reveal Lady/Tiger"] == pytest.approx(1 / 14)
    reveal(state, "Blue/Red")
    table = view(state, 0)
    assert table["gems"] == [5, 5, 5, 5] and table["supply"] == 0
    assert table["lot"] == ["Blue/Red"] and table["deck"] == 13
    assert table["scores"] == [0, 0, 0, 0]


def test_seat_0_takes_the_first_turn_of_day_1():
    state = day_one()
    assert state.current_player() == 0
    assert legal_texts(state) == ["add to lot", "call auction"]


def test_option_draws_the_first_player_of_day_1_at_random():
    state = new_game("favor", players=3, random_first_player=True)
    assert state.chance_outcomes() == [(10, pytest.approx(1 / 3)), (11, pytest.approx(1 / 3)),
                                       (12, pytest.approx(1 / 3))]
    play(state, "seat 2 goes first")
    deal_day(state, lot=["Red Lady"])
    assert state.current_player() == 2


# ------------------------------------------------------------------ turns
def test_add_turns_up_one_card_into_the_lot_and_play_passes_left():
    state = day_one()
    play(state, "add to lot")
    assert state.current_player() == CHANCE
    reveal(state, "Blue Tiger")
    table = view(state)
    assert table["lot"] == ["Red Lady", "Blue Tiger"] and table["deck"] == 12
    assert state.current_player() == 1  # one card only, then the next player
    assert legal_texts(state) == ["add to lot", "call auction"]


def test_bidding_starts_left_of_the_caller_and_the_caller_bids_last():
    state = play(day_one(players=4), "add to lot", "reveal Blue Tiger", "call auction")
    order = []
    for _ in range(4):
        order.append(state.current_player())
        play(state, "pass")
    assert order == [2, 3, 0, 1]  # seat 1 called


def test_each_player_has_one_chance_to_bid():
    state = play(day_one(), "call auction", "bid 1", "pass")
    assert state.current_player() == 0  # the caller, last
    play(state, "bid 2")
    assert state.current_player() == CHANCE  # the auction is over: seat 1 had its one chance


def test_a_bid_must_beat_the_high_bid_and_is_limited_by_the_bidders_gems():
    state = play(day_one(players=2), "call auction")
    assert legal_texts(state) == ["pass", "bid 1", "bid 2", "bid 3", "bid 4", "bid 5"]
    assert reason(state, "bid 6") == "a bid cannot exceed your gems: you hold 5 gems"
    play(state, "bid 4")
    assert legal_texts(state) == ["pass", "bid 5"]  # a raise may be any amount above 4
    assert reason(state, "bid 4") == "a bid must beat the high bid of 4"
    assert reason(state, "bid 2") == "a bid must beat the high bid of 4"
    with pytest.raises(IllegalActionError, match="must beat the high bid of 4"):
        state.apply_action(state.string_to_action("bid 3"))


def test_a_player_who_cannot_beat_the_high_bid_may_only_pass():
    state = play(day_one(), "call auction", "bid 5")
    assert legal_texts(state) == ["pass"]


def test_moves_out_of_place_are_explained():
    state = day_one()
    assert reason(state, "bid 2") == (
        "no auction is under way: on your turn you add to the lot or call an auction")
    assert reason(state, "pass") == (
        "no auction is under way: on your turn you add to the lot or call an auction")
    play(state, "call auction")
    assert reason(state, "add to lot") == "an auction is under way: you may only bid or pass"
    assert reason(state, "call auction") == "an auction is under way: you may only bid or pass"


def test_chance_outcomes_that_cannot_happen_are_explained():
    state = play(new_game("favor", players=2), "deal Red Tiger to seat 0")
    assert reason(state, "deal Red Tiger to seat 1") == "the Red Tiger Door is already dealt"
    play(state, "deal Blue Tiger to seat 1", "reveal Blue/Red")
    play(state, "add to lot")
    assert reason(state, "reveal Blue/Red") == "no Blue/Red is left in the deck"


def test_the_highest_bidder_takes_the_lot_and_pays_the_caller():
    state = play(day_one(), "add to lot", "reveal Red Tiger", "add to lot", "reveal Blue Lady")
    # Seat 2 calls; seat 0 bids 2, seat 1 bids 3, seat 2 passes.
    play(state, "call auction", "bid 2", "bid 3", "pass")
    table = view(state)
    assert table["collections"][1] == ["Red Lady", "Red Tiger", "Blue Lady"]
    assert table["gems"] == [5, 2, 8]  # seat 0 takes its 2 back
    assert table["lot"] == [] and table["supply"] == 0


def test_nobody_bids_and_the_lot_is_discarded():
    state = play(day_one(), "call auction", "pass", "pass", "pass")
    table = view(state)
    assert table["discarded"] == ["Red Lady"]
    assert table["collections"] == [[], [], []] and table["gems"] == [5, 5, 5]
    assert "Nobody bids: the lot (a Red Lady) is discarded." in table["log"]


# ------------------------------------------------------------------ the rulebook's auction example
def test_rulebook_auction_example_the_caller_outbids_and_splits_the_gems():
    # A (seat 0) calls. B bids 3, C bids 4, A bids 5: A takes the lot and pays B and C 2 gems
    # each; the fifth gem leaves the game. B and C take their bids back.
    state = play(day_one(), "call auction", "bid 3", "bid 4", "bid 5")
    table = view(state)
    assert table["collections"][0] == ["Red Lady"]
    assert table["gems"] == [0, 7, 7]
    assert table["supply"] == 1
    assert ("Seat 0 wins the lot (a Red Lady) for 5 gems at their own auction: 2 gems to each "
            "opponent and 1 gem to the supply.") in table["log"]
    assert ("You win the lot (a Red Lady) for 5 gems at your own auction: 2 gems to each "
            "opponent and 1 gem to the supply.") in view(state, 0)["log"]


def test_rulebook_auction_example_had_the_caller_not_bid():
    # The rulebook says B would then take the lot for 4; C's 4 is the high bid, so it is C
    # who takes the lot and pays A 4 (ruling 11). A and B keep their gems.
    state = play(day_one(), "call auction", "bid 3", "bid 4", "pass")
    table = view(state)
    assert table["collections"] == [[], [], ["Red Lady"]]
    assert table["gems"] == [9, 5, 1] and table["supply"] == 0


def test_a_caller_whose_bid_is_less_than_the_number_of_opponents_sends_it_all_to_the_supply():
    state = play(day_one(players=4), "call auction", "pass", "pass", "pass", "bid 2")
    table = view(state)
    assert table["gems"] == [3, 5, 5, 5] and table["supply"] == 2


def test_a_caller_winning_with_four_players_shares_rounding_down():
    state = play(day_one(players=4), "call auction", "pass", "pass", "pass", "bid 5")
    table = view(state)
    assert table["gems"] == [0, 6, 6, 6] and table["supply"] == 2


def test_with_two_players_a_winning_caller_pays_the_opponent_everything():
    state = play(day_one(players=2), "call auction", "bid 1", "bid 3")
    assert view(state)["gems"] == [2, 8]
    assert view(state)["supply"] == 0


def test_gems_received_can_be_bid_later_the_same_day():
    state = play(day_one(), "call auction", "bid 3", "bid 4", "bid 5", "reveal Red Lady")
    play(state, "call auction", "pass", "pass")  # seat 1 calls; seat 2, then seat 0
    assert "bid 7" in legal_texts(state) and "bid 8" not in legal_texts(state)


# ------------------------------------------------------------------ new lots
def test_after_an_auction_a_new_lot_of_one_card_starts_and_play_resumes_left_of_the_caller():
    state = play(day_one(), "add to lot", "reveal Blue Tiger", "call auction", "pass", "pass",
                 "bid 1")
    assert state.current_player() == CHANCE
    reveal(state, "Red Tiger")
    assert view(state)["lot"] == ["Red Tiger"]
    assert state.current_player() == 2  # seat 1 called


def test_new_lots_are_two_cards_on_day_2_and_three_on_day_3():
    state = finish_day(day_one(players=2))
    assert view(state)["day"] == 2
    deal_day(state, lot=["Red Lady", "Blue Lady"])  # the initial lot of day 2: 2 cards
    assert view(state)["lot"] == ["Red Lady", "Blue Lady"]
    first = state.current_player()
    play(state, "call auction", "pass", "bid 1")
    reveal(state, "Red Tiger")
    assert state.current_player() == CHANCE
    reveal(state, "Blue Tiger")
    assert view(state)["lot"] == ["Red Tiger", "Blue Tiger"]
    assert state.current_player() == 1 - first
    finish_day(state)
    assert view(state)["day"] == 3
    deal_day(state, lot=["Red Lady", "Red Lady", "Blue Lady"])
    assert view(state)["lot"] == ["Red Lady", "Red Lady", "Blue Lady"]
    assert state.current_player() != CHANCE
    play(state, "call auction", "pass", "pass")
    reveal(state, "Red Tiger", "Red Tiger")
    assert state.current_player() == CHANCE
    reveal(state, "Blue Tiger")
    assert view(state)["lot"] == ["Red Tiger", "Red Tiger", "Blue Tiger"]


def test_only_one_card_is_added_per_turn_on_every_day():
    state = finish_day(finish_day(day_one(players=2)))
    deal_day(state, lot=["Red Lady", "Red Lady", "Blue Lady"])
    player = state.current_player()
    play(state, "add to lot", "reveal Blue Tiger")
    assert state.current_player() == 1 - player
    assert len(view(state)["lot"]) == 4


# ------------------------------------------------------------------ the final auction
def first_outcome(state):
    """Turn up the lowest card still in the deck."""
    return play(state, legal_texts(state)[0])


def add_until_one_card_left(state):
    while view(state)["deck"] > 1:
        first_outcome(play(state, "add to lot"))
    return state


def test_an_add_that_turns_up_the_last_card_opens_the_final_auction():
    state = add_until_one_card_left(day_one())
    adder = state.current_player()
    first_outcome(play(state, "add to lot"))
    table = view(state)
    assert table["deck"] == 0 and table["phase"] == "final auction"
    assert table["auction"]["final"] is True and table["auction"]["caller"] is None
    assert state.current_player() == (adder + 1) % 3  # who would have played next
    assert len(table["lot"]) == 14


def test_a_new_lot_that_turns_up_the_last_card_opens_the_final_auction_left_of_the_caller():
    state = add_until_one_card_left(day_one())
    caller = state.current_player()
    play(state, "call auction", "pass", "pass", "bid 2")
    first_outcome(state)  # the new lot: the last card
    table = view(state)
    assert table["phase"] == "final auction" and len(table["lot"]) == 1
    assert state.current_player() == (caller + 1) % 3


def test_a_new_lot_turns_up_only_as_many_cards_as_remain():
    state = finish_day(day_one(players=2))
    deal_day(state, lot=["Red Lady", "Blue Lady"])
    add_until_one_card_left(state)
    first_outcome(play(state, "call auction", "pass", "pass"))
    table = view(state)
    assert table["phase"] == "final auction" and len(table["lot"]) == 1


def test_final_auction_bids_go_to_the_supply_and_the_day_ends():
    state = add_until_one_card_left(day_one())
    first_outcome(play(state, "add to lot"))  # seat 1 bids first
    play(state, "pass", "bid 2", "pass")
    day = view(state)["past_days"][0]
    assert day["gems"] == [5, 5, 3]  # the 2 gems went to the supply, to nobody
    assert day["final_auction_winner"] == 2
    assert len(day["collections"][2]) == 14
    assert state.current_player() == CHANCE and view(state)["day"] == 2


def test_nobody_bids_in_the_final_auction_and_the_lot_is_discarded():
    state = finish_day(day_one(players=2))
    day = view(state)["past_days"][0]
    assert day["collections"] == [[], []] and day["final_auction_winner"] is None


def test_supply_gems_are_out_until_the_next_day_when_everyone_has_five_again():
    state = play(day_one(), "call auction", "bid 3", "bid 4", "bid 5")
    assert view(state)["supply"] == 1
    finish_day(state)
    assert view(state)["past_days"][0]["gems"] == [0, 7, 7]
    deal_day(state, lot=["Red Lady", "Blue Lady"])
    table = view(state)
    assert table["gems"] == [5, 5, 5] and table["supply"] == 0
    assert table["collections"] == [[], [], []] and table["deck"] == 12


# ------------------------------------------------------------------ first player of later days
def test_the_final_auction_winner_plays_first_the_next_day():
    state = add_until_one_card_left(day_one())
    first_outcome(play(state, "add to lot"))
    play(state, "pass", "bid 2", "pass")
    assert view(state)["first_player"] == 2
    assert "Day 2 begins: Seat 2 plays first, having won the final auction." in view(state)["log"]
    assert "Day 2 begins: you play first, having won the final auction." in view(state, 2)["log"]
    deal_day(state, lot=["Red Lady", "Blue Lady"])
    assert state.current_player() == 2


def test_with_no_final_auction_winner_the_first_to_bid_in_it_plays_first():
    state = day_one()
    add_until_one_card_left(state)
    first_outcome(play(state, "add to lot"))
    first_chance = state.current_player()
    play(state, "pass", "pass", "pass")
    assert view(state)["first_player"] == first_chance
    assert (f"Day 2 begins: Seat {first_chance} plays first, "
            "having had the first chance to bid in the final auction.") in view(state)["log"]


# ------------------------------------------------------------------ day scoring
def names(*cards: str) -> list[int]:
    counts = [0] * 6
    for card in cards:
        counts[card_from_name(card)] += 1
    return counts


RED_TIGER = card_from_name("Red Tiger")


@pytest.mark.parametrize(
    ("card", "points"),
    [("Red Tiger", 3), ("Blue Tiger", 1), ("Red Lady", 1), ("Blue Lady", -2),
     ("Blue/Red", 0), ("Lady/Tiger", 0)],
)
def test_card_points_for_the_red_tiger(card, points):
    assert best_wild_use(names(card), RED_TIGER)[0] == points


@pytest.mark.parametrize(
    ("cards", "points", "how"),
    [
        # Blue/Red changes one colour: blue tiger <-> red tiger, or blue person <-> red person.
        (("Blue Tiger", "Blue/Red"), 3, ["Blue/Red turns a Blue Tiger into a Red Tiger"]),
        (("Blue Lady", "Blue/Red"), 1, ["Blue/Red turns a Blue Lady into a Red Lady"]),
        # Lady/Tiger changes one role: blue person <-> blue tiger, red person <-> red tiger.
        (("Blue Lady", "Lady/Tiger"), 1, ["Lady/Tiger turns a Blue Lady into a Blue Tiger"]),
        (("Red Lady", "Lady/Tiger"), 3, ["Lady/Tiger turns a Red Lady into a Red Tiger"]),
        # Both on one card: blue person <-> red tiger.
        (("Blue Lady", "Blue/Red", "Lady/Tiger"), 3,
         ["Blue/Red and Lady/Tiger turn a Blue Lady into a Red Tiger"]),
        # An unused wild has no effect, and a wild that would cost points stays unused.
        (("Red Tiger", "Blue/Red"), 3, ["Blue/Red unused"]),
        (("Blue/Red", "Lady/Tiger"), 0, ["Blue/Red unused", "Lady/Tiger unused"]),
    ],
)
def test_rulebook_wild_examples_for_the_red_tiger(cards, points, how):
    collected = names(*cards)
    score, plan = best_wild_use(collected, RED_TIGER)
    assert score == points
    assert wild_use_texts(collected, plan) == how


def test_two_wilds_on_two_cards_when_that_scores_more_than_on_one():
    collected = names("Blue Lady", "Blue Lady", "Blue/Red", "Lady/Tiger")
    score, plan = best_wild_use(collected, RED_TIGER)
    assert score == 2  # -2 -2 become 1 + 1, better than one Red Tiger (3) and -2
    assert wild_use_texts(collected, plan) == [
        "Blue/Red turns a Blue Lady into a Red Lady",
        "Lady/Tiger turns a Blue Lady into a Blue Tiger",
    ]


def test_rulebook_scoring_example_the_red_tigers_seven_point_day():
    # Seat 0, the Red Tiger, collects Red Tiger x2, Red Lady, Blue Tiger, Blue Lady x2 and
    # Blue/Red: 3 + 3 + 1 + 1 - 2 + 1 (a Blue Lady made red) = 7.
    state = day_one(players=2, lot="Red Tiger")
    for card in ("Red Tiger", "Red Lady", "Blue Tiger", "Blue Lady", "Blue Lady", "Blue/Red"):
        play(state, "add to lot", f"reveal {card}")
    play(state, "call auction", "pass", "bid 1")  # seat 1 receives the gem: most gems
    finish_day(state)
    day = view(state, 1)["past_days"][0]
    assert day["identities"] == ["Red Tiger", "Blue Lady"]
    assert day["collections"][0] == ["Red Lady", "Red Tiger", "Red Tiger", "Blue Lady",
                                     "Blue Lady", "Blue Tiger", "Blue/Red"]
    assert day["wilds"][0] == ["Blue/Red turns a Blue Lady into a Red Lady"]
    assert day["card_points"][0] == 7
    assert day["gem_bonus"] == [0, 3]  # had the Red Tiger had most gems: 3 more
    assert day["points"] == [7, 3]
    assert state.scores() == [7, 3]
    assert ("Seat 0 (the Red Tiger) scores 7 for their cards (Blue/Red turns a Blue Lady into "
            "a Red Lady): 7 points, 7 in all.") in view(state, 1)["log"]
    assert ("You (the Red Tiger) score 7 for your cards (Blue/Red turns a Blue Lady into "
            "a Red Lady): 7 points, 7 in all.") in view(state, 0)["log"]


def test_every_player_tied_for_most_gems_scores_three():
    state = finish_day(day_one())
    day = view(state)["past_days"][0]
    assert day["gems"] == [5, 5, 5]
    assert day["gem_bonus"] == [3, 3, 3]
    assert state.scores() == [3, 3, 3]


def test_scores_carry_across_days_and_may_be_negative():
    # Seat 1, the Blue Lady, buys a Red Tiger (-2) and ends with fewest gems.
    state = play(day_one(players=2, lot="Red Tiger"), "call auction", "bid 1", "pass")
    finish_day(state)
    assert state.scores() == [3, -2]
    finish_day(deal_day(state, lot=["Red Lady", "Red Lady"]))
    assert state.scores() == [6, 1]


# ------------------------------------------------------------------ game end
def test_the_game_ends_after_the_third_day_with_the_highest_total_winning():
    state = play(day_one(players=2, lot="Red Tiger"), "call auction", "pass", "bid 1")
    finish_day(state)  # seat 0: 3 for the Red Tiger; seat 1: 3 for most gems
    finish_day(deal_day(state, lot=["Red Tiger", "Red Tiger"]))
    play(state, "deal Red Tiger to seat 0", "deal Blue Lady to seat 1",
         "reveal Blue Lady", "reveal Blue Lady", "reveal Blue Lady")
    # Seat 1 plays first on day 3 (no one won day 2's final auction) and buys its own lot.
    assert state.current_player() == 1
    play(state, "call auction", "pass", "bid 1")
    finish_day(state)
    assert state.current_player() == TERMINAL
    assert [day["points"] for day in view(state)["past_days"]] == [[3, 3], [3, 3], [3, 9]]
    assert state.scores() == [9, 15]
    assert state.returns() == [0.0, 1.0]
    assert view(state)["winner"] == 1
    assert view(state)["log"][-1] == "Seat 1 wins the game with 15 points."
    assert view(state, 1)["log"][-1] == "You win the game with 15 points."


def play_three_quiet_days(state):
    """Finish the game with everyone adding and passing, after whatever has been played."""
    while not state.is_terminal():
        finish_day(state)
    return state


def test_a_tie_on_points_goes_to_the_most_gems_left_at_the_end_of_day_3():
    state = finish_day(finish_day(day_one(players=2)))  # 3 + 3 each day
    # Day 3: seat 1 plays first and is the Red Tiger; it buys Red Lady x2 + Blue Tiger (3
    # points) paying seat 0 a gem, so seat 0 has most gems (3 points) and 6 gems to 4.
    play(state, "deal Blue Lady to seat 0", "deal Red Tiger to seat 1")
    reveal(state, "Red Lady", "Red Lady", "Blue Tiger")
    assert state.current_player() == 1
    play(state, "call auction", "pass", "bid 1")
    play_three_quiet_days(state)
    assert state.scores() == [9, 9]
    assert view(state)["past_days"][2]["gems"] == [6, 4]
    assert state.returns() == [1.0, 0.0]


def test_a_tie_on_points_and_gems_goes_to_the_first_tied_player_from_day_3s_first_player():
    state = play_three_quiet_days(day_one(players=2))
    assert state.scores() == [9, 9]
    assert view(state)["past_days"][2]["gems"] == [5, 5]
    assert view(state)["past_days"][2]["first_player"] == 1
    assert state.returns() == [0.0, 1.0]


def test_with_four_players_all_tied_the_first_player_of_day_3_wins():
    state = play_three_quiet_days(day_one(players=4))
    assert state.scores() == [9, 9, 9, 9]
    first = view(state)["past_days"][2]["first_player"]
    assert state.returns()[first] == 1.0


# ------------------------------------------------------------------ what each player knows
def test_a_player_sees_only_their_own_identity_until_the_day_ends():
    state = day_one()
    assert view(state, 0)["identities"] == ["Red Tiger", None, None]
    assert view(state, 2)["identities"] == [None, None, "Red Lady"]
    assert view(state)["identities"] == [None, None, None]
    log = view(state, 0)["log"]
    assert log[0] == (
        "Day 1: you are dealt the Red Tiger Door; Seat 1 and Seat 2 are dealt a Door card each."
    )
    assert not any("Blue Lady" in line for line in log)


def test_identities_are_revealed_at_day_end_but_the_doors_set_aside_are_not():
    state = finish_day(day_one())
    day = view(state, 0)["past_days"][0]
    assert day["identities"] == ["Red Tiger", "Blue Lady", "Red Lady"]
    assert ("Day 1 ends: Seat 0 was the Red Tiger, Seat 1 was the Blue Lady and "
            "Seat 2 was the Red Lady.") in view(state)["log"]
    assert not any("the Blue Tiger" in line for line in view(state)["log"])


def test_the_new_days_identities_are_secret_again():
    state = finish_day(day_one())
    play(state, "deal Blue Tiger to seat 0", "deal Red Tiger to seat 1")
    assert view(state, 2)["identities"] == [None, None, None]
    assert view(state, 0)["identities"] == ["Blue Tiger", None, None]


def test_all_identities_are_face_up_when_the_game_ends():
    state = play_three_quiet_days(day_one())
    assert state.is_terminal()
    # The third day's doors, as finish_day dealt them (lowest first).
    assert view(state)["identities"] == ["Red Lady", "Red Tiger", "Blue Lady"]
    assert view(state)["past_days"][2]["identities"] == view(state)["identities"]


def test_bids_lie_in_front_of_the_bidders_in_sight_of_all():
    state = play(day_one(), "call auction", "bid 3")
    auction = view(state, 2)["auction"]
    assert auction["bids"] == [None, 3, None]
    assert auction["high_bid"] == 3 and auction["high_bidder"] == 1
    assert auction["caller"] == 0 and auction["to_bid"] == 2
    play(state, "pass")
    assert view(state)["auction"]["bids"] == [None, 3, "pass"]
    assert "Seat 1 bids 3 gems." in view(state, 2)["log"]


def test_resample_redraws_the_other_identities_never_the_seats_own():
    state = play(day_one(), "add to lot", "reveal Blue Tiger")
    rng = random.Random(3)
    draws = [state.resample(0, rng) for _ in range(60)]
    seen = {(d.observation(1)["identities"][1], d.observation(2)["identities"][2])
            for d in draws}
    assert all("Red Tiger" not in pair and pair[0] != pair[1] for pair in seen)
    assert len(seen) == 6  # every ordered pair of the three other doors
    for draw in draws[:10]:
        assert draw.observation(0) == state.observation(0)
        replayed = play(new_game("favor", players=3))
        for action in draw.history():
            replayed.apply_action(action)
        assert replayed == draw


def test_resample_keeps_finished_days_identities():
    state = finish_day(day_one(players=2))
    play(state, "deal Blue Lady to seat 0")
    for seed in range(10):
        other = state.resample(1, random.Random(seed))
        assert other.observation(None)["past_days"] == state.observation(None)["past_days"]
        assert other.observation(1)["identities"][1] is None  # not yet dealt


# ------------------------------------------------------------------ whole games
def test_random_games_end_within_the_bound_with_one_winner():
    from ladytiger import load_game

    for players in (2, 3, 4):
        game = load_game("favor", players=players)
        for seed in range(30):
            state = random_playout(game.new_initial_state(), random.Random(seed))
            assert state.is_terminal()
            assert len(state.history()) <= game.max_game_length()
            assert sorted(state.returns()) == [0.0] * (players - 1) + [1.0]
            assert len(view(state)["past_days"]) == 3
