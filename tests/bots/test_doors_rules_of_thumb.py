"""Doors' rules of thumb against a Collector who hides its door: the Guesser weighs the
chance that the takes point away from the door (and learns it from the contests already
played), and the Collector hides its own first take from a Guesser who may read it, and
every take from an opponent known to hide."""

from __future__ import annotations

import random

from ladytiger.bots.heuristics import Moves
from ladytiger.bots.heuristics import doors as rules
from ladytiger.games.lady_tiger_cards import BLUE_TIGER, IDENTITIES, RED_LADY


def past(contest: int, collector: int, doors: tuple[str, str], winner: int, gems: int,
         how: str, guess: str | None = None, ended: str = "guess") -> dict:
    """A finished contest as the engine shows it to a seat (`guess`: what the Guesser named,
    if it guessed; `ended`: how; `how` in its log's words, which the rules never read)."""
    return {"contest": contest, "collector": collector, "identities": list(doors),
            "winner": winner, "gems": gems, "guess": guess, "ended": ended, "how": how}


# Seat 0 collected the Red Lady; seat 1 named the opposite door, the Blue Tiger: the takes
# pointed exactly away from the door, as a hider's do.
FOOLED = past(1, 0, ("Red Lady", "Blue Lady"), 0, 4,
              "You guessed Blue Tiger, wrong: seat 0 earns 4 gems.", guess="Blue Tiger")
# Seat 0 collected and showed a set: it built openly.
BUILT = past(1, 0, ("Red Lady", "Blue Lady"), 0, 6, "Seat 0 showed a Red set: it earns 6 gems.",
             ended="set")
# The deck ran out on seat 0 as Collector.
RAN_OUT = past(1, 0, ("Red Lady", "Blue Lady"), 1, 3, "The deck ran out: you earn 3 gems.",
               ended="deck")


def view(seat: int, phase: str, own: str, collected: list[str], display: list[str],
         history: list[dict], deck: int = 6) -> dict:
    identities = [None, None]
    identities[seat] = own
    return {"viewer": seat, "phase": phase, "identities": identities, "collector": 0,
            "guesser": 1, "collected": collected, "display": display, "discarded": [],
            "deck": deck, "past_contests": history}


def offered(*texts: str) -> Moves:
    return Moves(list(range(len(texts))), list(texts))


def pick(seen: dict, moves: Moves) -> str:
    return moves.texts[moves.actions.index(rules.choose(seen, moves, random.Random(0)))]


def takes(display: list[str]) -> Moves:
    return offered(*(f"take {card}" for card in dict.fromkeys(display)))


GUESSES = ("guess Red", "guess Blue", "guess Lady", "guess Tiger", "guess Red Lady",
           "guess Red Tiger", "guess Blue Lady", "guess Blue Tiger")


# ---------------------------------------------------------------------------- the Guesser
def test_without_hiders_the_read_is_the_open_builders_read():
    collected = (1, 2, 0, 1, 1, 0)
    for own in IDENTITIES:
        candidates = rules.OTHER_DOORS[own]
        plain = rules.read_doors(collected, candidates)
        guarded = rules.read_guarded(collected, candidates, 0.0)
        for door in candidates:
            assert abs(plain[door] - guarded[door]) < 1e-9


def test_takes_of_the_guessers_own_door_point_to_the_opposite_door():
    # Three Blue Tigers taken, and the Guesser holds the Blue Tiger: no open builder points
    # at a door it cannot hold, a hider of the Red Lady does. The opposite door must gain.
    collected = (0, 0, 0, 3, 0, 0)
    candidates = rules.OTHER_DOORS[BLUE_TIGER]
    plain = rules.read_doors(collected, candidates)[RED_LADY]
    guarded = rules.read_guarded(collected, candidates, rules.HIDING)[RED_LADY]
    assert plain < 0.15
    assert guarded > 2 * plain


def test_a_guess_that_named_the_opposite_door_marks_a_hider():
    seen = view(1, "discard", "Blue Lady", [], [], [FOOLED])
    assert rules.hiding_chance(seen, 1) >= rules.KNOWN_HIDER
    assert rules.hiding_chance(view(1, "discard", "Blue Lady", [], [], []), 1) == rules.HIDING


def test_a_shown_set_marks_an_open_builder_and_a_deck_out_raises_the_doubt():
    assert rules.hiding_chance(view(1, "discard", "Blue Lady", [], [], [BUILT]), 1) < rules.HIDING
    ran_out = rules.hiding_chance(view(1, "discard", "Blue Lady", [], [], [RAN_OUT]), 1)
    assert rules.HIDING < ran_out < rules.KNOWN_HIDER


def test_only_the_opponents_contests_as_collector_count():
    # Seat 1 itself collected in FOOLED's place: what seat 0 guessed says nothing of how
    # seat 0 collects.
    own_contest = dict(FOOLED, collector=1, winner=1)
    seen = view(1, "discard", "Blue Lady", [], [], [own_contest])
    assert rules.hiding_chance(seen, 1) == rules.HIDING


def test_the_guesser_does_not_fall_for_a_known_hider_one_card_from_a_set():
    # Three Blue Tigers taken: an open builder of the Blue Tiger is one card from a Blue and
    # a Tiger set, and the display is full of cards that complete either. Against a
    # Collector not known to hide, guess the Blue Tiger before it completes; against one
    # whose takes pointed at the opposite door last time, do not.
    display = ["Red Tiger", "Red Tiger", "Blue/Red", "Lady/Tiger"]
    moves = offered("discard Red Tiger", "discard Blue/Red", "discard Lady/Tiger", *GUESSES)
    collected = ["Blue Tiger", "Blue Tiger", "Blue Tiger"]
    fresh = view(1, "discard", "Blue Lady", collected, display, [])
    assert pick(fresh, moves) == "guess Blue Tiger"
    known = view(1, "discard", "Blue Lady", collected, display, [FOOLED])
    assert pick(known, moves) != "guess Blue Tiger"


# ---------------------------------------------------------------------------- the Collector
FIRST_DISPLAY = ["Red Lady", "Red Tiger", "Blue Tiger", "Blue/Red"]


def test_the_first_take_of_a_first_contest_hides_the_door():
    # The Red Lady builds most, and points the Guesser straight at the door; the Blue Tiger
    # shares nothing with it. Nothing is known of the Guesser yet: hide.
    seen = view(0, "collect", "Red Lady", [], FIRST_DISPLAY, [])
    assert pick(seen, takes(FIRST_DISPLAY)) == "take Blue Tiger"


def test_against_a_guesser_who_names_doors_the_collector_builds_from_the_first_take():
    named_door = past(1, 0, ("Blue Tiger", "Red Tiger"), 1, 5,
                      "Seat 1 guessed Blue Tiger, right: it earns 5 gems.", guess="Blue Tiger")
    seen = view(0, "collect", "Red Lady", [], FIRST_DISPLAY, [named_door])
    assert pick(seen, takes(FIRST_DISPLAY)) == "take Red Lady"


def test_against_a_guesser_who_named_a_colour_the_first_take_hides_again():
    named_colour = past(1, 0, ("Blue Tiger", "Red Tiger"), 1, 1,
                        "Seat 1 guessed Blue, right: it earns 1 gem.", guess="Blue")
    seen = view(0, "collect", "Red Lady", [], FIRST_DISPLAY, [named_colour])
    assert pick(seen, takes(FIRST_DISPLAY)) == "take Blue Tiger"


def test_against_a_known_hider_every_take_hides():
    # Seat 0 collects; in contest 1 seat 1 collected and seat 0 named the door opposite
    # seat 1's: seat 1 hides. Past the first take the rules would build with the Red Lady;
    # against it, take the card that shares nothing with the door.
    fooled = past(1, 1, ("Blue Lady", "Red Lady"), 1, 4,
                  "You guessed Blue Tiger, wrong: seat 1 earns 4 gems.", guess="Blue Tiger")
    display = ["Red Lady", "Blue Lady", "Blue Tiger", "Lady/Tiger"]
    plain = view(0, "collect", "Red Lady", ["Red Tiger"], display, [])
    assert pick(plain, takes(display)) == "take Red Lady"
    known = view(0, "collect", "Red Lady", ["Red Tiger"], display, [fooled])
    assert rules.hiding_chance(known, 0) >= rules.KNOWN_HIDER
    assert pick(known, takes(display)) == "take Blue Tiger"


def test_a_hiding_collector_still_completes_its_set():
    fooled = past(1, 1, ("Blue Lady", "Red Lady"), 1, 4,
                  "You guessed Blue Tiger, wrong: seat 1 earns 4 gems.", guess="Blue Tiger")
    display = ["Red Tiger", "Blue Tiger", "Blue Lady"]
    seen = view(0, "collect", "Red Lady", ["Red Lady", "Red Lady", "Blue/Red"], display,
                [fooled])
    assert pick(seen, takes(display)) == "take Red Tiger"

