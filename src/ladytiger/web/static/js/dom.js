// Small DOM helpers shared by every page: build elements without innerHTML.

/**
 * h("button", {class: "x", onclick: fn, dataset: {move: "end turn"}}, "text", child, ...)
 * Attributes whose value is null, undefined or false are left out; `text` sets the text.
 */
export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "text") element.textContent = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "style" && typeof value === "object") Object.assign(element.style, value);
    else if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** An inline SVG from a viewBox and path/shape markup of our own (never from the server). */
export function svg(viewBox, markup, attrs = {}) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  element.setAttribute("viewBox", viewBox);
  element.setAttribute("aria-hidden", "true");
  element.setAttribute("focusable", "false");
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  element.innerHTML = markup;
  return element;
}

/** el("span", "cls", "text"): the short form the game views build most elements with. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

/** One SVG element (`circle`, `path`, ...) with its attributes. */
export function svgElement(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

export function clear(element) {
  while (element.firstChild) element.firstChild.remove();
  return element;
}

/** "seat 1" -> "Seat 1"; keeps the rest of a sentence as the engine wrote it. */
export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function plural(count, noun, many = noun + "s") {
  return `${count} ${count === 1 ? noun : many}`;
}

/** Compare move texts as the server does: case and spacing do not matter. */
export function normalise(text) {
  return String(text).trim().split(/\s+/).join(" ").toLowerCase();
}

export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

/** A read-only text field with a Copy button beside it (invite links, personal links). */
export function copyControl(label, value, id, share = null) {
  const input = h("input", {type: "text", readonly: true, value, id, class: "copy-input",
    "aria-label": label, spellcheck: "false"});
  input.addEventListener("focus", () => input.select());
  const button = h("button", {type: "button", class: "small", "data-copy": id}, "Copy");
  button.addEventListener("click", async () => {
    let done = false;
    try {
      await navigator.clipboard.writeText(input.value);
      done = true;
    } catch (error) {
      // The clipboard API needs a secure context; selecting the text still lets one copy.
      input.focus();
      input.select();
      try {
        done = document.execCommand("copy");
      } catch (ignored) {
        done = false;
      }
    }
    button.textContent = done ? "Copied" : "Select and copy";
    setTimeout(() => { button.textContent = "Copy"; }, 1800);
  });
  // `share` ({title, text}): where the device can hand a link to its own apps (a phone's
  // share sheet), a link meant for someone else offers that too. A seat's own link never does.
  const canShare = share && typeof navigator.share === "function";
  const sharer = canShare ? h("button", {type: "button", class: "small", "data-share": id,
    "aria-label": `Share: ${label}`}, "Share…") : null;
  sharer?.addEventListener("click", async () => {
    try {
      await navigator.share({title: share.title, text: share.text, url: input.value});
    } catch (error) {
      // Closing the share sheet is not an error worth a word; anything else, Copy still works.
    }
  });
  return h("div", {class: "copy-row"}, input, button, sharer);
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", or the date. */
export function ago(seconds) {
  if (!seconds) return "";
  const delta = Math.max(0, Date.now() / 1000 - seconds);
  if (delta < 60) return "just now";
  if (delta < 3600) return `${Math.floor(delta / 60)} min ago`;
  if (delta < 86400) return `${Math.floor(delta / 3600)} h ago`;
  if (delta < 86400 * 14) return plural(Math.floor(delta / 86400), "day") + " ago";
  return new Date(seconds * 1000).toLocaleDateString();
}

/** The seats with the best return, if anyone won (a return above 0). */
export function winnersOf(returns) {
  if (!returns || !returns.length) return [];
  const best = Math.max(...returns);
  return best > 0 ? returns.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0) : [];
}

/** A seat's name as the server gives it (a player's, a bot's), else "Seat N". */
export function seatDisplayName(seats, seat) {
  const entry = seats?.[seat];
  const name = entry?.player?.name || entry?.name;
  // The server names a seat nobody holds "Seat N" in its own count, from 0.
  return name && name !== `Seat ${seat}` ? name : `Seat ${seatNumber(seat)}`;
}

/** A move clock's length, short: "20 s", "3 min", "6 h", "1 day". */
export function clockWords(seconds) {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h`;
  return plural(Math.round(seconds / 86400), "day");
}

/**
 * A seat's rating change after a rated game, as shown beside its result: "+12" or "−7"
 * (a true minus sign), from the whole ratings shown, so it adds up with the two numbers.
 */
export function ratingDelta(change) {
  const delta = Math.round(change.after) - Math.round(change.before);
  return delta > 0 ? `+${delta}` : delta < 0 ? `\u2212${-delta}` : "±0";
}

/** "Your rating: 1000 → 1137 (+137)", or null when the seat was not rated. */
export function ratingWords(change, whose = "Your rating") {
  if (!change) return null;
  return `${whose}: ${Math.round(change.before)} \u2192 ${Math.round(change.after)} `
    + `(${ratingDelta(change)})`;
}

/** "rating +12" for a listed game's seat, or null when that seat was not rated. */
export function ratingNote(game, seat) {
  const change = (game.ratings || []).find((entry) => entry.seat === seat);
  return change ? `rating ${ratingDelta(change)}` : null;
}

/**
 * A seat as players count it: the first seat is seat 1. The protocol, the engine's move texts
 * and the terminal count from 0, but a person at a table does not, so every number the page
 * itself prints goes through here (the engine's own words name seats by their players).
 */
export function seatNumber(seat) {
  return Number(seat) + 1;
}

/**
 * A player's wins on one game as a table cell: "7 (58%)". `tallied` is how many of their
 * rated games were counted for wins; a database older than the count holds fewer of them
 * than `games`, and the cell says so rather than pass the share off as the whole record.
 */
export function winsCell(entry) {
  const {wins = 0, tallied = 0, games = 0} = entry;
  if (!tallied) {
    return h("td", {class: "num wins", title: "Played before wins were counted"}, "–");
  }
  const share = `${wins} (${Math.round((100 * wins) / tallied)}%)`;
  const title = tallied < games
    ? `Won ${wins} of the last ${tallied} games; the ${games - tallied} before were played before wins were counted`
    : `Won ${wins} of ${plural(tallied, "rated game")}`;
  return h("td", {class: "num wins", title}, share, tallied < games ? "*" : null);
}
