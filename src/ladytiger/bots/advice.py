"""Hints: a suggested move for one seat, the rule of thumb behind it, and the search's word.

`advise(state, seat, seed=...)` answers what a player asks with the Hint button. The first
thing it does is replace `state` with `state.resample(seat, rng)`: a state drawn among those
the seat cannot tell from the real one. Everything after that line works on the drawn state,
so no hidden card of the real one can reach a hint, whatever the code below does. The
suggestion is the game's rules of thumb (ladytiger.bots.heuristics, each rule with its words);
then the search bot (ladytiger.bots.ismcts) thinks about the same position, and when it
prefers another move (it visited it most, and expects more of it by the bot's margin) the
hint says so, with how many simulations it ran and what it expects of each move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ladytiger.bots.base import Bot, CappedBudget
from ladytiger.bots.heuristics import Moves, explainer_for, round_points
from ladytiger.bots.ismcts import IsmctsBot, Node
from ladytiger.core import State

# Simulations the search runs for a hint: enough for a steady answer in every game.
HINT_ITERATIONS = 2000
# What a round's points are called where the search judges a move by one round (Doors'
# contests, Tighee's rounds), so its figure can be said in the game's own words.
ROUND_WORDS = {"doors": ("gems", "this contest"), "tighee": ("points", "this round")}


@dataclass(frozen=True)
class SearchNote:
    """What the search made of the position."""

    action: int  # the move it visited most
    text: str
    simulations: int
    agrees: bool  # False when it prefers another move to the suggestion
    note: str  # one sentence for the player

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "text": self.text, "simulations": self.simulations,
                "agrees": self.agrees, "note": self.note}


@dataclass(frozen=True)
class Advice:
    """A suggested move for one seat: the move, its text, the reason, the search's note."""

    action: int
    text: str
    reason: str
    search: SearchNote | None

    def to_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"action": self.action, "text": self.text,
                                  "reason": self.reason}
        if self.search is not None:
            answer["search"] = self.search.to_json()
        return answer


def advise(
    state: State,
    seat: int,
    *,
    seed: int,
    iterations: int = HINT_ITERATIONS,
    seconds: float | None = None,
    level: str | None = None,
) -> Advice:
    """The hint for `seat`, whose turn it is in `state`.

    The search runs `iterations` simulations (0: no search), stopping early after `seconds`
    if given; with `seconds` unset, the same seed always gives the same hint. A bot `level`
    (ladytiger.bots.levels) replaces `iterations` with that level's: no search for beginner
    and casual (the rules of thumb are the casual bot), the strong or expert search's
    budget otherwise; `seconds` still caps it.
    """
    if level is not None:
        from ladytiger.bots.levels import hint_iterations

        iterations = hint_iterations(state.game.info.name, level)
    Bot.check_turn(state, seat)
    rng = random.Random(seed)
    # From here on only a drawn state exists: the real one's hidden cards are out of reach.
    state = state.resample(seat, rng)
    legal = state.legal_actions()
    moves = Moves(legal, [state.action_to_string(action) for action in legal])
    game = state.game.info.name
    if len(legal) == 1:
        return Advice(legal[0], moves.texts[0], "It is the only move you have.", None)
    explain = explainer_for(game)
    action, reason = explain(state.observation(seat, with_log=False), moves,
                             random.Random(rng.getrandbits(64)))
    text = moves.texts[legal.index(action)]
    search = None
    if iterations > 0:
        search = _search(state, seat, moves, action, rng.getrandbits(64), iterations, seconds)
    return Advice(action, text, reason, search)


def hint_job(
    state: State, seat: int, seed: int, iterations: int, seconds: float | None,
    level: str | None = None,
) -> dict[str, Any]:
    """`advise` as the server's bot workers run it (by name, with plain arguments), as JSON."""
    return advise(state, seat, seed=seed, iterations=iterations, seconds=seconds,
                  level=level).to_json()


# ---------------------------------------------------------------------------- the search
class _WatchedSearch(IsmctsBot):
    """The search bot, keeping the root of its last search for the hint to read."""

    root: Node | None = None

    def best_action(self, root: Node, seat: int, legal: list[int]) -> int:
        self.root = root
        return super().best_action(root, seat, legal)


def _search(
    state: State,
    seat: int,
    moves: Moves,
    suggested: int,
    seed: int,
    iterations: int,
    seconds: float | None,
) -> SearchNote:
    bot = _WatchedSearch(state.game, seed=seed, iterations=iterations)
    bot.budget = CappedBudget(iterations=iterations, seconds=seconds)
    bot.step(state, seat)
    root = bot.root
    assert root is not None  # more than one move: the search ran
    legal = moves.actions
    best = bot.best_action(root, seat, legal)
    # The search prefers its own move when it visited it most and expects more of it by the
    # bot's margin. No test of standard errors here, unlike the search bot's own choice
    # (IsmctsBot._clearly_better): the search visits a move it judges poor only rarely, so
    # few visits to the suggestion are the search's verdict on it, not a lack of evidence.
    agrees = best == suggested or (
        bot._mean(root, seat, best) - bot._mean(root, seat, suggested) <= bot.margin
    )
    count = f"{bot.last_iterations:,} simulations"
    game = state.game.info.name

    def figure(action: int) -> str:
        """What the search expects of a move: its share of wins or, judged by one round,
        the points it gains against the others ("+1.5")."""
        visits = root.edges.get((seat, action), (0,))[0]
        if not visits:
            return "untried"
        mean = bot._mean(root, seat, action)
        if bot.horizon == "round":
            return f"{(mean - 0.5) * 2 * round_points(game):+.1f}"
        return f"{round(100 * mean)}%"

    def value(action: int) -> str:
        said = figure(action)
        if said == "untried":
            return said
        if bot.horizon != "round":
            return f"{said} win"
        points, when = ROUND_WORDS.get(game, ("points", "this round"))
        others = "the other player" if state.game.num_players == 2 else "the others"
        return f"{said} {points} {when} against {others}"

    best_text = moves.texts[legal.index(best)]
    if max(bot._mean(root, seat, action) for action in legal) == 0 and bot.horizon == "game":
        # Nothing it tried ever won: a figure would only say "0%" to every move.
        return SearchNote(best, best_text, bot.last_iterations, True,
                          f"The search won none of its {count} from here, so it has no "
                          "better move to offer.")
    if not agrees:
        note = (f"The search prefers {best_text} after {count}: {value(best)} "
                f"(the suggestion: {figure(suggested)}).")
    elif best == suggested:
        note = f"The search agrees after {count}: {value(suggested)}."
    else:
        note = (f"The search finds nothing clearly better after {count}: "
                f"{value(suggested)}.")
    return SearchNote(best, best_text, bot.last_iterations, agrees, note)
