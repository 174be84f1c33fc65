// Hints: on your turn, at a table that allows them, the Hint button asks the server for a
// suggested move (docs/protocol.md, "Hints"). The panel shows the move, the rule of thumb
// behind it and what the search made of it, marks the move on the board, and plays it on
// "Play it". Everything shown comes from the server's `hint` answer for this seat; the
// answer is worked out from what this seat may know only.
import {append, capitalise, h, normalise} from "./dom.js";

const STYLE = `
.hint-button { gap: .35rem; }
.hint-button .hint-bulb { width: 1rem; height: 1rem; flex: none; }
.hint-button[aria-busy="true"] { cursor: progress; }
.hint-panel { display: grid; gap: .55rem; margin-top: .6rem; padding: .75rem .85rem;
  background: #fffaf0; border: 1px solid #ecd3a6; border-left: 4px solid var(--gold, #c99a2e);
  border-radius: var(--radius-sm, 8px); }
.hint-panel:focus { outline: none; }
.hint-panel:focus-visible { box-shadow: var(--focus); }
.hint-head { display: flex; align-items: center; gap: .5rem; }
.hint-head h3 { flex: 1; margin: 0; font-size: .8rem; letter-spacing: .06em; text-transform: uppercase;
  color: #8a6412; }
.hint-close { min-height: 1.8rem; width: 1.8rem; padding: 0; font-size: 1.2rem; line-height: 1; }
.hint-move { margin: 0; font-size: 1.05rem; font-weight: 700; overflow-wrap: anywhere; }
.hint-reason { margin: 0; overflow-wrap: anywhere; }
.hint-search { margin: 0; font-size: .86rem; color: var(--muted, #6b7183); overflow-wrap: anywhere; }
.hint-search.hint-disagrees { color: var(--ink-2, #3b4254); padding: .35rem .5rem; border-radius: 6px;
  background: var(--blue-soft, #e5ecfa); }
.hint-actions { display: flex; flex-wrap: wrap; gap: .45rem; }
.hint-wait { margin: 0; color: var(--muted, #6b7183); }
.hint-problem { margin: 0; color: var(--bad, #b42318); }
[data-move].lt-hinted { outline: 3px solid var(--gold, #c99a2e); outline-offset: 2px;
  box-shadow: 0 0 0 6px rgba(201, 154, 46, .25); }
/* A phone shows the moves panel far below the board: the button floats at the bottom of
   the screen on your turn, and the hint opens as a sheet there, over the board's foot. */
@media (max-width: 900px) {
  .hint-button { position: fixed; right: .75rem; bottom: .75rem; z-index: 55; min-height: 2.6rem;
    padding: .4rem 1rem; border-radius: 999px; border-color: #ecd3a6; background: #fffaf0;
    box-shadow: 0 6px 18px rgba(20, 24, 36, .28); }
  .hint-panel { position: fixed; left: .5rem; right: .5rem; bottom: .5rem; z-index: 56; margin: 0;
    max-height: 55vh; overflow-y: auto; box-shadow: 0 -6px 30px rgba(20, 24, 36, .3); }
}
@media (prefers-reduced-motion: no-preference) {
  .hint-panel { animation: hint-in .18s ease-out; }
  @keyframes hint-in { from { opacity: 0; transform: translateY(-4px); } }
}
`;

// How long the button waits for an answer: the server's search stops after a few seconds.
const PATIENCE_MS = 30_000;

const BULB = '<path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-3.6 10.8c.7.5 1.1 1.3 1.1 2.2h5c0-.9.4-1.7'
  + ' 1.1-2.2A6 6 0 0 0 12 3z" fill="none" stroke="currentColor" stroke-width="1.8"'
  + ' stroke-linecap="round" stroke-linejoin="round"/>';

function addStyle() {
  if (document.getElementById("hint-style")) return;
  document.head.append(h("style", {id: "hint-style"}, STYLE));
}

function bulb() {
  const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  icon.setAttribute("viewBox", "0 0 24 24");
  icon.setAttribute("aria-hidden", "true");
  icon.setAttribute("class", "hint-bulb");
  icon.innerHTML = BULB;
  return icon;
}

/**
 * The Hint button and its panel. `send(message)` sends over the table socket and says
 * whether it went; `onPlay(move)` plays one of the view's `legal_actions`. Optional:
 * `allowed()` says whether the table allows hints (its info's `hints`), `named(text)` puts
 * the players' names on the engine's "Seat N" (a string or a list of text and nodes).
 *
 * Call `offer(view)` with every view (after the board is drawn: the suggested move is
 * marked on it), and hand every `hint` message, and every `error` whose ref `owns(ref)`,
 * to `receive(message)`, which says whether it took the message.
 */
export function createHint({send, onPlay, allowed = () => true, named = (text) => text}) {
  addStyle();
  const button = h("button", {type: "button", class: "hint-button small", id: "hint-button",
    "aria-controls": "hint-panel", "aria-expanded": "false", hidden: true,
    title: "Ask a bot what it would play here, and why"}, bulb(), h("span", {}, "Hint"));
  const panel = h("section", {class: "hint-panel", id: "hint-panel", role: "region",
    "aria-labelledby": "hint-title", "aria-live": "polite", tabindex: "-1", hidden: true});
  let view = null;
  let refs = 0;
  const asking = new Map(); // ref -> the view version it was asked at
  const answers = new Map(); // version -> the server's hint
  let shown = null; // {version, kind: "wait" | "hint" | "problem", ...}

  function words(text) {
    const out = named(text);
    return Array.isArray(out) ? out : [out];
  }

  function sentence(text) {
    const parts = words(text);
    if (typeof parts[0] === "string") parts[0] = capitalise(parts[0]);
    return parts;
  }

  function mine() {
    return Boolean(view && view.status === "playing" && view.your_turn && allowed());
  }

  function moveOf(id) {
    return (view?.legal_actions || []).find((move) => move.id === id) || null;
  }

  function close() {
    shown = null;
    draw();
  }

  function head(title) {
    const shut = h("button", {type: "button", class: "quiet hint-close", "aria-label": "Close the hint",
      title: "Close"}, "×");
    shut.addEventListener("click", () => {
      close();
      button.focus();
    });
    return h("header", {class: "hint-head"}, h("h3", {id: "hint-title"}, title), shut);
  }

  function drawHint(hint) {
    const move = moveOf(hint.action);
    const play = h("button", {type: "button", class: "primary small hint-play",
      "data-hint-play": hint.text}, "Play it");
    play.disabled = !move;
    play.addEventListener("click", () => {
      const chosen = moveOf(hint.action);
      if (!chosen) return;
      close();
      onPlay(chosen);
    });
    const actions = h("div", {class: "hint-actions"}, play);
    const search = hint.search;
    let note = null;
    if (search) {
      note = h("p", {class: search.agrees ? "hint-search" : "hint-search hint-disagrees"});
      append(note, sentence(search.note));
      const other = search.agrees ? null : moveOf(search.action);
      if (other) {
        const alt = h("button", {type: "button", class: "small hint-play-search",
          "data-hint-play": other.text, title: capitalise(other.text)},
        "Play the search's move");
        alt.addEventListener("click", () => {
          close();
          onPlay(other);
        });
        actions.append(alt);
      }
    }
    panel.append(head("Hint"),
      append(h("p", {class: "hint-move"}), sentence(hint.text)),
      append(h("p", {class: "hint-reason"}), sentence(hint.reason)),
      note, actions);
  }

  function draw() {
    panel.replaceChildren();
    const open = Boolean(shown) && mine() && shown.version === view.version;
    panel.hidden = !open;
    button.setAttribute("aria-expanded", open ? "true" : "false");
    const waiting = open && shown.kind === "wait";
    button.disabled = waiting;
    button.setAttribute("aria-busy", waiting ? "true" : "false");
    button.querySelector("span").textContent = waiting ? "Thinking…" : "Hint";
    mark(open && shown.kind === "hint" ? shown.hint.text : null);
    if (!open) return;
    panel.dataset.state = shown.kind;
    if (shown.kind === "wait") {
      panel.append(head("Hint"), h("p", {class: "hint-wait"}, "Thinking about your move…"));
    } else if (shown.kind === "problem") {
      panel.append(head("No hint"), append(h("p", {class: "hint-problem"}), sentence(shown.message)));
    } else drawHint(shown.hint);
  }

  /** The suggested move's controls on the board glow while the hint is open. */
  function mark(text) {
    for (const element of document.querySelectorAll("[data-move].lt-hinted")) {
      element.classList.remove("lt-hinted");
    }
    if (!text) return;
    const wanted = normalise(text);
    for (const element of document.querySelectorAll("[data-move]")) {
      if (normalise(element.dataset.move) === wanted && !panel.contains(element)) {
        element.classList.add("lt-hinted");
      }
    }
  }

  function ask() {
    if (!mine()) return;
    const version = view.version;
    const known = answers.get(version);
    if (known) {
      shown = {version, kind: "hint", hint: known};
      draw();
      panel.focus({preventScroll: true});
      return;
    }
    refs += 1;
    const ref = `hint${refs}`;
    if (!send({type: "hint", ref})) {
      shown = {version, kind: "problem", message: "Not connected: the hint was not asked for."};
      draw();
      return;
    }
    asking.set(ref, version);
    shown = {version, kind: "wait"};
    draw();
    // An answer lost with the connection must not leave the button thinking for good.
    setTimeout(() => {
      if (!asking.has(ref)) return;
      asking.delete(ref);
      if (shown && shown.kind === "wait" && shown.version === version) {
        shown = {version, kind: "problem", message: "No answer came from the server; ask again."};
        draw();
      }
    }, PATIENCE_MS);
  }

  button.addEventListener("click", () => {
    if (shown && view && shown.version === view.version && shown.kind !== "wait") close();
    else ask();
  });

  /** A new view (or the same one drawn again): the button follows the turn, and a hint
   * for an earlier position goes away. */
  function offer(next) {
    view = next;
    button.hidden = !mine();
    if (shown && (!view || shown.version !== view.version)) shown = null;
    for (const version of answers.keys()) {
      if (!view || version !== view.version) answers.delete(version);
    }
    draw();
  }

  /** A `hint` answer, or an `error` answering a hint request; false for anything else. */
  function receive(message) {
    if (!message || !asking.has(message.ref)) return false;
    const version = asking.get(message.ref);
    asking.delete(message.ref);
    if (message.type === "hint") {
      answers.set(message.version, message);
      if (shown && shown.version === message.version) {
        shown = {version: message.version, kind: "hint", hint: message};
        draw();
      }
      return true;
    }
    if (message.type === "error") {
      if (shown && shown.version === version && message.code !== "stale_version") {
        shown = {version, kind: "problem", message: message.message || "No hint now."};
        draw();
      } else if (shown && shown.version === version) close();
      return true;
    }
    return false;
  }

  function owns(ref) {
    return asking.has(ref);
  }

  return {button, panel, offer, receive, owns};
}
