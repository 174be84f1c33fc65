"""Tighee rules of thumb.

Aim at a multiple of four tricks: 4 at first; once past 4, 8 if enough tricks remain; when
the next multiple is out of reach, win nothing more (every extra trick costs 10). Lose
tricks until the tricks still needed are a fair share of those left, counting every spare
trick (beyond what the table needs for its multiples of four) twice; then play the card
that takes the trick as it stands (the last player knows for sure). When losing, shed the
highest card that surely loses (low cards are what keep a made count from growing later);
with none, a follower that the players still to come may beat; if every card takes the
trick, take it with the highest. Put out the middling numbers and keep the extremes, which
give the most control over winning and losing.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from ladytiger.bots.heuristics import Moves
from ladytiger.core.words import plural
from ladytiger.games.tighee import CARD_NAMES

BLACK = "Black"
# A round pays at most 169 (a Tighee of 12); a Tighee of 8 (100) is the swing that decides
# most rounds. A search may judge a move by the round's points alone
# (ladytiger.bots.ismcts, horizon "round").
ROUND_POINTS = 100
# How the search suits Tighee (ladytiger.bots.ismcts takes these as its defaults here):
# random playouts, and with no rules of thumb to model them, opponents searched. A playout
# by these rules costs four to six random ones, and a round's tricks turn on cards nobody
# can see yet, so more playouts judge a move better than wiser ones. Measured at 0.2 s a
# move, 3 players: against two of OpenSpiel's IS-MCTS seats the random-playout search won
# 74% of its 80 duels (66% in a first run), the rules-of-thumb one 52%; at one table with
# one of each and a casual seat (36 games, seats rotated) it won 40%, the other 36%,
# casual 24%.
SEARCH_DEFAULTS = {"rollout": "random"}


# The deck has 60 cards, named over and over in views and moves: each name is read once.
@cache
def parse(name: str) -> tuple[str, int]:
    colour, number = name.rsplit(" ", 1)
    return colour, int(number)


# The card each move plays.
PLAYS = {f"play {name}": parse(name) for name in CARD_NAMES}


def counted_colour(colour: str, forest: str) -> str:
    """A played Black card takes the Forest card's colour (it stays Black under Black)."""
    return forest if colour == BLACK else colour


def trick_winner(cards: list[tuple[str, int]], forest: str) -> int:
    """Index of the winning card among `cards` (in play order), by the trick rules."""
    colours = [counted_colour(colour, forest) for colour, _ in cards]
    follow = colours[0]
    if all(colour == follow for colour in colours):
        best = max(number for _, number in cards)
        return max(i for i, (_, n) in enumerate(cards) if n == best)
    off = [(n, i) for i, ((_, n), colour) in enumerate(zip(cards, colours, strict=True))
           if colour != follow]
    lowest = min(n for n, _ in off)
    return max(i for n, i in off if n == lowest)


NO_LIMIT = 99  # above every number


def winning_numbers(trick: list[tuple[str, int]], forest: str) -> tuple[int, int]:
    """What a card played now needs to take the trick as it stands (as `trick_winner`
    judges it): a follower at least the first number, a card off the colour to follow at
    most the second. While everyone follows, the highest number wins, and any card off the
    colour beats them all; once a card is off the colour, the lowest number off the colour
    wins, and no follower can. Of equal numbers the later card wins."""
    if not trick:
        return 0, NO_LIMIT
    follow = counted_colour(trick[0][0], forest)
    off = [number for colour, number in trick if counted_colour(colour, forest) != follow]
    if off:
        return NO_LIMIT, min(off)
    return max(number for _, number in trick), NO_LIMIT


def aim(won: int, remaining: int) -> int | None:
    """The multiple of four to play for, or None to lose every trick from now on."""
    if won == 0:
        return 4 if remaining >= 4 else 0
    target = -(-won // 4) * 4
    if target - won > remaining:
        return None
    return target


def spare_tricks(tricks_won: list[int], remaining: int) -> int:
    """The tricks left beyond those every player still needs for their multiple of four
    (`aim`): somebody will take them without wanting them."""
    needed = 0
    for won in tricks_won:
        target = aim(won, remaining)
        needed += 0 if target is None else target - won
    return max(0, remaining - needed)


def choose(view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
    return decide(view, moves)[0]


def explain(view: dict[str, Any], moves: Moves, rng: random.Random) -> tuple[int, str]:
    """The move these rules choose, and the rule that chose it in a player's words."""
    action, why = decide(view, moves)
    return action, words(view, moves, action, why)


def decide(view: dict[str, Any], moves: Moves) -> tuple[int, tuple[Any, ...]]:
    """The move, and what settled it (read by `words`; playouts never ask for the words)."""
    seat = view["viewer"]
    if view["phase"] == "put out":
        return put_out(moves), ("put out",)
    forest = parse(view["forest"])[0]
    trick = [parse(entry["card"]) for entry in view["trick"]]
    won = view["tricks_won"][seat]
    remaining = view["tricks_per_round"] - sum(view["tricks_won"])
    target = aim(won, remaining)
    # Pace the tricks: take them only once the ones still needed are a fair share of what
    # is left, since tricks taken early are hard to stop later. Spare tricks (more left than
    # the table needs, as at three players with the full deck: 15 tricks for 12) go to
    # whoever stops ducking first, so count each as one more trick left and wait longer.
    players = view["options"]["players"]
    want = (target is not None and won < target
            and (target - won) * players
            >= remaining + spare_tricks(view["tricks_won"], remaining))
    last = len(trick) == players - 1
    follow = counted_colour(trick[0][0], forest) if trick else None
    follower_from, off_up_to = winning_numbers(trick, forest)
    best, best_key = moves.actions[0], None
    best_wins = False
    key: tuple[int, int, int]
    for action, text in moves:
        card = PLAYS.get(text)
        if card is None:
            continue
        colour, number = card
        follows = not trick or counted_colour(colour, forest) == follow
        wins = number >= follower_from if follows else number <= off_up_to
        if want:
            # Strongest winner: a high follower, or a low card off the colour to follow.
            margin = number if follows else 20 - number
            key = (wins, 0, margin if wins else -number)
        else:
            key = loser_key(colour, number, follows, wins, bool(trick), last)
        if best_key is None or key > best_key:
            best, best_key, best_wins = action, key, wins
    return best, ("play", target, want, best_wins, last)


def loser_key(colour: str, number: int, follows: bool, wins: bool, started: bool,
              last: bool) -> tuple[int, int, int]:
    """How good a card is for losing the trick: the larger, the better.

    Once a card is played to a trick, a card that does not take the trick as it stands
    never will (later cards only raise the followers' best or lower the best card off the
    colour). Of those sure losers shed the highest: high cards are the ones that would take
    tricks later, when your count is made, and the low ones are kept to duck with then (a
    Black card is kept for its flexibility). With no sure loser, and players still to come,
    play what they are likeliest to beat: a follower (any card off the colour beats it, or a
    higher follower; a card off the colour falls only to a lower one off the colour, and
    most players can follow), the lowest follower or else the highest card off the colour.
    Last to play with no loser, take the trick with the highest card, the one you would
    least like to keep. Leading, play the lowest card."""
    if not started:
        return 0, 0, -number
    if not wins:
        return 3, colour != BLACK, number
    if last:
        return 1, colour != BLACK, number
    return 2, follows, -number if follows else number


def spare(colour: str, number: int) -> tuple[bool, float]:
    """How readily a card is put out: the larger, the sooner."""
    # Black cards are flexible (they take the Forest colour): keep them.
    return colour != BLACK, -abs(number - 6.5)


# Each put-out move, with how readily its card is put out (`spare`).
PUT_OUT_FIRST = {f"put out {name}": spare(*parse(name)) for name in CARD_NAMES}


def put_out(moves: Moves) -> int:
    return max([(PUT_OUT_FIRST[text], action) for action, text in moves
                if text in PUT_OUT_FIRST])[1]


# ---------------------------------------------------------------------------- in words
def words(view: dict[str, Any], moves: Moves, action: int, why: tuple[Any, ...]) -> str:
    text = moves.texts[moves.actions.index(action)]
    if why[0] == "put out":
        card = text.removeprefix("put out ")
        return (f"Put out the {card}: middling numbers give the least control over winning "
                "or losing tricks, so keep your Black cards and your highest and lowest.")
    _, target, want, wins, last = why
    seat = view["viewer"]
    won = view["tricks_won"][seat]
    remaining = view["tricks_per_round"] - sum(view["tricks_won"])
    card = text.removeprefix("play ")
    surely = "" if last else " as it stands"
    tricks = plural(won, "trick") if won else "none yet"
    if want:
        if wins:
            return (f"You aim at {target} tricks and have {tricks}: the {card} takes this "
                    f"trick{surely}.")
        return (f"You aim at {target} tricks and have {tricks}, but no card of yours takes "
                f"this trick: the {card} spends the least.")
    if not view["trick"]:
        how = (f"Lead your lowest card, the {card}: any higher follower or any card off its "
               "colour beats it.")
    elif not wins:
        how = (f"The {card} surely loses, the highest card that does (Black cards aside): "
               "shed high cards while you can and keep the low ones to duck with later.")
    elif last:
        return (f"Every card you may play takes this trick: take it with the {card}, the card "
                "you would least like to keep.")
    else:
        return (f"Every card you may play takes this trick as it stands: the {card} is the "
                "likeliest to be beaten by the players still to come.")
    if target is None:
        return (f"With {plural(won, 'trick')} won, the next multiple of four is out of "
                f"reach: win nothing more (each extra trick costs 10). {how}")
    if target == 0:
        return f"Too few tricks are left to reach 4: win none. {how}"
    if won >= target:
        return f"You have {tricks}, a multiple of four: lose from now on. {how}"
    extra = spare_tricks(view["tricks_won"], remaining)
    if extra:
        return (f"You aim at {target} tricks and have {tricks}, with {remaining} left, "
                f"{extra} more than the table needs: no hurry, those go to whoever stops "
                f"ducking first. {how}")
    return (f"You aim at {target} tricks and have {tricks}, with {remaining} left: no hurry, "
            f"since tricks taken early are hard to stop later. {how}")
