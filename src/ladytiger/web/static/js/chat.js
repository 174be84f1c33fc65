// The table's chat: short text lines between the players and spectators at one table, over
// the table's socket. Every line is somebody's free text, so it only ever goes into the page
// as text nodes (textContent), never as markup.
import {clear, h} from "./dom.js";

const MAX = 300;

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
  let refs = 0;

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
    const item = h("li", {class: mine ? "chat-line mine" : "chat-line",
      "data-index": message.index ?? null},
    h("span", {class: "chat-head"},
      h("b", {class: `chat-name ${ink}`}, name),
      seat === null || seat === undefined ? h("span", {class: "chat-tag"}, "watching") : null,
      h("time", {class: "chat-time"}, clock(message.at))),
    h("span", {class: "chat-text"}));
    // The words themselves: text, whatever they look like.
    item.querySelector(".chat-text").textContent = message.text;
    return item;
  }

  function add(message) {
    if (message.index !== undefined && message.index !== null) {
      if (seen.has(message.index)) return;
      seen.add(message.index);
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
    clear(list);
    seen.clear();
    if (!lines || !lines.length) {
      list.append(h("li", {class: "chat-empty"}, "No messages yet. Say hello!"));
    }
    for (const message of lines || []) add(message);
    scrollDown();
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
