"""Shady Lady: a 2-6 player card game of hidden 3-card hands, Try! and Jack! (its own rulebook).

Rulebook: "Shady Lady Rulebook" (Setup, How to Play, Sets, Try, Jack, Running Out of Cards).
Rules page: docs/rules/shady_lady.md.
"""

from __future__ import annotations

import random
from bisect import insort
from itertools import compress
from typing import Any, Final

from ladytiger.core.errors import LadyTigerError
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
    their,
    whom,
    whose,
)

# ---------------------------------------------------------------------------- constants
NUMBERS: Final = (1, 2, 3, 4, 6, 7, 8, 9)  # there is no 5 ("Contents")
COPIES: Final = 10  # ten cards of each number: 80 cards
DECK_SIZE: Final = len(NUMBERS) * COPIES
# The count per value.
FULL_DECK: Final = tuple(COPIES if value in NUMBERS else 0 for value in range(10))
HAND_SIZE: Final = 3
POINTS_TO_WIN: Final = 3
MAX_PLAYERS: Final = 6

# Strength of a 3-card combination ("Set Strength"): 0 is none; a run is worth its top card
# (3, 4, 8 or 9); a triple is worth TRIPLE + its number, so any triple beats any run.
NO_COMBINATION: Final = 0
TRIPLE: Final = 10

# Cards are their numbers (1-9) everywhere but in action numbers, which use KIND so that no
# action stands for the missing 5.
KIND: Final = {value: index for index, value in enumerate(NUMBERS)}

# Player actions. Seats and kinds are added to a base, the same at every player count.
# Jack! comes first: a player who always makes the lowest-numbered move then ends the game
# within a few turns (the property tests' simplest examples play exactly that way).
JACK: Final = 0  # + seat (0-5): D, declare Jack! naming that seat
DRAW: Final = 6  # A: draw the top card of the draw pile
TAKE: Final = 7  # + seat (7-12): B, take the top card of that seat's pile (one's own included)
DISCARD: Final = 13  # + KIND[card] (13-20): discard that card onto one's own pile
TRY: Final = 21  # C: declare Try!
REVEAL: Final = 22  # answer a Try! by revealing a stronger combination
DECLINE: Final = 23  # answer a Try! by keeping one's hand hidden
NUM_ACTIONS: Final = 24

# Chance outcomes.
CARD: Final = 0  # + KIND[card] (0-7): the next card off the draw pile is that number
FIRST_PLAYER: Final = 8  # + seat: the option that draws the starting player
NUM_CHANCE_OUTCOMES: Final = FIRST_PLAYER + MAX_PLAYERS
_DRAWS: Final = tuple((CARD + KIND[card], card) for card in NUMBERS)  # (outcome, card drawn)

# Phases, named after the rulebook's steps.
CHOOSE_FIRST_PLAYER: Final = "choose first player"
DEAL: Final = "deal"  # "Setup": three cards to each player, seat by seat
TURN: Final = "turn"  # "On your turn": choose A, B, C or D
DRAW_CARD: Final = "draw"  # a card comes off the draw pile to the seat at the head of the queue
DISCARD_ONE: Final = "discard"  # after A or B: discard one card of the four
TRY_ANSWERS: Final = "try"  # after a Try!: each other player in turn reveals a stronger hand or not
DISCARD_HAND: Final = "discard hand"  # after a Try! or Jack!: revealed hands go to the piles
GAME_OVER: Final = "game over"

END_OF_TURN: Final = "end of turn"  # where the draw queue leads after a Try! or Jack!

INFO: Final = GameInfo(
    name="shady_lady",
    title="Shady Lady",
    description="2-6 players: hold a triple or a run in 3 cards, call Try! or Jack!; 3 points win.",
    min_players=2,
    max_players=MAX_PLAYERS,
    options=(
        Option(
            "turn_limit",
            1000,
            "turns after which the game ends as a draw (ours, not the rulebook's)",
            minimum=1,
            maximum=1_000_000,
        ),
        Option("random_first_player", False, "draw the starting player at random"),
    ),
    imperfect_information=True,
    rules_page="docs/rules/shady_lady.md",
    # A short cap lets the property tests reach the draw by turn limit as well.
    variants=({"random_first_player": True, "turn_limit": 30},),
)


@register_game
class ShadyLadyGame(Game):
    info = INFO

    def new_initial_state(self) -> ShadyLadyState:
        return ShadyLadyState(self)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        # The longest turn is a Try! that everyone answers by revealing: the declaration,
        # n - 1 answers, 3 discards and 3 draws per player. A Jack! takes 7 actions, A 3, B 2.
        n = self.num_players
        return 1 + HAND_SIZE * n + self.options["turn_limit"] * max(7 * n, 7)


# ---------------------------------------------------------------------------- combinations
def combination(hand: list[int]) -> int:
    """The strength of a sorted 3-card hand ("Sets"), NO_COMBINATION when it is none."""
    if len(hand) != HAND_SIZE:
        return NO_COMBINATION
    low, middle, high = hand
    if low == high:
        return TRIPLE + low
    # 4 and 6 are not consecutive (there is no 5), and runs do not wrap past 9.
    if middle == low + 1 and high == middle + 1:
        return high
    return NO_COMBINATION


def combination_name(strength: int) -> str:
    if strength > TRIPLE:
        number = strength - TRIPLE
        return f"{number}-{number}-{number} (triple)"
    return f"{strength - 2}-{strength - 1}-{strength} (run)"


def cards_text(cards: list[int]) -> str:
    return " ".join(str(card) for card in cards) if cards else "no cards"


def cards_words(cards: list[int]) -> str:
    """A hand as the log says it: "4, 4 and 9"."""
    return join([str(card) for card in cards]) or "no cards"


def combination_words(strength: int) -> str:
    """"a 7-7-7 triple", "an 8-9-... run", or "no combination"."""
    if not strength:
        return "no combination"
    if strength > TRIPLE:
        number = strength - TRIPLE
        return a(f"{number}-{number}-{number} triple")
    return a(f"{strength - 2}-{strength - 1}-{strength} run")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


_TAKES: Final = tuple(TAKE + seat for seat in range(MAX_PLAYERS))
_DISCARDS: Final = {card: DISCARD + KIND[card] for card in NUMBERS}


class ShadyLadyState(State):
    def __init__(self, game: Game, copy_of: ShadyLadyState | None = None) -> None:
        super().__init__(game, copy_of)
        # What resample() learnt from the history for one seat, kept while the history stays
        # the same: a search resamples the same position for the same seat many times.
        self._plan: _HiddenPlan | None = None
        self._plan_key: tuple[int | None, int] = (None, -1)
        if copy_of is not None:  # clone() copies the rest of the position in
            return
        n = game.num_players
        self.n = n
        self.turn_limit: int = game.options["turn_limit"]
        self.hands: list[list[int]] = [[] for _ in range(n)]  # sorted card values
        # The part of each hand everybody knows (cards taken from piles, revealed hands),
        # sorted; always contained in the hand.
        # Each seat's list is replaced when it changes, never changed in place, so that
        # clone() copies only the outer list.
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.piles: list[list[int]] = [[] for _ in range(n)]  # personal discard piles, bottom first
        self.draw_pile = list(FULL_DECK)  # count per value
        self.draw_count = DECK_SIZE
        self.reshuffles = 0
        # The fields that are tuples are replaced when they change, so that clone() can
        # share them instead of copying.
        self.points: tuple[int, ...] = (0,) * n
        self.first_player = 0
        self.turn_player = 0
        self.turns = 0  # turns completed
        self.draw_queue: tuple[int, ...] = ()  # seats still due a card from the draw pile
        self.after_draws = TURN
        self.declarer = -1  # of the Try! or Jack! being resolved
        self.best = NO_COMBINATION  # the best combination shown in the current Try!
        self.best_seat = -1
        self.responder = -1  # the seat to answer the current Try!
        self.revealers: tuple[int, ...] = ()  # seats that revealed, in turn order from the declarer
        self.discard_queue: tuple[int, ...] = ()  # revealers still discarding their hands
        self.winner = -1
        self.results: tuple[dict[str, Any], ...] = ()  # every Try! and Jack!, for the record
        if game.options["random_first_player"]:
            self.phase = CHOOSE_FIRST_PLAYER
        else:
            self._start_deal()

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        phase = self.phase
        if phase in (TURN, DISCARD_ONE):
            return self.turn_player
        if phase == TRY_ANSWERS:
            return self.responder
        if phase == DISCARD_HAND:
            return self.discard_queue[0]
        if phase == GAME_OVER:
            return TERMINAL
        return CHANCE

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self) -> list[int]:
        # Asked at every step of a playout: on a seat's turn, answer without first
        # asking whose turn it is; chance nodes and the end take the shared verb.
        if self.phase in (TURN, DISCARD_ONE, TRY_ANSWERS, DISCARD_HAND):
            return self._legal_actions()
        return super().legal_actions()

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == TURN:
            seat = self.turn_player
            # Jack! naming any other seat, draw, take from any pile holding cards, and Try!
            actions = [JACK + other for other in range(self.n) if other != seat]
            actions.append(DRAW)
            actions.extend(compress(_TAKES, self.piles))
            if combination(self.hands[seat]):
                actions.append(TRY)
            return actions
        if phase == TRY_ANSWERS:
            return [REVEAL, DECLINE] if self._may_reveal(self.responder) else [DECLINE]
        # DISCARD_ONE or DISCARD_HAND: any card of the (sorted) hand, one action per number
        hand = self.hands[self.current_player()]
        return [_DISCARDS[card] for card in dict.fromkeys(hand)]

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _is_legal(self, action: int) -> bool:
        # The rules of `_legal_actions`, asked of one move instead of listing them all.
        phase = self.phase
        if phase in (DEAL, DRAW_CARD):
            kind = action - CARD
            return 0 <= kind < len(NUMBERS) and self.draw_pile[NUMBERS[kind]] > 0
        if phase == TURN:
            if action == DRAW:
                return True
            if action < DRAW:
                return 0 <= action < self.n and action - JACK != self.turn_player
            if action < DISCARD:
                return action - TAKE < self.n and len(self.piles[action - TAKE]) > 0
            return action == TRY and combination(self.hands[self.turn_player]) > 0
        if phase in (DISCARD_ONE, DISCARD_HAND):
            kind = action - DISCARD
            seat = self.turn_player if phase == DISCARD_ONE else self.discard_queue[0]
            return 0 <= kind < len(NUMBERS) and NUMBERS[kind] in self.hands[seat]
        if phase == TRY_ANSWERS:
            return action == DECLINE or (action == REVEAL and self._may_reveal(self.responder))
        return False

    def _may_reveal(self, seat: int) -> bool:
        """During a Try!, only a strictly stronger combination may be shown ("Try")."""
        return combination(self.hands[seat]) > self.best

    def _why_illegal(self, action: int) -> str | None:
        phase = self.phase
        if phase in (CHOOSE_FIRST_PLAYER, DEAL, DRAW_CARD):
            return self._why_impossible_outcome(action)
        seat = self.current_player()
        hand = self.hands[seat]
        if DISCARD <= action < TRY:
            value = NUMBERS[action - DISCARD]
            if phase == TURN:
                return (
                    "you discard only after drawing a card or taking the top of a discard pile"
                    "; first choose draw, take, try or jack"
                )
            if phase == TRY_ANSWERS:
                return f"answer {seat_name(self.declarer)}'s Try! first: reveal or decline"
            if phase == DISCARD_HAND:
                return f"you hold no {value}; discard your revealed cards {cards_text(hand)}"
            return f"you hold no {value}; your hand is {cards_text(hand)}"
        if phase == DISCARD_ONE:
            return f"you hold four cards: discard one of {cards_text(hand)} to end your turn"
        if phase == DISCARD_HAND:
            return (
                f"discard your revealed cards {cards_text(hand)} one at a time before play goes on"
            )
        if phase == TRY_ANSWERS:
            if action == REVEAL:
                shown = combination_name(self.best)
                mine = combination(hand)
                held = combination_name(mine) if mine else "no combination"
                return (
                    f"you may reveal only a combination stronger than {shown} "
                    f"(shown by {seat_name(self.best_seat)}); your {cards_text(hand)} is {held}"
                )
            return f"{seat_name(self.declarer)} declared Try!: you reveal or decline"
        # TURN
        if action in (REVEAL, DECLINE):
            return "reveal and decline answer another player's Try!; nobody has declared one"
        if action == TRY:
            return (
                "you may declare Try! only while holding a combination (a triple or a run); "
                f"your {cards_text(hand)} is none"
            )
        other = action - (JACK if action < DRAW else TAKE)
        if other >= self.n:
            return f"there is no {seat_name(other)} in a {self.n}-player game"
        if action > DRAW:
            return f"{seat_name(other)}'s discard pile is empty"
        return "name another player for Jack!, not yourself"

    def _why_impossible_outcome(self, action: int) -> str:
        phase = self.phase
        if phase == CHOOSE_FIRST_PLAYER:
            if action >= FIRST_PLAYER:
                return f"there is no {seat_name(action - FIRST_PLAYER)} to start"
            return "the starting player is chosen before any card is dealt"
        if action >= FIRST_PLAYER:
            return "the starting player is not being drawn now: a card comes off the draw pile"
        return f"no {NUMBERS[action - CARD]} is left in the draw pile"

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase in (DEAL, DRAW_CARD):
            total = self.draw_count
            pile = self.draw_pile
            return [(outcome, pile[card] / total) for outcome, card in _DRAWS if pile[card]]
        if phase == CHOOSE_FIRST_PLAYER:
            return [(FIRST_PLAYER + seat, 1.0 / self.n) for seat in range(self.n)]
        return []

    # ------------------------------------------------------------------ apply
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase in (DEAL, DRAW_CARD):
            self._give(NUMBERS[action - CARD])
        elif phase == TURN:
            self._take_turn(action)
        elif phase == DISCARD_ONE:
            self._discard(self.turn_player, NUMBERS[action - DISCARD])
            self._end_turn()
        elif phase == TRY_ANSWERS:
            self._answer_try(action)
        elif phase == DISCARD_HAND:
            self._discard_from_hand(NUMBERS[action - DISCARD])
        else:  # CHOOSE_FIRST_PLAYER
            self.first_player = self.turn_player = action - FIRST_PLAYER
            self._start_deal()

    # Setup: three cards each, seat by seat from seat 0, then the starting player moves.
    def _start_deal(self) -> None:
        self.draw_queue = tuple(seat for seat in range(self.n) for _ in range(HAND_SIZE))
        self.after_draws = TURN
        self.phase = DEAL

    def _start_draws(self, seats: list[int], then: str) -> None:
        self.draw_queue = tuple(seats)
        self.after_draws = then
        self.phase = DRAW_CARD
        if not self.draw_count:
            self._reshuffle()

    def _give(self, card: int) -> None:
        seat = self.draw_queue[0]
        self.draw_queue = self.draw_queue[1:]
        self.draw_pile[card] -= 1
        self.draw_count -= 1
        insort(self.hands[seat], card)
        if self.draw_queue:
            if not self.draw_count:
                self._reshuffle()
        elif self.after_draws == END_OF_TURN:
            self._end_turn()
        else:
            self.phase = self.after_draws

    def _reshuffle(self) -> None:
        """Rulebook "Running Out of Cards": piles keep their top card, the rest is the draw pile.

        The shuffle itself draws nothing: the gathered cards become unseen, and each later
        draw is a chance outcome among them.
        """
        for pile in self.piles:
            for card in pile[:-1]:
                self.draw_pile[card] += 1
            del pile[:-1]
        self.draw_count = sum(self.draw_pile)
        self.reshuffles += 1

    def _take_turn(self, action: int) -> None:
        seat = self.turn_player
        if action < DRAW:
            self._jack(seat, action - JACK)
        elif action == DRAW:
            self._start_draws([seat], DISCARD_ONE)
        elif action < DISCARD:
            card = self.piles[action - TAKE].pop()
            insort(self.hands[seat], card)
            self.known[seat] = sorted([*self.known[seat], card])  # everybody saw the card taken
            self.phase = DISCARD_ONE
        else:  # TRY
            self.declarer = seat
            self._reveal(seat)
            self.best = combination(self.hands[seat])
            self.best_seat = seat
            self.revealers = (seat,)
            self.responder = (seat + 1) % self.n
            self.phase = TRY_ANSWERS

    def _discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            known = self.known[seat].copy()
            known.remove(card)
            self.known[seat] = known
        self.piles[seat].append(card)

    def _reveal(self, seat: int) -> None:
        self.known[seat] = self.hands[seat].copy()

    def _answer_try(self, action: int) -> None:
        seat = self.responder
        if action == REVEAL:
            self._reveal(seat)
            self.best = combination(self.hands[seat])
            self.best_seat = seat
            self.revealers += (seat,)
        # The Try! ends once the player on the declarer's right has answered.
        self.responder = (seat + 1) % self.n
        if self.responder != self.declarer:
            return
        self.responder = -1
        self.results += (
            {
                "turn": self.turns + 1,
                "call": "Try!",
                "declarer": self.declarer,
                "revealed": [self._shown(s) for s in self.revealers],
                "scorer": self.best_seat,
                "why": f"best combination, {combination_name(self.best)}",
            },
        )
        self._score(self.best_seat)

    def _jack(self, declarer: int, target: int) -> None:
        self.declarer = declarer
        self._reveal(target)
        strength = combination(self.hands[target])
        scorer = declarer if strength else target
        self.revealers = (target,)
        self.results += (
            {
                "turn": self.turns + 1,
                "call": "Jack!",
                "declarer": declarer,
                "target": target,
                "revealed": [self._shown(target)],
                "scorer": scorer,
                "why": (
                    f"{seat_name(target)} holds {combination_name(strength)}"
                    if strength
                    else f"{seat_name(target)} holds no combination"
                ),
            },
        )
        self._score(scorer)

    def _shown(self, seat: int) -> dict[str, Any]:
        strength = combination(self.hands[seat])
        return {
            "seat": seat,
            "cards": self.hands[seat].copy(),
            "combination": combination_name(strength) if strength else None,
        }

    def _score(self, seat: int) -> None:
        """One point; reaching 3 wins at once, otherwise the revealed hands are replaced."""
        self.points = with_entry(self.points, seat, self.points[seat] + 1)
        if self.points[seat] >= POINTS_TO_WIN:
            self.winner = seat
            self.phase = GAME_OVER
            return
        self.discard_queue = self.revealers
        self.phase = DISCARD_HAND

    def _discard_from_hand(self, card: int) -> None:
        seat = self.discard_queue[0]
        self._discard(seat, card)
        if self.hands[seat]:
            return
        self.discard_queue = self.discard_queue[1:]
        if not self.discard_queue:
            # Every revealer has discarded: each draws 3, in turn order from the declarer.
            queue = [s for s in self.revealers for _ in range(HAND_SIZE)]
            self._start_draws(queue, END_OF_TURN)

    def _end_turn(self) -> None:
        self.turns += 1
        self.declarer = self.best_seat = -1
        self.best = NO_COMBINATION
        self.revealers = ()
        if self.turns >= self.turn_limit:
            self.phase = GAME_OVER  # our cap: a draw, nobody wins
            return
        self.turn_player = (self.turn_player + 1) % self.n
        self.phase = TURN

    # ------------------------------------------------------------------ outcome
    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0] * self.n
        return shared_win_returns([self.winner], self.n)

    def scores(self) -> list[int]:
        return list(self.points)

    # ------------------------------------------------------------------ texts
    def _action_text(self, action: int, player: int) -> str:
        if player == CHANCE:
            if action >= FIRST_PLAYER:
                return f"{seat_name(action - FIRST_PLAYER)} starts"
            value = NUMBERS[action - CARD]
            if not self.draw_queue:
                return f"card {value}"
            if self.phase == DEAL:
                return f"deal {value} to {seat_name(self.draw_queue[0])}"
            return f"{seat_name(self.draw_queue[0])} draws {value}"
        if action < DRAW:
            return f"jack {seat_name(action - JACK)}"
        if action == DRAW:
            return "draw"
        if action < DISCARD:
            seat = action - TAKE
            if seat < self.n and self.piles[seat]:
                return f"take {self.piles[seat][-1]} from {seat_name(seat)}"
            return f"take from {seat_name(seat)}"
        if action < TRY:
            return f"discard {NUMBERS[action - DISCARD]}"
        if action == TRY:
            return "try"
        return "reveal" if action == REVEAL else "decline"

    def _describe(self, action: int, actor: int, viewer: int | None, after: State) -> list[str]:
        assert isinstance(after, ShadyLadyState)
        phase = self.phase
        lines: list[str] = []
        if actor == CHANCE:
            if self.draw_queue:
                # Only the receiver sees the card; a run of cards (the deal, the three each
                # revealer draws) reads as one line.
                seat = self.draw_queue[0]
                name = str(NUMBERS[action - CARD]) if viewer == seat else None
                deal = phase == DEAL
                lines.append(
                    LogPart(
                        ("deal",) if deal else ("draw", self.turns), dealt, seat=seat,
                        viewer=viewer, item=name and a(name), name=name,
                        verb="be dealt" if deal else "draw", noun="card",
                    )
                )
            else:
                first = action - FIRST_PLAYER
                lines.append(sentence(does(first, viewer, "be drawn", "to start")))
        elif phase == TURN:
            if action < DRAW:
                target = whom(action - JACK, viewer)
                lines.append(sentence(does(actor, viewer, "declare", f"Jack! on {target}")))
            elif action == TRY:
                lines.append(does(actor, viewer, "declare", "Try!"))
            elif action > DRAW:
                # A draw says nothing itself: the card it brings tells it (see above).
                owner = action - TAKE
                pile = (
                    f"{their(actor, viewer)} own pile"
                    if owner == actor
                    else f"{whose(owner, viewer)} pile"
                )
                card = self.piles[owner][-1]
                lines.append(sentence(does(actor, viewer, "take", f"the {card} from {pile}")))
        elif phase in (DISCARD_ONE, DISCARD_HAND):
            discarded = a(str(NUMBERS[action - DISCARD]))
            lines.append(sentence(does(actor, viewer, "discard", discarded)))
        elif action == DECLINE:
            lines.append(sentence(does(actor, viewer, "decline", "to reveal")))
        if after.reshuffles > self.reshuffles:
            lines.append(
                "The draw pile is empty: every discard pile but its top card is shuffled "
                f"into a new draw pile of {plural(after.draw_count, 'card')}."
            )
        shown = self._shown_seat(action)
        if shown is not None:
            lines.append(self._shown_words(shown, after.hands[shown], viewer))
        if len(after.results) > len(self.results):
            lines.append(self._result_words(after, viewer))
        if after.phase == GAME_OVER:
            lines.extend(self._end_words(after, viewer))
        return lines

    def _shown_seat(self, action: int) -> int | None:
        """The seat whose hand `action` turns face up, if it does."""
        if self.phase == TURN and action == TRY:
            return self.turn_player
        if self.phase == TURN and action < DRAW:
            return action - JACK
        if self.phase == TRY_ANSWERS and action == REVEAL:
            return self.responder
        return None

    def _shown_words(self, seat: int, hand: list[int], viewer: int | None) -> str:
        held = combination_words(combination(hand))
        return sentence(does(seat, viewer, "reveal", f"{cards_words(hand)}: {held}"))

    def _result_words(self, after: ShadyLadyState, viewer: int | None) -> str:
        """How the Try! or Jack! just settled was scored."""
        result = after.results[-1]
        scorer = result["scorer"]
        points = plural(after.points[scorer], "point")
        scores = does(scorer, viewer, "score", f"a point ({points} in all)", start=False)
        if result["call"] == "Try!":
            best = combination_words(combination(after.hands[scorer]))
            has = does(scorer, viewer, "have", f"the best combination, {best}", start=False)
            return f"The Try! ends: {has}, so {scores}."
        target = result["target"]
        held = combination_words(combination(after.hands[target]))
        holds = does(target, viewer, "hold", held, start=False)
        verdict = "succeeds" if scorer == result["declarer"] else "fails"
        return f"The Jack! {verdict}: {holds}, so {scores}."

    def _end_words(self, after: ShadyLadyState, viewer: int | None) -> list[str]:
        if after.winner >= 0:
            wins = agree("win", after.winner, viewer)
            over = sentence(
                does(after.winner, viewer, "have", f"{POINTS_TO_WIN} points and {wins} the game")
            )
        else:
            limit = plural(after.turn_limit, "turn")
            over = f"The turn limit of {limit} is reached: the game is a draw."
        hands = "; ".join(
            f"{whom(seat, viewer)} held {cards_words(hand)}"
            for seat, hand in enumerate(after.hands)
        )
        return [over, f"Hands at the end: {hands}."]

    # ------------------------------------------------------------------ moments
    def moment(self, after: State) -> dict[str, Any] | None:
        """"try" when a Try! is declared, answered with a hand or settled; "jack" when a
        Jack! turns a hand up and scores; and "game_end", with every hand shown."""
        found = []
        for before, action, actor, step in self.steps_to(after):
            assert isinstance(before, ShadyLadyState) and isinstance(step, ShadyLadyState)
            if actor == CHANCE:
                continue
            shown = before._shown_seat(action)
            if shown is not None:
                revealed = before._shown_words(shown, step.hands[shown], None)
                if before.phase == TURN and action < DRAW:
                    title = f"{seat_word(actor)} calls Jack! on {seat_word(shown)}"
                    found.append(
                        new_moment("jack", title, [revealed, before._result_words(step, None)])
                    )
                    continue
                title = (
                    f"{seat_word(actor)} declares Try!"
                    if action == TRY
                    else f"{seat_word(actor)} answers the Try!"
                )
                found.append(new_moment("try", title, [revealed]))
            if before.phase == TRY_ANSWERS and len(step.results) > len(before.results):
                scorer = seat_word(step.results[-1]["scorer"])
                found.append(
                    new_moment("try", f"{scorer} wins the Try!", [before._result_words(step, None)])
                )
        if after.is_terminal() and not self.is_terminal():
            assert isinstance(after, ShadyLadyState)
            found.append(game_end_moment(after, lines=self._end_words(after, None)))
        return combine_moments(found)

    # ------------------------------------------------------------------ views
    def _observe(self, player: int | None) -> dict[str, Any]:
        over = self.phase == GAME_OVER
        hands: list[list[int | None]] = []
        for seat in range(self.n):
            hand = self.hands[seat]
            if over or seat == player:
                hands.append(list(hand))
            else:
                known = self.known[seat]
                hands.append([*known, *[None] * (len(hand) - len(known))])
        own = combination(self.hands[player]) if player is not None else NO_COMBINATION
        phase = self.phase
        return {
            "phase": phase,
            "points_to_win": POINTS_TO_WIN,
            "turn": min(self.turns + 1, self.turn_limit),
            "turn_limit": self.turn_limit,
            "first_player": self.first_player,
            "turn_player": self.turn_player,
            "hands": hands,
            "combination": combination_name(own) if own else None,
            "piles": [list(pile) for pile in self.piles],
            "draw_pile": self.draw_count,
            "reshuffles": self.reshuffles,
            "try": (
                {
                    "declarer": self.declarer,
                    "best": combination_name(self.best),
                    "best_seat": self.best_seat,
                    "to_answer": self.responder,
                }
                if phase == TRY_ANSWERS
                else None
            ),
            "discarding": list(self.discard_queue) if phase == DISCARD_HAND else [],
            "results": [dict(result) for result in self.results],
            "winner": self.winner if over and self.winner >= 0 else None,
        }

    # ------------------------------------------------------------------ hidden steps
    def _hidden_steps(self, player: int | None) -> set[int]:
        """Every card off the draw pile to another seat: only its receiver saw it."""
        hidden: set[int] = set()
        walker = self.game.new_initial_state()
        assert isinstance(walker, ShadyLadyState)
        for index, action in enumerate(self._history):
            if walker.phase in (DEAL, DRAW_CARD) and walker.draw_queue[0] != player:
                hidden.add(index)
            walker._apply(action)
        return hidden

    def resample(self, player: int | None, rng: random.Random) -> ShadyLadyState:
        """A state drawn among those consistent with what `player` knows, built directly.

        Rejection would be hopeless: every discard of a card nobody knew a player held says
        that the player's hidden draws included it. So the sampler (see `_sample_draws`)
        gives every hidden draw a number consistent with those discards, with the revealed
        hands and with the cards each draw pile held. Only the hidden hands and the draw
        pile depend on those numbers, so the copy is this state with them rebuilt.
        """
        key = (player, len(self._history))
        plan = self._plan
        if plan is None or self._plan_key != key:
            plan = self._plan = self._hidden_plan(player)
            self._plan_key = key
        for _ in range(_ATTEMPTS):
            drawn = _sample_draws(plan, rng)
            if drawn is not None:
                return self._with_draws(plan, *drawn)
        raise LadyTigerError("could not draw a state consistent with this seat's knowledge")

    def _hidden_plan(self, player: int | None) -> _HiddenPlan:
        """Walk the real history once, noting what `player` knows about each hidden draw."""
        plan = _HiddenPlan(self.n, player)
        walker = self.game.new_initial_state()
        assert isinstance(walker, ShadyLadyState)
        unseen = plan.unseen
        events = plan.events
        for index, action in enumerate(self._history):
            phase = walker.phase
            if phase in (DEAL, DRAW_CARD):
                seat = walker.draw_queue[0]
                if seat == player:
                    unseen[walker.reshuffles][NUMBERS[action - CARD]] -= 1
                else:
                    events.append((_SLOT, seat, len(plan.slot_steps)))
                    plan.slot_steps.append(index)
                    plan.slot_seats.append(seat)
            elif phase == DISCARD_ONE:
                seat = walker.turn_player
                card = NUMBERS[action - DISCARD]
                if seat != player and card not in walker.known[seat]:
                    events.append((_EXIT, seat, card))
            elif (phase == TRY_ANSWERS and action == REVEAL) or (phase == TURN and (
                action == TRY or action < DRAW
            )):
                if action == TRY:
                    seat = walker.turn_player
                elif action == REVEAL:
                    seat = walker.responder
                else:
                    seat = action - JACK
                if seat != player:
                    events.append((_SHOWN, seat, _unknown_part(walker, seat)))
            walker._apply(action)
            if walker.reshuffles == len(unseen):
                events.append((_RESHUFFLE, -1, None))
                unseen.append(list(walker.draw_pile))
        if self.phase == GAME_OVER:  # every hand is shown at the end
            for seat in range(self.n):
                if seat != player:
                    events.append((_SHOWN, seat, _unknown_part(self, seat)))
        # A hidden hand holds its draws plus the cards taken from piles, minus those
        # discarded: the last two are public, and come out as the hand minus its draws.
        for seat in plan.hidden_seats:
            plan.public_part[seat] = [self.hands[seat].count(value) for value in range(10)]
        for step, seat in zip(plan.slot_steps, plan.slot_seats, strict=True):
            plan.public_part[seat][NUMBERS[self._history[step] - CARD]] -= 1
        return plan

    def _with_draws(
        self, plan: _HiddenPlan, values: list[int], draw_pile: list[int]
    ) -> ShadyLadyState:
        """This state with the hidden draws given `values`, and `draw_pile` left to draw."""
        twin = self.clone()
        history = twin._history
        counts = {seat: plan.public_part[seat].copy() for seat in plan.hidden_seats}
        for step, seat, value in zip(plan.slot_steps, plan.slot_seats, values, strict=True):
            history[step] = CARD + KIND[value]
            counts[seat][value] += 1
        for seat, count in counts.items():
            twin.hands[seat] = [value for value in NUMBERS for _ in range(count[value])]
        twin.draw_pile = draw_pile
        return twin

    # ------------------------------------------------------------------ copying
    def clone(self) -> ShadyLadyState:
        twin = ShadyLadyState(self.game, self)
        twin.n = self.n
        twin.turn_limit = self.turn_limit
        twin.hands = [hand.copy() for hand in self.hands]
        twin.known = self.known.copy()  # each seat's list is shared
        twin.piles = [pile.copy() for pile in self.piles]
        twin.draw_pile = self.draw_pile.copy()
        twin.draw_count = self.draw_count
        twin.reshuffles = self.reshuffles
        twin.points = self.points
        twin.first_player = self.first_player
        twin.turn_player = self.turn_player
        twin.turns = self.turns
        twin.draw_queue = self.draw_queue
        twin.after_draws = self.after_draws
        twin.declarer = self.declarer
        twin.best = self.best
        twin.best_seat = self.best_seat
        twin.responder = self.responder
        twin.revealers = self.revealers
        twin.discard_queue = self.discard_queue
        twin.winner = self.winner
        twin.results = self.results  # entries are never mutated
        twin.phase = self.phase
        return twin

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self._history),
            tuple(self._actors),
            tuple(map(tuple, self.hands)),
            tuple(map(tuple, self.known)),
            tuple(map(tuple, self.piles)),
            tuple(self.draw_pile),
            self.draw_count,
            self.reshuffles,
            tuple(self.points),
            self.first_player,
            self.turn_player,
            self.turns,
            tuple(self.draw_queue),
            self.after_draws,
            self.declarer,
            self.best,
            self.best_seat,
            self.responder,
            tuple(self.revealers),
            tuple(self.discard_queue),
            self.winner,
            repr(self.results),
            self.phase,
        )

    def conserved(self) -> dict[str, int]:
        """Each number keeps its ten cards across hands, piles and the draw pile."""
        counts = self.draw_pile.copy()
        for zone in (*self.hands, *self.piles):
            for card in zone:
                counts[card] += 1
        totals = {f"cards numbered {value}": counts[value] for value in NUMBERS}
        totals["draw pile size matches its cards"] = int(self.draw_count == sum(self.draw_pile))
        totals["known cards are in hand"] = int(
            all(_contains(hand, known) for hand, known in zip(self.hands, self.known, strict=True))
        )
        return totals

    def balance_facts(self) -> dict[str, int | float | str]:
        """For the balance lab: turns played, the points Try! and Jack! gave (to the caller
        or to another seat), reshuffles, and whether the game ended by points or turn cap."""
        facts: dict[str, int | float | str] = {
            "first_player": self.first_player,
            # The winning point ends the game inside its turn, before the turn is counted.
            "length": self.turns + (self.winner >= 0),
            "length_unit": "turns",
            "ending": "3 points" if self.winner >= 0 else "turn cap",
            "reshuffles": self.reshuffles,
        }
        for call in ("Try!", "Jack!"):
            made = [r for r in self.results if r["call"] == call]
            to_caller = sum(1 for r in made if r["scorer"] == r["declarer"])
            facts[f"{call} calls"] = len(made)
            facts[f"{call} points to caller"] = to_caller
            facts[f"{call} points to others"] = len(made) - to_caller
        return facts


# ---------------------------------------------------------------------------- resampling aids
# Events of a _HiddenPlan: a card drawn unseen (a slot); a discard of a card nobody knew the
# player held; the unknown part of a hand shown; the draw pile running out.
_SLOT, _EXIT, _SHOWN, _RESHUFFLE = 0, 1, 2, 3
_ATTEMPTS: Final = 100  # fresh starts before giving up; the truth is always reachable
_SEARCH_BUDGET: Final = 5000  # partial deals tried per reshuffle before starting afresh


class _HiddenPlan:
    """What a seat knows about the draws it did not see, in the order things happened."""

    def __init__(self, num_seats: int, player: int | None) -> None:
        self.num_seats = num_seats
        self.hidden_seats = [seat for seat in range(num_seats) if seat != player]
        self.events: list[tuple[int, int, Any]] = []
        self.slot_steps: list[int] = []  # history index of each hidden draw
        self.slot_seats: list[int] = []  # the seat that drew it
        # Per hidden seat, the count per value of its hand that is not its hidden draws:
        # the cards it took from piles minus those it discarded (a count may be negative).
        self.public_part: dict[int, list[int]] = {}
        # Per draw pile (the first, then one per reshuffle): its cards the seat did not see.
        self.unseen: list[list[int]] = [list(FULL_DECK)]


def _sample_draws(
    plan: _HiddenPlan, rng: random.Random
) -> tuple[list[int], list[int]] | None:
    """A number for every hidden draw, consistent with the plan, and the draw pile (count
    per value) that leaves; None on a dead end.

    Each seat's unseen cards are open slots. A discard nobody could foresee gives its number
    to one of the seat's open slots (drawn from the current pile) and closes it; a shown hand
    gives out its unknown cards the same way. When a pile runs out, the cards it has left
    unaccounted for are exactly the open slots' numbers: they are dealt among those slots,
    each seat's share checked against that seat's later discards and reveals. Open slots at
    the end take cards left in the current pile, by their counts.
    """
    values = [0] * len(plan.slot_steps)
    left = plan.unseen[0].copy()  # the current pile's cards not yet given to a slot
    pile = 0
    free: list[list[int]] = [[] for _ in range(plan.num_seats)]  # slots with no number yet
    fixed: list[list[int]] = [[] for _ in range(plan.num_seats)]  # numbers given at reshuffles
    for index, (kind, seat, data) in enumerate(plan.events):
        if kind == _SLOT:
            free[seat].append(data)
        elif kind == _EXIT:
            # A number already given at a reshuffle leaves first: the hand ends up the same.
            if data in fixed[seat]:
                fixed[seat].remove(data)
                continue
            slots = free[seat]
            if not slots or not left[data]:
                return None
            values[slots.pop(rng.randrange(len(slots)))] = data
            left[data] -= 1
        elif kind == _SHOWN:
            cards = list(data)
            for card in fixed[seat]:
                if card not in cards:
                    return None
                cards.remove(card)
            shuffle(cards, rng)
            for slot, card in zip(free[seat], cards, strict=True):
                if not left[card]:
                    return None
                values[slot] = card
                left[card] -= 1
            free[seat] = []
            fixed[seat] = []
        else:
            if not _settle_exhausted_pile(plan, index, left, free, fixed, values, rng):
                return None
            pile += 1
            left = plan.unseen[pile].copy()
    for slots in free:
        for slot in slots:
            total = sum(left)
            card = _weighted_pick(range(10), left, total, rng)
            values[slot] = card
            left[card] -= 1
    return values, left


def _settle_exhausted_pile(
    plan: _HiddenPlan,
    index: int,
    left: list[int],
    free: list[list[int]],
    fixed: list[list[int]],
    values: list[int],
    rng: random.Random,
) -> bool:
    """Deal the run-out pile's unaccounted cards `left` among the open slots `free`.

    A seat's share must fit what it does later (events after `index`); the search goes seat
    by seat, trying shares in a random order weighted by how many ways the cards allow.
    """
    seats = [seat for seat in range(plan.num_seats) if free[seat]]
    shuffle(seats, rng)
    options = [_fitting_shares(plan, index, seat, len(free[seat]), left, fixed[seat])
               for seat in seats]
    chosen: list[tuple[int, ...]] = []
    budget = [_SEARCH_BUDGET]

    def search(depth: int, remaining: list[int]) -> bool:
        if depth == len(seats):
            return True
        weighted = []
        for share in options[depth]:
            ways = 1
            for card in NUMBERS:
                ways *= _choose(remaining[card], share.count(card))
            if ways:
                weighted.append((rng.random() ** (1.0 / ways), share))
        for _, share in sorted(weighted, reverse=True):
            budget[0] -= 1
            if budget[0] < 0:
                return False
            for card in share:
                remaining[card] -= 1
            chosen.append(share)
            if search(depth + 1, remaining):
                return True
            chosen.pop()
            for card in share:
                remaining[card] += 1
        return False

    if not search(0, left.copy()):
        return False
    for seat, share in zip(seats, chosen, strict=True):
        cards = list(share)
        shuffle(cards, rng)
        for slot, card in zip(free[seat], cards, strict=True):
            values[slot] = card
        fixed[seat].extend(cards)
        free[seat] = []
    return True


def _fitting_shares(
    plan: _HiddenPlan, index: int, seat: int, size: int, cards: list[int], fixed: list[int]
) -> list[tuple[int, ...]]:
    """Every multiset of `size` of `cards` (counts) that `seat`'s later play allows."""
    later = [(kind, data) for kind, who, data in plan.events[index + 1 :] if who == seat]
    return [
        share
        for share in _multisets([card for card in NUMBERS if cards[card]], cards, size)
        if _share_fits([*fixed, *share], later)
    ]


def _multisets(kinds: list[int], counts: list[int], size: int) -> list[tuple[int, ...]]:
    if size == 0:
        return [()]
    if not kinds:
        return []
    first, rest = kinds[0], kinds[1:]
    found: list[tuple[int, ...]] = []
    for copies in range(min(size, counts[first]), -1, -1):
        found.extend((first,) * copies + tail for tail in _multisets(rest, counts, size - copies))
    return found


def _share_fits(known: list[int], later: list[tuple[int, Any]]) -> bool:
    """Can a seat holding `known` (plus unseen draws to come) play as it later did?

    Discarding a known number first never hurts: a still-unseen card could be anything.
    """
    held = known.copy()
    unseen = 0
    for kind, data in later:
        if not held:
            return True
        if kind == _SLOT:
            unseen += 1
        elif kind == _EXIT:
            if data in held:
                held.remove(data)
            elif unseen:
                unseen -= 1
            else:
                return False
        else:  # _SHOWN
            return _contains(list(data), held)
    return True


def _choose(n: int, k: int) -> int:
    if k > n:
        return 0
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


def _unknown_part(state: ShadyLadyState, seat: int) -> list[int]:
    """The cards of `seat`'s hand that were not public: the hand minus its known part."""
    rest = state.hands[seat].copy()
    for card in state.known[seat]:
        rest.remove(card)
    return rest


def _contains(hand: list[int], part: list[int]) -> bool:
    rest = hand.copy()
    for card in part:
        if card not in rest:
            return False
        rest.remove(card)
    return True


def _weighted_pick(items: Any, weights: list[int], total: int, rng: random.Random) -> int:
    point = rng.randrange(total)
    for item, weight in zip(items, weights, strict=True):
        point -= weight
        if point < 0:
            return int(item)
    raise AssertionError("weights do not add up to their total")
