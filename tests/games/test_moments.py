"""Moments: the scoring and reveal moments `State.moment(after)` finds in a move.

A moment is what a table shows as a move's headline: a contest decided, a day's score sheet,
a trick taken, a Jack! called. It is written for nobody in particular (every seat is
"Seat N") and from what a spectator may know once the move is made, so it must read the
same whatever the hidden cards are.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ladytiger
from ladytiger.core import CHANCE, State
from ladytiger.core.playout import random_step, sample_chance
from ladytiger.games import lady_tiger_cards, tighee
from tests.games.test_hoard import FULL_DECK, TREASURE_UP, board, play_out_round, turn
from tests.games.test_labyrinth import distance_home, labyrinth
from tests.games.test_shady_lady import seat_draws, start
from tests.games.test_tighee import short_game
from tests.games.test_traps import dealt as traps_dealt
from tests.helpers import new_game, play

KINDS = {
    "doors": {"contest_end", "game_end"},
    "favor": {"day_end", "game_end"},
    "hoard": {"round_end", "game_end"},
    "labyrinth": {"cub_home", "game_end"},
    "shady_lady": {"try", "jack", "game_end"},
    "tighee": {"trick", "round_end", "game_end"},
    "traps": {"season_end", "game_end"},
}
CARDS = {
    "tighee": tighee.CARD_NAMES,
    "shady_lady": (),  # numbers: the resampling check below covers them
    **{name: lady_tiger_cards.CARD_NAMES
       for name in ("doors", "favor", "hoard", "labyrinth", "traps")},
}
CONFIGURATIONS = [
    (info.name, config)
    for info in ladytiger.registered_games()
    for config in info.configurations()
]


def moment_of(state: State, *texts: str) -> dict | None:
    """The moment of a move and the chance outcomes after it, all named by their text; the
    state moves on."""
    before = state.clone()
    play(state, *texts)
    return before.moment(state)


def next_move(state: State, choose, rng: random.Random) -> tuple[State, dict | None]:
    """Play the move `choose` picks and the chance steps after it (drawn with `rng`): the
    state before, and the moment."""
    before = state.clone()
    state.apply_action(choose(state))
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state, rng))
    return before, before.moment(state)


def until(state: State, choose, wanted, rng: random.Random) -> dict:
    """Play moves until one makes a moment `wanted` accepts; that moment. Chance is drawn
    with `rng`."""
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state, rng))
    while not state.is_terminal():
        _, found = next_move(state, choose, rng)
        if found is not None and wanted(found):
            return found
    raise AssertionError("the game ended without the moment")


def first_legal(state: State) -> int:
    return state.legal_actions()[0]


# ------------------------------------------------------------------ Doors
def doors_guesser_turn(**options) -> State:
    return play(new_game("doors", **options), "deal Red Tiger to seat 0",
                "deal Blue Lady to seat 1", "reveal Red Lady", "reveal Red Tiger",
                "reveal Blue Lady", "reveal Blue Tiger", "take Red Tiger", "reveal Blue/Red")


def test_doors_a_decided_contest_shows_both_doors():
    state = doors_guesser_turn()
    assert moment_of(state, "discard Blue Lady", "reveal Red Tiger") is None
    assert moment_of(state, "guess Blue", "deal Red Lady to seat 0",
                     "deal Blue Tiger to seat 1", "reveal Red Lady") == {
        "kind": "contest_end",
        "title": "Contest 1: Seat 0 earns 4 gems",
        "lines": [
            "Seat 1 guessed Blue, wrong: Seat 0 earns 4 gems.",
            "Seat 0's Door was the Red Tiger and Seat 1's the Blue Lady.",
            "Seat 0 has 4 gems and Seat 1 has 0 gems.",
        ],
    }


def test_doors_the_contest_that_ends_the_game():
    state = doors_guesser_turn(gems_to_win=5)
    assert moment_of(state, "guess Red Tiger") == {
        "kind": "game_end",
        "title": "Seat 1 wins the game",
        "lines": [
            "Contest 1: Seat 1 earns 5 gems.",
            "Seat 1 guessed Red Tiger, right: Seat 1 earns 5 gems.",
            "Seat 0's Door was the Red Tiger and Seat 1's the Blue Lady.",
            "Seat 0 ends with 0 gems.",
            "Seat 1 ends with 5 gems.",
        ],
    }


# ------------------------------------------------------------------ Favor
def favor_quietly(state: State) -> int:
    """Everyone adds to the lot and passes every auction."""
    phase = state.observation(None)["phase"]
    text = {"turn": "add to lot", "auction": "pass", "final auction": "pass"}[phase]
    return state.string_to_action(text)


def test_favor_a_days_end_shows_every_door_and_the_score_sheet():
    state = play(new_game("favor", players=2), "deal Red Tiger to seat 0",
                 "deal Blue Lady to seat 1", "reveal Red Tiger", "call auction", "bid 2", "pass")
    found = until(state, favor_quietly, lambda m: True, random.Random(1))
    assert found == {
        "kind": "day_end",
        "title": "Day 1 ends",
        "lines": [
            "Seat 0 was the Red Tiger and Seat 1 was the Blue Lady.",
            "Seat 0 (the Red Tiger) scores 0 for their cards and 3 for the most gems (7): "
            "3 points, 3 in all.",
            "Seat 1 (the Blue Lady) scores -2 for their cards: -2 points, -2 in all.",
        ],
    }


def test_favor_the_third_day_ends_the_game():
    state = new_game("favor", players=2)
    rng = random.Random(3)
    days = [until(state, favor_quietly, lambda m: True, rng) for _ in range(3)]
    assert [m["kind"] for m in days] == ["day_end", "day_end", "game_end"]
    final = days[-1]
    winner = state.observation(None)["winner"]
    assert final["title"] == f"Seat {winner} wins the game"
    assert final["lines"][0] == "Day 3 ends."
    assert final["lines"][-2:] == [
        f"Seat {seat} ends with {points} point{'s' if points != 1 else ''}."
        for seat, points in enumerate(state.scores())
    ]


# ------------------------------------------------------------------ Hoard
def lowest_action(state: State) -> int:
    return state.legal_actions()[0]


def test_hoard_a_rounds_end_tells_its_marker():
    state = play_out_round(board(*TREASURE_UP), FULL_DECK[:-1])
    assert moment_of(state, "reveal Lady/Tiger") is None  # a wild with a move to make
    last = state.legal_actions()[0]
    before = state.clone()
    state.apply_action(last)
    play(state, "reveal Red Lady")
    assert before.moment(state) == {
        "kind": "round_end",
        "title": "Round 1 ends",
        "lines": [
            "Round 1 ends: the Lady/Tiger goes under the first round marker.",
            "Treasures collected so far: 0 of 10.",
        ],
    }


def test_hoard_the_game_is_lost_after_the_third_round():
    state = play_out_round(board(*TREASURE_UP), FULL_DECK)
    play_out_round(state, FULL_DECK[:-1])
    play_out_round(state, FULL_DECK[:-3])
    before = state.clone()
    play_out_round(state, FULL_DECK[-3:-2])  # the last card, a Blue Tiger
    assert state.is_terminal()
    assert before.moment(state) == {
        "kind": "game_end",
        "title": "The game is lost",
        "lines": [
            "Round 3 ends: the Blue Tiger goes under the third round marker.",
            "The third round is over with 0 of 10 Treasures collected.",
        ],
    }


def test_hoard_the_tenth_treasure_wins():
    state = board("red red red red red", "blue blue blue blue blue",
                  "white white white white white", "black black black black black")
    turn(state, "Blue/Red", "swap black Trash on Blue Tiger with white Trash on Red Tiger")
    turn(state, "Red Tiger", "remove pairs from Red Tiger")
    turn(state, "Blue Tiger", "remove pairs from Blue Tiger")
    turn(state, "Lady/Tiger", "put white Trash on Red Tiger and black Trash on Blue Tiger")
    for _ in range(3):
        turn(state, "Red Lady", "collect red Treasure from Red Lady")
        turn(state, "Blue Lady", "collect blue Treasure from Blue Lady")
    turn(state, "Red Tiger", "move black Trash from Blue Tiger to Red Tiger")
    turn(state, "Red Tiger", "remove pairs from Red Tiger")
    turn(state, "Blue Tiger", "move white Trash from Red Tiger to Blue Tiger")
    play(state, "reveal Blue Tiger")
    assert moment_of(state, "remove pairs from Blue Tiger", "reveal Red Lady")["kind"] == (
        "round_end")
    play(state, "collect red Treasure from Red Lady")
    turn(state, "Red Lady", "collect red Treasure from Red Lady")
    turn(state, "Blue Lady", "collect blue Treasure from Blue Lady")
    play(state, "reveal Blue Lady")
    assert moment_of(state, "collect blue Treasure from Blue Lady") == {
        "kind": "game_end",
        "title": "The game is won",
        "lines": ["All 10 Treasures are collected: Seat 0 scores 6 for the removed Trash."],
    }


# ------------------------------------------------------------------ Labyrinth
def heading_home(seat: int):
    """A policy for both seats: the move that brings `seat`'s cubs nearest their door."""
    def choose(state: State) -> int:
        def distance(action: int) -> tuple[int, int]:
            twin = state.clone()
            twin.apply_action(action)
            return distance_home(twin, seat), action
        return min(state.legal_actions(), key=distance)
    return choose


def test_labyrinth_a_cub_reaching_its_tiger_door():
    state = labyrinth()
    found = until(state, heading_home(0), lambda m: True, random.Random(0))
    assert found == {
        "kind": "cub_home",
        "title": "Seat 0 brings a red cub home",
        "lines": ["Seat 0 has 1 of 5 red cubs on the Red Tiger Door at D4."],
    }


def test_labyrinth_the_escape_ends_the_game():
    state = labyrinth()
    found = until(state, heading_home(0), lambda m: m["kind"] == "game_end", random.Random(0))
    blue = state.scores()[1]
    assert found == {
        "kind": "game_end",
        "title": "Seat 0 wins the game",
        "lines": [
            "All five red cubs have escaped.",
            "Seat 0 has 5 of 5 red cubs on the Red Tiger Door at D4.",
            f"Seat 1 has {blue} of 5 blue cubs on the Blue Tiger Door at A4.",
        ],
    }


def test_labyrinth_the_turn_cap_ends_the_game_in_a_draw():
    state = play(labyrinth(turn_cap=2), "move red cub from A1 to B1", "switch B1 B4 with Blue/Red",
                 "move blue cub from D1 to D2")
    assert moment_of(state, "switch D2 D3 with Blue/Red") == {
        "kind": "game_end",
        "title": "The game ends in a draw",
        "lines": [
            "The turn cap of 2 turns is reached: the game is a draw.",
            "Seat 0 has 0 of 5 red cubs on the Red Tiger Door at D4.",
            "Seat 1 has 0 of 5 blue cubs on the Blue Tiger Door at A4.",
        ],
    }


# ------------------------------------------------------------------ Traps
def test_traps_a_seasons_end_shows_the_cards_revealed_and_the_gems():
    state = play(traps_dealt(3), "goal Red Lady", "start stack with Red Lady",
                 "start stack with Red Tiger", "start stack with Blue Tiger", "build Red Tiger",
                 "build Blue Lady", "bid 3", "pass", "bid 4", "pass")
    assert moment_of(state, "reveal seat 0") is None
    assert moment_of(state, "reveal seat 2", "reveal seat 1", "reveal seat 1") is None
    assert moment_of(state, "reveal seat 0", "goal Red Tiger") == {
        "kind": "season_end",
        "title": "Season 1 ends",
        "lines": [
            "Seat 1 reached the bid of 4 and took 2 gems from the pot.",
            "The goal was the Red Lady: Seat 1 bid 4 traits and matched 5.",
            "Cards revealed: the Red Tiger and the Red Lady from Seat 0's stack; the Blue Lady "
            "and the Red Tiger from Seat 1's stack; the Blue Tiger from Seat 2's stack.",
            "Seat 0 has 1 gem, Seat 1 has 3 gems and Seat 2 has 2 gems.",
        ],
    }


def test_traps_the_season_cap_ends_the_game_in_a_draw():
    state = play(traps_dealt(2, max_seasons=1), "goal Red Tiger", "start stack with Red Lady",
                 "start stack with Blue Lady", "bid 13", "pass")
    assert moment_of(state, "stop and give a gem to seat 1") == {
        "kind": "game_end",
        "title": "The game ends in a draw",
        "lines": [
            "Season 1 ends.",
            "Seat 0 stopped revealing.",
            "The goal was the Red Tiger: Seat 0 bid 13 traits and matched 0.",
            "The game is a draw: the cap of 1 season is reached.",
            "Seat 0 ends with 0 gems.",
            "Seat 1 ends with 2 gems.",
        ],
    }


def test_traps_a_win_ends_the_game():
    rng = random.Random(5)
    for seed in range(40):
        state = ladytiger.load_game("traps", players=2).new_initial_state()
        game_rng = random.Random(seed)
        while not state.is_terminal():
            _, found = next_move(state, lambda s, r=game_rng: random_step(s, r), rng)
        if state.observation(None)["winner"] is not None:
            break
    winner = state.observation(None)["winner"]
    assert found["kind"] == "game_end"
    assert found["title"] == f"Seat {winner} wins the game"
    assert re.fullmatch(r"Season \d+ ends\.", found["lines"][0])
    assert f"Seat {winner} ends with 5 gems." in found["lines"]


# ------------------------------------------------------------------ Tighee
def test_tighee_a_trick_taken():
    state = play(short_game("Purple 1"), "play Black 1", "play Black 3")
    assert moment_of(state, "play Purple 6", "reveal Red 1") == {
        "kind": "trick",
        "title": "Seat 2 takes trick 1",
        "lines": [
            "The Forest card was Purple 1: Seat 0 played Black 1 (as Purple 1), Seat 1 played "
            "Black 3 (as Purple 3) and Seat 2 played Purple 6.",
            "Seat 2 takes the trick with Purple 6, the highest Purple.",
        ],
    }


def test_tighee_a_rounds_end_shows_the_score_table():
    state = short_game()
    rng = random.Random(4)
    found = until(state, lambda s: random_step(s, rng), lambda m: m["kind"] != "trick", rng)
    result = state.past_rounds[-1]
    assert found["kind"] == "round_end" and found["title"] == "Round 1 ends"
    assert re.fullmatch(r"Seat \d takes trick 10\.", found["lines"][0])
    table = [
        f"Seat {seat} took {tricks} trick{'' if tricks == 1 else 's'}: "
        f"{'+' if points > 0 else ''}{points}, {total} in all."
        for seat, (tricks, points, total) in enumerate(
            zip(result["tricks_won"], result["points"], result["totals"], strict=True))
    ]
    assert found["lines"][3:6] == table
    lead = state.first_lead
    assert found["lines"][6] == f"Seat {lead} has the lowest total and leads round 2."


def test_tighee_the_last_round_ends_the_game():
    state = short_game()
    rng = random.Random(4)
    found = until(state, lambda s: random_step(s, rng), lambda m: m["kind"] == "game_end", rng)
    best = state.winners()
    if len(best) == 1:
        assert found["title"] == f"Seat {best[0]} wins the game"
    else:
        assert found["title"].endswith(" share the win")
    assert "Round 3 ends." in found["lines"]
    assert found["lines"][-3:] == [
        f"Seat {seat} ends with {total} point{'' if total in (1, -1) else 's'}."
        for seat, total in enumerate(state.scores())
    ]


# ------------------------------------------------------------------ Shady Lady
def test_shady_lady_a_jack_turns_a_hand_up_and_scores():
    state = start("1 4 9", "7 7 7")
    assert moment_of(state, "jack seat 1") == {
        "kind": "jack",
        "title": "Seat 0 calls Jack! on Seat 1",
        "lines": [
            "Seat 1 reveals 7, 7 and 7: a 7-7-7 triple.",
            "The Jack! succeeds: Seat 1 holds a 7-7-7 triple, so Seat 0 scores a point "
            "(1 point in all).",
        ],
    }


def test_shady_lady_a_try_its_answers_and_its_point():
    state = start("2 3 4", "7 8 9", "1 4 9")
    assert moment_of(state, "try") == {
        "kind": "try",
        "title": "Seat 0 declares Try!",
        "lines": ["Seat 0 reveals 2, 3 and 4: a 2-3-4 run."],
    }
    assert moment_of(state, "reveal") == {
        "kind": "try",
        "title": "Seat 1 answers the Try!",
        "lines": ["Seat 1 reveals 7, 8 and 9: a 7-8-9 run."],
    }
    assert moment_of(state, "decline") == {
        "kind": "try",
        "title": "Seat 1 wins the Try!",
        "lines": [
            "The Try! ends: Seat 1 has the best combination, a 7-8-9 run, so Seat 1 scores a "
            "point (1 point in all).",
        ],
    }
    assert moment_of(state, "discard 2") is None


def test_shady_lady_the_third_point_ends_the_game_with_every_hand_shown():
    state = start("1 4 9", "2 6 9")
    play(state, "jack seat 1", "discard 2", "discard 6", "discard 9")
    seat_draws(state, 1, 1, 3, 8)
    play(state, "jack seat 0", "discard 1", "discard 4", "discard 9")
    seat_draws(state, 0, 2, 4, 9)
    play(state, "jack seat 1", "discard 1", "discard 3", "discard 8")
    seat_draws(state, 1, 6, 8, 9)
    play(state, "jack seat 0", "discard 2", "discard 4", "discard 9")
    seat_draws(state, 0, 6, 6, 6)
    assert moment_of(state, "jack seat 1") == {
        "kind": "game_end",
        "title": "Seat 1 wins the game",
        "lines": [
            "Seat 0 calls Jack! on Seat 1.",
            "Seat 1 reveals 6, 8 and 9: no combination.",
            "The Jack! fails: Seat 1 holds no combination, so Seat 1 scores a point "
            "(3 points in all).",
            "Seat 1 has 3 points and wins the game.",
            "Hands at the end: Seat 0 held 6, 6 and 6; Seat 1 held 6, 8 and 9.",
        ],
    }


# ------------------------------------------------------------------ every game
@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_of_moment_comes_up_in_random_games(name):
    kinds: set[str] = set()
    for options in [config for game, config in CONFIGURATIONS if game == name]:
        for seed in range(6):
            state = ladytiger.load_game(name, **options).new_initial_state()
            rng = random.Random(seed)
            while not state.is_terminal() and len(state.history()) < 4000:
                _, found = next_move(state, lambda s, r=rng: random_step(s, r), rng)
                if found is not None:
                    assert found["kind"] in KINDS[name], found
                    kinds.add(found["kind"])
            if kinds == KINDS[name]:
                return
    assert kinds == KINDS[name]


@settings(max_examples=40)
@given(game=st.sampled_from(CONFIGURATIONS), rng=st.randoms(use_true_random=False))
def test_a_moment_tells_only_what_a_spectator_may_know(game, rng):
    """Every moment of a random game is in player words, the same in every world a
    spectator of the state after it cannot tell from the real one, and names only cards
    that spectator can see (on the table or in their log)."""
    name, options = game
    state = ladytiger.load_game(name, **options).new_initial_state()
    draw = random.Random(rng.random())
    checked = 0
    while not state.is_terminal() and len(state.history()) < 3000 and checked < 3:
        before, found = next_move(state, lambda s: random_step(s, rng), rng)
        if found is None:
            continue
        checked += 1
        assert set(found) == {"kind", "title", "lines"}
        assert found["kind"] in KINDS[name]
        assert found["title"] and found["title"][0].isupper()
        assert not found["title"].endswith(".")
        for line in found["lines"]:
            assert line[:1].isupper() and line.endswith((".", "!", "?")), line
        text = " ".join([found["title"], *found["lines"]])
        assert not re.search(r"\b[Yy]ou(r|rs)?\b", text), text
        assert not re.search(r"\bseat \d", text), text
        public = json.dumps(state.observation(None))
        for card in CARDS[name]:
            if re.search(rf"(?<![\w/]){re.escape(card)}(?![\w/])", text):
                assert card in public, card
        # The same moment in worlds drawn for a spectator of the state after it.
        done = len(before.history())
        for _ in range(2):
            world = state.resample(None, draw)
            start_of_move = state.game.new_initial_state()
            for action in world.history()[:done]:
                start_of_move.apply_action(action)
            assert start_of_move.moment(world) == found
