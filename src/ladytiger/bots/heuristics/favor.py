"""Favor rules of thumb.

Value every lot by what it adds to your own collection's score for your identity (wilds
counted at their best use), and count a gem as a bit less than a point, since gems are both
money and the 3-point bonus for most gems. Bid one over the high bid while the lot is still
worth more than the gems; as the caller, let a rival buy a lot you do not need, since the
gems come to you; call the auction on a lot you want or on a big lot the others will pay
for, and otherwise add a card.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from ladytiger.bots.heuristics import Moves
from ladytiger.games.lady_tiger_cards import BLUE_RED, LADY_TIGER, card_from_name

GEM_VALUE = 0.7  # points a gem is worth at the end of the day
MARGIN = 0.5  # a lot must beat its price by this much
BIG_LOT = 3  # a lot this size is worth calling for the gems it brings


def card_points(card: int, door: int) -> int:
    shared = int(card >> 1 == door >> 1) + int(card & 1 == door & 1)
    return (-2, 1, 3)[shared]


def collection_points(cards: list[int], door: int) -> int:
    """A collection's points for `door`, each wild used where it scores most."""
    regular = [card for card in cards if card < 4]
    base = sum(card_points(card, door) for card in regular)
    if not regular:
        return base
    colour_wild = BLUE_RED in cards
    role_wild = LADY_TIGER in cards
    best = base
    targets = range(len(regular))
    for colour_on, role_on in itertools.product(
        [None, *targets] if colour_wild else [None], [None, *targets] if role_wild else [None]
    ):
        total = base
        for index in {colour_on, role_on} - {None}:
            card = regular[index]
            if index == colour_on:
                card ^= 2  # the other colour
            if index == role_on:
                card ^= 1  # the other role
            total += card_points(card, door) - card_points(regular[index], door)
        best = max(best, total)
    return best


def lot_value(view: dict[str, Any], seat: int) -> float:
    door = card_from_name(view["identities"][seat])
    mine = [card_from_name(name) for name in view["collections"][seat]]
    lot = [card_from_name(name) for name in view["lot"]]
    return collection_points(mine + lot, door) - collection_points(mine, door)


def choose(view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
    seat = view["viewer"]
    value = lot_value(view, seat)
    if moves.has("call auction"):
        if value >= 2 or len(view["lot"]) >= BIG_LOT or not moves.has("add to lot"):
            return moves.by_text["call auction"]
        return moves.by_text["add to lot"]
    auction = view["auction"]
    high = auction["high_bid"]
    caller = auction["caller"]
    i_called = caller == seat and not auction["final"]
    price = high + 1
    bid = moves.get(f"bid {price}")
    if bid is None:
        return moves.by_text["pass"]
    if i_called:
        # Passing lets the high bidder pay us; winning pays our own bid to the others.
        worth_buying = value - price * GEM_VALUE * 0.5 - MARGIN
        worth_passing = high * GEM_VALUE
        return bid if worth_buying > worth_passing else moves.by_text["pass"]
    if value - price * GEM_VALUE - MARGIN > 0:
        return bid
    return moves.by_text["pass"]
