"""Tighee as a fixed-size tensor: 60-card masks (colour * 12 + number - 1), viewer first."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from ladytiger.core import Game, State
from ladytiger.games.tighee import (
    CARD_NAMES,
    CHOOSING_LEAD,
    COLOURS,
    DEALING,
    GAME_OVER,
    PLAYING,
    PUTTING_OUT,
    REVEALING,
    TigheeState,
)
from ladytiger.rl.encoders import Encoder
from ladytiger.rl.encoders.marks import (
    Tensor,
    bits_at,
    mark_common,
    offsets,
    one_at,
    one_hot,
    seat_at,
    seat_order,
)

PHASES: Final = (CHOOSING_LEAD, DEALING, PUTTING_OUT, REVEALING, PLAYING, GAME_OVER)
_PHASE: Final = {phase: index for index, phase in enumerate(PHASES)}
CARDS: Final = len(CARD_NAMES)
_CARD: Final = {name: index for index, name in enumerate(CARD_NAMES)}
# Totals run from about -600 to +676; the tensor maps [-400, 700] onto [0, 1] and clips.
SCORE_LOW: Final = -400
SCORE_SPAN: Final = 1100


def _mark(view: np.ndarray, cards: list[str] | None) -> None:
    for name in cards or ():  # a spectator has no hand
        view[_CARD[name]] = 1.0


def make_encoder(game: Game) -> Encoder:
    n = game.num_players
    pieces = (
        ("is_seat", (1,), "1 if the viewer holds a seat (0 for a spectator)"),
        ("to_move", (n,), "who moves, viewer first (all 0 at chance and at the end)"),
        ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
        ("round", (n,), "one-hot round"),
        ("first_lead", (n,), "the round's first lead, viewer first"),
        ("lead", (n,), "the current trick's lead, viewer first"),
        ("hand", (CARDS,), "the viewer's hand (card = colour * 12 + number - 1; colours "
                           + ", ".join(COLOURS) + ")"),
        ("put_out", (CARDS,), "the cards the viewer put out this round"),
        ("forest", (CARDS,), "the Forest card of this trick"),
        ("forest_deck", (1,), "Forest cards left / 20"),
        ("follow", (len(COLOURS),), "the colour to follow, one-hot"),
        ("trick", (n, CARDS), "cards in the current trick by seat, viewer first"),
        ("seen_this_round", (CARDS,), "cards and Forest cards of this round's finished tricks"),
        ("hand_sizes", (n,), "cards in hand / 20, viewer first"),
        ("put_out_counts", (n,), "cards put out / 5, viewer first"),
        ("tricks_won", (n,), "tricks won this round / 15, viewer first"),
        ("pile_tops", (n, CARDS), "top card of each won pile, viewer first"),
        ("scores", (n,), "totals, (total + 400) / 1100 clipped to [0, 1]"),
    )
    at = offsets(pieces)

    def fill(observation: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        viewer = observation["viewer"]
        seats = seat_order(viewer, n)
        where = {seat: k for k, seat in enumerate(seats)}
        one_hot(out["is_seat"], None if viewer is None else 0)
        one_hot(out["to_move"], where.get(observation["current_player"]))
        one_hot(out["phase"], PHASES.index(observation["phase"]))
        one_hot(out["round"], min(observation["round"], n) - 1)
        one_hot(out["first_lead"], where.get(observation["first_lead"]))
        one_hot(out["lead"], where.get(observation["lead"]))
        _mark(out["hand"], observation["hand"])
        _mark(out["put_out"], observation["put_out"])
        if observation["forest"] is not None:
            _mark(out["forest"], [observation["forest"]])
        out["forest_deck"][0] = observation["forest_deck"] / 20
        if observation["follow"] is not None:
            one_hot(out["follow"], COLOURS.index(observation["follow"]))
        for played in observation["trick"]:
            out["trick"][where[played["seat"]], _CARD[played["card"]]] = 1.0
        for trick in observation["tricks"]:
            _mark(out["seen_this_round"], [card for _, card in trick["cards"]])
            _mark(out["seen_this_round"], [trick["forest"]])
        for k, seat in enumerate(seats):
            out["hand_sizes"][k] = observation["hand_sizes"][seat] / 20
            out["put_out_counts"][k] = observation["put_out_counts"][seat] / 5
            out["tricks_won"][k] = observation["tricks_won"][seat] / 15
            top = observation["pile_tops"][seat]
            if top is not None:
                out["pile_tops"][k, _CARD[top]] = 1.0
            score = min(max(observation["scores"][seat] - SCORE_LOW, 0), SCORE_SPAN)
            out["scores"][k] = score / SCORE_SPAN

    # The offsets as plain ints: a dictionary lookup on each write is most of a write's cost.
    at_first_lead = at["first_lead"]
    at_follow = at["follow"]
    at_forest = at["forest"]
    at_forest_deck = at["forest_deck"]
    at_hand = at["hand"]
    at_hand_sizes = at["hand_sizes"]
    at_lead = at["lead"]
    at_pile_tops = at["pile_tops"]
    at_put_out = at["put_out"]
    at_put_out_counts = at["put_out_counts"]
    at_round = at["round"]
    at_scores = at["scores"]
    at_seen_this_round = at["seen_this_round"]
    at_trick = at["trick"]
    at_tricks_won = at["tricks_won"]

    def fast(state: State, viewer: int | None, t: Tensor) -> bool:
        if type(state) is not TigheeState:
            return False
        first = mark_common(t, at, state, viewer, n, _PHASE[state.phase])
        one_at(t, at_round + min(state.round + 1, n) - 1)
        seat_at(t, at_first_lead, state.first_lead, first, n)
        lead = state.lead
        seat_at(t, at_lead, lead, first, n)
        if viewer is not None:
            bits_at(t, at_hand, state.hands[viewer])
            bits_at(t, at_put_out, state.put_out[viewer])
        if state.forest >= 0:
            one_at(t, at_forest + state.forest)
        t[at_forest_deck] = state.forest_deck.bit_count() / 20
        if state.follow >= 0:
            one_at(t, at_follow + state.follow)
        for position, card in enumerate(state.trick):
            one_at(t, at_trick + CARDS * ((lead + position - first) % n) + card)
        seen = 0
        for _, past_forest, cards, _ in state.tricks:
            seen |= 1 << past_forest
            for card in cards:
                seen |= 1 << card
        bits_at(t, at_seen_this_round, seen)
        hands, put_out, won, tops, totals = (state.hands, state.put_out, state.won, state.tops,
                                             state.totals)
        for k in range(n):
            seat = (first + k) % n
            t[at_hand_sizes + k] = hands[seat].bit_count() / 20
            t[at_put_out_counts + k] = put_out[seat].bit_count() / 5
            t[at_tricks_won + k] = won[seat] / 15
            if tops[seat] >= 0:
                one_at(t, at_pile_tops + CARDS * k + tops[seat])
            score = min(max(totals[seat] - SCORE_LOW, 0), SCORE_SPAN)
            t[at_scores + k] = score / SCORE_SPAN
        return True

    return Encoder(game="tighee", pieces=pieces, fill=fill, fast=fast)
