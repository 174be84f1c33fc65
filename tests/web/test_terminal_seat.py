"""`ladytiger join`: a person plays a seat of a server's table from the keyboard, at the same
table as friends in their browsers (ladytiger.cli.remote_seat)."""

from __future__ import annotations

import asyncio
import io

import httpx
from rich.console import Console
from typer.testing import CliRunner

from ladytiger.cli.main import app
from ladytiger.cli.remote_seat import play_in_terminal
from tests.web.support import run

runner = CliRunner()


def make_table(base: str, seats: list[dict], game: str = "doors", **options: int) -> dict:
    reply = httpx.post(f"{base}/api/tables", json={
        "game": game, "options": options or {"gems_to_win": 2}, "seats": seats,
        "bot_pause": 0.01})
    assert reply.status_code == 201, reply.text
    return reply.json()


class Keyboard:
    """Lines typed when a prompt asks, in order; after the script, the first move."""

    def __init__(self, script: list[str]) -> None:
        self.script = list(script)
        self.prompts: list[str] = []

    async def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        await asyncio.sleep(0)
        return self.script.pop(0) if self.script else "1"


def terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=100, highlight=False, color_system=None), out


def test_a_person_plays_a_whole_game_from_the_keyboard_and_is_told_what_went_wrong(live):
    made = make_table(live.base, [{"kind": "human"}, {"kind": "bot", "bot": "casual"}])
    console, out = terminal()
    # Help, a number out of range, and a text that names no move, before a real move.
    keys = Keyboard(["help", "99", "take the Purple Tiger", "  ", "1"])
    end = run(asyncio.wait_for(play_in_terminal(
        live.base, made["table"]["id"], made["tokens"]["0"], keys, console), 60))
    text = out.getvalue()
    assert end is not None and end["type"] == "end"
    info = httpx.get(f"{live.base}/api/tables/{made['table']['id']}").json()["table"]
    assert info["status"] == "finished"
    assert "You are seat 0 at Doors" in text
    assert "Type a move's number or its text" in text  # the help
    assert "Choose a number from 1 to" in text
    assert "'take the Purple Tiger' is not a move of Doors here" in text
    # The board is drawn, the moves listed, and the others named as the table names them.
    assert "Doors, contest 1" in text and "   1 take " in text
    assert "Casual bot to play…" in text and "· Seat 1 " not in text
    assert f"Casual bot: {end['scores'][1]}" in text
    # One prompt for each position, and one more after each of the four lines that played
    # nothing: never a second prompt while a move is on its way.
    assert len(keys.prompts) == text.count("   1 ") + 4


def test_a_person_resigns_from_the_keyboard(live):
    made = make_table(live.base, [{"kind": "human"}, {"kind": "bot", "bot": "casual"}])
    console, out = terminal()
    keys = Keyboard(["resign", "no", "resign", "yes"])
    end = run(asyncio.wait_for(play_in_terminal(
        live.base, made["table"]["id"], made["tokens"]["0"], keys, console), 60))
    assert end is None
    assert "Give this game up?" in keys.prompts[1]
    assert "Seat 0 resigned: Casual bot wins." in out.getvalue()
    info = httpx.get(f"{live.base}/api/tables/{made['table']['id']}").json()["table"]
    assert info["abandoned"]["resigned"] == 0


def test_join_takes_an_open_seat_from_a_tables_link_and_plays_it(live):
    made = make_table(live.base, [{"kind": "human", "open": True},
                                  {"kind": "bot", "bot": "random"}])
    result = runner.invoke(app, ["join", made["links"]["spectate"]], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    output = result.output.replace("\n", " ")
    assert "You took seat 0. To come back to it, keep this link:" in output
    assert "#seat=" in output
    info = httpx.get(f"{live.base}/api/tables/{made['table']['id']}").json()["table"]
    assert info["status"] == "finished"


def test_join_explains_what_it_needs_and_leaves_a_seat_kept_on_end_of_input(live):
    result = runner.invoke(app, ["join", live.base])
    assert result.exit_code == 2 and "which table?" in result.output
    result = runner.invoke(app, ["join", f"{live.base}/play/nosuch#seat=t"])
    assert result.exit_code == 1 and "there is no table 'nosuch'" in result.output
    full = make_table(live.base, [{"kind": "human"}, {"kind": "bot"}])
    result = runner.invoke(app, ["join", full["links"]["spectate"]])
    assert result.exit_code == 1 and "no free seat" in result.output
    made = make_table(live.base, [{"kind": "human"}, {"kind": "bot", "bot": "casual"}])
    result = runner.invoke(app, ["join", made["links"]["invites"]["0"]], input="")
    assert result.exit_code == 1
    assert "You left the table. Your seat is kept" in result.output
    info = httpx.get(f"{live.base}/api/tables/{made['table']['id']}").json()["table"]
    assert info["status"] == "playing"


def test_join_plays_as_a_named_player_and_shows_what_the_game_did_to_the_rating(live,
                                                                                tmp_path):
    made = make_table(live.base, [{"kind": "human"}, {"kind": "bot", "bot": "casual"}])
    tess = httpx.post(f"{live.base}/api/players", json={"name": "Tess"}).json()
    link = tmp_path / "me.txt"
    link.write_text(f"{live.base}/me#player={tess['secret']}\n")
    result = runner.invoke(app, ["join", made["links"]["invites"]["0"],
                                 "--player-file", str(link)], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "You are Tess, seat 0, at Doors" in result.output.replace("\n", " ")
    assert "Tess (you):" in result.output
    assert "Your rating: 1000 → " in result.output
    info = httpx.get(f"{live.base}/api/tables/{made['table']['id']}").json()["table"]
    assert info["seats"][0]["player"]["name"] == "Tess" and info["ratings"] is not None
    # From the environment too; a secret that is nobody's is refused before any move.
    other = make_table(live.base, [{"kind": "human"}, {"kind": "bot"}])
    result = runner.invoke(app, ["join", other["links"]["invites"]["0"]], input="1\n",
                           env={"LADYTIGER_PLAYER": "nobody-at-all"})
    assert result.exit_code == 1 and "belongs to no player" in result.output
    result = runner.invoke(app, ["join", other["links"]["invites"]["0"], "--player-file",
                                 str(tmp_path / "missing.txt")])
    assert result.exit_code == 2 and "cannot read the player file" in result.output


def test_host_sets_a_table_up_prints_the_links_and_plays_seat_zero(live):
    result = runner.invoke(app, ["host", live.base, "favor", "--players", "3", "--seat",
                                 "casual", "--seat", "beginner", "-o",
                                 "random_first_player=true"],
                           input="1\n" * 600)
    assert result.exit_code == 0, result.output
    assert "seat 1: a casual bot" in result.output and "seat 2: a beginner bot" in result.output
    assert "seat 0 is yours; to come back to it: http://" in result.output
    table_id = result.output.split("/play/")[1].split()[0]
    info = httpx.get(f"{live.base}/api/tables/{table_id}").json()["table"]
    assert info["status"] == "finished"
    assert info["options"]["random_first_player"] is True and info["hints"] is True
    assert "Casual bot" in result.output and "Beginner bot" in result.output


def test_a_host_waiting_for_a_friend_closes_the_table_from_the_keyboard(live):
    # Typed while waiting: help, then close, asked once more.
    result = runner.invoke(app, ["host", live.base, "doors", "--seat", "friend", "--hints",
                                 "--clock", "60", "--unrated"],
                           input="help\nclose\nno\nclose\nyes\n")
    assert result.exit_code == 1, result.output  # ended without a game
    lines = result.output
    assert "seat 1: send this link to its player: http://" in lines
    invite = lines.split("seat 1: send this link to its player: ")[1].split()[0]
    assert "#seat=" in invite  # on one line, whole, to be copied
    assert "The game has not begun" in lines
    assert "You closed this table before the game began" not in lines
    assert "closed this table before the game began." in lines
    table_id = invite.split("/play/")[1].split("#")[0]
    info = httpx.get(f"{live.base}/api/tables/{table_id}").json()["table"]
    assert info["abandoned"]["closed"] == 0
    assert info["hints"] is True and info["rated"] is False and info["clock"]["seconds"] == 60


def test_a_host_tired_of_waiting_starts_with_a_bot_and_plays_on_at_the_new_table(live):
    # "start nobody" is refused with the levels; "start beginner" begins the game now.
    result = runner.invoke(app, ["host", live.base, "doors", "--seat", "friend",
                                 "-o", "gems_to_win=1"],
                           input="start nobody\nstart beginner\n" + "1\n" * 80)
    lines = result.output
    assert "The levels are: beginner, casual, strong, expert." in lines
    assert "started the game with bots in the empty seats" in lines
    assert "The game begins at the new table." in lines
    old_id = lines.split("/play/")[1].split("#")[0].split()[0]
    old = httpx.get(f"{live.base}/api/tables/{old_id}").json()["table"]
    assert old["abandoned"]["restarted"] == 0
    new = httpx.get(f"{live.base}/api/tables/{old['rematch']}").json()["table"]
    assert [s["kind"] for s in new["seats"]] == ["human", "bot"]
    assert new["seats"][1]["bot"] == "beginner"
    assert new["status"] == "finished" and result.exit_code == 0, lines


def test_a_player_who_took_a_lobby_seat_from_the_terminal_gives_it_back(live):
    made = make_table(live.base, [{"kind": "human"}, {"kind": "human", "open": True}])
    result = runner.invoke(app, ["join", made["links"]["spectate"]], input="leave\n")
    assert result.exit_code == 1, result.output
    assert "You gave your seat back" in result.output, result.output
    info = httpx.get(f"{live.base}/api/tables/{made['table']['id']}").json()["table"]
    assert info["status"] == "waiting" and info["seats"][1]["claimed"] is False


def test_host_explains_a_bad_request(live):
    result = runner.invoke(app, ["host", live.base, "doors", "--seat", "wizard"])
    assert result.exit_code == 1 and "there is no bot called 'wizard'" in result.output
    result = runner.invoke(app, ["host", live.base, "doors", "--players", "2", "--seat",
                                 "casual", "--seat", "casual"])
    assert result.exit_code == 2 and "2 --seat given for 1 other seats" in result.output


def test_tables_lists_the_lobby_with_a_join_command_for_each_open_table(tmp_path):
    from tests.web.support import LiveServer, quick_settings

    with LiveServer(quick_settings(tmp_path / "lobby.sqlite3")) as server:
        result = runner.invoke(app, ["tables", server.base])
        assert result.exit_code == 0 and "No table has an open seat" in result.output
        tess = httpx.post(f"{server.base}/api/players", json={"name": "Tess"}).json()
        made = httpx.post(f"{server.base}/api/tables", headers={
            "authorization": f"Player {tess['secret']}"}, json={
            "game": "favor", "options": {"players": 3},
            "seats": [{"kind": "human"}, {"kind": "human", "open": True},
                      {"kind": "bot", "bot": "casual"}], "clock": {"seconds": 60}}).json()
        make_table(server.base, [{"kind": "human"}, {"kind": "bot"}])  # no open seat
        result = runner.invoke(app, ["tables", server.base])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert len(lines) == 2
        assert lines[0].startswith("Favor, 3 players, 1 open · with ")
        assert "Casual bot" in lines[0] and "rated" in lines[0] and "60 s a move" in lines[0]
        assert lines[1].strip() == f"ladytiger join {server.base}/play/{made['table']['id']}"
        result = runner.invoke(app, ["tables", server.base, "--game", "doors"])
        assert "No table has an open seat at doors" in result.output


def test_a_host_in_the_terminal_sees_friends_sit_down_and_the_game_begin(live):
    made = make_table(live.base, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
                      game="favor", players=3)
    table_id = made["table"]["id"]
    console, out = terminal()

    async def keys(prompt: str) -> str:
        if prompt.startswith("waiting"):
            await asyncio.sleep(0.05)  # a person who waits: nothing typed yet
            return ""
        return "yes" if prompt.startswith("Give this game up") else "resign"

    async def scenario() -> None:
        from ladytiger.web.client import TableConnection

        host = asyncio.ensure_future(play_in_terminal(
            live.base, table_id, made["tokens"]["0"], keys, console))
        friends = []
        for seat in ("1", "2"):
            await asyncio.sleep(0.3)
            friends.append(await TableConnection.open(live.base, table_id,
                                                      made["tokens"][seat]))
        assert await asyncio.wait_for(host, 30) is None  # ended by the host's resignation
        for friend in friends:
            await friend.close()

    run(scenario())
    text = out.getvalue()
    assert "Seat 1 sat down." in text and "Waiting for 1 more player." in text
    assert "Day 1: you are dealt" in text
    assert "Seat 0 resigned, so the game is over: the others share the win." in text


def test_a_dropped_connection_comes_back_to_the_seat_and_the_game_goes_on(live):
    from ladytiger.cli.remote_seat import TerminalSeat
    from ladytiger.web.client import TableConnection

    made = make_table(live.base, [{"kind": "human"}, {"kind": "bot", "bot": "casual"}])
    table_id, token = made["table"]["id"], made["tokens"]["0"]
    console, out = terminal()

    async def scenario() -> dict | None:
        def reconnect():
            return TableConnection.open(live.base, table_id, token)

        seat = TerminalSeat(await reconnect(), lambda prompt: keys(prompt), console, reconnect)
        drops = []

        async def keys(prompt: str) -> str:
            if not drops:  # the network fails while the player thinks about the first move
                drops.append(seat.connection)
                await seat.connection.socket.close()
                await asyncio.sleep(0.5)
            return "1"

        try:
            return await seat.play()
        finally:
            await seat.connection.close()

    end = run(asyncio.wait_for(scenario(), 60))
    text = out.getvalue()
    assert "Connection lost: coming back…" in text and "Back at the table." in text
    assert end is not None and end["type"] == "end"
    info = httpx.get(f"{live.base}/api/tables/{table_id}").json()["table"]
    assert info["status"] == "finished"


def test_the_moves_listed_name_the_seats_they_name():
    from types import SimpleNamespace

    from ladytiger.cli.remote_seat import TerminalSeat

    welcome = {"seat": 0, "table": {"id": "t", "title": "Shady Lady", "game": "shady_lady",
                                    "seats": [{"seat": 0, "name": "Ann"},
                                              {"seat": 1, "name": "Casual bot"},
                                              {"seat": 2, "name": "Seat 2"}]}}
    seat = TerminalSeat(SimpleNamespace(seat=0, welcome=welcome), None, terminal()[0])
    assert seat.move_words("jack seat 1") == "jack seat 1 (Casual bot)"
    assert seat.move_words("take 3 from seat 2") == "take 3 from seat 2"  # no name to add
    assert seat.move_words("take 3 from seat 9") == "take 3 from seat 9"
    assert seat.named("Seat 1 draws a card.") == "Casual bot draws a card."



def test_a_host_opens_the_friends_seat_to_the_lobby_and_waits_at_the_new_table(live):
    # "open" moves the table to a new one whose invited seat is open to anyone; the host
    # goes along and waits there (until the input ends: the seat is kept).
    result = runner.invoke(app, ["host", live.base, "doors", "--seat", "friend"],
                           input="open\n")
    lines = result.output
    assert "opened the empty seats to anyone in the lobby" in lines
    assert "The table waits at its new address" in lines
    assert "Your seat is kept" in lines
    old_id = lines.split("/play/")[1].split("#")[0].split()[0]
    old = httpx.get(f"{live.base}/api/tables/{old_id}").json()["table"]
    assert old["abandoned"]["opened"] is True
    new = httpx.get(f"{live.base}/api/tables/{old['rematch']}").json()["table"]
    assert new["seats"][1]["open"] is True and new["status"] == "waiting"
    # The seat's address at the new table is said, since the old link leads to the old one.
    assert f"Your seat there: {live.base}/play/{new['id']}#seat=" in lines
    assert "Your seat is kept: its link brings you back" in lines
    lobby = httpx.get(f"{live.base}/api/tables?status=waiting").json()["tables"]
    assert new["id"] in [t["id"] for t in lobby]


def test_mute_hides_a_players_chat_lines_in_this_terminal_by_their_id():
    from types import SimpleNamespace

    from ladytiger.cli.remote_seat import TerminalSeat

    connection = SimpleNamespace(seat=0, welcome={"table": {
        "id": "t", "title": "Doors", "game": "doors",
        "seats": [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Loud"}]}})
    console, out = terminal()
    seat = TerminalSeat(connection, Keyboard([]), console)  # type: ignore[arg-type]

    def says(player: str, name: str, text: str) -> None:
        seat._receive({"type": "chat", "text": text, "from": {"seat": 1, "player": {
            "id": player, "name": name}}})

    seat._mute("mute Nobody")
    assert "Nobody called Nobody has said anything here. Nobody has spoken yet." in out.getvalue()
    says("p_loud", "Loud", "first")
    seat._mute("mute loud")
    assert "Lines from Loud are hidden in this terminal" in out.getvalue()
    says("p_loud", "Loud", "second")
    says("p_loud", "Quiet", "renamed")  # a new name does not slip past
    says("p_bo", "Bo", "hello")
    seat._mute("unmute Loud")
    says("p_loud", "Quiet", "third")
    text = out.getvalue()
    assert "Loud: first" in text and "Bo: hello" in text and "Quiet: third" in text
    assert "second" not in text and "renamed" not in text
