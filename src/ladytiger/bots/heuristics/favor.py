"""Favor rules of thumb.

Value every lot by what it adds to your own collection's score for your identity (wilds
counted at their best use), and count a gem as a bit less than a point, since gems are both
money and the 3-point bonus for most gems. Bid one over the high bid while the lot is still
worth more than the gems; as the caller, let a rival buy a lot you do not need, since the
gems come to you; call the auction on a lot you want or on a big lot the others will pay
for, and otherwise add a card.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

from ladytiger.bots.heuristics import Moves
from ladytiger.core.words import plural
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


@functools.cache
def known_points(names: tuple[str, ...], door: int) -> int:
    """`collection_points` of a collection given by its card names in sorted order. The
    deck's 14 cards make only about a thousand different collections, so each is scored
    once and after that looked up."""
    return collection_points([card_from_name(name) for name in names], door)


def lot_value(view: dict[str, Any], seat: int) -> float:
    door = card_from_name(view["identities"][seat])
    mine = view["collections"][seat]
    # Sorted, a collection has one name whatever order its cards came in.
    with_lot = tuple(sorted(mine + view["lot"]))
    return known_points(with_lot, door) - known_points(tuple(sorted(mine)), door)


def choose(view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
    return decide(view, moves)[0]


def explain(view: dict[str, Any], moves: Moves, rng: random.Random) -> tuple[int, str]:
    """The move these rules choose, and the rule that chose it in a player's words."""
    action, why = decide(view, moves)
    return action, words(view, why)


def decide(view: dict[str, Any], moves: Moves) -> tuple[int, tuple[Any, ...]]:
    """The move, and what settled it (read by `words`; playouts never ask for the words)."""
    seat = view["viewer"]
    value = lot_value(view, seat)
    if moves.has("call auction"):
        if value >= 2:
            return moves.by_text["call auction"], ("call wanted", value)
        if len(view["lot"]) >= BIG_LOT:
            return moves.by_text["call auction"], ("call big", value)
        if not moves.has("add to lot"):
            return moves.by_text["call auction"], ("call forced", value)
        return moves.by_text["add to lot"], ("add", value)
    auction = view["auction"]
    high = auction["high_bid"]
    caller = auction["caller"]
    i_called = caller == seat and not auction["final"]
    price = high + 1
    bid = moves.get(f"bid {price}")
    if bid is None:
        return moves.by_text["pass"], ("broke", value, price)
    if i_called:
        # Passing lets the high bidder pay us; winning pays our own bid to the others.
        worth_buying = value - price * GEM_VALUE * 0.5 - MARGIN
        worth_passing = high * GEM_VALUE
        if worth_buying > worth_passing:
            return bid, ("caller buys", value, price)
        return moves.by_text["pass"], ("caller sells", value, high)
    if value - price * GEM_VALUE - MARGIN > 0:
        return bid, ("bid", value, price)
    return moves.by_text["pass"], ("pass", value, price)


def words(view: dict[str, Any], why: tuple[Any, ...]) -> str:
    seat = view["viewer"]
    rule, value = why[0], why[1]
    lot = _lot_worth(value, view["identities"][seat])
    if rule == "call wanted":
        return f"Call the auction: {lot}, so it is worth buying now."
    if rule == "call big":
        return (f"Call the auction: a lot of {len(view['lot'])} cards draws high bids, and "
                "whoever else buys it pays the gems to you.")
    if rule == "call forced":
        return f"The deck is empty, so the lot must be auctioned now ({lot})."
    if rule == "add":
        return (f"Add a card: {lot}, not enough to buy, and a bigger lot fetches more gems "
                "when someone else buys it.")
    if rule == "broke":
        return f"Pass: you have too few gems to bid {why[2]}."
    if rule == "caller buys":
        return (f"Bid {why[2]}: {lot}, and as the caller your bid goes to the other players, "
                "not out of the game.")
    if rule == "caller sells":
        high = why[2]
        if high:
            return (f"Pass: {lot}, and as the caller you receive the high bid of "
                    f"{plural(high, 'gem')}.")
        return f"Pass: {lot}, not worth buying."
    gem = f"to you a gem is worth about {GEM_VALUE:g} of a point"
    if rule == "bid":
        return f"Bid {why[2]}: {lot}, more than the gems cost ({gem})."
    if round(value) <= 0:
        return f"Pass: {lot}."
    return (f"Pass: {lot}, too little for {plural(why[2], 'gem')} ({gem}, and holding the "
            "most gems at the end scores 3).")


def _lot_worth(value: float, identity: str) -> str:
    """What the lot does to the seat's collection, as a player would say it."""
    points = round(value)
    if points > 0:
        return f"the lot adds {plural(points, 'point')} to your collection as the {identity}"
    if points < 0:
        return (f"the lot would cost your collection {plural(-points, 'point')} as the "
                f"{identity}")
    return f"the lot adds nothing to your collection as the {identity}"
