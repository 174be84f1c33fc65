"""Hoard as a fixed-size tensor: the square of doors, the cards seen and the piles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from ladytiger.core import Game, State
from ladytiger.games.hoard import (
    DEAL_ORDER,
    GAME_OVER,
    GEM_TOTAL,
    PLACE_GEMS,
    REVEAL_CARD,
    ROUNDS,
    SET_ASIDE_CARDS,
    TAKE_ACTION,
    HoardState,
)
from ladytiger.games.lady_tiger_cards import CARD_NAMES, CLUE_COUNTS
from ladytiger.rl.encoders import Encoder
from ladytiger.rl.encoders.marks import Tensor, counts_at, counts_into, offsets, one_at, one_hot

PHASES: Final = (PLACE_GEMS, SET_ASIDE_CARDS, REVEAL_CARD, TAKE_ACTION, GAME_OVER)
_PHASE: Final = {phase: index for index, phase in enumerate(PHASES)}
DIFFICULTIES: Final = ("easy", "moderate", "hard", "impossible")
DOORS: Final = ("Red Lady", "Blue Lady", "Red Tiger", "Blue Tiger")
GEMS: Final = ("red", "blue", "white", "black")
KINDS: Final = len(CLUE_COUNTS)
_CARD: Final = {name: index for index, name in enumerate(CARD_NAMES)}

PIECES: Final = (
    ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
    ("difficulty", (4,), "one-hot difficulty: " + ", ".join(DIFFICULTIES)),
    ("round", (3,), "one-hot round"),
    ("doors", (4, 4), "gems on each door (Red Lady, Blue Lady, Red Tiger, Blue Tiger) "
                      "by colour (red, blue, white, black) / 5"),
    ("revealed", (KINDS,), "the card revealed this turn, one-hot by kind"),
    ("deck", (1,), "cards left in this round's deck / 14"),
    ("played", (KINDS,), "cards played this round per kind / copies"),
    ("unseen", (KINDS,), "cards not yet seen per kind / copies"),
    ("face_down", (1,), "face-down set-aside cards not yet identified / 3"),
    ("set_aside", (KINDS,), "face-up set-aside cards per kind / copies"),
    ("round_markers", (KINDS,), "cards under the round markers per kind / copies"),
    ("removed", (2,), "removed white and black Trash / 5"),
    ("collected", (2,), "collected red and blue Treasure / 5"),
    ("gems_to_place", (1,), "gems still to deal at setup / 20"),
    ("won", (1,), "1 once all ten Treasures are collected"),
)
_AT: Final = offsets(PIECES)
# The doors of the layout, in the tensor's order, as the engine numbers them.
assert tuple(CARD_NAMES[door] for door in DEAL_ORDER) == DOORS


def fill(observation: dict[str, Any], out: dict[str, np.ndarray]) -> None:
    one_hot(out["phase"], PHASES.index(observation["phase"]))
    one_hot(out["difficulty"], DIFFICULTIES.index(observation["difficulty"]))
    one_hot(out["round"], min(observation["round"], 3) - 1)
    for d, door in enumerate(DOORS):
        for g, gem in enumerate(GEMS):
            out["doors"][d, g] = observation["doors"][door][gem] / 5
    revealed = observation["revealed"]
    one_hot(out["revealed"], None if revealed is None else _CARD[revealed])
    out["deck"][0] = observation["deck"] / 14
    counts_into(out["played"], observation["played"], _CARD, CLUE_COUNTS)
    counts_into(out["unseen"], observation["still_unseen"], _CARD, CLUE_COUNTS)
    out["face_down"][0] = observation["face_down"] / 3
    counts_into(out["set_aside"], observation["set_aside"], _CARD, CLUE_COUNTS)
    counts_into(out["round_markers"], observation["round_markers"], _CARD, CLUE_COUNTS)
    out["removed"][:] = [observation["removed"]["white"] / 5,
                         observation["removed"]["black"] / 5]
    out["collected"][:] = [observation["collected"]["red"] / 5,
                           observation["collected"]["blue"] / 5]
    out["gems_to_place"][0] = observation["gems_to_place"] / 20
    out["won"][0] = float(observation["won"])


def _kinds(cards: Sequence[int]) -> list[int]:
    tally = [0] * KINDS
    for card in cards:
        tally[card] += 1
    return tally


# The offsets as plain ints: a dictionary lookup on each write is most of a write's cost.
_AT_COLLECTED: Final = _AT["collected"]
_AT_DECK: Final = _AT["deck"]
_AT_DIFFICULTY: Final = _AT["difficulty"]
_AT_DOORS: Final = _AT["doors"]
_AT_FACE_DOWN: Final = _AT["face_down"]
_AT_GEMS_TO_PLACE: Final = _AT["gems_to_place"]
_AT_PHASE: Final = _AT["phase"]
_AT_PLAYED: Final = _AT["played"]
_AT_REMOVED: Final = _AT["removed"]
_AT_REVEALED: Final = _AT["revealed"]
_AT_ROUND: Final = _AT["round"]
_AT_ROUND_MARKERS: Final = _AT["round_markers"]
_AT_SET_ASIDE: Final = _AT["set_aside"]
_AT_UNSEEN: Final = _AT["unseen"]
_AT_WON: Final = _AT["won"]


def fast(state: State, viewer: int | None, t: Tensor) -> bool:
    if type(state) is not HoardState:
        return False
    one_at(t, _AT_PHASE + _PHASE[state.phase])
    one_at(t, _AT_DIFFICULTY + DIFFICULTIES.index(state.difficulty))
    one_at(t, _AT_ROUND + min(min(len(state.markers) + 1, ROUNDS), 3) - 1)
    gems = state.gems
    start = _AT_DOORS
    for d, door in enumerate(DEAL_ORDER):
        for g in range(4):
            count = gems[door * 4 + g]
            if count:
                t[start + 4 * d + g] = count / 5
    if state.revealed is not None:
        one_at(t, _AT_REVEALED + state.revealed)
    t[_AT_DECK] = state.deck_size / 14
    counts_at(t, _AT_PLAYED, _kinds(state.played), CLUE_COUNTS)
    counts_at(t, _AT_UNSEEN, state.unseen, CLUE_COUNTS)
    counts_at(t, _AT_SET_ASIDE, state.set_aside, CLUE_COUNTS)
    counts_at(t, _AT_ROUND_MARKERS, _kinds(state.markers), CLUE_COUNTS)
    # The tensor starts at zero, so only counts above zero are written.
    if state.face_down:
        t[_AT_FACE_DOWN] = state.face_down / 3
    removed, collected = state.removed, state.collected
    if removed[0]:
        t[_AT_REMOVED] = removed[0] / 5
    if removed[1]:
        t[_AT_REMOVED + 1] = removed[1] / 5
    if collected[0]:
        t[_AT_COLLECTED] = collected[0] / 5
    if collected[1]:
        t[_AT_COLLECTED + 1] = collected[1] / 5
    if state.placed < GEM_TOTAL:
        t[_AT_GEMS_TO_PLACE] = (GEM_TOTAL - state.placed) / 20
    if state.won:
        one_at(t, _AT_WON)
    return True


def make_encoder(game: Game) -> Encoder:
    return Encoder(game="hoard", pieces=PIECES, fill=fill, fast=fast)
