// Who this browser plays as, without a sign-up form: a player made on the first visit, kept in
// localStorage, restored elsewhere from the personal link (/me#player=SECRET), and shown in
// the top bar of every page with the number of games waiting for the player's move.
import {ApiError, api, identity} from "./api.js";
import {clear, h} from "./dom.js";

const POLL_MS = 20_000;

const state = {
  ready: null, // the promise ensurePlayer() hands out
  player: null, // {id, name}
  yourTurn: 0,
  yourTurnTables: [], // their ids, the table made first first
  adopted: null, // {from, to} when a personal link was just opened
  linkProblem: null, // why a personal link could not be used
  listeners: new Set(),
  timer: null,
  started: null,
};

function notify() {
  for (const listener of state.listeners) {
    try {
      listener(state);
    } catch (error) {
      console.error(error);
    }
  }
}

/** Call `listener(state)` now and whenever the player or their count of turns changes. */
export function onIdentity(listener) {
  state.listeners.add(listener);
  if (state.player) listener(state);
  return () => state.listeners.delete(listener);
}

export function currentPlayer() {
  return state.player;
}

export function identityState() {
  return state;
}

/** A personal link's secret, read once from the address and then wiped from it. */
function secretFromFragment() {
  if (!location.hash.includes("player=")) return null;
  const params = new URLSearchParams(location.hash.slice(1));
  const secret = (params.get("player") || "").trim();
  params.delete("player");
  const rest = params.toString();
  // The secret must not linger in the address bar, the history or a shared screenshot.
  history.replaceState(null, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
  return secret || null;
}

async function adoptFromFragment() {
  const secret = secretFromFragment();
  if (!secret) return;
  const before = identity.get();
  if (before && before.secret === secret) {
    state.adopted = {from: null, to: before.name, same: true};
    return;
  }
  try {
    const me = await api.me(secret);
    // The player this browser was is kept aside, so that a link opened by mistake does not
    // lose them for good: /me offers to switch back.
    if (before) keepPrevious(before);
    identity.set({secret, id: me.player.id, name: me.player.name});
    state.adopted = {from: before?.name || null, to: me.player.name, same: false};
  } catch (error) {
    state.linkProblem = error.code === "unknown_player" || error.status === 401
      ? "This personal link belongs to no player on this server: it may be mistyped or cut short."
      : `The personal link could not be checked: ${error.message}`;
  }
}

const PREVIOUS_KEY = "ladytiger.previous-player";

function keepPrevious(entry) {
  try {
    localStorage.setItem(PREVIOUS_KEY, JSON.stringify(entry));
  } catch (error) {
    // Nothing to switch back to, then.
  }
}

/** The player this browser was before a personal link made it someone else, if any. */
export function previousPlayer() {
  try {
    const held = JSON.parse(localStorage.getItem(PREVIOUS_KEY) || "null");
    return held && held.secret && held.secret !== identity.secret() ? held : null;
  } catch (error) {
    return null;
  }
}

/** Be the previous player again (the current one is kept aside in turn). */
export function switchBack() {
  const previous = previousPlayer();
  if (!previous) return false;
  const now = identity.get();
  identity.set(previous);
  if (now) keepPrevious(now);
  return true;
}

async function makePlayer() {
  const made = await api.newPlayer();
  // Another tab may have made a player meanwhile: one browser, one player.
  const other = identity.get();
  if (other) return other;
  identity.set({secret: made.secret, id: made.player.id, name: made.player.name});
  return identity.get();
}

/**
 * The player this browser is: {id, name}, made on the first visit. Resolves to null when no
 * player can be had (the server refuses, storage is off): the pages then work as before,
 * with seat tokens alone.
 */
export function ensurePlayer({create = true} = {}) {
  if (state.ready) return state.ready;
  state.ready = (async () => {
    await adoptFromFragment();
    if (!identity.get() && create) {
      try {
        await makePlayer();
      } catch (error) {
        console.info("no player for this browser yet:", error.message);
        return null;
      }
    }
    return refresh();
  })();
  return state.ready;
}

/** Ask the server who we are and how many games wait for us; null if we are nobody. */
export async function refresh() {
  const held = identity.get();
  if (!held) {
    state.player = null;
    state.yourTurn = 0;
    state.yourTurnTables = [];
    notify();
    return null;
  }
  try {
    const me = await api.me();
    identity.update(me.player);
    state.player = me.player;
    state.yourTurn = Number(me.your_turn) || 0;
    state.yourTurnTables = Array.isArray(me.your_turn_tables) ? me.your_turn_tables : [];
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.code === "unknown_player")) {
      identity.clear();
      state.player = null;
      state.yourTurn = 0;
      state.yourTurnTables = [];
    } else if (!state.player && held.id) {
      // Offline for a moment: show what this browser remembers.
      state.player = {id: held.id, name: held.name};
    }
  }
  notify();
  return state.player;
}

export async function rename(name) {
  const answer = await api.rename(name);
  identity.update(answer.player);
  state.player = answer.player;
  notify();
  return answer.player;
}

/** Forget the player (and the seat tokens) on this device. */
export function forget() {
  identity.clear();
  try {
    localStorage.removeItem(PREVIOUS_KEY);
  } catch (error) {
    // Nothing was kept.
  }
  state.player = null;
  state.yourTurn = 0;
  state.yourTurnTables = [];
  state.ready = Promise.resolve(null);
  notify();
}

function poll() {
  clearInterval(state.timer);
  state.timer = setInterval(() => {
    if (document.visibilityState === "visible" && identity.get()) refresh();
  }, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && identity.get()) refresh();
  });
}

// ------------------------------------------------------------------ the top bar

/** The table this page shows, on a table's page: its own turn is already shown there. */
function tableHere() {
  const match = location.pathname.match(/^\/play\/([^/]+)/);
  return match ? decodeURIComponent(match[1]) : null;
}
function initial(name) {
  const first = [...String(name || "?").trim()][0] || "?";
  return first.toUpperCase();
}

/**
 * The player's corner of the top bar: their name (a menu to rename, and links to their
 * games and page) and how many games wait for their move.
 */
export function mountIdentity(topbar = document.querySelector(".topbar")) {
  if (!topbar || topbar.querySelector(".identity")) return;
  const turns = h("a", {class: "turn-count", id: "turn-count", href: "/#my-games", hidden: true});
  const nameText = h("span", {class: "identity-name", id: "identity-name"}, "…");
  const avatar = h("span", {class: "identity-avatar", "aria-hidden": "true"}, "?");
  const summary = h("summary", {class: "identity-summary"}, avatar,
    h("span", {class: "visually-hidden"}, "You play as "), nameText);
  const input = h("input", {type: "text", id: "identity-rename", maxlength: 24, minlength: 1,
    autocomplete: "nickname", spellcheck: "false", "aria-describedby": "identity-rename-hint"});
  const problem = h("p", {class: "identity-problem", id: "identity-problem", role: "alert",
    hidden: true});
  const save = h("button", {type: "submit", class: "small primary"}, "Save");
  const form = h("form", {class: "identity-form", novalidate: true},
    h("label", {for: "identity-rename"}, "Your name"),
    h("div", {class: "identity-row"}, input, save),
    h("span", {class: "hint", id: "identity-rename-hint"},
      "1 to 24 characters. Everyone at your tables sees it."),
    problem);
  const pageLink = h("a", {href: "/players/", id: "identity-page"}, "Your ratings and games");
  const panel = h("div", {class: "identity-panel"}, form,
    h("ul", {class: "identity-links"},
      h("li", {}, h("a", {href: "/#my-games"}, "My games")),
      h("li", {}, pageLink),
      h("li", {}, h("a", {href: "/me"}, "Personal link and this device"))));
  const menu = h("details", {class: "identity-menu", id: "identity-menu"}, summary, panel);
  const box = h("div", {class: "identity", id: "identity", hidden: true}, turns, menu);
  topbar.append(box);

  // Fill the field when the menu is about to open, not on "toggle": that event comes a task
  // later, and would overwrite whatever a quick typist already typed.
  summary.addEventListener("click", () => {
    if (menu.open) return;
    input.value = state.player?.name || "";
    problem.hidden = true;
  });
  menu.addEventListener("toggle", () => {
    if (!menu.open || document.activeElement === input) return;
    input.focus();
    input.select();
  });
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      menu.open = false;
      summary.focus();
    }
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.hidden = true;
    save.disabled = true;
    try {
      await rename(input.value);
      menu.open = false;
    } catch (error) {
      problem.textContent = error.message;
      problem.hidden = false;
      input.focus();
    } finally {
      save.disabled = false;
    }
  });

  onIdentity(() => {
    const player = state.player;
    box.hidden = !player;
    if (!player) return;
    nameText.textContent = player.name;
    avatar.textContent = initial(player.name);
    summary.title = `You play as ${player.name}`;
    pageLink.href = `/players/${encodeURIComponent(player.id)}`;
    // On a table's page the count leaves that table out, and leads to the next one waiting,
    // as a player going round their tables wants; elsewhere it leads to the list.
    const here = tableHere();
    const others = here === null ? null : state.yourTurnTables.filter((id) => id !== here);
    const count = others === null ? state.yourTurn : others.length;
    const what = others === null ? "game" : "other game";
    turns.hidden = count <= 0;
    clear(turns);
    turns.append(h("b", {}, String(count)), ` ${what}${count === 1 ? "" : "s"}: your turn`);
    if (others?.length) {
      turns.href = `/play/${encodeURIComponent(others[0])}`;
      turns.title = count === 1 ? "Another game waits for your move: go to it"
        : `${count} other games wait for your move: go to the one made first`;
    } else {
      turns.href = "/#my-games";
      turns.title = count === 1 ? "One game waits for your move" : `${count} games wait for your move`;
    }
    document.body.dataset.yourTurns = String(count);
  });
}

/** Every page's start: the player, shown in the top bar and kept fresh. */
export function startIdentity(options) {
  if (state.started) return state.started;
  mountIdentity();
  // A personal link pasted into a tab already on this page changes only the fragment:
  // start over so that it is read like any other visit.
  window.addEventListener("hashchange", () => {
    if (location.hash.includes("player=")) location.reload();
  });
  state.started = ensurePlayer(options);
  state.started.then(() => poll());
  return state.started;
}
