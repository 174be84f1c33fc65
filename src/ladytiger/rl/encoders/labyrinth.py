"""Labyrinth as a fixed-size tensor: the 4x4 grid in reading order (A1, B1, ... D4)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ladytiger.core import Game
from ladytiger.games.labyrinth import BUILD, GAME_OVER, MOVE_A_CUB, MOVE_THE_LABYRINTH
from ladytiger.games.lady_tiger_cards import CARD_NAMES
from ladytiger.rl.encoders import Encoder, one_hot

CELLS = 16
PHASES = (BUILD, MOVE_A_CUB, MOVE_THE_LABYRINTH, GAME_OVER)
_CARD = {name: index for index, name in enumerate(CARD_NAMES)}


def make_encoder(game: Game) -> Encoder:
    def fill(observation: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        viewer = observation["viewer"]
        one_hot(out["viewer_colour"], viewer)
        turn = observation["current_player"]
        one_hot(out["to_move"], turn if turn in (0, 1) else None)
        one_hot(out["phase"], PHASES.index(observation["phase"]))
        names = []
        for index, cell in enumerate(c for row in observation["grid"] for c in row):
            names.append(cell["cell"])
            if cell["card"] is not None:
                one_hot(out["cards"][index], _CARD[cell["card"]])
            out["doors"][index] = float(cell["door"])
            out["red_cubs"][index] = cell["cubs"]["red"] / 5
            out["blue_cubs"][index] = cell["cubs"]["blue"] / 5
        out["switches"][0] = float(observation["switches"]["Blue/Red"] == "Blue")
        out["switches"][1] = float(observation["switches"]["Lady/Tiger"] == "Lady")
        out["progress"][0] = observation["turns_played"] / observation["turn_cap"]
        moved = observation["cub_moved"]
        if moved:
            one_hot(out["moved_from"], names.index(moved["from"]))
            one_hot(out["moved_to"], names.index(moved["to"]))

    return Encoder(
        game="labyrinth",
        pieces=(
            ("viewer_colour", (2,), "the viewer's colour: red (seat 0), blue (seat 1)"),
            ("to_move", (2,), "who moves: red, blue (0 at chance and at the end)"),
            ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
            ("cards", (CELLS, 4), "each cell's card: Red Lady, Red Tiger, Blue Lady, Blue Tiger"),
            ("doors", (CELLS,), "1 where the cell holds a Door card"),
            ("red_cubs", (CELLS,), "red cubs on each cell / 5"),
            ("blue_cubs", (CELLS,), "blue cubs on each cell / 5"),
            ("switches", (2,), "yellow gem on Blue, white gem on Lady"),
            ("progress", (1,), "turns played / turn cap"),
            ("moved_from", (CELLS,), "this turn's cub move: from"),
            ("moved_to", (CELLS,), "this turn's cub move: to"),
        ),
        fill=fill,
    )
