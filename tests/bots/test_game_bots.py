"""Each game's rules of thumb, and the search bots written for one game."""

from __future__ import annotations

import random

import pytest

import ladytiger
from ladytiger.arena.simulate import game_rng
from ladytiger.bots import load_bot
from ladytiger.bots.heuristics import Moves
from ladytiger.bots.heuristics import favor as favor_rules
from ladytiger.bots.heuristics import hoard as hoard_rules
from ladytiger.bots.heuristics import labyrinth as labyrinth_rules
from ladytiger.bots.heuristics import shady_lady as shady_rules
from ladytiger.bots.heuristics import tighee as tighee_rules
from ladytiger.bots.heuristics import traps as traps_rules
from ladytiger.core import CHANCE
from ladytiger.core.playout import random_step, sample_chance
from tests.helpers import new_game, play


def moves(*texts: str) -> Moves:
    return Moves(list(range(len(texts))), list(texts))


def chosen(policy, view, *texts: str) -> str:  # type: ignore[no-untyped-def]
    offered = moves(*texts)
    return offered.texts[policy(view, offered, random.Random(0))]


# ---------------------------------------------------------------------------- Doors
def collector_one_card_from_a_red_set():
    """Seat 0 (Red Lady) holds three Red Ladies; the display offers a Red Tiger."""
    return play(
        new_game("doors"),
        "deal Red Lady to seat 0", "deal Blue Tiger to seat 1",
        "reveal Red Lady", "reveal Red Lady", "reveal Red Lady", "reveal Blue Tiger",
        "take Red Lady", "reveal Red Tiger", "discard Blue Tiger", "reveal Blue Tiger",
        "end turn",
        "take Red Lady", "reveal Blue Lady", "discard Blue Lady", "reveal Blue Lady",
        "end turn",
        "take Red Lady", "reveal Blue Tiger", "discard Blue Tiger", "reveal Blue Lady",
        "end turn",
    )


@pytest.mark.parametrize("bot", ["heuristic", "ismcts"])
def test_a_doors_collector_completes_a_set_the_moment_it_can(bot):
    state = collector_one_card_from_a_red_set()
    assert state.observation(0)["collected"] == ["Red Lady"] * 3
    action = load_bot(bot, "doors", seed=1, iterations=300).step(state, 0)
    assert state.action_to_string(action) in ("take Red Tiger", "take Blue Lady")
    state.apply_action(action)
    assert state.scores()[0] == 6


# ---------------------------------------------------------------------------- Favor
@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ([], 0),
        (["Blue Lady"], -2),
        (["Red Tiger", "Red Lady"], 4),
        (["Blue Tiger", "Blue/Red"], 3),  # the wild turns it into a Red Tiger
        (["Blue Lady", "Blue/Red", "Lady/Tiger"], 3),  # both wilds on one card
        (["Red Lady", "Blue Tiger", "Lady/Tiger"], 4),  # the Red Lady becomes exact: 3 + 1
    ],
)
def test_favor_values_a_collection_with_each_wild_at_its_best_use(cards, points):
    from ladytiger.games.lady_tiger_cards import card_from_name

    door = card_from_name("Red Tiger")
    assert favor_rules.collection_points([card_from_name(c) for c in cards], door) == points


def test_favor_bids_for_its_own_identity_and_passes_on_a_useless_lot():
    view = {
        "viewer": 0, "identities": ["Red Tiger", None], "collections": [[], []],
        "lot": ["Red Tiger", "Red Tiger"], "gems": [5, 5],
        "auction": {"final": False, "caller": 1, "high_bid": 1, "high_bidder": 1},
    }
    texts = ("pass", "bid 2", "bid 3", "bid 4", "bid 5")
    assert chosen(favor_rules.choose, view, *texts) == "bid 2"
    view["lot"] = ["Blue Lady"]
    assert chosen(favor_rules.choose, view, *texts) == "pass"


# ---------------------------------------------------------------------------- Traps
def test_traps_counts_blue_red_as_one_match_and_lady_tiger_as_a_trap():
    from ladytiger.games.lady_tiger_cards import card_from_name

    goal = card_from_name("Red Tiger")
    assert traps_rules.matches(card_from_name("Blue/Red"), goal) == 1
    assert traps_rules.matches(card_from_name("Lady/Tiger"), goal) == 0
    assert traps_rules.matches(card_from_name("Red Tiger"), goal) == 2
    assert traps_rules.matches(card_from_name("Blue Lady"), goal) == 0


def test_a_traps_gem_that_must_be_given_goes_to_the_poorest_opponent():
    view = {"viewer": 0, "phase": "trap gem", "goal": "Red Tiger", "gems": [2, 3, 1, 3]}
    assert chosen(traps_rules.choose, view, "trap gem to seat 1", "trap gem to seat 2",
                  "trap gem to seat 3") == "trap gem to seat 2"


# ---------------------------------------------------------------------------- Labyrinth
def test_a_labyrinth_cub_steps_toward_its_tiger_door_straggler_first():
    grid = [[{"cell": f"{c}{r}", "cubs": {"red": 0, "blue": 0}} for c in "ABCD"]
            for r in range(1, 5)]
    grid[0][0]["cubs"]["red"] = 4  # A1, six steps from D4
    grid[2][2]["cubs"]["red"] = 1  # C3, two steps away
    view = {"viewer": 0, "phase": "move a cub", "seat_colours": ["red", "blue"],
            "goal_doors": ["D4", "A4"], "grid": grid}
    assert chosen(labyrinth_rules.choose, view, "move red cub from A1 to A2",
                  "move red cub from C3 to C4", "move red cub from C3 to B3") == (
        "move red cub from A1 to A2"
    )


def test_the_labyrinth_search_bot_beats_random_and_finds_the_escape():
    game = ladytiger.load_game("labyrinth", turn_cap=120)
    rng = random.Random(3)
    search = load_bot("labyrinth_search", game, seed=1, iterations=150)
    other = load_bot("random", game, seed=2)
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action((search if player == 0 else other).step(state, player))
    assert state.returns() == [1.0, 0.0]


def test_the_labyrinth_search_bot_is_for_labyrinth_only():
    with pytest.raises(ladytiger.LadyTigerError, match="only Labyrinth"):
        load_bot("labyrinth_search", "doors")


# ---------------------------------------------------------------------------- Tighee
def test_tighee_tricks_are_judged_by_the_rules():
    # Everyone follows Red: the highest number takes the trick.
    assert tighee_rules.trick_winner([("Red", 3), ("Red", 9), ("Red", 5)], "Green") == 1
    # A Black card counts as the Forest colour: here Green, so it does not follow Red, and
    # the lowest card off the colour wins.
    assert tighee_rules.trick_winner([("Red", 3), ("Black", 8), ("Blue", 2)], "Green") == 2
    # Equal numbers off the colour: the later card wins.
    assert tighee_rules.trick_winner([("Red", 3), ("Blue", 2), ("Green", 2)], "Red") == 2
    # Under a Red Forest card a Black card is Red, so it follows.
    assert tighee_rules.trick_winner([("Red", 3), ("Black", 1), ("Red", 2)], "Red") == 0


def test_tighee_aims_at_the_next_reachable_multiple_of_four():
    assert tighee_rules.aim(0, 15) == 4
    assert tighee_rules.aim(3, 12) == 4
    assert tighee_rules.aim(5, 10) == 8
    assert tighee_rules.aim(5, 2) is None  # 8 is out of reach: take no more tricks


# ---------------------------------------------------------------------------- Shady Lady
def test_shady_lady_knows_its_combinations():
    assert shady_rules.strength([6, 6, 6]) > shady_rules.strength([7, 8, 9]) > 0
    assert shady_rules.strength([4, 6, 7]) == 0  # there is no 5
    assert shady_rules.strength([9, 1, 2]) == 0  # runs do not wrap


def test_shady_lady_tries_with_a_combination_and_jacks_a_known_one():
    view = {"viewer": 0, "phase": "turn", "hands": [[2, 3, 4], [None, None, None]],
            "piles": [[], []]}
    assert chosen(shady_rules.choose, view, "jack seat 1", "draw", "try") == "try"
    view["hands"] = [[1, 6, 9], [7, 7, 7]]  # seat 1 took all three from the piles
    assert chosen(shady_rules.choose, view, "jack seat 1", "draw") == "jack seat 1"
    view["hands"] = [[1, 6, 9], [7, 7, None]]
    assert chosen(shady_rules.choose, view, "jack seat 1", "draw") == "draw"


# ---------------------------------------------------------------------------- Hoard
def test_the_hoard_model_predicts_every_move_exactly():
    """The position the rules of thumb foresee after a move is the engine's, move by move."""
    rng = random.Random(8)
    for difficulty in ("easy", "hard"):
        state = new_game("hoard", difficulty=difficulty)
        checked = 0
        while not state.is_terminal() and checked < 60:
            if state.current_player() == CHANCE:
                state.apply_action(random_step(state, rng))
                continue
            before = hoard_rules.position_of(state.observation(0))
            for action in state.legal_actions():
                after = state.clone()
                after.apply_action(action)
                predicted = hoard_rules.after(before, state.action_to_string(action))
                assert predicted == hoard_rules.position_of(after.observation(0))
                checked += 1
            state.apply_action(random_step(state, rng))


def test_the_hoard_clairvoyant_foresees_the_arena_s_chance_and_wins_an_easy_deal():
    from ladytiger.arena.tournament import play_arena_game

    payload = {"game": "hoard", "options": {"players": 1, "difficulty": "easy"},
               "bots": [("hoard_clairvoyant", {})], "seatings": [(0,)], "seed": 4}
    result = play_arena_game(payload, 0)
    assert result.returns == [1.0]
    # Replay the same game to check the plan was never remade: the future was as foreseen.
    game = ladytiger.load_game("hoard", difficulty="easy")
    rng = game_rng(4, 0)
    bot = load_bot("hoard_clairvoyant", game, seed=rng.randrange(2**32))
    bot.foresee(rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(bot.step(state, 0))
    assert bot.plans_made == 1 and state.returns() == [1.0]


def test_the_hoard_clairvoyant_refuses_to_play_blind():
    state = new_game("hoard")
    rng = random.Random(1)
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state, rng))
    with pytest.raises(ladytiger.LadyTigerError, match="deck order"):
        load_bot("hoard_clairvoyant", "hoard").step(state, 0)


def test_the_hoard_planner_keeps_a_greedy_move_without_evidence():
    """With one playout per move nothing is significant, so it plays a greedy move."""
    game = ladytiger.load_game("hoard")
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state, rng))
    position = hoard_rules.position_of(state.observation(0))

    def worth(action: int) -> float:
        return hoard_rules.value(*hoard_rules.after(position, state.action_to_string(action)))

    best = max(worth(action) for action in state.legal_actions())
    planner = load_bot("hoard_planner", game, seed=5, iterations=1)
    assert worth(planner.step(state, 0)) == best


def shady_lady_hand_of(*cards: int) -> object:
    """Seat 0 is dealt 1, 2, 3 (seat 1 gets 9, 9, 4), draws a card and must discard."""
    state = play(new_game("shady_lady", players=2),
                 *(f"deal {c} to seat 0" for c in (1, 2, 3)),
                 *(f"deal {c} to seat 1" for c in (9, 9, 4)))
    play(state, "draw", *(f"seat 0 draws {c}" for c in cards))
    return state


@pytest.mark.parametrize("bot", ["heuristic", "ismcts"])
def test_a_shady_lady_player_keeps_a_combination(bot):
    """The search once threw combinations away: its searched opponent, scored on worlds
    that always held the searcher's true cards, called Jack! as if it could see them."""
    state = shady_lady_hand_of(6)
    assert state.observation(0)["hands"][0] == [1, 2, 3, 6]
    action = load_bot(bot, state.game, seed=3, iterations=300).step(state, 0)
    assert state.action_to_string(action) == "discard 6"


def test_ismcts_checks_its_opponent_model():
    with pytest.raises(ladytiger.LadyTigerError, match="opponents must be"):
        load_bot("ismcts", "doors", opponents="mind reading")
    assert load_bot("ismcts", "doors").opponents == "infer"
    assert load_bot("ismcts", "doors", rollout="random").opponents == "search"


def test_ismcts_keeps_the_sensible_move_unless_the_search_clearly_beats_it():
    """With a margin no average can exceed, the search always defers to the rules of
    thumb; with none, it plays its own most visited move."""
    from tests.bots.test_bots import decision_points

    deferred = searched = 0
    for state in decision_points("doors", seed=3, wanted=6):
        seat = state.current_player()
        sensible = load_bot("heuristic", state.game, seed=1).step(state, seat)
        humble = load_bot("ismcts", state.game, seed=1, iterations=60, margin=1.0)
        assert humble.step(state, seat) == sensible
        deferred += 1
        bold = load_bot("ismcts", state.game, seed=1, iterations=60, margin=0.0,
                        confidence=0.0)
        searched += bold.step(state, seat) != sensible
    assert deferred and searched, "the search never disagreed: the test shows nothing"
    with pytest.raises(ladytiger.LadyTigerError, match="margin and confidence"):
        load_bot("ismcts", "doors", margin=-0.1)


def test_moves_look_up_by_text_and_refuse_texts_that_do_not_match_the_moves():
    offered = Moves([4, 9, 2], ["pass", "bid 1", "bid 2"])
    assert offered.get("bid 1") == 9 and offered.has("pass") and not offered.has("bid 3")
    assert offered.by_text == {"pass": 4, "bid 1": 9, "bid 2": 2}
    assert offered.starting("bid ") == [(9, "bid 1"), (2, "bid 2")]
    with pytest.raises(ValueError, match="3 moves but 2 texts"):
        Moves([4, 9, 2], ["pass", "bid 1"])
