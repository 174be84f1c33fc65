"""Doors: a 2-player bluffing game of The Lady and the Tiger (rulebook section "Doors").

The Collector takes display cards hoping to build a set of their secret identity; the Guesser
discards and tries to name that identity. Rules page: docs/rules/doors.md.
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
    seat_name,
    shared_win_returns,
    with_entry,
)
from ladytiger.core.words import (
    capitalise,
    dealt,
    does,
    seat_word,
    sentence,
    standing,
    their,
    turned_up,
    whom,
    whose,
    yours,
)
from ladytiger.games.lady_tiger_cards import (
    CARD_NAMES,
    CLUE_COUNTS,
    CLUE_KINDS,
    COLOUR_NAMES,
    IDENTITIES,
    ROLE_NAMES,
    cards_listing,
    matching_set_trait,
)

# ---------------------------------------------------------------------------- constants
DISPLAY_SIZE: Final = 4
COLLECTOR_SET_GEMS: Final = 6
WRONG_GUESS_GEMS: Final = 4
ONE_TRAIT_GEMS: Final = 1
BOTH_TRAITS_GEMS: Final = 5
GUESSER_SET_GEMS: Final = 2
DECK_OUT_GEMS: Final = 3

# Player actions.
TAKE: Final = 0  # TAKE + card: the Collector takes that card from the display
DISCARD: Final = 6  # DISCARD + card: the Guesser discards it
GUESS_COLOUR: Final = 12  # + colour
GUESS_ROLE: Final = 14  # + role
GUESS_IDENTITY: Final = 16  # + identity
CLAIM_SET: Final = 20
END_TURN: Final = 21
NUM_ACTIONS: Final = 22

# Chance outcomes.
DEAL_DOOR: Final = 0  # + identity: the next seat without an identity is dealt this Door card
REVEAL: Final = 4  # + card: this Clue card comes off the deck into the display
FIRST_COLLECTOR: Final = 10  # + seat
NUM_CHANCE_OUTCOMES: Final = 12

# Phases, named after the rulebook's turn structure.
CHOOSE_FIRST_COLLECTOR: Final = "choose first collector"
DEAL_IDENTITIES: Final = "deal identities"
REFILL_DISPLAY: Final = "refill display"
COLLECT: Final = "collect"  # Collector takes a card
DISCARD_OR_DECLARE: Final = "discard"  # Guesser discards, or declares first
DECLARE_OR_END: Final = "declare"  # Guesser has discarded; may declare, or end the turn
GAME_OVER: Final = "game over"

INFO: Final = GameInfo(
    name="doors",
    title="Doors",
    description="Bluffing for 2: collect clues to your secret door, or guess your opponent's.",
    min_players=2,
    max_players=2,
    options=(
        Option("gems_to_win", 10, "gems that end the game", minimum=1, maximum=50),
        Option("random_first_collector", False, "draw the first Collector at random"),
    ),
    imperfect_information=True,
    rules_page="docs/rules/doors.md",
)


@register_game
class DoorsGame(Game):
    info = INFO

    def new_initial_state(self) -> DoorsState:
        return DoorsState(self)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        # Every contest awards at least one gem, so at most 2 * (target - 1) + 1 contests;
        # a contest has 2 deals, 4 display cards and at most 5 turns of 5 actions each.
        contests = 2 * (self.options["gems_to_win"] - 1) + 1
        return 1 + contests * (2 + DISPLAY_SIZE + 5 * 5)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def guess_text(action: int) -> str:
    if action < GUESS_ROLE:
        return f"guess {COLOUR_NAMES[action - GUESS_COLOUR]}"
    if action < GUESS_IDENTITY:
        return f"guess {ROLE_NAMES[action - GUESS_ROLE]}"
    return f"guess {CARD_NAMES[action - GUESS_IDENTITY]}"


def guess_outcome(action: int, truth: int) -> tuple[int, bool]:
    """(gems, correct) for a guess about identity `truth`; a wrong guess pays the Collector."""
    if action < GUESS_ROLE:
        right = truth >> 1 == action - GUESS_COLOUR
        return (ONE_TRAIT_GEMS if right else WRONG_GUESS_GEMS), right
    if action < GUESS_IDENTITY:
        right = truth & 1 == action - GUESS_ROLE
        return (ONE_TRAIT_GEMS if right else WRONG_GUESS_GEMS), right
    right = truth == action - GUESS_IDENTITY
    return (BOTH_TRAITS_GEMS if right else WRONG_GUESS_GEMS), right


def ending_words(result: dict[str, Any], viewer: int | None) -> str:
    """How a contest ended and who earned what, as a clause for `viewer` ("Seat 1 guessed
    Red, wrong: you earn 4 gems"); the log puts it after "Contest 3: "."""
    collector = result["collector"]
    guesser = 1 - collector
    earns = does(result["winner"], viewer, "earn", plural(result["gems"], "gem"), start=False)
    kind, *detail = result["ending"]
    if kind == "guess":
        guess, verdict = detail
        return f"{whom(guesser, viewer)} guessed {guess}, {verdict}: {earns}"
    if kind == "claim":
        return f"{whom(guesser, viewer)} claimed a {detail[0]} set: {earns}"
    if kind == "set":
        return f"{whom(collector, viewer)} showed a {detail[0]} set: {earns}"
    return f"the deck ran out: {earns}"


def contest_words(result: dict[str, Any], viewer: int | None) -> tuple[int, str, str]:
    """A finished contest for the log: its number, how it ended and who earned what, and
    the two Doors, now face up ("Your Door was the Red Tiger and Seat 1's the Blue Lady.")."""
    first, second = result["identities"]
    doors = (
        f"{capitalise(whose(0, viewer))} Door was the {first} "
        f"and {yours(1, viewer)} the {second}."
    )
    return result["contest"], ending_words(result, viewer), doors


def public_contest(result: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """A finished contest as `viewer` reads it: every field of the record but `ending`
    (`contest`, `collector`, `identities`, `winner`, `gems`, `guess` and `ended`, all public
    once the contest is over), and `how`, a sentence in the log's words. Players' aids read
    the fields; `how` is for people."""
    shown = {key: value for key, value in result.items() if key != "ending"}
    shown["how"] = sentence(ending_words(result, viewer))
    return shown


# The identity deal's outcomes, by the Door the first seat already holds (None: not dealt).
_DEAL_OUTCOMES: Final = {
    dealt: tuple(
        (DEAL_DOOR + door, 1.0 / (len(IDENTITIES) - (dealt is not None)))
        for door in IDENTITIES
        if door != dealt
    )
    for dealt in (None, *IDENTITIES)
}


class DoorsState(State):
    def __init__(self, game: Game, copy_of: DoorsState | None = None) -> None:
        super().__init__(game, copy_of)
        if copy_of is not None:  # clone() copies the rest of the position in
            return
        self.target: int = game.options["gems_to_win"]
        # The position's fields are tuples (or plain values), replaced when they change, so
        # that clone() shares them instead of copying: a search clones far more often than
        # a move changes one of them.
        self.gems: tuple[int, ...] = (0, 0)
        self.contest = 0
        self.collector = 0
        self.identity: tuple[int | None, ...] = (None, None)
        self.display: tuple[int, ...] = (0,) * 6  # per card kind
        self.collected: tuple[int, ...] = (0,) * 6
        # A tuple, replaced at a discard (one a turn at most), shared by clones.
        self.discarded: tuple[int, ...] = (0,) * 6
        self.deck = sum(CLUE_COUNTS)
        # Per kind, the Clue cards still in the deck.
        self.deck_counts: tuple[int, ...] = CLUE_COUNTS
        self.phase = (
            CHOOSE_FIRST_COLLECTOR if game.options["random_first_collector"] else DEAL_IDENTITIES
        )
        self.past_contests: tuple[dict[str, Any], ...] = ()

    # ------------------------------------------------------------------ whose turn
    @property
    def guesser(self) -> int:
        return 1 - self.collector

    def current_player(self) -> int:
        phase = self.phase
        if phase == COLLECT:
            return self.collector
        if phase in (DISCARD_OR_DECLARE, DECLARE_OR_END):
            return 1 - self.collector
        if phase == GAME_OVER:
            return TERMINAL
        return CHANCE

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self) -> list[int]:
        # Asked at every step of a playout: on a seat's turn, answer without first
        # asking whose turn it is; chance nodes and the end take the shared verb.
        if self.phase in (COLLECT, DISCARD_OR_DECLARE, DECLARE_OR_END):
            return self._legal_actions()
        return super().legal_actions()

    def _legal_actions(self) -> list[int]:
        if self.phase == COLLECT:
            return [TAKE + card for card in CLUE_KINDS if self.display[card]]
        actions = []
        if self.phase == DISCARD_OR_DECLARE:
            actions = [DISCARD + card for card in CLUE_KINDS if self.display[card]]
        actions.extend(range(GUESS_COLOUR, CLAIM_SET))
        if self.guesser_can_claim_set():
            actions.append(CLAIM_SET)
        if self.phase == DECLARE_OR_END:
            actions.append(END_TURN)
        return actions

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == REFILL_DISPLAY:
            card = action - REVEAL
            return 0 <= card < len(CLUE_KINDS) and self.unseen_clue(card) > 0
        if phase == COLLECT:
            return TAKE <= action < DISCARD and self.display[action - TAKE] > 0
        if phase in (DISCARD_OR_DECLARE, DECLARE_OR_END):
            return action in self._legal_actions()  # a handful of moves
        if phase == DEAL_IDENTITIES:
            door = action - DEAL_DOOR
            return 0 <= door < len(IDENTITIES) and door not in self.identity
        if phase == CHOOSE_FIRST_COLLECTOR:
            return FIRST_COLLECTOR <= action < FIRST_COLLECTOR + 2
        return False

    def guesser_can_claim_set(self) -> bool:
        """The Collector's cards hold a set on the Guesser's own colour or role."""
        own = self.identity[self.guesser]
        return own is not None and matching_set_trait(self.collected, own) is not None

    def _why_illegal(self, action: int) -> str | None:
        phase = self.phase
        if phase in (CHOOSE_FIRST_COLLECTOR, DEAL_IDENTITIES, REFILL_DISPLAY):
            if phase == DEAL_IDENTITIES and DEAL_DOOR <= action < REVEAL:
                return f"the {CARD_NAMES[action - DEAL_DOOR]} Door is already dealt"
            if phase == REFILL_DISPLAY and REVEAL <= action < FIRST_COLLECTOR:
                return f"no {CARD_NAMES[action - REVEAL]} is left in the deck"
            return f"this is not a chance outcome of the '{phase}' step"
        if action < DISCARD:
            if phase != COLLECT:
                return "only the Collector takes cards; on the Guesser's turn the Guesser discards"
            return f"the display holds no {CARD_NAMES[action - TAKE]}"
        if action < GUESS_COLOUR:
            if phase == COLLECT:
                return "discarding is the Guesser's move; the Collector takes a card"
            if phase == DECLARE_OR_END:
                return "the Guesser has already discarded a card this turn"
            return f"the display holds no {CARD_NAMES[action - DISCARD]}"
        if phase == COLLECT:
            if action == END_TURN:
                return "the Collector's turn ends by taking a card from the display"
            return "only the Guesser guesses or claims a set, on the Guesser's turn"
        if action == CLAIM_SET:
            own = self.identity[self.guesser]
            assert own is not None
            return (
                "the Collector's cards hold no set of 4 on your colour "
                f"({COLOUR_NAMES[own >> 1]}) or your role ({ROLE_NAMES[own & 1]})"
            )
        if action == END_TURN:
            return "the Guesser must discard a card from the display before ending the turn"
        return None

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == CHOOSE_FIRST_COLLECTOR:
            return [(FIRST_COLLECTOR, 0.5), (FIRST_COLLECTOR + 1, 0.5)]
        if phase == DEAL_IDENTITIES:
            return list(_DEAL_OUTCOMES[self.identity[0]])
        if phase == REFILL_DISPLAY:
            total = self.deck  # every Clue card not yet revealed is in the deck
            return [(REVEAL + card, n / total) for card, n in enumerate(self.deck_counts) if n]
        return []

    def unseen_clue(self, card: int) -> int:
        """The Clue cards of kind `card` still in the deck."""
        return self.deck_counts[card]

    def unseen_clues(self) -> list[int]:
        """Per kind, the Clue cards still in the deck."""
        return list(self.deck_counts)

    # ------------------------------------------------------------------ apply
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == CHOOSE_FIRST_COLLECTOR:
            self.collector = action - FIRST_COLLECTOR
            self.phase = DEAL_IDENTITIES
        elif phase == DEAL_IDENTITIES:
            door = action - DEAL_DOOR
            if self.identity[0] is None:
                self.identity = (door, None)
            else:
                self.identity = (self.identity[0], door)
                self.phase = REFILL_DISPLAY
        elif phase == REFILL_DISPLAY:
            card = action - REVEAL
            self.display = with_entry(self.display, card, self.display[card] + 1)
            self.deck_counts = with_entry(self.deck_counts, card, self.deck_counts[card] - 1)
            self.deck -= 1
            self.phase = self._after_refill
        elif phase == COLLECT:
            self._take(action - TAKE)
        elif action == CLAIM_SET:
            own = self.identity[self.guesser]
            assert own is not None
            trait = matching_set_trait(self.collected, own)
            assert trait is not None  # claiming is legal only with a set
            self._end_contest(self.guesser, GUESSER_SET_GEMS, ("claim", trait))
        elif GUESS_COLOUR <= action < CLAIM_SET:
            self._guess(action)
        elif action == END_TURN:
            self._end_guesser_turn()
        else:
            card = action - DISCARD
            self.display = with_entry(self.display, card, self.display[card] - 1)
            self.discarded = with_entry(self.discarded, card, self.discarded[card] + 1)
            self._refill_then(DECLARE_OR_END)

    @property
    def _after_refill(self) -> str:
        if sum(self.display) < DISPLAY_SIZE and self.deck:
            return REFILL_DISPLAY
        return self._next_after_refill

    def _refill_then(self, phase: str) -> None:
        self._next_after_refill = phase
        self.phase = REFILL_DISPLAY if self.deck else phase

    def _take(self, card: int) -> None:
        self.display = with_entry(self.display, card, self.display[card] - 1)
        self.collected = with_entry(self.collected, card, self.collected[card] + 1)
        own = self.identity[self.collector]
        assert own is not None
        trait = matching_set_trait(self.collected, own)
        if trait is not None:
            # The reveal is forced: the contest ends at once, before the display refills.
            self._end_contest(self.collector, COLLECTOR_SET_GEMS, ("set", trait))
        else:
            self._refill_then(DISCARD_OR_DECLARE)

    def _guess(self, action: int) -> None:
        truth = self.identity[self.collector]
        assert truth is not None
        gems, right = guess_outcome(action, truth)
        winner = self.guesser if right else self.collector
        verdict = "right" if right else "wrong"
        guess = guess_text(action).removeprefix("guess ")
        self._end_contest(winner, gems, ("guess", guess, verdict))

    def _end_guesser_turn(self) -> None:
        if self.deck == 0:
            self._end_contest(self.guesser, DECK_OUT_GEMS, ("deck",))
        else:
            self.phase = COLLECT

    def _end_contest(self, winner: int, gems: int, ending: tuple[str, ...]) -> None:
        """`ending`: how the contest ended, as `ending_words` reads it: ("guess", guess,
        "right" or "wrong"), ("claim", trait), ("set", trait) or ("deck",).

        The record also keeps `guess`: what the Guesser named ("Red", "Blue Tiger"), or None
        when the contest ended another way, and `ended`: how it ended ("guess", "claim",
        "set" or "deck"). Both are told to the table (the log tells them to every seat and
        to a spectator), so the fields hide nothing."""
        self.gems = with_entry(self.gems, winner, self.gems[winner] + gems)
        self.past_contests += (
            {
                "contest": self.contest + 1,
                "collector": self.collector,
                "identities": [CARD_NAMES[door] for door in self.identity if door is not None],
                "ending": ending,
                "winner": winner,
                "gems": gems,
                "guess": ending[1] if ending[0] == "guess" else None,
                "ended": ending[0],
            },
        )
        if self.gems[winner] >= self.target:
            self.phase = GAME_OVER
            return
        self.contest += 1
        self.collector = 1 - self.collector
        self.identity = (None, None)
        self.display = (0,) * 6
        self.collected = (0,) * 6
        self.discarded = (0,) * 6
        self.deck = sum(CLUE_COUNTS)
        self.deck_counts = CLUE_COUNTS
        self._next_after_refill = COLLECT
        self.phase = DEAL_IDENTITIES

    _next_after_refill = COLLECT

    # ------------------------------------------------------------------ outcome
    def returns(self) -> list[float]:
        if self.phase != GAME_OVER:
            return [0.0, 0.0]
        best = max(self.gems)
        return shared_win_returns([s for s in (0, 1) if self.gems[s] == best], 2)

    def scores(self) -> list[int]:
        return list(self.gems)

    # ------------------------------------------------------------------ texts
    def _action_text(self, action: int, player: int) -> str:
        if player == CHANCE:
            if action < REVEAL:
                seat = 0 if self.identity[0] is None else 1
                return f"deal {CARD_NAMES[action - DEAL_DOOR]} to {seat_name(seat)}"
            if action < FIRST_COLLECTOR:
                return f"reveal {CARD_NAMES[action - REVEAL]}"
            return f"{seat_name(action - FIRST_COLLECTOR)} collects first"
        if action < DISCARD:
            return f"take {CARD_NAMES[action - TAKE]}"
        if action < GUESS_COLOUR:
            return f"discard {CARD_NAMES[action - DISCARD]}"
        if action < CLAIM_SET:
            return guess_text(action)
        return "claim set" if action == CLAIM_SET else "end turn"

    def _action_fields(self, action: int) -> dict[str, Any]:
        if self.current_player() == CHANCE:
            return {}
        if action < GUESS_COLOUR:
            return {"card": CARD_NAMES[action % 6]}
        if action < CLAIM_SET:
            return {"guess": guess_text(action).removeprefix("guess ")}
        return {}

    def _describe(self, action: int, actor: int, viewer: int | None, after: State) -> list[str]:
        assert isinstance(after, DoorsState)
        phase = self.phase
        if actor == CHANCE:
            if phase == DEAL_IDENTITIES:
                # Each seat sees only its own Door; the two deals read as one line.
                seat = 0 if self.identity[0] is None else 1
                door = f"the {CARD_NAMES[action - DEAL_DOOR]} Door" if viewer == seat else None
                return [
                    LogPart(
                        ("doors", self.contest), dealt, seat=seat, viewer=viewer, item=door,
                        verb="be dealt", noun="Door card", lead=f"Contest {self.contest + 1}",
                    )
                ]
            if phase == REFILL_DISPLAY:
                return [
                    LogPart(
                        ("display", self.contest), turned_up,
                        item=CARD_NAMES[action - REVEAL], where=" for the display",
                    )
                ]
            first = action - FIRST_COLLECTOR
            return [sentence(does(first, viewer, "be drawn", "to collect first"))]
        lines = [sentence(self._move_words(action, actor, viewer))]
        if len(after.past_contests) > len(self.past_contests):
            number, how, doors = contest_words(after.past_contests[-1], viewer)
            lines.append(f"Contest {number}: {how}. {doors}")
            if after.phase == GAME_OVER:
                winner = after.past_contests[-1]["winner"]
                gems = plural(after.gems[winner], "gem")
                lines.append(sentence(does(winner, viewer, "win", f"the game with {gems}")))
        return lines

    def _move_words(self, action: int, actor: int, viewer: int | None) -> str:
        if action < DISCARD:
            return does(actor, viewer, "take", f"the {CARD_NAMES[action - TAKE]}")
        if action < GUESS_COLOUR:
            return does(actor, viewer, "discard", f"the {CARD_NAMES[action - DISCARD]}")
        if action < CLAIM_SET:
            return does(actor, viewer, "guess", guess_text(action).removeprefix("guess "))
        if action == CLAIM_SET:
            return does(actor, viewer, "claim", "a set")
        return does(actor, viewer, "end", f"{their(actor, viewer)} turn")

    # ------------------------------------------------------------------ moments
    def moment(self, after: State) -> dict[str, Any] | None:
        """"contest_end" when a contest is decided (with both Doors, now face up), and
        "game_end"."""
        found = []
        for before, _, _, step in self.steps_to(after):
            assert isinstance(before, DoorsState) and isinstance(step, DoorsState)
            if len(step.past_contests) > len(before.past_contests):
                number, how, doors = contest_words(step.past_contests[-1], None)
                result = step.past_contests[-1]
                earned = plural(result["gems"], "gem")
                lines = [sentence(how), doors]
                if step.phase != GAME_OVER:  # the game's end gives the final gems
                    lines.append(sentence(standing(step.gems, "gem")))
                found.append(
                    new_moment(
                        "contest_end",
                        f"Contest {number}: {seat_word(result['winner'])} earns {earned}",
                        lines,
                    )
                )
        if after.is_terminal() and not self.is_terminal():
            found.append(game_end_moment(after, "gem"))
        return combine_moments(found)

    # ------------------------------------------------------------------ views
    def _observe(self, player: int | None) -> dict[str, Any]:
        # A seat knows its own identity; at the game's end both are turned face up.
        identities = [
            CARD_NAMES[door] if door is not None and (seat == player or self.phase == GAME_OVER)
            else None
            for seat, door in enumerate(self.identity)
        ]
        return {
            "phase": self.phase,
            "gems_to_win": self.target,
            "contest": self.contest + 1,
            "collector": self.collector,
            "guesser": self.guesser,
            "identities": identities,
            "display": cards_listing(self.display),
            "collected": cards_listing(self.collected),
            "discarded": cards_listing(self.discarded),
            "deck": self.deck,
            "past_contests": self.shown_records(self.past_contests, player, public_contest),
        }

    def _hidden_steps(self, player: int | None) -> set[int]:
        if self.phase == GAME_OVER:
            return set()
        # Only the current contest's identities are secret; earlier ones were revealed.
        return {index for seat, index in enumerate(self._current_deals()) if seat != player}

    def _current_deals(self) -> list[int]:
        """Where in the history the current contest's Doors were dealt, in seat order."""
        # They are the last deals of the game: searched for from the end, as a search asks
        # for them at every node and a long game's history is mostly earlier contests.
        actors, history = self._actors, self._history
        found: list[int] = []
        wanted = sum(door is not None for door in self.identity)
        index = len(history)
        while len(found) < wanted:
            index -= 1
            if actors[index] == CHANCE and DEAL_DOOR <= history[index] < REVEAL:
                found.append(index)
        found.reverse()
        return found

    def resample(self, player: int | None, rng: random.Random) -> DoorsState:
        """Drawn directly rather than by replaying the game (the shared way).

        Only the current contest's Doors are hidden. The Doors are dealt without
        replacement, all alike, and one public fact bears on them: a Collector whose taken
        cards hold a set of their Door reveals at once, so a contest still under way tells
        everyone the Collector's Door makes no set with those cards. The Collector's hidden
        Door is drawn first among the Doors that fit, then any other hidden one among the
        Doors left: each consistent deal is then equally likely, as in the real posterior
        (the second draw always has the same number of choices).
        """
        twin = self.clone()
        deals = self._current_deals() if self.phase != GAME_OVER else []
        hidden = [seat for seat in range(len(deals)) if seat != player]
        if not hidden:
            return twin
        identity = list(self.identity)
        for seat in hidden:
            identity[seat] = None
        if self.collector in hidden:
            hidden.remove(self.collector)
            hidden.insert(0, self.collector)
        for seat in hidden:
            choices = [door for door in IDENTITIES if door not in identity]
            if seat == self.collector:
                choices = [d for d in choices if matching_set_trait(self.collected, d) is None]
            door = rng.choice(choices)
            identity[seat] = door
            twin._history[deals[seat]] = DEAL_DOOR + door
        twin.identity = tuple(identity)
        return twin

    # ------------------------------------------------------------------ copying
    def clone(self) -> DoorsState:
        twin = DoorsState(self.game, self)
        twin.target = self.target
        twin.gems = self.gems
        twin.contest = self.contest
        twin.collector = self.collector
        twin.identity = self.identity
        twin.display = self.display
        twin.collected = self.collected
        twin.discarded = self.discarded
        twin.deck = self.deck
        twin.deck_counts = self.deck_counts
        twin.phase = self.phase
        twin._next_after_refill = self._next_after_refill
        twin.past_contests = self.past_contests  # entries are never mutated
        return twin

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self._history),
            tuple(self._actors),
            tuple(self.gems),
            self.contest,
            self.collector,
            tuple(self.identity),
            tuple(self.display),
            tuple(self.collected),
            tuple(self.discarded),
            self.deck,
            self.phase,
            self._next_after_refill,
            repr(self.past_contests),
        )

    def conserved(self) -> dict[str, int]:
        """Quantities that never change in play (checked by the property tests)."""
        return {
            "clue cards": sum(self.unseen_clues())
            + sum(self.display)
            + sum(self.collected)
            + sum(self.discarded),
            "deck matches unseen": int(self.deck == sum(self.unseen_clues())),
        }

    def balance_facts(self) -> dict[str, int | float | str]:
        """For the balance lab: contests played, and how many ended each way."""
        first = self.past_contests[0]["collector"] if self.past_contests else self.collector
        ends = dict.fromkeys(
            ("guess right", "guess wrong", "set claimed", "collector set", "deck out"), 0
        )
        for contest in self.past_contests:
            kind, *detail = contest["ending"]
            way = {"claim": "set claimed", "set": "collector set", "deck": "deck out"}.get(kind)
            ends[way or f"guess {detail[-1]}"] += 1
        return {
            "first_player": first,
            "length": len(self.past_contests),
            "length_unit": "contests",
            **ends,
        }
