"""Doors, rule by rule (rulebook section "Doors"; rulings in docs/rules/doors.md)."""

from __future__ import annotations

import random

import pytest

from ladytiger.core import CHANCE, TERMINAL, IllegalActionError
from ladytiger.core.playout import random_playout
from tests.helpers import legal_texts, new_game, play, reason

START = ["deal Red Tiger to seat 0", "deal Blue Lady to seat 1"]


def contest(display=("Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger"), deals=START, **opts):
    """A Doors game at the Collector's first turn with the given deals and display."""
    return play(new_game("doors", **opts), *deals, *(f"reveal {c}" for c in display))


# ------------------------------------------------------------------ setup
def test_each_contest_deals_an_identity_to_each_player_from_the_four_doors():
    state = new_game("doors")
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    play(state, "deal Red Tiger to seat 0")
    assert len(state.chance_outcomes()) == 3
    assert "deal Red Tiger to seat 1" not in legal_texts(state)


def test_the_display_is_four_cards_from_the_fourteen_clue_cards():
    state = play(new_game("doors"), *START)
    probabilities = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert probabilities["reveal Red Lady"] == pytest.approx(3 / 14)
    assert probabilities["reveal Blue/Red"] == pytest.approx(1 / 14)
    play(state, "reveal Blue/Red", "reveal Red Lady", "reveal Red Lady", "reveal Red Lady")
    view = state.observation(0)
    assert view["display"] == ["Red Lady", "Red Lady", "Red Lady", "Blue/Red"]
    assert view["deck"] == 10


def test_seat_0_collects_first_and_roles_swap_each_contest():
    state = contest()
    assert state.current_player() == 0
    play(state, "take Red Lady", "reveal Red Lady", "guess Red")  # right: seat 1 earns 1
    assert state.scores() == [0, 1]
    play(state, "deal Red Lady to seat 0", "deal Blue Tiger to seat 1",
         *["reveal Blue Lady"] * 3, "reveal Blue Tiger")
    assert state.current_player() == 1
    assert state.observation(None)["collector"] == 1


def test_option_draws_the_first_collector_at_random():
    state = new_game("doors", random_first_collector=True)
    assert state.chance_outcomes() == [(10, 0.5), (11, 0.5)]
    play(state, "seat 1 collects first", *START, *["reveal Red Lady"] * 3, "reveal Blue/Red")
    assert state.current_player() == 1


# ------------------------------------------------------------------ the Collector
def test_collector_takes_any_display_card_and_the_display_refills():
    state = contest()
    assert legal_texts(state) == ["take Red Lady", "take Red Tiger", "take Blue Lady",
                                  "take Blue Tiger"]
    play(state, "take Blue Lady")  # need not match the identity
    assert state.current_player() == CHANCE
    play(state, "reveal Lady/Tiger")
    view = state.observation(0)
    assert view["collected"] == ["Blue Lady"]
    assert len(view["display"]) == 4 and view["deck"] == 9


def test_taking_a_card_not_in_the_display_is_explained():
    state = contest(display=("Red Lady", "Red Lady", "Red Lady", "Blue Lady"))
    assert reason(state, "take Blue Tiger") == "the display holds no Blue Tiger"
    with pytest.raises(IllegalActionError, match="the display holds no Blue Tiger"):
        state.apply_action(state.string_to_action("take Blue Tiger"))


def test_collector_reveal_of_a_matching_set_is_forced_and_scores_six():
    # Rulebook table: the Red Tiger with four tigers (there are only three Blue Tigers, so
    # the Lady/Tiger wild is the fourth) must reveal and scores 6 for a Tiger set.
    state = contest(display=("Blue Tiger", "Blue Tiger", "Blue Tiger", "Lady/Tiger"))
    for card in ("Blue Tiger", "Blue Tiger", "Lady/Tiger"):
        play(state, f"take {card}", "reveal Red Lady", "discard Red Lady", "reveal Blue Lady",
             "end turn")
    assert state.scores() == [0, 0]
    play(state, "take Blue Tiger")
    assert state.scores() == [6, 0]
    assert state.current_player() == CHANCE  # next contest's deal, at once
    assert "Tiger set" in state.observation(1)["past_contests"][-1]["how"]


def test_four_red_people_are_a_set_for_the_red_tiger():
    state = contest(display=("Red Lady", "Red Lady", "Red Lady", "Blue/Red"))
    play(state, "take Red Lady", "reveal Blue Lady", "discard Blue Lady", "reveal Blue Lady",
         "end turn", "take Red Lady", "reveal Blue Lady", "discard Blue Lady",
         "reveal Blue Tiger", "end turn", "take Blue/Red", "reveal Blue Tiger",
         "discard Blue Lady", "reveal Blue Tiger", "end turn")
    assert state.scores() == [0, 0]
    play(state, "take Red Lady")
    assert state.scores() == [6, 0]


def test_no_reveal_for_a_set_on_a_trait_the_collector_lacks():
    # Four Blue cards share no trait with the Red Tiger: the contest goes on.
    state = contest(display=("Blue Lady", "Blue Lady", "Blue Lady", "Blue/Red"),
                    deals=["deal Red Tiger to seat 0", "deal Blue Tiger to seat 1"])
    for _ in range(3):
        play(state, "take Blue Lady", "reveal Red Lady", "discard Red Lady", "reveal Blue Tiger",
             "end turn")
    play(state, "take Blue/Red", "reveal Red Tiger")
    assert state.observation(0)["collected"] == ["Blue Lady"] * 3 + ["Blue/Red"]
    assert state.scores() == [0, 0]
    assert state.current_player() == 1


# ------------------------------------------------------------------ the Guesser
def guesser_turn(**kw):
    return play(contest(**kw), "take Red Lady", "reveal Red Lady")


def test_guesser_may_declare_before_discarding():
    state = guesser_turn()
    texts = legal_texts(state)
    assert "discard Red Tiger" in texts and "guess Red" in texts and "end turn" not in texts
    play(state, "guess Red Tiger")  # the Collector is the Red Tiger
    assert state.scores() == [0, 5]


def test_guesser_may_declare_after_discarding_or_end_the_turn():
    state = guesser_turn()
    play(state, "discard Blue Tiger", "reveal Blue Tiger")
    texts = legal_texts(state)
    assert "end turn" in texts and "guess Tiger" in texts
    assert not any(t.startswith("discard") for t in texts)
    assert reason(state, "discard Red Lady") == "the Guesser has already discarded a card this turn"
    play(state, "end turn")
    assert state.current_player() == 0


def test_guesser_must_discard_before_ending_the_turn():
    state = guesser_turn()
    assert reason(state, "end turn") == (
        "the Guesser must discard a card from the display before ending the turn")


@pytest.mark.parametrize(
    ("guess", "scores"),
    [
        ("guess Red", [0, 1]),  # colour right
        ("guess Tiger", [0, 1]),  # role right
        ("guess Red Tiger", [0, 5]),  # both right
        ("guess Blue", [4, 0]),  # wrong colour: the Collector earns 4
        ("guess Lady", [4, 0]),
        ("guess Red Lady", [4, 0]),  # one part wrong is all wrong
        ("guess Blue Tiger", [4, 0]),
        ("guess Blue Lady", [4, 0]),
    ],
)
def test_guess_scoring(guess, scores):
    state = guesser_turn()  # seat 0, the Collector, is the Red Tiger
    play(state, guess)
    assert state.scores() == scores
    assert state.current_player() == CHANCE  # the contest is over: a new deal


def test_a_declaration_ends_the_contest_so_only_one_is_made():
    state = guesser_turn()
    play(state, "guess Red")
    assert state.observation(0)["contest"] == 2
    assert not any(t.startswith("guess") for t in legal_texts(state))


def test_guesser_claims_a_set_matching_the_guessers_own_trait_for_two():
    # The Guesser is the Blue Lady; the Collector (Red Tiger) gathers four Lady cards.
    state = contest(display=("Red Lady", "Red Lady", "Red Lady", "Lady/Tiger"))
    assert "claim set" not in legal_texts(state)
    play(state, "take Red Lady", "reveal Blue Tiger")
    assert reason(state, "claim set") == (
        "the Collector's cards hold no set of 4 on your colour (Blue) or your role (Lady)")
    play(state, "discard Blue Tiger", "reveal Blue Tiger", "end turn", "take Red Lady",
         "reveal Blue Tiger", "discard Blue Tiger", "reveal Red Tiger", "end turn",
         "take Lady/Tiger", "reveal Red Tiger", "discard Red Tiger", "reveal Red Tiger",
         "end turn", "take Red Lady", "reveal Blue Lady")
    # Four Ladies (three Red Ladies and the Lady/Tiger): no set for the Red Tiger
    # Collector (Red needs four red cards, Tiger four tigers), but a Lady set for the Guesser.
    assert state.scores() == [0, 0]
    assert "claim set" in legal_texts(state)
    play(state, "claim set")
    assert state.scores() == [0, 2]


def test_when_the_deck_runs_out_after_the_guessers_turn_the_guesser_scores_three():
    state = contest(display=("Blue Lady", "Blue Lady", "Blue Lady", "Blue Tiger"),
                    deals=["deal Red Tiger to seat 0", "deal Blue Lady to seat 1"])
    refills = ["Red Lady", "Red Lady", "Red Lady", "Blue Tiger", "Blue Tiger", "Lady/Tiger",
               "Blue/Red", "Red Tiger", "Red Tiger", "Red Tiger"]
    for turn in range(5):
        take, discard = refills[2 * turn], refills[2 * turn + 1]
        first = legal_texts(state)[0]
        play(state, first, f"reveal {take}")
        play(state, legal_texts(state)[0], f"reveal {discard}")
        if turn < 4:
            play(state, "end turn")
    assert state.observation(1)["deck"] == 0
    assert state.scores() == [0, 0]
    play(state, "end turn")
    assert state.scores() == [0, 3]


# ------------------------------------------------------------------ game end and views
def test_game_ends_when_a_contest_leaves_a_player_at_the_target():
    state = guesser_turn(gems_to_win=5)
    play(state, "guess Red Tiger")
    assert state.current_player() == TERMINAL
    assert state.returns() == [0.0, 1.0]
    assert state.scores() == [0, 5]


def test_default_target_is_ten_gems():
    state = guesser_turn()
    assert state.observation(0)["gems_to_win"] == 10


def test_a_seat_sees_its_own_identity_only_until_the_end():
    state = guesser_turn()
    assert state.observation(0)["identities"] == ["Red Tiger", None]
    assert state.observation(1)["identities"] == [None, "Blue Lady"]
    assert state.observation(None)["identities"] == [None, None]
    deal = "Contest 1: you are dealt the Red Tiger Door; Seat 1 is dealt a Door card."
    assert deal in state.observation(0)["log"]
    assert not any("Blue Lady Door" in line for line in state.observation(0)["log"])
    play(state, "guess Blue")  # wrong: the contest ends and both doors are shown
    last = state.observation(None)["past_contests"][-1]
    assert last["identities"] == ["Red Tiger", "Blue Lady"]


def test_a_past_contest_names_the_guess_to_every_viewer():
    # The guess is declared to the table: each seat and a spectator read it from the record
    # itself, never from the wording of `how`; a contest that ended otherwise names none.
    state = guesser_turn()
    play(state, "guess Blue Tiger")  # wrong: the Collector holds the Red Tiger
    for viewer in (0, 1, None):
        last = state.observation(viewer, with_log=False)["past_contests"][-1]
        assert set(last) == {"contest", "collector", "identities", "winner", "gems", "guess",
                             "ended", "how"}
        assert last["guess"] == "Blue Tiger" and last["ended"] == "guess"
    state = contest(display=("Blue Tiger", "Blue Tiger", "Blue Tiger", "Lady/Tiger"))
    for card in ("Blue Tiger", "Blue Tiger", "Lady/Tiger"):
        play(state, f"take {card}", "reveal Red Lady", "discard Red Lady", "reveal Blue Lady",
             "end turn")
    play(state, "take Blue Tiger")  # the Collector's forced reveal of a Tiger set
    for viewer in (0, 1, None):
        last = state.observation(viewer, with_log=False)["past_contests"][-1]
        assert last["guess"] is None and last["ended"] == "set"


def test_both_identities_are_face_up_when_the_game_ends():
    state = guesser_turn(gems_to_win=1)
    play(state, "guess Red")
    assert state.is_terminal()
    assert state.observation(None)["identities"] == ["Red Tiger", "Blue Lady"]


def test_resample_keeps_what_the_seat_knows_and_redraws_the_opponents_door():
    state = guesser_turn()
    seen = {state.resample(1, random.Random(i)).observation(0)["identities"][0]
            for i in range(40)}
    assert seen <= {"Red Lady", "Red Tiger", "Blue Tiger"}  # never the Guesser's own door
    assert len(seen) > 1


def test_resample_respects_the_forced_reveal():
    # The Collector holds Red Lady x3 + Blue/Red without having revealed: so the Collector
    # can be neither Red door. Only the Blue Lady, Blue Tiger remain (minus the Guesser's).
    state = contest(display=("Red Lady", "Red Lady", "Red Lady", "Blue/Red"),
                    deals=["deal Blue Tiger to seat 0", "deal Red Tiger to seat 1"])
    play(state, "take Red Lady", "reveal Blue Lady", "discard Blue Lady", "reveal Blue Lady",
         "end turn", "take Red Lady", "reveal Blue Lady", "discard Blue Lady",
         "reveal Blue Tiger", "end turn", "take Red Lady", "reveal Blue Tiger",
         "discard Blue Tiger", "reveal Blue Tiger", "end turn", "take Blue/Red",
         "reveal Lady/Tiger")
    assert state.current_player() == 1
    doors = {state.resample(1, random.Random(i)).identity[0] for i in range(60)}
    from ladytiger.games.lady_tiger_cards import BLUE_LADY, BLUE_TIGER
    assert doors == {BLUE_LADY, BLUE_TIGER}


def _identity_draws(state, viewer, sampler, draws):
    rng = random.Random(11)
    return [sampler(state, viewer, rng) for _ in range(draws)]


@pytest.mark.parametrize("seed", range(12))
def test_the_direct_resample_draws_as_the_shared_replaying_one(seed):
    """Doors draws its hidden Doors directly; the shared sampler replays the game and
    rejects draws the public course rules out. Both must give the same deals, each alike."""
    from collections import Counter

    from ladytiger.core.state import State

    rng = random.Random(seed)
    state = new_game("doors")
    steps = rng.randrange(4, 40)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for viewer in (0, 1, None):
        direct = _identity_draws(state, viewer, type(state).resample, 600)
        shared = _identity_draws(state, viewer, State.resample, 600)
        for drawn in direct:
            # The drawn state is the one its own history makes.
            replay = new_game("doors")
            for action in drawn.history():
                replay.apply_action(action)
            assert replay._snapshot() == drawn._snapshot()
            assert drawn.observation(viewer) == state.observation(viewer)
        direct_deals = Counter(d.identity for d in direct)
        shared_deals = Counter(d.identity for d in shared)
        assert set(direct_deals) == set(shared_deals)
        # Each possible deal equally likely: with k of them, each near 600/k.
        expected = 600 / len(direct_deals)
        assert all(abs(n - expected) < 0.35 * expected + 15 for n in direct_deals.values())


def test_a_spectators_draw_weighs_every_consistent_deal_alike():
    # Second contest, seat 1 collecting: its cards rule out both Red Doors for it, so the
    # deals a spectator cannot rule out are 2 Doors for the Collector times 3 for seat 0,
    # six in all, each as likely. Drawing seat 0 first would favour some over others.
    from collections import Counter

    state = guesser_turn()
    play(state, "guess Red Tiger", "deal Red Tiger to seat 0", "deal Blue Tiger to seat 1",
         *(f"reveal {c}" for c in ("Red Lady", "Red Lady", "Red Lady", "Blue/Red")),
         "take Red Lady", "reveal Blue Lady", "discard Blue Lady", "reveal Blue Lady",
         "end turn", "take Red Lady", "reveal Blue Lady", "discard Blue Lady",
         "reveal Blue Tiger", "end turn", "take Red Lady", "reveal Blue Tiger",
         "discard Blue Tiger", "reveal Blue Tiger", "end turn", "take Blue/Red",
         "reveal Lady/Tiger")
    assert state.collector == 1 and not state.is_terminal()
    rng = random.Random(3)
    deals = Counter(state.resample(None, rng).identity for _ in range(3000))
    from ladytiger.games.lady_tiger_cards import BLUE_LADY, BLUE_TIGER
    assert {collector for _, collector in deals} == {BLUE_LADY, BLUE_TIGER}
    assert len(deals) == 6
    assert all(400 < n < 600 for n in deals.values()), deals


@pytest.mark.slow
def test_ten_thousand_random_games_finish():
    from ladytiger import load_game

    game = load_game("doors")
    lengths = []
    for seed in range(10_000):
        state = random_playout(game.new_initial_state(), random.Random(seed))
        assert state.is_terminal()
        assert max(state.scores()) >= 10
        lengths.append(len(state.history()))
    assert max(lengths) <= game.max_game_length()


def test_moves_carry_a_structured_description_for_clients():
    state = guesser_turn()
    described = {d["text"]: d for d in map(state.describe_action, state.legal_actions())}
    assert described["discard Red Tiger"] == {
        "id": state.string_to_action("discard Red Tiger"), "text": "discard Red Tiger",
        "verb": "discard", "args": "Red Tiger", "card": "Red Tiger"}
    assert described["guess Blue Lady"]["guess"] == "Blue Lady"
