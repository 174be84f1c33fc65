"""Traps as a fixed-size tensor, seen from the viewer's chair (the viewer's seat first)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from ladytiger.core import Game, State
from ladytiger.games.lady_tiger_cards import CARD_NAMES, CLUE_COUNTS
from ladytiger.games.traps import (
    BIDDING,
    BUILD_OR_BID,
    DEAL_HANDS,
    GAME_OVER,
    NOBODY,
    PLAYER_PHASES,
    REVEAL_GOAL,
    REVEALING,
    SET_ASIDE,
    START_STACKS,
    TRAP_GEM,
    TrapsState,
)
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

PHASES: Final = (DEAL_HANDS, REVEAL_GOAL, START_STACKS, BUILD_OR_BID, BIDDING, REVEALING,
                 TRAP_GEM, GAME_OVER)
_PHASE: Final = {phase: index for index, phase in enumerate(PHASES)}
GEMS: Final = 25
MAX_BID: Final = 13
HAND_MAX: Final = 6
KINDS: Final = len(CLUE_COUNTS)
_CARD: Final = {name: index for index, name in enumerate(CARD_NAMES)}


def make_encoder(game: Game) -> Encoder:
    n = game.num_players
    pieces = (
        ("is_seat", (1,), "1 if the viewer holds a seat (0 for a spectator)"),
        ("to_move", (n,), "who moves, viewer first (all 0 at chance and at the end)"),
        ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
        ("seasons", (1,), "season / season cap"),
        ("door_deck", (1,), "Door cards left in the deck / 4"),
        ("goal", (KINDS,), "the goal Door card, one-hot by kind"),
        ("pot", (1,), "gems in the pot / 25"),
        ("treasury", (1,), "gems in the treasury / 25"),
        ("starting_player", (n,), "the season's starting player, viewer first"),
        ("turn", (n,), "whose turn in the building and bidding, viewer first"),
        ("hand", (KINDS,), "the viewer's hand per kind / copies"),
        ("set_aside", (1,), "Clue cards set aside unseen / 4"),
        ("gems", (n,), "gems held / 5 (capped), viewer first"),
        ("hand_sizes", (n,), "cards in hand / 6"),
        ("face_down", (n,), "face-down cards in each stack / 6"),
        ("revealed", (n, KINDS), "cards revealed from each stack per kind / copies"),
        ("passed", (n,), "1 for each seat out of this season's bidding"),
        ("own_stack", (KINDS,), "the viewer's own face-down stack per kind / copies"),
        ("bid", (2,), "high bid / 13, traits matched so far / 13"),
        ("high_bidder", (n,), "the high bidder, viewer first"),
        ("revealer", (n,), "the player revealing, viewer first"),
    )
    at = offsets(pieces)

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
        counts_into(out["hand"], observation["hand"], _CARD, CLUE_COUNTS)
        out["set_aside"][0] = observation["set_aside"] / 4
        for k, seat in enumerate(seats):
            out["gems"][k] = min(observation["gems"][seat], 5) / 5
            out["hand_sizes"][k] = observation["hand_sizes"][seat] / HAND_MAX
            stack = observation["stacks"][seat]
            out["face_down"][k] = stack["face_down"] / HAND_MAX
            counts_into(out["revealed"][k], stack["revealed"], _CARD, CLUE_COUNTS)
            out["passed"][k] = float(observation["passed"][seat])
        if viewer is not None:
            counts_into(out["own_stack"], observation["stacks"][viewer]["cards"], _CARD,
                        CLUE_COUNTS)
        out["bid"][0] = observation["high_bid"] / MAX_BID
        out["bid"][1] = observation["matched"] / MAX_BID
        one_hot(out["high_bidder"], where.get(observation["high_bidder"]))
        one_hot(out["revealer"], where.get(observation["revealer"]))

    def kinds_of(cards: Sequence[int]) -> list[int]:
        tally = [0] * KINDS
        for card in cards:
            tally[card] += 1
        return tally

    # The offsets as plain ints: a dictionary lookup on each write is most of a write's cost.
    at_bid = at["bid"]
    at_door_deck = at["door_deck"]
    at_face_down = at["face_down"]
    at_gems = at["gems"]
    at_goal = at["goal"]
    at_hand = at["hand"]
    at_hand_sizes = at["hand_sizes"]
    at_high_bidder = at["high_bidder"]
    at_own_stack = at["own_stack"]
    at_passed = at["passed"]
    at_pot = at["pot"]
    at_revealed = at["revealed"]
    at_revealer = at["revealer"]
    at_seasons = at["seasons"]
    at_set_aside = at["set_aside"]
    at_starting_player = at["starting_player"]
    at_treasury = at["treasury"]
    at_turn = at["turn"]

    def fast(state: State, viewer: int | None, t: Tensor) -> bool:
        if type(state) is not TrapsState:
            return False
        first = mark_common(t, at, state, viewer, n, _PHASE[state.phase])
        phase = state.phase
        t[at_seasons] = min(state.season / state.max_seasons, 1.0)
        t[at_door_deck] = state.doors.bit_count() / 4
        if state.goal != NOBODY:
            one_at(t, at_goal + state.goal)
        t[at_pot] = state.pot / GEMS
        t[at_treasury] = state.treasury / GEMS
        if state.starter is not None and state.starter >= 0:
            one_at(t, at_starting_player + (state.starter - first) % n)
        if phase in PLAYER_PHASES:
            one_at(t, at_turn + (state.turn - first) % n)
        if viewer is not None:
            counts_at(t, at_hand, state.hands[viewer], CLUE_COUNTS)
            counts_at(t, at_own_stack, kinds_of(state.stacks[viewer]), CLUE_COUNTS)
        t[at_set_aside] = SET_ASIDE[n] / 4
        gems, hands, stacks, revealed, passed = (state.gems, state.hands, state.stacks,
                                                 state.revealed, state.passed)
        for k in range(n):
            seat = (first + k) % n
            t[at_gems + k] = min(gems[seat], 5) / 5
            t[at_hand_sizes + k] = sum(hands[seat]) / HAND_MAX
            t[at_face_down + k] = len(stacks[seat]) / HAND_MAX
            if revealed[seat]:
                counts_at(t, at_revealed + KINDS * k, kinds_of(revealed[seat]), CLUE_COUNTS)
            if passed[seat]:
                one_at(t, at_passed + k)
        t[at_bid] = state.high_bid / MAX_BID
        t[at_bid + 1] = state.matched / MAX_BID
        if state.high_bidder != NOBODY:
            one_at(t, at_high_bidder + (state.high_bidder - first) % n)
            if phase in (REVEALING, TRAP_GEM):
                one_at(t, at_revealer + (state.high_bidder - first) % n)
        return True

    return Encoder(game="traps", pieces=pieces, fill=fill, fast=fast)
