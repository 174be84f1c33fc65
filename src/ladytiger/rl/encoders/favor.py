"""Favor as a fixed-size tensor, seen from the viewer's chair (the viewer's seat first)."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from ladytiger.core import Game, State
from ladytiger.games.favor import (
    AUCTION,
    FINAL_AUCTION,
    GAME_OVER,
    NOBODY,
    NOT_YET,
    FavorState,
)
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

PHASES: Final = ("choose first player", "deal identities", "flip", "turn", "auction",
                 "final auction", "game over")
_PHASE: Final = {phase: index for index, phase in enumerate(PHASES)}
DAYS: Final = 3
KINDS: Final = len(CLUE_COUNTS)
# Totals can be negative; the tensor maps [-40, 60] onto [0, 1] and clips outside it.
SCORE_LOW: Final = -40
SCORE_SPAN: Final = 100
_CARD: Final = {name: index for index, name in enumerate(CARD_NAMES)}


def make_encoder(game: Game) -> Encoder:
    n = game.num_players
    all_gems = 5 * n
    pieces = (
        ("is_seat", (1,), "1 if the viewer holds a seat (0 for a spectator)"),
        ("to_move", (n,), "who moves, viewer first (all 0 at chance and at the end)"),
        ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
        ("day", (DAYS,), "one-hot day"),
        ("first_player", (n,), "the day's first player, viewer first"),
        ("turn", (n,), "whose turn it is in the turn order, viewer first"),
        ("identities", (n, 4), "known doors per seat (own; all at the end), viewer first"),
        ("gems", (n,), "gems held / all gems of the day"),
        ("scores", (n,), "total points, (points + 40) / 100 clipped to [0, 1]"),
        ("collections", (n, KINDS), "collected cards per seat and kind / copies of the kind"),
        ("supply", (1,), "gems in the supply / all gems"),
        ("lot", (KINDS,), "cards in the lot per kind / copies"),
        ("discarded", (KINDS,), "discarded cards per kind / copies"),
        ("deck", (1,), "cards left in the deck / 14"),
        ("auction", (3,), "auction open, auction is the final one, high bid / all gems"),
        ("caller", (n,), "the auction's caller, viewer first"),
        ("high_bidder", (n,), "the high bidder, viewer first"),
        ("bids", (n,), "each seat's bid / all gems (0 before its chance or on a pass)"),
        ("passed", (n,), "1 for each seat that passed in this auction"),
    )
    at = offsets(pieces)

    def fill(observation: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        viewer = observation["viewer"]
        seats = seat_order(viewer, n)
        where = {seat: k for k, seat in enumerate(seats)}
        one_hot(out["is_seat"], None if viewer is None else 0)
        one_hot(out["to_move"], where.get(observation["current_player"]))
        one_hot(out["phase"], PHASES.index(observation["phase"]))
        one_hot(out["day"], observation["day"] - 1)
        one_hot(out["first_player"], where[observation["first_player"]])
        one_hot(out["turn"], where[observation["turn"]])
        for k, seat in enumerate(seats):
            door = observation["identities"][seat]
            one_hot(out["identities"][k], None if door is None else _CARD[door])
            out["gems"][k] = observation["gems"][seat] / all_gems
            score = min(max(observation["scores"][seat] - SCORE_LOW, 0), SCORE_SPAN)
            out["scores"][k] = score / SCORE_SPAN
            counts_into(out["collections"][k], observation["collections"][seat], _CARD,
                        CLUE_COUNTS)
        out["supply"][0] = observation["supply"] / all_gems
        counts_into(out["lot"], observation["lot"], _CARD, CLUE_COUNTS)
        counts_into(out["discarded"], observation["discarded"], _CARD, CLUE_COUNTS)
        out["deck"][0] = observation["deck"] / 14
        auction = observation["auction"]
        if auction is not None:
            out["auction"][0] = 1.0
            out["auction"][1] = float(auction["final"])
            out["auction"][2] = auction["high_bid"] / all_gems
            if auction["caller"] is not None:
                one_hot(out["caller"], where[auction["caller"]])
            if auction["high_bidder"] is not None:
                one_hot(out["high_bidder"], where[auction["high_bidder"]])
            for k, seat in enumerate(seats):
                bid = auction["bids"][seat]
                if bid == "pass":
                    out["passed"][k] = 1.0
                elif bid is not None:
                    out["bids"][k] = bid / all_gems

    # The offsets as plain ints: a dictionary lookup on each write is most of a write's cost.
    at_auction = at["auction"]
    at_bids = at["bids"]
    at_caller = at["caller"]
    at_collections = at["collections"]
    at_day = at["day"]
    at_deck = at["deck"]
    at_discarded = at["discarded"]
    at_first_player = at["first_player"]
    at_gems = at["gems"]
    at_high_bidder = at["high_bidder"]
    at_identities = at["identities"]
    at_lot = at["lot"]
    at_passed = at["passed"]
    at_scores = at["scores"]
    at_supply = at["supply"]
    at_turn = at["turn"]

    def fast(state: State, viewer: int | None, t: Tensor) -> bool:
        if type(state) is not FavorState:
            return False
        first = mark_common(t, at, state, viewer, n, _PHASE[state.phase])
        phase = state.phase
        one_at(t, at_day + state.day)
        one_at(t, at_first_player + (state.first_player - first) % n)
        one_at(t, at_turn + (state.turn - first) % n)
        over = phase == GAME_OVER
        identity, gems, points, collected = state.identity, state.gems, state.points, \
            state.collected
        for k in range(n):
            seat = (first + k) % n
            door = identity[seat]
            if door is not None and (seat == viewer or over):
                one_at(t, at_identities + 4 * k + door)
            t[at_gems + k] = gems[seat] / all_gems
            score = min(max(points[seat] - SCORE_LOW, 0), SCORE_SPAN)
            t[at_scores + k] = score / SCORE_SPAN
            counts_at(t, at_collections + KINDS * k, collected[seat], CLUE_COUNTS)
        t[at_supply] = state.supply / all_gems
        counts_at(t, at_lot, state.lot, CLUE_COUNTS)
        counts_at(t, at_discarded, state.discarded, CLUE_COUNTS)
        t[at_deck] = state.deck / 14
        if phase in (AUCTION, FINAL_AUCTION):
            one_at(t, at_auction)
            t[at_auction + 1] = float(phase == FINAL_AUCTION)
            t[at_auction + 2] = state.high / all_gems
            if state.caller != NOBODY:
                one_at(t, at_caller + (state.caller - first) % n)
            if state.high_bidder != NOBODY:
                one_at(t, at_high_bidder + (state.high_bidder - first) % n)
            bids = state.bids
            for k in range(n):
                bid = bids[(first + k) % n]
                if bid == 0:
                    one_at(t, at_passed + k)
                elif bid != NOT_YET:
                    t[at_bids + k] = bid / all_gems
        return True

    return Encoder(game="favor", pieces=pieces, fill=fill, fast=fast)
