"""The State contract shared by every game, in OpenSpiel's vocabulary.

A state is fully determined by its game (with options) and its action history. Randomness
enters only at chance nodes, whose outcomes and probabilities are listed. Subclasses supply
the rules through the underscore hooks; the public verbs here add validation, history
keeping, text parsing, the player log, moments and resampling, so every game behaves the
same way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from ladytiger.core.errors import IllegalActionError, LadyTigerError, UnknownActionError
from ladytiger.core.log_parts import fold_parts, settled
from ladytiger.core.words import join, plural, seat_word, sentence, who

if TYPE_CHECKING:
    from ladytiger.core.game import Game

CHANCE: Final = -1
TERMINAL: Final = -4


def normalise_text(text: str) -> str:
    """Compare move texts without regard to case or spacing."""
    return " ".join(text.split()).lower()


def seat_name(seat: int) -> str:
    """A seat in move texts and refusals ("reveal seat 1"); the log says "Seat 1"."""
    return f"seat {seat}"


def new_moment(kind: str, title: str, lines: list[str]) -> dict[str, Any]:
    """A moment as `State.moment` answers it."""
    return {"kind": kind, "title": title, "lines": list(lines)}


def combine_moments(found: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One moment for a move that made several (the last trick of the last round): the
    last and greatest gives the kind and title, and the earlier ones' titles and lines
    come first, in the order they happened."""
    if not found:
        return None
    last = found[-1]
    lines = [
        line for earlier in found[:-1] for line in (sentence(earlier["title"]), *earlier["lines"])
    ]
    return new_moment(last["kind"], last["title"], [*lines, *last["lines"]])


def game_end_moment(
    after: State, unit: str = "point", title: str | None = None, lines: list[str] | None = None
) -> dict[str, Any]:
    """The "game_end" moment: who won (from the returns), then every seat's score."""
    returns = after.returns()
    winners = [seat for seat, share in enumerate(returns) if share > 0]
    if title is None:
        if not winners:
            title = "The game ends in a draw"
        elif len(winners) == 1:
            title = f"{seat_word(winners[0])} wins the game"
        else:
            title = f"{join([seat_word(s) for s in winners])} share the win"
    if lines is None:
        lines = [
            sentence(f"{seat_word(seat)} ends with {plural(score, unit)}")
            for seat, score in enumerate(after.scores())
        ]
    return new_moment("game_end", title, lines)


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Put `items` in a uniformly random order, in place (for resamplers, many times a move).

    Fisher-Yates with one `rng.random()` per item: `rng.shuffle` draws each index through
    Python-level rejection sampling, several times slower. Scaling a float gives each index a
    bias below len(items) / 2**53, far under anything a game could show.
    """
    for last in range(len(items) - 1, 0, -1):
        other = int(rng.random() * (last + 1))
        items[last], items[other] = items[other], items[last]


def with_entry(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """`values` with the entry at `index` replaced by `value`, as a new tuple.

    Fields that change a few times a game are kept as tuples so that clones can share them;
    this is how such a field changes. (Through a list: compiled, this is faster than
    joining slices.)
    """
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def shared_win_returns(winners: list[int] | set[int], num_players: int) -> list[float]:
    """1.0 to a sole winner, 1/k to each of k tied winners, 0.0 to everyone else."""
    if not winners:
        return [0.0] * num_players
    share = 1.0 / len(winners)
    return [share if seat in winners else 0.0 for seat in range(num_players)]


class State:
    """One position of a game. Subclasses implement the hooks marked 'game hook'."""

    game: Game
    _history: list[int]
    _actors: list[int]
    # Per viewer, the replay behind `log`, its lines, and the lines folded so far (up to the
    # run that may still grow); made on first use, never copied.
    _log_cache: dict[int | None, tuple[State, list[str], list[str], int]] | None
    # Per viewer, the finished records (contests, seasons) as `shown_records` worded them;
    # made on first use, never copied.
    _records_shown: dict[int | None, list[dict[str, Any]]] | None

    def __init__(self, game: Game, copy_of: State | None = None) -> None:
        # `copy_of` is for a game's clone(): the history is copied here, so that a copy does
        # not first make empty lists only to throw them away.
        self.game = game
        if copy_of is None:
            self._history = []
            self._actors = []
        else:
            self._history = copy_of._history.copy()
            self._actors = copy_of._actors.copy()
        self._log_cache = None
        self._records_shown = None

    # ------------------------------------------------------------------ standard verbs
    def current_player(self) -> int:
        """A seat number, or CHANCE, or TERMINAL."""
        raise NotImplementedError  # game hook

    def legal_actions(self) -> list[int]:
        """Sorted legal actions; at a chance node, the possible outcomes."""
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return sorted(action for action, _ in self.chance_outcomes())
        return self._legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) pairs at a chance node, empty elsewhere. Sums to 1."""
        raise NotImplementedError  # game hook

    def apply_action(self, action: object) -> None:
        """Play `action`. An illegal one raises IllegalActionError and changes nothing."""
        # Typed `object`, not `int`: compiled code would turn True into 1 at the door, and
        # refuse a string with a TypeError instead of the rule's words.
        # The game's quick check vouches for most moves; anything it does not vouch for
        # takes the full check, which also finds the words for a refusal.
        if type(action) is not int or not self._is_legal(action):
            reason = self.illegal_reason(action)
            if reason is not None:
                raise IllegalActionError(reason, action, self._safe_text(action))
        assert type(action) is int  # illegal_reason vouched for it
        self.apply_trusted(action)

    def apply_trusted(self, action: int) -> None:
        """Play a move the caller has just taken from `legal_actions()` or
        `chance_outcomes()`, without checking it again (replays and searches).

        An action that is not legal here leaves the state corrupt: use `apply_action` for
        anything that comes from outside.
        """
        actor = self.current_player()
        self._apply(action)
        self._history.append(action)
        self._actors.append(actor)

    def action_to_string(
        self, action: int, *misplaced: object, player: int | None = None
    ) -> str:
        """Stable readable text of an action (of a chance outcome at chance nodes).

        `player` is keyword-only: OpenSpiel's `action_to_string(player, action)` puts its
        arguments the other way round, so a second positional argument is refused rather
        than read as a player (or silently taken for the action).
        """
        if misplaced:
            raise TypeError(
                "action_to_string takes the action alone, and the player by keyword: "
                f"action_to_string({action!r}, player=...); OpenSpiel's "
                "action_to_string(player, action) order is not accepted here"
            )
        if player is None:
            player = self.current_player()
        return self._action_text(action, player)

    def describe_action(self, action: int) -> dict[str, Any]:
        """A structured, JSON-safe description of a move for clients to draw controls from.

        Always has `id`, `text` and `verb` (the text's first word) and `args` (the rest);
        games add fields (a card, a seat, an amount) through `_action_fields`.
        """
        text = self.action_to_string(action)
        verb, _, rest = text.partition(" ")
        described: dict[str, Any] = {"id": action, "text": text, "verb": verb, "args": rest}
        described.update(self._action_fields(action))
        return described

    def string_to_action(self, text: str) -> int:
        """The action whose text is `text` here (case and spacing do not matter)."""
        wanted = normalise_text(text)
        player = self.current_player()
        for action in self._action_space(player):
            if normalise_text(self._action_text(action, player)) == wanted:
                return action
        if player == TERMINAL:
            raise UnknownActionError(f"the game is over; {text!r} cannot be played")
        legal = ", ".join(self.action_to_string(a) for a in self.legal_actions())
        raise UnknownActionError(
            f"{text!r} is not a move of {self.game.info.title} here; the moves now are: {legal}",
            text=text,
        )

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def returns(self) -> list[float]:
        """Per seat: 1.0 sole winner, 1/k on a k-way tie, 0.0 otherwise (all 0 before the end)."""
        raise NotImplementedError  # game hook

    def scores(self) -> list[int]:
        """The game's own points or gems, per seat."""
        raise NotImplementedError  # game hook

    def balance_facts(self) -> dict[str, int | float | str]:
        """What a designer weighs a finished game by (the balance lab reads this).

        Three keys are shared by every game: "first_player" (the seat that played first;
        the others follow in seat order, so turn order is (seat - first_player) mod n),
        "length" and "length_unit" (the game's length in its own units: contests, seasons).
        Every other key is a fact of the game's own: a number is averaged over games, a text
        has its values counted. The default knows only who moved first and how many moves
        the seats made; games override it (and may start from this answer).
        """
        first = next((actor for actor in self._actors if actor >= 0), 0)
        moves = sum(1 for actor in self._actors if actor >= 0)
        return {"first_player": first, "length": moves, "length_unit": "moves"}

    def clone(self) -> State:
        raise NotImplementedError  # game hook, hand-written per game

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        # Libraries that deep-copy states (OpenSpiel's Python-game clone does) get the
        # hand-written clone: the game is immutable and shared, everything else is copied.
        return self.clone()

    def history(self) -> list[int]:
        return list(self._history)

    def actors(self) -> list[int]:
        """Who made each history entry (a seat or CHANCE)."""
        return list(self._actors)

    def num_players(self) -> int:
        return self.game.num_players

    # ------------------------------------------------------------------ explanations
    def illegal_reason(self, action: object) -> str | None:
        """None when `action` is legal now, otherwise the rule that forbids it, in words."""
        if not isinstance(action, int) or isinstance(action, bool):
            return f"an action must be a whole number, not {action!r}"
        player = self.current_player()
        if player == TERMINAL:
            return "the game is over; no more moves can be made"
        space = self._action_space(player)
        if action not in space:
            kind = "chance outcome" if player == CHANCE else "action"
            return (
                f"{action} is not a {self.game.info.title} {kind} "
                f"(they are numbered {space.start} to {space.stop - 1})"
            )
        if player == CHANCE:
            if any(outcome == action for outcome, _ in self.chance_outcomes()):
                return None
            return self._why_illegal(action) or (
                f"the outcome '{self._action_text(action, player)}' is impossible here"
            )
        if action in self._legal_actions():
            return None
        return self._why_illegal(action) or (
            f"'{self._action_text(action, player)}' is not allowed now"
        )

    def _safe_text(self, action: Any) -> str | None:
        try:
            return self.action_to_string(action)
        except (LadyTigerError, IndexError, KeyError, OverflowError, TypeError, ValueError):
            return None

    def _action_space(self, player: int) -> range:
        if player == TERMINAL:
            return range(0)
        if player == CHANCE:
            return range(self.game.max_chance_outcomes())
        return range(self.game.num_distinct_actions())

    # ------------------------------------------------------------------ what a seat sees
    def observation(self, player: int | None, with_log: bool = True) -> dict[str, Any]:
        """A JSON-safe dict of exactly what `player` may know; None is the spectator view.

        `with_log=False` leaves out the log (the seat's account of the past), which costs a
        replay on a fresh state; searches that only read the present ask for that.
        """
        self._check_viewer(player)
        view: dict[str, Any] = {
            "game": self.game.info.name,
            "options": dict(self.game.options),
            "viewer": player,
            "current_player": self.current_player(),
            "terminal": self.is_terminal(),
            "scores": self._public_scores(),
        }
        if self.is_terminal():
            view["returns"] = self.returns()
        view.update(self._observe(player))
        if with_log:
            view["log"] = self.log(player)
        return view

    def shown_records(
        self,
        records: Sequence[dict[str, Any]],
        viewer: int | None,
        show: Callable[[dict[str, Any], int | None], dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """`records` (a game's finished contests or seasons, which never change once written)
        as `viewer` reads them through `show`. Wording them was most of what a view cost, so
        each is shown once per viewer and kept; a clone words its own."""
        cache = self._records_shown
        if cache is None:
            cache = self._records_shown = {}
        shown = cache.get(viewer)
        if shown is None:
            shown = cache[viewer] = []
        for record in records[len(shown):]:
            shown.append(show(record, viewer))
        # Fresh dicts, as a view has always handed out: a reader may change its own.
        return [dict(entry) for entry in shown]

    def log(self, player: int | None) -> list[str]:
        """What `player` saw happen, in order, in sentences. Rebuilt from the history.

        The replay behind it is kept per viewer, so a state that moves on (a live table)
        extends its logs step by step instead of replaying from the start each time. The
        steps' lines are kept as `_describe` gave them; the runs of parts (a deal) are
        folded into one line each time the log is read, as a run may still grow.
        """
        self._check_viewer(player)
        cache = self._log_cache
        if cache is None:
            cache = self._log_cache = {}
        kept = cache.get(player)
        lines: list[str]
        folded: list[str]
        if kept is None:
            replay, lines, folded, ready = self.game.new_initial_state(), [], [], 0
        else:
            replay, lines, folded, ready = kept
        done = len(replay._history)
        if done > len(self._history) or replay._history != self._history[:done]:
            replay, lines, folded, ready, done = self.game.new_initial_state(), [], [], 0, 0
        for actor, action in zip(self._actors[done:], self._history[done:], strict=True):
            before = replay.clone()
            replay.apply_trusted(action)
            lines.extend(before._describe(action, actor, player, replay))
        # Folding the whole log again on every read was a tenth of a live table's work:
        # lines before the run that may still grow are folded once and kept.
        now_ready = settled(lines, ready)
        folded.extend(fold_parts(lines[ready:now_ready]))
        cache[player] = (replay, lines, folded, now_ready)
        return folded + fold_parts(lines[now_ready:])

    def _check_viewer(self, player: int | None) -> None:
        if player is not None and (
            not isinstance(player, int)
            or isinstance(player, bool)
            or not 0 <= player < self.game.num_players
        ):
            raise LadyTigerError(
                f"there is no seat {player!r}; seats are 0 to {self.game.num_players - 1}, "
                "or None for a spectator"
            )

    def _public_scores(self) -> list[int]:
        """Scores everyone may see; games with secret scores override."""
        return self.scores()

    # ------------------------------------------------------------------ moments
    def moment(self, after: State) -> dict[str, Any] | None:
        """The scoring or reveal moment among the steps from this state to `after`, if any.

        `after` is this state moved on: a player's move and the chance steps that follow
        it. The answer is `{"kind": ..., "title": ..., "lines": [...]}` in player words,
        written for nobody in particular (every seat is "Seat N") and from what a spectator
        may know of `after` (what the moment itself turns up included); None when nothing
        was scored or revealed. Several moments in one move come as one, under the kind
        and title of the last (see `combine_moments`). Games override this; by default the
        only moment is the end of the game, "game_end", with every seat's score.
        """
        self.steps_to(after)  # a check that `after` follows from here
        if after.is_terminal() and not self.is_terminal():
            return game_end_moment(after)
        return None

    def steps_to(self, after: State) -> list[tuple[State, int, int, State]]:
        """Each step from here to `after` as (before, action, actor, after the step).

        Raises LadyTigerError when `after` is not this state moved on."""
        done = len(self._history)
        if (
            after.game != self.game
            or len(after._history) < done
            or after._history[:done] != self._history
            or after._actors[:done] != self._actors
        ):
            raise LadyTigerError("a moment is asked of a state and a later state of its game")
        return list(self._walk(after._actors[done:], after._history[done:]))

    def _walk(
        self, actors: list[int], actions: list[int]
    ) -> Iterator[tuple[State, int, int, State]]:
        replay = self.clone()
        for actor, action in zip(actors, actions, strict=True):
            before = replay.clone()
            replay.apply_trusted(action)
            yield before, action, actor, replay.clone()

    # ------------------------------------------------------------------ resampling
    def resample(self, player: int | None, rng: random.Random) -> State:
        """A full state drawn at random among those consistent with what `player` knows.

        The default replays the history, drawing every step hidden from `player` afresh
        (chance by its probabilities, a hidden move uniformly among the legal ones), and
        rejects a draw whose public course differs from the real one. Games with many
        constraints override this with a direct sampler.
        """
        hidden = self._hidden_steps(player)
        if not hidden:
            return self.clone()
        for _ in range(10_000):
            candidate = self._replay_with_hidden_redrawn(hidden, rng)
            if candidate is not None:
                return candidate
        raise LadyTigerError("could not draw a state consistent with this seat's knowledge")

    def _replay_with_hidden_redrawn(self, hidden: set[int], rng: random.Random) -> State | None:
        candidate = self.game.new_initial_state()
        for index, (actor, action) in enumerate(zip(self._actors, self._history, strict=True)):
            if candidate.current_player() != actor:
                return None
            if index in hidden:
                if actor == CHANCE:
                    outcomes = candidate.chance_outcomes()
                    action = rng.choices(
                        [o for o, _ in outcomes], weights=[p for _, p in outcomes]
                    )[0]
                else:
                    action = rng.choice(candidate.legal_actions())
            elif not candidate._is_legal(action) and candidate.illegal_reason(action) is not None:
                return None
            candidate.apply_trusted(action)
        if candidate.current_player() != self.current_player():
            return None
        return candidate

    # ------------------------------------------------------------------ game hooks
    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _action_text(self, action: int, player: int) -> str:
        raise NotImplementedError

    def _action_fields(self, action: int) -> dict[str, Any]:
        """Extra structured fields of a move (e.g. {"card": "Red Lady"}); none by default."""
        return {}

    def _why_illegal(self, action: int) -> str | None:
        """The rule that forbids `action` here, or None to use the generic message."""
        return None

    def _is_legal(self, action: int) -> bool:
        """A quick check for `apply_action`: True only if `action` is surely legal now.

        False is always safe: it sends the move through `illegal_reason`, the reference.
        Games override this with a look-up that builds no list (a bitmask, a table), so a
        move is not validated by listing every legal move first.
        """
        return False

    def _observe(self, player: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def _hidden_steps(self, player: int | None) -> set[int]:
        """Indices of history entries whose outcome `player` does not know (yet)."""
        raise NotImplementedError

    def _describe(
        self, action: int, actor: int, viewer: int | None, after: State
    ) -> list[str]:
        """Log lines for `viewer` about `action` taken from this state, leading to `after`.

        Each line is a sentence for that viewer (see core/words.py), and the lines tell
        apart exactly the steps the viewer can tell apart: the bots compare them to know
        what a seat saw. A line may be a LogPart, which the log merges with its run.
        Games override this; the default only gives the move's own text.
        """
        text = self._action_text(action, actor)
        if actor == CHANCE:
            return [sentence(text)]
        return [sentence(f"{who(actor, viewer)}: {text}")]

    def conserved(self) -> dict[str, int]:
        """Quantities the rules never change (card and gem totals), for the property tests."""
        raise NotImplementedError  # game hook

    def _snapshot(self) -> tuple[Any, ...]:
        """Every field of the position, for equality in tests (history included)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, State)
            and other.game == self.game
            and other._snapshot() == self._snapshot()
        )

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    def __reduce__(self) -> tuple[Any, ...]:
        # A state travels (to a bot worker, a Ray task) as what determines it, its game and
        # its history, and is replayed on arrival: a compiled state has no __dict__ to copy.
        return (replay_history, (self.game, list(self._history)))

    def __str__(self) -> str:
        return f"{self.game!r} after {len(self._history)} actions"


def replay_history(game: Game, history: list[int]) -> State:
    """The state `history` leads to from the start of `game` (each step trusted)."""
    state = game.new_initial_state()
    for action in history:
        state.apply_trusted(action)
    return state
