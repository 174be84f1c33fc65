"""Traps rules of thumb.

With a hand that matches the goal, stack your best matching cards and bid what your own stack
is sure to show plus a cautious share of the other stacks; without one, stack traps (a
revealer who turns up your trap pays you) and pass. As the revealer, turn up your own stack
first (you know it), then the tallest stacks of opponents who are far from 5 gems (their
traps would pay them), and stop when the bid is out of reach. Gems you must give go to the
opponent with fewest.
"""

from __future__ import annotations

import random
from typing import Any

from ladytiger.bots.heuristics import Moves
from ladytiger.games.lady_tiger_cards import BLUE_RED, LADY_TIGER, card_from_name

# What an unknown card from an opponent's stack is expected to match: players stack traps
# as often as matches, so about half of the deck's average.
OTHER_CARD_MATCHES = 0.45
GOOD_HAND = 3  # traits in hand that make a stack worth building and a bid worth making


def matches(card: int, goal: int) -> int:
    if card == BLUE_RED:
        return 1
    if card == LADY_TIGER:
        return 0
    return int(card >> 1 == goal >> 1) + int(card & 1 == goal & 1)


def choose(view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
    seat = view["viewer"]
    phase = view["phase"]
    goal = card_from_name(view["goal"])
    if phase == "start stacks":
        return stack_card(view, moves, goal, "start stack with ")
    if phase in ("build or bid", "bidding"):
        return build_or_bid(view, moves, goal, seat)
    if phase == "trap gem":
        return poorest(view, moves, "trap gem to seat ")
    return reveal(view, moves, goal, seat)


def hand_strength(view: dict[str, Any], goal: int) -> int:
    return sum(matches(card_from_name(name), goal) for name in view["hand"])


def stack_card(view: dict[str, Any], moves: Moves, goal: int, prefix: str) -> int:
    """The best matching card with a good hand (to reveal ourselves), else a trap."""
    strong = hand_strength(view, goal) >= GOOD_HAND
    options = [(matches(card_from_name(text.removeprefix(prefix)), goal), action)
               for action, text in moves.starting(prefix)]
    pick = max(options) if strong else min(options)
    return pick[1]


def sure_matches(view: dict[str, Any], goal: int, seat: int) -> int:
    own = view["stacks"][seat]["cards"] or []
    return sum(matches(card_from_name(name), goal) for name in own)


def expected_matches(view: dict[str, Any], goal: int, seat: int) -> float:
    others = sum(s["face_down"] for i, s in enumerate(view["stacks"]) if i != seat)
    return sure_matches(view, goal, seat) + OTHER_CARD_MATCHES * others


def build_or_bid(view: dict[str, Any], moves: Moves, goal: int, seat: int) -> int:
    builds = moves.starting("build ")
    strong = hand_strength(view, goal) >= GOOD_HAND
    if builds:
        best_build = max(builds, key=lambda m: matches(card_from_name(m[1][6:]), goal))
        if strong and matches(card_from_name(best_build[1][6:]), goal) == 2:
            return best_build[0]
    price = view["high_bid"] + 1
    bid = moves.get(f"bid {price}")
    if bid is not None and expected_matches(view, goal, seat) >= price and (
        strong or price <= sure_matches(view, goal, seat)
    ):
        return bid
    if builds and not moves.has("pass"):
        # Nobody has bid yet: keep building with traps rather than bid beyond our reach.
        return min(builds, key=lambda m: matches(card_from_name(m[1][6:]), goal))[0]
    if moves.has("pass"):
        return moves.by_text["pass"]
    return moves.actions[0] if bid is None else bid


def reveal(view: dict[str, Any], moves: Moves, goal: int, seat: int) -> int:
    own = moves.get(f"reveal seat {seat}")
    if own is not None:
        top = (view["stacks"][seat]["cards"] or [])[-1:]
        if top and matches(card_from_name(top[0]), goal) > 0:
            return own
    needed = view["high_bid"] - view["matched"]
    reachable = OTHER_CARD_MATCHES * sum(
        s["face_down"] for i, s in enumerate(view["stacks"]) if i != seat
    )
    stops = moves.starting("stop and give a gem to seat ")
    candidates = []
    for action, text in moves.starting("reveal seat "):
        other = int(text.removeprefix("reveal seat "))
        if other == seat:
            continue
        danger = view["gems"][other] >= view["gems_to_win"] - 1  # a trap would make them win
        candidates.append((danger, -view["stacks"][other]["face_down"], other, action))
    if stops and (needed > reachable + 1 or not candidates or min(candidates)[0]):
        return poorest(view, moves, "stop and give a gem to seat ")
    if candidates:
        return min(candidates)[3]
    if own is not None:
        return own
    return moves.actions[0]


def poorest(view: dict[str, Any], moves: Moves, prefix: str) -> int:
    options = [(view["gems"][int(text.removeprefix(prefix))], action)
               for action, text in moves.starting(prefix)]
    if not options:
        return moves.actions[0]
    return min(options)[1]
