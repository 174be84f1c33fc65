"""Tighee's rules of thumb for losing a trick and for pacing the tricks, each on a position
built for it (docs/bots.md, "The bots", Tighee)."""

from __future__ import annotations

import random
from typing import Any

import ladytiger
from ladytiger.bots.heuristics import Moves
from ladytiger.bots.heuristics import tighee as rules
from ladytiger.core import CHANCE
from ladytiger.core.playout import sample_chance


def view(trick: list[str], won: list[int], forest: str = "Green 6", tricks: int = 15
         ) -> dict[str, Any]:
    """A play-phase view for seat 0, the `trick` so far (in play order) played by the seats
    before it, `won` the tricks each seat has taken this round."""
    players = len(won)
    first = players - len(trick)
    return {"viewer": 0, "phase": "play", "forest": forest,
            "trick": [{"card": card, "seat": (first + i) % players}
                      for i, card in enumerate(trick)],
            "tricks_won": won, "tricks_per_round": tricks,
            "options": {"players": players, "mode": "basic"}}


def played(seen: dict[str, Any], *cards: str) -> str:
    offered = Moves(list(range(len(cards))), [f"play {card}" for card in cards])
    action, reason = rules.explain(seen, offered, random.Random(0))
    assert action == rules.choose(seen, offered, random.Random(0))
    assert reason  # every choice is put in words
    return offered.texts[action].removeprefix("play ")


# ---------------------------------------------------------------------------- ducking
def test_a_made_count_is_kept_by_shedding_the_highest_card_that_surely_loses():
    # Four tricks made, Red 9 led: Red 3 and Red 8 both lose whatever comes after, and the
    # Red 8 is the one that would take a trick later.
    seen = view(["Red 9"], [4, 3, 2])
    assert played(seen, "Red 3", "Red 8", "Red 11") == "Red 8"
    # Once a card off the colour is in the trick every follower loses: shed the highest.
    seen = view(["Red 5", "Blue 4"], [4, 3, 2])
    assert played(seen, "Red 2", "Red 11") == "Red 11"
    # Off the colour, every card above the lowest card off it loses: the highest goes.
    assert played(seen, "Purple 7", "Purple 10", "Green 12") == "Green 12"


def test_a_black_card_is_kept_when_another_card_surely_loses():
    # Under a Red Forest card a Black card follows Red: both lose to the Red 9, and the
    # flexible Black card is kept although it is the higher.
    seen = view(["Red 9"], [4, 3, 2], forest="Red 2")
    assert played(seen, "Red 6", "Black 8") == "Red 6"


def test_ducking_under_the_lead_also_paces_the_early_tricks():
    # No tricks yet and no hurry: the highest card under the Blue 10 goes, not the lowest.
    seen = view(["Blue 10"], [0, 0, 0])
    assert played(seen, "Blue 1", "Blue 7", "Blue 12") == "Blue 7"


# ---------------------------------------------------------------------------- no sure loser
def test_with_players_to_come_a_follower_is_played_rather_than_a_card_off_the_colour():
    # Green 1 led under a Purple Forest card: Green 4 follows, Black 10 counts as Purple,
    # off the colour. Both take the trick as it stands; the last player beats the Green 4
    # with any higher Green or any card off the colour, the Black 10 only with a card off
    # the colour of 10 or less, and most players can follow.
    seen = view(["Green 1"], [4, 2, 3], forest="Purple 5")
    assert played(seen, "Green 4", "Black 10") == "Green 4"
    # Of the followers, the lowest (the one most cards beat).
    assert played(seen, "Green 9", "Green 4", "Black 10") == "Green 4"


def test_with_players_to_come_and_no_follower_the_highest_card_off_the_colour_goes():
    seen = view(["Green 1"], [4, 2, 3])
    assert played(seen, "Red 3", "Blue 11", "Purple 7") == "Blue 11"


def test_last_to_a_trick_every_card_takes_is_taken_with_the_highest():
    # Red 1 and Red 2 led: every Red card takes the trick; the Red 12 is the card that
    # would take another one later.
    seen = view(["Red 1", "Red 2"], [4, 3, 2])
    assert played(seen, "Red 5", "Red 12", "Red 9") == "Red 12"


def test_a_lead_to_lose_is_the_lowest_card():
    seen = view([], [4, 3, 2])
    assert played(seen, "Red 9", "Blue 2", "Green 6") == "Blue 2"


# ---------------------------------------------------------------------------- pacing
def test_spare_tricks_are_those_left_beyond_what_every_player_still_needs():
    assert rules.spare_tricks([0, 0, 0], 15) == 3  # three players, full deck: 15 for 12
    assert rules.spare_tricks([0, 0, 0, 0], 12) == 0  # four players: 12 for 16
    assert rules.spare_tricks([0, 0, 0], 10) == 0  # the short game: 10 for 12
    # 4 made (needs none), 5 aiming at 8 (needs 3), 2 aiming at 4 (needs 2): 5 for 4 left.
    assert rules.spare_tricks([4, 5, 2], 4) == 0
    # 9 with 2 left cannot reach 12, nor 0 reach 4, and 4 is made: both tricks are spare.
    assert rules.spare_tricks([9, 4, 0], 2) == 2


def test_spare_tricks_make_you_wait_longer_before_taking_tricks():
    # Three tricks gone to the others, 12 left: a fair share of 12 is 4, all you need, but
    # the others need only 5 of them, so 3 are spare and will fall to whoever stops
    # ducking first. Last to the trick, the Red 3 ducks; the Red 10 would take it.
    seen = view(["Red 5", "Red 7"], [0, 2, 1])
    assert played(seen, "Red 3", "Red 10") == "Red 3"
    # With no tricks to spare (four players: 12 tricks for 16 wanted) the same need is a
    # fair share, and the trick is taken.
    seen = view(["Red 5", "Red 7", "Red 2"], [0, 0, 0, 0], tricks=12)
    assert played(seen, "Red 3", "Red 10") == "Red 10"
    # Once few enough are left, spares or not, the trick is taken: 4 needed of 8 left, 3 of
    # them spare (the others need 1 and none), and 4 x 3 players reaches 8 + 3.
    seen = view(["Red 5", "Red 7"], [0, 3, 4])
    assert rules.spare_tricks([0, 3, 4], 8) == 3
    assert played(seen, "Red 3", "Red 10") == "Red 10"


# ---------------------------------------------------------------------------- in a game
def test_every_choice_of_a_whole_game_is_put_in_words():
    game = ladytiger.load_game("tighee", players=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        offered = Moves(legal, [state.action_to_string(action) for action in legal])
        seen = state.observation(seat, with_log=False)
        action, reason = rules.explain(seen, offered, rng)
        assert action == rules.choose(seen, offered, rng)
        assert reason.endswith(".")
        state.apply_action(action)
