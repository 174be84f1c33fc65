"""Shady Lady rules of thumb.

Declare Try! as soon as the hand is a combination and answer a Try! whenever allowed. Call
Jack! only on a player whose known cards already form a combination (cards they took from
the piles are public). Otherwise take a pile's top card when it completes a combination,
else draw; when discarding, keep the three cards with the most ways left to become a
combination, counting the copies not yet seen on the piles.
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

from ladytiger.bots.heuristics import Moves
from ladytiger.core.words import capitalise, join, plural

NUMBERS = (1, 2, 3, 4, 6, 7, 8, 9)
COPIES = 10
RUNS = ((1, 2, 3), (2, 3, 4), (6, 7, 8), (7, 8, 9))
TRIPLE = 10


def strength(hand: list[int] | tuple[int, ...]) -> int:
    """0 for no combination; a run is worth its top card, a triple 10 + its number."""
    if len(hand) != 3:
        return 0
    low, middle, high = sorted(hand)
    if low == high:
        return TRIPLE + low
    return high if (low, middle, high) in RUNS else 0


def unseen_copies(view: dict[str, Any], seat: int) -> dict[int, int]:
    """Copies of each number not in sight: not in our hand, not on any pile."""
    left = dict.fromkeys(NUMBERS, COPIES)
    for card in view["hands"][seat]:
        left[card] -= 1
    for pile in view["piles"]:
        for card in pile:
            left[card] -= 1
    for hand_index, hand in enumerate(view["hands"]):
        if hand_index != seat:
            for card in hand:
                if card is not None:
                    left[card] -= 1
    return {card: max(0, n) for card, n in left.items()}


# Three numbers make only a few hundred hands: what each can become is worked out the first
# time it is met and kept.
@cache
def prospects(kept: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """What three cards (in order) are worth: their combination's strength, and the numbers
    that would complete a combination with two of them (once for each pair)."""
    outs = []
    for a, b in itertools.combinations(kept, 2):
        if a == b:
            outs.append(a)
        for run in RUNS:
            if a in run and b in run and a != b:
                (missing,) = set(run) - {a, b}
                outs.append(missing)
    return strength(kept), tuple(outs)


def promise(hand: list[int], left: dict[int, int]) -> float:
    """How close three cards are to a combination: made ones first, then their outs."""
    made, outs = prospects(tuple(sorted(hand)))
    if made:
        return 100.0 + made
    return float(sum([left[card] for card in outs]))


@cache
def completing(hand: tuple[int, ...]) -> frozenset[int]:
    """The numbers that make a combination with two of the cards of `hand`."""
    return frozenset(card for card in NUMBERS
                     if any(strength([card, *pair]) for pair in itertools.combinations(hand, 2)))


# The number each discard move discards.
DISCARDS = {f"discard {card}": card for card in NUMBERS}


# The same few dozen moves come back turn after turn: each one's words are read once.
@cache
def taken(text: str) -> int | None:
    """The card a move takes from a pile ("take 7 from seat 2"); None for other moves."""
    parts = text.split()
    if len(parts) < 2 or parts[0] != "take" or not parts[1].isdigit():
        return None
    return int(parts[1])


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
    hand = view["hands"][seat]
    if phase == "try":
        return moves.get("reveal") or moves.by_text["decline"], ("answer",)
    if phase == "discard":
        return discard_one(view, moves, hand, seat), ("discard",)
    if phase == "discard hand":
        # The last card discarded tops our pile, where anyone may take it: discard first the
        # number with most unseen copies (likeliest to help someone), so the least useful
        # one ends on top.
        left = unseen_copies(view, seat)
        options = [(left.get(DISCARDS[text], 0), action)
                   for action, text in moves if text in DISCARDS]
        return max(options)[1], ("discard hand",)
    if moves.has("try"):
        return moves.by_text["try"], ("try",)
    for index, other in enumerate(view["hands"]):
        if index != seat and None not in other and strength(other):
            jack = moves.get(f"jack seat {index}")
            if jack is not None:
                return jack, ("jack", index)
    wanted = completing(tuple(hand))
    for action, text in moves:
        if taken(text) in wanted:
            return action, ("take",)
    draw = moves.get("draw")
    return draw or moves.actions[0], ("draw" if draw else "only",)


def discard_one(view: dict[str, Any], moves: Moves, hand: list[int], seat: int) -> int:
    left = unseen_copies(view, seat)
    best, best_value = moves.actions[0], None
    for action, text in moves:
        card = DISCARDS.get(text)
        if card is None:
            continue
        rest = list(hand)
        rest.remove(card)
        value = promise(rest, left)
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


# ---------------------------------------------------------------------------- in words
def words(view: dict[str, Any], moves: Moves, action: int, why: tuple[Any, ...]) -> str:
    seat = view["viewer"]
    hand = view["hands"][seat]
    text = moves.texts[moves.actions.index(action)]
    rule = why[0]
    if rule == "answer":
        if text == "reveal":
            return (f"Show your hand: your {view['combination']} beats every combination "
                    "shown so far.")
        return "Keep your hand hidden: it cannot beat the combination shown."
    if rule == "discard":
        card = int(text.split()[1])
        rest = list(hand)
        rest.remove(card)
        kept = _cards(rest)
        if strength(rest):
            return f"Discard the {card}: the {kept} you keep is a combination."
        outs = round(promise(rest, unseen_copies(view, seat)))
        kept = join([str(n) for n in sorted(rest)])
        return (f"Discard the {card}: the {kept} you keep have the most ways left to become "
                f"a combination ({plural(outs, 'unseen card')} would help).")
    if rule == "discard hand":
        card = int(text.split()[1])
        left = unseen_copies(view, seat).get(card, 0)
        return (f"Discard the {card} first: others are likeliest to want it "
                f"({plural(left, 'copy', 'copies')} unseen), and the last card you discard "
                "stays on top of your pile, where anyone may take it.")
    if rule == "try":
        return (f"Your hand, {view['combination']}, is a combination: call Try! to score it, "
                "unless someone shows a stronger one.")
    if rule == "jack":
        other = why[1]
        return (f"Seat {other}'s cards are all known from the piles, and they make a "
                f"combination ({_cards(view['hands'][other])}): call Jack! on them.")
    if rule == "take":
        parts = text.split()
        owner = int(parts[-1])
        pile = "your own pile" if owner == seat else f"Seat {owner}'s pile"
        return (f"Taking the {parts[1]} from {pile} completes a combination with two of your "
                "cards.")
    if rule == "draw":
        return "No pile's top card completes a combination for you: draw from the deck."
    return f"{capitalise(text)} is the only sensible move here."


def _cards(numbers: list[int]) -> str:
    """"6-7-8": cards in order, as the game writes a combination."""
    return "-".join(str(n) for n in sorted(numbers))
