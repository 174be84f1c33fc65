"""Labyrinth's rules of thumb against a player who blocks: bring a cub home the moment it can
step onto the Tiger door, and do not leave the gems where the next switch throws your cubs
back."""

from __future__ import annotations

import random

import ladytiger
from ladytiger.bots import load_bot
from ladytiger.bots.exploits import load_exploiter
from ladytiger.bots.heuristics import Moves
from ladytiger.bots.heuristics import labyrinth as rules
from ladytiger.core import CHANCE
from ladytiger.core.playout import random_step, sample_chance

# A legal deal: three of each Clue card, the Doors in their corners.
CARDS = {
    "A1": "Red Lady", "B1": "Blue Lady", "C1": "Blue Tiger", "D1": "Blue Lady",
    "A2": "Red Tiger", "B2": "Red Lady", "C2": "Red Tiger", "D2": "Blue Lady",
    "A3": "Blue Tiger", "B3": "Red Tiger", "C3": "Red Lady", "D3": "Blue Lady",
    "A4": "Blue Tiger", "B4": "Red Lady", "C4": "Blue Tiger", "D4": "Red Tiger",
}
DOORS = {"A1", "D1", "A4", "D4"}


def view_of(phase: str, red: dict[str, int], blue: dict[str, int],
            yellow: str = "Blue", white: str = "Lady") -> dict:
    """Red's view (seat 0, walking from A1 to D4) of the grid above."""
    grid = [[{"cell": f"{column}{row}", "card": CARDS[f"{column}{row}"],
              "door": f"{column}{row}" in DOORS,
              "cubs": {"red": red.get(f"{column}{row}", 0),
                       "blue": blue.get(f"{column}{row}", 0)}}
             for column in "ABCD"] for row in range(1, 5)]
    return {"viewer": 0, "phase": phase, "seat_colours": ["red", "blue"],
            "goal_doors": ["D4", "A4"], "grid": grid,
            "switches": {"Blue/Red": yellow, "Lady/Tiger": white}}


def offered(*texts: str) -> Moves:
    return Moves(list(range(len(texts))), list(texts))


def pick(view: dict, moves: Moves) -> str:
    return moves.texts[moves.actions.index(rules.choose(view, moves, random.Random(0)))]


def test_a_cub_next_to_its_tiger_door_steps_in_before_the_straggler():
    # Four cubs wait on the start door, six steps out; one stands on C4, one step from home.
    # Straggler first would walk an A1 cub and leave the C4 cub to be switched away.
    view = view_of("move a cub", red={"A1": 4, "C4": 1}, blue={"D1": 5})
    moves = offered("move red cub from A1 to B1", "move red cub from A1 to A2",
                    "move red cub from C4 to D4", "move red cub from C4 to B4",
                    "move red cub from C4 to C3")
    assert pick(view, moves) == "move red cub from C4 to D4"
    _, reason = rules.explain(view, moves, random.Random(0))
    assert "Tiger Door (D4)" in reason and "no switch can carry it away" in reason


def test_without_a_cub_next_to_home_the_straggler_still_walks_first():
    view = view_of("move a cub", red={"A1": 4, "C3": 1}, blue={"D1": 5})
    moves = offered("move red cub from A1 to B1", "move red cub from C3 to C4",
                    "move red cub from C3 to D3")
    assert pick(view, moves) == "move red cub from A1 to B1"


def test_the_threat_reads_the_gems_the_rows_and_the_doors():
    cards = [CARDS[name] for name in rules.CELLS]
    home = rules.STEPS[rules.cell_index("D4")]
    cubs = [0] * 16
    cubs[rules.cell_index("C4")] = 3  # Blue Tiger, one step from home
    # Blue under the yellow gem: C1 (Blue Tiger, same column) takes the three cubs 3 steps
    # further each.
    assert rules.threat(cubs, cards, "Blue", "Lady", home) == 9
    # Red and Lady: no switch may touch a Blue Tiger card.
    assert rules.threat(cubs, cards, "Red", "Lady", home) == 0
    # Two cubs on C3 (Red Lady), Red under the yellow gem: B3 and C2 are Red and in line,
    # a step further each; A2 and B2, Red but not in line with C3, are out of reach.
    cubs = [0] * 16
    cubs[rules.cell_index("C3")] = 2
    assert rules.threat(cubs, cards, "Red", "Tiger", home) == 2
    # Cubs on a Door are out of reach.
    cubs = [0] * 16
    cubs[rules.cell_index("D4")] = 4
    assert rules.threat(cubs, cards, "Blue", "Tiger", home) == 0


def test_the_threat_is_the_worst_switch_the_game_allows():
    """At every switch in random games, the steps the rules fear for the other player's
    cubs are those of the switch that sets them back most among the legal switches."""
    game = ladytiger.load_game("labyrinth")
    checked = threatened = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and checked < 40 * (seed + 1):
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            view = state.observation(player, with_log=False)
            if view["phase"] != "move a cub":
                victim = 1 - player
                home = rules.STEPS[rules.cell_index(view["goal_doors"][victim])]
                counts = rules.cub_counts(view)[view["seat_colours"][victim]]
                before = rules.walks(view)[victim]
                worst = 0
                for action in state.legal_actions():
                    after = state.clone()
                    after.apply_action(action)
                    seen = after.observation(player, with_log=False)
                    worst = max(worst, rules.walks(seen)[victim] - before)
                yellow, white = view["switches"]["Blue/Red"], view["switches"]["Lady/Tiger"]
                assert rules.threat(counts, rules.cards_by_cell(view), yellow, white,
                                    home) == worst
                checked += 1
                threatened += worst > 0
            state.apply_action(random_step(state, rng))
    assert checked == 240 and threatened > 100


def test_a_switch_that_leaves_the_cubs_open_to_a_throw_back_is_passed_over():
    # Three red cubs wait on C4 (Blue Tiger). Switching B1 and B4 with the Lady/Tiger card
    # carries the B1 cub 3 steps closer, but moves the white gem to Tiger with the yellow
    # one still on Blue: blue may then switch C4 with C1 and throw the three cubs 9 steps
    # back. Switching B1 and C1 with the Blue/Red card gains 1 step and moves the yellow gem
    # to Red, and no Red or Lady switch can touch a Blue Tiger card.
    view = view_of("move the labyrinth", red={"A1": 1, "B1": 1, "C4": 3}, blue={"D1": 5})
    moves = offered("switch B1 B4 with Lady/Tiger", "switch B1 C1 with Blue/Red")
    assert pick(view, moves) == "switch B1 C1 with Blue/Red"
    _, reason = rules.explain(view, moves, random.Random(0))
    assert "9 steps back" in reason and "not at all" in reason


def test_a_big_enough_gain_still_beats_the_guard():
    # With one cub on C4 the throw back costs 3 steps, counted half: the 3-step gain wins.
    view = view_of("move the labyrinth", red={"A1": 3, "B1": 1, "C4": 1}, blue={"D1": 5})
    moves = offered("switch B1 B4 with Lady/Tiger", "switch B1 C1 with Blue/Red")
    assert pick(view, moves) == "switch B1 B4 with Lady/Tiger"


def test_the_casual_level_beats_the_blocker():
    """The blocker switches only to lengthen the other walk; before these rules every game
    against it ran to the turn cap."""
    game = ladytiger.load_game("labyrinth")
    wins = draws = 0
    for index in range(16):
        rng = random.Random(index)
        seat = index % 2
        players = [load_bot("casual", game, seed=index) if s == seat
                   else load_exploiter("blocker", game, seed=index) for s in (0, 1)]
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(players[player].step(state, player))
        returns = state.returns()
        wins += returns[seat] > returns[1 - seat]
        draws += returns[seat] == returns[1 - seat]
    assert wins >= 12 and draws == 0
