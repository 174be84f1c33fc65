"""The shared grammar (core/words.py), the log's runs of parts and the moment hook's core."""

from __future__ import annotations

import pickle

import pytest

import ladytiger
from ladytiger.core import LadyTigerError, State
from ladytiger.core.log_parts import LogPart, fold_parts
from ladytiger.core.state import combine_moments, game_end_moment, new_moment
from ladytiger.core.words import (
    a,
    agree,
    dealt,
    does,
    join,
    number_word,
    ordinal,
    plural,
    plural_noun,
    sentence,
    signed,
    some,
    standing,
    their,
    third_person,
    turned_up,
    was,
    who,
    whom,
    whose,
    yours,
)
from tests.helpers import new_game, play


# ------------------------------------------------------------------ who and the verb
def test_the_viewer_is_you_and_everyone_else_seat_n_with_a_capital_s():
    assert who(1, 1) == "You" and whom(1, 1) == "you"
    assert who(2, 1) == "Seat 2" and whom(2, 1) == "Seat 2"
    assert who(2, None) == "Seat 2"
    assert whose(1, 1) == "your" and whose(3, 1) == "Seat 3's"
    assert yours(1, 1) == "yours" and yours(0, 1) == "Seat 0's"
    assert their(1, 1) == "your" and their(0, 1) == "their"
    assert was(1, 1) == "were" and was(0, 1) == "was"


@pytest.mark.parametrize(
    ("verb", "third"),
    [("take", "takes"), ("guess", "guesses"), ("pass", "passes"), ("carry", "carries"),
     ("play", "plays"), ("be", "is"), ("have", "has"), ("be dealt", "is dealt"),
     ("put out", "puts out"), ("match", "matches")],
)
def test_third_person_of_verbs(verb, third):
    assert third_person(verb) == third


def test_the_verb_agrees_with_you_and_with_a_seat():
    assert agree("be dealt", 0, 0) == "are dealt"
    assert agree("be dealt", 1, 0) == "is dealt"
    assert agree("have", 0, 0) == "have"
    assert does(1, 0, "take", "the Red Lady") == "Seat 1 takes the Red Lady"
    assert does(0, 0, "take", "the Red Lady") == "You take the Red Lady"
    assert does(0, 0, "win", start=False) == "you win"
    assert does(2, None, "guess", "Red") == "Seat 2 guesses Red"


# ------------------------------------------------------------------ lists, counts, sentences
def test_lists_join_with_and_without_a_serial_comma():
    assert join([]) == ""
    assert join(["a"]) == "a"
    assert join(["a", "b"]) == "a and b"
    assert join(["a", "b", "c"]) == "a, b and c"
    assert join(["a", "", "b"]) == "a and b"


def test_counts_and_plurals():
    assert plural(1, "gem") == "1 gem" and plural(0, "gem") == "0 gems"
    assert plural(3, "gem") == "3 gems" and plural(-1, "point") == "-1 points"
    assert plural_noun("Red Lady") == "Red Ladies" and plural_noun("Door card") == "Door cards"
    assert plural_noun("7") == "7s"
    assert some(1, "card") == "a card" and some(3, "card") == "3 cards"
    assert some(0, "card") == "no cards"
    assert some(2, "white Trash", "white Trash") == "2 white Trash"


def test_articles_follow_the_sound_of_the_word():
    assert a("Red Lady") == "a Red Lady"
    assert a("8") == "an 8" and a("7") == "a 7" and a("11") == "an 11"
    assert a("8-8-8 triple") == "an 8-8-8 triple" and a("1-2-3 run") == "a 1-2-3 run"
    assert a("Lady/Tiger") == "a Lady/Tiger"


def test_small_numbers_ordinals_and_signs():
    assert number_word(3) == "three" and number_word(25) == "25"
    assert ordinal(1) == "first" and ordinal(3) == "third" and ordinal(12) == "12th"
    assert signed(50) == "+50" and signed(-20) == "-20" and signed(0) == "0"


def test_a_sentence_starts_with_a_capital_and_ends_with_a_stop():
    assert sentence("you take the Red Lady") == "You take the Red Lady."
    assert sentence("Seat 1 declares Try!") == "Seat 1 declares Try!"
    assert sentence("  done.  ") == "Done."


def test_standing_names_every_seat():
    assert standing([4, 1], "gem") == "Seat 0 has 4 gems and Seat 1 has 1 gem"


# ------------------------------------------------------------------ deals in one sentence
def card(seat, viewer, item=None, name=None, **extra):
    return {"seat": seat, "viewer": viewer, "item": item, "name": name, "verb": "be dealt",
            "noun": "card", **extra}


def test_a_deal_lists_the_viewers_cards_and_counts_the_others():
    steps = [card(0, 0, "a Red Lady", "Red Lady"), card(0, 0, "a Blue Tiger", "Blue Tiger"),
             card(1, 0), card(1, 0)]
    assert dealt(steps) == "You are dealt a Red Lady and a Blue Tiger; Seat 1 is dealt 2 cards."


def test_a_deal_counts_repeated_cards_by_name():
    steps = [card(0, 0, "a Red Lady", "Red Lady")] * 3 + [card(0, 0, "an 8", "8")]
    assert dealt(steps) == "You are dealt three Red Ladies and an 8."


def test_seats_dealt_alike_share_a_clause():
    steps = [card(seat, None) for seat in (0, 0, 1, 1, 2, 2)]
    assert dealt(steps) == "Seat 0, Seat 1 and Seat 2 are dealt 2 cards each."
    steps = [card(1, 0), card(0, 0, "the Red Tiger Door", lead="Contest 2")]
    assert dealt([{**s, "lead": "Contest 2"} for s in steps]) == (
        "Contest 2: Seat 1 is dealt a card; you are dealt the Red Tiger Door.")


def test_a_run_of_draws_takes_the_verb_it_is_given():
    steps = [{**card(2, 2, "a 7", "7"), "verb": "draw"}, {**card(2, 2, "a 7", "7"), "verb": "draw"}]
    assert dealt(steps) == "You draw two 7s."
    assert dealt([{**card(2, 0), "verb": "draw"}] * 3) == "Seat 2 draws 3 cards."


def test_cards_turned_up_one_after_another():
    steps = [{"item": name, "where": " for the display"} for name in ("Red Lady", "Blue/Red")]
    assert turned_up(steps[:1]) == "The Red Lady is turned up for the display."
    assert turned_up(steps) == "Two cards are turned up for the display: Red Lady and Blue/Red."


# ------------------------------------------------------------------ the log's runs of parts
def part(group, **data):
    return LogPart(group, dealt, **card(**data))


def test_a_part_is_a_sentence_of_its_own_and_compares_as_its_text():
    one = part("deal", seat=1, viewer=0)
    assert one == "Seat 1 is dealt a card." and isinstance(one, str)
    assert hash(one) == hash("Seat 1 is dealt a card.")
    assert (one,) == ("Seat 1 is dealt a card.",)  # what the bots compare


def test_the_log_folds_each_run_of_one_group_into_one_line():
    lines = [
        part("deal", seat=0, viewer=0, item="a 7", name="7"),
        part("deal", seat=0, viewer=0, item="a 9", name="9"),
        part("deal", seat=1, viewer=0),
        "Seat 1 takes the 7 from your pile.",
        part("draw", seat=1, viewer=0),
        part("other draw", seat=1, viewer=0),
    ]
    assert fold_parts(lines) == [
        "You are dealt a 7 and a 9; Seat 1 is dealt a card.",
        "Seat 1 takes the 7 from your pile.",
        "Seat 1 is dealt a card.",
        "Seat 1 is dealt a card.",
    ]
    assert all(type(line) is str for line in fold_parts(lines))


def test_parts_survive_pickling_with_their_group():
    one = part("deal", seat=0, viewer=0, item="a 7", name="7")
    copy = pickle.loads(pickle.dumps(one))
    assert copy == one and copy.group == "deal" and copy.data == one.data


def test_a_live_log_grows_a_deal_line_as_the_deal_goes_on():
    state = play(new_game("shady_lady"), "deal 1 to seat 0")
    assert state.log(0) == ["You are dealt a 1."]
    play(state, "deal 2 to seat 0", "deal 3 to seat 0", "deal 7 to seat 1")
    assert state.log(0) == ["You are dealt a 1, a 2 and a 3; Seat 1 is dealt a card."]
    assert state.log(1) == ["Seat 0 is dealt 3 cards; you are dealt a 7."]


# ------------------------------------------------------------------ moments
def test_the_default_moment_is_the_end_of_the_game():
    state = play(new_game("doors", gems_to_win=1), "deal Red Tiger to seat 0",
                 "deal Blue Lady to seat 1", "reveal Red Lady", "reveal Red Tiger",
                 "reveal Blue Lady", "reveal Blue Tiger", "take Red Lady", "reveal Red Lady")
    before = state.clone()
    after = play(state.clone(), "guess Red")  # right: the Guesser earns 1 and wins
    assert State.moment(before, before.clone()) is None
    assert State.moment(before, after) == {
        "kind": "game_end",
        "title": "Seat 1 wins the game",
        "lines": ["Seat 0 ends with 0 points.", "Seat 1 ends with 1 point."],
    }
    assert State.moment(after, after.clone()) is None


def test_game_end_moments_name_ties_and_draws():
    state = ladytiger.load_game("labyrinth", turn_cap=1).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert game_end_moment(state)["title"] == "The game ends in a draw"
    assert game_end_moment(state, title="Over", lines=["Done."]) == new_moment(
        "game_end", "Over", ["Done."])


def test_several_moments_of_one_move_come_as_the_last_with_the_earlier_first():
    first = new_moment("trick", "Seat 1 takes trick 10", ["Seat 1 played Red 2."])
    last = new_moment("round_end", "Round 1 ends", ["Seat 1 took 4 tricks: +50, 50 in all."])
    assert combine_moments([]) is None
    assert combine_moments([first]) == first
    assert combine_moments([first, last]) == new_moment("round_end", "Round 1 ends", [
        "Seat 1 takes trick 10.", "Seat 1 played Red 2.", "Seat 1 took 4 tricks: +50, 50 in all."])


def test_a_moment_is_asked_only_of_a_later_state_of_the_same_game():
    state = play(new_game("shady_lady"), "deal 1 to seat 0")
    other = play(new_game("shady_lady"), "deal 2 to seat 0")
    with pytest.raises(LadyTigerError):
        state.moment(other)
    with pytest.raises(LadyTigerError):
        play(state.clone(), "deal 2 to seat 0").moment(state)
    with pytest.raises(LadyTigerError):
        state.moment(new_game("doors"))
