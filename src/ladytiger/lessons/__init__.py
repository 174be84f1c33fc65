"""Guided first games: a scripted deal played on the engine, each step explained.

A lesson is a game's options, the learner's seat and a list of steps, each an action text
the engine accepts (chance outcomes such as "deal Blue Lady to seat 0" included) with what a
coach says about it. Nothing in a lesson restates a rule: the positions, the legal moves and
the scores all come from the engine replaying the steps, and `frames` fails loudly if a step
is not legal where it stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from ladytiger.core import LadyTigerError, State, load_game


@dataclass(frozen=True)
class Step:
    """One action of the script. `say`: for the learner's own step, what to do and why,
    shown before it; for anyone else's, what just happened, shown after it. `hold`: show the
    position right after this step on its own (a contest just ended), before the chance
    steps that follow it; `then`: what the coach says of the learner's step once played."""

    action: str
    say: str = ""
    hold: bool = False
    then: str = ""


@dataclass(frozen=True)
class Lesson:
    game: str
    title: str
    seat: int
    options: dict[str, Any]
    intro: str
    outro: str
    steps: tuple[Step, ...] = field(default_factory=tuple)
    # A long game is taught by its first part (Favor's first day): the lesson then says so,
    # and its last step may stand before the end of the game.
    to_the_end: bool = True


def _view(state: State, seat: int) -> dict[str, Any]:
    mover = state.current_player()
    mine = mover == seat and not state.is_terminal()
    return {
        "status": "finished" if state.is_terminal() else "playing",
        "seat": seat,
        "current_player": mover,
        "your_turn": mine,
        "observation": state.observation(seat),
        "legal_actions": [state.describe_action(a) for a in state.legal_actions()]
        if mine else [],
    }


def frames(lesson: Lesson) -> list[dict[str, Any]]:
    """The lesson as the positions the learner sees, in order.

    A frame stands at each point where a player is to move, after each step that holds, and
    at the end. Where the learner is to move it names the one move the lesson expects
    (`expect`) and what the coach says of it; elsewhere it says what happened since the frame
    before. Each frame carries the view of the learner's seat and the moment (scores,
    reveals) the engine finds between it and the frame before.
    """
    state = load_game(lesson.game, **lesson.options).new_initial_state()
    out: list[dict[str, Any]] = []
    shown = state.clone()
    said: list[str] = []

    def emit(expect: str | None, coach: list[str]) -> None:
        nonlocal shown
        version = len(out)
        out.append({
            "version": version,
            "view": {**_view(state, lesson.seat), "version": version,
                     "moment": shown.moment(state) if out else None},
            "expect": expect,
            "say": " ".join(part for part in coach if part),
        })
        shown = state.clone()
        said.clear()

    for index, step in enumerate(lesson.steps):
        if state.is_terminal():
            raise LadyTigerError(f"lesson step {index} ({step.action!r}) comes after the end")
        actor = state.current_player()
        options = (state.legal_actions() if actor >= 0
                   else [a for a, _ in state.chance_outcomes()])
        try:
            action = state.string_to_action(step.action)
        except LadyTigerError as err:
            # A script's author needs the step, not only the engine's word for the text.
            raise LadyTigerError(f"lesson step {index} ({step.action!r}): {err}") from err
        if action not in options:
            reason = state.illegal_reason(action) or "it is not among the moves here"
            raise LadyTigerError(f"lesson step {index} ({step.action!r}) is not legal: {reason}")
        if actor == lesson.seat:
            emit(step.action, [*said, step.say])
        elif actor >= 0:
            emit(None, said)
        state.apply_action(action)
        if actor != lesson.seat and step.say:
            said.append(step.say)
        if actor == lesson.seat and step.then:
            said.append(step.then)
        if step.hold:
            emit(None, said)
    if lesson.to_the_end and not state.is_terminal():
        raise LadyTigerError("the lesson ends before the game does")
    emit(None, [*said, lesson.outro])
    out[0]["say"] = " ".join(filter(None, [lesson.intro, out[0]["say"]]))
    return out


LESSON_GAMES = ("doors", "favor", "hoard", "labyrinth", "shady_lady", "tighee", "traps")


def lesson_for(game: str) -> Lesson | None:
    """The guided game of `game`, if there is one (each lives in the module of its game's
    name, imported only when asked for)."""
    if game not in LESSON_GAMES:
        return None
    lesson: Lesson = import_module(f"ladytiger.lessons.{game}").LESSON
    return lesson
