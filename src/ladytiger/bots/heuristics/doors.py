"""Doors rules of thumb.

Collector: take what builds a set on your own colour or role, favouring cards that say least
about which door you hold (wilds, cards sharing only the trait you build on), and finish a set
the moment you can; hide the first take from a Guesser who may read it, and every take from an
opponent who hides its own door. Guesser: weigh the doors the Collector's cards point to,
allowing that they may point away from the door (more so once the contests it collected say
it hides), discard the card that would help the likeliest doors most, and declare only when
the expected gems of a guess beat waiting (a sure claim pays 2, an empty deck pays 3, a
Collector one card from a set costs 6).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any, NamedTuple

from ladytiger.bots.heuristics import Moves
from ladytiger.core.words import a
from ladytiger.games.lady_tiger_cards import (
    CARD_NAMES,
    CLUE_COUNTS,
    CLUE_KINDS,
    COLOUR_NAMES,
    IDENTITIES,
    ROLE_NAMES,
    SET_SIZE,
    card_from_name,
    count_with_colour,
    count_with_role,
    has_colour,
    has_role,
    shared_traits,
)

# How likely a Collector is to take a card sharing 0, 1 or 2 traits with their door.
# Measured, 100 games each way: with (1.0, 1.3, 1.6) the Guesser read a Collector who builds
# openly so slowly that it hardly ever guessed and lost half its games to one (51%; these
# rules as Collector: 55%); with (1.0, 1.6, 2.4) it wins 86% against the open builder, 89%
# against the earlier weights, and 84% against random play (90% before: a random
# Collector's takes now mislead it a little more).
TAKE_WEIGHT = (1.0, 1.6, 2.4)
# The same for a Collector who hides its door: it takes the cards that share least with its
# door (most of all those that share nothing: they point the Guesser at the opposite door)
# and hardly ever a card of its own door. Such a Collector looks exactly like an open builder
# of the opposite door, so the Guesser tells them apart by the chance it gives hiding
# (`hiding_chance`) and by what neither explains: takes that point at the Guesser's own
# door, which no open builder can hold. Measured (400 games on each of seeds 0-2, seats
# alternated, against the hider, the wild guesser, the never-guesser and the old rules):
# these weights beat the hider 68-72%; the open builder's reversed (2.4, 1.6, 1.0), 40-45%.
HIDE_WEIGHT = (3.0, 1.6, 0.2)
# The chance a Collector hides, before its contests as Collector say more (`HIDING`), and
# how each way such a contest ended multiplies its odds (`LESSONS`). Measured over the
# contests of 400 games against each Collector, with these rules guessing: a guess naming
# the door opposite the true one ended 21% of the hider's contests and none of the open
# builders' (these rules, the old ones, the beginner's open building); the deck ran out in
# 45% and 6-7%; a set was shown in 3% and 22-33%; the door was named right in 13% (once
# the hider was known) and 38-53%; a neighbouring door (one trait right) was named in 12%
# and 7-14%, too alike to count much.
# Capped (`HIDING_CAP`) so that a run of deck-outs is never taken for certainty. The prior,
# same runs: 0.06 beats the hider 66-68% and the old rules 56-59%; 0.08 the hider 68-72%,
# the wild guesser 67-69%, the old rules 55-59%; 0.1 the hider 71-72% but the wild guesser
# 64-66% and the old rules 52-58%.
HIDING = 0.08
LESSONS = {"set": 0.15, "opposite": 20.0, "near": 1.2, "trait wrong": 5.0, "door right": 0.5,
           "trait right": 0.5, "deck": 5.0, "claim": 1.0}
HIDING_CAP = 0.9
COLLECTOR_SET_GEMS = 6
WRONG_GEMS = 4
DECK_OUT_GEMS = 3
CLAIM_GEMS = 2
# A contest moves at most 6 gems (the Collector's set): a search may judge a move by the
# contest's gems alone (ladytiger.bots.ismcts, horizon "round").
ROUND_POINTS = COLLECTOR_SET_GEMS
# How the search suits Doors best (ladytiger.bots.ismcts takes these as its defaults here):
# - depth 1: only the move at hand is searched; the seat's later moves in the contest follow
#   these rules. A Guesser's turn offers a dozen declarations, and a tree that explores them
#   all at every later turn drags the value of waiting below that of a hasty guess.
# - worlds 0: every iteration draws the hidden doors uniformly. Weighing worlds by the
#   Collector's takes (as if the Collector played by these rules) makes the search sure of
#   the door after a take or two; against a Collector who takes at random that certainty
#   is false, and each guess it prompts costs 4 gems.
# - prior 0.5, judges 8: whether the Collector plays sensibly is an even bet until its moves
#   say otherwise, judged in 8 replayed worlds rather than 2. A Collector's takes say little
#   while its door is hidden, so with the general prior (0.8) and 2 worlds a random Collector
#   still looked sensible at 0.6-0.9, and the search, expecting a set soon, took coin-flip
#   guesses: at 1,000 iterations against random, 18 wrong guesses in 100 games, 2 after.
SEARCH_DEFAULTS = {"depth": 1, "worlds": 0, "prior": 0.5, "judges": 8}
# What waiting is worth to the Guesser when no set threatens: the deck runs out for 3,
# and each turn brings more evidence. Measured, 80 games each, against these rules at 4.0:
# 3.0 wins 69%, and 72% against a Collector who builds openly (45% at 4.0: the Guesser
# hardly ever guessed, and people noticed); 2.0 guesses too early against random play
# (60% against random, 80% at 3.0, 86% at 4.0).
PATIENCE = 3.0
# How often a Collector one card from a set is expected to see and take the card.
ALERTNESS = 0.6
# How much a Collector pays for making their door easy to read.
CONCEALMENT = 3.0
# What showing the door costs a Collector who means to hide it (`concealment`): on its first
# take (`HIDDEN_TAKES`) when the Guesser may read it, and on every take against an opponent
# known to hide its own door (`KNOWN_HIDER`: the chance `hiding_chance` gives it). A single
# card builds little of a set of four, and a Guesser who names a colour or a role on it
# reads the door from it. Measured as for `HIDE_WEIGHT` (hider, wild guesser, never-guesser,
# old rules): as set, 68-72%, 67-69%, 82-87%, 55-59%; hiding the first two takes, 73-77%,
# 56-60%, 75-80%, 58-60%; not hiding every take from a known hider, 64-68%, 61-65%, 76-81%,
# 58-60%; neither (the Guesser's read alone), 46-48%, 64-70%, 89-92%, 40-43%.
HIDER_CONCEALMENT = 20.0
HIDDEN_TAKES = 1
KNOWN_HIDER = 0.5


def counts(names: list[str]) -> list[int]:
    per_kind = [0] * len(CARD_NAMES)
    for name in names:
        per_kind[card_from_name(name)] += 1
    return per_kind


# The doors the Collector may hold, as the Guesser of each door sees them: any but its own.
OTHER_DOORS = tuple(tuple(door for door in IDENTITIES if door != own) for own in IDENTITIES)
# The moves' words, spelled out once rather than at every decision.
CARD_TAKEN = {f"take {name}": card for card, name in enumerate(CARD_NAMES)}
CARD_DISCARDED = {f"discard {name}": card for card, name in enumerate(CARD_NAMES)}
GUESS_DOOR = tuple(f"guess {CARD_NAMES[door]}" for door in IDENTITIES)
GUESS_COLOUR = tuple(f"guess {name}" for name in COLOUR_NAMES)
GUESS_ROLE = tuple(f"guess {name}" for name in ROLE_NAMES)
TRAIT_NAMES = frozenset(COLOUR_NAMES) | frozenset(ROLE_NAMES)

# Most of what these rules make of the Collector's cards depends on those cards alone (and
# on the door of the seat reading them), and the cards a Collector can hold take a thousand
# forms at most: each reading is worked out the first time it is met and kept (the `@cache`
# functions below). Kept answers are shared: read them, never change them.


def door_beliefs(collected: list[int], candidates: list[int]) -> dict[int, float]:
    """How likely each candidate door is the Collector's, judged from the cards taken."""
    return dict(read_doors(tuple(collected), tuple(candidates)))


@cache
def read_doors(collected: tuple[int, ...], candidates: tuple[int, ...]) -> dict[int, float]:
    """`door_beliefs`, kept."""
    weights = {}
    for door in candidates:
        colour, role = progress(collected, door)
        if colour >= SET_SIZE or role >= SET_SIZE:
            # A Collector holding a set on their own door must have revealed it at once.
            weights[door] = 0.0
            continue
        weight = 1.0
        for card, n in enumerate(collected):
            if n and card < 4:
                weight *= TAKE_WEIGHT[shared_traits(card, door)] ** n
        weights[door] = weight
    total = sum(weights.values())
    if total == 0:
        return {door: 1.0 / len(candidates) for door in candidates}
    return {door: w / total for door, w in weights.items()}


def progress(collected: list[int] | tuple[int, ...], door: int) -> tuple[int, int]:
    """Cards toward a set on the door's colour, and on its role."""
    return count_with_colour(collected, door >> 1), count_with_role(collected, door & 1)


def completes(card: int, collected: list[int], door: int) -> bool:
    return finishes(card, door, *progress(collected, door))


def finishes(card: int, door: int, colour: int, role: int) -> bool:
    """Whether `card` completes a set on `door`, given the cards toward its colour and role
    (as `progress` counts them: asked once per door, not once per card)."""
    return (colour == SET_SIZE - 1 and has_colour(card, door >> 1)) or (
        role == SET_SIZE - 1 and has_role(card, door & 1)
    )


@cache
def completing(door: int, colour: int, role: int) -> tuple[int, ...]:
    """The cards that complete a set on `door`, given the cards toward its colour and role."""
    return tuple(card for card in CLUE_KINDS if finishes(card, door, colour, role))


def choose(view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
    return decide(view, moves)[0]


def explain(view: dict[str, Any], moves: Moves, rng: random.Random) -> tuple[int, str]:
    """The move these rules choose, and the rule that chose it in a player's words."""
    action, why = decide(view, moves)
    return action, words(view, moves, action, why)


def decide(view: dict[str, Any], moves: Moves) -> tuple[int, tuple[Any, ...]]:
    """The move, and what settled it (read by `words`; playouts never ask for the words)."""
    seat = view["viewer"]
    if view["phase"] == "collect":
        return collect(view, moves, seat)
    return guess_or_discard(view, moves, seat)


# ---------------------------------------------------------------------------- collector
def take_value(card: int, collected: list[int], own: int) -> tuple[float, float]:
    """What taking `card` does for the Collector of door `own`: how much it builds toward
    a set, and how likely the Guesser then finds the door (the price of being read)."""
    after = collected.copy()
    after[card] += 1
    colour, role = progress(after, own)
    gain = 0.0
    if has_colour(card, own >> 1):
        gain += 1.0 + 0.5 * colour
    if has_role(card, own & 1):
        gain += 1.0 + 0.5 * role
    # Read our cards as the Guesser would (any door but theirs, which we do not know).
    exposure = read_doors(tuple(after), IDENTITIES)[own]
    return gain, exposure


@cache
def take_scores(collected: tuple[int, ...], own: int, concealment: float = CONCEALMENT
                ) -> tuple[float, ...]:
    """What taking each card is worth to the Collector of door `own`: what it builds, less
    the price of showing the door."""
    scores = []
    for card in CLUE_KINDS:
        gain, exposure = take_value(card, list(collected), own)
        scores.append(gain - concealment * exposure)
    return tuple(scores)


def concealment(view: dict[str, Any], seat: int, collected: tuple[int, ...]) -> float:
    """What showing the door costs the Collector on this take (`CONCEALMENT` as a rule)."""
    if hiding_chance(view, seat) >= KNOWN_HIDER:
        # The opponent hides its own door as Collector: it plays the reading game, and its
        # reading as Guesser is what there is to beat. Hide every take as it does (a card
        # that completes the set is still taken first).
        return HIDER_CONCEALMENT
    if sum(collected) < HIDDEN_TAKES and early_reader(view, seat):
        return HIDER_CONCEALMENT
    return CONCEALMENT


def early_reader(view: dict[str, Any], seat: int) -> bool:
    """Whether the Guesser may read the Collector's first take: not known yet (the
    Collector's first contest), or it named a colour or a role against this Collector
    before (a trait is named on a card or two)."""
    mine = [past for past in view["past_contests"] if past["collector"] == seat]
    return not mine or any(past["guess"] in TRAIT_NAMES for past in mine)


def collect(view: dict[str, Any], moves: Moves, seat: int) -> tuple[int, tuple[Any, ...]]:
    own = card_from_name(view["identities"][seat])
    collected = tuple(counts(view["collected"]))
    finishing = completing(own, *progress(collected, own))
    scores = take_scores(collected, own, concealment(view, seat, collected))
    best, best_score = moves.actions[0], -1e9
    for action, text in moves:
        card = CARD_TAKEN.get(text)
        if card is None:
            continue
        if card in finishing:
            return action, ("complete",)
        if scores[card] > best_score:
            best, best_score = action, scores[card]
    return best, ("build",)


# ---------------------------------------------------------------------------- guesser
class Clues(NamedTuple):
    """What the Guesser of one door makes of the Collector's cards."""

    # How likely each other door is the Collector's.
    beliefs: dict[int, float]
    # Each guess's expected gems, and its move's text.
    guesses: tuple[tuple[float, str], ...]
    # How much taking each card would help the Collector (`usefulness`).
    usefulness: tuple[float, ...]
    # The doors one card from a set, each with its likelihood and the cards that would
    # complete the set (the other doors add nothing to the danger of a set).
    wanted: tuple[tuple[float, tuple[int, ...]], ...]


def lesson(past: dict[str, Any]) -> str:
    """What a past contest with the opponent collecting says of how it collects (a key of
    `LESSONS`)."""
    collector = past["collector"]
    ended = past["ended"]  # "guess", "claim", "set" or "deck"
    named = past["guess"]  # what the Guesser named ("Red", "Blue Tiger"); None: no guess
    if past["winner"] != collector:
        if ended == "guess":
            return "door right" if named in CARD_NAMES else "trait right"
        return "deck" if ended == "deck" else "claim"
    if ended != "guess":
        return "set"
    if named not in CARD_NAMES:
        return "trait wrong"
    truth = card_from_name(past["identities"][collector])
    return "opposite" if shared_traits(card_from_name(named), truth) == 0 else "near"


def hiding_chance(view: dict[str, Any], seat: int) -> float:
    """How likely the Collector (the opponent of `seat`) hides its door rather than builds
    openly, from how its earlier contests as Collector ended (rounded: the readings that
    depend on it are kept per value)."""
    odds = HIDING / (1.0 - HIDING)
    for past in view["past_contests"]:
        if past["collector"] != seat:
            odds *= LESSONS[lesson(past)]
    return round(min(HIDING_CAP, odds / (1.0 + odds)), 2)


@cache
def read_guarded(collected: tuple[int, ...], candidates: tuple[int, ...], hiding: float
                 ) -> dict[int, float]:
    """How likely each candidate door is the Collector's when it builds openly (weighed by
    `TAKE_WEIGHT`) or, with chance `hiding`, hides its door (`HIDE_WEIGHT`). Each weight is
    a share of its card's row, so the two kinds of Collector are compared fairly: takes
    that neither explains for any candidate (say, cards of the Guesser's own door) shift the
    odds toward the kind that explains them better."""
    take_sum = TAKE_WEIGHT[0] + 2 * TAKE_WEIGHT[1] + TAKE_WEIGHT[2]
    hide_sum = HIDE_WEIGHT[0] + 2 * HIDE_WEIGHT[1] + HIDE_WEIGHT[2]
    weights = {}
    for door in candidates:
        colour, role = progress(collected, door)
        if colour >= SET_SIZE or role >= SET_SIZE:
            weights[door] = 0.0
            continue
        built = hid = 1.0
        for card, n in enumerate(collected):
            if n and card < 4:
                shared = shared_traits(card, door)
                built *= (TAKE_WEIGHT[shared] / take_sum) ** n
                hid *= (HIDE_WEIGHT[shared] / hide_sum) ** n
        weights[door] = (1.0 - hiding) * built + hiding * hid
    total = sum(weights.values())
    if total == 0:
        return {door: 1.0 / len(candidates) for door in candidates}
    return {door: w / total for door, w in weights.items()}


@cache
def clues(collected: tuple[int, ...], own: int, hiding: float = 0.0) -> Clues:
    """What the Guesser of door `own` makes of the Collector's cards."""
    beliefs = read_guarded(collected, OTHER_DOORS[own], hiding)
    wanted = [(p, completing(door, *progress(collected, door))) for door, p in beliefs.items()]
    return Clues(
        beliefs,
        guess_gems(beliefs),
        tuple(usefulness(card, collected, beliefs) for card in CLUE_KINDS),
        tuple((p, cards) for p, cards in wanted if cards),
    )


def guess_or_discard(
    view: dict[str, Any], moves: Moves, seat: int, patience: float | None = None
) -> tuple[int, tuple[Any, ...]]:
    """The Guesser's move. `patience` (default PATIENCE) is what waiting is worth when no
    set threatens: the beginner level plays a more timid Guesser."""
    if patience is None:
        patience = PATIENCE
    own = card_from_name(view["identities"][seat])
    collected = counts(view["collected"])
    display = counts(view["display"])
    told = clues(tuple(collected), own, hiding_chance(view, seat))
    discarding = view["phase"] == "discard"

    options = declarations(moves, told.guesses)
    claim = moves.get("claim set")
    if claim is not None:
        options.append((CLAIM_GEMS, claim))
    best_value, best_declaration = max(options)

    if discarding:
        discard, left = most_useful_discard(moves, told.usefulness, display)
        # The deck refills the display after a discard, with a card we have not seen: what
        # it may be matters only where a set is one card away.
        refill = bool(told.wanted) and view["deck"] > 0 and sum(left) < sum(display)
        unseen = unseen_cards(collected, display, view["discarded"]) if refill else None
        threat = danger(told.wanted, left, unseen)
        waiting = -COLLECTOR_SET_GEMS * threat + patience
    else:
        discard = None
        if view["deck"] == 0:
            threat = 0.0
            waiting = DECK_OUT_GEMS
        else:
            threat = danger(told.wanted, display, None)
            waiting = -COLLECTOR_SET_GEMS * threat + patience
    if best_value > waiting:
        return best_declaration, ("declare", threat)
    facts = ("wait", best_declaration)
    if discard is not None:
        return discard, facts
    return moves.by_text["end turn"], facts


def guess_gems(beliefs: dict[int, float]) -> tuple[tuple[float, str], ...]:
    """Each guess with its expected gems for the Guesser (a wrong one pays the Collector 4),
    and its move's text."""
    gems = [(5 * p - WRONG_GEMS * (1 - p), GUESS_DOOR[door]) for door, p in beliefs.items()]
    for colour, text in enumerate(GUESS_COLOUR):
        p = sum(q for door, q in beliefs.items() if door >> 1 == colour)
        gems.append((p - WRONG_GEMS * (1 - p), text))
    for role, text in enumerate(GUESS_ROLE):
        p = sum(q for door, q in beliefs.items() if door & 1 == role)
        gems.append((p - WRONG_GEMS * (1 - p), text))
    return tuple(gems)


def declarations(
    moves: Moves, guesses: tuple[tuple[float, str], ...]
) -> list[tuple[float, int]]:
    """The guesses on offer, each with its expected gems."""
    offered = moves.by_text
    return [(gems, offered[text]) for gems, text in guesses if text in offered]


def usefulness(
    card: int, collected: list[int] | tuple[int, ...], beliefs: dict[int, float]
) -> float:
    """How much taking `card` would help the Collector, averaged over the likely doors."""
    value = 0.0
    for door, p in beliefs.items():
        colour, role = progress(collected, door)
        if finishes(card, door, colour, role):
            value += p * 10
            continue
        best = 0.0
        if has_colour(card, door >> 1):
            best = 1.0 + colour
        if has_role(card, door & 1):
            best = max(best, 1.0 + role)
        value += p * best
    return value


def best_discard(
    moves: Moves, beliefs: dict[int, float], collected: list[int], display: list[int]
) -> tuple[int, list[int]]:
    useful = [usefulness(card, collected, beliefs) for card in CLUE_KINDS]
    return most_useful_discard(moves, useful, display)


def most_useful_discard(
    moves: Moves, useful: list[float] | tuple[float, ...], display: list[int]
) -> tuple[int, list[int]]:
    """The discard of the card that would help the Collector most (`useful`, by card), and
    the display it leaves."""
    best, best_value, left = moves.actions[0], -1.0, display
    for action, text in moves:
        card = CARD_DISCARDED.get(text)
        if card is not None and useful[card] > best_value:
            best, best_value = action, useful[card]
            left = display.copy()
            left[card] -= 1
    return best, left


def danger(
    wanted: tuple[tuple[float, tuple[int, ...]], ...],
    display: list[int],
    unseen: list[int] | None,
) -> float:
    """The chance the Collector completes a set on the next take. `wanted`: the doors one
    card from a set, each with its likelihood and the cards that would complete it;
    `unseen`: the cards not yet seen, when the deck will refill the display before that
    take."""
    unseen_total = sum(unseen) if unseen else 0
    risk = 0.0
    for p, cards in wanted:
        if any(display[card] for card in cards):
            risk += p
        elif unseen and unseen_total:
            good = sum(unseen[card] for card in cards)
            risk += p * good / unseen_total
    return ALERTNESS * risk


def unseen_cards(collected: list[int], display: list[int], discarded: list[str]) -> list[int]:
    """How many of each card may still be in the deck: neither taken, shown nor discarded."""
    seen = [a + b + c for a, b, c in zip(collected, display, counts(discarded), strict=True)]
    return [max(0, total - n) for total, n in zip(CLUE_COUNTS, seen, strict=True)]


# ---------------------------------------------------------------------------- in words
def words(view: dict[str, Any], moves: Moves, action: int, why: tuple[Any, ...]) -> str:
    seat = view["viewer"]
    own = card_from_name(view["identities"][seat])
    collected = counts(view["collected"])
    text = moves.texts[moves.actions.index(action)]
    if why[0] == "complete":
        card = card_from_name(text.removeprefix("take "))
        colour = progress(collected, own)[0]
        if colour == SET_SIZE - 1 and has_colour(card, own >> 1):
            trait = COLOUR_NAMES[own >> 1]
        else:
            trait = ROLE_NAMES[own & 1]
        return (f"Taking the {CARD_NAMES[card]} completes your {trait} set: you reveal it "
                f"and earn {COLLECTOR_SET_GEMS} gems.")
    if why[0] == "build":
        return _build_words(text, collected, own, moves)
    beliefs = clues(tuple(collected), own, hiding_chance(view, seat)).beliefs
    if why[0] == "declare":
        return _declare_words(text, beliefs, why[1], view)
    best_declaration = why[1]
    best_text = moves.texts[moves.actions.index(best_declaration)]
    if best_text == "claim set":
        doubt = f"a claim pays only {CLAIM_GEMS} gems"
    else:
        named = best_text.removeprefix("guess ")
        doubt = (f"{named} is only {_percent(_chance(named, beliefs))} likely, and a wrong "
                 f"guess pays the Collector {WRONG_GEMS} gems")
    if text.startswith("discard "):
        card = card_from_name(text.removeprefix("discard "))
        if any(p > 0.1 and finishes(card, door, *progress(collected, door))
               for door, p in beliefs.items()):
            wanted = "it could complete the Collector's set"
        else:
            wanted = "of the cards on display it would help the Collector most"
        return (f"Discarding the {CARD_NAMES[card]} keeps it from the Collector: {wanted}. "
                f"No guess is safe yet: {doubt}.")
    if view["deck"] == 0:
        return (f"The deck is empty: ending your turn earns you {DECK_OUT_GEMS} gems, "
                f"more than a guess is worth ({doubt}).")
    return f"End your turn and watch the Collector's next take: {doubt}."


def _build_words(text: str, collected: list[int], own: int, moves: Moves) -> str:
    card = card_from_name(text.removeprefix("take "))
    offered = {card_from_name(t.removeprefix("take ")) for _, t in moves.starting("take ")}
    exposure = take_value(card, collected, own)[1]
    least = min(take_value(other, collected, own)[1] for other in offered)
    after = collected.copy()
    after[card] += 1
    colour, role = progress(after, own)
    sets = []
    if has_colour(card, own >> 1):
        sets.append(f"{a(COLOUR_NAMES[own >> 1])} set ({colour} of {SET_SIZE})")
    if has_role(card, own & 1):
        sets.append(f"{a(ROLE_NAMES[own & 1])} set ({role} of {SET_SIZE})")
    name = CARD_NAMES[card]
    if card >= 4:
        hidden = "as a wild it tells the Guesser nothing about your door"
    elif exposure <= least + 1e-9:
        hidden = "it points to your door least of the cards on offer"
    else:
        hidden = None
    if not sets:
        return (f"Taking the {name} builds nothing but keeps your door hidden: the cards "
                "that would build point the Guesser straight at it.")
    built = " and ".join(sets)
    if hidden:
        return f"Taking the {name} builds toward {built}, and {hidden}."
    return (f"Taking the {name} builds toward {built}: worth the hint it gives the Guesser "
            "about your door.")


def _declare_words(
    text: str, beliefs: dict[int, float], threat: float, view: dict[str, Any]
) -> str:
    deck_out = view["deck"] == 0 and view["phase"] != "discard"
    rushed = threat >= 0.25
    if text == "claim set":
        start = ("The Collector's cards hold a set on your door's colour or role: claiming it "
                 f"is a sure {CLAIM_GEMS} gems")
        if rushed:
            return f"{start}, and they may finish a set of their own on the next take."
        return f"{start}, more than waiting is worth."
    named = text.removeprefix("guess ")
    door = " " in named
    pays = "5 gems" if door else "1 gem"
    start = (f"The Collector's cards point to {'the ' if door else ''}{named} "
             f"({_percent(_chance(named, beliefs))} likely)")
    if deck_out:
        return (f"{start}: a right guess pays {pays}, more than the {DECK_OUT_GEMS} gems the "
                "empty deck gives you for ending your turn.")
    if rushed:
        return (f"{start}, and they may finish a set on their next take: guess now "
                f"({pays} if right).")
    return f"{start}: a right guess pays {pays}, worth more than waiting for more clues."


def _chance(named: str, beliefs: dict[int, float]) -> float:
    """How likely the Collector's door is `named` (a door, a colour or a role)."""
    if named in CARD_NAMES:
        return beliefs.get(CARD_NAMES.index(named), 0.0)
    if named in COLOUR_NAMES:
        colour = COLOUR_NAMES.index(named)
        return sum(q for door, q in beliefs.items() if door >> 1 == colour)
    role = ROLE_NAMES.index(named)
    return sum(q for door, q in beliefs.items() if door & 1 == role)


def _percent(p: float) -> str:
    return f"{round(100 * p)}%"
