"""Traps as a fixed-size tensor, seen from the viewer's chair (the viewer's seat first)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ladytiger.core import Game
from ladytiger.games.lady_tiger_cards import CARD_NAMES, CLUE_COUNTS
from ladytiger.games.traps import (
    BIDDING,
    BUILD_OR_BID,
    DEAL_HANDS,
    GAME_OVER,
    REVEAL_GOAL,
    REVEALING,
    START_STACKS,
    TRAP_GEM,
)
from ladytiger.rl.encoders import Encoder, one_hot, seat_order

PHASES = (DEAL_HANDS, REVEAL_GOAL, START_STACKS, BUILD_OR_BID, BIDDING, REVEALING, TRAP_GEM,
          GAME_OVER)
GEMS = 25
MAX_BID = 13
HAND_MAX = 6
_CARD = {name: index for index, name in enumerate(CARD_NAMES)}


def _counts(view: np.ndarray, cards: list[str] | None) -> None:
    for name in cards or ():
        view[_CARD[name]] += 1.0 / CLUE_COUNTS[_CARD[name]]


def make_encoder(game: Game) -> Encoder:
    n = game.num_players

    def fill(observation: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        viewer = observation["viewer"]
        seats = seat_order(viewer, n)
        where = {seat: k for k, seat in enumerate(seats)}
        one_hot(out["is_seat"], None if viewer is None else 0)
        one_hot(out["to_move"], where.get(observation["current_player"]))
        one_hot(out["phase"], PHASES.index(observation["phase"]))
        out["seasons"][0] = min(observation["season"] / observation["max_seasons"], 1.0)
        out["door_deck"][0] = observation["door_deck"] / 4
        if observation["goal"] is not None:
            one_hot(out["goal"], _CARD[observation["goal"]])
        out["pot"][0] = observation["pot"] / GEMS
        out["treasury"][0] = observation["treasury"] / GEMS
        one_hot(out["starting_player"], where.get(observation["starting_player"]))
        one_hot(out["turn"], where.get(observation["turn"]))
        _counts(out["hand"], observation["hand"])
        out["set_aside"][0] = observation["set_aside"] / 4
        for k, seat in enumerate(seats):
            out["gems"][k] = min(observation["gems"][seat], 5) / 5
            out["hand_sizes"][k] = observation["hand_sizes"][seat] / HAND_MAX
            stack = observation["stacks"][seat]
            out["face_down"][k] = stack["face_down"] / HAND_MAX
            _counts(out["revealed"][k], stack["revealed"])
            out["passed"][k] = float(observation["passed"][seat])
        if viewer is not None:
            _counts(out["own_stack"], observation["stacks"][viewer]["cards"])
        out["bid"][0] = observation["high_bid"] / MAX_BID
        out["bid"][1] = observation["matched"] / MAX_BID
        one_hot(out["high_bidder"], where.get(observation["high_bidder"]))
        one_hot(out["revealer"], where.get(observation["revealer"]))

    return Encoder(
        game="traps",
        pieces=(
            ("is_seat", (1,), "1 if the viewer holds a seat (0 for a spectator)"),
            ("to_move", (n,), "who moves, viewer first (all 0 at chance and at the end)"),
            ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
            ("seasons", (1,), "season / season cap"),
            ("door_deck", (1,), "Door cards left in the deck / 4"),
            ("goal", (6,), "the goal Door card, one-hot by kind"),
            ("pot", (1,), "gems in the pot / 25"),
            ("treasury", (1,), "gems in the treasury / 25"),
            ("starting_player", (n,), "the season's starting player, viewer first"),
            ("turn", (n,), "whose turn in the building and bidding, viewer first"),
            ("hand", (6,), "the viewer's hand per kind / copies"),
            ("set_aside", (1,), "Clue cards set aside unseen / 4"),
            ("gems", (n,), "gems held / 5 (capped), viewer first"),
            ("hand_sizes", (n,), "cards in hand / 6"),
            ("face_down", (n,), "face-down cards in each stack / 6"),
            ("revealed", (n, 6), "cards revealed from each stack per kind / copies"),
            ("passed", (n,), "1 for each seat out of this season's bidding"),
            ("own_stack", (6,), "the viewer's own face-down stack per kind / copies"),
            ("bid", (2,), "high bid / 13, traits matched so far / 13"),
            ("high_bidder", (n,), "the high bidder, viewer first"),
            ("revealer", (n,), "the player revealing, viewer first"),
        ),
        fill=fill,
    )
