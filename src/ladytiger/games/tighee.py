"""Tighee: a trick-taking game for 3-4 where taking exactly 4, 8 or 12 tricks pays off.

Rulebook: Tighee (002_115eec9c44688928), with the rulings of issue 5.
Rules page: docs/rules/tighee.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from ladytiger.core.errors import BadOptionError
from ladytiger.core.game import Game, GameInfo
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
from ladytiger.core.words import agree, does, join, seat_word, sentence, whom

# ---------------------------------------------------------------------------- constants
COLOURS: Final = ("Red", "Purple", "Blue", "Green", "Black")
RED, PURPLE, BLUE, GREEN, BLACK = range(5)
STRIDE: Final = 12  # a card is colour * 12 + (number - 1), in both decks
NUM_CARDS: Final = 5 * STRIDE
CARD_NAMES: Final = tuple(
    f"{COLOURS[card // STRIDE]} {card % STRIDE + 1}" for card in range(5 * STRIDE)
)
COLOUR_MASKS: Final = tuple(((1 << STRIDE) - 1) << (STRIDE * colour) for colour in range(5))
BLACK_MASK: Final = COLOUR_MASKS[BLACK]

# Set Up table: (highest number, cards dealt, cards put out, tricks), by (players, mode).
SETUPS: Final = {
    (4, "basic"): (12, 15, 3, 12),
    (3, "basic"): (12, 20, 5, 15),
    (3, "short"): (8, 13, 3, 10),
}
MODES: Final = ("basic", "short")

# "End of the Round and Score Calculation": a Tighee of 4, 8 or 12 tricks pays; any other
# count but zero costs 10 a trick.
TIGHEE_POINTS: Final = {0: 0, 4: 50, 8: 100, 12: 169}
POINTS_PER_TRICK: Final = -10

# Player actions.
PUT_OUT: Final = 0  # + card: put this card out of the hand, face down, for the Forest deck
PLAY: Final = 60  # + card: play this card to the trick
NUM_ACTIONS: Final = 120

# Chance outcomes.
DEAL: Final = 0  # + card: the next seat in the deal receives this card
REVEAL: Final = 60  # + card: this card is turned up from the Forest deck into the Forest
FIRST_LEAD: Final = 120  # + seat: this seat leads the first trick of the game
NUM_CHANCE_OUTCOMES: Final = 124

# Phases, named after the rulebook's steps.
CHOOSING_LEAD: Final = "choose first lead"  # Flow 1, only with option random_first_lead
DEALING: Final = "deal"  # Set Up 1
PUTTING_OUT: Final = "put out"  # Set Up 2
REVEALING: Final = "reveal Forest card"  # Flow 2
PLAYING: Final = "play"  # Flow 3-4
GAME_OVER: Final = "game over"

INFO: Final = GameInfo(
    name="tighee",
    title="Tighee",
    description="Trick-taking for 3-4: Black tigers hide in the Forest; take 4, 8 or 12 tricks.",
    min_players=3,
    max_players=4,
    options=(
        Option("mode", "basic", "basic, or short (3 players, cards 1-8)", choices=MODES),
        Option("random_first_lead", False, "draw the first round's lead at random"),
    ),
    imperfect_information=True,
    rules_page="docs/rules/tighee.md",
    variants=({"players": 3, "mode": "short"},),
)


@register_game
class TigheeGame(Game):
    info = INFO

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        mode = self.options["mode"]
        if (self.num_players, mode) not in SETUPS:
            raise BadOptionError(
                f"tighee: mode {mode!r} is the 3-player short game; "
                f"{self.num_players} players play mode 'basic'"
            )
        top, self.hand_size, self.put_out_count, self.tricks_per_round = SETUPS[
            (self.num_players, mode)
        ]
        self.deck_mask = 0
        for colour in range(5):
            self.deck_mask |= ((1 << top) - 1) << (STRIDE * colour)
        self.top_number = top
        self.deck_cards = tuple(cards_in(self.deck_mask))

    def new_initial_state(self) -> TigheeState:
        return TigheeState(self)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        # Every game has exactly this length: rounds of deal, put-out and fixed tricks.
        n = self.num_players
        per_round = n * self.hand_size + n * self.put_out_count + self.tricks_per_round * (1 + n)
        return int(self.options["random_first_lead"]) + n * per_round


# ---------------------------------------------------------------------------- rules
# Per colour, the cards of each 12-bit pattern, so listing a hand costs five look-ups; the
# same tables with the action offsets added list moves and outcomes without arithmetic.
_PATTERN: Final = (1 << STRIDE) - 1
_PATTERN_CARDS: Final = tuple(
    tuple(
        tuple(colour * STRIDE + bit for bit in range(STRIDE) if pattern >> bit & 1)
        for pattern in range(1 << STRIDE)
    )
    for colour in range(5)
)
_PATTERN_PLAYS: Final = tuple(
    tuple(tuple(PLAY + card for card in cards) for cards in patterns)
    for patterns in _PATTERN_CARDS
)
_PATTERN_REVEALS: Final = tuple(
    tuple(tuple(REVEAL + card for card in cards) for cards in patterns)
    for patterns in _PATTERN_CARDS
)
# A card's deal outcome and its put-out action are numbered as the card itself.
assert DEAL == PUT_OUT == 0


# Each (outcome, probability) pair a chance node lists when its n outcomes are equally likely
# (n is at most the 60 cards), made once: a deal lists every unseen card at each card it
# deals, and making these pairs afresh was a fifth of a random playout's work.
# (Typed Any so that compiled code hands out these very tuples instead of rebuilding them.)
_EVEN_ODDS: Final[tuple[tuple[Any, ...], ...]] = tuple(
    tuple((outcome, 1.0 / n) for outcome in range(NUM_CHANCE_OUTCOMES)) if n else ()
    for n in range(61)
)


def listed(mask: int, table: tuple[tuple[tuple[int, ...], ...], ...]) -> list[int]:
    """The entries of `table` for the cards of `mask`, lowest card first."""
    return [
        *table[RED][mask & _PATTERN],
        *table[PURPLE][mask >> STRIDE & _PATTERN],
        *table[BLUE][mask >> 2 * STRIDE & _PATTERN],
        *table[GREEN][mask >> 3 * STRIDE & _PATTERN],
        *table[BLACK][mask >> 4 * STRIDE],
    ]


def cards_in(mask: int) -> list[int]:
    """The cards of a bitmask, lowest first (so hands list in a fixed colour order)."""
    return listed(mask, _PATTERN_CARDS)


def names(mask: int) -> list[str]:
    return [CARD_NAMES[card] for card in cards_in(mask)]


def counts_as(card: int, forest: int) -> int:
    """The colour a played card counts as: a Black card takes the Forest card's colour."""
    colour = card // STRIDE
    return forest // STRIDE if colour == BLACK else colour


def playable(hand: int, follow: int) -> int:
    """The cards of `hand` a player may play now (`refusal` gives the rule in words).

    `follow` is the colour to follow, or -1 for the lead. Holding a card printed in that
    colour obliges you to play that colour or a Black card; when the colour to follow is
    Black itself (Black Forest card and Black lead) that leaves only Black cards.
    """
    if follow < 0:
        return hand
    own = hand & COLOUR_MASKS[follow]
    if not own:
        return hand
    if follow == BLACK:
        return own
    return own | (hand & BLACK_MASK)


def refusal(hand: int, follow: int) -> str:
    """The rule of `playable` that forbids the other cards, naming the card that forces it."""
    own = hand & COLOUR_MASKS[follow]
    forcing = CARD_NAMES[(own & -own).bit_length() - 1]
    if follow == BLACK:
        return (
            "you must follow Black: the Forest card and the lead are both Black, "
            f"and you hold {forcing}"
        )
    return f"you must follow {COLOURS[follow]} or play a Black card: you hold {forcing}"


def trick_winner(cards: list[int] | tuple[int, ...], forest: int) -> int:
    """Position, in play order, of the card that takes the trick (Flow of the Game 5).

    If every card counts as the colour to follow, the highest number wins; otherwise the
    lowest number among the cards that do not follow. On equal numbers the later card wins.
    """
    follow = counts_as(cards[0], forest)
    colours = [counts_as(card, forest) for card in cards]
    if all(colour == follow for colour in colours):
        best = 0
        for position in range(1, len(cards)):
            if cards[position] % STRIDE >= cards[best] % STRIDE:
                best = position
        return best
    best = -1
    for position, card in enumerate(cards):
        if colours[position] != follow and (best < 0 or card % STRIDE <= cards[best] % STRIDE):
            best = position
    return best


def round_points(tricks: int) -> int:
    return TIGHEE_POINTS.get(tricks, POINTS_PER_TRICK * tricks)


def next_first_lead(totals: Sequence[int], previous: int) -> int:
    """The lowest total leads; among equals, the first clockwise after the previous lead."""
    n = len(totals)
    low = min(totals)
    for step in range(1, n + 1):
        seat = (previous + step) % n
        if totals[seat] == low:
            return seat
    raise AssertionError("unreachable")


def winners(totals: Sequence[int], last_round: list[int]) -> list[int]:
    """Highest total; a tie goes to the higher score of the last round, else it is shared."""
    best = max(totals)
    tied = [seat for seat, total in enumerate(totals) if total == best]
    best_last = max(last_round[seat] for seat in tied)
    return [seat for seat in tied if last_round[seat] == best_last]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _counted_as(card: int, forest: int) -> str:
    """A Black card's colour in a list of plays: " (as Red 2)"; nothing for other cards."""
    if card // STRIDE != BLACK:
        return ""
    return f" (as {COLOURS[counts_as(card, forest)]} {card % STRIDE + 1})"


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


# ---------------------------------------------------------------------------- the state
class TigheeState(State):
    def __init__(self, game: Game, copy_of: TigheeState | None = None) -> None:
        super().__init__(game, copy_of)
        if copy_of is not None:  # clone() copies the rest of the position in
            return
        assert isinstance(game, TigheeGame)
        # The deck and deal sizes this game was set up with (`game` is typed as any Game).
        self.setup = game
        n = game.num_players
        self.n = n
        # The fields that are tuples are replaced when they change (a trick, a round), so
        # that clone() can share them instead of copying.
        self.totals: tuple[int, ...] = (0,) * n
        self.past_rounds: tuple[dict[str, Any], ...] = ()
        self.round = 0
        self.first_lead = 0
        self.phase = CHOOSING_LEAD if game.options["random_first_lead"] else DEALING
        self._new_round_zones()

    def _new_round_zones(self) -> None:
        n = self.n
        self.undealt: int = self.setup.deck_mask
        # The same cards in order, so each deal lists its outcomes without rebuilding them.
        self.undealt_cards = list(self.setup.deck_cards)
        self.dealt = 0
        self.hands = [0] * n
        self.put_out: tuple[int, ...] = (0,) * n
        self.putter = 0
        self.forest_deck = 0
        self.forest = -1
        self.lead = self.first_lead
        self.turn = self.first_lead
        self.trick: list[int] = []
        self.follow = -1
        self.won: tuple[int, ...] = (0,) * n
        self.won_cards: tuple[int, ...] = (0,) * n
        self.tops: tuple[int, ...] = (-1,) * n
        # lead, forest, cards, winner
        self.tricks: tuple[tuple[int, int, tuple[int, ...], int], ...] = ()

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        phase = self.phase
        if phase == PLAYING:
            return self.turn
        if phase == PUTTING_OUT:
            return self.putter
        if phase == GAME_OVER:
            return TERMINAL
        return CHANCE

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self) -> list[int]:
        # Asked at every step of a playout: on a seat's turn, answer without first
        # asking whose turn it is; chance nodes and the end take the shared verb.
        if self.phase in (PLAYING, PUTTING_OUT):
            return self._legal_actions()
        return super().legal_actions()

    def _legal_actions(self) -> list[int]:
        if self.phase == PLAYING:
            return listed(playable(self.hands[self.turn], self.follow), _PATTERN_PLAYS)
        return listed(self.hands[self.putter], _PATTERN_CARDS)

    def _is_legal(self, action: int) -> bool:
        # The same masks as the listings above, tested bit by bit.
        phase = self.phase
        if phase == PLAYING:
            card = action - PLAY
            hand = self.hands[self.turn]
            return 0 <= card < NUM_CARDS and playable(hand, self.follow) >> card & 1 == 1
        if phase == DEALING:
            return 0 <= action < REVEAL and self.undealt >> action & 1 == 1
        if phase == REVEALING:
            card = action - REVEAL
            return 0 <= card < NUM_CARDS and self.forest_deck >> card & 1 == 1
        if phase == PUTTING_OUT:
            return 0 <= action < PLAY and self.hands[self.putter] >> action & 1 == 1
        return False

    def _why_illegal(self, action: int) -> str | None:
        phase = self.phase
        if phase in (CHOOSING_LEAD, DEALING, REVEALING):
            return self._why_impossible(action)
        card = action - PLAY if action >= PLAY else action - PUT_OUT
        game = self.setup
        if not game.deck_mask >> card & 1:
            return f"there is no {CARD_NAMES[card]} in the short game (cards 1 to 8)"
        if phase == PUTTING_OUT:
            if action >= PLAY:
                left = game.put_out_count - self.put_out[self.putter].bit_count()
                return (
                    "the tricks start once everyone has put out cards for the Forest deck; "
                    f"put out {plural(left, 'more card')}"
                )
            return f"you do not hold {CARD_NAMES[card]}"
        if action < PLAY:
            return "the Forest deck was made before the first trick; now play a card"
        hand = self.hands[self.turn]
        if not hand >> card & 1:
            return f"you do not hold {CARD_NAMES[card]}"
        return None if playable(hand, self.follow) >> card & 1 else refusal(hand, self.follow)

    def _why_impossible(self, action: int) -> str:
        """Why a chance outcome cannot happen now."""
        phase = self.phase
        if phase == CHOOSING_LEAD:
            if action >= FIRST_LEAD:
                return f"there is no {seat_name(action - FIRST_LEAD)} in this game"
            return "the game starts by choosing who leads first"
        game = self.setup
        if phase == DEALING and action < REVEAL:
            card = action - DEAL
            if not game.deck_mask >> card & 1:
                return f"there is no {CARD_NAMES[card]} in the short game (cards 1 to 8)"
            return f"{CARD_NAMES[card]} has already been dealt"
        if phase == REVEALING and REVEAL <= action < FIRST_LEAD:
            return f"{CARD_NAMES[action - REVEAL]} is not in the Forest deck"
        return f"this is not an outcome of the '{phase}' step"

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == DEALING:
            outcomes = self.undealt_cards
        elif phase == REVEALING:
            outcomes = listed(self.forest_deck, _PATTERN_REVEALS)
        elif phase == CHOOSING_LEAD:
            outcomes = [FIRST_LEAD + seat for seat in range(self.n)]
        else:
            return []
        # Every unseen card (every seat, for the first lead) is equally likely.
        odds = _EVEN_ODDS[len(outcomes)]
        listing: list[Any] = [odds[outcome] for outcome in outcomes]
        return listing

    # ------------------------------------------------------------------ apply
    def _deal_all(self, actions: list[int]) -> None:
        """The deal steps `actions` at once, as `_apply` would deal them one by one (for
        resample, which redeals a round: removing cards one at a time is what costs)."""
        n = self.n
        dealt = self.dealt
        for action in actions:
            card = action - DEAL
            self.hands[dealt % n] |= 1 << card
            self.undealt ^= 1 << card
            dealt += 1
        undealt = self.undealt
        self.undealt_cards = [card for card in self.undealt_cards if undealt >> card & 1]
        self.dealt = dealt
        if dealt == n * self.setup.hand_size:
            self.phase = PUTTING_OUT
            self.putter = 0

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == DEALING:
            card = action - DEAL
            self.hands[self.dealt % self.n] |= 1 << card
            self.undealt ^= 1 << card
            self.undealt_cards.remove(card)
            self.dealt += 1
            if self.dealt == self.n * self.setup.hand_size:
                self.phase = PUTTING_OUT
                self.putter = 0
        elif phase == PLAYING:
            self._play(action - PLAY)
        elif phase == REVEALING:
            card = action - REVEAL
            self.forest = card
            self.forest_deck ^= 1 << card
            self.phase = PLAYING
        elif phase == PUTTING_OUT:
            self._put_out(action - PUT_OUT)
        else:  # CHOOSING_LEAD
            self.first_lead = self.lead = self.turn = action - FIRST_LEAD
            self.phase = DEALING

    def _put_out(self, card: int) -> None:
        seat = self.putter
        bit = 1 << card
        self.hands[seat] ^= bit
        self.put_out = with_entry(self.put_out, seat, self.put_out[seat] | bit)
        self.forest_deck |= bit
        if self.put_out[seat].bit_count() == self.setup.put_out_count:
            self.putter += 1
            if self.putter == self.n:
                # The short game's left-over card is shuffled in with the put-out cards.
                self.forest_deck |= self.undealt
                self.undealt = 0
                self.undealt_cards = []
                self.phase = REVEALING

    def _play(self, card: int) -> None:
        self.hands[self.turn] ^= 1 << card
        trick = self.trick
        if not trick:
            self.follow = counts_as(card, self.forest)
        trick.append(card)
        if len(trick) < self.n:
            self.turn = (self.turn + 1) % self.n
            return
        winner = (self.lead + trick_winner(trick, self.forest)) % self.n
        self.won = with_entry(self.won, winner, self.won[winner] + 1)
        self.won_cards = with_entry(self.won_cards, winner, self.won_cards[winner] + self.n + 1)
        # The Forest card goes face up on the won pile.
        self.tops = with_entry(self.tops, winner, self.forest)
        self.tricks += ((self.lead, self.forest, tuple(trick), winner),)
        self.trick = []
        self.forest = -1
        self.follow = -1
        self.lead = self.turn = winner
        if self.hands[winner]:
            self.phase = REVEALING
        else:
            self._end_round()

    def _end_round(self) -> None:
        points = [round_points(tricks) for tricks in self.won]
        self.totals = tuple(
            total + gained for total, gained in zip(self.totals, points, strict=True)
        )
        self.past_rounds += (
            {
                "round": self.round + 1,
                "first_lead": self.first_lead,
                "tricks_won": list(self.won),
                "points": points,
                "totals": list(self.totals),
            },
        )
        if self.round + 1 == self.n:  # as many rounds as players
            self.phase = GAME_OVER
            return
        self.round += 1
        self.first_lead = next_first_lead(self.totals, self.first_lead)
        self._new_round_zones()
        self.phase = DEALING

    # ------------------------------------------------------------------ outcome
    def returns(self) -> list[float]:
        if self.phase != GAME_OVER:
            return [0.0] * self.n
        return shared_win_returns(self.winners(), self.n)

    def winners(self) -> list[int]:
        return winners(self.totals, self.past_rounds[-1]["points"])

    def scores(self) -> list[int]:
        return list(self.totals)

    # ------------------------------------------------------------------ texts
    def _action_text(self, action: int, player: int) -> str:
        if player == CHANCE:
            if action < REVEAL:
                return f"deal {CARD_NAMES[action - DEAL]} to {seat_name(self.dealt % self.n)}"
            if action < FIRST_LEAD:
                return f"reveal {CARD_NAMES[action - REVEAL]}"
            return f"{seat_name(action - FIRST_LEAD)} leads first"
        if action < PLAY:
            return f"put out {CARD_NAMES[action - PUT_OUT]}"
        return f"play {CARD_NAMES[action - PLAY]}"

    def _describe(self, action: int, actor: int, viewer: int | None, after: State) -> list[str]:
        assert isinstance(after, TigheeState)
        phase = self.phase
        if phase == DEALING:
            # Each seat sees its hand in the observation; the log only marks the deal's end.
            if after.phase == DEALING:
                return []
            return [
                f"Round {self.round + 1}: the deck is dealt, {self.setup.hand_size} cards to "
                "each player."
            ]
        if phase == PUTTING_OUT:
            # A line per card: a run of moves is not folded, as the mover is asked again
            # between them and a line once read must not change.
            shown = CARD_NAMES[action - PUT_OUT] if viewer == actor else "a card"
            return [sentence(does(actor, viewer, "put out", f"{shown} face down"))]
        if phase == REVEALING:
            return [
                f"Trick {len(self.tricks) + 1}: the Forest card is {CARD_NAMES[action - REVEAL]}."
            ]
        if phase == CHOOSING_LEAD:
            return [sentence(does(action - FIRST_LEAD, viewer, "be drawn", "to lead first"))]
        card = action - PLAY
        lines = [sentence(does(actor, viewer, "play", CARD_NAMES[card]) + self._black_note(card))]
        if len(after.past_rounds) > len(self.past_rounds) or len(after.tricks) > len(self.tricks):
            lines.append(self._trick_line(self.lead, self.forest, (*self.trick, card), viewer))
        if len(after.past_rounds) > len(self.past_rounds):
            lines.extend(self._round_lines(after, viewer))
        return lines

    def _black_note(self, card: int, forest: int | None = None) -> str:
        """What a Black card counts as under the Forest card (nothing for other cards)."""
        if card // STRIDE != BLACK:
            return ""
        colour = counts_as(card, self.forest if forest is None else forest)
        if colour == BLACK:
            return ", which stays Black under a Black Forest card"
        return f", which counts as {COLOURS[colour]} {card % STRIDE + 1}"

    def _trick_line(
        self, lead: int, forest: int, cards: tuple[int, ...], viewer: int | None
    ) -> str:
        position = trick_winner(cards, forest)
        winner = (lead + position) % self.n
        follow = counts_as(cards[0], forest)
        card = cards[position]
        shown = f"{COLOURS[counts_as(card, forest)]} {card % STRIDE + 1}"
        if all(counts_as(other, forest) == follow for other in cards):
            why = f"the highest {COLOURS[follow]}"
        else:
            why = f"the lowest card not following {COLOURS[follow]}"
        return sentence(does(winner, viewer, "take", f"the trick with {shown}, {why}"))

    def _round_lines(self, after: TigheeState, viewer: int | None) -> list[str]:
        result = after.past_rounds[-1]
        taken = join(
            [
                f"{whom(seat, viewer)} took {plural(tricks, 'trick')} ({signed(points)})"
                for seat, (tricks, points) in enumerate(
                    zip(result["tricks_won"], result["points"], strict=True)
                )
            ]
        )
        lines = [f"Round {result['round']} ends: {taken}."]
        if after.phase == GAME_OVER:
            best = after.winners()
            points = plural(after.totals[best[0]], "point")
            if len(best) == 1:
                lines.append(sentence(does(best[0], viewer, "win", f"the game with {points}")))
            else:
                who = join([whom(seat, viewer) for seat in best])
                lines.append(sentence(f"{who} share the win with {points}"))
        else:
            first = after.first_lead
            leads = agree("lead", first, viewer)
            lines.append(
                sentence(
                    does(first, viewer, "have", f"the lowest total and {leads} round "
                         f"{after.round + 1}")
                )
            )
        return lines

    # ------------------------------------------------------------------ moments
    def moment(self, after: State) -> dict[str, Any] | None:
        """"trick" for every trick taken (its cards and why it won), "round_end" with the
        score table, and "game_end"."""
        found = []
        for before, action, _, step in self.steps_to(after):
            assert isinstance(before, TigheeState) and isinstance(step, TigheeState)
            if before.phase != PLAYING or len(before.trick) + 1 < self.n:
                continue
            cards = (*before.trick, action - PLAY)
            lead, forest = before.lead, before.forest
            played = join(
                [
                    f"{seat_word((lead + position) % self.n)} played {CARD_NAMES[card]}"
                    + _counted_as(card, forest)
                    for position, card in enumerate(cards)
                ]
            )
            winner = (lead + trick_winner(cards, forest)) % self.n
            number = len(before.tricks) + 1
            found.append(
                new_moment(
                    "trick",
                    f"{seat_word(winner)} takes trick {number}",
                    [
                        f"The Forest card was {CARD_NAMES[forest]}: {played}.",
                        before._trick_line(lead, forest, cards, None),
                    ],
                )
            )
            if len(step.past_rounds) > len(before.past_rounds):
                result = step.past_rounds[-1]
                table = [
                    f"{seat_word(seat)} took {plural(tricks, 'trick')}: {signed(points)}, "
                    f"{total} in all."
                    for seat, (tricks, points, total) in enumerate(
                        zip(result["tricks_won"], result["points"], result["totals"], strict=True)
                    )
                ]
                if step.phase != GAME_OVER:
                    table.append(step._round_lines(step, None)[-1])
                found.append(new_moment("round_end", f"Round {result['round']} ends", table))
        if after.is_terminal() and not self.is_terminal():
            found.append(game_end_moment(after))
        return combine_moments(found)

    # ------------------------------------------------------------------ views
    def _observe(self, player: int | None) -> dict[str, Any]:
        game = self.setup
        forest = self.forest
        trick = [
            {
                "seat": (self.lead + position) % self.n,
                "card": CARD_NAMES[card],
                "counts_as": f"{COLOURS[counts_as(card, forest)]} {card % STRIDE + 1}",
            }
            for position, card in enumerate(self.trick)
        ]
        memory = [
            {
                "trick": number + 1,
                "lead": lead,
                "forest": CARD_NAMES[past_forest],
                "cards": [
                    [(lead + position) % self.n, CARD_NAMES[card]]
                    for position, card in enumerate(cards)
                ],
                "winner": winner,
            }
            for number, (lead, past_forest, cards, winner) in enumerate(self.tricks)
        ]
        view: dict[str, Any] = {
            "phase": self.phase,
            "mode": game.options["mode"],
            "round": self.round + 1,
            "rounds": self.n,
            "tricks_per_round": game.tricks_per_round,
            "put_out_per_player": game.put_out_count,
            "first_lead": self.first_lead,
            "lead": self.lead,
            "hand": names(self.hands[player]) if player is not None else None,
            "hand_sizes": [hand.bit_count() for hand in self.hands],
            "put_out": names(self.put_out[player]) if player is not None else None,
            "put_out_counts": [cards.bit_count() for cards in self.put_out],
            "forest": CARD_NAMES[forest] if forest >= 0 else None,
            "forest_deck": self.forest_deck.bit_count(),
            "follow": COLOURS[self.follow] if self.follow >= 0 else None,
            "trick": trick,
            "tricks_won": list(self.won),
            "pile_tops": [CARD_NAMES[top] if top >= 0 else None for top in self.tops],
            "tricks": memory,
            "past_rounds": [
                {key: list(value) if isinstance(value, list) else value
                 for key, value in result.items()}
                for result in self.past_rounds
            ],
        }
        if self.phase == GAME_OVER:
            view["winners"] = self.winners()
        return view

    # ------------------------------------------------------------------ hidden steps
    def _rounds_in_history(self) -> list[_RoundSteps]:
        """Where each round's deals, put-outs and plays sit in the history."""
        n = self.n
        per_deal = n * self.setup.hand_size
        rounds: list[_RoundSteps] = []
        steps: _RoundSteps | None = None
        for index, (actor, action) in enumerate(zip(self._actors, self._history, strict=True)):
            if actor == CHANCE:
                if action < REVEAL:
                    if steps is None or steps.dealt == per_deal:
                        steps = _RoundSteps(n)
                        rounds.append(steps)
                    steps.deals[steps.dealt % n].append(index)
                    steps.dealt += 1
                elif action < FIRST_LEAD:
                    assert steps is not None
                    steps.revealed |= 1 << (action - REVEAL)
            elif steps is not None:
                if action < PLAY:
                    steps.put_outs[actor].append(index)
                else:
                    steps.played[actor] |= 1 << (action - PLAY)
        return rounds

    def _hidden_steps(self, player: int | None) -> set[int]:
        # Other seats' deals and put-out choices stay secret, even after the round: the
        # rules never show who put out which Forest card.
        hidden: set[int] = set()
        for steps in self._rounds_in_history():
            for seat in range(self.n):
                if seat != player:
                    hidden.update(steps.deals[seat])
                    hidden.update(steps.put_outs[seat])
        return hidden

    def voids(self) -> list[int]:
        """Per seat, a bitmask of colours it is known to lack (it did not follow them).

        A follower who plays a card printed neither in the colour to follow nor Black holds
        no card printed in that colour; hands only shrink, so this lasts the round.
        """
        lacking = [0] * self.n
        played = [*self.tricks, (self.lead, self.forest, tuple(self.trick), -1)]
        for lead, forest, cards, _ in played:
            if not cards:
                continue
            follow = counts_as(cards[0], forest)
            for position in range(1, len(cards)):
                colour = cards[position] // STRIDE
                if colour != follow and colour != BLACK:
                    lacking[(lead + position) % self.n] |= 1 << follow
        return lacking

    def resample(self, player: int | None, rng: random.Random) -> TigheeState:
        """A state consistent with what `player` knows, drawn directly (no rejection).

        Per round: the cards `player` has not seen are shared among the other hands (each
        avoiding the colours it is known to lack) and a free pile; the free pile and the
        Forest cards `player` did not put out are shared out as the other seats'
        put-out cards (the rest being the left-over or undealt cards). Each seat's dealt
        cards then go back into its deal slots in random order, and the round under way is
        played again from its first deal (the tests check the copy against a full replay).
        """
        rounds = self._rounds_in_history()
        if not rounds:
            return self.clone()
        game = self.setup
        history = self._history.copy()
        others = [seat for seat in range(self.n) if seat != player]
        for number, steps in enumerate(rounds):
            current = number == len(rounds) - 1
            own_dealt = own_put = 0
            if player is not None:
                for index in steps.deals[player]:
                    own_dealt |= 1 << (history[index] - DEAL)
                for index in steps.put_outs[player]:
                    own_put |= 1 << (history[index] - PUT_OUT)
            seen = own_dealt | steps.revealed
            for seat in others:
                seen |= steps.played[seat]
            unseen = cards_in(game.deck_mask & ~seen)
            if current:
                sizes = [self.hands[seat].bit_count() for seat in others]
                lacking = self.voids()
                lacks = [lacking[seat] for seat in others]
            else:
                sizes = [0] * len(others)
                lacks = [0] * len(others)
            hands, free = share_out(unseen, sizes, lacks, rng)
            pool = free + cards_in(steps.revealed & ~own_put)
            shuffle(pool, rng)
            for slot, seat in enumerate(others):
                put = pool[: len(steps.put_outs[seat])]
                del pool[: len(put)]
                dealt = hands[slot] + put + cards_in(steps.played[seat])
                shuffle(dealt, rng)
                for index, card in zip(steps.deals[seat], dealt, strict=True):
                    history[index] = DEAL + card
                shuffle(put, rng)
                for index, card in zip(steps.put_outs[seat], put, strict=True):
                    history[index] = PUT_OUT + card
        twin = self.clone()
        if len(rounds) > len(self.past_rounds):
            # A finished round leaves only public results behind (tricks won, points), so
            # only the round under way depends on the redrawn steps: it alone is played again.
            twin._new_round_zones()
            twin.phase = DEALING
            steps = rounds[-1]
            first = steps.deals[0][0]
            twin._deal_all(history[first : first + steps.dealt])
            for action in history[first + steps.dealt :]:
                twin._apply(action)
        twin._history = history
        return twin

    # ------------------------------------------------------------------ copying
    def clone(self) -> TigheeState:
        twin = TigheeState(self.game, self)
        twin.setup = self.setup
        twin.n = self.n
        twin.totals = self.totals
        twin.past_rounds = self.past_rounds  # entries are never mutated
        twin.round = self.round
        twin.first_lead = self.first_lead
        twin.phase = self.phase
        twin.undealt = self.undealt
        twin.undealt_cards = self.undealt_cards.copy()
        twin.dealt = self.dealt
        twin.hands = self.hands.copy()
        twin.put_out = self.put_out
        twin.putter = self.putter
        twin.forest_deck = self.forest_deck
        twin.forest = self.forest
        twin.lead = self.lead
        twin.turn = self.turn
        twin.trick = self.trick.copy()
        twin.follow = self.follow
        twin.won = self.won
        twin.won_cards = self.won_cards
        twin.tops = self.tops
        twin.tricks = self.tricks  # entries are tuples
        return twin

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self._history),
            tuple(self._actors),
            tuple(self.totals),
            repr(self.past_rounds),
            self.round,
            self.first_lead,
            self.phase,
            self.undealt,
            tuple(self.undealt_cards),
            self.dealt,
            tuple(self.hands),
            tuple(self.put_out),
            self.putter,
            self.forest_deck,
            self.forest,
            self.lead,
            self.turn,
            tuple(self.trick),
            self.follow,
            tuple(self.won),
            tuple(self.won_cards),
            tuple(self.tops),
            tuple(self.tricks),
        )

    def conserved(self) -> dict[str, int]:
        """Every card is in exactly one zone: undealt, a hand, the Forest, a trick, a pile."""
        hands = sum(hand.bit_count() for hand in self.hands)
        forest = self.forest_deck.bit_count() + (self.forest >= 0)
        return {
            "cards": self.undealt.bit_count() + hands + forest + len(self.trick)
            + sum(self.won_cards),
            "tricks and cards agree": int(sum(self.won_cards) == (self.n + 1) * sum(self.won)),
        }

    def balance_facts(self) -> dict[str, int | float | str]:
        """For the balance lab: tricks played, and how many seats' rounds hit a Tighee of
        4, 8 or 12 tricks, took none, or missed (any other count)."""
        rounds = self.past_rounds
        counts = [tricks for record in rounds for tricks in record["tricks_won"]]
        return {
            # Seats follow the lead clockwise: the first lead of the game plays first.
            "first_player": rounds[0]["first_lead"] if rounds else self.first_lead,
            # Each trick is won by one seat; the round under way has not been recorded yet.
            "length": sum(counts) + (0 if self.phase == GAME_OVER else len(self.tricks)),
            "length_unit": "tricks",
            "tighee of 4": counts.count(4),
            "tighee of 8": counts.count(8),
            "tighee of 12": counts.count(12),
            "no trick": counts.count(0),
            "missed": sum(1 for c in counts if c not in TIGHEE_POINTS),
        }


class _RoundSteps:
    """History indices of one round's hidden steps, and its public plays and reveals."""

    __slots__ = ("deals", "dealt", "played", "put_outs", "revealed")

    def __init__(self, n: int) -> None:
        self.dealt = 0
        self.deals: list[list[int]] = [[] for _ in range(n)]
        self.put_outs: list[list[int]] = [[] for _ in range(n)]
        self.played = [0] * n
        self.revealed = 0


def share_out(
    cards: list[int], sizes: list[int], lacks: list[int], rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """Deal `cards` at random into hands of the given sizes and a free pile (the rest).

    Hand i never receives a colour in `lacks[i]` (a bitmask of colours). Each card goes to a
    hand or the pile with odds by room left, among the places that keep the rest solvable
    (Hall's condition on colours), so the draw never dead-ends.
    """
    cards = cards.copy()
    shuffle(cards, rng)
    hands: list[list[int]] = [[] for _ in sizes]
    if not any(lacks):
        start = 0
        for slot, size in enumerate(sizes):
            hands[slot] = cards[start : start + size]
            start += size
        return hands, cards[start:]
    m = len(sizes)
    free = m  # the pile's place number, after the hands
    room = [*sizes, len(cards) - sum(sizes)]
    supply = [0] * 5
    for card in cards:
        supply[card // STRIDE] += 1
    # Which hands may take each colour, and for every proper set N of hands, the colours
    # that only N (and the pile) may take: their supply must fit in N's room plus the pile's.
    takers = [[slot for slot in range(m) if not lacks[slot] >> colour & 1] for colour in range(5)]
    checks: list[tuple[list[int], list[int]]] = []
    for subset in range((1 << m) - 1):
        inside = [c for c in range(5) if all(subset >> slot & 1 for slot in takers[c])]
        if inside:
            checks.append((inside, [slot for slot in range(m) if subset >> slot & 1]))

    def solvable() -> bool:
        for inside, slots in checks:
            if sum(supply[c] for c in inside) > room[free] + sum(room[s] for s in slots):
                return False
        return True

    pile: list[int] = []
    for card in cards:
        colour = card // STRIDE
        supply[colour] -= 1
        places = [slot for slot in (*takers[colour], free) if room[slot]]
        while True:
            place = rng.choices(places, weights=[room[slot] for slot in places])[0]
            room[place] -= 1
            if len(places) == 1 or solvable():
                break
            room[place] += 1
            places.remove(place)
        (pile if place == free else hands[place]).append(card)
    return hands, pile
