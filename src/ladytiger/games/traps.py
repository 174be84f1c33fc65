"""Traps: a bidding and bluffing game for 2-6 players of The Lady and the Tiger (rulebook "Traps").

Players stack Clue cards face down and bid on how many of the goal door's traits the high
bidder can turn up; traps pay their owners. Rules page: docs/rules/traps.md.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import product
from math import comb, factorial
from typing import Any, Final

from ladytiger.core.game import Game, GameInfo
from ladytiger.core.log_parts import LogPart
from ladytiger.core.options import Option
from ladytiger.core.registry import register_game
from ladytiger.core.state import (
    CHANCE,
    TERMINAL,
    State,
    combine_moments,
    game_end_moment,
    new_moment,
    seat_name,
    shared_win_returns,
    shuffle,
    with_entry,
)
from ladytiger.core.words import (
    a,
    agree,
    dealt,
    does,
    join,
    seat_word,
    sentence,
    standing,
    their,
    them,
    whom,
    whose,
)
from ladytiger.games.lady_tiger_cards import (
    BLUE_RED,
    CARD_NAMES,
    CLUE_COUNTS,
    CLUE_DECK_SIZE,
    CLUE_KINDS,
    DOOR_COUNT,
    IDENTITIES,
    LADY_TIGER,
    cards_listing,
    shared_traits,
)

# ---------------------------------------------------------------------------- constants
TOTAL_GEMS: Final = 25
STARTING_GEMS: Final = 1
GEMS_TO_WIN: Final = 5
POT_FILL: Final = 3
MAX_BID: Final = 13
OWN_TRAP_PAYMENT: Final = 2  # paid into the pot when an own trap finds every opponent at 4
RECEIVER_LIMIT: Final = 3  # a gem given by choice goes to an opponent holding at most this many
HAND_SIZE: Final = {2: 6, 3: 4, 4: 3, 5: 2, 6: 2}
SET_ASIDE: Final = {2: 2, 3: 2, 4: 2, 5: 4, 6: 2}
ALL_DOORS: Final = (1 << DOOR_COUNT) - 1  # the Door deck as a bitmask of identities


def trait_matches(card: int, goal: int) -> int:
    """Traits `card` matches on the goal door: 2, 1, or 0 for a trap ("Wild Clue cards")."""
    if card == BLUE_RED:
        return 1  # it carries both colours, so exactly one matches; it has no role
    if card == LADY_TIGER:
        return 0  # the rulebook: "always a TRAP"
    return shared_traits(card, goal)


MATCHES: Final = tuple(
    tuple(trait_matches(card, goal) for card in CLUE_KINDS) for goal in IDENTITIES
)

# Player actions.
START: Final = 0  # + card: start this season's stack with that card (a hidden choice)
BUILD: Final = 6  # + card: put that card face down on top of one's stack (hidden)
BID: Final = 12  # + amount - 1: bid 1 to 13 traits
PASS: Final = 25
REVEAL: Final = 26  # + seat: turn up the top card of that seat's stack
GIVE_TRAP_GEM: Final = 32  # + seat: the opponent who takes the gem for a trap from one's own stack
STOP: Final = 38  # + seat: stop revealing, giving one's own gem to that opponent
NUM_ACTIONS: Final = 44

# Chance outcomes.
DEAL: Final = 0  # + card: the next Clue card dealt, to the seat being dealt
GOAL: Final = 6  # + identity: the top Door card, turned up as the season's goal
NUM_CHANCE_OUTCOMES: Final = 10

# Phases, named after the rulebook's steps.
DEAL_HANDS: Final = "deal"  # Setup, and each New Year
REVEAL_GOAL: Final = "goal card"  # Starting a Season
START_STACKS: Final = "start stacks"  # the simultaneous first card, as hidden sequential choices
BUILD_OR_BID: Final = "build or bid"
BIDDING: Final = "bidding"  # someone has bid: bid higher or pass
REVEALING: Final = "revealing"
TRAP_GEM: Final = "trap gem"  # the revealer turned up an own trap and chooses who takes the gem
GAME_OVER: Final = "game over"

PLAYER_PHASES: Final = (START_STACKS, BUILD_OR_BID, BIDDING, REVEALING, TRAP_GEM)
NOBODY: Final = -1

INFO: Final = GameInfo(
    name="traps",
    title="Traps",
    description="Bluffing for 2-6: stack clues and traps, bid on matching traits, 5 gems win.",
    min_players=2,
    max_players=6,
    options=(
        Option(
            "max_seasons", 200, "seasons after which an unfinished game is a draw",
            minimum=1, maximum=100_000,
        ),
    ),
    imperfect_information=True,
    rules_page="docs/rules/traps.md",
    variants=({"max_seasons": 3},),
)


@register_game
class TrapsGame(Game):
    info = INFO

    def new_initial_state(self) -> TrapsState:
        return TrapsState(self)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        # Per season: a new year's deal, the goal, every card in hand started or built, at
        # most 13 rising bids and n - 1 passes, every stacked card revealed with a trap-gem
        # choice after each, and one stop.
        n = self.num_players
        cards = n * HAND_SIZE[n]
        per_season = cards + 1 + cards + MAX_BID + (n - 1) + 2 * cards + 1
        return self.options["max_seasons"] * per_season


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def season_end_words(record: dict[str, Any], viewer: int | None, full: bool = False) -> str:
    """Why a season ended, as a clause for `viewer` ("you reached the bid of 4 and took 2
    gems from the pot"); the log puts it after "Season 3 ends: ". `full` also names who
    took the gem of a stop, which the log has just said on the line before."""
    kind, *detail = record["ending"]
    won = ""
    if record["won"] is not None:
        winner, gems = record["won"]
        won = ", and " + does(winner, viewer, "win", f"with {plural(gems, 'gem')}", start=False)
    if kind == "stop":
        revealer, receiver = detail
        gave = f" and gave a gem to {whom(receiver, viewer)}" if full else ""
        return f"{whom(revealer, viewer)} stopped revealing{gave}"
    if kind == "reached":
        revealer, bid, taken = detail
        return (
            f"{whom(revealer, viewer)} reached the bid of {bid} and took "
            f"{plural(taken, 'gem')} from the pot{won}"
        )
    if kind == "own trap":
        revealer, paid = detail
        return (
            f"{whom(revealer, viewer)} revealed {their(revealer, viewer)} own trap with every "
            f"opponent at {RECEIVER_LIMIT + 1} gems and paid {plural(paid, 'gem')} into the pot"
        )
    if kind == "trap":
        (owner,) = detail
        return f"{whose(owner, viewer)} trap gave {them(owner, viewer)} a gem{won}"
    if kind == "ran out":
        return f"{whom(detail[0], viewer)} ran out of cards to reveal"
    return "the pot is empty"


def public_season(record: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """A finished season as `viewer` reads it: `how` is a sentence in the log's words."""
    shown = {key: value for key, value in record.items() if key not in ("ending", "won")}
    shown["how"] = sentence(season_end_words(record, viewer, full=True))
    return shown


def doors_in(deck: int) -> list[int]:
    return [door for door in IDENTITIES if deck >> door & 1]


# ---------------------------------------------------------------------------- the state
class TrapsState(State):
    def __init__(self, game: Game, copy_of: TrapsState | None = None) -> None:
        super().__init__(game, copy_of)
        if copy_of is not None:  # clone() copies the rest of the position in
            return
        n = game.num_players
        self.n = n
        self.hand_size = HAND_SIZE[n]
        self.max_seasons: int = game.options["max_seasons"]
        # The fields that are tuples change a few times a season: they are replaced when they
        # change, never changed in place, so that clone() can share them instead of copying.
        # Hands, stacks and the undealt cards change at nearly every step: lists, copied.
        self.gems: tuple[int, ...] = (STARTING_GEMS,) * n
        self.pot = 0
        self.treasury = TOTAL_GEMS - STARTING_GEMS * n
        self.year = 0
        self.season = 0  # seasons begun, all years together
        self.doors = 0  # the Door deck: identities not yet a goal this year
        self.goal = NOBODY
        self.hands = [[0] * 6 for _ in range(n)]  # per kind, cards in hand
        self.stacks: list[list[int]] = [[] for _ in range(n)]  # face down, bottom to top
        self.revealed: tuple[tuple[int, ...], ...] = ((),) * n  # turned up, in order
        self.undealt = list(CLUE_COUNTS)  # per kind: not dealt this year (later: set aside)
        self.dealt = 0  # cards dealt this year
        self.starter = 0  # "most recently caught something" cannot be asked: seat 0 starts
        self.turn = 0
        self.high_bid = 0
        self.high_bidder = NOBODY
        self.passed: tuple[bool, ...] = (False,) * n
        self.matched = 0
        self.winner = NOBODY
        self.past_seasons: tuple[dict[str, Any], ...] = ()
        self.phase = DEAL_HANDS
        self._begin_season()

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        phase = self.phase
        if phase in PLAYER_PHASES:
            return self.turn
        if phase == GAME_OVER:
            return TERMINAL
        return CHANCE

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self) -> list[int]:
        # Asked at every step of a playout: on a seat's turn, answer without first
        # asking whose turn it is; chance nodes and the end take the shared verb.
        if self.phase in PLAYER_PHASES:
            return self._legal_actions()
        return super().legal_actions()

    def _legal_actions(self) -> list[int]:
        # `_refusal` decides. While stacks are started, built and bid on, it asks only that a
        # card be held and a bid beat the high bid, which is how these lists are made; the
        # reveals and gem gifts are filtered by it. (tests/core/test_fast_paths.py checks
        # every listing against `_refusal`.)
        phase = self.phase
        if phase == START_STACKS:
            return self._held(START)
        if phase == BUILD_OR_BID:
            return [*self._held(BUILD), *range(BID + self.high_bid, PASS)]
        if phase == BIDDING:
            return list(range(BID + self.high_bid, PASS + 1))
        if phase == REVEALING:
            candidates: range | list[int] = [
                *range(REVEAL, REVEAL + self.n),
                *range(STOP, STOP + self.n),
            ]
        else:
            candidates = range(GIVE_TRAP_GEM, GIVE_TRAP_GEM + self.n)
        return [action for action in candidates if self._refusal(action) is None]

    def _held(self, base: int) -> list[int]:
        """`base` + card for every kind of card in the hand of the player to move."""
        return [base + card for card, count in enumerate(self.hands[self.turn]) if count]

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == DEAL_HANDS:
            card = action - DEAL
            return 0 <= card < len(CLUE_KINDS) and self.undealt[card] > 0
        if phase == REVEAL_GOAL:
            door = action - GOAL
            return 0 <= door < DOOR_COUNT and self.doors >> door & 1 == 1
        if phase == GAME_OVER:
            return False
        return 0 <= action < NUM_ACTIONS and self._refusal(action) is None

    def _refusal(self, action: int) -> str | None:
        """None when the player to move may play `action`, else the rule against it.

        The one place that decides legality: `_legal_actions` filters with it and the
        explanation of an illegal move is its answer.
        """
        phase = self.phase
        if action < BUILD:
            if phase != START_STACKS:
                return f"stacks are started only as a season begins; {self._expected()}"
            return self._not_in_hand(action - START)
        if action < BID:
            if phase == BIDDING:
                return "once anyone has bid, no one builds: bid higher or pass"
            if phase != BUILD_OR_BID:
                return f"building is over; {self._expected()}"
            return self._not_in_hand(action - BUILD)
        if action < PASS:
            if phase not in (BUILD_OR_BID, BIDDING):
                return f"the bidding is not open; {self._expected()}"
            if action - BID + 1 <= self.high_bid:
                return f"a bid must be higher than the current bid of {self.high_bid}"
            return None
        if action == PASS:
            if phase == BUILD_OR_BID:
                return "no one has bid yet, so there is nothing to pass on: build or bid"
            if phase != BIDDING:
                return f"the bidding is not open; {self._expected()}"
            return None
        if action < GIVE_TRAP_GEM:
            if phase != REVEALING:
                return f"cards are revealed only after the bidding; {self._expected()}"
            target = action - REVEAL
            if target >= self.n:
                return f"there is no {seat_name(target)} in a {self.n}-player game"
            if not self.stacks[target]:
                return f"{seat_name(target)}'s stack has no face-down card left"
            return None
        if action < STOP:
            if phase != TRAP_GEM:
                return (
                    "you choose who takes a gem only after revealing a trap from your own "
                    f"stack; {self._expected()}"
                )
            return self._not_a_receiver(action - GIVE_TRAP_GEM)
        if phase != REVEALING:
            return f"only the revealer may stop, while revealing; {self._expected()}"
        if self.gems[self.turn] == 0:
            return "you have no gem to give, so you cannot stop: keep revealing"
        return self._not_a_receiver(action - STOP)

    def _not_in_hand(self, card: int) -> str | None:
        hand = self.hands[self.turn]
        if hand[card]:
            return None
        if not any(hand):
            return "your hand is empty, so you must bid"
        return f"you hold no {CARD_NAMES[card]}"

    def _not_a_receiver(self, seat: int) -> str | None:
        """Why `seat` cannot be given a gem by the revealer (trap gem or stopping)."""
        if seat >= self.n:
            return f"there is no {seat_name(seat)} in a {self.n}-player game"
        if seat == self.turn:
            return "the gem must go to an opponent, not to yourself"
        if not any(self._receivers()):
            return f"every opponent holds {RECEIVER_LIMIT + 1} gems, so no one can take your gem"
        if self.gems[seat] > RECEIVER_LIMIT:
            return (
                f"{seat_name(seat)} holds {self.gems[seat]} gems; the gem must go to an "
                f"opponent with {RECEIVER_LIMIT} or fewer"
            )
        return None

    def _receivers(self) -> list[bool]:
        turn, limit = self.turn, RECEIVER_LIMIT
        return [seat != turn and gems <= limit for seat, gems in enumerate(self.gems)]

    def _expected(self) -> str:
        """What the rules ask for now, to end an explanation."""
        phase, who = self.phase, seat_name(self.turn)
        if phase == START_STACKS:
            return f"{who} now starts a stack with one card from hand"
        if phase == BUILD_OR_BID:
            return f"{who} now builds or bids"
        if phase == BIDDING:
            return f"{who} now bids higher or passes"
        if phase == REVEALING:
            return f"{who} is revealing cards"
        if phase == TRAP_GEM:
            return f"{who} must first choose the opponent who takes the gem for the trap"
        return f"this is the '{phase}' step"

    def _why_illegal(self, action: int) -> str | None:
        phase = self.phase
        if phase == DEAL_HANDS:
            if action < GOAL:
                return f"no {CARD_NAMES[action - DEAL]} is left to deal"
            return "the hands are being dealt; the goal card is turned up after the deal"
        if phase == REVEAL_GOAL:
            if action >= GOAL:
                return f"the {CARD_NAMES[action - GOAL]} Door has already been a goal this year"
            return "the hands are dealt; the next chance step turns up the goal card"
        return self._refusal(action)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == DEAL_HANDS:
            left = CLUE_DECK_SIZE - self.dealt
            return [(DEAL + card, n / left) for card, n in enumerate(self.undealt) if n]
        if self.phase == REVEAL_GOAL:
            doors = doors_in(self.doors)
            return [(GOAL + door, 1.0 / len(doors)) for door in doors]
        return []

    @property
    def dealing_to(self) -> int:
        return self.dealt // self.hand_size

    # ------------------------------------------------------------------ apply
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == DEAL_HANDS:
            self.hands[self.dealt // self.hand_size][action - DEAL] += 1
            self.undealt[action - DEAL] -= 1
            self.dealt += 1
            if self.dealt == self.n * self.hand_size:
                self.phase = REVEAL_GOAL
        elif phase == REVEAL_GOAL:
            self.goal = action - GOAL
            self.doors &= ~(1 << self.goal)
            self.phase = START_STACKS
            self.turn = self.starter
        elif phase == START_STACKS:
            self._stack(action - START)
            self.turn = (self.turn + 1) % self.n
            if self.turn == self.starter:
                self.phase = BUILD_OR_BID
        elif phase == BUILD_OR_BID and action < BID:
            self._stack(action - BUILD)
            self.turn = (self.turn + 1) % self.n
        elif action < PASS:
            self._bid(action - BID + 1)
        elif action == PASS:
            self.passed = with_entry(self.passed, self.turn, True)
            self._next_bidder()
        elif action < GIVE_TRAP_GEM:
            self._reveal(action - REVEAL)
        elif action < STOP:
            self._give_trap_gem(action - GIVE_TRAP_GEM)
        else:
            receiver = action - STOP
            self._add_gems(self.turn, -1)
            self._add_gems(receiver, 1)
            self._end_season(("stop", self.turn, receiver))

    def _add_gems(self, seat: int, gems: int) -> None:
        self.gems = with_entry(self.gems, seat, self.gems[seat] + gems)

    def _stack(self, card: int) -> None:
        self.hands[self.turn][card] -= 1
        self.stacks[self.turn].append(card)

    def _bid(self, amount: int) -> None:
        self.high_bid = amount
        self.high_bidder = self.turn
        self.phase = BIDDING
        self._next_bidder()

    def _next_bidder(self) -> None:
        if self.passed.count(False) == 1:
            # Only the high bidder is left: the bidding is over and they must reveal.
            self.phase = REVEALING
            self.turn = self.high_bidder
            return
        seat = (self.turn + 1) % self.n
        while self.passed[seat]:
            seat = (seat + 1) % self.n
        self.turn = seat

    def _reveal(self, owner: int) -> None:
        card = self.stacks[owner].pop()
        self.revealed = with_entry(self.revealed, owner, (*self.revealed[owner], card))
        revealer = self.turn
        traits = MATCHES[self.goal][card]
        if traits:
            self.matched += traits
            if self.matched >= self.high_bid:
                taken = self.pot
                self._add_gems(revealer, taken)
                self.pot = 0
                self._end_season(("reached", revealer, self.high_bid, taken), revealer)
                return
        elif owner != revealer:
            self.pot -= 1
            self._add_gems(owner, 1)
            if self._won(owner, ("trap", owner)):
                return
        elif any(self._receivers()):
            self.phase = TRAP_GEM
            return
        else:
            # Every opponent holds 4: the gem goes home and the revealer pays for the trap.
            self.pot -= 1
            self.treasury += 1
            paid = min(OWN_TRAP_PAYMENT, self.gems[revealer])
            self._add_gems(revealer, -paid)
            self.pot += paid
            self._end_season(("own trap", revealer, paid))
            return
        self._season_goes_on()

    def _give_trap_gem(self, receiver: int) -> None:
        self.pot -= 1
        self._add_gems(receiver, 1)  # at most 4: a trap from one's own stack never wins
        self.phase = REVEALING
        self._season_goes_on()

    def _season_goes_on(self) -> None:
        """After a reveal settles: end the season if the pot or the stacks are empty."""
        if self.pot == 0:
            self._end_season(("pot empty",))
        elif not any(self.stacks):
            self._end_season(("ran out", self.turn))

    def _won(self, seat: int, ending: tuple[Any, ...]) -> bool:
        if self.gems[seat] < GEMS_TO_WIN:
            return False
        self.winner = seat
        self._record_season(ending, (seat, self.gems[seat]))
        self.phase = GAME_OVER
        return True

    def _record_season(
        self, ending: tuple[Any, ...], won: tuple[int, int] | None = None
    ) -> None:
        """`ending` says how the season ended, as `season_end_words` reads it; `won`: the
        seat that won the game by it, and its gems."""
        self.past_seasons += (
            {
                "year": self.year,
                "season": self.season,
                "goal": CARD_NAMES[self.goal],
                "starting_player": self.starter,
                "high_bidder": self.high_bidder,
                "bid": self.high_bid,
                "matched": self.matched,
                "revealed": [[CARD_NAMES[card] for card in mine] for mine in self.revealed],
                "ending": ending,
                "won": won,
            },
        )

    def _end_season(self, ending: tuple[Any, ...], gainer: int = NOBODY) -> None:
        if gainer != NOBODY and self._won(gainer, ending):
            return
        self._record_season(ending)
        self.treasury += self.pot
        self.pot = 0
        for seat in range(self.n):  # every card played this season goes back to its hand
            hand = self.hands[seat]
            for card in self.stacks[seat]:
                hand[card] += 1
            for card in self.revealed[seat]:
                hand[card] += 1
            self.stacks[seat] = []
        self.revealed = ((),) * self.n
        self.starter = (self.high_bidder + 1) % self.n
        if self.season >= self.max_seasons:
            self.phase = GAME_OVER  # the season cap: a draw
            return
        self._begin_season()

    def _begin_season(self) -> None:
        self.season += 1
        self.goal = NOBODY
        self.high_bid = 0
        self.high_bidder = NOBODY
        self.passed = (False,) * self.n
        self.matched = 0
        filled = min(POT_FILL, self.treasury)
        self.treasury -= filled
        self.pot += filled
        if self.doors:
            self.phase = REVEAL_GOAL
            return
        # New Year: all Door cards and Clue cards are shuffled together and dealt anew.
        self.year += 1
        self.doors = ALL_DOORS
        self.hands = [[0] * 6 for _ in range(self.n)]
        self.undealt = list(CLUE_COUNTS)
        self.dealt = 0
        self.phase = DEAL_HANDS

    # ------------------------------------------------------------------ outcome
    def returns(self) -> list[float]:
        if self.phase != GAME_OVER:
            return [0.0] * self.n
        # At the season cap nobody has won: every return is 0, as for every capped game.
        return shared_win_returns([] if self.winner == NOBODY else [self.winner], self.n)

    def scores(self) -> list[int]:
        return list(self.gems)

    # ------------------------------------------------------------------ texts
    def _action_text(self, action: int, player: int) -> str:
        if player == CHANCE:
            if action < GOAL:
                card = CARD_NAMES[action - DEAL]
                if self.phase == DEAL_HANDS:
                    return f"deal {card} to {seat_name(self.dealing_to)}"
                return f"deal {card}"
            return f"goal {CARD_NAMES[action - GOAL]}"
        if action < BUILD:
            return f"start stack with {CARD_NAMES[action - START]}"
        if action < BID:
            return f"build {CARD_NAMES[action - BUILD]}"
        if action < PASS:
            return f"bid {action - BID + 1}"
        if action == PASS:
            return "pass"
        if action < GIVE_TRAP_GEM:
            return f"reveal {seat_name(action - REVEAL)}"
        if action < STOP:
            return f"trap gem to {seat_name(action - GIVE_TRAP_GEM)}"
        return f"stop and give a gem to {seat_name(action - STOP)}"

    def _action_fields(self, action: int) -> dict[str, Any]:
        if self.current_player() == CHANCE:
            return {}
        if action < BID:
            return {"card": CARD_NAMES[action % 6]}
        if action < PASS:
            return {"amount": action - BID + 1}
        if action == PASS:
            return {}
        return {"seat": (action - REVEAL) % 6}

    def _describe(self, action: int, actor: int, viewer: int | None, after: State) -> list[str]:
        assert isinstance(after, TrapsState)
        phase = self.phase
        lines: list[str]
        if actor == CHANCE:
            if phase == DEAL_HANDS:
                # Each seat sees its own cards; the whole deal reads as one line.
                seat = self.dealing_to
                name = CARD_NAMES[action - DEAL] if viewer == seat else None
                lines = [
                    LogPart(
                        ("hands", self.year), dealt, seat=seat, viewer=viewer,
                        item=name and a(name), name=name, verb="be dealt", noun="card",
                    )
                ]
            else:
                lines = [
                    f"The {CARD_NAMES[action - GOAL]} Door is turned up as the goal of "
                    f"season {self.season}."
                ]
        else:
            lines = [self._move_line(action, actor, viewer, after)]
        if len(after.past_seasons) > len(self.past_seasons):
            reason = season_end_words(after.past_seasons[-1], viewer)
            lines.append(f"Season {after.past_seasons[-1]['season']} ends: {reason}.")
        if after.phase == GAME_OVER and self.phase != GAME_OVER:
            if after.winner == NOBODY:
                lines.append(self._cap_words())
            elif turned := after._turned_over_words(viewer):
                lines.append(turned)
        if after.season > self.season:
            if after.year > self.year:
                lines.append(
                    f"Year {after.year} begins: the Door and Clue cards are shuffled together "
                    f"and {SET_ASIDE[self.n]} Clue cards are set aside unseen."
                )
            go = "goes" if after.pot == 1 else "go"
            lines.append(
                f"Season {after.season} begins: {plural(after.pot, 'gem')} {go} from the "
                "treasury to the pot."
            )
        return lines

    def _move_line(self, action: int, actor: int, viewer: int | None, after: TrapsState) -> str:
        own = actor == viewer
        if action < BUILD:
            if own:
                return sentence(
                    does(actor, viewer, "start", f"your stack with the {CARD_NAMES[action]}")
                )
            return sentence(does(actor, viewer, "start", "their stack with a face-down card"))
        if action < BID:
            if own:
                card = CARD_NAMES[action - BUILD]
                return sentence(does(actor, viewer, "build", f"the {card} onto your stack"))
            return sentence(does(actor, viewer, "build", "a face-down card onto their stack"))
        if action < PASS:
            return sentence(does(actor, viewer, "bid", plural(action - BID + 1, "trait")))
        if action == PASS:
            return sentence(does(actor, viewer, "pass"))
        if action < GIVE_TRAP_GEM:
            return self._reveal_line(action - REVEAL, after, viewer)
        if action < STOP:
            receiver = whom(action - GIVE_TRAP_GEM, viewer)
            return sentence(does(actor, viewer, "give", f"the trap's gem to {receiver}"))
        gives = agree("give", actor, viewer)
        receiver = whom(action - STOP, viewer)
        return sentence(does(actor, viewer, "stop", f"and {gives} a gem to {receiver}"))

    def _reveal_line(self, owner: int, after: TrapsState, viewer: int | None) -> str:
        card = self.stacks[owner][-1]
        revealer = self.turn
        source = (
            f"{their(revealer, viewer)} own stack"
            if owner == revealer
            else f"{whose(owner, viewer)} stack"
        )
        told = does(revealer, viewer, "reveal", f"the {CARD_NAMES[card]} from {source}")
        traits = MATCHES[self.goal][card]
        if traits:
            total = self.matched + traits
            return f"{told}, matching {plural(traits, 'trait')} ({total} of {self.high_bid})."
        if owner != revealer:
            takes = does(owner, viewer, "take", "a gem from the pot", start=False)
            return f"{told}: a trap, so {takes}."
        if after.phase == TRAP_GEM:
            chooses = does(revealer, viewer, "choose", "who takes its gem", start=False)
            return f"{told}: a trap, so {chooses}."
        return (
            f"{told}: a trap, and every opponent holds {RECEIVER_LIMIT + 1} gems, so the gem "
            "goes back to the treasury."
        )

    def _cap_words(self) -> str:
        return f"The game is a draw: the cap of {plural(self.max_seasons, 'season')} is reached."

    def _turned_over_words(self, viewer: int | None) -> str | None:
        """At a win, the cards still face down, now turned up for all (ruling 21), top card
        first as they would have been revealed; None when no stack holds a card."""
        told = [
            f"{whose(seat, viewer)} stack holds "
            + join([f"the {CARD_NAMES[card]}" for card in reversed(stack)])
            for seat, stack in enumerate(self.stacks)
            if stack
        ]
        if not told:
            return None
        top = " (top card first)" if any(len(stack) > 1 for stack in self.stacks) else ""
        return f"Every stack is turned face up{top}: {'; '.join(told)}."

    # ------------------------------------------------------------------ moments
    def moment(self, after: State) -> dict[str, Any] | None:
        """"season_end" with the goal, the bid, every card revealed and the gems, and
        "game_end" (a win, or a draw at the season cap)."""
        found = []
        for before, _, _, step in self.steps_to(after):
            assert isinstance(before, TrapsState) and isinstance(step, TrapsState)
            if len(step.past_seasons) > len(before.past_seasons):
                record = step.past_seasons[-1]
                bidder = seat_word(record["high_bidder"])
                lines = [
                    sentence(season_end_words(record, None)),
                    f"The goal was the {record['goal']}: {bidder} bid "
                    f"{plural(record['bid'], 'trait')} and matched {record['matched']}.",
                ]
                shown = [
                    f"{join([f'the {name}' for name in cards])} from {seat_word(seat)}'s stack"
                    for seat, cards in enumerate(record["revealed"])
                    if cards
                ]
                if shown:
                    lines.append(f"Cards revealed: {'; '.join(shown)}.")
                if step.phase != GAME_OVER:  # the game's end gives the final gems
                    lines.append(sentence(standing(step.gems, "gem")))
                found.append(new_moment("season_end", f"Season {record['season']} ends", lines))
        if after.is_terminal() and not self.is_terminal():
            assert isinstance(after, TrapsState)
            if after.winner == NOBODY:
                found.append(
                    game_end_moment(after, "gem", lines=[
                        after._cap_words(),
                        *(sentence(f"{seat_word(s)} ends with {plural(n, 'gem')}")
                          for s, n in enumerate(after.gems)),
                    ])
                )
            else:
                turned = after._turned_over_words(None)
                found.append(game_end_moment(after, "gem", lines=[
                    *([turned] if turned else []),
                    *(sentence(f"{seat_word(s)} ends with {plural(n, 'gem')}")
                      for s, n in enumerate(after.gems)),
                ]))
        return combine_moments(found)

    # ------------------------------------------------------------------ views
    def _observe(self, player: int | None) -> dict[str, Any]:
        revealing = self.phase in (REVEALING, TRAP_GEM)
        over = self.phase == GAME_OVER
        stacks = [
            {
                "face_down": len(self.stacks[seat]),
                "revealed": [CARD_NAMES[card] for card in self.revealed[seat]],
                # The owner stacked these cards, so remembers them, bottom to top; once no
                # move can be made, every stack is turned face up for everyone (ruling 21).
                "cards": [CARD_NAMES[card] for card in self.stacks[seat]]
                if seat == player or over
                else None,
            }
            for seat in range(self.n)
        ]
        view: dict[str, Any] = {
            "phase": self.phase,
            "year": self.year,
            "season": self.season,
            "max_seasons": self.max_seasons,
            "door_deck": bin(self.doors).count("1"),
            "goal": None if self.goal == NOBODY else CARD_NAMES[self.goal],
            "pot": self.pot,
            "treasury": self.treasury,
            "gems": list(self.gems),
            "gems_to_win": GEMS_TO_WIN,
            "starting_player": self.starter,
            "turn": self.turn if self.phase in PLAYER_PHASES else None,
            "hand_sizes": [sum(hand) for hand in self.hands],
            "hand": cards_listing(self.hands[player]) if player is not None else None,
            "set_aside": SET_ASIDE[self.n],
            "stacks": stacks,
            "high_bid": self.high_bid,
            "high_bidder": None if self.high_bidder == NOBODY else self.high_bidder,
            "passed": list(self.passed),
            "revealer": self.high_bidder if revealing else None,
            "matched": self.matched,
            "past_seasons": self.shown_records(self.past_seasons, player, public_season),
        }
        if self.phase == GAME_OVER:
            view["winner"] = None if self.winner == NOBODY else self.winner
        return view

    # ------------------------------------------------------------------ hidden steps
    def _trace(self) -> list[_Year]:
        """The history cut into years and seasons: who was dealt and stacked what, where."""
        years: list[_Year] = []
        year = _Year(self.n)
        season: _Season | None = None
        previous_was_deal = False
        for index, (actor, action) in enumerate(zip(self._actors, self._history, strict=True)):
            if actor == CHANCE:
                is_deal = action < GOAL
                if is_deal and not previous_was_deal:
                    year = _Year(self.n)
                    years.append(year)
                if is_deal:
                    year.deals[len(year.deal_steps) // self.hand_size].append(index)
                    year.deal_steps.append(index)
                else:
                    season = _Season(self.n)
                    year.seasons.append(season)
                previous_was_deal = is_deal
                continue
            previous_was_deal = False
            if action < BID:
                assert season is not None
                season.entries[actor].append(index)
            elif REVEAL <= action < GIVE_TRAP_GEM:
                assert season is not None
                season.reveals[action - REVEAL] += 1
        if self.phase == GAME_OVER and self.winner != NOBODY and season is not None:
            # A win leaves the season's stacks on the table, and the end turns them all
            # face up: every card stacked that season is known, as if revealed. (At the
            # season cap the stacks went back to hand unseen and stay hidden.)
            season.reveals = [len(entries) for entries in season.entries]
        return years

    def _hidden_steps(self, player: int | None) -> set[int]:
        hidden: set[int] = set()
        for year in self._trace():
            for seat in range(self.n):
                if seat == player:
                    continue
                hidden.update(year.deals[seat])
                for season in year.seasons:
                    entries = season.entries[seat]
                    hidden.update(entries[: len(entries) - season.reveals[seat]])
        return hidden

    def resample(self, player: int | None, rng: random.Random) -> TrapsState:
        """A state drawn among those consistent with what `player` knows, built directly.

        Year by year, the hands the seat has not seen are redealt as a uniform deal would
        give them, conditioned on every player holding each card revealed from their stack
        that year (`draw_hands`); the deal order within a hand is shuffled, and each stack's
        unrevealed cards are drawn at random from its owner's hand minus the cards revealed
        from it. The history is rewritten at the hidden steps and the fields they set are
        rebuilt, so the copy is exactly what replaying its history gives (a test checks it).
        """
        twin = self.clone()
        history = twin._history
        years = self._trace()
        for number, year in enumerate(years):
            unknown = [seat for seat in range(self.n) if seat != player]
            hands = self._redeal(year, unknown, player, rng)
            for seat in unknown:
                cards = [card for card, count in enumerate(hands[seat]) for _ in range(count)]
                shuffle(cards, rng)
                for index, card in zip(year.deals[seat], cards, strict=True):
                    history[index] = DEAL + card
            for season in year.seasons:
                for seat in unknown:
                    entries = season.entries[seat]
                    hidden = len(entries) - season.reveals[seat]
                    if not hidden:
                        continue
                    spare = list(hands[seat])
                    for index in entries[hidden:]:
                        spare[history[index] % 6] -= 1
                    cards = [card for card, count in enumerate(spare) for _ in range(count)]
                    shuffle(cards, rng)
                    for index, card in zip(entries[:hidden], cards, strict=False):
                        history[index] = history[index] - history[index] % 6 + card
            if number == self.year - 1:  # not when the current year has no deal yet
                self._rebuild_year(twin, year, unknown, hands)
        return twin

    def _redeal(
        self, year: _Year, unknown: list[int], player: int | None, rng: random.Random
    ) -> list[list[int]]:
        """Per seat, the year's hand (per kind): the seat's own as dealt, the others drawn."""
        history = self._history
        hands = [[0] * 6 for _ in range(self.n)]
        pool = list(CLUE_COUNTS)
        if player is not None:
            for index in year.deals[player]:
                hands[player][history[index] - DEAL] += 1
                pool[history[index] - DEAL] -= 1
        slots: list[tuple[int, tuple[int, ...]]] = []
        for seat in unknown:
            needed = [0] * 6
            for season in year.seasons:
                entries = season.entries[seat]
                shown = [0] * 6
                for index in entries[len(entries) - season.reveals[seat] :]:
                    shown[history[index] % 6] += 1
                needed = [max(a, b) for a, b in zip(needed, shown, strict=True)]
            slots.append((len(year.deals[seat]), tuple(needed)))
        # The cards never dealt to anyone (set aside, or still to come) take no constraint.
        slots.append((sum(pool) - sum(size for size, _ in slots), (0,) * 6))
        drawn = draw_hands(pool, slots, rng)
        for seat, counts in zip(unknown, drawn, strict=False):
            hands[seat] = counts
        hands.append(drawn[-1])  # the undealt remainder, after the seats
        return hands

    def _rebuild_year(
        self, twin: TrapsState, year: _Year, unknown: list[int], hands: list[list[int]]
    ) -> None:
        """Set the current year's hands, stacks and undealt cards of `twin` from its history."""
        history = twin._history
        twin.undealt = hands[self.n]
        current = year.seasons[-1] if year.seasons else None
        for seat in unknown:
            hand = list(hands[seat])
            face_down = len(self.stacks[seat])
            if current is not None and (face_down or self.revealed[seat]):
                entries = current.entries[seat]
                twin.stacks[seat] = [history[index] % 6 for index in entries[:face_down]]
                for index in entries:
                    hand[history[index] % 6] -= 1
            twin.hands[seat] = hand

    # ------------------------------------------------------------------ copying
    def clone(self) -> TrapsState:
        twin = TrapsState(self.game, self)
        twin.n = self.n
        twin.hand_size = self.hand_size
        twin.max_seasons = self.max_seasons
        twin.gems = self.gems
        twin.pot = self.pot
        twin.treasury = self.treasury
        twin.year = self.year
        twin.season = self.season
        twin.doors = self.doors
        twin.goal = self.goal
        twin.hands = [hand.copy() for hand in self.hands]
        twin.stacks = [stack.copy() for stack in self.stacks]
        twin.revealed = self.revealed
        twin.undealt = self.undealt.copy()
        twin.dealt = self.dealt
        twin.starter = self.starter
        twin.turn = self.turn
        twin.high_bid = self.high_bid
        twin.high_bidder = self.high_bidder
        twin.passed = self.passed
        twin.matched = self.matched
        twin.winner = self.winner
        twin.past_seasons = self.past_seasons
        twin.phase = self.phase
        return twin

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self._history),
            tuple(self._actors),
            tuple(self.gems),
            self.pot,
            self.treasury,
            self.year,
            self.season,
            self.doors,
            self.goal,
            tuple(tuple(hand) for hand in self.hands),
            tuple(tuple(stack) for stack in self.stacks),
            tuple(tuple(shown) for shown in self.revealed),
            tuple(self.undealt),
            self.dealt,
            self.starter,
            self.turn,
            self.high_bid,
            self.high_bidder,
            tuple(self.passed),
            self.matched,
            self.winner,
            repr(self.past_seasons),
            self.phase,
        )

    def conserved(self) -> dict[str, int]:
        """Quantities that never change in play (checked by the property tests)."""
        return {
            "gems": sum(self.gems) + self.pot + self.treasury,
            "clue cards": sum(self.undealt)
            + sum(map(sum, self.hands))
            + sum(map(len, self.stacks))
            + sum(map(len, self.revealed)),
        }

    def balance_facts(self) -> dict[str, int | float | str]:
        """For the balance lab: seasons and years played, how seasons ended, the bids, and
        whether the game ended by gems or at the season cap."""
        seasons = self.past_seasons
        ends = dict.fromkeys(
            ("reached", "stop", "pot empty", "ran out", "own trap", "trap"), 0
        )
        for season in seasons:
            ends[season["ending"][0]] += 1
        facts: dict[str, int | float | str] = {
            "first_player": seasons[0]["starting_player"] if seasons else self.starter,
            "length": len(seasons),
            "length_unit": "seasons",
            "years": self.year,
            "ending": "season cap" if self.winner == NOBODY else "5 gems",
        }
        facts.update({f"season ends: {kind}": count for kind, count in ends.items()})
        if seasons:
            facts["mean high bid"] = sum(s["bid"] for s in seasons) / len(seasons)
        return facts


# ---------------------------------------------------------------------------- resampling
class _Year:
    """Where one year's hidden steps are in the history."""

    __slots__ = ("deal_steps", "deals", "seasons")

    def __init__(self, n: int) -> None:
        self.deal_steps: list[int] = []
        self.deals: list[list[int]] = [[] for _ in range(n)]  # per seat, its deal steps
        self.seasons: list[_Season] = []


class _Season:
    __slots__ = ("entries", "reveals")

    def __init__(self, n: int) -> None:
        self.entries: list[list[int]] = [[] for _ in range(n)]  # per seat, stacking steps
        self.reveals = [0] * n  # per seat, cards revealed from the top of its stack


def _multinomial(counts: tuple[int, ...]) -> int:
    """In how many orders a hand with these counts per kind can be dealt."""
    ways = factorial(sum(counts))
    for count in counts:
        ways //= factorial(count)
    return ways


# Every per-kind count vector the Clue deck allows, grouped by size, with its orders.
_VECTORS: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(CLUE_DECK_SIZE + 1)]
for _counts in product(*(range(limit + 1) for limit in CLUE_COUNTS)):
    _VECTORS[sum(_counts)].append((_counts, _multinomial(_counts)))

REJECTION_TRIES: Final = 1000


def draw_hands(
    pool: list[int],
    slots: list[tuple[int, tuple[int, ...]]],
    rng: random.Random,
    tries: int = REJECTION_TRIES,
) -> list[list[int]]:
    """Split the cards `pool` (per kind) into slots of the given sizes, each holding at least
    its required cards, as a uniform shuffle of the pool conditioned on that would.

    Proposal: each slot gets its required cards and the other cards are shuffled into the
    free places. A split with counts x where m were required is proposed in proportion to
    the deal orders of x - m instead of x, so it is accepted with probability
    1 / prod C(x_k, m_k), which makes the accepted draws exact (rejection sampling).
    """
    free = list(pool)
    for _, needed in slots:
        for card, need in enumerate(needed):
            free[card] -= need
    cards = [card for card, count in enumerate(free) for _ in range(count)]
    for _ in range(tries):
        shuffle(cards, rng)
        split, start, accept = [], 0, 1
        for size, needed in slots:
            extra = size - sum(needed)
            counts = list(needed)
            for card in cards[start : start + extra]:
                counts[card] += 1
            start += extra
            for have, need in zip(counts, needed, strict=True):
                if need and have > need:
                    accept *= comb(have, need)
            split.append(counts)
        if accept == 1 or rng.random() * accept < 1:
            return split
    # A safety net that rejection practically never reaches: count the completions slot
    # by slot and draw in proportion, exactly.
    split = []
    left = tuple(pool)
    key = tuple(slots)
    for position, (size, needed) in enumerate(slots):
        rest = key[position + 1 :]
        options = []
        for vector, orders in _VECTORS[size]:
            if _fits(vector, needed, left):
                remaining = tuple(a - b for a, b in zip(left, vector, strict=True))
                weight = orders * (_completions(rest, remaining) if rest else 1)
                if weight:
                    options.append((weight, vector, remaining))
        pick = rng.randrange(sum(weight for weight, _, _ in options))
        for weight, vector, remaining in options:
            if pick < weight:
                split.append(list(vector))
                left = remaining
                break
            pick -= weight
    return split


def _fits(counts: tuple[int, ...], needed: tuple[int, ...], left: tuple[int, ...]) -> bool:
    return all(need <= have <= most for have, need, most in zip(counts, needed, left, strict=True))


@lru_cache(maxsize=1 << 16)
def _completions(slots: tuple[tuple[int, tuple[int, ...]], ...], left: tuple[int, ...]) -> int:
    """Deal orders filling `slots` (sizes and requirements) exactly from the cards `left`."""
    size, needed = slots[0]
    if len(slots) == 1:
        return _multinomial(left) if _fits(left, needed, left) else 0
    total = 0
    for counts, orders in _VECTORS[size]:
        if _fits(counts, needed, left):
            remaining = tuple(a - b for a, b in zip(left, counts, strict=True))
            total += orders * _completions(slots[1:], remaining)
    return total
