"""Hoard as a fixed-size tensor: the square of doors, the cards seen and the piles."""

from __future__ import annotations

from typing import Any

import numpy as np

from ladytiger.core import Game
from ladytiger.games.hoard import (
    GAME_OVER,
    PLACE_GEMS,
    REVEAL_CARD,
    SET_ASIDE_CARDS,
    TAKE_ACTION,
)
from ladytiger.games.lady_tiger_cards import CARD_NAMES, CLUE_COUNTS
from ladytiger.rl.encoders import Encoder, one_hot

PHASES = (PLACE_GEMS, SET_ASIDE_CARDS, REVEAL_CARD, TAKE_ACTION, GAME_OVER)
DIFFICULTIES = ("easy", "moderate", "hard", "impossible")
DOORS = ("Red Lady", "Blue Lady", "Red Tiger", "Blue Tiger")
GEMS = ("red", "blue", "white", "black")
_CARD = {name: index for index, name in enumerate(CARD_NAMES)}


def _counts(view: np.ndarray, cards: list[str]) -> None:
    for name in cards:
        view[_CARD[name]] += 1.0 / CLUE_COUNTS[_CARD[name]]


def make_encoder(game: Game) -> Encoder:
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
        _counts(out["played"], observation["played"])
        _counts(out["unseen"], observation["still_unseen"])
        out["face_down"][0] = observation["face_down"] / 3
        _counts(out["set_aside"], observation["set_aside"])
        _counts(out["round_markers"], observation["round_markers"])
        out["removed"][:] = [observation["removed"]["white"] / 5,
                             observation["removed"]["black"] / 5]
        out["collected"][:] = [observation["collected"]["red"] / 5,
                               observation["collected"]["blue"] / 5]
        out["gems_to_place"][0] = observation["gems_to_place"] / 20
        out["won"][0] = float(observation["won"])

    return Encoder(
        game="hoard",
        pieces=(
            ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
            ("difficulty", (4,), "one-hot difficulty: " + ", ".join(DIFFICULTIES)),
            ("round", (3,), "one-hot round"),
            ("doors", (4, 4), "gems on each door (Red Lady, Blue Lady, Red Tiger, Blue Tiger) "
                              "by colour (red, blue, white, black) / 5"),
            ("revealed", (6,), "the card revealed this turn, one-hot by kind"),
            ("deck", (1,), "cards left in this round's deck / 14"),
            ("played", (6,), "cards played this round per kind / copies"),
            ("unseen", (6,), "cards not yet seen per kind / copies"),
            ("face_down", (1,), "face-down set-aside cards not yet identified / 3"),
            ("set_aside", (6,), "face-up set-aside cards per kind / copies"),
            ("round_markers", (6,), "cards under the round markers per kind / copies"),
            ("removed", (2,), "removed white and black Trash / 5"),
            ("collected", (2,), "collected red and blue Treasure / 5"),
            ("gems_to_place", (1,), "gems still to deal at setup / 20"),
            ("won", (1,), "1 once all ten Treasures are collected"),
        ),
        fill=fill,
    )
