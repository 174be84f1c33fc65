// /leaderboard/{game}: the top rated players of one game, bots marked as bots.
import {api} from "./api.js";
import {clear, h, winsCell} from "./dom.js";
import {currentPlayer, startIdentity} from "./identity.js";

const $ = (id) => document.getElementById(id);

function fail(message) {
  $("board-error").textContent = message;
  $("board-error").hidden = false;
}

function board(rows, me) {
  if (!rows.length) {
    return h("p", {class: "empty"}, "Nobody is rated on this game yet: finish a rated game to be the first.");
  }
  return h("table", {class: "data-table leaderboard"},
    h("thead", {}, h("tr", {}, h("th", {scope: "col", class: "num"}, "#"), h("th", {scope: "col"}, "Player"),
      h("th", {scope: "col", class: "num"}, "Rating"), h("th", {scope: "col", class: "num"}, "Games"),
      h("th", {scope: "col", class: "num"}, "Won"))),
    h("tbody", {}, rows.map((row) => {
      const bot = Boolean(row.player.bot);
      const mine = me && row.player.id === me.id;
      return h("tr", {class: mine ? "me" : null, "data-player": row.player.id,
        "data-bot": bot ? "1" : null},
      h("td", {class: "num rank"}, row.rank),
      h("th", {scope: "row", class: "who"},
        h("a", {href: `/players/${encodeURIComponent(row.player.id)}`}, row.player.name),
        bot ? h("span", {class: "tag bot"}, "bot") : null,
        mine ? h("span", {class: "tag you"}, "you") : null),
      h("td", {class: "num rating"}, Math.round(row.rating)),
      h("td", {class: "num"}, row.games),
      winsCell(row));
    })));
}

async function start() {
  const ready = startIdentity();
  let game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  let games = [];
  try {
    games = (await api.games()).games;
  } catch (error) {
    fail(error.message);
    return;
  }
  if (!game && games.length) game = games[0].name;
  const info = games.find((g) => g.name === game);
  const tabs = clear($("game-tabs"));
  for (const other of games) {
    tabs.append(h("a", {href: `/leaderboard/${encodeURIComponent(other.name)}`,
      "aria-current": other.name === game ? "page" : null}, other.title));
  }
  if (!info) {
    $("board-title").textContent = "No such game";
    clear($("board")).append(h("p", {class: "empty"}, "Pick one of the games above."));
    document.body.dataset.ready = "1";
    return;
  }
  $("board-title").textContent = `${info.title} leaderboard`;
  document.title = `${info.title} leaderboard · ladytiger`;
  $("board-rules").href = `/rules/${encodeURIComponent(game)}`;
  try {
    const [data] = await Promise.all([api.leaderboard(game), ready]);
    clear($("board")).append(board(data.players || [], currentPlayer()));
  } catch (error) {
    fail(error.message);
    clear($("board"));
  }
  document.body.dataset.ready = "1";
}

start();
