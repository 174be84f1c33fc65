"""Labyrinth as a fixed-size tensor: the 4x4 grid in reading order (A1, B1, ... D4)."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from ladytiger.core import Game, State
from ladytiger.games.labyrinth import (
    BUILD,
    DOOR_AT,
    EMPTY,
    GAME_OVER,
    MOVE_A_CUB,
    MOVE_THE_LABYRINTH,
    STEPS,
    WHITE,
    YELLOW,
    LabyrinthState,
)
from ladytiger.games.lady_tiger_cards import BLUE, CARD_NAMES, LADY
from ladytiger.rl.encoders import Encoder
from ladytiger.rl.encoders.marks import Tensor, offsets, one_at, one_hot

CELLS: Final = 16
PHASES: Final = (BUILD, MOVE_A_CUB, MOVE_THE_LABYRINTH, GAME_OVER)
_PHASE: Final = {phase: index for index, phase in enumerate(PHASES)}
_CARD: Final = {name: index for index, name in enumerate(CARD_NAMES)}

PIECES: Final = (
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
)
_AT: Final = offsets(PIECES)


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


# The offsets as plain ints: a dictionary lookup on each write is most of a write's cost.
_AT_BLUE_CUBS: Final = _AT["blue_cubs"]
_AT_CARDS: Final = _AT["cards"]
_AT_DOORS: Final = _AT["doors"]
_AT_MOVED_FROM: Final = _AT["moved_from"]
_AT_MOVED_TO: Final = _AT["moved_to"]
_AT_PHASE: Final = _AT["phase"]
_AT_PROGRESS: Final = _AT["progress"]
_AT_RED_CUBS: Final = _AT["red_cubs"]
_AT_SWITCHES: Final = _AT["switches"]
_AT_TO_MOVE: Final = _AT["to_move"]
_AT_VIEWER_COLOUR: Final = _AT["viewer_colour"]


def fast(state: State, viewer: int | None, t: Tensor) -> bool:
    if type(state) is not LabyrinthState:
        return False
    if viewer is not None:
        one_at(t, _AT_VIEWER_COLOUR + viewer)
    turn = state.current_player()
    if turn in (0, 1):
        one_at(t, _AT_TO_MOVE + turn)
    one_at(t, _AT_PHASE + _PHASE[state.phase])
    board, red, blue = state.board, state.cubs[0], state.cubs[1]
    for cell in range(CELLS):
        if board[cell] != EMPTY:
            one_at(t, _AT_CARDS + 4 * cell + board[cell])
        if red[cell]:
            t[_AT_RED_CUBS + cell] = red[cell] / 5
        if blue[cell]:
            t[_AT_BLUE_CUBS + cell] = blue[cell] / 5
    for cell in DOOR_AT:
        one_at(t, _AT_DOORS + cell)
    t[_AT_SWITCHES] = float(state.gems[YELLOW] == BLUE)
    t[_AT_SWITCHES + 1] = float(state.gems[WHITE] == LADY)
    t[_AT_PROGRESS] = state.turns / state.turn_cap
    if state.last_step >= 0:
        start, to = STEPS[state.last_step]
        one_at(t, _AT_MOVED_FROM + start)
        one_at(t, _AT_MOVED_TO + to)
    return True


def make_encoder(game: Game) -> Encoder:
    return Encoder(game="labyrinth", pieces=PIECES, fill=fill, fast=fast)
