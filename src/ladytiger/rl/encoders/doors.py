"""Doors as a fixed-size tensor, seen from the viewer's chair (the viewer's seat first)."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from ladytiger.core import Game, State
from ladytiger.games.doors import GAME_OVER, DoorsState
from ladytiger.games.lady_tiger_cards import CARD_NAMES, CLUE_COUNTS
from ladytiger.rl.encoders import Encoder
from ladytiger.rl.encoders.marks import (
    Tensor,
    counts_at,
    counts_into,
    mark_common,
    offsets,
    one_at,
    one_hot,
    seat_order,
)

PHASES: Final = ("choose first collector", "deal identities", "refill display", "collect",
                 "discard", "declare", "game over")
_PHASE: Final = {phase: index for index, phase in enumerate(PHASES)}
_CARD: Final = {name: index for index, name in enumerate(CARD_NAMES)}
KINDS: Final = len(CLUE_COUNTS)

PIECES: Final = (
    ("is_seat", (1,), "1 if the viewer holds a seat (0 for a spectator)"),
    ("to_move", (2,), "who moves, viewer first (all 0 at chance and at the end)"),
    ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
    ("collector", (2,), "who is the Collector, viewer first"),
    ("gems", (2,), "gems / gems_to_win (capped at 1), viewer first"),
    ("own_identity", (4,), "the viewer's door: Red Lady, Red Tiger, Blue Lady, Blue Tiger"),
    ("revealed_opponent", (4,), "the opponent's door once shown at the end, same order"),
    ("display", (KINDS,), "display cards per kind / copies of that kind (kinds in card order)"),
    ("collected", (KINDS,), "the Collector's cards per kind / copies"),
    ("discarded", (KINDS,), "discarded cards per kind / copies"),
    ("deck", (1,), "cards left in the deck / 14"),
)
_AT: Final = offsets(PIECES)


def fill(observation: dict[str, Any], out: dict[str, np.ndarray]) -> None:
    viewer = observation["viewer"]
    seats = seat_order(viewer, 2)
    target = observation["gems_to_win"]
    one_hot(out["is_seat"], None if viewer is None else 0)
    turn = observation["current_player"]
    one_hot(out["to_move"], seats.index(turn) if turn in seats else None)
    one_hot(out["phase"], PHASES.index(observation["phase"]))
    one_hot(out["collector"], seats.index(observation["collector"]))
    for k, seat in enumerate(seats):
        out["gems"][k] = min(observation["scores"][seat], target) / target
    own = observation["identities"][viewer] if viewer is not None else None
    one_hot(out["own_identity"], None if own is None else _CARD[own])
    other = observation["identities"][seats[1]]
    one_hot(out["revealed_opponent"], None if other is None else _CARD[other])
    counts_into(out["display"], observation["display"], _CARD, CLUE_COUNTS)
    counts_into(out["collected"], observation["collected"], _CARD, CLUE_COUNTS)
    counts_into(out["discarded"], observation["discarded"], _CARD, CLUE_COUNTS)
    out["deck"][0] = observation["deck"] / 14


# The offsets as plain ints: a dictionary lookup on each write is most of a write's cost.
_AT_COLLECTED: Final = _AT["collected"]
_AT_COLLECTOR: Final = _AT["collector"]
_AT_DECK: Final = _AT["deck"]
_AT_DISCARDED: Final = _AT["discarded"]
_AT_DISPLAY: Final = _AT["display"]
_AT_GEMS: Final = _AT["gems"]
_AT_OWN_IDENTITY: Final = _AT["own_identity"]
_AT_REVEALED_OPPONENT: Final = _AT["revealed_opponent"]


def fast(state: State, viewer: int | None, t: Tensor) -> bool:
    if type(state) is not DoorsState:
        return False
    first = mark_common(t, _AT, state, viewer, 2, _PHASE[state.phase])
    one_at(t, _AT_COLLECTOR + (state.collector != first))
    target = state.target
    gems = state.gems
    t[_AT_GEMS] = min(gems[first], target) / target
    t[_AT_GEMS + 1] = min(gems[1 - first], target) / target
    identity = state.identity
    own = None if viewer is None else identity[viewer]
    if own is not None:
        one_at(t, _AT_OWN_IDENTITY + own)
    theirs = identity[1 - first]
    if state.phase == GAME_OVER and theirs is not None:
        one_at(t, _AT_REVEALED_OPPONENT + theirs)
    counts_at(t, _AT_DISPLAY, state.display, CLUE_COUNTS)
    counts_at(t, _AT_COLLECTED, state.collected, CLUE_COUNTS)
    counts_at(t, _AT_DISCARDED, state.discarded, CLUE_COUNTS)
    t[_AT_DECK] = state.deck / 14
    return True


def make_encoder(game: Game) -> Encoder:
    return Encoder(game="doors", pieces=PIECES, fill=fill, fast=fast)
