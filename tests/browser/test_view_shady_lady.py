"""Shady Lady's browser view (static/games/shady_lady.js) in Chromium, driven by the engine.

Arranged deals are shown through the stand-in table page of test_view_favor.py (the frame's
own binder, the engine in place of the server); the last tests use the real server and page.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from playwright.sync_api import Page

from ladytiger.core import State
from ladytiger.core.playout import random_step
from ladytiger.core.state import CHANCE

# The stand-in table page is shared with Favor's view tests.
from tests.browser.support import (
    create_table,
    http,
    screenshots_at_both_sizes,
    turn,
)
from tests.browser.test_view_favor import (
    SIZES,
    EngineTable,
    enabled_moves,
    no_sideways_scroll,
    resize,
)
from tests.helpers import new_game, play

GAME = "shady_lady"


# ---------------------------------------------------------------------------- arranged deals
def dealt(*hands: tuple[int, int, int], **options: Any) -> State:
    """A game whose seats were dealt `hands`, seat by seat (ruling 15)."""
    state = new_game(GAME, players=len(hands), **options)
    return play(state, *[f"deal {card} to seat {seat}"
                         for seat, hand in enumerate(hands) for card in hand])


def texts(state: State) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def hand_values(page: Page, selector: str) -> list[str]:
    """The cards under `selector`, by name ("7"); a face-down card is "?"."""
    return page.eval_on_selector_all(
        f"#game-root {selector} .card", "els => els.map(el => el.dataset.card || '?')")


def test_draw_then_discard_by_clicking_the_pile_and_a_card(page: Page) -> None:
    table = EngineTable(page, dealt((2, 3, 7), (1, 4, 6), (8, 8, 9)), seat=0)
    assert "Draw pile: 71 cards" in page.locator("#game-root .sl-draw").inner_text()
    assert sorted(table.enabled_moves()) == sorted(texts(table.state))
    assert table.reason_shown("take from seat 1") == "seat 1's discard pile is empty"
    table.click("draw")
    play(table.state, "seat 0 draws 1")
    table.show()
    assert hand_values(page, ".sl-my-hand") == ["1", "2", "3", "7"]
    assert table.reason_shown("try") == (
        "you hold four cards: discard one of 1 2 3 7 to end your turn")
    table.click("discard 7")
    play(table.state, "draw", "seat 1 draws 9", "discard 9")
    table.show()
    # Seat 0's pile shows the 7 on top; seat 1 put its 9 on its own pile.
    assert hand_values(page, '.sl-my-pile') == ["7"]
    assert hand_values(page, '.sl-seat[data-seat="1"] .sl-pile') == ["9"]


def test_the_turn_limit_shows_only_where_it_may_matter(new_page: Callable[..., Page]) -> None:
    # Our turn limit is a safety net: the default 1,000 turns (or any long limit) would only
    # puzzle a player at turn 1; a short limit a table chose is part of the game.
    for options, wanted in [({}, "Turn 1"), ({"turn_limit": 150}, "Turn 1"),
                            ({"turn_limit": 15}, "Turn 1 of at most 15")]:
        page = new_page()
        EngineTable(page, dealt((2, 3, 7), (1, 4, 6), **options), seat=0)
        fact = page.locator("#game-root .sl-top .sl-fact").first.inner_text()
        assert fact.strip() == wanted, (options, fact)


def test_taking_a_top_card_and_what_the_others_then_know(
    new_page: Callable[..., Page], page: Page
) -> None:
    state = dealt((2, 3, 7), (1, 4, 6), (8, 8, 9))
    play(state, "draw", "seat 0 draws 6", "discard 6", "draw", "seat 1 draws 2", "discard 1",
         "draw", "seat 2 draws 4", "discard 4")
    # Every pile is visible in full: seat 0 holds 6, seat 1 holds 1, seat 2 holds 4.
    table = EngineTable(page, state, seat=0)
    assert sorted(table.enabled_moves()) == sorted(texts(state))
    table.click("take 4 from seat 2")
    table.show()
    assert hand_values(page, ".sl-my-hand") == ["2", "3", "4", "7"]
    assert hand_values(page, '.sl-seat[data-seat="2"] .sl-pile') == []
    assert page.locator('#game-root .sl-seat[data-seat="2"] .sl-empty').count() == 1
    # Seat 1 now sees the 4 face up in seat 0's hand, the rest face down.
    watcher = EngineTable(new_page(), state, seat=1)
    other = hand_values(watcher.page, '.sl-seat[data-seat="0"] .sl-other-hand')
    assert other == ["4", "?", "?", "?"]
    assert hand_values(watcher.page, '.sl-seat[data-seat="2"] .sl-other-hand') == [
        "?"] * 3


def test_the_whole_pile_is_shown_top_first_and_only_its_top_can_be_taken(page: Page) -> None:
    state = dealt((1, 6, 9), (2, 3, 7))
    play(state, "draw", "seat 0 draws 1", "discard 1",
         "draw", "seat 1 draws 8", "discard 8",
         "draw", "seat 0 draws 4", "discard 6",
         "draw", "seat 1 draws 1", "discard 1",
         "draw", "seat 0 draws 1", "discard 4")
    table = EngineTable(page, state, seat=1)
    pile = hand_values(page, '.sl-seat[data-seat="0"] .sl-pile')
    assert pile == ["4", "6", "1"]  # the top, then the cards under it from the newest down
    bound = page.eval_on_selector_all(
        '#game-root .sl-seat[data-seat="0"] .sl-pile [data-move]',
        "els => els.map(e => e.dataset.move)")
    assert bound == ["take 4 from seat 0"]
    table.click("take 4 from seat 0")
    assert state.observation(1)["hands"][1] == [2, 3, 4, 7]


def test_try_declines_and_reveals_name_the_rule(
    new_page: Callable[..., Page], page: Page
) -> None:
    # Seat 0 holds 6-7-8, seat 1 a triple of 2s, seat 2 nothing.
    state = dealt((6, 7, 8), (2, 2, 2), (1, 4, 9))
    declarer = EngineTable(page, state, seat=0)
    assert page.locator("#game-root .sl-combo-mine").inner_text() == "you hold 6-7-8 (run)"
    declarer.click("try")
    answer = EngineTable(new_page(), state, seat=1)
    panel = answer.page.locator("#game-root .sl-try").inner_text()
    assert "Seat 0 declared Try!" in panel and "6-7-8 (run)" in panel
    # The declarer's hand is face up for everyone.
    assert hand_values(answer.page, '.sl-seat[data-seat="0"] .sl-other-hand') == [
        "6", "7", "8"]
    answer.click("reveal")
    last = EngineTable(new_page(), state, seat=2)
    assert last.reason_shown("reveal") == (
        "you may reveal only a combination stronger than 2-2-2 (triple) (shown by seat 1); "
        "your 1 4 9 is no combination")
    last.click("decline")
    last.show()
    text = last.page.locator("#game-root .sl-last-call").inner_text()
    assert "Seat 1 scores" in text and "2-2-2 (triple)" in text
    # The revealers now discard their hands one card at a time: seat 0 first.
    declarer.show()
    status = page.locator("#game-root .sl-status").inner_text()
    assert "the revealed hand goes onto the pile" in status
    assert sorted(declarer.enabled_moves()) == ["discard 6", "discard 7", "discard 8"]


def test_try_without_a_combination_and_jack_on_a_player(page: Page) -> None:
    state = dealt((2, 3, 7), (4, 4, 4), (1, 6, 9))
    table = EngineTable(page, state, seat=0)
    assert table.reason_shown("try") == (
        "you may declare Try! only while holding a combination (a triple or a run); "
        "your 2 3 7 is none")
    jack = page.locator('#game-root .sl-seat[data-seat="1"] .sl-jack')
    assert jack.get_attribute("data-move") == "jack seat 1"
    table.click("jack seat 1")
    table.show()
    assert state.observation(0)["scores"] == [1, 0, 0]
    text = page.locator("#game-root .sl-last-call").inner_text()
    assert "You called Jack! on Seat 1" in text
    assert "You score: Seat 1 holds 4-4-4 (triple)" in text
    assert hand_values(page, '.sl-seat[data-seat="1"] .sl-other-hand') == ["4"] * 3


def keyed(page: Page, selector: str = "") -> list[dict[str, Any]]:
    """The keyed cards under `selector`: key, number, zone and data-from."""
    return page.eval_on_selector_all(
        f"#game-root {selector} [data-key]",
        """els => els.map(el => ({key: el.dataset.key, card: el.dataset.card,
            from: el.dataset.from || null, fresh: el.classList.contains('sl-fresh'),
            zone: el.closest('[data-zone]')?.dataset.zone ?? null}))""")


def pile_top_key(page: Page, seat: int) -> str:
    return page.locator(
        f'#game-root [data-zone="discard-{seat}"] .sl-pile-top').get_attribute("data-key") or ""


def test_a_face_up_card_keeps_its_key_from_pile_to_hand_to_pile(page: Page) -> None:
    """The motion contract: a card taken from a pile is the same keyed thing in the taker's
    hand, and the card discarded is the same keyed thing on top of the pile."""
    state = dealt((2, 3, 7), (1, 4, 6), (8, 8, 9))
    play(state, "draw", "seat 0 draws 6", "discard 6", "draw", "seat 1 draws 2", "discard 1",
         "draw", "seat 2 draws 4", "discard 4")
    table = EngineTable(page, state, seat=0)
    # Seat 2's 4 came out of a hand nobody saw: it comes from that hand's place.
    top = keyed(page, '[data-zone="discard-2"]')
    assert [(t["card"], t["from"]) for t in top] == [("4", "hand-2")]
    taken = pile_top_key(page, 2)
    mine = {t["key"] for t in keyed(page, ".sl-my-hand")}
    assert all(t["from"] == "deck" for t in keyed(page, ".sl-my-hand"))
    table.click("take 4 from seat 2")
    table.show()
    hand = keyed(page, ".sl-my-hand")
    assert [t["card"] for t in hand] == ["2", "3", "4", "7"]
    assert {t["key"] for t in hand} == mine | {taken}
    assert next(t for t in hand if t["card"] == "4")["key"] == taken
    assert all(t["zone"] == "hand-0" for t in hand)
    seven = next(t["key"] for t in hand if t["card"] == "7")
    table.click("discard 7")
    table.show()
    assert pile_top_key(page, 0) == seven
    # Seat 1 takes it: seat 0's 7 is now a known card of seat 1's hand, under the same key.
    play(state, "take 7 from seat 0", "discard 2")
    table.show()
    other = keyed(page, '.sl-seat[data-seat="1"] .sl-other-hand')
    assert [(t["card"], t["key"], t["zone"]) for t in other] == [("7", seven, "hand-1")]
    # Every key is used once, and the points are numbers the frame can watch rise.
    keys = [t["key"] for t in keyed(page)]
    assert len(keys) == len(set(keys))
    assert page.locator('#game-root [data-count-key="points:1"]').get_attribute("data-count") == "0"
    assert page.locator('#game-root [data-zone="deck"]').count() == 1
    assert page.get_attribute("#game-root", "data-sl-followed") == "exact"


def test_the_card_just_drawn_is_marked_and_discarding_is_asked_only_then(page: Page) -> None:
    state = dealt((2, 3, 7), (1, 4, 6), (8, 8, 9))
    table = EngineTable(page, state, seat=0)
    hint = page.locator("#game-root .sl-my-hand-block .sl-hint")
    assert hint.count() == 0  # a turn starts with drawing, taking or calling, not discarding
    assert page.locator("#game-root .sl-fresh").count() == 0
    table.click("draw")
    play(state, "seat 0 draws 3")
    table.show()
    assert hint.inner_text() == "click a card to discard it"
    fresh = [t for t in keyed(page, ".sl-my-hand") if t["fresh"]]
    assert [(t["card"], t["from"]) for t in fresh] == [("3", "deck")]
    # Of the two 3s in hand, the one drawn is marked.
    assert [t["card"] for t in keyed(page, ".sl-my-hand")] == ["2", "3", "3", "7"]
    assert page.locator("#game-root .sl-fresh .sl-fresh-tag").inner_text().lower() == "new"
    table.click("discard 7")
    play(state, "draw", "seat 1 draws 9", "discard 9")
    table.show()
    assert page.locator("#game-root .sl-fresh").count() == 0
    assert hint.count() == 0
    # Seat 2's turn: seat 0 waits, nothing to discard.
    play(state, "draw", "seat 2 draws 1", "discard 1")
    table.show()
    table.click("take 9 from seat 1")
    table.show()
    assert [t["card"] for t in keyed(page, ".sl-my-hand") if t["fresh"]] == ["9"]
    assert hint.inner_text() == "click a card to discard it"
    assert page.locator("#game-root .sl-my-hand-block.sl-discarding").count() == 1


def test_a_pile_top_stays_in_its_place_as_the_pile_grows(page: Page) -> None:
    state = dealt((1, 6, 9), (2, 3, 7))
    table = EngineTable(page, state, seat=1)
    spot = page.locator('#game-root [data-zone="discard-0"] .sl-pile-top-spot')
    first = spot.bounding_box()
    turns = [("1", "1"), ("4", "6"), ("8", "4"), ("2", "8")]
    for drawn, discarded in turns:
        play(state, "draw", f"seat 0 draws {drawn}", f"discard {discarded}",
             "draw", "seat 1 draws 1", "discard 1")
        table.show()
        box = spot.bounding_box()
        assert box is not None and first is not None
        assert (round(box["x"]), round(box["y"])) == (round(first["x"]), round(first["y"]))
        assert spot.locator(".card").get_attribute("data-card") == discarded
    # The cards under the top are fanned beside it, newest first, each number in view.
    assert hand_values(page, '[data-zone="discard-0"] .sl-pile-fan') == ["4", "6", "1"]
    fan = page.eval_on_selector_all(
        '#game-root [data-zone="discard-0"] .sl-pile-fan .card',
        "els => els.map(el => el.getBoundingClientRect().right)")
    assert all(b - a >= 12 for a, b in pairwise(fan))


def steered(state: State, rng: random.Random) -> int:
    """A random step that mostly draws (so that the draw pile runs out soon), sometimes takes a
    pile's top, and now and then calls Try! or Jack!."""
    if state.current_player() == CHANCE:
        return random_step(state, rng)
    actions = state.legal_actions()
    named = {state.action_to_string(a): a for a in actions}
    roll = rng.random()
    if "draw" in named and roll < 0.7:
        return named["draw"]
    takes = [a for text, a in named.items() if text.startswith("take")]
    if takes and roll < 0.96:
        return rng.choice(takes)
    quiet = [a for text, a in named.items() if text.startswith(("discard", "decline"))]
    if quiet and roll < 0.99:
        return rng.choice(quiet)
    return rng.choice(actions)


def test_the_log_accounts_for_every_face_up_card(page: Page) -> None:
    """Over long random games (with rebuilt draw piles, Try! and Jack!), each seat's and a
    spectator's view follows every face-up card from its log: the observation's piles and known
    cards are matched, no key is used twice, and a taken card keeps its pile key."""
    EngineTable(page, dealt((1, 2, 3), (4, 6, 7)), seat=0)
    rng = random.Random(31)
    checked = 0
    rebuilt = 0
    takes = 0
    calls = 0
    for players, limit in ((2, 130), (3, 60), (5, 40)):
        state = new_game(GAME, players=players, turn_limit=limit)
        viewers: list[int | None] = [None, *range(players)]
        views: list[tuple[int | None, dict[str, Any]]] = []
        # For each take: the views just before and just after it, and who took from whom.
        pairs: list[tuple[int, int, int, int]] = []
        step = 0
        while not state.is_terminal():
            action = steered(state, rng)
            mover = state.current_player()
            text = state.action_to_string(action) if mover != CHANCE else ""
            # Views carry the whole log: a sample of positions, and the first takes.
            take = text.startswith("take") and len(pairs) < 20 * len(viewers)
            if take or step % 15 == 0:
                before = len(views)
                views.extend((viewer, state.observation(viewer)) for viewer in viewers)
            state.apply_action(action)
            if take:
                after = len(views)
                views.extend((viewer, state.observation(viewer)) for viewer in viewers)
                owner = int(text.rsplit(" ", 1)[1])
                for k in range(len(viewers)):
                    pairs.append((before + k, after + k, owner, mover))
            step += 1
        views.extend((viewer, state.observation(viewer)) for viewer in viewers)
        rebuilt += state.observation(0)["reshuffles"]
        calls += len(state.observation(0)["results"])
        results = page.evaluate("""async (views) => {
            const m = await import('/static/games/shady_lady.js');
            return views.map(([viewer, obs]) => {
                const t = m.followCards(obs, viewer);
                const keys = [...t.piles.flat(), ...t.hands.flat()].map((c) => c.key);
                return {exact: t.exact, unique: new Set(keys).size === keys.length,
                        piles: t.piles.map((p) => p.map((c) => c.key)),
                        hands: t.hands.map((p) => p.map((c) => c.key))};
            });
        }""", views)
        for (viewer, obs), result in zip(views, results, strict=True):
            assert result["exact"], (players, viewer, obs["log"][-3:])
            assert result["unique"], (players, viewer, obs["log"][-3:])
        for before, after, owner, taker in pairs:
            top = results[before]["piles"][owner][-1]
            assert top in results[after]["hands"][taker], views[after][1]["log"][-2:]
        checked += len(views)
        takes += len(pairs)
    assert checked > 200 and takes > 100
    assert rebuilt >= 1, "no game rebuilt its draw pile"
    assert calls >= 2, "too few Try! or Jack! calls"


def test_the_enabled_controls_are_the_legal_moves_at_random_positions(page: Page) -> None:
    """At positions of random games (turns, discards, Try! answers), the enabled controls on
    the board are exactly the legal moves of seat 0, and none while another seat moves."""
    rng = random.Random(17)
    table = None
    phases = set()
    for players in (2, 3, 4, 6):
        state = new_game(GAME, players=players, turn_limit=60)
        checked = 0
        while not state.is_terminal() and checked < 10:
            for _ in range(rng.randrange(1, 6)):
                if state.is_terminal():
                    break
                state.apply_action(steered(state, rng) if rng.random() < 0.7
                                   else random_step(state, rng))
            while state.current_player() == CHANCE:
                state.apply_action(random_step(state, rng))
            if state.is_terminal():
                break
            if table is None:
                table = EngineTable(page, state, seat=0)
            table.state = state
            table.show()
            legal = texts(state) if state.current_player() == 0 else set()
            # A hand may hold two cards of one number: both are "discard 7".
            assert set(table.enabled_moves()) == legal
            phases.add(state.observation(0)["phase"])
            checked += 1
    assert {"turn", "discard"} <= phases


def test_a_whole_game_through_the_page(page: Page) -> None:
    """Seat 0 plays a whole game by clicking enabled controls at random."""
    rng = random.Random(9)
    state = new_game(GAME, players=4, turn_limit=200)
    table = EngineTable(page, state, seat=0)
    table.others_move(rng)
    table.show()
    moves = 0
    while not state.is_terminal():
        enabled = table.enabled_moves()
        assert set(enabled) == texts(state)
        table.click(rng.choice(enabled))
        moves += 1
        table.others_move(rng)
        table.show()
    assert moves > 3
    assert page.locator("#game-root .sl-banner").count() == 1
    assert page.locator("#game-root [data-move]").count() == 0
    # At the end every hand is face up.
    assert hand_values(page, "").count("?") == 1  # the draw pile
    table.screenshot("end", "desktop")


def test_screenshots_at_both_sizes(
    new_page: Callable[..., Page], page: Page
) -> None:
    """A Try! being answered at a five-player table with piles of every length; a card just
    drawn at a four-player table."""
    rng = random.Random(12)
    state = new_game(GAME, players=5)
    while True:
        obs = state.observation(0)
        if (obs["try"] is not None and state.current_player() == 0
                and sum(len(p) for p in obs["piles"]) >= 12 and obs["results"]):
            break
        if state.is_terminal():
            state = new_game(GAME, players=5)
        state.apply_action(random_step(state, rng))
    table = EngineTable(page, state, seat=0)
    shots = []
    for size in SIZES:
        resize(page, size)
        table.show()
        shots.append(table.screenshot("try", size))
        overflow = no_sideways_scroll(page)
        assert overflow <= 0, f"{size}: the page scrolls sideways by {overflow}px"
    # Mid-game at a four-player table: seat 0 has just drawn and is to discard.
    rng = random.Random(13)
    mid = new_game(GAME, players=4, turn_limit=300)
    while True:
        obs = mid.observation(0)
        if (obs["phase"] == "discard" and mid.current_player() == 0 and obs["turn"] > 12
                and obs["log"][-1].startswith("You draw")
                and any(any(v is not None for v in hand) for hand in obs["hands"][1:])):
            break
        if mid.is_terminal():
            mid = new_game(GAME, players=4, turn_limit=300)
        mid.apply_action(steered(mid, rng))
    turn = EngineTable(new_page(), mid, seat=0)
    for size in SIZES:
        resize(turn.page, size)
        turn.show()
        assert turn.page.locator("#game-root .sl-fresh").count() == 1
        shots.append(turn.screenshot("discard", size))
        assert no_sideways_scroll(turn.page) <= 0
    spectator = EngineTable(new_page(), state, seat=None)
    assert spectator.page.locator("#game-root .sl-mine").count() == 0
    assert spectator.page.locator("#game-root [data-move]").count() == 0
    shots.append(spectator.screenshot("spectator", "desktop"))
    assert all(path.stat().st_size > 10_000 for path in shots)


# ---------------------------------------------------------------------------- the real page
def shown_hands(page: Page) -> dict[int, list[str]]:
    """Every hand as the page draws it: seat -> card names, "?" for a face-down card."""
    return page.evaluate("""() => {
        const hands = {};
        for (const panel of document.querySelectorAll('#game-root .sl-seat')) {
            hands[panel.dataset.seat] = [...panel.querySelectorAll('.sl-other-hand .card')]
                .map((el) => el.dataset.card || '?');
        }
        const mine = document.querySelector('#game-root .sl-mine');
        if (mine) hands.mine = [...mine.querySelectorAll('.sl-my-hand .card')]
            .map((el) => el.dataset.card || '?');
        return hands;
    }""")


def test_two_players_each_see_only_their_own_hidden_cards(
    server: str, new_page: Callable[..., Page]
) -> None:
    """Two browsers hold the two seats of one table and play it through the page to the end;
    after every move each page draws exactly its own seat's observation: its own hand face
    up, the other hand face down but for the cards that seat has seen (taken or shown)."""
    made = create_table(server, GAME, {"players": 2, "turn_limit": 15},
                        [{"kind": "human"}, {"kind": "human"}])
    table = made["table"]["id"]
    pages = [new_page(), new_page(390, 844)]
    for seat, page in enumerate(pages):
        page.goto(made["links"]["invites"][str(seat)])
    for page in pages:
        page.wait_for_function("() => ['you', 'other'].includes(document.body?.dataset.turn)")
    rng = random.Random(5)
    moves = 0
    while True:
        current = version_of(server, table)
        for seat, page in enumerate(pages):
            page.wait_for_function("v => document.body?.dataset.version === String(v)"
                                   " && document.body?.dataset.pending !== '1'", arg=current)
            seen = http(server, "GET", f"/api/tables/{table}/view",
                        token=made["tokens"][str(seat)])
            assert seen["version"] == current
            observation = seen["observation"]
            if observation["terminal"]:
                continue  # the end summary replaces the table; every hand is shown there
            hands = shown_hands(page)
            other = 1 - seat
            assert hands["mine"] == [str(card) for card in observation["hands"][seat]]
            assert hands[str(other)] == [
                "?" if card is None else str(card) for card in observation["hands"][other]]
            if moves == 0:
                assert hands[str(other)] == ["?", "?", "?"]  # nothing of it is known yet
        if turn(pages[0]) == "over":
            break
        mover = next(page for page in pages if turn(page) == "you")
        choices = enabled_moves(mover)
        mover.locator(f'#game-root [data-move="{rng.choice(choices)}"]').first.click()
        mover.wait_for_function("v => document.body?.dataset.version !== String(v)", arg=current)
        moves += 1
        if moves == 6:
            for seat, page in enumerate(pages):
                screenshots_at_both_sizes(page, f"view-shady_lady-real-seat{seat}")
    for page in pages:
        page.locator(".end-summary").wait_for()
    assert moves >= 3


def version_of(server: str, table: str) -> int:
    return int(http(server, "GET", f"/api/tables/{table}")["table"]["version"])
