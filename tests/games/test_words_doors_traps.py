"""How a contest of Doors or a season of Traps ended, in the observation, in a player's words.

Each finished contest (`past_contests[].how`) and season (`past_seasons[].how`) is told to
each viewer as a sentence in the log's words: "You" for the viewer's own seat, "Seat N" for
any other (a client swaps that for the name). The log's own line about the same end says the
same thing, so the two are checked against each other.
"""

from __future__ import annotations

import random
import re
from itertools import pairwise

import pytest
from rich.console import Console

import ladytiger
from ladytiger.cli.views.doors import render as render_in_terminal
from ladytiger.core import State
from ladytiger.core.playout import random_step
from tests.games.test_log_words import DOORS_RED_SET, SEAT_WITH_YOU_VERB, YOU_WITH_SEAT_VERB
from tests.games.test_traps import (
    find,
    own_trap_with_every_opponent_at_four,
    rulebook_example,
    season,
    standard_hands,
    start_stacks,
    win_bidding,
)
from tests.helpers import new_game, play

# ---------------------------------------------------------------------------- Doors


def doors_hows(state: State) -> dict[int | None, str]:
    """The last contest's `how` for each viewer (seat 0, seat 1, a spectator)."""
    return {viewer: state.observation(viewer)["past_contests"][-1]["how"]
            for viewer in (0, 1, None)}


def the_log_says_it_too(state: State, viewer: int | None, how: str, lead: str) -> None:
    """The log's line about the end holds the same words after its "Contest 3: " lead (where
    a clause starts, so "You" and "The" are written small)."""
    clause = how.removesuffix(".")
    if clause.startswith(("You ", "Your ", "The ")):
        clause = clause[0].lower() + clause[1:]
    assert any(line.startswith(f"{lead}: {clause}") for line in state.log(viewer)), (
        viewer, how, state.log(viewer)[-4:])


def doors_guess() -> State:
    """Seat 0 (the Red Tiger) collects; seat 1 (the Blue Lady) guesses Blue, wrongly."""
    return play(new_game("doors"), "deal Red Tiger to seat 0", "deal Blue Lady to seat 1",
                "reveal Red Lady", "reveal Red Tiger", "reveal Blue Lady", "reveal Blue Tiger",
                "take Red Tiger", "reveal Blue/Red", "guess Blue")


def test_a_wrong_guess_is_told_to_each_seat_in_its_words():
    state = doors_guess()
    assert doors_hows(state) == {
        0: "Seat 1 guessed Blue, wrong: you earn 4 gems.",
        1: "You guessed Blue, wrong: Seat 0 earns 4 gems.",
        None: "Seat 1 guessed Blue, wrong: Seat 0 earns 4 gems.",
    }
    for viewer, how in doors_hows(state).items():
        the_log_says_it_too(state, viewer, how, "Contest 1")


def test_a_right_guess_of_a_door_pays_the_guesser():
    state = play(new_game("doors"), "deal Red Tiger to seat 0", "deal Blue Lady to seat 1",
                 "reveal Red Lady", "reveal Red Tiger", "reveal Blue Lady", "reveal Blue Tiger",
                 "take Red Tiger", "reveal Blue/Red", "guess Red Tiger")
    assert doors_hows(state)[1] == "You guessed Red Tiger, right: you earn 5 gems."
    assert doors_hows(state)[0] == "Seat 1 guessed Red Tiger, right: Seat 1 earns 5 gems."


def test_the_collectors_set_is_told_in_its_words():
    state = play(new_game("doors", gems_to_win=20), *DOORS_RED_SET)
    assert doors_hows(state) == {
        0: "You showed a Red set: you earn 6 gems.",
        1: "Seat 0 showed a Red set: Seat 0 earns 6 gems.",
        None: "Seat 0 showed a Red set: Seat 0 earns 6 gems.",
    }
    for viewer, how in doors_hows(state).items():
        the_log_says_it_too(state, viewer, how, "Contest 1")


def test_the_guessers_claimed_set_is_told_in_its_words():
    # The Collector (the Red Tiger) takes three Blue Ladies and the Blue/Red: a Blue set on
    # the Guesser's colour (the Blue Lady), and none on the Collector's own traits.
    state = play(new_game("doors", gems_to_win=20), "deal Red Tiger to seat 0",
                 "deal Blue Lady to seat 1", "reveal Blue Lady", "reveal Blue Lady",
                 "reveal Blue Lady", "reveal Blue/Red",
                 "take Blue Lady", "reveal Red Lady", "discard Red Lady", "reveal Red Lady",
                 "end turn",
                 "take Blue Lady", "reveal Red Lady", "discard Red Lady", "reveal Blue Tiger",
                 "end turn",
                 "take Blue Lady", "reveal Blue Tiger", "discard Red Lady", "reveal Blue Tiger",
                 "end turn", "take Blue/Red", "reveal Red Tiger", "claim set")
    assert doors_hows(state) == {
        0: "Seat 1 claimed a Blue set: Seat 1 earns 2 gems.",
        1: "You claimed a Blue set: you earn 2 gems.",
        None: "Seat 1 claimed a Blue set: Seat 1 earns 2 gems.",
    }
    for viewer, how in doors_hows(state).items():
        the_log_says_it_too(state, viewer, how, "Contest 1")


def test_a_deck_run_out_is_told_in_its_words():
    # Nobody declares: the Collector takes, the Guesser discards and ends the turn, until
    # the deck is empty (a contest where the Collector makes no set of its own).
    for seed in range(200):
        rng = random.Random(seed)
        state = new_game("doors", gems_to_win=20)
        while not state.past_contests:
            legal = [state.action_to_string(a) for a in state.legal_actions()]
            quiet = [t for t in legal if t.split()[0] in ("take", "discard", "end")]
            if quiet:
                choice = "end turn" if "end turn" in quiet else rng.choice(quiet)
                play(state, choice)
            else:
                state.apply_action(random_step(state, rng))
        if state.past_contests[-1]["ending"] == ("deck",):
            break
    else:
        raise AssertionError("no contest ran the deck out")
    guesser = 1 - state.past_contests[-1]["collector"]
    hows = doors_hows(state)
    assert hows[guesser] == "The deck ran out: you earn 3 gems."
    assert hows[None] == f"The deck ran out: Seat {guesser} earns 3 gems."
    for viewer, how in hows.items():
        the_log_says_it_too(state, viewer, how, "Contest 1")


# ---------------------------------------------------------------------------- Traps


def traps_hows(state: State) -> dict[int | None, str]:
    return {viewer: state.observation(viewer)["past_seasons"][-1]["how"]
            for viewer in (*range(state.num_players()), None)}


def season_line(state: State, viewer: int | None, how: str) -> None:
    """The log says "Season N ends: " and the same clause (a stop's line says who took the
    gem just before, so there the clause stops short of it)."""
    number = state.observation(viewer)["past_seasons"][-1]["season"]
    clause = how.removesuffix(".")
    if clause.startswith(("You ", "Your ", "The ")):
        clause = clause[0].lower() + clause[1:]
    clause = clause.split(" and gave a gem to ")[0]
    assert f"Season {number} ends: {clause}." in state.log(viewer), (viewer, how)


def test_reaching_the_bid_is_told_to_each_seat_in_its_words():
    state = play(season(3, "Red Lady"), "bid 2", "pass", "pass", "reveal seat 0")
    assert traps_hows(state) == {
        0: "You reached the bid of 2 and took 3 gems from the pot.",
        1: "Seat 0 reached the bid of 2 and took 3 gems from the pot.",
        2: "Seat 0 reached the bid of 2 and took 3 gems from the pot.",
        None: "Seat 0 reached the bid of 2 and took 3 gems from the pot.",
    }
    for viewer, how in traps_hows(state).items():
        season_line(state, viewer, how)


def test_a_stop_names_who_took_the_gem():
    state = play(season(3, "Red Lady"), "bid 13", "pass", "pass", "reveal seat 0",
                 "stop and give a gem to seat 1")
    assert traps_hows(state) == {
        0: "You stopped revealing and gave a gem to Seat 1.",
        1: "Seat 0 stopped revealing and gave a gem to you.",
        2: "Seat 0 stopped revealing and gave a gem to Seat 1.",
        None: "Seat 0 stopped revealing and gave a gem to Seat 1.",
    }
    for viewer, how in traps_hows(state).items():
        season_line(state, viewer, how)


def test_running_out_of_cards_is_told_in_its_words():
    state = play(season(2, "Red Lady"), "bid 13", "pass", "reveal seat 0", "reveal seat 1")
    assert traps_hows(state)[0] == "You ran out of cards to reveal."
    assert traps_hows(state)[1] == "Seat 0 ran out of cards to reveal."


def test_an_empty_pot_is_told_in_its_words():
    hands = [["Red Tiger"] * 3 + ["Blue Lady"] * 3, ["Red Lady"] * 3 + ["Blue Tiger"] * 3]
    state = season(2, "Blue Tiger", starts=["Red Tiger", "Red Lady"], hands=hands)
    play(state, "build Red Tiger", "build Red Lady", "build Red Tiger", "build Red Lady",
         "bid 13", "pass", "reveal seat 1", "reveal seat 1", "reveal seat 1")
    assert set(traps_hows(state).values()) == {"The pot is empty."}
    for viewer, how in traps_hows(state).items():
        season_line(state, viewer, how)


def test_a_winning_trap_is_told_in_its_words():
    state = play(season(2, "Red Lady"), "bid 2", "pass", "reveal seat 0")  # seat 0 holds 4
    play(state, "goal Blue Tiger")  # a Red Lady is a trap for the Blue Tiger
    start_stacks(state, [cards[0] for cards in standard_hands(2)])
    win_bidding(state, 1, 13)
    play(state, "reveal seat 0")
    assert state.is_terminal()
    assert traps_hows(state) == {
        0: "Your trap gave you a gem, and you win with 5 gems.",
        1: "Seat 0's trap gave them a gem, and Seat 0 wins with 5 gems.",
        None: "Seat 0's trap gave them a gem, and Seat 0 wins with 5 gems.",
    }
    for viewer, how in traps_hows(state).items():
        season_line(state, viewer, how)


def test_an_own_trap_with_every_opponent_at_four_is_told_in_its_words():
    state = rulebook_example()
    start_stacks(state, ["Red Tiger", "Red Lady", "Red Lady", "Red Lady"])
    play(state, "build Lady/Tiger", "build Red Tiger", "build Red Tiger", "build Blue/Red",
         "bid 4", "pass", "pass", "bid 5", "pass",
         "reveal seat 0", "reveal seat 3", "reveal seat 2", "reveal seat 3", "reveal seat 0")
    hows = traps_hows(state)
    assert hows[0] == ("You revealed your own trap with every opponent at 4 gems and paid "
                       "2 gems into the pot.")
    assert hows[2] == ("Seat 0 revealed their own trap with every opponent at 4 gems and paid "
                       "2 gems into the pot.")
    for viewer, how in hows.items():
        season_line(state, viewer, how)


def test_an_own_trap_at_every_count_agrees_with_the_log():
    state = find(3, own_trap_with_every_opponent_at_four)
    me = state.current_player()
    play(state, f"reveal seat {me}")
    for viewer, how in traps_hows(state).items():
        season_line(state, viewer, how)


# ---------------------------------------------------------------------------- every game


def finished(name: str, seed: int, **options: object) -> State:
    state = ladytiger.load_game(name, **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(random_step(state, rng))
    return state


@pytest.mark.parametrize(("name", "field", "options"), [
    ("doors", "past_contests", {"gems_to_win": 12}),
    ("traps", "past_seasons", {"players": 2, "max_seasons": 30}),
    ("traps", "past_seasons", {"players": 4, "max_seasons": 30}),
])
def test_every_end_is_a_sentence_with_the_right_grammar(name, field, options):
    for seed in range(6):
        state = finished(name, seed, **options)
        viewers = [*range(state.num_players()), None]
        for viewer in viewers:
            records = state.observation(viewer)[field]
            assert records
            for record in records:
                how = record["how"]
                assert re.fullmatch(r"[A-Z].*\.", how), how
                assert not YOU_WITH_SEAT_VERB.search(how), how
                assert not SEAT_WITH_YOU_VERB.search(how), how
                # Never the old, lower-case seat names.
                assert not re.search(r"\bseat \d", how), how
                if viewer is None:
                    assert not re.search(r"\b[Yy]ou", how), how
                # The same end, told to another seat, differs only by who is "you".
                other = state.observation(None)[field][records.index(record)]["how"]
                if viewer is not None:
                    assert len(re.findall(r"\bSeat \d", other)) >= len(
                        re.findall(r"\bSeat \d", how)), (how, other)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_traps_deals_each_year_in_one_line(players):
    state = finished("traps", players, players=players, max_seasons=12)
    for viewer in (*range(players), None):
        log = state.log(viewer)
        deals = [line for line in log if " dealt " in line]
        assert len(deals) == state.year, deals
        for line, following in pairwise(log):
            assert not (" dealt " in line and " dealt " in following), (line, following)


def test_doors_deals_each_contest_in_one_line():
    state = finished("doors", 4, gems_to_win=8)
    for viewer in (0, 1, None):
        deals = [line for line in state.log(viewer) if " dealt " in line]
        assert len(deals) == len(state.past_contests) + (not state.is_terminal())


def test_the_terminal_view_of_doors_tells_the_last_contest_once():
    """The CLI prints the `how` sentence as it is: it already names who earned what."""
    state = doors_guess()
    console = Console(width=200, record=True, color_system=None)
    console.print(render_in_terminal(state.observation(0)))
    text = " ".join(console.export_text().split())
    assert "last contest: Seat 1 guessed Blue, wrong: you earn 4 gems." in text
    assert "earned" not in text and ".;" not in text and ".." not in text
