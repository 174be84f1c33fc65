// The table's chat: short text lines between the players and spectators at one table, over
// the table's socket. Every line is somebody's free text, so it only ever goes into the page
// as text nodes (textContent), never as markup.
//
// A player may mute another: that player's lines are no longer shown, at this table or any
// other, in this browser (the list lives in localStorage, by player id, so a new name does
// not slip past it). Nobody is told: the muted player still talks to everyone else.
import {clear, h} from "./dom.js";

const MAX = 300;
const MUTE_KEY = "ladytiger.muted";

/** The players this browser has muted: {id: name as it was when muted}. */
export function mutedPlayers() {
  try {
    const stored = JSON.parse(localStorage.getItem(MUTE_KEY) || "{}");
    return stored && typeof stored === "object" && !Array.isArray(stored) ? stored : {};
  } catch (error) {
    return {};
  }
}

export function setMuted(id, name, on) {
  const muted = mutedPlayers();
  if (on) muted[id] = name;
  else delete muted[id];
  try {
    localStorage.setItem(MUTE_KEY, JSON.stringify(muted));
  } catch (error) {
    // Private windows may refuse storage: the mute then lasts as long as the page.
  }
  return muted;
}

function clock(at) {
  if (!at) return "";
  const when = new Date(at * 1000);
  return when.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
}

/**
 * Wire the chat panel (#chat, #chat-list, #chat-form, #chat-input, #chat-problem).
 * `send(message)` sends over the table socket and says whether it went; `me()` gives
 * {seat, playerId} of this connection.
 */
export function createChat({send, me}) {
  const panel = document.getElementById("chat");
  const list = document.getElementById("chat-list");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  const problem = document.getElementById("chat-problem");
  const button = form.querySelector("button[type=submit]");
  const count = document.getElementById("chat-count");
  const pending = new Map(); // ref -> text, until the server echoes or refuses it
  const seen = new Set();
  const messages = []; // every line heard, so that muting or unmuting can redraw them
  let muted = mutedPlayers();
  let refs = 0;
  const mutedBar = h("p", {class: "chat-muted", id: "chat-muted", hidden: true});
  list.before(mutedBar);

  function showProblem(words) {
    problem.textContent = words || "";
    problem.hidden = !words;
  }

  function scrollDown() {
    list.scrollTop = list.scrollHeight;
  }

  function line(message) {
    const from = message.from || {};
    const seat = from.seat;
    const name = from.player?.name || (seat === null || seat === undefined ? "Someone" : `Seat ${seat}`);
    const mine = from.player?.id && from.player.id === me().playerId;
    const ink = seat === null || seat === undefined ? "watcher-ink" : `seat-colour-${seat}-ink`;
    let mute = null;
    if (from.player?.id && !mine) {
      mute = h("button", {type: "button", class: "chat-mute",
        title: `Hide ${name}'s messages, at this table and every other`,
        "aria-label": `Mute ${name}`}, "Mute");
      mute.addEventListener("click", () => {
        muted = setMuted(from.player.id, name, true);
        redraw();
        input.focus();
      });
    }
    const item = h("li", {class: mine ? "chat-line mine" : "chat-line",
      "data-index": message.index ?? null, "data-player": from.player?.id ?? null},
    h("span", {class: "chat-head"},
      h("b", {class: `chat-name ${ink}`}, name),
      seat === null || seat === undefined ? h("span", {class: "chat-tag"}, "watching") : null,
      h("time", {class: "chat-time"}, clock(message.at)), mute),
    h("span", {class: "chat-text"}));
    // The words themselves: text, whatever they look like.
    item.querySelector(".chat-text").textContent = message.text;
    return item;
  }

  function hidden(message) {
    const id = message.from?.player?.id;
    return Boolean(id && muted[id] !== undefined && id !== me().playerId);
  }

  /** "Muted: Ana (2 lines hidden) · Unmute", for the muted who spoke at this table. */
  function showMuted() {
    clear(mutedBar);
    const spoke = new Map();
    for (const message of messages) {
      if (hidden(message)) {
        const id = message.from.player.id;
        spoke.set(id, (spoke.get(id) || 0) + 1);
      }
    }
    mutedBar.hidden = spoke.size === 0;
    for (const [id, lines] of spoke) {
      const name = muted[id] || "a player";
      const unmute = h("button", {type: "button", class: "chat-unmute",
        "aria-label": `Unmute ${name}`}, "Unmute");
      unmute.addEventListener("click", () => {
        muted = setMuted(id, name, false);
        redraw();
        input.focus();
      });
      mutedBar.append(h("span", {class: "chat-muted-one", "data-player": id},
        `You muted ${name}: ${lines} ${lines === 1 ? "line" : "lines"} hidden. `, unmute));
    }
  }

  function redraw() {
    muted = mutedPlayers();
    clear(list);
    const shown = messages.filter((message) => !hidden(message));
    if (!shown.length) list.append(h("li", {class: "chat-empty"}, "No messages yet. Say hello!"));
    for (const message of shown) list.append(line(message));
    showMuted();
    scrollDown();
  }

  function add(message) {
    if (message.index !== undefined && message.index !== null) {
      if (seen.has(message.index)) return;
      seen.add(message.index);
    }
    messages.push(message);
    if (hidden(message)) {
      showMuted();
      return;
    }
    const empty = list.querySelector(".chat-empty");
    if (empty) empty.remove();
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.append(line(message));
    const mine = message.from?.player?.id && message.from.player.id === me().playerId;
    if (mine) {
      // Our own line came back: it is no longer waiting for a refusal.
      for (const [ref, text] of pending) {
        if (text === message.text) {
          pending.delete(ref);
          break;
        }
      }
    }
    if (atBottom || mine) scrollDown();
  }

  function reset(lines) {
    seen.clear();
    messages.length = 0;
    for (const message of lines || []) {
      if (message.index !== undefined && message.index !== null) seen.add(message.index);
      messages.push(message);
    }
    redraw();
  }

  /** Show or hide the panel: the table may have chat off. */
  function enable(on, why) {
    panel.hidden = !on;
    document.body.dataset.chat = on ? "on" : "off";
    if (!on && why) showProblem(why);
  }

  /** An `error` answering one of our chat lines: put the words back and say why. */
  function refused(message) {
    if (!pending.has(message.ref)) return false;
    const text = pending.get(message.ref);
    pending.delete(message.ref);
    if (!input.value) input.value = text;
    if (message.code === "chat_off") enable(false);
    showProblem(message.message || "The server refused that message.");
    return true;
  }

  function owns(ref) {
    return pending.has(ref);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) {
      showProblem("Write something first.");
      return;
    }
    if ([...text].length > MAX) {
      showProblem(`A message is at most ${MAX} characters.`);
      return;
    }
    refs += 1;
    const ref = `c${refs}`;
    if (!send({type: "chat", text, ref})) {
      showProblem("Not connected: the message was not sent.");
      return;
    }
    pending.set(ref, text);
    input.value = "";
    showProblem(null);
    updateCount();
  });

  function updateCount() {
    const left = MAX - [...input.value].length;
    if (count) {
      count.textContent = left < 60 ? `${left} left` : "";
      count.classList.toggle("low", left < 20);
    }
  }
  input.addEventListener("input", () => {
    showProblem(null);
    updateCount();
  });

  return {add, reset, enable, refused, owns, input, button};
}
