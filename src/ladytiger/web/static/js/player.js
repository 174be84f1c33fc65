// /players/{id}: a player's public page: their name, ratings per game and recent finished
// games, each with its replay. Names are shown as text only.
import {api} from "./api.js";
import {ago, clear, h, ratingNote, winnersOf, winsCell} from "./dom.js";
import {currentPlayer, startIdentity} from "./identity.js";
import {withWhom} from "./mygames.js";

const playerId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);

function fail(message) {
  $("player-error").textContent = message;
  $("player-error").hidden = false;
}

function ratingsTable(ratings, titles) {
  if (!ratings.length) return h("p", {class: "empty"}, "No rated games yet.");
  return h("table", {class: "data-table ratings-table"},
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Game"), h("th", {scope: "col", class: "num"}, "Rating"),
      h("th", {scope: "col", class: "num"}, "Games"), h("th", {scope: "col", class: "num"}, "Won"),
      h("th", {scope: "col"}, h("span", {class: "visually-hidden"}, "Leaderboard")))),
    h("tbody", {}, ratings.map((entry) => h("tr", {"data-game": entry.game},
      h("th", {scope: "row"}, titles.get(entry.game) || entry.game),
      h("td", {class: "num rating"}, Math.round(entry.rating)),
      h("td", {class: "num"}, entry.games),
      winsCell(entry),
      h("td", {}, h("a", {href: `/leaderboard/${encodeURIComponent(entry.game)}`}, "Leaderboard"))))));
}

function gameRow(game, titles) {
  const seat = game.seat;
  const returns = game.result?.returns || [];
  const winners = winnersOf(returns);
  let outcome = "";
  let kind = "";
  const resigned = game.abandoned?.resigned;
  if (resigned !== undefined && resigned !== null) {
    outcome = resigned === seat ? "resigned" : "won by resignation";
    kind = resigned === seat ? "lost" : "won";
  } else if (game.status === "abandoned") {
    outcome = "closed";
  } else if (!winners.length) {
    outcome = "nobody won";
  } else if (winners.includes(seat)) {
    outcome = winners.length > 1 ? "shared win" : "won";
    kind = "won";
  } else {
    outcome = "lost";
    kind = "lost";
  }
  const scores = (game.result?.scores || []).join(" – ");
  const title = game.title || titles.get(game.game) || game.game;
  const id = game.id || game.table;
  return h("li", {"data-table": id || null},
    h("div", {class: "what"},
      h("b", {}, title, " ", h("span", {class: `pill result ${kind}`}, outcome)),
      h("span", {}, [withWhom(game), scores ? `scores ${scores}` : null,
        ratingNote(game, seat), ago(game.finished_at)].filter(Boolean).join(" · "))),
    id && game.status !== "abandoned"
      ? h("a", {class: "button small", href: `/replay/${encodeURIComponent(id)}`}, "Replay") : null);
}

async function start() {
  startIdentity();
  if (!playerId) {
    fail("The address names no player.");
    return;
  }
  let data;
  let titles = new Map();
  try {
    const [page, games] = await Promise.all([api.player(playerId), api.games().catch(() => null)]);
    data = page;
    if (games) titles = new Map(games.games.map((g) => [g.name, g.title]));
  } catch (error) {
    fail(error.status === 404 ? "There is no such player: the link may be mistyped." : error.message);
    $("player-name").textContent = "No such player";
    clear($("ratings"));
    clear($("games"));
    document.body.dataset.ready = "1";
    return;
  }
  const player = data.player;
  $("player-name").textContent = player.name;
  document.title = `${player.name} · ladytiger`;
  $("player-kind").textContent = player.bot ? "Bot" : "Player";
  clear($("ratings")).append(ratingsTable(data.ratings || [], titles));
  const games = data.games || [];
  clear($("games")).append(games.length
    ? h("ul", {class: "lobby-list"}, games.map((game) => gameRow(game, titles)))
    : h("p", {class: "empty"}, "No finished public games yet."));
  const showYou = () => {
    $("player-you").hidden = currentPlayer()?.id !== player.id;
  };
  showYou();
  startIdentity().then(showYou);
  document.body.dataset.ready = "1";
}

start();
