"""A player who left, in the browser: the others are told, offered a bot to play for them
once `away_grace` has passed, and the seat is its player's again when they come back.

Screenshots go to the directory named by LADYTIGER_SCREENSHOTS, else to a pytest temporary
directory; never into the repository.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import live_server
from tests.browser.support import click_random_move, create_table, wait_settled

GRACE = 5.0


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """A server whose players may be stood in for after 5 s away (60 s by default): long
    enough to read the first word on a loaded machine, short enough for a test."""
    with live_server(tmp_path_factory.mktemp("stand-in"), "--away-grace", str(GRACE),
                     "--bot-pause", "0.2") as base:
        yield base


def test_a_player_who_left_is_played_by_a_bot_until_they_come_back(server, new_page,
                                                                     tmp_path):
    made = create_table(server, "doors", {"gems_to_win": 3},
                        [{"kind": "human"}, {"kind": "human"}])
    links = made["links"]["invites"]
    host, guest = new_page(), new_page(390, 844)
    host.goto(links["0"])
    guest.goto(links["1"])
    for page in (host, guest):
        wait_settled(page)
    rng = random.Random(2)
    # The host plays until the guest is to move.
    while host.evaluate("() => document.body.dataset.turn") == "you":
        click_random_move(host, rng, avoid=("guess", "claim"), avoid_chance=1.0)
        wait_settled(host)
    guest_context = guest.context
    guest.close()
    # First a word that they left and when the offer comes.
    note = host.locator("#stand-in-note")
    expect(note).to_contain_text("has left the table. If they are not back in")
    expect(host.locator("#stand-in-button")).to_have_count(0)
    expect(host.locator("#players")).to_contain_text("away")
    # Once the grace is over, the offer; taking it has a bot play for the guest.
    button = host.locator("#stand-in-button")
    guest_name = host.locator('#players li[data-seat="1"] .name').inner_text()
    expect(button).to_have_text(f"Let a bot play for {guest_name}",
                                timeout=GRACE * 1000 + 8000)
    folder = os.environ.get("LADYTIGER_SCREENSHOTS") or str(tmp_path)
    host.screenshot(path=os.path.join(folder, "stand-in-offer-1280x800.png"))
    button.click()
    expect(host.locator("#players")).to_contain_text("a bot stands in")
    host.wait_for_function("() => ['you', 'over'].includes(document.body.dataset.turn)")
    # The guest comes back: the seat is theirs again, and no bot plays for it.
    back = guest_context.new_page()
    back.goto(links["1"])
    wait_settled(back)
    expect(host.locator("#players")).not_to_contain_text("a bot stands in")
    expect(host.locator("#players")).not_to_contain_text("away")
    if host.evaluate("() => document.body.dataset.turn") == "you":
        click_random_move(host, rng, avoid=("guess", "claim"), avoid_chance=1.0)
        back.wait_for_function("() => ['you', 'over'].includes(document.body.dataset.turn)")
        expect(host.locator("#stand-in-note")).to_have_count(0)
