"""Doors as a fixed-size tensor, seen from the viewer's chair (the viewer's seat first)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ladytiger.core import Game
from ladytiger.games.lady_tiger_cards import CARD_NAMES, CLUE_COUNTS
from ladytiger.rl.encoders import Encoder, one_hot, seat_order

PHASES = ("choose first collector", "deal identities", "refill display", "collect", "discard",
          "declare", "game over")
_CARD = {name: index for index, name in enumerate(CARD_NAMES)}


def _counts(view: np.ndarray, cards: list[str]) -> None:
    for name in cards:
        view[_CARD[name]] += 1.0 / CLUE_COUNTS[_CARD[name]]


def make_encoder(game: Game) -> Encoder:
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
        _counts(out["display"], observation["display"])
        _counts(out["collected"], observation["collected"])
        _counts(out["discarded"], observation["discarded"])
        out["deck"][0] = observation["deck"] / 14

    return Encoder(
        game="doors",
        pieces=(
            ("is_seat", (1,), "1 if the viewer holds a seat (0 for a spectator)"),
            ("to_move", (2,), "who moves, viewer first (all 0 at chance and at the end)"),
            ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
            ("collector", (2,), "who is the Collector, viewer first"),
            ("gems", (2,), "gems / gems_to_win (capped at 1), viewer first"),
            ("own_identity", (4,), "the viewer's door: Red Lady, Red Tiger, Blue Lady, Blue Tiger"),
            ("revealed_opponent", (4,), "the opponent's door once shown at the end, same order"),
            ("display", (6,), "display cards per kind / copies of that kind (kinds in card order)"),
            ("collected", (6,), "the Collector's cards per kind / copies"),
            ("discarded", (6,), "discarded cards per kind / copies"),
            ("deck", (1,), "cards left in the deck / 14"),
        ),
        fill=fill,
    )
