"""Hints (ladytiger.bots.advice): a legal move with a reason in every game, the same move the
rules of thumb play, nothing read that the seat cannot see, and the search's word."""

from __future__ import annotations

import random
import time

import pytest

import ladytiger
from ladytiger.bots import advice
from ladytiger.bots.advice import Advice, advise
from ladytiger.bots.heuristics import Moves, explainer_for, policy_for
from ladytiger.core import CHANCE, LadyTigerError, State
from ladytiger.core.playout import random_step

GAMES = [info.name for info in ladytiger.registered_games()]
# Words a player should never meet in a reason: the program's own names for things.
INTERNAL = ("None", "True", "False", "seat_", "_", "{", "}", "phase", "view", "action")


def positions(game: str, seed: int, every: int = 1, limit: int = 400,
              options: dict[str, object] | None = None) -> list[State]:
    """Decision points of one game played half by the rules of thumb, half at random (so
    that positions look like play and still reach odd corners)."""
    rng = random.Random(seed)
    state = ladytiger.load_game(game, **(options or {})).new_initial_state()
    policy = policy_for(game)
    found: list[State] = []
    for _ in range(limit):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(random_step(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            found.append(state.clone())
        if len(legal) > 1 and rng.random() < 0.5:
            moves = Moves(legal, [state.action_to_string(a) for a in legal])
            state.apply_action(policy(state.observation(player, with_log=False), moves, rng))
        else:
            state.apply_action(random_step(state, rng))
    return found[::every]


def spread(items: list[State], count: int) -> list[State]:
    """`count` of the items, evenly spaced from first to last."""
    if len(items) <= count:
        return items
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


def moves_of(state: State) -> Moves:
    legal = state.legal_actions()
    return Moves(legal, [state.action_to_string(a) for a in legal])


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_of_thumb_explains_the_very_move_it_plays(game):
    """`explain` is `choose` with words: the same move from the same random stream, which
    it leaves in the same place (so adding the words changed no bot's play)."""
    choose, explain = policy_for(game), explainer_for(game)
    checked = 0
    for seed in range(3):
        for state in positions(game, seed):
            seat = state.current_player()
            view, moves = state.observation(seat, with_log=False), moves_of(state)
            plain, worded = random.Random(checked), random.Random(checked)
            action, reason = explain(view, moves, worded)
            assert action == choose(view, moves, plain)
            assert plain.getstate() == worded.getstate()
            assert isinstance(reason, str) and reason.strip()
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("game", GAMES)
def test_advice_is_a_legal_move_with_a_reason_a_player_can_read(game):
    info = next(i for i in ladytiger.registered_games() if i.name == game)
    reasons = set()
    checked = 0
    for players in sorted({info.min_players, info.max_players}):
        for seed in range(2):
            for state in positions(game, seed, every=3, options={"players": players}):
                seat = state.current_player()
                # A small search at a few positions; the rules of thumb alone elsewhere.
                searched = checked % 8 == 0
                given = advise(state, seat, seed=checked, iterations=12 if searched else 0)
                assert state.illegal_reason(given.action) is None
                assert given.text == state.action_to_string(given.action)
                reason = given.reason
                assert reason[0].isupper() and reason.rstrip().endswith((".", "!")), reason
                assert "\n" not in reason and len(reason) < 320, reason
                assert not any(word in reason for word in INTERNAL), reason
                if searched:
                    assert given.search is not None
                    assert given.search.simulations == 12
                    assert "12 simulations" in given.search.note
                else:
                    assert given.search is None
                reasons.add(reason)
                checked += 1
    assert checked > 10
    # The words follow the position, not one stock sentence.
    assert len(reasons) > 3


@pytest.mark.parametrize("game", GAMES)
def test_advice_reads_nothing_the_seat_cannot_see(game):
    """Two states that differ only in what the seat cannot see (a resample of the real
    one) get the very same hint for the same seed, search included."""
    compared = differed = 0
    for seed in range(2):
        for state in spread(positions(game, seed), 8):
            seat = state.current_player()
            other = state.resample(seat, random.Random(1000 + compared))
            assert other.observation(seat) == state.observation(seat)
            differed += other.history() != state.history()
            real = advise(state, seat, seed=7, iterations=40)
            drawn = advise(other, seat, seed=7, iterations=40)
            assert real == drawn, f"the hint changed with the hidden cards: {real} / {drawn}"
            compared += 1
    assert compared >= 3
    if ladytiger.load_game(game).info.imperfect_information:
        # Otherwise the comparison above proves nothing: the hidden parts must really differ.
        assert differed, "no resample changed a hidden card"


def test_the_hint_is_the_same_for_the_same_seed():
    state = positions("traps", 3)[5]
    seat = state.current_player()
    assert advise(state, seat, seed=4, iterations=30) == advise(state, seat, seed=4,
                                                                iterations=30)


def test_an_only_move_is_said_to_be_one_without_a_search():
    for seed in range(5):
        rng = random.Random(seed)
        state = ladytiger.load_game("tighee").new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player != CHANCE and len(state.legal_actions()) == 1:
                given = advise(state, player, seed=1)
                assert given == Advice(state.legal_actions()[0],
                                       state.action_to_string(state.legal_actions()[0]),
                                       "It is the only move you have.", None)
                return
            state.apply_action(random_step(state, rng))
    pytest.fail("no position with a single move found")


def test_advice_refuses_a_seat_that_is_not_to_move():
    state = positions("doors", 1)[0]
    with pytest.raises(LadyTigerError, match="not seat"):
        advise(state, 1 - state.current_player(), seed=1)


def guesser_before_a_guess() -> State:
    """Doors, the Guesser's first turn: nothing points at the Collector's door yet."""
    for state in positions("doors", 2):
        observation = state.observation(state.current_player())
        if observation["phase"] == "discard" and len(observation["collected"]) <= 1:
            return state
    raise AssertionError("no early Guesser turn found")


def test_the_search_says_when_it_prefers_another_move(monkeypatch):
    """A suggestion the search can see is poor (guessing the whole door blind, which pays
    the Collector 4 gems three times in four) is contradicted, with the figures."""
    state = guesser_before_a_guess()
    seat = state.current_player()
    blind = next(a for a in state.legal_actions()
                 if state.action_to_string(a).startswith("guess ")
                 and len(state.action_to_string(a).split()) == 3)

    def reckless(view, moves, rng):  # type: ignore[no-untyped-def]
        return blind, "A blind guess."

    monkeypatch.setattr(advice, "explainer_for", lambda game: reckless)
    given = advise(state, seat, seed=3, iterations=600)
    assert given.action == blind
    search = given.search
    assert search is not None and not search.agrees and search.action != blind
    assert search.note.startswith(f"The search prefers {search.text} after 600 simulations: ")
    assert "gems this contest against the other player" in search.note
    assert "(the suggestion: -" in search.note


def test_the_search_backs_a_sound_suggestion():
    # The verdict depends on the seed's drawn state and opponent odds: since Doors' rules of
    # thumb read the Collector more sharply, seed 3 is the one of seeds 1-6 whose search
    # (3,000 simulations) prefers discarding the wild card; the others back the suggestion.
    state = guesser_before_a_guess()
    given = advise(state, state.current_player(), seed=1, iterations=600)
    assert given.search is not None and given.search.agrees
    assert given.search.note.startswith("The search ")
    assert "prefers" not in given.search.note


def test_a_search_with_a_time_cap_stops_in_time():
    state = positions("favor", 1)[3]
    started = time.perf_counter()
    given = advise(state, state.current_player(), seed=1, iterations=10**7, seconds=0.2)
    assert time.perf_counter() - started < 3.0
    assert given.search is not None and 1 <= given.search.simulations < 10**7


def test_the_hint_travels_as_json():
    state = positions("labyrinth", 1)[2]
    seat = state.current_player()
    answer = advice.hint_job(state, seat, 5, 20, None)
    assert set(answer) == {"action", "text", "reason", "search"}
    assert set(answer["search"]) == {"action", "text", "simulations", "agrees", "note"}
    assert answer == advise(state, seat, seed=5, iterations=20).to_json()
    assert "search" not in advice.hint_job(state, seat, 5, 0, None)
