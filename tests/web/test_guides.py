"""The players' guides (ladytiger.guides) and the pages that serve them, without a browser.

Each guide's scenes are positions the engine reaches by the scenes' own moves and chance
outcomes; each phase a game can show a seat is explained by a section; the rules page and the
"?" panel's JSON say it in players' words only.
"""

from __future__ import annotations

import html
import random
import re

import pytest

from ladytiger import guides
from ladytiger.core import CHANCE, load_game, registered_games

GAMES = guides.GAMES

# Words a player should never meet on a rules page: files, tests, the program's insides.
FORBIDDEN = [
    (r"\b[\w/]+\.(?:py|md|js|css|toml)\b", "a file name"),
    (r"\b(?:src|docs|tests?)/", "a folder"),
    (r"\btest_\w+", "a test name"),
    (r"\(issue\)|\bissue \d+", "an issue reference"),
    (r"\bengine\b", "the word 'engine'"),
    (r"\bobservations?\b", "the word 'observation'"),
    (r"\bseat \d\b", "a seat number"),
    (r"\b[a-z]+_[a-z_]+\b", "an identifier"),
    (r"`", "code quotes"),
    (r"\b(?:None|True|False|null)\b", "a program value"),
]


def visible_text(markup: str) -> str:
    """The words of a page as a reader sees them (tags and link targets dropped)."""
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def internal_words(text: str) -> list[str]:
    found = []
    for pattern, what in FORBIDDEN:
        found += [f"{what}: {m.group(0)!r}" for m in re.finditer(pattern, text)]
    return found


def test_the_scan_finds_what_it_looks_for():
    # The scan itself: each kind of slip is caught, and plain players' words are not.
    for slip in ("see docs/rules/doors.md", "Engine: doors.py", "(issue) Seat 0 collects",
                 "option gems_to_win", "the `end turn` move", "tests/games/test_doors.py"):
        assert internal_words(slip), slip
    assert not internal_words("You take the Red Lady; the Guesser earns 3 gems. Seat one.")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_guide_and_every_scene_is_a_real_position(game):
    data = guides.guide(game)
    assert data is not None, f"{game} has no guide"
    scenes = guides.scenes(data)
    assert scenes, f"{game}'s guide has no illustrated scene"
    views = guides.scene_views(game)
    for scene in scenes:
        observation = views[scene["id"]]
        assert observation["viewer"] == scene.get("seat")
        # The picture is what that seat would see, built again here from the moves.
        again = guides.scene_state(game, scene).observation(scene.get("seat"))
        assert again == observation
        assert scene["caption"].strip()


def test_a_scene_the_rules_refuse_is_reported_with_its_step():
    scene = {"id": "bad", "actions": ["deal Red Tiger to seat 0", "take Red Lady"], "seat": 0,
             "caption": "x"}
    with pytest.raises(guides.GuideError, match=r"step 2 \('take Red Lady'\)"):
        guides.scene_state("doors", scene)


@pytest.mark.parametrize("game", GAMES)
def test_every_phase_of_random_games_is_explained_to_every_viewer(game):
    data = guides.guide(game)
    assert data is not None
    info = next(i for i in registered_games() if i.name == game)
    missing: set[tuple[str, tuple[str, ...]]] = set()
    seen: set[str] = set()
    for config in info.configurations():
        for seed in range(4):
            rng = random.Random(seed)
            state = load_game(game, **config).new_initial_state()
            steps = 0
            while True:
                for seat in (None, *range(state.num_players())):
                    observation = state.observation(seat, with_log=False)
                    seen.add(observation["phase"])
                    if not guides.moments_for(data, observation, seat):
                        held = guides.roles_of(data, observation, seat)
                        missing.add((observation["phase"], tuple(sorted(held))))
                if state.is_terminal() or steps > 3000:
                    break
                if state.current_player() == CHANCE:
                    outcomes = state.chance_outcomes()
                    action = rng.choices([o for o, _ in outcomes],
                                         weights=[p for _, p in outcomes])[0]
                else:
                    action = rng.choice(state.legal_actions())
                state.apply_action(action)
                steps += 1
    assert not missing, f"phases of {game} no section explains: {sorted(missing)}"
    assert "game over" in seen


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_of_the_reference_is_a_fine_point(game):
    data = guides.guide(game)
    assert data is not None
    reference = (guides_reference_dir() / f"{game}.md").read_text("utf-8")
    rulings = reference.split("## Rulings", 1)[1].split("\n## ", 1)[0]
    count = len(re.findall(r"^\d+\.", rulings, re.M))
    assert count > 0
    assert len(data["fine_points"]) >= count, (
        f"{game}: {count} rulings in the reference, {len(data['fine_points'])} fine points")
    for point in data["fine_points"]:
        assert point["rule"].strip() and point["why"].strip()


def guides_reference_dir():
    from pathlib import Path

    return Path(__file__).resolve().parents[2] / "docs" / "rules"


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_speaks_to_players_only(client, game):
    answer = client.get(f"/rules/{game}")
    assert answer.status_code == 200
    page = answer.text
    assert 'id="minute"' in page and 'id="fine-points"' in page
    assert f'href="/?game={game}"' in page
    for other in GAMES:
        assert f'href="/rules/{other}"' in page
    data = guides.guide(game)
    assert data is not None
    for scene in guides.scenes(data):
        assert f'data-scene="{scene["id"]}"' in page
    text = visible_text(page.split("<main", 1)[1])
    assert not internal_words(text), internal_words(text)


@pytest.mark.parametrize("game", GAMES)
def test_the_guide_api_gives_the_panel_its_sections_and_the_page_its_scenes(client, game):
    answer = client.get(f"/api/guides/{game}")
    assert answer.status_code == 200
    data = answer.json()
    assert data["game"] == game and len(data["minute"]) == 5
    assert data["lesson"] == f"/learn/{game}"  # the "?" panel links the guided game
    assert client.get(data["lesson"]).status_code == 200
    page = client.get(f"/rules/{game}").text
    assert f'id="guide-learn" href="/learn/{game}"' in page
    views = guides.scene_views(game)
    shown = [scene for section in data["sections"] for scene in section["scenes"]]
    assert {scene["id"] for scene in shown} == set(views)
    for scene in shown:
        assert scene["observation"] == views[scene["id"]]
        assert "legal_actions" not in scene["observation"]
    for section in data["sections"]:
        assert "<figure" not in section["html"]
        words = visible_text(section["html"]) + " ".join(m["say"] for m in section["moments"])
        assert not internal_words(words), internal_words(words)


def test_unknown_games_have_no_guide(client):
    assert client.get("/api/guides/chess").status_code == 404
    missing = client.get("/rules/chess")
    assert missing.status_code == 404
    assert 'href="/rules/doors"' in missing.text


def test_roles_and_moments_follow_the_phase_and_the_seat():
    data = guides.guide("doors")
    assert data is not None
    scenes = {scene["id"]: scene for scene in guides.scenes(data)}
    state = guides.scene_state("doors", scenes["guessing"])
    guesser = state.observation(1, with_log=False)
    assert guides.roles_of(data, guesser, 1) == {"Guesser", "to move"}
    said = [m["say"] for _, m in guides.moments_for(data, guesser, 1)]
    assert said == ["Your turn as Guesser: discard one card; you may guess before or after."]
    collector = state.observation(0, with_log=False)
    assert guides.roles_of(data, collector, 0) == {"Collector", "waiting"}
    assert "may guess your door" in guides.moments_for(data, collector, 0)[0][1]["say"]
    assert guides.roles_of(data, state.observation(None), None) == {"watching"}
