"""The guided games over HTTP: /api/lessons/<game> and the page /learn/<game>."""

from __future__ import annotations

from ladytiger.lessons import LESSON_GAMES, frames, lesson_for

LESSON = lesson_for("doors")


def test_the_server_serves_the_lesson_and_its_page(client):
    answer = client.get("/api/lessons/doors")
    assert answer.status_code == 200
    body = answer.json()
    assert body["game"] == "doors" and body["seat"] == LESSON.seat
    assert len(body["frames"]) == len(frames(LESSON))
    assert client.get("/learn/doors").status_code == 200
    missing = client.get("/api/lessons/chess")
    assert missing.status_code == 404 and "chess" in missing.json()["error"]["message"]
    assert lesson_for("chess") is None
    assert "doors" in LESSON_GAMES


def test_every_guided_game_is_served_and_listed_with_its_game(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    for name in LESSON_GAMES:
        answer = client.get(f"/api/lessons/{name}")
        assert answer.status_code == 200
        assert len(answer.json()["frames"]) == len(frames(lesson_for(name)))
        assert games[name]["lesson"] == f"/learn/{name}"
    # Every game has one.
    assert set(LESSON_GAMES) == set(games)
    assert [name for name, g in games.items() if g["lesson"]] == [
        name for name in games if name in LESSON_GAMES]
