"""Traps rules of thumb.

With a hand that matches the goal, stack your best matching cards and bid what your own stack
is sure to show plus a cautious share of the other stacks; without one, stack traps (a
revealer who turns up your trap pays you) and pass. As the revealer, turn up your own stack
first (you know it), then the tallest stacks of opponents who are far from 5 gems (their
traps would pay them), and stop when the bid is out of reach. Gems you must give go to the
opponent with fewest.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from ladytiger.bots.heuristics import Moves
from ladytiger.core.words import capitalise, plural
from ladytiger.games.lady_tiger_cards import (
    BLUE_RED,
    CARD_NAMES,
    IDENTITIES,
    LADY_TIGER,
    card_from_name,
)

# What an unknown card from an opponent's stack is expected to match: players stack traps
# as often as matches, so about half of the deck's average.
OTHER_CARD_MATCHES = 0.45
GOOD_HAND = 3  # traits in hand that make a stack worth building and a bid worth making
# How far past the traits it can count on a bid may go. A bid reached takes the whole pot and
# a bid missed costs little (the traps turned up pay their owners, a stop pays one gem), so
# a bid one trait beyond the count is worth making. Measured in 40 two-player games each,
# seats alternated: with 1.0 these rules beat themselves at 0 in 88% of games and random play
# in 95% (68% at 0).
BID_SLACK = 1.0


def matches(card: int, goal: int) -> int:
    if card == BLUE_RED:
        return 1
    if card == LADY_TIGER:
        return 0
    return int(card >> 1 == goal >> 1) + int(card & 1 == goal & 1)


# The traits each card, by name, matches of each goal: TRAITS[goal][name]. Views and moves
# name their cards, so a card is worth its traits in one look-up.
TRAITS = tuple({name: matches(card, goal) for card, name in enumerate(CARD_NAMES)}
               for goal in IDENTITIES)


def choose(view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
    return decide(view, moves)[0]


def explain(view: dict[str, Any], moves: Moves, rng: random.Random) -> tuple[int, str]:
    """The move these rules choose, and the rule that chose it in a player's words."""
    action, why = decide(view, moves)
    return action, words(view, moves, action, why)


def decide(view: dict[str, Any], moves: Moves) -> tuple[int, tuple[Any, ...]]:
    """The move, and what settled it (read by `words`; playouts never ask for the words)."""
    seat = view["viewer"]
    phase = view["phase"]
    goal = card_from_name(view["goal"])
    if phase == "start stacks":
        return stack_card(view, moves, goal, "start stack with ")
    if phase in ("build or bid", "bidding"):
        return build_or_bid(view, moves, goal, seat)
    if phase == "trap gem":
        return poorest(view, moves, "trap gem to seat "), ("poorest",)
    return reveal(view, moves, goal, seat)


def hand_strength(view: dict[str, Any], goal: int) -> int:
    traits = TRAITS[goal]
    return sum(traits[name] for name in view["hand"])


def stack_card(
    view: dict[str, Any], moves: Moves, goal: int, prefix: str
) -> tuple[int, tuple[Any, ...]]:
    """The best matching card with a good hand (to reveal ourselves), else a trap."""
    strong = hand_strength(view, goal) >= GOOD_HAND
    traits = TRAITS[goal]
    by_text = moves.by_text
    options = [(traits[name], by_text[text]) for name, text in card_texts(prefix)
               if text in by_text]
    pick = max(options) if strong else min(options)
    return pick[1], ("stack strong" if strong else "stack weak",)


@functools.cache
def card_texts(prefix: str) -> tuple[tuple[str, str], ...]:
    """(card name, move text) of the moves naming each card after `prefix`, spelled out once
    rather than at every decision."""
    return tuple((name, prefix + name) for name in CARD_NAMES)


def sure_matches(view: dict[str, Any], goal: int, seat: int) -> int:
    traits = TRAITS[goal]
    return sum(traits[name] for name in view["stacks"][seat]["cards"] or [])


def unseen_cards(view: dict[str, Any], seat: int) -> int:
    """The face-down cards of the other stacks."""
    stacks = view["stacks"]
    return sum(stack["face_down"] for stack in stacks) - stacks[seat]["face_down"]


def build_or_bid(
    view: dict[str, Any], moves: Moves, goal: int, seat: int
) -> tuple[int, tuple[Any, ...]]:
    strong = hand_strength(view, goal) >= GOOD_HAND
    if strong:
        # The one card that matches the goal exactly is the goal card itself.
        exact = moves.get(f"build {CARD_NAMES[goal]}")
        if exact is not None:
            return exact, ("build match",)
    price = view["high_bid"] + 1
    bid = moves.get(f"bid {price}")
    if bid is not None:
        sure = sure_matches(view, goal, seat)
        expected = sure + OTHER_CARD_MATCHES * unseen_cards(view, seat)
        if expected + BID_SLACK >= price and (strong or price <= sure + BID_SLACK):
            return bid, ("bid", strong)
    builds = moves.starting("build ") if not moves.has("pass") else []
    if builds:
        # Nobody has bid yet: keep building with traps rather than bid beyond our reach.
        traits = TRAITS[goal]
        trap = min(builds, key=lambda build: traits[build[1].removeprefix("build ")])
        return trap[0], ("build trap",)
    if moves.has("pass"):
        return moves.by_text["pass"], ("pass", bid is not None, strong)
    return (moves.actions[0], ("only",)) if bid is None else (bid, ("must bid",))


def reveal(
    view: dict[str, Any], moves: Moves, goal: int, seat: int
) -> tuple[int, tuple[Any, ...]]:
    own = moves.get(f"reveal seat {seat}")
    stacks = view["stacks"]
    if own is not None:
        cards = stacks[seat]["cards"]
        if cards and TRAITS[goal][cards[-1]] > 0:
            return own, ("own match",)
    gems = view["gems"]
    near_win = view["gems_to_win"] - 1  # a player this rich wins if we turn up their trap
    # Safe stacks before risky ones, then the tallest, then the lowest seat.
    best = min(((gems[other] >= near_win, -stacks[other]["face_down"], other, action)
                for other, action in seat_moves(moves, "reveal seat ", len(stacks))
                if other != seat), default=None)
    if seat_moves(moves, "stop and give a gem to seat ", len(stacks)):
        needed = view["high_bid"] - view["matched"]
        reachable = OTHER_CARD_MATCHES * unseen_cards(view, seat)
        if needed > reachable + 1:
            why = ("stop far", needed, reachable)
        elif best is None:
            why = ("stop none",)
        elif best[0]:
            why = ("stop danger",)
        else:
            why = ()
        if why:
            return poorest(view, moves, "stop and give a gem to seat "), why
    if best is not None:
        return best[3], ("reveal other", best[0])
    if own is not None:
        return own, ("own left",)
    return moves.actions[0], ("only",)


def seat_moves(moves: Moves, prefix: str, seats: int) -> list[tuple[int, int]]:
    """(seat, action) of each move naming a seat after `prefix`, such as "reveal seat 2"."""
    by_text = moves.by_text
    return [(seat, by_text[text]) for seat, text in enumerate(seat_texts(prefix, seats))
            if text in by_text]


@functools.cache
def seat_texts(prefix: str, seats: int) -> tuple[str, ...]:
    # Spelled out once rather than at every decision.
    return tuple(f"{prefix}{seat}" for seat in range(seats))


def poorest(view: dict[str, Any], moves: Moves, prefix: str) -> int:
    gems = view["gems"]
    options = [(gems[seat], action) for seat, action in seat_moves(moves, prefix, len(gems))]
    if not options:
        return moves.actions[0]
    return min(options)[1]


# ---------------------------------------------------------------------------- in words
def words(view: dict[str, Any], moves: Moves, action: int, why: tuple[Any, ...]) -> str:
    seat = view["viewer"]
    goal_name = view["goal"]
    goal = card_from_name(goal_name)
    text = moves.texts[moves.actions.index(action)]
    rule = why[0]
    strength = hand_strength(view, goal)
    to_win = view["gems_to_win"]
    if rule in ("stack strong", "stack weak"):
        card = text.removeprefix("start stack with ")
        hand = f"Your hand matches the goal, the {goal_name},"
        traits = plural(strength, "trait")
        if rule == "stack strong":
            return (f"{hand} well ({traits}): start your stack with your best match, the "
                    f"{card}, so that your own stack backs a bid.")
        if matches(card_from_name(card), goal) == 0:
            return (f"{hand} poorly ({traits}): start your stack with a trap, the {card}; "
                    "whoever turns it up pays you a gem.")
        return (f"{hand} poorly ({traits}): start your stack with your weakest match, the "
                f"{card}.")
    if rule == "build match":
        return (f"Build with the {text.removeprefix('build ')}, an exact match for the "
                f"goal: your own stack is the part of a bid you can count on.")
    sure = sure_matches(view, goal, seat)
    others = unseen_cards(view, seat)
    expected = OTHER_CARD_MATCHES * others
    rest = (f"your stack shows {plural(sure, 'sure trait')} and the other stacks' "
            f"{plural(others, 'face-down card')} should add about {_about(expected)}")
    if rule == "bid":
        return f"{capitalise(text)}: {rest}."
    if rule == "build trap":
        return (f"Nobody has bid yet: build with a trap, the {text.removeprefix('build ')}, "
                "rather than bid more than the stacks can show.")
    if rule == "pass":
        if not why[1]:
            return "Pass: the bid is already as high as it can go."
        price = view["high_bid"] + 1
        return f"Pass: {plural(price, 'trait')} is more than you can count on ({rest})."
    if rule == "must bid":
        return f"{capitalise(text)}: with no card left to build, you must bid."
    if rule in ("poorest", "stop far", "stop none", "stop danger"):
        receiver = int(text.rsplit(" ", 1)[1])
        held = view["gems"][receiver]
        given = f"you give your gem to Seat {receiver}, who has the fewest ({held})"
        if rule == "poorest":
            return (f"Give the gem to Seat {receiver}: they have the fewest ({held}), so "
                    f"nobody nears {to_win}.")
        if rule == "stop far":
            return (f"Stop: you still need {plural(why[1], 'trait')} and the face-down cards "
                    f"left should show only about {_about(why[2])}; {given}.")
        if rule == "stop danger":
            return (f"Stop: every stack left belongs to a player one gem from {to_win}, and a "
                    f"trap there would win them the game; {given}.")
        return f"Stop: there is no other stack to turn up; {given}."
    if rule == "own match":
        top = view["stacks"][seat]["cards"][-1]
        return (f"Turn up your own stack first: you know its top card, the {top}, matches "
                "the goal.")
    if rule == "reveal other":
        other = int(text.removeprefix("reveal seat "))
        count = view["stacks"][other]["face_down"]
        if why[1]:
            return (f"Turn up Seat {other}'s stack: every stack left is risky, and this one "
                    f"has the most cards ({count}) to reach the bid.")
        return (f"Turn up Seat {other}'s stack: the tallest ({plural(count, 'card')} face "
                f"down) of a player far from {to_win} gems, whose traps cost you least.")
    if rule == "own left":
        return "Turn up your own stack: it is the only one left."
    return f"{capitalise(text)} is the only sensible move here."


def _about(amount: float) -> str:
    """An expected count as a player would say it: "1", "0.5", "1.4"."""
    return f"{amount:.1f}".removesuffix(".0")
