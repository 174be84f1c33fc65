// The home page: the games, a form to make a table, and the lobby.
import {api, tokens} from "./api.js";
import {botLabel, strengthsFor} from "./bots.js";
import {card} from "./cards.js";
import {clear, clockWords, h, plural, seatDisplayName, seatNumber, svg} from "./dom.js";
import {currentPlayer, onIdentity, startIdentity} from "./identity.js";
import {renderMyGames} from "./mygames.js";

// A few cards of each game's deck, drawn beside its name.
const PREVIEW = {
  doors: ["Red Lady", "Blue Tiger"],
  favor: ["Blue Lady", "Lady/Tiger"],
  hoard: ["Red Tiger", "Blue/Red"],
  labyrinth: ["Blue Lady", "Red Tiger"],
  shady_lady: [7, 7, 7],
  tighee: ["Black 12", "Green 7"],
  traps: ["Blue Tiger", null],
};

const TROPHY = '<path d="M7 4h10v3a5 5 0 0 1-10 0zM7 6H4v1a3 3 0 0 0 3 3M17 6h3v1a3 3 0 0 1-3 3'
  + 'M12 12v4M8.5 20h7M10 16h4l.5 4h-5z" fill="none" stroke="currentColor" stroke-width="1.8"'
  + ' stroke-linejoin="round" stroke-linecap="round"/>';

const state = {games: [], byName: new Map(), bots: new Set(), game: null, lobby: null};

function showError(where, error) {
  const box = document.getElementById(where);
  box.textContent = error ? (error.message || String(error)) : "";
  box.hidden = !error;
}

function playerCount(info) {
  return info.min_players === info.max_players
    ? (info.min_players === 1 ? "solo" : `${info.min_players} players`)
    : `${info.min_players}–${info.max_players} players`;
}

// ------------------------------------------------------------------ the games
function renderGames() {
  const list = document.getElementById("game-list");
  clear(list);
  list.removeAttribute("aria-busy");
  for (const info of state.games) {
    list.append(h("article", {class: "game-card", id: `game-${info.name}`,
      "data-game": info.name, "aria-labelledby": `game-${info.name}-title`},
      h("header", {},
        h("div", {},
          h("h3", {id: `game-${info.name}-title`}, info.title),
          h("span", {class: "players"}, playerCount(info))),
        h("div", {class: "preview", "aria-hidden": "true"},
          (PREVIEW[info.name] || []).map((name) => card(name, {size: "xs", title: ""})))),
      h("p", {}, info.description),
      h("div", {class: "actions"},
        // The card names its game, so the button need not: "New table" keeps the row short.
        h("button", {type: "button", class: "small primary", "data-play": info.name,
          "aria-label": `New ${info.title} table`, title: `New ${info.title} table`,
          onclick: () => chooseGame(info.name, true)}, "New table"),
        h("a", {href: `/rules/${info.name}`, class: "button small quiet"}, "Rules"),
        info.lesson && h("a", {href: info.lesson, class: "button small quiet",
          title: `A guided first game of ${info.title}, every step explained`}, "Learn"),
        // A cup, not a word: four actions must fit the narrowest card on one line.
        h("a", {href: `/leaderboard/${info.name}`, class: "button small quiet icon-link",
          title: `${info.title} leaderboard`, "aria-label": `${info.title} leaderboard`},
        svg("0 0 24 24", TROPHY, {class: "icon"})))));
  }
}

// ------------------------------------------------------------------ the form
function optionField(option) {
  const id = `option-${option.name}`;
  const label = option.name === "players" ? "Players"
    : option.name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
  const hint = option.name === "players" ? null : option.description;
  let input;
  if (option.kind === "bool") {
    input = h("input", {type: "checkbox", id, name: option.name, checked: Boolean(option.default)});
    return h("div", {class: "field"},
      h("label", {class: "check"}, input, label),
      hint && h("span", {class: "hint"}, hint));
  }
  if (option.choices) {
    input = h("select", {id, name: option.name},
      option.choices.map((choice) => h("option", {value: String(choice),
        selected: choice === option.default}, String(choice))));
  } else if (option.kind === "int" || option.kind === "float") {
    input = h("input", {type: "number", id, name: option.name, value: String(option.default),
      min: option.minimum ?? null, max: option.maximum ?? null,
      step: option.kind === "int" ? "1" : "any", inputmode: "numeric"});
  } else {
    input = h("input", {type: "text", id, name: option.name, value: String(option.default ?? "")});
  }
  return h("div", {class: "field"}, h("label", {for: id}, label), input,
    hint && h("span", {class: "hint"}, hint));
}

function chooseGame(name, focus = false) {
  const info = state.byName.get(name);
  if (!info) return;
  state.game = info;
  document.getElementById("game-select").value = name;
  const rules = document.getElementById("create-rules");
  rules.href = `/rules/${encodeURIComponent(name)}`;
  rules.textContent = `How to play ${info.title}`;
  for (const card of document.querySelectorAll(".game-card")) {
    card.classList.toggle("chosen", card.dataset.game === name);
  }
  const options = clear(document.getElementById("options"));
  for (const option of info.options) options.append(optionField(option));
  const players = document.getElementById("option-players");
  if (players) players.addEventListener("change", renderSeats);
  renderSeats();
  showError("create-error", null);
  if (focus) {
    document.getElementById("create").scrollIntoView({behavior: "smooth", block: "start"});
    document.getElementById("game-select").focus({preventScroll: true});
  }
}

function seatCount() {
  const players = document.getElementById("option-players");
  return players ? Number(players.value) : state.game.min_players;
}

function renderSeats() {
  const fieldset = document.getElementById("seats");
  const previous = [...fieldset.querySelectorAll("select")].map((s) => s.value);
  for (const row of fieldset.querySelectorAll(".seat-row")) row.remove();
  const strengths = strengthsFor(state.game.name, state.bots);
  // A link may name the level of the bots it sends a player to (a finished guided game
  // offers beginners); otherwise casual.
  const named = new URLSearchParams(location.search).get("bots");
  const fallback = strengths.find((s) => s.key === named)
    || strengths.find((s) => s.key === "casual") || strengths[0];
  for (let seat = 0; seat < seatCount(); seat += 1) {
    const id = `seat-${seat}`;
    const chosen = previous[seat] ?? (seat === 0 ? "human" : fallback?.key ?? "human");
    const select = h("select", {id, name: id, "data-seat": seat},
      h("option", {value: "human", selected: chosen === "human"},
        seat === 0 ? "Human (you)" : "Human"),
      strengths.map((s) => h("option", {value: s.key, selected: chosen === s.key, title: s.about},
        s.label)));
    select.addEventListener("change", describeSeats);
    fieldset.append(h("div", {class: "seat-row"},
      h("label", {class: "seat-label", for: id}, `Seat ${seatNumber(seat)}`), select));
  }
  describeSeats();
}

function seatPlan() {
  const strengths = new Map(strengthsFor(state.game.name, state.bots).map((s) => [s.key, s]));
  const open = document.getElementById("open-seats").checked;
  let firstHuman = true;
  return [...document.querySelectorAll("#seats select")].map((select) => {
    if (select.value === "human") {
      const plan = {kind: "human"};
      if (open && !firstHuman) plan.open = true;
      firstHuman = false;
      return plan;
    }
    const strength = strengths.get(select.value);
    return {kind: "bot", bot: strength.bot, options: strength.options};
  });
}

function describeSeats() {
  const plan = seatPlan();
  const humans = plan.filter((s) => s.kind === "human").length;
  // The bots' pace matters only at a table with bots, the move clock only with people.
  document.getElementById("pace-field").hidden = plan.every((s) => s.kind === "human");
  document.getElementById("clock-field").hidden = humans === 0;
  // Hints come with a bot or a solo game; among people only, the creator decides.
  document.getElementById("hints-field").hidden = !hintsAsked(plan);
  const note = document.getElementById("create-note");
  if (humans === 0) note.textContent = "Only bots: you will watch.";
  else if (humans === 1) note.textContent = "You take the human seat.";
  else note.textContent = `You take the first human seat; ${plural(humans - 1, "invite link")} to share.`;
}

/** Whether the table's hints are the creator's choice: a table of two people or more. */
function hintsAsked(plan) {
  return plan.length > 1 && plan.every((s) => s.kind === "human");
}

function readOptions() {
  const options = {};
  for (const option of state.game.options) {
    const input = document.getElementById(`option-${option.name}`);
    if (!input) continue;
    let value;
    if (option.kind === "bool") value = input.checked;
    else if (option.kind === "int") value = Number.parseInt(input.value, 10);
    else if (option.kind === "float") value = Number.parseFloat(input.value);
    else value = input.value;
    if (option.choices && option.kind !== "str") value = Number(input.value);
    if (Number.isNaN(value)) throw new Error(`${option.name.replaceAll("_", " ")} must be a number`);
    if (value !== option.default || option.name === "players") options[option.name] = value;
  }
  return options;
}

async function createTable(event) {
  event.preventDefault();
  showError("create-error", null);
  const button = document.getElementById("create-button");
  let spec;
  try {
    spec = {game: state.game.name, options: readOptions(), seats: seatPlan(), public: true};
  } catch (error) {
    showError("create-error", error);
    return;
  }
  const pace = document.querySelector('#pace-field input[name="pace"]:checked');
  if (pace) spec.pace = pace.value;
  // The creator sits in the first human seat, as themselves: it is theirs from any browser
  // they play in, without the invite link.
  const first = spec.seats.findIndex((seat) => seat.kind === "human");
  if (first >= 0 && currentPlayer()) spec.me = first;
  const clock = document.getElementById("move-clock").value;
  if (clock && first >= 0) {
    spec.clock = {seconds: Number(clock), bot: state.bots.has("casual") ? "casual" : "random"};
  }
  if (!document.getElementById("rated").checked) spec.rated = false;
  if (!document.getElementById("table-chat").checked) spec.chat = false;
  if (hintsAsked(spec.seats) && document.getElementById("table-hints").checked) spec.hints = true;
  button.disabled = true;
  button.textContent = "Creating…";
  try {
    const made = await api.create(spec);
    const id = made.table.id;
    tokens.remember(id, made.tokens);
    const mine = Object.keys(made.tokens).map(Number).sort((a, b) => a - b)[0];
    location.href = mine === undefined ? `/play/${id}` : `/play/${id}#seat=${made.tokens[mine]}`;
  } catch (error) {
    showError("create-error", error);
    button.disabled = false;
    button.textContent = "Create table";
  }
}

// ------------------------------------------------------------------ the lobby
function seatsSummary(table) {
  return table.seats.map((seat, index) => {
    // Open seats are listed with each player's rating on the game: whom one would play.
    const rated = table.seat_ratings?.[index];
    const rating = rated?.games ? ` (${Math.round(rated.rating)})` : "";
    if (seat.player || (seat.kind === "bot" && seat.name)) return seatDisplayName(table.seats, index) + rating;
    return (seat.kind === "bot" ? botLabel(seat) : (seat.open && !seat.claimed ? "open seat" : "human")) + rating;
  }).join(", ");
}

/** The seat this browser's player holds at `table`, or null. */
function mySeat(table) {
  const me = currentPlayer();
  if (!me) return null;
  const seat = (table.seats || []).find((s) => s.player && s.player.id === me.id);
  return seat ? seat.seat : null;
}

/** " · 1 min a move" for a table with a move clock: who joins should know. */
function clockNote(table) {
  return table.clock ? ` · ${clockWords(table.clock.seconds)} a move` : "";
}

function titleOf(table) {
  return table.title || state.byName.get(table.game)?.title || table.game;
}

function lobbySection(id, title, tables, row, empty) {
  const section = clear(document.getElementById(id));
  section.append(h("h3", {}, title));
  if (!tables.length) {
    section.append(h("p", {class: "empty"}, empty));
    return;
  }
  section.append(h("ul", {class: "lobby-list"}, tables.slice(0, 8).map(row)));
}

async function join(table, button) {
  button.disabled = true;
  try {
    const claimed = await api.join(table.id);
    tokens.remember(table.id, {[claimed.seat]: claimed.token});
    location.href = `/play/${table.id}#seat=${claimed.token}`;
  } catch (error) {
    showError("home-error", error);
    button.disabled = false;
    refreshLobby();
  }
}

/**
 * "Play someone now": the first open seat at a public table of the game, or else a new table
 * of the game's usual size with every other seat open, waiting in the lobby. A player who
 * already waits at a table of that game is sent back to it rather than given a second one.
 */
async function quickMatch(button) {
  const game = document.getElementById("quick-game").value;
  const info = state.byName.get(game);
  button.disabled = true;
  showError("home-error", null);
  try {
    const {tables} = await api.tables("waiting");
    const ofGame = tables.filter((table) => table.game === game);
    const waiting = ofGame.find((table) => mySeat(table) !== null);
    if (waiting) {
      location.href = `/play/${waiting.id}`;
      return;
    }
    // The table nearest to starting first (fewest seats left), then the one waiting longest.
    const open = ofGame.filter((t) => t.free_seats.length)
      .sort((a, b) => a.free_seats.length - b.free_seats.length || a.created_at - b.created_at);
    for (const table of open) {
      try {
        const claimed = await api.join(table.id);
        tokens.remember(table.id, {[claimed.seat]: claimed.token});
        location.href = `/play/${table.id}#seat=${claimed.token}`;
        return;
      } catch (error) {
        // Someone was quicker, or the table closed: try the next one.
        if (!["seat_taken", "no_free_seat", "game_abandoned"].includes(error.code)) throw error;
      }
    }
    const players = info.options.find((option) => option.name === "players")?.default
      ?? info.min_players;
    const seats = [{kind: "human"}];
    for (let seat = 1; seat < players; seat += 1) seats.push({kind: "human", open: true});
    const spec = {game, options: {players}, seats, public: true};
    if (currentPlayer()) spec.me = 0;
    const made = await api.create(spec);
    tokens.remember(made.table.id, made.tokens);
    location.href = `/play/${made.table.id}#seat=${made.tokens[0]}`;
  } catch (error) {
    showError("home-error", error);
    button.disabled = false;
  }
}

async function refreshLobby() {
  try {
    const [waiting, playing, finished] = await Promise.all(
      ["waiting", "playing", "finished"].map((status) => api.tables(status)));
    lobbySection("lobby-waiting", "Open seats", waiting.tables, (table) => {
      if (mySeat(table) !== null) {
        return h("li", {"data-table": table.id, class: "mine"},
          h("div", {class: "what"}, h("b", {}, titleOf(table)),
            h("span", {}, `${plural(table.free_seats.length, "free seat")} · ${seatsSummary(table)}${clockNote(table)}`)),
          h("a", {class: "button small", href: `/play/${table.id}`}, "Your table"));
      }
      const button = h("button", {type: "button", class: "small primary"}, "Join");
      button.addEventListener("click", () => join(table, button));
      return h("li", {"data-table": table.id},
        h("div", {class: "what"}, h("b", {}, titleOf(table)),
          h("span", {}, `${plural(table.free_seats.length, "free seat")} · ${seatsSummary(table)}${clockNote(table)}`)),
        button);
    }, "No table is waiting for players. Make one!");
    lobbySection("lobby-playing", "Games in play", playing.tables, (table) => {
      const mine = mySeat(table);
      return h("li", {"data-table": table.id, class: mine === null ? null : "mine"},
        h("div", {class: "what"}, h("b", {}, titleOf(table)), h("span", {}, seatsSummary(table))),
        // A player who holds a seat there is seated by the server, not made a spectator.
        h("a", {class: mine === null ? "button small" : "button small primary",
          href: `/play/${table.id}`}, mine === null ? "Watch" : "Your seat"));
    }, "Nothing is being played right now.");
    lobbySection("lobby-finished", "Finished", finished.tables, (table) => {
      const scores = table.result ? table.result.scores.join(" – ") : "";
      return h("li", {"data-table": table.id},
        h("div", {class: "what"}, h("b", {}, titleOf(table)),
          h("span", {}, scores ? `scores ${scores}` : "finished")),
        h("a", {class: "button small", href: `/replay/${table.id}`}, "Replay"));
    }, "No finished games yet.");
  } catch (error) {
    showError("home-error", error);
  }
}

// ------------------------------------------------------------------ my games
async function refreshMyGames() {
  try {
    await renderMyGames(document.getElementById("my-games-list"), {
      section: document.getElementById("my-games"),
      counter: document.getElementById("my-turns"),
    });
  } catch (error) {
    console.info("my games could not be loaded:", error.message);
  }
}

// ------------------------------------------------------------------ start
async function start() {
  const ready = startIdentity();
  try {
    const [games, bots] = await Promise.all([api.games(), api.bots()]);
    state.games = games.games;
    state.byName = new Map(state.games.map((g) => [g.name, g]));
    state.bots = new Set(bots.bots.map((b) => b.name));
  } catch (error) {
    showError("home-error", error);
    return;
  }
  renderGames();
  const select = document.getElementById("game-select");
  for (const info of state.games) select.append(h("option", {value: info.name}, info.title));
  select.addEventListener("change", () => chooseGame(select.value));
  document.getElementById("open-seats").addEventListener("change", describeSeats);
  document.getElementById("create-form").addEventListener("submit", createTable);
  document.getElementById("lobby-refresh").addEventListener("click", refreshLobby);
  const quick = document.getElementById("quick-game");
  for (const info of state.games) {
    if (info.max_players > 1) quick.append(h("option", {value: info.name}, info.title));
  }
  document.getElementById("quick-link").addEventListener("click", (event) => {
    event.preventDefault();
    document.getElementById("quick-match").scrollIntoView({block: "center"});
    quick.focus();
  });
  const quickButton = document.getElementById("quick-button");
  quickButton.addEventListener("click", () => quickMatch(quickButton));
  const wanted = new URLSearchParams(location.search).get("game");
  chooseGame(state.byName.has(wanted) ? wanted : state.games[0].name);
  document.body.dataset.ready = "1";
  refreshLobby();
  setInterval(() => {
    if (document.visibilityState === "visible") refreshLobby();
  }, 5000);
  await ready;
  await refreshMyGames();
  // The lobby's buttons depend on who we are; the list follows the top bar's count.
  refreshLobby();
  document.body.dataset.mine = "1";
  let last = null;
  onIdentity((identity) => {
    const now = `${identity.player?.id}|${identity.yourTurn}`;
    if (last !== null && now !== last) refreshMyGames();
    last = now;
  });
  setInterval(() => {
    if (document.visibilityState === "visible") refreshMyGames();
  }, 10_000);
}

start();
