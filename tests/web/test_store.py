"""The stores themselves, SQLite and PostgreSQL: the database, not the process, settles a race
for a place in a table's history; an ended table takes no move; a store's schema is brought
up to date on start and a newer one is refused."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from ladytiger.web import store as db
from ladytiger.web.config import Settings
from ladytiger.web.hub import Hub
from ladytiger.web.security import hash_token
from ladytiger.web.specs import parse_create_request
from ladytiger.web.store import WriteConflict
from ladytiger.web.stores import describe, open_store
from tests.web.postgres import STORES, database
from tests.web.support import quick_settings, run


async def two_stores(path: str) -> tuple[Any, Any]:
    """Two started stores on one database: two server processes, as far as it knows."""
    first, second = (open_store(Settings(db_path=path, synchronous="NORMAL")) for _ in range(2))
    await first.start()
    await second.start()
    return first, second


def spec_json() -> dict[str, Any]:
    return parse_create_request({"game": "doors"}).to_json()


@pytest.mark.parametrize("store", STORES)
def test_a_games_rating_changes_are_kept_with_its_result(tmp_path, store):
    path = database(store, tmp_path)

    async def scenario() -> None:
        kept = open_store(Settings(db_path=path, synchronous="NORMAL"))
        await kept.start()
        spec = spec_json()
        await kept.call(db.insert_table, spec, [None, None])
        result = {"returns": [1.0, 0.0], "scores": [3, 1]}
        await kept.call(db.append_actions, spec["id"], 0, [(0, -1)], "finished", result)
        changes = [{"seat": 0, "player": "p_a", "before": 1000.0, "after": 1137.5, "games": 1},
                   {"seat": 1, "player": "p_b", "before": 1000.0, "after": 926.7, "games": 1}]
        await kept.call(db.save_ratings, "doors", [("p_a", 30.0, 7.0, 1137.5, 1, True),
                                                   ("p_b", 20.0, 7.0, 926.7, 1, False)],
                        spec["id"], changes)
        stored = await kept.call(db.load_table, spec["id"])
        assert stored is not None and stored.ratings == changes
        ratings = await kept.call(db.ratings_of, "doors", ["p_a", "p_b"])
        assert tuple(ratings["p_a"]) == (30.0, 7.0, 1)
        # Each game adds to the games tallied, a won one to the wins too.
        await kept.call(db.save_ratings, "doors", [("p_a", 29.0, 6.5, 1100.0, 2, False),
                                                   ("p_b", 21.0, 6.5, 950.0, 2, True)])
        mine = await kept.call(db.player_ratings, "p_a")
        assert [(r["games"], r["wins"], r["tallied"]) for r in mine] == [(2, 1, 2)]
        theirs = await kept.call(db.player_ratings, "p_b")
        assert [(r["games"], r["wins"], r["tallied"]) for r in theirs] == [(2, 1, 2)]
        await kept.close()

    run(scenario())


@pytest.mark.parametrize("store", STORES)
def test_two_writers_of_one_history_index_one_wins_and_the_other_is_refused(tmp_path, store):
    path = database(store, tmp_path)

    async def scenario() -> None:
        # Two stores on one database: two server processes, as far as the database knows.
        first, second = await two_stores(path)
        spec = spec_json()
        await first.call(db.insert_table, spec, ["a", "b"])
        for seat, digest in enumerate("ab"):  # a game starts once every human seat has joined
            assert await first.call(db.mark_joined, spec["id"], seat, digest)
        await first.call(db.append_actions, spec["id"], 0, [(0, -1)], "playing")
        outcomes = await asyncio.gather(
            first.call(db.append_actions, spec["id"], 1, [(3, 0)]),
            second.call(db.append_actions, spec["id"], 1, [(4, 0)]),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "WriteConflict"]
        stored = await second.call(db.load_table, spec["id"])
        assert stored is not None and len(stored.actions) == 2
        winner = 3 if outcomes[0] is None else 4
        assert stored.actions[1] == (winner, 0)
        # Ended: no move is taken, whichever index it claims.
        assert await second.call(db.abandon_table, spec["id"], "deserted") is True
        # Closing it again (a resignation racing the sweep) is told it had ended already.
        assert await first.call(db.abandon_table, spec["id"], "resigned:0") is False
        with pytest.raises(WriteConflict):
            await first.call(db.append_actions, spec["id"], 2, [(1, 1)])
        await first.close()
        await second.close()

    run(scenario())


@pytest.mark.parametrize("store", STORES)
def test_a_table_caught_up_from_the_database_shows_the_other_writers_moves(tmp_path, store):
    """What a process does on another's notice, here on either store: read the changes
    since its copy's history and apply them as if it had played them."""
    path = database(store, tmp_path)

    async def scenario() -> None:
        hub = Hub(quick_settings(path), rng=random.Random(4))
        await hub.open()
        table, _ = await hub.create(parse_create_request(
            {"game": "doors", "options": {"gems_to_win": 50}}))
        await table.join(0, table.token_hashes[0])
        await table.join(1, table.token_hashes[1])
        other = open_store(quick_settings(path))
        await other.start()
        seen: list[str] = []

        class Watcher:
            seat = None

            def send(self, text: str) -> None:
                seen.append(text)

        table.attach(Watcher())
        version = table.version
        seat = table.state.current_player()
        action = table.state.legal_actions()[0]
        after = table.state.clone()
        after.apply_action(action)
        # The other writer plays the move; this table does not know yet.
        start = len(table.state.history())
        await other.call(db.append_actions, table.id, start, [(action, seat)])
        # Playing on the stale copy is refused by the database, and the copy catches up.
        with pytest.raises(Exception) as refused:
            await table.play(seat, version, table.state.legal_actions()[-1])
        assert getattr(refused.value, "code", None) == "stale_version"
        assert table.version == version + 1
        assert table.state.history() == after.history()
        assert any(f'"version":{version + 1}' in text for text in seen)
        await other.close()
        await hub.close()

    run(scenario())


def test_postgres_migrations_run_once_and_a_newer_schema_is_refused(tmp_path):
    from ladytiger.web import store_postgres

    url = database("postgresql", tmp_path)

    async def scenario() -> None:
        import asyncpg

        stores = [open_store(Settings(db_path=url)) for _ in range(3)]
        # Processes starting together: the advisory lock lets one migrate.
        await asyncio.gather(*(s.start() for s in stores))
        connection = await asyncpg.connect(url)
        versions = await connection.fetch("SELECT version FROM ladytiger_schema")
        assert [row["version"] for row in versions] == list(store_postgres.MIGRATIONS)
        for s in stores:
            await s.close()
        await connection.execute("INSERT INTO ladytiger_schema VALUES ($1)",
                                 store_postgres.SCHEMA_VERSION + 1)
        await connection.close()
        newer = open_store(Settings(db_path=url))
        with pytest.raises(RuntimeError, match="run a newer server"):
            await newer.start()
        await newer.close()

    run(scenario())


def test_a_database_url_is_logged_without_its_password():
    assert describe("postgresql://game:s3cret@db.example:5432/site") == (
        "postgresql://game:***@db.example:5432/site")
    assert describe("postgresql://game@db/site") == "postgresql://game@db/site"
    assert describe("tables.sqlite3") == "tables.sqlite3"


def test_postgres_writes_concurrent_moves_in_group_commits_and_refuses_each_bad_one_alone(
    tmp_path,
):
    """Moves made while a commit is under way go together into the next one; a move refused
    there (its place taken, its table ended) is refused alone, the others are written, and a
    table's moves keep their order."""
    url = database("postgresql", tmp_path)

    async def scenario() -> None:
        store = open_store(Settings(db_path=url))
        await store.start()
        specs = [spec_json() for _ in range(12)]
        for spec in specs:
            await store.call(db.insert_table, spec, ["a", "b"])
            for seat, digest in enumerate("ab"):
                assert await store.call(db.mark_joined, spec["id"], seat, digest)
            await store.call(db.append_actions, spec["id"], 0, [(0, -1)], "playing")
        ended = specs[-1]["id"]
        await store.call(db.abandon_table, ended, "deserted")
        commits = store.commits
        outcomes = await asyncio.gather(
            *(store.call(db.append_actions, spec["id"], 1, [(3, 0), (5, -1)])
              for spec in specs[:-1]),
            # Two moves of one table in the same batch, in order; then one at a taken place.
            store.call(db.append_actions, specs[0]["id"], 3, [(1, 1)]),
            store.call(db.append_actions, specs[1]["id"], 1, [(4, 0)]),
            store.call(db.append_actions, ended, 1, [(3, 0)]),
            return_exceptions=True,
        )
        assert outcomes[:12] == [None] * 12
        assert isinstance(outcomes[12], WriteConflict) and "index 1 is taken" in str(outcomes[12])
        assert isinstance(outcomes[13], WriteConflict) and "ended" in str(outcomes[13])
        assert store.commits - commits < len(outcomes), "every move had a commit of its own"
        first = await store.call(db.load_table, specs[0]["id"])
        assert first is not None and first.actions == [(0, -1), (3, 0), (5, -1), (1, 1)]
        second = await store.call(db.load_table, specs[1]["id"])
        assert second is not None and second.actions == [(0, -1), (3, 0), (5, -1)]
        gone = await store.call(db.load_table, ended)
        assert gone is not None and gone.actions == [(0, -1)]
        await store.close()

    run(scenario())


@pytest.mark.parametrize("store", STORES)
def test_a_seat_given_back_before_the_start_stops_a_start_queued_behind_it(tmp_path, store):
    path = database(store, tmp_path)

    async def scenario() -> None:
        first, second = await two_stores(path)
        spec = parse_create_request({"game": "doors", "seats": [
            {"kind": "human"}, {"kind": "human", "open": True}]}).to_json()
        await first.call(db.insert_table, spec, ["maker", None])
        assert await first.call(db.claim_seat, spec["id"], 1, "guest") is True
        assert await first.call(db.mark_joined, spec["id"], 1, "guest")
        # Another token cannot give it back; its own can.
        assert await second.call(db.leave_seat, spec["id"], 1, "other") is False
        assert await second.call(db.leave_seat, spec["id"], 1, "guest") is True
        # The maker arrives, believing seat 1 joined: the start is refused, and its arrival
        # is not half-written (seat 0 stays unjoined until it is recorded on its own).
        with pytest.raises(WriteConflict):
            await first.call(db.append_actions, spec["id"], 0, [(0, -1)], "playing", None,
                             (0, "maker"))
        stored = await first.call(db.load_table, spec["id"])
        assert stored is not None and stored.status == "waiting" and stored.actions == []
        assert stored.token_hashes == ["maker", None] and stored.joined == [False, False]
        # With the seat taken and joined again, the same start goes through; a seat of a
        # table in play is not given back.
        assert await first.call(db.claim_seat, spec["id"], 1, "next") is True
        assert await first.call(db.mark_joined, spec["id"], 1, "next")
        await first.call(db.append_actions, spec["id"], 0, [(0, -1)], "playing", None,
                         (0, "maker"))
        assert await second.call(db.leave_seat, spec["id"], 1, "next") is False
        await first.close()
        await second.close()

    run(scenario())


@pytest.mark.parametrize("store", STORES)
def test_a_start_with_bots_and_a_start_of_the_old_table_never_both_happen(tmp_path, store):
    path = database(store, tmp_path)

    async def scenario() -> None:
        first, second = await two_stores(path)
        seats = [{"kind": "human"}, {"kind": "human"}]
        spec = parse_create_request({"game": "doors", "seats": seats}).to_json()
        await first.call(db.insert_table, spec, ["maker", "friend"])
        assert await first.call(db.mark_joined, spec["id"], 0, "maker")
        filled = parse_create_request({"game": "doors", "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": "casual"}]}).to_json()
        later = {**filled, "id": filled["id"] + "b", "rematch_of": spec["id"]}
        filled["rematch_of"] = spec["id"]
        # The friend arrives in another process first: the start with bots changes nothing.
        assert await second.call(db.mark_joined, spec["id"], 1, "friend")
        assert await first.call(db.restart_table, spec["id"], [1], "restarted:0", filled,
                                ["maker", None]) is False
        assert await first.call(db.load_table, filled["id"]) is None
        old = await first.call(db.load_table, spec["id"])
        assert old is not None and old.status == "waiting" and old.rematch is None
        # Had the friend not come (their arrival undone, as a seat given back would), the
        # old table ends and points to the new one, in the same transaction.
        other = parse_create_request({"game": "doors", "seats": seats}).to_json()
        await first.call(db.insert_table, other, ["maker", "friend"])
        later = {**later, "rematch_of": other["id"]}
        assert await second.call(db.restart_table, other["id"], [1], "restarted:0", later,
                                 ["maker", None]) is True
        old = await first.call(db.load_table, other["id"])
        new = await first.call(db.load_table, later["id"])
        assert old is not None and old.status == "abandoned" and old.rematch == later["id"]
        assert new is not None and new.status == "waiting"
        assert new.token_hashes == ["maker", None]
        # The old table cannot start now, and cannot be restarted twice.
        with pytest.raises(WriteConflict):
            await first.call(db.append_actions, other["id"], 0, [(0, -1)], "playing", None,
                             (1, "friend"))
        assert await first.call(db.restart_table, other["id"], [1], "restarted:0",
                                {**later, "id": later["id"] + "c"}, ["maker", None]) is False
        await first.close()
        await second.close()

    run(scenario())


@pytest.mark.parametrize("store", STORES)
def test_an_arrival_counts_only_while_its_token_still_holds_the_seat(tmp_path, store):
    path = database(store, tmp_path)

    async def scenario() -> None:
        first, second = await two_stores(path)
        spec = parse_create_request({"game": "doors", "seats": [
            {"kind": "human"}, {"kind": "human", "open": True}]}).to_json()
        await first.call(db.insert_table, spec, ["maker", None])
        assert await first.call(db.claim_seat, spec["id"], 1, "guest") is True
        # The guest gives the seat back in one process while their arrival is on its way
        # in the other: the arrival is not recorded on an empty seat.
        assert await second.call(db.leave_seat, spec["id"], 1, "guest") is True
        assert await first.call(db.mark_joined, spec["id"], 1, "guest") is False
        stored = await first.call(db.load_table, spec["id"])
        assert stored is not None and stored.token_hashes == ["maker", None]
        assert stored.joined == [False, False]
        # Taken again by someone else: the old token's arrival still does not count, nor
        # does a start that comes with it; the new holder's does.
        assert await second.call(db.claim_seat, spec["id"], 1, "next") is True
        assert await first.call(db.mark_joined, spec["id"], 1, "guest") is False
        assert await first.call(db.mark_joined, spec["id"], 0, "maker") is True
        with pytest.raises(WriteConflict):
            await first.call(db.append_actions, spec["id"], 0, [(0, -1)], "playing", None,
                             (1, "guest"))
        stored = await first.call(db.load_table, spec["id"])
        assert stored is not None and stored.joined == [True, False] and stored.actions == []
        await first.call(db.append_actions, spec["id"], 0, [(0, -1)], "playing", None,
                         (1, "next"))
        stored = await first.call(db.load_table, spec["id"])
        assert stored is not None and stored.status == "playing"
        assert stored.joined == [True, True]
        await first.close()
        await second.close()

    run(scenario())


@pytest.mark.parametrize("store", STORES)
def test_a_connection_arriving_at_a_seat_given_back_elsewhere_only_watches(tmp_path, store):
    """The race a second process makes possible: a seat's token is let in here just as the
    seat is given back there. The arrival is refused by the database; the table catches up
    and the connection that came with the old token is told it holds no seat."""
    path = database(store, tmp_path)

    async def scenario() -> None:
        hub = Hub(quick_settings(path), rng=random.Random(4))
        await hub.open()
        table, _ = await hub.create(parse_create_request({"game": "doors", "seats": [
            {"kind": "human"}, {"kind": "human", "open": True}]}))
        seat, token = await table.claim(1)
        digest = hash_token(token)
        assert table.token_hashes[seat] == digest
        other = open_store(quick_settings(path))
        await other.start()

        class Arriving:
            def __init__(self) -> None:
                self.seat: int | None = seat
                self.sent: list[str] = []
                self.unseated = False

            def send(self, text: str) -> None:
                self.sent.append(text)

            def unseat(self) -> None:
                self.seat, self.unseated = None, True

        arriving = Arriving()
        table.attach(arriving)
        # Given back by another process; this copy has not heard of it yet.
        assert await other.call(db.leave_seat, table.id, seat, digest) is True
        await table.join(seat, digest, arriving)
        assert arriving.unseated and arriving.seat is None
        assert table.listeners.get(None) == {arriving} and seat not in table.listeners
        assert table.token_hashes[seat] is None and table.joined[seat] is False
        stored = await other.call(db.load_table, table.id)
        assert stored is not None and stored.joined == [False, False]
        # The maker's arrival does not start a game with an empty seat.
        await table.join(0, table.token_hashes[0])
        assert table.status == "waiting" and table.free_seats() == [seat]
        await other.close()
        await hub.close()

    run(scenario())
