"""Player guides: each game's rules written for players, with illustrated scenes.

One module per game (`ladytiger.guides.<game>`) holds a `GUIDE` dict; this module loads,
checks and serves them. The rules page (/rules/<game>) and the table's "?" panel both read a
guide, so the two never disagree.

A guide has:
- `title`, `facts` (players and length), `intro`, `minute` (five short lines: the goal, a
  turn, how you win);
- `roles`: role name -> the observation field holding the seat (or seats) in that role,
  e.g. {"Collector": "collector"}, or a dotted path into it ("auction.caller");
- `sections`: each with `id`, `title`, `body` (Markdown), optional `steps` (Markdown, shown
  numbered), `scenes` and `moments`;
- `fine_points`: each ruling as {"rule": ..., "why": ...} in plain words.

A scene is a position built from the game's options and a forced list of action texts
(moves and chance outcomes alike), drawn for one seat: {"id", "options", "actions", "seat",
"caption"}, optionally "focus" (CSS selectors of the parts of the table view worth showing)
and "names" (what the other seats are called). A moment ties a section to the table:
{"phase": ..., "role": ..., "say": ...} means that when the observation's phase is `phase`
and the viewer holds `role` (a role of `roles`, "to move", "waiting" or "watching", or a
list of them, all held at once; none means anyone), the "?" panel leads with `say` and
shows the section.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from ladytiger.core import load_game
from ladytiger.core.state import State

# In the order a newcomer is best served by: the simplest first.
GAMES = ("doors", "traps", "favor", "tighee", "shady_lady", "hoard", "labyrinth")

# Names the scenes give the other seats, so that the pictures read like a table of friends.
DEFAULT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")

# Roles every game has, beside its own.
TO_MOVE = "to move"
WAITING = "waiting"
WATCHING = "watching"


class GuideError(ValueError):
    """A guide that does not hold together (a scene the engine refuses, a missing field)."""


@cache
def guide(game: str) -> dict[str, Any] | None:
    """The game's guide, checked, or None if the game has none."""
    if game not in GAMES:
        return None
    try:
        module = importlib.import_module(f"ladytiger.guides.{game}")
    except ModuleNotFoundError as error:
        if error.name != f"ladytiger.guides.{game}":
            raise
        return None  # not written yet: the rules page falls back to the reference
    data: dict[str, Any] = module.GUIDE
    check(game, data)
    return data


def check(game: str, data: dict[str, Any]) -> None:
    for key in ("title", "facts", "intro", "minute", "roles", "sections", "fine_points"):
        if key not in data:
            raise GuideError(f"the {game} guide has no {key!r}")
    if len(data["minute"]) != 5:
        raise GuideError(f"the {game} guide's 'In one minute' has {len(data['minute'])} lines")
    ids: set[str] = set()
    for section in data["sections"]:
        if section["id"] in ids:
            raise GuideError(f"two sections of the {game} guide are called {section['id']!r}")
        ids.add(section["id"])
        for moment in section.get("moments", ()):
            for role in wanted_roles(moment):
                if role not in (*data["roles"], TO_MOVE, WAITING, WATCHING):
                    raise GuideError(f"the {game} guide names an unknown role {role!r}")
        for scene in section.get("scenes", ()):
            if scene["id"] in ids:
                raise GuideError(f"two parts of the {game} guide are called {scene['id']!r}")
            ids.add(scene["id"])


def scenes(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [scene for section in data["sections"] for scene in section.get("scenes", ())]


def scene_state(game: str, scene: dict[str, Any]) -> State:
    """The position a scene shows: its options, then each of its action texts in order."""
    state = load_game(game, **scene.get("options", {})).new_initial_state()
    for index, text in enumerate(scene["actions"]):
        try:
            state.apply_action(state.string_to_action(text))
        except ValueError as error:  # the engine's errors are ValueErrors too
            raise GuideError(
                f"scene {scene['id']!r} of {game}: step {index + 1} ({text!r}): {error}"
            ) from error
    return state


@cache
def scene_views(game: str) -> dict[str, dict[str, Any]]:
    """Each scene's observation for its seat, by scene id (computed once per process)."""
    data = guide(game)
    if data is None:
        return {}
    return {
        scene["id"]: scene_state(game, scene).observation(scene.get("seat"))
        for scene in scenes(data)
    }


def seat_names(scene: dict[str, Any], players: int) -> list[str]:
    names = list(scene.get("names", DEFAULT_NAMES))
    return names[:players]


def roles_of(data: dict[str, Any], observation: dict[str, Any], seat: int | None) -> set[str]:
    """The roles `seat` holds in `observation` (a spectator only watches)."""
    if seat is None:
        return {WATCHING}
    held = {TO_MOVE if observation.get("current_player") == seat else WAITING}
    for role, field in data["roles"].items():
        value: Any = observation
        for key in field.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        if (type(value) is int and value == seat) or (isinstance(value, list) and seat in value):
            held.add(role)
    return held


def wanted_roles(moment: dict[str, Any]) -> set[str]:
    """The roles a moment asks of the viewer, all at once ("role": a name or a list)."""
    role = moment.get("role")
    if role is None:
        return set()
    return {role} if isinstance(role, str) else set(role)


def moments_for(
    data: dict[str, Any], observation: dict[str, Any], seat: int | None
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(section, moment) pairs that explain this phase to this seat, in guide order.

    rulehelp.js makes the same choice in the browser; a test holds the two together.
    """
    phase = observation.get("phase")
    held = roles_of(data, observation, seat)
    found = []
    for section in data["sections"]:
        for moment in section.get("moments", ()):
            if moment["phase"] == phase and wanted_roles(moment) <= held:
                found.append((section, moment))
                break
    return found
