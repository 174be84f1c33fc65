"""A plain move travels in its PostgreSQL notice: the other processes holding a copy of the
table apply it without reading the database; a copy that is not where the move starts reads
it back, as before (ladytiger.web.store_postgres.move_detail)."""

from __future__ import annotations

import asyncio
import random

from ladytiger.web.hub import Hub
from ladytiger.web.specs import parse_create_request
from ladytiger.web.store_postgres import MOVE_DETAIL_MOST, move_detail, read_move_detail
from tests.web.postgres import database
from tests.web.support import quick_settings, run


def test_a_move_detail_reads_back_and_a_long_or_garbled_one_is_refused():
    steps = [(3, 0), (17, -1), (0, -1)]
    text = move_detail(12, steps, 1733323323.25)
    assert read_move_detail(text) == (12, 1733323323.25, steps)
    assert move_detail(0, [(1, -1)] * MOVE_DETAIL_MOST, 1.0) == ""
    for garbled in ("", "12", "12 1.0", "12 1.0 3:0,x:1", "a 1.0 3:0", "1 2 3:0 extra"):
        assert read_move_detail(garbled) is None


def test_the_other_process_applies_moves_from_their_notices_without_reading(tmp_path):
    url = database("postgresql", tmp_path)

    async def scenario() -> None:
        owner = Hub(quick_settings(tmp_path / "unused", db_path=url, process_id="owner"),
                    rng=random.Random(1))
        other = Hub(quick_settings(tmp_path / "unused", db_path=url, process_id="other"),
                    rng=random.Random(2))
        await owner.open()
        await other.open()
        try:
            spec = parse_create_request({"game": "traps", "options": {"players": 2},
                                         "seats": [{"kind": "bot"}, {"kind": "bot"}],
                                         "bot_pause": 0.01})
            table, _ = await owner.create(spec)
            copy = await other.require(table.id)
            assert not copy.owner
            # Let the game start and a first move arrive, then count the copy's reads.
            for _ in range(500):
                if table.status == "playing" and len(copy.state.history()) > 40:
                    break
                await asyncio.sleep(0.01)
            reads_before = other.store.statements
            moves_before = len(copy.state.history())
            for _ in range(1000):
                if table.status != "playing":
                    break
                await asyncio.sleep(0.01)
            for _ in range(300):  # the last notices are on their way
                if copy.state.history() == table.state.history():
                    break
                await asyncio.sleep(0.01)
            assert copy.state.history() == table.state.history()
            moves = sum(1 for actor in copy.state.actors()[moves_before:] if actor >= 0)
            reads = other.store.statements - reads_before
            assert moves >= 10, "too short a game to tell"
            # Before moves travelled in notices, every move cost the copy a read of the
            # table (several statements); now only the game's end (and the rare move that
            # arrives while the copy is busy) is read back.
            assert reads <= 8, (reads, moves)
        finally:
            await other.close()
            await owner.close()

    run(scenario())
