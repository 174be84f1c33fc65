"""Favor: a bidding game for 2-4 players of The Lady and the Tiger (rulebook section "Favor").

Over three days players auction growing lots of Clue cards for gems, collecting cards that
match a secret identity, and score them each day. Rules page: docs/rules/favor.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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
    dealt,
    does,
    join,
    number_word,
    plural_noun,
    sentence,
    their,
    turned_up,
    was,
    whom,
)
from ladytiger.games.lady_tiger_cards import (
    BLUE_RED,
    CARD_NAMES,
    CLUE_COUNTS,
    CLUE_DECK_SIZE,
    CLUE_KINDS,
    IDENTITIES,
    LADY_TIGER,
    cards_listing,
    shared_traits,
)

# ---------------------------------------------------------------------------- constants
DAYS: Final = 3
GEMS_PER_DAY: Final = 5
# Card points by how many traits a collected card shares with its owner's identity
# ("Scoring"): none -2, one 1, both 3.
TRAIT_POINTS: Final = (-2, 1, 3)
MOST_GEMS_BONUS: Final = 3
REGULAR_KINDS: Final = IDENTITIES  # the cards a wild can change
# A regular card is colour * 2 + role, so flipping bit 1 changes the colour, bit 0 the role.
CHANGED_BY: Final = {BLUE_RED: 2, LADY_TIGER: 1}

# Player actions.
ADD: Final = 0  # add to the lot: the top card of the deck joins the lot
CALL: Final = 1  # call an auction on the lot
PASS: Final = 2  # let one's chance to bid go
BID: Final = 3  # BID + k - 1: bid k gems (k >= 1; at most every gem of the day, 5 per player)

# Chance outcomes.
DEAL_DOOR: Final = 0  # + identity: the next seat without an identity is dealt this Door card
REVEAL: Final = 4  # + card: this Clue card comes off the deck face up into the lot
FIRST_PLAYER: Final = 10  # + seat: the option that draws the first player of day 1
NUM_CHANCE_OUTCOMES: Final = 14

# Phases, named after the rulebook's steps.
CHOOSE_FIRST_PLAYER: Final = "choose first player"
DEAL_IDENTITIES: Final = "deal identities"
FLIP: Final = "flip"  # turning up cards: the initial lot, a new lot, or the card an Add reveals
TURN: Final = "turn"  # add to the lot or call an auction
AUCTION: Final = "auction"  # a called auction: one chance each, the caller last
FINAL_AUCTION: Final = "final auction"
GAME_OVER: Final = "game over"

NOT_YET: Final = -1  # a seat's entry in `bids` before its chance; 0 is a pass, k > 0 a bid of k
NOBODY: Final = -1

INFO: Final = GameInfo(
    name="favor",
    title="Favor",
    description="Bidding for 2-4: auction growing lots of clues to your secret door, 3 days.",
    min_players=2,
    max_players=4,
    options=(
        Option("random_first_player", False, "draw the first player of day 1 at random"),
    ),
    imperfect_information=True,
    rules_page="docs/rules/favor.md",
    variants=({"random_first_player": True},),
)


@register_game
class FavorGame(Game):
    info = INFO

    def new_initial_state(self) -> FavorState:
        return FavorState(self)

    def num_distinct_actions(self) -> int:
        return BID + GEMS_PER_DAY * self.num_players

    def max_chance_outcomes(self) -> int:
        return NUM_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        # Every turn turns up at least one card and the day's initial lot takes `day` cards,
        # so a day has at most 14 - day turns, each a move plus one chance per seat to bid.
        n = self.num_players
        per_day = [n + CLUE_DECK_SIZE + (CLUE_DECK_SIZE - day) * (1 + n) + n for day in (1, 2, 3)]
        return 1 + sum(per_day)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


# Points of a regular card against a Door, by card and Door: the final scoring asks often.
_CARD_POINTS: Final = tuple(
    tuple(TRAIT_POINTS[shared_traits(card, door)] for door in IDENTITIES) for card in IDENTITIES
)


def card_points(card: int, door: int) -> int:
    return _CARD_POINTS[card][door]


# A plan of wild uses: (wilds, card) pairs, each naming the wilds that change that one card.
Plan = list[tuple[tuple[int, ...], int]]


def best_wild_use(collected: Sequence[int], door: int) -> tuple[int, Plan]:
    """(card points, changes) for the best use of the collected wilds on collected cards.

    A change is (wilds, card): those wilds together change that one card. Each wild changes
    at most one card; both may change the same card; an unused wild does nothing. Among equal
    scores the plan using fewer wilds, Blue/Red first, then the lowest cards, is chosen, so
    the report is stable.
    """
    base = sum(card_points(card, door) * collected[card] for card in REGULAR_KINDS)
    wilds = [wild for wild in (BLUE_RED, LADY_TIGER) if collected[wild]]
    held = [card for card in REGULAR_KINDS if collected[card]]

    def gain(card: int, mask: int) -> int:
        return card_points(card ^ mask, door) - card_points(card, door)

    best_gain: int = 0
    best_plan: Plan = []
    plans: list[Plan] = [[((wild,), card)] for wild in wilds for card in held]
    if len(wilds) == 2:
        plans += [[((BLUE_RED, LADY_TIGER), card)] for card in held]
        plans += [
            [((BLUE_RED,), first), ((LADY_TIGER,), second)]
            for first in held
            for second in held
            if first != second or collected[first] >= 2
        ]
    for plan in plans:
        total = sum(gain(card, sum(CHANGED_BY[w] for w in used)) for used, card in plan)
        if total > best_gain:
            best_gain, best_plan = total, plan
    return base + best_gain, best_plan


def wild_use_texts(collected: Sequence[int], plan: Plan) -> list[str]:
    """The changes in words, then each wild held but left unused."""
    texts = []
    for used, card in plan:
        changed = card ^ sum(CHANGED_BY[w] for w in used)
        names = " and ".join(CARD_NAMES[w] for w in used)
        verb = "turns" if len(used) == 1 else "turn"
        texts.append(f"{names} {verb} a {CARD_NAMES[card]} into a {CARD_NAMES[changed]}")
    used_wilds = {w for used, _ in plan for w in used}
    for wild in (BLUE_RED, LADY_TIGER):
        if collected[wild] and wild not in used_wilds:
            texts.append(f"{CARD_NAMES[wild]} unused")
    return texts


def payments(n: int, caller: int, winner: int, bid: int) -> list[tuple[int, int]]:
    """(seat, gems) received when `winner` takes a called auction for `bid`.

    A winner other than the caller pays the caller everything. A caller who wins shares the
    bid equally among the opponents, rounding down; what is left over goes to the supply.
    """
    if winner != caller:
        return [(caller, bid)]
    share = bid // (n - 1)
    return [(seat, share) for seat in range(n) if seat != caller]


def lot_words(counts: list[int]) -> str:
    """The cards of a lot, repeats counted: "two Red Ladies and a Blue/Red"."""
    return join(
        [
            a(CARD_NAMES[card]) if n == 1 else f"{number_word(n)} {plural_noun(CARD_NAMES[card])}"
            for card, n in enumerate(counts)
            if n
        ]
    )


def day_summary(record: dict[str, Any], viewer: int | None) -> list[str]:
    """The day-end lines for `viewer`: every identity turned up, then every seat's score
    sheet with the wilds' changes shown."""
    return [sentence(f"Day {record['day']} ends: {day_doors(record, viewer)}"),
            *day_sheet(record, viewer)]


def day_doors(record: dict[str, Any], viewer: int | None) -> str:
    """Who was which Door that day: "you were the Red Lady and Seat 1 was the Blue Tiger"."""
    return join(
        [
            f"{whom(seat, viewer)} {was(seat, viewer)} the {name}"
            for seat, name in enumerate(record["identities"])
        ]
    )


def day_sheet(record: dict[str, Any], viewer: int | None) -> list[str]:
    """Every seat's score for the day, one line each."""
    lines = []
    for seat, name in enumerate(record["identities"]):
        wilds = record["wilds"][seat]
        how = f" ({'; '.join(wilds)})" if wilds else ""
        bonus = (
            f" and {MOST_GEMS_BONUS} for the most gems ({record['gems'][seat]})"
            if record["gem_bonus"][seat]
            else ""
        )
        subject = "You" if seat == viewer else f"Seat {seat}"
        verb = "score" if seat == viewer else "scores"
        lines.append(
            f"{subject} (the {name}) {verb} {record['card_points'][seat]} for "
            f"{their(seat, viewer)} cards{how}{bonus}: "
            f"{plural(record['points'][seat], 'point')}, {record['totals'][seat]} in all."
        )
    return lines


class FavorState(State):
    def __init__(self, game: Game, copy_of: FavorState | None = None) -> None:
        super().__init__(game, copy_of)
        if copy_of is not None:  # clone() copies the rest of the position in
            return
        n = game.num_players
        self.n = n
        self.day = 0  # 0, 1, 2 for days 1, 2, 3
        # Fields that change a few times a day are tuples, replaced when they change, so
        # that clone() can share them instead of copying.
        self.points: tuple[int, ...] = (0,) * n  # carried across days
        self.first_player = 0
        self.past_days: tuple[dict[str, Any], ...] = ()
        self._start_day()
        if game.options["random_first_player"]:
            self.phase = CHOOSE_FIRST_PLAYER

    def _start_day(self) -> None:
        """Setup of a day: fresh identities, 5 gems each, the whole deck, nothing collected."""
        n = self.n
        self.identity: tuple[int | None, ...] = (None,) * n
        self.deal_steps: tuple[int, ...] = ()  # history index of each of today's Door deals
        self.gems = [GEMS_PER_DAY] * n
        self.supply = 0
        self.unseen = list(CLUE_COUNTS)  # per kind, the Clue cards still in the deck
        self.deck = CLUE_DECK_SIZE
        self.lot = [0] * 6
        # Per seat, a tuple replaced when the seat takes a lot: clone() copies only the list.
        self.collected: list[tuple[int, ...]] = [(0,) * 6] * n
        self.discarded = [0] * 6
        self.turn = self.first_player  # whose turn it is, or would be next
        self.to_flip = self.day + 1  # the initial lot is 1, 2, 3 cards on days 1, 2, 3
        self.caller = NOBODY  # NOBODY during the final auction
        self.bidder = NOBODY
        self.chances = 0
        self.bids = [NOT_YET] * n
        self.high = 0
        self.high_bidder = NOBODY
        self.phase = DEAL_IDENTITIES

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        phase = self.phase
        if phase == TURN:
            return self.turn
        if phase in (AUCTION, FINAL_AUCTION):
            return self.bidder
        if phase == GAME_OVER:
            return TERMINAL
        return CHANCE

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self) -> list[int]:
        # Asked at every step of a playout: on a seat's turn, answer without first
        # asking whose turn it is; chance nodes and the end take the shared verb.
        if self.phase in (TURN, AUCTION, FINAL_AUCTION):
            return self._legal_actions()
        return super().legal_actions()

    def _legal_actions(self) -> list[int]:
        if self.phase == TURN:
            return [ADD, CALL]
        lowest, highest = self._bid_range()
        return [PASS, *range(BID + lowest - 1, BID + highest)]

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == FLIP:
            card = action - REVEAL
            return 0 <= card < len(CLUE_KINDS) and self.unseen[card] > 0
        if phase == TURN:
            return action in (ADD, CALL)
        if phase in (AUCTION, FINAL_AUCTION):
            lowest, highest = self._bid_range()
            return action == PASS or BID + lowest - 1 <= action < BID + highest
        return False

    def _bid_range(self) -> tuple[int, int]:
        """The bids open to the seat whose chance it is: beat the high bid, at most own gems."""
        return self.high + 1, self.gems[self.bidder]

    def _why_illegal(self, action: int) -> str | None:
        phase = self.phase
        if phase in (CHOOSE_FIRST_PLAYER, DEAL_IDENTITIES, FLIP):
            if phase == DEAL_IDENTITIES and DEAL_DOOR <= action < REVEAL:
                return f"the {CARD_NAMES[action - DEAL_DOOR]} Door is already dealt"
            if phase == FLIP and REVEAL <= action < FIRST_PLAYER:
                return f"no {CARD_NAMES[action - REVEAL]} is left in the deck"
            return f"this is not a chance outcome of the '{phase}' step"
        if action in (ADD, CALL):
            return "an auction is under way: you may only bid or pass"
        if phase == TURN:
            return "no auction is under way: on your turn you add to the lot or call an auction"
        amount = action - BID + 1
        lowest, highest = self._bid_range()
        if amount < lowest:
            return f"a bid must beat the high bid of {self.high}"
        if amount > highest:
            return f"a bid cannot exceed your gems: you hold {plural(highest, 'gem')}"
        return None

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == FLIP:
            total = self.deck
            return [(REVEAL + card, n / total) for card, n in enumerate(self.unseen) if n]
        if phase == DEAL_IDENTITIES:
            left = [door for door in IDENTITIES if door not in self.identity]
            return [(DEAL_DOOR + door, 1.0 / len(left)) for door in left]
        if phase == CHOOSE_FIRST_PLAYER:
            return [(FIRST_PLAYER + seat, 1.0 / self.n) for seat in range(self.n)]
        return []

    # ------------------------------------------------------------------ apply
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == FLIP:
            self._flip(action - REVEAL)
        elif phase in (AUCTION, FINAL_AUCTION):
            self._bid(action)
        elif phase == TURN:
            if action == ADD:
                # Only one card per Add; then play passes left.
                self.turn = (self.turn + 1) % self.n
                self.to_flip = 1
                self.phase = FLIP
            else:
                self._open_auction(self.turn, (self.turn + 1) % self.n, AUCTION)
        elif phase == DEAL_IDENTITIES:
            seat = len(self.deal_steps)
            self.deal_steps += (len(self._history),)
            self.identity = with_entry(self.identity, seat, action - DEAL_DOOR)
            if seat == self.n - 1:
                self.phase = FLIP
        else:  # CHOOSE_FIRST_PLAYER
            self.first_player = self.turn = action - FIRST_PLAYER
            self.phase = DEAL_IDENTITIES

    def _flip(self, card: int) -> None:
        self.unseen[card] -= 1
        self.deck -= 1
        self.lot[card] += 1
        self.to_flip -= 1
        if self.deck == 0:
            # The last card is out: the final auction, begun by whoever would play next.
            self._open_final_auction()
        elif self.to_flip == 0:
            self.phase = TURN

    def _open_auction(self, caller: int, first: int, phase: str) -> None:
        self.caller = caller
        self.bidder = first
        self.chances = 0
        self.bids = [NOT_YET] * self.n
        self.high = 0
        self.high_bidder = NOBODY
        self.phase = phase

    def _open_final_auction(self) -> None:
        self._open_auction(NOBODY, self.turn, FINAL_AUCTION)

    def _bid(self, action: int) -> None:
        seat = self.bidder
        if action == PASS:
            self.bids[seat] = 0
        else:
            amount = action - BID + 1
            self.bids[seat] = self.high = amount
            self.high_bidder = seat
        self.chances += 1
        if self.chances < self.n:
            self.bidder = (seat + 1) % self.n
        elif self.phase == AUCTION:
            self._settle_auction()
        else:
            self._settle_final_auction()

    def _take_lot(self, winner: int) -> None:
        if winner == NOBODY:
            for card in CLUE_KINDS:
                self.discarded[card] += self.lot[card]
        else:
            self.collected[winner] = tuple(
                held + taken for held, taken in zip(self.collected[winner], self.lot, strict=True)
            )
        self.lot = [0] * 6

    def _settle_auction(self) -> None:
        winner, caller = self.high_bidder, self.caller
        if winner != NOBODY:
            self.gems[winner] -= self.high
            left = self.high
            for seat, gems in payments(self.n, caller, winner, self.high):
                self.gems[seat] += gems
                left -= gems
            self.supply += left  # a caller's own win may not split evenly
        self._take_lot(winner)
        self.bidder = NOBODY
        # A new lot starts at once, and play resumes left of the caller.
        self.turn = (caller + 1) % self.n
        self.to_flip = self.day + 1
        self.phase = FLIP

    def _settle_final_auction(self) -> None:
        winner = self.high_bidder
        if winner != NOBODY:
            self.gems[winner] -= self.high
            self.supply += self.high  # nobody receives the gems of the final auction
        self._take_lot(winner)
        self.bidder = NOBODY
        self._end_day(winner if winner != NOBODY else self.turn)

    def _end_day(self, next_first: int) -> None:
        n = self.n
        most = max(self.gems)
        record: dict[str, Any] = {
            "day": self.day + 1,
            "first_player": self.first_player,
            "identities": [],
            "collections": [],
            "wilds": [],
            "card_points": [],
            "gems": list(self.gems),
            "gem_bonus": [],
            "points": [],
            "totals": [],
            "final_auction_winner": None if self.high_bidder == NOBODY else self.high_bidder,
        }
        points = list(self.points)
        for seat in range(n):
            door = self.identity[seat]
            assert door is not None
            mine = self.collected[seat]
            cards, plan = best_wild_use(mine, door)
            bonus = MOST_GEMS_BONUS if self.gems[seat] == most else 0
            points[seat] += cards + bonus
            record["identities"].append(CARD_NAMES[door])
            record["collections"].append(cards_listing(mine))
            record["wilds"].append(wild_use_texts(mine, plan))
            record["card_points"].append(cards)
            record["gem_bonus"].append(bonus)
            record["points"].append(cards + bonus)
            record["totals"].append(points[seat])
        self.points = tuple(points)
        self.past_days += (record,)
        if self.day == DAYS - 1:
            self.phase = GAME_OVER
            return
        self.day += 1
        self.first_player = next_first
        self._start_day()

    # ------------------------------------------------------------------ outcome
    def winner(self) -> int:
        """Most points; then most gems left at the end of day 3; then the first of the tied
        players clockwise from the first player of day 3."""
        n = self.n

        def rank(seat: int) -> tuple[int, int, int]:
            return self.points[seat], self.gems[seat], -((seat - self.first_player) % n)

        return max(range(n), key=rank)

    def returns(self) -> list[float]:
        if self.phase != GAME_OVER:
            return [0.0] * self.n
        return shared_win_returns([self.winner()], self.n)

    def scores(self) -> list[int]:
        return list(self.points)

    # ------------------------------------------------------------------ texts
    def _action_text(self, action: int, player: int) -> str:
        if player == CHANCE:
            if action < REVEAL:
                seat = len(self.deal_steps)
                return f"deal {CARD_NAMES[action - DEAL_DOOR]} to {seat_name(seat)}"
            if action < FIRST_PLAYER:
                return f"reveal {CARD_NAMES[action - REVEAL]}"
            return f"{seat_name(action - FIRST_PLAYER)} goes first"
        if action == ADD:
            return "add to lot"
        if action == CALL:
            return "call auction"
        if action == PASS:
            return "pass"
        return f"bid {action - BID + 1}"

    def _describe(self, action: int, actor: int, viewer: int | None, after: State) -> list[str]:
        assert isinstance(after, FavorState)
        phase = self.phase
        lines: list[str]
        if actor == CHANCE:
            if phase == DEAL_IDENTITIES:
                # Each seat sees only its own Door; the day's deals read as one line.
                seat = len(self.deal_steps)
                door = f"the {CARD_NAMES[action - DEAL_DOOR]} Door" if viewer == seat else None
                lines = [
                    LogPart(
                        ("doors", self.day), dealt, seat=seat, viewer=viewer, item=door,
                        verb="be dealt", noun="Door card", lead=f"Day {self.day + 1}",
                    )
                ]
            elif phase == FLIP:
                lines = [
                    LogPart(
                        ("lot", self.day), turned_up, item=CARD_NAMES[action - REVEAL],
                        where=" for the lot",
                    )
                ]
            else:
                drawn = action - FIRST_PLAYER
                lines = [sentence(does(drawn, viewer, "be drawn", "to play first"))]
        elif action == ADD:
            lines = [sentence(does(actor, viewer, "add", "a card to the lot"))]
        elif action == CALL:
            lines = [sentence(does(actor, viewer, "call", "an auction"))]
        elif action == PASS:
            lines = [sentence(does(actor, viewer, "pass"))]
        else:
            lines = [sentence(does(actor, viewer, "bid", plural(action - BID + 1, "gem")))]
        if phase in (AUCTION, FINAL_AUCTION) and after.phase != phase:
            lines.append(self._auction_result(action, viewer))
        if after.phase == FINAL_AUCTION and phase != FINAL_AUCTION:
            first = does(after.bidder, viewer, "bid", "first", start=False)
            lines.append(
                f"The last card is out: the final auction is for {lot_words(after.lot)}; "
                f"{first}, and the gems go to the supply."
            )
        if len(after.past_days) > len(self.past_days):
            lines.extend(day_summary(after.past_days[-1], viewer))
            if after.phase == GAME_OVER:
                winner = after.winner()
                points = plural(after.points[winner], "point")
                lines.append(sentence(does(winner, viewer, "win", f"the game with {points}")))
            else:
                why = (
                    "won the final auction"
                    if self.high_bidder != NOBODY or action != PASS
                    else "had the first chance to bid in the final auction"
                )
                first = does(after.first_player, viewer, "play", "first", start=False)
                lines.append(f"Day {after.day + 1} begins: {first}, having {why}.")
        return lines

    def _auction_result(self, last: int, viewer: int | None) -> str:
        """In words, how the auction that `last` (a bid or pass) closes is settled."""
        high, winner = self.high, self.high_bidder
        if last != PASS:
            high, winner = last - BID + 1, self.bidder
        lot = lot_words(self.lot)
        if winner == NOBODY:
            return f"Nobody bids: the lot ({lot}) is discarded."
        taken = does(winner, viewer, "win", f"the lot ({lot}) for {plural(high, 'gem')}")
        if self.phase == FINAL_AUCTION:
            return f"{taken}, paid to the supply."
        if winner != self.caller:
            return f"{taken}, paid to {whom(self.caller, viewer)}, who called the auction."
        own = f"{taken} at {their(winner, viewer)} own auction"
        paid = payments(self.n, self.caller, winner, high)
        share = paid[0][1]
        to_supply = high - share * len(paid)
        if share == 0:
            return f"{own}: fewer gems than opponents, so all go to the supply."
        rest = f" and {plural(to_supply, 'gem')} to the supply" if to_supply else ""
        return f"{own}: {plural(share, 'gem')} to each opponent{rest}."

    # ------------------------------------------------------------------ moments
    def moment(self, after: State) -> dict[str, Any] | None:
        """"day_end" with the day's score sheet (every Door turned up), and "game_end"."""
        found = []
        for before, _, _, step in self.steps_to(after):
            assert isinstance(before, FavorState) and isinstance(step, FavorState)
            if len(step.past_days) > len(before.past_days):
                record = step.past_days[-1]
                lines = [sentence(day_doors(record, None)), *day_sheet(record, None)]
                found.append(new_moment("day_end", f"Day {record['day']} ends", lines))
        if after.is_terminal() and not self.is_terminal():
            found.append(game_end_moment(after))
        return combine_moments(found)

    # ------------------------------------------------------------------ views
    def _observe(self, player: int | None) -> dict[str, Any]:
        over = self.phase == GAME_OVER
        identities = [
            CARD_NAMES[door] if door is not None and (seat == player or over) else None
            for seat, door in enumerate(self.identity)
        ]
        auction = None
        if self.phase in (AUCTION, FINAL_AUCTION):
            auction = {
                "final": self.phase == FINAL_AUCTION,
                "caller": None if self.caller == NOBODY else self.caller,
                # Bids lie in front of their bidders, in sight of all.
                "bids": [
                    None if bid == NOT_YET else ("pass" if bid == 0 else bid) for bid in self.bids
                ],
                "high_bid": self.high,
                "high_bidder": None if self.high_bidder == NOBODY else self.high_bidder,
                "to_bid": self.bidder,
            }
        view: dict[str, Any] = {
            "phase": self.phase,
            "day": self.day + 1,
            "days": DAYS,
            "first_player": self.first_player,
            "turn": self.turn,
            "identities": identities,
            "gems": list(self.gems),
            "supply": self.supply,
            "lot": cards_listing(self.lot),
            "deck": self.deck,
            "new_lot_size": self.day + 1,
            "collections": [cards_listing(mine) for mine in self.collected],
            "discarded": cards_listing(self.discarded),
            "auction": auction,
            "past_days": [dict(record) for record in self.past_days],
        }
        if over:
            view["winner"] = self.winner()
        return view

    def _hidden_steps(self, player: int | None) -> set[int]:
        if self.phase == GAME_OVER:
            return set()
        # Only today's Door deals are secret: each day ends by turning them all up.
        return {index for seat, index in enumerate(self.deal_steps) if seat != player}

    def resample(self, player: int | None, rng: random.Random) -> FavorState:
        """Redeal the Doors hidden from `player` directly.

        Nothing in play depends on an identity until the day ends, so every assignment of the
        doors the seat has not seen is equally likely; rewriting the deals in the history
        keeps the copy exactly what replaying it would give.
        """
        hidden = self._hidden_steps(player)
        twin = self.clone()
        if not hidden:
            return twin
        known = self.identity[player] if player is not None else None
        pool = [door for door in IDENTITIES if door != known]
        shuffle(pool, rng)
        identity = list(self.identity)
        for seat, index in enumerate(self.deal_steps):
            if index in hidden:
                door = pool.pop()
                identity[seat] = door
                twin._history[index] = DEAL_DOOR + door
        twin.identity = tuple(identity)
        return twin

    # ------------------------------------------------------------------ copying
    def clone(self) -> FavorState:
        twin = FavorState(self.game, self)
        twin.n = self.n
        twin.day = self.day
        twin.points = self.points
        twin.first_player = self.first_player
        twin.past_days = self.past_days  # entries are never mutated
        twin.identity = self.identity
        twin.deal_steps = self.deal_steps
        twin.gems = self.gems.copy()
        twin.supply = self.supply
        twin.unseen = self.unseen.copy()
        twin.deck = self.deck
        twin.lot = self.lot.copy()
        twin.collected = self.collected.copy()  # each seat's tuple is shared
        twin.discarded = self.discarded.copy()
        twin.turn = self.turn
        twin.to_flip = self.to_flip
        twin.caller = self.caller
        twin.bidder = self.bidder
        twin.chances = self.chances
        twin.bids = self.bids.copy()
        twin.high = self.high
        twin.high_bidder = self.high_bidder
        twin.phase = self.phase
        return twin

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self._history),
            tuple(self._actors),
            self.day,
            tuple(self.points),
            self.first_player,
            repr(self.past_days),
            tuple(self.identity),
            tuple(self.deal_steps),
            tuple(self.gems),
            self.supply,
            tuple(self.unseen),
            self.deck,
            tuple(self.lot),
            tuple(tuple(mine) for mine in self.collected),
            tuple(self.discarded),
            self.turn,
            self.to_flip,
            self.caller,
            self.bidder,
            self.chances,
            tuple(self.bids),
            self.high,
            self.high_bidder,
            self.phase,
        )

    def conserved(self) -> dict[str, int]:
        """Quantities that never change in play (checked by the property tests)."""
        return {
            "clue cards": sum(self.unseen)
            + sum(self.lot)
            + sum(self.discarded)
            + sum(sum(mine) for mine in self.collected),
            "deck matches unseen": int(self.deck == sum(self.unseen)),
            "gems of the day": sum(self.gems) + self.supply,
        }

    def balance_facts(self) -> dict[str, int | float | str]:
        """For the balance lab: auctions (called and final), lots taken or discarded, bids
        and passes, and the mean price of a lot, read from the seats' moves."""
        n = self.n
        moves = [a for a, actor in zip(self._history, self._actors, strict=True) if actor >= 0]
        called = moves.count(CALL)
        answers = [a for a in moves if a not in (ADD, CALL)]
        # Every auction gives each seat one chance, so the answers fall into runs of n.
        auctions = [answers[i : i + n] for i in range(0, len(answers) - n + 1, n)]
        prices = [max(a - BID + 1 for a in run if a >= BID) for run in auctions if max(run) >= BID]
        first = self.past_days[0]["first_player"] if self.past_days else self.first_player
        facts: dict[str, int | float | str] = {
            "first_player": first,
            "length": len(auctions),
            "length_unit": "auctions",
            "auctions called": called,
            "lots taken": len(prices),
            "lots discarded": len(auctions) - len(prices),
            "bids": sum(1 for a in answers if a >= BID),
            "passes": answers.count(PASS),
            "cards added": moves.count(ADD),
        }
        if prices:
            facts["mean price of a lot"] = sum(prices) / len(prices)
        return facts

