"""The beginner level: the rules of thumb, played with a beginner's slips and short sight.

A beginner is not a random player. A beginner knows the rules and what a move is for, and
never does what no one who had read the rules would do (each game's list below: `nonsense`);
but a beginner

- slips: on a share of the decisions (`NOISE`, by game), plays another sensible move instead
  of the rules of thumb's;
- looks only at its own next step (a short horizon), where a game's rules of thumb also
  read the other players: in Doors the Collector builds its set openly, blind to what its
  takes tell the Guesser, and the Guesser fears a wrong guess more than the Collector's
  next set, so it hardly ever guesses; in Labyrinth a switch is chosen for one's own walk
  home, ignoring what it does to the opponent's; in Shady Lady it never calls Jack! (it
  does not keep track of the cards others took) and judges a discard as if no card had
  been seen yet.

The share of slips was set per game so that the beginner sits below the casual level by
about the ladder's gap (docs/bots.md, "Levels").

Everything is decided from the seat's observation and legal moves, like the rules of thumb,
so the beginner keeps the no-peeking guarantee (tests/bots/test_levels.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ladytiger.bots.heuristics import Moves, policy_for

# The share of decisions on which the beginner slips to another sensible move, by game: a
# slip costs more in some games than in others (a random sensible Favor bid is costly, a
# random sensible Shady Lady draw much less), and the levels are meant to be evenly spaced.
# Measured against the casual level (one beginner seat, the beginner's share of wins):
# Tighee 3p 19% at 0.45, 16% at 0.8 (fair share 33%, 90 games); Shady Lady 2p 26% at 0.5,
# 23% at 0.8 (120 games). Traps at 0.4, since its rules of thumb bid more boldly: casual
# 263 Elo above the beginner at 2 players, 145-178 at 3-6 (96 games per table).
NOISE = 0.3
GAME_NOISE = {"shady_lady": 0.6, "traps": 0.4, "tighee": 0.8}

Nonsense = Callable[[dict[str, Any], Moves], set[int]]


# ---------------------------------------------------------------------------- Doors
def _doors_chance(named: str, beliefs: dict[int, float]) -> float:
    """How likely the Collector's door is `named` (a door, a colour or a role)."""
    from ladytiger.games.lady_tiger_cards import CARD_NAMES, COLOUR_NAMES, ROLE_NAMES

    if named in CARD_NAMES:
        return beliefs.get(CARD_NAMES.index(named), 0.0)
    if named in COLOUR_NAMES:
        colour = COLOUR_NAMES.index(named)
        return sum(p for door, p in beliefs.items() if door >> 1 == colour)
    role = ROLE_NAMES.index(named)
    return sum(p for door, p in beliefs.items() if door & 1 == role)


def _doors_read(view: dict[str, Any]) -> dict[int, float]:
    """How likely each door is the Collector's, read from the cards it took."""
    from ladytiger.bots.heuristics.doors import counts, door_beliefs
    from ladytiger.games.lady_tiger_cards import IDENTITIES, card_from_name

    own = card_from_name(view["identities"][view["viewer"]])
    return door_beliefs(counts(view["collected"]), [door for door in IDENTITIES if door != own])


def doors_nonsense(view: dict[str, Any], moves: Moves) -> set[int]:
    """Collector: passing up the card that completes your set. Guesser: a blind guess (on
    the Collector's first card, which says next to nothing), a door that is less than 40%
    likely, a colour or role that is less than even (your own door among them: it cannot be
    the Collector's)."""
    from ladytiger.bots.heuristics.doors import completes, counts
    from ladytiger.games.lady_tiger_cards import CARD_NAMES, card_from_name

    seat = view["viewer"]
    if view["phase"] == "collect":
        own = card_from_name(view["identities"][seat])
        collected = counts(view["collected"])
        takes = moves.starting("take ")
        finishing = {action for action, text in takes
                     if completes(card_from_name(text.removeprefix("take ")), collected, own)}
        return {action for action, _ in takes if action not in finishing} if finishing else set()
    guesses = moves.starting("guess ")
    if not guesses:
        return set()
    blind = len(view["collected"]) < 2
    beliefs = _doors_read(view)
    bad = set()
    for action, text in guesses:
        named = text.removeprefix("guess ")
        chance = _doors_chance(named, beliefs)
        if blind or chance < (0.4 if named in CARD_NAMES else 0.5):
            bad.add(action)
    return bad


# What waiting is worth to the beginner's Guesser (the rules of thumb: PATIENCE): a
# beginner is afraid of handing over 4 gems and hardly ever guesses.
TIMID = 4.5


def doors_short_sight(view: dict[str, Any], moves: Moves, rng: random.Random) -> int | None:
    """The Collector builds its set openly, blind to what its takes tell the Guesser; the
    Guesser is timid, afraid of a wrong guess's 4 gems, and waits for near certainty."""
    from ladytiger.bots.heuristics.doors import completes, counts, guess_or_discard, take_value
    from ladytiger.games.lady_tiger_cards import card_from_name

    seat = view["viewer"]
    if view["phase"] != "collect":
        return guess_or_discard(view, moves, seat, patience=TIMID)[0]
    own = card_from_name(view["identities"][seat])
    collected = counts(view["collected"])
    best, best_key = None, None
    for action, text in moves.starting("take "):
        card = card_from_name(text.removeprefix("take "))
        if completes(card, collected, own):
            return action
        key = (take_value(card, collected, own)[0], rng.random())
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


# ---------------------------------------------------------------------------- Favor
def favor_nonsense(view: dict[str, Any], moves: Moves) -> set[int]:
    """Bidding gems on a lot that adds nothing to your collection's score."""
    from ladytiger.bots.heuristics.favor import lot_value

    if view["phase"] == "turn":
        return set()
    if lot_value(view, view["viewer"]) > 0:
        return set()
    return {action for action, _ in moves.starting("bid ")}


# ---------------------------------------------------------------------------- Traps
def traps_nonsense(view: dict[str, Any], moves: Moves) -> set[int]:
    """A bid that needs every face-down card of the other stacks to match the goal (each
    unknown card matches on about 0.45 traits in the rules of thumb's count, so a bid
    needing one a card asks for more than twice the usual luck)."""
    from ladytiger.bots.heuristics.traps import sure_matches
    from ladytiger.games.lady_tiger_cards import card_from_name

    bids = moves.starting("bid ")
    if not bids or view["phase"] not in ("build or bid", "bidding"):
        return set()
    seat = view["viewer"]
    goal = card_from_name(view["goal"])
    unknown = sum(s["face_down"] for i, s in enumerate(view["stacks"]) if i != seat)
    reach = sure_matches(view, goal, seat) + unknown
    return {action for action, text in bids if int(text.removeprefix("bid ")) > reach}


# ---------------------------------------------------------------------------- Shady Lady
def shady_lady_nonsense(view: dict[str, Any], moves: Moves) -> set[int]:
    """Not calling Try! with a combination in hand; Jack! on a player none of whose cards
    you know; a discard that breaks up a combination when another discard keeps one."""
    from ladytiger.bots.heuristics.shady_lady import strength

    seat = view["viewer"]
    phase = view["phase"]
    if phase == "turn":
        tried = moves.get("try")
        if tried is not None:
            return {action for action in moves.actions if action != tried}
        bad = set()
        for action, text in moves.starting("jack "):
            target = _seat_named(text.removeprefix("jack "), view)
            if target is not None and all(card is None for card in view["hands"][target]):
                bad.add(action)
        return bad
    if phase == "discard":
        hand = list(view["hands"][seat])
        keeping = {}
        for action, text in moves.starting("discard "):
            rest = list(hand)
            rest.remove(int(text.split()[1]))
            keeping[action] = bool(strength(rest))
        if any(keeping.values()):
            return {action for action, keeps in keeping.items() if not keeps}
    return set()


def _seat_named(words: str, view: dict[str, Any]) -> int | None:
    """The seat a move names ("seat 2"); None if the words are not a seat's."""
    parts = words.split()
    if len(parts) == 2 and parts[0] == "seat" and parts[1].isdigit():
        seat = int(parts[1])
        return seat if 0 <= seat < len(view["hands"]) else None
    return None


def shady_lady_short_sight(view: dict[str, Any], moves: Moves, rng: random.Random
                           ) -> int | None:
    """Never Jack!; a discard judged as if every copy of every number were still unseen."""
    from ladytiger.bots.heuristics.shady_lady import COPIES, NUMBERS, promise

    seat = view["viewer"]
    if view["phase"] == "turn" and not moves.has("try"):
        jacks = {action for action, _ in moves.starting("jack ")}
        if not jacks:
            return None
        from ladytiger.bots.heuristics.shady_lady import choose as rules

        action = rules(view, moves, rng)
        return moves.get("draw") if action in jacks else action
    if view["phase"] != "discard":
        return None
    everything = dict.fromkeys(NUMBERS, COPIES)
    hand = list(view["hands"][seat])
    best, best_value = None, None
    for action, text in moves.starting("discard "):
        rest = list(hand)
        rest.remove(int(text.split()[1]))
        value = promise(rest, everything)
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


# ---------------------------------------------------------------------------- Tighee
def tighee_nonsense(view: dict[str, Any], moves: Moves) -> set[int]:
    """Last to a trick, holding a multiple of four tricks: taking the trick when a card
    that loses it is in hand (it breaks a count you had made)."""
    from ladytiger.bots.heuristics.tighee import parse, trick_winner

    if view["phase"] != "play":
        return set()
    seat = view["viewer"]
    won = view["tricks_won"][seat]
    trick = [parse(entry["card"]) for entry in view["trick"]]
    if not won or won % 4 or len(trick) != view["options"]["players"] - 1:
        return set()
    forest = parse(view["forest"])[0]
    winning = {action for action, text in moves.starting("play ")
               if trick_winner([*trick, parse(text.removeprefix("play "))], forest)
               == len(trick)}
    return winning if len(winning) < len(moves) else set()


# ---------------------------------------------------------------------------- Labyrinth
def labyrinth_nonsense(view: dict[str, Any], moves: Moves) -> set[int]:
    """Walking a cub away from your Tiger door when another step brings one closer."""
    from ladytiger.bots.heuristics.labyrinth import cell_index, distance

    if view["phase"] != "move a cub":
        return set()
    goal = cell_index(view["goal_doors"][view["viewer"]])
    gains = {}
    for action, text in moves:
        _, _, _, _, start, _, end = text.split()  # move red cub from A1 to B1
        gains[action] = (distance(cell_index(start), goal)
                         - distance(cell_index(end), goal))
    if max(gains.values()) <= 0:
        return set()
    return {action for action, gain in gains.items() if gain < 0}


def labyrinth_short_sight(view: dict[str, Any], moves: Moves, rng: random.Random
                          ) -> int | None:
    """A switch for one's own walk home alone, blind to what it does for the opponent."""
    from ladytiger.bots.heuristics.labyrinth import cell_index, cub_counts, walk

    if view["phase"] != "move the labyrinth":
        return None
    seat = view["viewer"]
    mine = cub_counts(view)[view["seat_colours"][seat]]
    goal = cell_index(view["goal_doors"][seat])
    best, best_key = None, None
    for action, text in moves:
        _, first, second, *_ = text.split()  # switch B1 B4 with Blue/Red
        a, b = cell_index(first), cell_index(second)
        after = mine.copy()
        after[a], after[b] = after[b], after[a]
        key = (-walk(after, goal), rng.random())
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


# ---------------------------------------------------------------------------- Hoard
def hoard_nonsense(view: dict[str, Any], moves: Moves) -> set[int]:
    """A move after which the doors look worse, when a move that does not is on offer."""
    from ladytiger.bots.heuristics.hoard import after, position_of, value

    position = position_of(view)
    now = value(*position)
    worse = {action for action, text in moves if value(*after(position, text)) < now - 1e-9}
    return worse if len(worse) < len(moves) else set()


NONSENSE: dict[str, Nonsense] = {
    "doors": doors_nonsense,
    "favor": favor_nonsense,
    "traps": traps_nonsense,
    "shady_lady": shady_lady_nonsense,
    "tighee": tighee_nonsense,
    "labyrinth": labyrinth_nonsense,
    "hoard": hoard_nonsense,
}
SHORT_SIGHT: dict[str, Callable[[dict[str, Any], Moves, random.Random], int | None]] = {
    "doors": doors_short_sight,
    "labyrinth": labyrinth_short_sight,
    "shady_lady": shady_lady_short_sight,
}


# Which sensible moves a beginner slips into, where not every one. A Doors beginner slips
# only into a careless discard: a guess on a whim ends a contest early, which is often good
# play in Doors, and a random take hides the Collector's door better than building does, so
# those slips made an earlier beginner stronger than the casual level (71% of 96 games).
SLIPS: dict[str, Callable[[str], bool]] = {
    "doors": lambda text: text.startswith("discard "),
}


def nonsense(game: str, view: dict[str, Any], moves: Moves) -> set[int]:
    """The moves on offer that the beginner never plays in `game` (none for an unknown
    game)."""
    rule = NONSENSE.get(game)
    return rule(view, moves) if rule is not None else set()


class BeginnerPolicy:
    """`choose(view, moves, rng)` for one game, as the beginner plays it."""

    def __init__(self, game: str, noise: float | None = None) -> None:
        self.game = game
        self.noise = GAME_NOISE.get(game, NOISE) if noise is None else noise
        self.rules = policy_for(game)
        self.short_sight = SHORT_SIGHT.get(game)

    def __call__(self, view: dict[str, Any], moves: Moves, rng: random.Random) -> int:
        # What is drawn from `rng`, and in which order, depends on the observation alone, so
        # one seed and one observation always give one move (on a resample too).
        slip = rng.random() < self.noise
        pick = rng.random()
        action = None
        if self.short_sight is not None:
            action = self.short_sight(view, moves, rng)
        if action is None:
            action = self.rules(view, moves, rng)
        bad = nonsense(self.game, view, moves)
        sensible = [a for a in moves.actions if a not in bad] or list(moves.actions)
        candidates = sensible
        slips = SLIPS.get(self.game)
        if slip and slips is not None:
            # A slip is a move the beginner might make, not any sensible move at all.
            candidates = [a for a in sensible if slips(moves.texts[moves.actions.index(a)])]
            slip = bool(candidates)
        if action not in sensible:
            slip, candidates = True, sensible
        if slip:
            action = candidates[min(len(candidates) - 1, int(pick * len(candidates)))]
        return action


def beginner_policy(game: str) -> BeginnerPolicy:
    return BeginnerPolicy(game)


__all__ = ["GAME_NOISE", "NOISE", "NONSENSE", "BeginnerPolicy", "beginner_policy", "nonsense"]
