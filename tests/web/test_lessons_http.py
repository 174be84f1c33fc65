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
    missing = client.get("/api/lessons/tighee")
    assert missing.status_code == 404 and "tighee" in missing.json()["error"]["message"]
    assert "doors" in LESSON_GAMES
