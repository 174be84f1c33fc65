"""Hoard: the solo puzzle of The Lady and the Tiger (rulebook section "Hoard").

Clear the Trash off four Door cards and collect all 10 Treasures before the Clue deck runs out
for the third time. Rules page: docs/rules/hoard.md.
"""

from __future__ import annotations

import random
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
    with_entry,
)
from ladytiger.core.words import a, does, join, ordinal, sentence, some, turned_up
from ladytiger.games.lady_tiger_cards import (
    BLUE_LADY,
    BLUE_RED,
    BLUE_TIGER,
    CARD_NAMES,
    CLUE_COUNTS,
    CLUE_DECK_SIZE,
    CLUE_KINDS,
    COLOUR_NAMES,
    IDENTITIES,
    LADY_TIGER,
    RED_LADY,
    RED_TIGER,
    ROLE_NAMES,
    cards_listing,
)

# ---------------------------------------------------------------------------- constants
# Doors are numbered like the cards (colour * 2 + role), so `door ^ SAME_ROLE` is the other
# door of the same role: the only door a gem on `door` may move to.
SAME_ROLE: Final = 2
LAYOUT: Final = ((RED_LADY, BLUE_LADY), (RED_TIGER, BLUE_TIGER))  # Ladies on top, Red on the left
DEAL_ORDER: Final = (RED_LADY, BLUE_LADY, RED_TIGER, BLUE_TIGER)  # reading order of the square

# Gems. A Treasure's number is its colour, so a door's own Treasure is gem `door >> 1`.
RED_TREASURE, BLUE_TREASURE, WHITE, BLACK = 0, 1, 2, 3
GEM_KINDS: Final = (RED_TREASURE, BLUE_TREASURE, WHITE, BLACK)
GEM_NAMES: Final = ("red Treasure", "blue Treasure", "white Trash", "black Trash")
GEM_WORDS: Final = ("red", "blue", "white", "black")
GEMS_PER_KIND: Final = 5
GEMS_PER_DOOR: Final = 5
GEM_TOTAL: Final = GEMS_PER_KIND * len(GEM_KINDS)  # 20
TREASURE_TOTAL: Final = 2 * GEMS_PER_KIND  # 10
ROUNDS: Final = 3

DIFFICULTIES: Final = ("easy", "moderate", "hard", "impossible")
SET_ASIDE_COUNT: Final = {"easy": 0, "moderate": 1, "hard": 2, "impossible": 3}
FACE_DOWN_DIFFICULTY: Final = "impossible"

# Player actions.
MOVE: Final = 0  # + source door * 4 + gem: move that gem to the other door of the same role
REMOVE: Final = 16  # + door: remove every white+black Trash pair from it
COLLECT: Final = 20  # + door * 2 + Treasure colour
PLACE: Final = 28  # + white's door * 4 + black's door: a wild puts a removed pair back
# A wild with no removed Trash: + door giving its black * 4 + door giving its white.
SWAP: Final = 44
NUM_ACTIONS: Final = 60

# Chance outcomes.
DEAL_GEM: Final = 0  # + gem: the next place on the doors gets this gem
SET_ASIDE: Final = 4  # + card: a Clue card set aside face up (moderate, hard)
REVEAL: Final = 10  # + card: the top Clue card of the deck
NUM_CHANCE_OUTCOMES: Final = 16

# Phases, named after the rulebook.
PLACE_GEMS: Final = "place gems"  # "Setup"
SET_ASIDE_CARDS: Final = "set aside clue cards"  # "Difficulty"
REVEAL_CARD: Final = "reveal"  # "Gameplay": reveal a Clue card
TAKE_ACTION: Final = "action"  # "Gameplay": one action on the revealed door, or a wild's duty
GAME_OVER: Final = "game over"

# Which actions each revealed card could ever allow; legality then decides among them.
# (Sorted, so the legal actions filtered from them come out sorted.)
REGULAR_CANDIDATES: Final = {
    card: tuple(
        sorted(
            (
                *(MOVE + card * 4 + gem for gem in GEM_KINDS),
                *(MOVE + (card ^ SAME_ROLE) * 4 + gem for gem in GEM_KINDS),
                REMOVE + card,
                COLLECT + card * 2 + (card >> 1),
            )
        )
    )
    for card in IDENTITIES
}
PLACE_CANDIDATES: Final = {
    # Blue/Red: the two doors of one colour (a column); Lady/Tiger: of one role (a row).
    BLUE_RED: tuple(
        sorted(
            PLACE + up * 4 + down
            for lady, tiger in ((RED_LADY, RED_TIGER), (BLUE_LADY, BLUE_TIGER))
            for up, down in ((lady, tiger), (tiger, lady))
        )
    ),
    LADY_TIGER: tuple(
        sorted(
            PLACE + first * 4 + second
            for red, blue in ((RED_LADY, BLUE_LADY), (RED_TIGER, BLUE_TIGER))
            for first, second in ((red, blue), (blue, red))
        )
    ),
}
SWAP_CANDIDATES: Final = tuple(
    SWAP + black * 4 + white for black in IDENTITIES for white in IDENTITIES if black != white
)

INFO: Final = GameInfo(
    name="hoard",
    title="Hoard",
    description="Solo puzzle: clear the Trash and collect all 10 Treasures in three rounds.",
    min_players=1,
    max_players=1,
    options=(
        Option(
            "difficulty",
            "easy",
            "Clue cards set aside at setup: easy none, moderate 1 and hard 2 face up, "
            "impossible 3 face down",
            choices=DIFFICULTIES,
        ),
    ),
    # The face-down cards of 'impossible' are never drawn before they become known (see
    # the rules page), so no state ever holds a fact the player lacks.
    imperfect_information=False,
    rules_page="docs/rules/hoard.md",
    variants=tuple({"difficulty": level} for level in DIFFICULTIES[1:]),
)


@register_game
class HoardGame(Game):
    info = INFO

    def new_initial_state(self) -> HoardState:
        return HoardState(self)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        # The gem deal, the face-up set-aside draws, then per turn one reveal and at most one
        # action; each round's deck is one card shorter than the last.
        set_aside = SET_ASIDE_COUNT[self.options["difficulty"]]
        face_up = 0 if self.options["difficulty"] == FACE_DOWN_DIFFICULTY else set_aside
        deck = CLUE_DECK_SIZE - set_aside
        turns = sum(deck - played_out for played_out in range(ROUNDS))
        return GEM_TOTAL + face_up + 2 * turns


def door_name(door: int) -> str:
    return CARD_NAMES[door]


def gem_counts(gems: list[int], door: int) -> dict[str, int]:
    return {GEM_WORDS[gem]: gems[door * 4 + gem] for gem in GEM_KINDS}


def trash_words(white: int, black: int) -> str:
    return f"{white} white, {black} black"


def placed_gems(steps: list[dict[str, Any]]) -> str:
    """The setup's gem deal in one sentence: what each door holds, gem kind by gem kind."""
    if len(steps) == 1:
        return sentence(f"{a(steps[0]['gem'])} is placed on the {steps[0]['door']}")
    doors: dict[str, list[int]] = {}
    for step in steps:
        doors.setdefault(step["door"], [0] * len(GEM_KINDS))[GEM_NAMES.index(step["gem"])] += 1
    placed = "; ".join(
        join([some(n, GEM_NAMES[gem], gem_plural(gem)) for gem, n in enumerate(counts) if n])
        + f" on the {door}"
        for door, counts in doors.items()
    )
    return sentence(f"the gems are placed: {placed}")


def gem_plural(gem: int) -> str:
    # Trash is a mass noun: two white Trash, but two red Treasures.
    return GEM_NAMES[gem] if gem in (WHITE, BLACK) else f"{GEM_NAMES[gem]}s"


# The legal actions found for each position key (see `_legal_actions`).
_LEGAL_BY_POSITION: dict[tuple[int, bool, int], tuple[int, ...]] = {}


class HoardState(State):
    def __init__(self, game: Game, copy_of: HoardState | None = None) -> None:
        super().__init__(game, copy_of)
        if copy_of is not None:  # clone() copies the rest of the position in
            return
        difficulty = game.options["difficulty"]
        self.difficulty: str = difficulty
        count = SET_ASIDE_COUNT[difficulty]
        face_down = difficulty == FACE_DOWN_DIFFICULTY
        # Face-down cards are not drawn: they stay among the unseen cards of round 1 (and are
        # identified when that round's deck is used up), which gives every reveal the same
        # odds as a real face-down set-aside.
        self.face_down = count if face_down else 0
        self.to_set_aside = 0 if face_down else count
        self.gems = [0] * (4 * len(IDENTITIES))  # door * 4 + gem
        # The fields that are tuples, and `supply` and `set_aside`, are replaced when they
        # change, never changed in place, so that clone() can share them instead of copying.
        self.supply = [GEMS_PER_KIND] * len(GEM_KINDS)  # gems not yet placed at setup
        self.placed = 0
        self.removed: tuple[int, ...] = (0, 0)  # the removed-Trash pile: white, black
        self.collected: tuple[int, ...] = (0, 0)  # Treasure collected: red, blue
        self.set_aside = [0] * len(CLUE_KINDS)  # known set-aside cards, per kind
        # per kind: not revealed this round and not set aside
        self.unseen: tuple[int, ...] = tuple(CLUE_COUNTS)
        self.deck_size = CLUE_DECK_SIZE - count  # cards left in this round's deck
        self.played: tuple[int, ...] = ()  # this round's revealed cards, in order
        self.markers: tuple[int, ...] = ()  # the card under each covered round marker
        self.revealed: int | None = None  # the card whose action is awaited
        self.won = False
        self.phase = PLACE_GEMS
        self._legal: tuple[int, ...] | None = None  # legal actions here, once computed

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        phase = self.phase
        if phase == TAKE_ACTION:
            return 0
        if phase == GAME_OVER:
            return TERMINAL
        return CHANCE

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self) -> list[int]:
        # Asked at every step of a playout: on a seat's turn, answer without first
        # asking whose turn it is; chance nodes and the end take the shared verb.
        if self.phase == TAKE_ACTION:
            return self._legal_actions()
        return super().legal_actions()

    def _legal_actions(self) -> list[int]:
        if self._legal is None:
            card = self.revealed
            if card is None or self.phase != TAKE_ACTION:
                return []
            # `_forbid` looks only at the card, whether the removed pile holds Trash and
            # which door places hold gems: positions alike in those share one answer.
            places = 0
            for place, count in enumerate(self.gems):
                if count:
                    places |= 1 << place
            key = (card, self.removed[0] > 0, places)
            legal = _LEGAL_BY_POSITION.get(key)
            if legal is None:
                legal = tuple(a for a in self._candidates() if self._forbid(a) is None)
                _LEGAL_BY_POSITION[key] = legal
            self._legal = legal
        return list(self._legal)

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == TAKE_ACTION:
            if self._legal is None:
                self._legal_actions()
            return action in self._legal  # type: ignore[operator]
        if phase in (REVEAL_CARD, SET_ASIDE_CARDS):
            card = action - (REVEAL if phase == REVEAL_CARD else SET_ASIDE)
            return 0 <= card < len(CLUE_KINDS) and self.unseen[card] > 0
        if phase == PLACE_GEMS:
            gem = action - DEAL_GEM
            return 0 <= gem < len(GEM_KINDS) and self.supply[gem] > 0
        return False

    def _candidates(self) -> tuple[int, ...]:
        card = self.revealed
        if card is None or self.phase != TAKE_ACTION:
            return ()
        if card in REGULAR_CANDIDATES:
            return REGULAR_CANDIDATES[card]
        return PLACE_CANDIDATES[card] if self.removed[0] else SWAP_CANDIDATES

    def _forbid(self, action: int) -> str | None:
        """The rule that forbids player action `action` now, or None when it is allowed.

        The single place where Hoard's action rules live: legal_actions() is the candidates
        this lets through, and its words are what a player reads for an illegal move.
        """
        card = self.revealed
        assert card is not None
        name = CARD_NAMES[card]
        gems = self.gems
        if action < PLACE:
            if card >= BLUE_RED:  # the wilds are numbered after the four regular cards
                return f"the {name} card does not move, remove or collect: {self._wild_duty()}"
            if action < REMOVE:
                source, gem = divmod(action - MOVE, 4)
                if source & 1 != card & 1:
                    return (
                        f"the {name} card moves a gem only between the two "
                        f"{ROLE_NAMES[card & 1]} doors (gems never move between a Lady and a Tiger)"
                    )
                if not gems[source * 4 + gem]:
                    return f"the {door_name(source)} holds no {GEM_NAMES[gem]} to move"
                return None
            if action < COLLECT:
                door = action - REMOVE
                if door != card:
                    return f"the {name} card lets you remove Trash only from the {name}"
                white, black = gems[door * 4 + WHITE], gems[door * 4 + BLACK]
                if not (white and black):
                    return (
                        f"the {name} holds no pair of one white and one black Trash "
                        f"({trash_words(white, black)})"
                    )
                return None
            door, colour = divmod(action - COLLECT, 2)
            if door != card:
                return f"the {name} card lets you collect only from the {name}"
            if colour != door >> 1:
                return (
                    f"{GEM_NAMES[colour]} is collected only from a {COLOUR_NAMES[colour]} "
                    f"door, and the {name} is {COLOUR_NAMES[door >> 1]}"
                )
            white, black = gems[door * 4 + WHITE], gems[door * 4 + BLACK]
            if white or black:
                return (
                    f"no Treasure can be collected from the {name} while it holds Trash "
                    f"({trash_words(white, black)})"
                )
            if not gems[door * 4 + colour]:
                return f"the {name} holds no {GEM_NAMES[colour]} to collect"
            return None
        if card < BLUE_RED:
            return (
                "only the wild cards (Blue/Red, Lady/Tiger) put back or swap Trash; "
                f"the {name} card moves, removes or collects"
            )
        if action < SWAP:
            if not self.removed[0]:
                return f"the removed pile holds no Trash, so {self._wild_duty()}"
            if action not in PLACE_CANDIDATES[card]:
                return self._wild_duty()
            return None
        if self.removed[0]:
            return f"the removed pile holds Trash, so {self._wild_duty()}"
        black_door, white_door = divmod(action - SWAP, 4)
        if black_door == white_door:
            return "a swap takes its black and its white Trash from two different doors"
        if not gems[black_door * 4 + BLACK]:
            return f"the {door_name(black_door)} holds no black Trash to swap"
        if not gems[white_door * 4 + WHITE]:
            return f"the {door_name(white_door)} holds no white Trash to swap"
        return None

    def _wild_duty(self) -> str:
        """What the revealed wild card requires, in words."""
        card = self.revealed
        assert card is not None
        if not self.removed[0]:
            return (
                f"the {CARD_NAMES[card]} card swaps a black Trash on one door "
                "with a white Trash on another"
            )
        pair = ("Red", "Blue") if card == BLUE_RED else ("Lady", "Tiger")
        return (
            f"the {CARD_NAMES[card]} card puts one white and one black Trash from the removed "
            f"pile on the two {pair[0]} doors or on the two {pair[1]} doors, one on each"
        )

    def _why_illegal(self, action: int) -> str | None:
        phase = self.phase
        if phase == TAKE_ACTION:
            return self._forbid(action)
        if phase == PLACE_GEMS and DEAL_GEM <= action < SET_ASIDE:
            return f"all {GEMS_PER_KIND} {GEM_NAMES[action - DEAL_GEM]} gems are already placed"
        if phase == SET_ASIDE_CARDS and SET_ASIDE <= action < REVEAL:
            return f"no {CARD_NAMES[action - SET_ASIDE]} is left to set aside"
        if phase == REVEAL_CARD and action >= REVEAL:
            return f"no {CARD_NAMES[action - REVEAL]} is left in this round's deck"
        return f"this is not a chance outcome of the '{phase}' step"

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == PLACE_GEMS:
            left = GEM_TOTAL - self.placed
            return [(DEAL_GEM + gem, n / left) for gem, n in enumerate(self.supply) if n]
        if phase in (SET_ASIDE_CARDS, REVEAL_CARD):
            base = SET_ASIDE if phase == SET_ASIDE_CARDS else REVEAL
            unseen = self.unseen
            total = sum(unseen)
            return [(base + card, n / total) for card, n in enumerate(unseen) if n]
        return []

    # ------------------------------------------------------------------ apply
    def _apply(self, action: int) -> None:
        self._legal = None
        phase = self.phase
        if phase == PLACE_GEMS:
            door = DEAL_ORDER[self.placed // GEMS_PER_DOOR]
            self.gems[door * 4 + action - DEAL_GEM] += 1
            supply = self.supply.copy()
            supply[action - DEAL_GEM] -= 1
            self.supply = supply
            self.placed += 1
            if self.placed == GEM_TOTAL:
                self.phase = SET_ASIDE_CARDS if self.to_set_aside else REVEAL_CARD
        elif phase == SET_ASIDE_CARDS:
            card = action - SET_ASIDE
            self.unseen = with_entry(self.unseen, card, self.unseen[card] - 1)
            set_aside = self.set_aside.copy()
            set_aside[card] += 1
            self.set_aside = set_aside
            self.to_set_aside -= 1
            if not self.to_set_aside:
                self.phase = REVEAL_CARD
        elif phase == REVEAL_CARD:
            card = action - REVEAL
            self.unseen = with_entry(self.unseen, card, self.unseen[card] - 1)
            self.deck_size -= 1
            self.played += (card,)
            self.revealed = card
            self.phase = TAKE_ACTION
            if not self._legal_actions():
                self._end_turn()  # nothing is possible: the turn passes by itself
        else:
            self._act(action)
            if self.collected[0] + self.collected[1] == TREASURE_TOTAL:
                self.won = True
                self.revealed = None
                self.phase = GAME_OVER
            else:
                self._end_turn()

    def _act(self, action: int) -> None:
        gems = self.gems
        if action < REMOVE:
            source, gem = divmod(action - MOVE, 4)
            gems[source * 4 + gem] -= 1
            gems[(source ^ SAME_ROLE) * 4 + gem] += 1
        elif action < COLLECT:
            base = (action - REMOVE) * 4
            pairs = min(gems[base + WHITE], gems[base + BLACK])
            gems[base + WHITE] -= pairs
            gems[base + BLACK] -= pairs
            self.removed = (self.removed[0] + pairs, self.removed[1] + pairs)
        elif action < PLACE:
            door, colour = divmod(action - COLLECT, 2)
            gems[door * 4 + colour] -= 1
            red, blue = self.collected
            self.collected = (red + 1, blue) if colour == 0 else (red, blue + 1)
        elif action < SWAP:
            white_door, black_door = divmod(action - PLACE, 4)
            gems[white_door * 4 + WHITE] += 1
            gems[black_door * 4 + BLACK] += 1
            self.removed = (self.removed[0] - 1, self.removed[1] - 1)
        else:
            black_door, white_door = divmod(action - SWAP, 4)
            gems[black_door * 4 + BLACK] -= 1
            gems[white_door * 4 + BLACK] += 1
            gems[white_door * 4 + WHITE] -= 1
            gems[black_door * 4 + WHITE] += 1

    def _end_turn(self) -> None:
        """The revealed card is used; after the deck's last card the round ends."""
        card = self.revealed
        assert card is not None
        self.revealed = None
        self._legal = None
        if self.deck_size:
            self.phase = REVEAL_CARD
            return
        self.played = self.played[:-1]  # the last card goes under the next round marker
        self.markers += (card,)
        if self.face_down:
            # Every deck card has now been seen, so the unseen ones are the face-down cards.
            self.set_aside = [
                aside + n for aside, n in zip(self.set_aside, self.unseen, strict=True)
            ]
            self.unseen = (0,) * len(CLUE_KINDS)
            self.face_down = 0
        if len(self.markers) == ROUNDS:
            self.phase = GAME_OVER
            return
        # The other cards of this round are shuffled into the next round's deck.
        unseen = [0] * len(CLUE_KINDS)
        for kind in self.played:
            unseen[kind] += 1
        self.unseen = tuple(unseen)
        self.deck_size = len(self.played)
        self.played = ()
        self.phase = REVEAL_CARD

    # ------------------------------------------------------------------ outcome
    def returns(self) -> list[float]:
        return [1.0 if self.won else 0.0]

    def scores(self) -> list[int]:
        # The removed Trash counts only for a win; a loss scores 0.
        return [self.removed[0] + self.removed[1] if self.won else 0]

    # ------------------------------------------------------------------ texts
    def _action_text(self, action: int, player: int) -> str:
        if player == CHANCE:
            if action < SET_ASIDE:
                gem = GEM_NAMES[action - DEAL_GEM]
                if self.placed >= GEM_TOTAL:
                    return f"deal {gem}"
                return f"deal {gem} to {door_name(DEAL_ORDER[self.placed // GEMS_PER_DOOR])}"
            if action < REVEAL:
                return f"set aside {CARD_NAMES[action - SET_ASIDE]}"
            return f"reveal {CARD_NAMES[action - REVEAL]}"
        if action < REMOVE:
            source, kind = divmod(action - MOVE, 4)
            return (
                f"move {GEM_NAMES[kind]} from {door_name(source)} "
                f"to {door_name(source ^ SAME_ROLE)}"
            )
        if action < COLLECT:
            return f"remove pairs from {door_name(action - REMOVE)}"
        if action < PLACE:
            door, colour = divmod(action - COLLECT, 2)
            return f"collect {GEM_NAMES[colour]} from {door_name(door)}"
        if action < SWAP:
            white_door, black_door = divmod(action - PLACE, 4)
            return (
                f"put white Trash on {door_name(white_door)} "
                f"and black Trash on {door_name(black_door)}"
            )
        black_door, white_door = divmod(action - SWAP, 4)
        return (
            f"swap black Trash on {door_name(black_door)} "
            f"with white Trash on {door_name(white_door)}"
        )

    def _action_fields(self, action: int) -> dict[str, Any]:
        if self.current_player() == CHANCE:
            return {}
        if action < REMOVE:
            source, gem = divmod(action - MOVE, 4)
            return {
                "gem": GEM_NAMES[gem],
                "from": door_name(source),
                "to": door_name(source ^ SAME_ROLE),
            }
        if action < COLLECT:
            return {"door": door_name(action - REMOVE)}
        if action < PLACE:
            door, colour = divmod(action - COLLECT, 2)
            return {"gem": GEM_NAMES[colour], "door": door_name(door)}
        if action < SWAP:
            white_door, black_door = divmod(action - PLACE, 4)
            return {"white": door_name(white_door), "black": door_name(black_door)}
        black_door, white_door = divmod(action - SWAP, 4)
        return {"black": door_name(black_door), "white": door_name(white_door)}

    def _describe(self, action: int, actor: int, viewer: int | None, after: State) -> list[str]:
        assert isinstance(after, HoardState)
        phase = self.phase
        lines: list[str]
        if actor != CHANCE:
            lines = [sentence(does(actor, viewer, *self._move_words(action)))]
        elif phase == PLACE_GEMS:
            door = door_name(DEAL_ORDER[self.placed // GEMS_PER_DOOR])
            lines = [LogPart("gems", placed_gems, door=door, gem=GEM_NAMES[action - DEAL_GEM])]
        elif phase == SET_ASIDE_CARDS:
            card = CARD_NAMES[action - SET_ASIDE]
            lines = [LogPart("set aside", turned_up, item=card, where=" and set aside")]
        else:
            card = CARD_NAMES[action - REVEAL]
            lines = [f"The {card} is turned up."]
            if after.phase != TAKE_ACTION:
                if action - REVEAL in PLACE_CANDIDATES:
                    lines.append(
                        "The removed pile is empty and no door's black Trash can be swapped "
                        f"with another door's white Trash: the {card} changes nothing."
                    )
                else:
                    lines.append(f"No action is possible with the {card}: the turn passes.")
        if len(after.markers) > len(self.markers):
            lines.extend(self._round_end_words(after))
            if after.phase == GAME_OVER:
                lines.append(
                    f"The third round is over with {sum(after.collected)} of "
                    f"{TREASURE_TOTAL} Treasures collected: the game is lost."
                )
        elif after.won and not self.won:
            won = does(0, viewer, "win", start=False)
            lines.append(
                f"All {TREASURE_TOTAL} Treasures are collected: {won}, scoring "
                f"{after.scores()[0]} for the removed Trash."
            )
        return lines

    def _move_words(self, action: int) -> tuple[str, str]:
        """The verb and the rest of a player's action, as the log tells it."""
        if action < REMOVE:
            source, gem = divmod(action - MOVE, 4)
            return "move", (
                f"{a(GEM_NAMES[gem])} from the {door_name(source)} "
                f"to the {door_name(source ^ SAME_ROLE)}"
            )
        if action < COLLECT:
            door = action - REMOVE
            pairs = min(self.gems[door * 4 + WHITE], self.gems[door * 4 + BLACK])
            return "remove", f"{some(pairs, 'pair')} of Trash from the {door_name(door)}"
        if action < PLACE:
            door, colour = divmod(action - COLLECT, 2)
            return "collect", f"{a(GEM_NAMES[colour])} from the {door_name(door)}"
        if action < SWAP:
            white_door, black_door = divmod(action - PLACE, 4)
            return "put", (
                f"a white Trash on the {door_name(white_door)} "
                f"and a black Trash on the {door_name(black_door)}"
            )
        black_door, white_door = divmod(action - SWAP, 4)
        return "swap", (
            f"a black Trash on the {door_name(black_door)} "
            f"with a white Trash on the {door_name(white_door)}"
        )

    def _round_end_words(self, after: HoardState) -> list[str]:
        """The round that ended on the way to `after`: its marker, and the face-down cards
        once they are known."""
        number = len(after.markers)
        lines = [
            f"Round {number} ends: the {CARD_NAMES[after.markers[-1]]} goes under the "
            f"{ordinal(number)} round marker."
        ]
        if self.face_down and not after.face_down:
            cards = join([f"the {name}" for name in cards_listing(after.set_aside)])
            lines.append(f"The face-down cards, never revealed this round, must be {cards}.")
        return lines

    # ------------------------------------------------------------------ moments
    def moment(self, after: State) -> dict[str, Any] | None:
        """"round_end" (the round marker, and the face-down cards once known) and
        "game_end", won or lost."""
        found = []
        for before, _, _, step in self.steps_to(after):
            assert isinstance(before, HoardState) and isinstance(step, HoardState)
            if len(step.markers) > len(before.markers) and step.phase != GAME_OVER:
                treasures = sum(step.collected)
                found.append(
                    new_moment(
                        "round_end",
                        f"Round {len(step.markers)} ends",
                        [
                            *before._round_end_words(step),
                            f"Treasures collected so far: {treasures} of {TREASURE_TOTAL}.",
                        ],
                    )
                )
        if after.is_terminal() and not self.is_terminal():
            assert isinstance(after, HoardState)
            if after.won:
                title = "The game is won"
                lines = [
                    f"All {TREASURE_TOTAL} Treasures are collected: Seat 0 scores "
                    f"{after.scores()[0]} for the removed Trash."
                ]
            else:
                title = "The game is lost"
                lines = [
                    *self._round_end_words(after),
                    f"The third round is over with {sum(after.collected)} of "
                    f"{TREASURE_TOTAL} Treasures collected.",
                ]
            found.append(game_end_moment(after, title=title, lines=lines))
        return combine_moments(found)

    # ------------------------------------------------------------------ views
    def _observe(self, player: int | None) -> dict[str, Any]:
        # Solo: the player and a spectator know the same things, and nothing the state holds
        # is hidden from them (face-down cards are not drawn until identified).
        gems = self.gems
        return {
            "phase": self.phase,
            "difficulty": self.difficulty,
            "round": min(len(self.markers) + 1, ROUNDS),
            "layout": [[door_name(door) for door in row] for row in LAYOUT],
            "doors": {door_name(door): gem_counts(gems, door) for door in DEAL_ORDER},
            "revealed": None if self.revealed is None else CARD_NAMES[self.revealed],
            "deck": self.deck_size,
            "played": [CARD_NAMES[card] for card in self.played],
            "still_unseen": cards_listing(self.unseen),
            "face_down": self.face_down,
            "set_aside": cards_listing(self.set_aside),
            "round_markers": [CARD_NAMES[card] for card in self.markers],
            "removed": {"white": self.removed[0], "black": self.removed[1]},
            "collected": {"red": self.collected[0], "blue": self.collected[1]},
            "gems_to_place": GEM_TOTAL - self.placed,
            "won": self.won,
        }

    def _hidden_steps(self, player: int | None) -> set[int]:
        return set()

    def resample(self, player: int | None, rng: random.Random) -> HoardState:
        # Nothing is hidden: face-down cards are never drawn (they stay among the unseen
        # cards), so the only state consistent with what the player knows is this one.
        return self.clone()

    # ------------------------------------------------------------------ copying
    def clone(self) -> HoardState:
        twin = HoardState(self.game, self)
        twin.difficulty = self.difficulty
        twin.face_down = self.face_down
        twin.to_set_aside = self.to_set_aside
        twin.gems = self.gems.copy()
        twin.supply = self.supply  # replaced, never changed in place
        twin.placed = self.placed
        twin.removed = self.removed
        twin.collected = self.collected
        twin.set_aside = self.set_aside  # replaced, never changed in place
        twin.unseen = self.unseen
        twin.deck_size = self.deck_size
        twin.played = self.played
        twin.markers = self.markers
        twin.revealed = self.revealed
        twin.won = self.won
        twin.phase = self.phase
        twin._legal = self._legal  # never mutated in place, only replaced
        return twin

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self._history),
            tuple(self._actors),
            self.difficulty,
            self.face_down,
            self.to_set_aside,
            tuple(self.gems),
            tuple(self.supply),
            self.placed,
            tuple(self.removed),
            tuple(self.collected),
            tuple(self.set_aside),
            tuple(self.unseen),
            self.deck_size,
            tuple(self.played),
            tuple(self.markers),
            self.revealed,
            self.won,
            self.phase,
        )

    def conserved(self) -> dict[str, int]:
        """Quantities that never change in play (checked by the property tests)."""
        on_doors = [sum(self.gems[door * 4 + gem] for door in IDENTITIES) for gem in GEM_KINDS]
        off_doors = [*self.collected, *self.removed]
        totals = {
            GEM_NAMES[gem]: on_doors[gem] + off_doors[gem] + self.supply[gem] for gem in GEM_KINDS
        }
        totals["clue cards"] = (
            sum(self.unseen) + len(self.played) + sum(self.set_aside) + len(self.markers)
        )
        # The deck plus any unidentified face-down cards are exactly the unseen cards.
        totals["deck matches unseen"] = int(
            self.deck_size + self.face_down + self.to_set_aside == sum(self.unseen)
        )
        totals["removed Trash in pairs"] = int(self.removed[0] == self.removed[1])
        return totals

    def balance_facts(self) -> dict[str, int | float | str]:
        """For the balance lab: cards revealed, rounds used, Treasure collected and Trash
        removed (won or not), and the difficulty, so sweeps over it read at a glance."""
        revealed = sum(
            1 for action, actor in zip(self._history, self._actors, strict=True)
            if actor == CHANCE and action >= REVEAL
        )
        return {
            "first_player": 0,
            "length": revealed,
            "length_unit": "cards revealed",
            "difficulty": self.difficulty,
            "ending": "all Treasure" if self.won else "deck out",
            "rounds used": len(self.markers) + 1 if self.won else len(self.markers),
            "Treasure collected": sum(self.collected),
            "Trash removed": sum(self.removed),
        }
