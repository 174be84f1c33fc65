// What the table page and the replay viewer share: loading a game's view module, the context
// a view draws with, the players list and the log.
import {card} from "./cards.js";
import {botLabel} from "./bots.js";
import {clear, h, normalise, seatNumber} from "./dom.js";
import * as generic from "./generic.js";

const modules = new Map();

/** The game's view module, or the generic view if it has none (or it fails to load). */
export async function loadView(game) {
  if (modules.has(game)) return modules.get(game);
  let module = generic;
  let own = false;
  try {
    const loaded = await import(`/static/games/${encodeURIComponent(game)}.js`);
    if (typeof loaded.render === "function") {
      module = loaded;
      own = true;
    }
  } catch (error) {
    console.info(`no view module for ${game}; using the generic view`, error);
  }
  if (own) await loadStyle(`/static/games/${encodeURIComponent(game)}.css`);
  const entry = {module, own};
  modules.set(game, entry);
  return entry;
}

async function loadStyle(href) {
  try {
    const answer = await fetch(href, {method: "HEAD"});
    if (!answer.ok) return;
  } catch (error) {
    return;
  }
  await new Promise((resolve) => {
    const link = h("link", {rel: "stylesheet", href});
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
}

/**
 * Draw `view` into `root` with the game's module. A module that throws is replaced by the
 * generic view for this render, and the failure is reported through `onError`.
 */
export function drawView(root, entry, view, ctx, onError) {
  const game = view.observation?.game || "game";
  const reset = () => {
    clear(root);
    root.className = `game-view game-${game}`;
  };
  reset();
  try {
    entry.module.render(root, view, ctx);
  } catch (error) {
    console.error("the game view failed", error);
    reset();
    generic.render(root, view, ctx);
    if (onError) onError(error);
  }
}

// What each game's scores count. Favor scores points (its gems are what players bid with).
export const SCORE_UNITS = {
  doors: "gems", favor: "points", traps: "gems", shady_lady: "points", tighee: "points",
};

/**
 * "You", or the seat's name at the table ("Ana", "Random bot"), or "Seat 2" when nobody has
 * named it. `names`: the table's names by seat, if known.
 */
export function seatNamer(mySeat, names) {
  return (seat) => {
    if (seat === mySeat && mySeat !== null && mySeat !== undefined) return "You";
    const name = names?.[seat];
    if (!name) return `Seat ${seat}`;
    // Someone called "You" must not pass for the reader in the views' sentences.
    return name.trim().toLowerCase() === "you" ? `${name} (seat ${seatNumber(seat)})` : name;
  };
}

/** The names a table's seats go by (the server's, suffixed apart), or null if none has one. */
export function tableNames(seats) {
  if (!Array.isArray(seats)) return null;
  const names = seats.map((seat, index) => seat?.player?.name || seat?.name || `Seat ${index}`);
  return names.some((name, index) => name !== `Seat ${index}`) ? names : null;
}

/**
 * The binder behind ctx.bind. `moves`: Map(normalised text -> legal action) of this seat
 * now; `play(action)`; `explain(text, element, purpose)`: find out why `text` cannot be
 * played, and show it where the player will see it if `purpose` is "click" or "key" (the
 * control was used), or only in its tooltip if "look" (hovered or focused: nobody asked).
 * `reasonOf(text)`, if given, is a reason already known, for the tooltip from the start.
 */
export function makeBinder({moves, play, explain, reasonOf = null, describe = (text) => text}) {
  return function bind(element, moveText) {
    const key = normalise(moveText);
    const action = moves.get(key);
    element.dataset.move = moveText;
    // What a person reads of the move (its seats by name); data-move keeps the engine's text.
    const label = describe(moveText);
    const native = element.matches("button, a[href], input, select, textarea");
    if (!native) {
      element.setAttribute("role", "button");
      element.tabIndex = 0;
    }
    if (element.getAttribute("role") === "button" && element.hasAttribute("aria-label")) {
      element.setAttribute("aria-label", label);
    } else if (!element.textContent.trim()) {
      element.setAttribute("aria-label", label);
    }
    if (action) {
      element.classList.add("move");
      element.classList.remove("disabled");
      element.removeAttribute("aria-disabled");
      if (!element.title || element.title === element.getAttribute("aria-label")) {
        element.title = label;
      }
      element.addEventListener("click", (event) => {
        event.preventDefault();
        play(action, element);
      });
      if (!native) {
        element.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            play(action, element);
          }
        });
      }
    } else {
      element.classList.add("disabled");
      element.classList.remove("move");
      element.setAttribute("aria-disabled", "true");
      // The tooltip explains the control before anyone asks: a known reason says why; the
      // rest say so until hovering or focusing brings the rules' own words.
      if (reasonOf) {
        const known = reasonOf(moveText);
        const words = label[0].toUpperCase() + label.slice(1);
        element.title = known ? `${words}: ${known}` : `${words}: not possible now`;
      }
      // Hovering or focusing only fills in the tooltip: a card that slides under a resting
      // mouse after a move must not answer with a refusal nobody asked for.
      const look = () => explain(moveText, element, "look");
      element.addEventListener("mouseenter", look);
      element.addEventListener("focus", look);
      element.addEventListener("click", (event) => {
        event.preventDefault();
        explain(moveText, element, "click");
      });
      if (!native) {
        element.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            explain(moveText, element, "key");
          }
        });
      }
    }
    return element;
  };
}

/** The context a view draws with (the contract in the UI notes). */
export function makeContext({seat, bind, lastMove, names, extra = {}}) {
  return {
    seat,
    bind,
    card,
    seatName: seatNamer(seat, names),
    lastMove,
    ...extra,
  };
}

// ------------------------------------------------------------------ players
export function renderPlayers(list, {seats, observation, mySeat, presence, winners, viewer,
  lastMoves = null, over = false, ratings = null}) {
  clear(list);
  const names = tableNames(presence || seats);
  const scores = observation?.scores || [];
  const count = Math.max(seats?.length || 0, scores.length);
  // `over`: the table ended before the game did (a resignation): nobody is to move.
  const toMove = observation && !observation.terminal && !over ? observation.current_player : null;
  const unit = SCORE_UNITS[observation?.game] || "";
  for (let seat = 0; seat < count; seat += 1) {
    const plan = seats?.[seat] || {kind: "human"};
    const live = presence?.[seat] || plan;
    let kind;
    if (plan.kind === "bot") kind = botLabel(plan);
    else if (!presence) kind = "human";
    // The reader is here by definition, even before the server's next presence says so.
    else if (live.connected || seat === mySeat) kind = "human · here";
    else if (live.joined) kind = live.stand_in ? "human · away · a bot stands in" : "human · away";
    else kind = live.open ? "open seat" : "human · invited";
    const classes = ["player"];
    if (seat === toMove) classes.push("to-move");
    if (seat === mySeat) classes.push("me");
    if (winners && winners.includes(seat)) classes.push("winner");
    if (viewer !== undefined && viewer !== null && seat === viewer) classes.push("viewer");
    const connected = plan.kind === "bot" || !presence ? "bot"
      : (live.connected || seat === mySeat ? "on" : "off");
    // An open seat nobody holds yet is named "Seat N" by the server, in its own count.
    const name = !names ? null
      : (names[seat] === `Seat ${seat}` ? `Seat ${seatNumber(seat)}` : names[seat]);
    let title;
    let detail;
    if (name) {
      // The name leads; the seat number stays, as the order of play.
      title = name;
      const what = plan.kind === "bot" ? botLabel(plan)
        : (seat === mySeat ? kind.replace(/^human · /, "") : kind);
      // The avatar shows the seat's number already: a narrow screen drops it from the words.
      detail = seat === mySeat
        ? ["You", h("span", {class: "seat-where"}, ` · seat ${seatNumber(seat)}`), ` · ${what}`]
        : [h("span", {class: "seat-where"}, `seat ${seatNumber(seat)} · `), what];
    } else {
      title = seat === mySeat ? `You · seat ${seat}` : `Seat ${seat}`;
      detail = kind;
    }
    list.append(h("li", {class: classes.join(" "), "data-seat": seat,
      "data-player": (live.player || plan.player)?.id ?? null},
      h("span", {class: `avatar seat-colour-${seat}`, "aria-hidden": "true"},
        names ? seatNumber(seat) : seat),
      h("span", {class: "who"},
        h("span", {class: "name-line"},
          h("b", {class: "name", title: name || null}, title),
          ratingBadge(ratings?.[seat], observation?.game)),
        h("span", {class: "kind"},
          connected === "bot" ? null : h("span", {class: `dot ${connected}`}), detail,
          // Where a phone has no room beside the name, the rating ends this line instead.
          ratings?.[seat]?.games ? h("span", {class: "rating-inline", "aria-hidden": "true"},
            ` · ${Math.round(ratings[seat].rating)}`) : null,
          classes.includes("viewer") ? " · this view" : null),
        lastMoves?.[seat] ? h("span", {
          class: `player-last${lastMoves[seat].since ? " since" : ""}`,
          title: lastMoves[seat].since ? "Their last move, since yours" : "Their last move"},
        namedText(lastMoves[seat].words, mySeat, names)) : null),
      seat === toMove ? h("span", {class: "to-move-mark"}, "to move") : null,
      winners && winners.includes(seat) ? h("span", {class: "winner-mark"}, "winner") : null,
      h("span", {class: "score", title: unit ? `${scores[seat] ?? 0} ${unit}` : "score"},
        h("b", {}, scores[seat] ?? "–"), unit ? h("small", {}, unit) : null)));
  }
}

/** A seat's rating on this game beside its name, as the leaderboard shows it. */
function ratingBadge(rated, game) {
  if (!rated || !rated.games) return null;
  const shown = Math.round(rated.rating);
  return h("small", {class: "rating-badge",
    title: `Rating on this game: ${shown} after ${rated.games} rated game${rated.games === 1 ? "" : "s"}`,
    "data-game": game || null}, String(shown));
}

// ------------------------------------------------------------------ log
// A sentence about a seat: "Seat 2 draws a card." or, for the reader's own seat, "You ...".
const SEAT_LINE = /^(?:Seat (\d+)|You)\b\s*(.*)$/;
const SEAT_REF = /\b[Ss]eat (\d+)\b/g;

/**
 * The engine's words with each "seat N" it names shown as that seat's name, in the seat's
 * colour. Built from text nodes: a name is never read as markup. The reader's own seat keeps
 * its number ("seat 1 (you)"), which is what the game's own texts call it.
 */
export function namedText(text, mySeat, names) {
  if (!names) return [text];
  const parts = [];
  let at = 0;
  for (const match of text.matchAll(SEAT_REF)) {
    const seat = Number(match[1]);
    const name = names[seat];
    if (!name && seat !== mySeat) continue;
    parts.push(text.slice(at, match.index));
    if (seat === mySeat) {
      parts.push(h("b", {class: `who seat-colour-${seat}-ink`}, match[0]), " (you)");
    } else {
      parts.push(h("b", {class: `who seat-colour-${seat}-ink`}, name));
    }
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  return parts.filter((part) => part !== "");
}

/**
 * namedText for words told in the third person (a moment: "Seat 1 takes the trick"): the
 * reader's own seat goes by their name marked "(you)", and "Seat 0's stack" becomes "your
 * stack", which reads right where "You" in place of a name would not ("You takes").
 */
export function namedThirdPerson(text, mySeat, names) {
  if (mySeat === null || mySeat === undefined || !names?.[mySeat]) return namedText(text, null, names);
  const parts = [];
  let at = 0;
  for (const match of text.matchAll(SEAT_REF)) {
    const seat = Number(match[1]);
    if (seat !== mySeat) continue;
    parts.push(...namedText(text.slice(at, match.index), null, names));
    const end = match.index + match[0].length;
    const ink = `who seat-colour-${seat}-ink`;
    if (text.startsWith("'s", end)) {
      parts.push(h("b", {class: ink}, match.index === 0 ? "Your" : "your"));
      at = end + 2;
    } else {
      parts.push(h("b", {class: ink}, names[seat]), " (you)");
      at = end;
    }
  }
  parts.push(...namedText(text.slice(at), null, names));
  return parts.filter((part) => part !== "");
}

function logLine(text, mySeat, names) {
  const match = SEAT_LINE.exec(text);
  const seat = match ? (match[1] === undefined ? mySeat : Number(match[1])) : null;
  if (seat === null || seat === undefined) {
    return h("li", {class: "event"}, namedText(text, mySeat, names));
  }
  const who = seat === mySeat ? "You" : (names?.[seat] || `Seat ${seat}`);
  return h("li", {class: `move-line seat-colour-${seat}-text`},
    h("b", {class: `who seat-colour-${seat}-ink`}, who), " ",
    namedText(match[2], mySeat, names));
}

/**
 * Keep `list` showing `lines`, appending what is new; lines added by this call are marked
 * fresh and the last one is the last move.
 */
export function renderLog(list, lines, mySeat, names = null) {
  const shown = list._lines || [];
  // New names (a player took a seat, or renamed) redraw every line.
  const named = JSON.stringify([mySeat ?? null, names]);
  const extends_ = list._named === named && shown.length <= lines.length
    && shown.every((line, i) => line === lines[i]);
  list._named = named;
  let start = shown.length;
  if (!extends_) {
    clear(list);
    start = 0;
  }
  for (const old of list.querySelectorAll(".fresh, .last")) old.classList.remove("fresh", "last");
  for (let i = start; i < lines.length; i += 1) {
    const previous = list.lastElementChild;
    if (i > 0 && previous && lines[i] === lines[i - 1]) {
      // The same line again (five cards put out face down): one line with its count, so
      // the moves that matter are not scrolled away by repetition.
      const times = Number(previous.dataset.times || 1) + 1;
      previous.dataset.times = String(times);
      const count = previous.querySelector(".times")
        || previous.appendChild(h("span", {class: "times"}));
      count.textContent = ` ×${times}`;
      if (extends_ && shown.length) previous.classList.add("fresh");
      continue;
    }
    const item = logLine(lines[i], mySeat, names);
    if (extends_ && shown.length) item.classList.add("fresh");
    list.append(item);
  }
  if (list.lastElementChild) list.lastElementChild.classList.add("last");
  list._lines = lines.slice();
  const scroller = list.closest(".log-scroll") || list;
  scroller.scrollTop = scroller.scrollHeight;
}

/** The most recent line in which a seat made a move ("seat 1: take Red Lady"). */
export function lastSeatMove(lines) {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (SEAT_LINE.test(lines[i])) return lines[i];
  }
  return null;
}

/**
 * Each other seat's latest move in the log: {words, since} by seat, `words` the sentence
 * without its subject ("takes the Red Lady."), `since` whether it came after the reader's own
 * latest move.
 */
export function lastMovesBySeat(lines, mySeat) {
  const found = {};
  let mine = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const match = SEAT_LINE.exec(lines[i]);
    if (!match) continue;
    if (match[1] === undefined) {
      if (mine < 0) mine = i;
      continue;
    }
    const seat = Number(match[1]);
    if (seat === mySeat || seat in found) continue;
    found[seat] = {words: match[2], at: i};
  }
  for (const entry of Object.values(found)) {
    entry.since = mySeat !== null && mySeat !== undefined && entry.at > mine;
  }
  return found;
}
