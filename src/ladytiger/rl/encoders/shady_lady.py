"""Shady Lady as a fixed-size tensor: cards by number (1-4, 6-9), seats viewer first."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from ladytiger.core import Game, State
from ladytiger.games.shady_lady import (
    CHOOSE_FIRST_PLAYER,
    DEAL,
    DISCARD_HAND,
    DISCARD_ONE,
    DRAW_CARD,
    GAME_OVER,
    NUMBERS,
    POINTS_TO_WIN,
    TRY_ANSWERS,
    TURN,
    ShadyLadyState,
    combination,
)
from ladytiger.rl.encoders import Encoder
from ladytiger.rl.encoders.marks import (
    Tensor,
    mark_common,
    offsets,
    one_at,
    one_hot,
    seat_at,
    seat_order,
)

PHASES: Final = (CHOOSE_FIRST_PLAYER, DEAL, TURN, DRAW_CARD, DISCARD_ONE, TRY_ANSWERS,
                 DISCARD_HAND, GAME_OVER)
_PHASE: Final = {phase: index for index, phase in enumerate(PHASES)}
RANKS: Final = len(NUMBERS)
_RANK: Final = {number: index for index, number in enumerate(NUMBERS)}
COPIES: Final = 10
HAND_MAX: Final = 4


def _by_rank(cards: list[int | None] | list[int]) -> list[int]:
    tally = [0] * RANKS
    for card in cards:
        if card is not None:
            tally[_RANK[card]] += 1
    return tally


def make_encoder(game: Game) -> Encoder:
    n = game.num_players
    pieces = (
        ("is_seat", (1,), "1 if the viewer holds a seat (0 for a spectator)"),
        ("to_move", (n,), "who moves, viewer first (all 0 at chance and at the end)"),
        ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
        ("turn_player", (n,), "whose turn it is, viewer first"),
        ("hand_sizes", (n,), "cards in each hand / 4, viewer first"),
        ("known_hands", (n, RANKS), "known cards of each hand by number (1-4, 6-9) / 4; "
                                    "the viewer's own hand is fully known"),
        ("pile_sizes", (n,), "cards in each personal pile / 80"),
        ("piles", (n, RANKS), "each personal pile's cards by number / 10"),
        ("pile_tops", (n, RANKS), "each pile's top card, one-hot by number"),
        ("points", (n,), "points / 3"),
        ("draw_pile", (1,), "cards in the draw pile / 80"),
        ("turns", (1,), "turn / turn limit"),
        ("holds_combination", (1,), "1 if the viewer's hand is a combination"),
        ("try_declarer", (n,), "during a Try!: the declarer, viewer first"),
        ("try_best_seat", (n,), "during a Try!: who shows the best hand so far"),
        ("try_to_answer", (n,), "during a Try!: who answers next"),
        ("discarding", (n,), "seats still to discard a revealed hand"),
    )
    at = offsets(pieces)

    def fill(observation: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        viewer = observation["viewer"]
        seats = seat_order(viewer, n)
        where = {seat: k for k, seat in enumerate(seats)}
        one_hot(out["is_seat"], None if viewer is None else 0)
        one_hot(out["to_move"], where.get(observation["current_player"]))
        one_hot(out["phase"], PHASES.index(observation["phase"]))
        one_hot(out["turn_player"], where.get(observation["turn_player"]))
        for k, seat in enumerate(seats):
            hand = observation["hands"][seat]
            out["hand_sizes"][k] = len(hand) / HAND_MAX
            for rank, count in enumerate(_by_rank(hand)):
                if count:
                    out["known_hands"][k, rank] = count / HAND_MAX
            pile = observation["piles"][seat]
            out["pile_sizes"][k] = len(pile) / (COPIES * RANKS)
            for rank, count in enumerate(_by_rank(pile)):
                if count:
                    out["piles"][k, rank] = count / COPIES
            if pile:
                out["pile_tops"][k, _RANK[pile[-1]]] = 1.0
            out["points"][k] = observation["scores"][seat] / POINTS_TO_WIN
        out["draw_pile"][0] = observation["draw_pile"] / (COPIES * RANKS)
        out["turns"][0] = min(observation["turn"] / observation["turn_limit"], 1.0)
        out["holds_combination"][0] = float(observation["combination"] is not None)
        attempt = observation["try"]
        if attempt is not None:
            one_hot(out["try_declarer"], where.get(attempt["declarer"]))
            one_hot(out["try_best_seat"], where.get(attempt["best_seat"]))
            one_hot(out["try_to_answer"], where.get(attempt["to_answer"]))
        for seat in observation["discarding"]:
            out["discarding"][where[seat]] = 1.0

    # The offsets as plain ints: a dictionary lookup on each write is most of a write's cost.
    at_discarding = at["discarding"]
    at_draw_pile = at["draw_pile"]
    at_hand_sizes = at["hand_sizes"]
    at_holds_combination = at["holds_combination"]
    at_known_hands = at["known_hands"]
    at_pile_sizes = at["pile_sizes"]
    at_pile_tops = at["pile_tops"]
    at_piles = at["piles"]
    at_points = at["points"]
    at_try_best_seat = at["try_best_seat"]
    at_try_declarer = at["try_declarer"]
    at_try_to_answer = at["try_to_answer"]
    at_turn_player = at["turn_player"]
    at_turns = at["turns"]

    def fast(state: State, viewer: int | None, t: Tensor) -> bool:
        if type(state) is not ShadyLadyState:
            return False
        first = mark_common(t, at, state, viewer, n, _PHASE[state.phase])
        phase = state.phase
        seat_at(t, at_turn_player, state.turn_player, first, n)
        over = phase == GAME_OVER
        hands, known, piles, points = state.hands, state.known, state.piles, state.points
        for k in range(n):
            seat = (first + k) % n
            hand = hands[seat]
            t[at_hand_sizes + k] = len(hand) / HAND_MAX
            shown = hand if over or seat == viewer else known[seat]
            if shown:
                start = at_known_hands + RANKS * k
                for rank, count in enumerate(_by_rank(shown)):
                    if count:
                        t[start + rank] = count / HAND_MAX
            pile = piles[seat]
            t[at_pile_sizes + k] = len(pile) / (COPIES * RANKS)
            if pile:
                start = at_piles + RANKS * k
                for rank, count in enumerate(_by_rank(pile)):
                    if count:
                        t[start + rank] = count / COPIES
                one_at(t, at_pile_tops + RANKS * k + _RANK[pile[-1]])
            t[at_points + k] = points[seat] / POINTS_TO_WIN
        t[at_draw_pile] = state.draw_count / (COPIES * RANKS)
        limit = state.turn_limit
        t[at_turns] = min(min(state.turns + 1, limit) / limit, 1.0)
        if viewer is not None and combination(hands[viewer]):
            one_at(t, at_holds_combination)
        if phase == TRY_ANSWERS:
            seat_at(t, at_try_declarer, state.declarer, first, n)
            seat_at(t, at_try_best_seat, state.best_seat, first, n)
            seat_at(t, at_try_to_answer, state.responder, first, n)
        elif phase == DISCARD_HAND:
            for seat in state.discard_queue:
                one_at(t, at_discarding + (seat - first) % n)
        return True

    return Encoder(game="shady_lady", pieces=pieces, fill=fill, fast=fast)
