// Moments: when a move ends a contest, a day, a season, a round or a trick, calls Try! or
// Jack!, or ends the game, the server's view carries `moment` ({kind, title, lines}, the
// same for every reader). The table shows it in a panel that stays in view (the board may be
// scrolled anywhere, and the bots move on soon), with the cards that moment turned face up.
// The panel goes when the reader closes it (its button, Escape, a click elsewhere) or after
// a few seconds (longer or shorter by the reader's own speed); closing tells the server, so
// the bots need not wait any longer for this reader.
import {capitalise, h} from "./dom.js";
import {SCORE_UNITS} from "./frame.js";
import {onSpeed, shownFor, speedControl} from "./speed.js";
import {keepSwitch, switchOn} from "./switches.js";

// What each kind of moment is called above its title. Kinds the engines add later are shown
// by their own name.
const KINDS = {
  contest_end: "Contest over", day_end: "Day over", season_end: "Season over",
  round_end: "Round over", trick: "Trick", try: "Try!", jack: "Jack!", game_end: "Game over",
};
// How long a moment stays, at the normal speed: a trick is seen at a glance; an end of
// round has scores and cards to read.
const SHOWN_MS = {trick: 3000, default: 6500};
// A trick ends every few moves: a player who follows the tricks on the board may not want a
// panel over it each time. The end of a round and of the game still come up.
const TRICKS_KEY = "ladytiger.trickPanels";

/**
 * The panel and its queue. `send(message)` talks to the server; `context()` gives what the
 * drawing needs now: {seat, seatName, card, named(text) -> nodes}.
 */
export function createMoments({send, context, tableId, onShow = null}) {
  const queue = [];
  let shown = null; // {version, moment, view, before, panel, timer}
  let trickPanels = switchOn(TRICKS_KEY, true);
  // The preference under the moves: hidden until this game has shown a trick.
  const trickBox = h("input", {type: "checkbox", id: "trick-panels"});
  trickBox.checked = trickPanels;
  trickBox.addEventListener("change", () => setTrickPanels(trickBox.checked));
  const trickToggle = h("label", {class: "confirm-toggle trick-toggle", for: "trick-panels",
    hidden: true, title: "Off: each trick is shown on the board and in the log only; the end "
      + "of a round still comes up"}, trickBox, " Show each trick in a panel");
  const storeKey = `ladytiger.moment.${tableId}`;
  // A live region present from the start: a screen reader announces what changes in it,
  // not a panel that appears with its words already in place.
  const announcer = h("div", {class: "visually-hidden", "aria-live": "polite",
    id: "moment-announce"});
  document.body.append(announcer);

  // Moments this browser has already closed at this table: a reload does not show them again.
  function lastClosed() {
    try {
      return Number(sessionStorage.getItem(storeKey) || -1);
    } catch (error) {
      return -1;
    }
  }

  function remember(version) {
    try {
      if (version > lastClosed()) sessionStorage.setItem(storeKey, String(version));
    } catch (error) {
      // Without storage, a reload may show the last moment once more.
    }
  }

  /** A new view arrived; `before` is the observation shown until now (null at first). */
  function offer(view, before, {first = false} = {}) {
    const moment = view.moment;
    if (!moment || typeof moment !== "object") return;
    const version = view.version;
    if (version <= lastClosed()) return;
    if ((shown && shown.version === version) || queue.some((item) => item.version === version)) return;
    if (moment.kind === "trick") {
      trickToggle.hidden = false;
      if (!trickPanels) {
        skip(version);
        return;
      }
    }
    // A finished game opened afresh: its end summary says it all.
    if (first && view.status === "finished") {
      remember(version);
      return;
    }
    queue.push({version, moment, view, before});
    if (!shown) next();
  }

  function next() {
    const item = queue.shift();
    if (!item) {
      shown = null;
      document.body.dataset.moment = "";
      return;
    }
    shown = item;
    draw(item);
  }

  function draw(item) {
    const ctx = context();
    const {moment, view, before} = item;
    const o = view.observation || {};
    const kind = String(moment.kind || "");
    const label = KINDS[kind] || capitalise(kind.replaceAll("_", " ")) || "What happened";
    const close = h("button", {type: "button", class: "quiet small moment-close",
      "aria-label": "Close", title: "Close (Esc)"}, "×");
    const ok = h("button", {type: "button", class: "primary small moment-ok"},
      "Continue", h("kbd", {}, "Esc"));
    close.addEventListener("click", () => dismiss());
    ok.addEventListener("click", () => dismiss());
    const lines = (moment.lines || []).filter((line) => line && line !== moment.title);
    const bar = h("span", {class: "moment-bar"});
    const panel = h("section", {
      id: "moment", class: `moment moment-${kind.replace(/[^a-z0-9_-]/gi, "")}`,
      role: "region", "aria-labelledby": "moment-title",
      "data-kind": kind, "data-version": item.version},
    h("header", {class: "moment-head"},
      h("div", {class: "moment-heading"},
        h("p", {class: "eyebrow moment-kind"}, label),
        h("h2", {id: "moment-title"}, sentence(ctx.named(moment.title || label)))),
      close),
    lines.length ? h("ul", {class: "moment-lines"},
      lines.map((line) => h("li", {}, sentence(ctx.named(String(line)))))) : null,
    reveal(o, before, kind, ctx),
    kind === "trick" ? h("p", {class: "moment-option"}, stopTricks()) : null,
    h("footer", {class: "moment-foot"},
      // Where a reader finds the panel goes too fast (or too slow), they can say so.
      speedControl({label: "Show"}),
      h("span", {class: "moment-timer", "aria-hidden": "true"}, bar), ok));
    const old = document.getElementById("moment");
    if (old) old.replaceWith(panel);
    else document.body.append(panel);
    item.panel = panel;
    announcer.textContent = `${label}: ${panel.querySelector("#moment-title").textContent}. `
      + "Escape closes it.";
    place(panel);
    document.body.dataset.moment = kind || "moment";
    if (onShow) onShow(kind);
    countdown(item);
  }

  function stopTricks() {
    const button = h("button", {type: "button", class: "moment-no-tricks"},
      "Follow tricks on the board only");
    button.addEventListener("click", () => {
      setTrickPanels(false);
      dismiss();
    });
    return button;
  }

  /** Seen at once: the bots need not wait for a panel this reader does not want. */
  function skip(version) {
    remember(version);
    send({type: "seen", version});
  }

  function setTrickPanels(on) {
    trickPanels = on;
    trickBox.checked = on;
    keepSwitch(TRICKS_KEY, on);
    if (on) return;
    // Tricks already waiting their turn behind the panel shown go too.
    for (const item of queue.filter((waiting) => waiting.moment.kind === "trick")) {
      queue.splice(queue.indexOf(item), 1);
      skip(item.version);
    }
  }

  /** It goes by itself: a reader who wants longer chooses a slower speed. (Holding it
   * while the pointer rests on it would keep it for good under a mouse left where the
   * last card was.) */
  function countdown(item) {
    clearTimeout(item.timer);
    const lasts = shownFor(SHOWN_MS[item.moment.kind] || SHOWN_MS.default);
    item.timer = setTimeout(() => dismiss(item.version), lasts);
    const bar = item.panel.querySelector(".moment-bar");
    bar.style.transition = "none";
    bar.style.transform = "scaleX(1)";
    void bar.offsetWidth; // the full bar is drawn before its countdown starts
    bar.style.transition = `transform ${lasts}ms linear`;
    bar.style.transform = "scaleX(0)";
  }

  // A new speed starts the moment's countdown afresh at its new length.
  onSpeed(() => {
    if (shown) countdown(shown);
  });

  /** Close the moment shown (or only the one of `version`), tell the server, show the next. */
  function dismiss(version) {
    if (!shown || (version !== undefined && version !== shown.version)) return false;
    const item = shown;
    clearTimeout(item.timer);
    item.timer = null;
    item.panel.remove();
    remember(item.version);
    send({type: "seen", version: item.version});
    next();
    return true;
  }

  // Escape closes it from anywhere; a press or click elsewhere on the page closes it too,
  // and still does what it was meant to do (play a card, open a menu).
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && shown) {
      event.preventDefault();
      dismiss();
    }
  });
  document.addEventListener("pointerdown", (event) => {
    // The top bar's speed is the one thing worth changing without closing it.
    if (shown && !shown.panel.contains(event.target) && !event.target.closest?.(".speed")) {
      dismiss();
    }
  }, true);
  window.addEventListener("resize", () => {
    if (shown) place(shown.panel);
  });

  return {offer, dismiss, current: () => shown, trickToggle};
}

/** Over the middle of the board on a wide screen; a sheet at the bottom of a phone. */
function place(panel) {
  const board = document.getElementById("game-root") || document.querySelector(".board");
  const wide = window.matchMedia("(min-width: 901px)").matches;
  if (wide && board) {
    const box = board.getBoundingClientRect();
    const middle = box.width > 0 ? box.left + box.width / 2 : window.innerWidth / 2;
    panel.style.setProperty("--moment-x", `${Math.round(middle)}px`);
  } else panel.style.removeProperty("--moment-x");
}

/** The engine's words as a sentence: named seats, a capital first letter. */
function sentence(parts) {
  const list = [...parts];
  if (typeof list[0] === "string") list[0] = capitalise(list[0]);
  return list;
}

// ------------------------------------------------------------------ what the moment reveals
function grew(o, before, key) {
  const now = Array.isArray(o[key]) ? o[key].length : 0;
  if (!now) return false;
  const then = before && Array.isArray(before[key]) ? before[key].length : 0;
  return !before || now > then;
}

function reveal(o, before, kind, ctx) {
  const drawer = REVEALS[o.game];
  let shown = null;
  try {
    shown = drawer ? drawer(o, before, kind, ctx) : null;
  } catch (error) {
    console.error("the moment's cards could not be drawn", error);
    shown = null;
  }
  const board = scores(o, before, kind, ctx);
  if (!shown && !board) return null;
  return h("div", {class: "moment-reveal"}, shown, board);
}

/** Each seat's score, with what this moment changed. */
function scores(o, before, kind, ctx) {
  const now = o.scores;
  if (!Array.isArray(now) || now.length < 2) return null;
  const then = before?.scores;
  const changed = Array.isArray(then) && then.some((value, seat) => value !== now[seat]);
  if (!changed && kind !== "game_end") return null;
  const unit = SCORE_UNITS[o.game] || "";
  return h("ol", {class: "moment-scores", "aria-label": "Scores"}, now.map((score, seat) => {
    const delta = changed ? score - (then[seat] ?? score) : 0;
    return h("li", {class: delta ? "moment-gained" : null, "data-seat": seat},
      h("span", {class: `moment-who seat-colour-${seat}-ink`}, ctx.seatName(seat)),
      h("b", {}, String(score)), unit ? h("small", {}, unit) : null,
      delta ? h("span", {class: `moment-delta ${delta > 0 ? "up" : "down"}`},
        delta > 0 ? `+${delta}` : String(delta)) : null);
  }));
}

/** A seat and the cards it showed: its name over a row of cards and a note. */
function seatCards(ctx, seat, cards, {note = null, mark = false, size = "sm"} = {}) {
  return h("figure", {class: `moment-seat${mark ? " moment-mark" : ""}`, "data-seat": seat},
    h("div", {class: "moment-cards"}, cards.length
      ? cards.map((name) => ctx.card(name, {size}))
      : h("span", {class: "moment-none"}, "nothing shown")),
    h("figcaption", {}, h("b", {class: `seat-colour-${seat}-ink`}, ctx.seatName(seat)),
      note ? h("span", {}, note) : null));
}

// Each game's drawing of what its moments turn face up, from the view's own observation.
const REVEALS = {};

REVEALS.doors = (o, before, kind, ctx) => {
  if (!grew(o, before, "past_contests")) return null;
  const last = o.past_contests[o.past_contests.length - 1];
  return h("div", {class: "moment-row", "aria-label": "The Door cards"},
    last.identities.map((name, seat) => seatCards(ctx, seat, [name], {size: "md",
      mark: seat === last.winner,
      note: `${seat === last.collector ? "Collector" : "Guesser"} · the ${name}`
        + (seat === last.winner ? ` · +${last.gems} gems` : "")})));
};

REVEALS.favor = (o, before, kind, ctx) => {
  if (!grew(o, before, "past_days")) return null;
  const day = o.past_days[o.past_days.length - 1];
  return h("div", {class: "moment-row", "aria-label": "Who was who"},
    day.identities.map((name, seat) => seatCards(ctx, seat, [name], {
      mark: Math.max(...day.totals) === day.totals[seat],
      note: `${day.points[seat]} point${day.points[seat] === 1 ? "" : "s"} · total ${day.totals[seat]}`})));
};

REVEALS.traps = (o, before, kind, ctx) => {
  if (!grew(o, before, "past_seasons")) return null;
  const season = o.past_seasons[o.past_seasons.length - 1];
  const shownAny = season.revealed.some((cards) => cards.length);
  return h("div", {class: "moment-block"},
    h("p", {class: "moment-goal"}, "Goal ", ctx.card(season.goal, {size: "sm"}),
      h("span", {}, `${season.goal} · bid ${season.bid}, ${season.matched} matched`)),
    shownAny ? h("div", {class: "moment-row", "aria-label": "The revealed stacks"},
      season.revealed.map((cards, seat) => seatCards(ctx, seat, cards, {
        mark: seat === season.high_bidder,
        note: seat === season.high_bidder ? "high bidder" : null}))) : null);
};

REVEALS.tighee = (o, before, kind, ctx) => {
  const parts = [];
  if (grew(o, before, "tricks") || (kind === "trick" && o.tricks?.length)) {
    const trick = o.tricks[o.tricks.length - 1];
    parts.push(h("div", {class: "moment-row moment-trick-cards", "aria-label": `Trick ${trick.trick}`},
      trick.cards.map(([seat, name]) => seatCards(ctx, seat, [name], {mark: seat === trick.winner,
        note: seat === trick.winner ? "takes it" : null})),
      trick.forest ? h("figure", {class: "moment-seat moment-forest"},
        h("div", {class: "moment-cards"}, ctx.card(trick.forest, {size: "xs"})),
        h("figcaption", {}, h("span", {}, "Forest"))) : null));
  }
  if (grew(o, before, "past_rounds")) {
    const round = o.past_rounds[o.past_rounds.length - 1];
    parts.push(h("table", {class: "moment-table"},
      h("thead", {}, h("tr", {}, h("th", {}, `Round ${round.round}`), h("th", {}, "Tricks"),
        h("th", {}, "Points"), h("th", {}, "Total"))),
      h("tbody", {}, round.points.map((points, seat) => h("tr", {},
        h("th", {class: `seat-colour-${seat}-ink`}, ctx.seatName(seat)),
        h("td", {}, String(round.tricks_won[seat])),
        h("td", {}, points > 0 ? `+${points}` : String(points)),
        h("td", {}, String(round.totals[seat])))))));
  }
  return parts.length ? h("div", {class: "moment-block"}, parts) : null;
};

REVEALS.shady_lady = (o, before, kind, ctx) => {
  if (!grew(o, before, "results")) return tryHands(o, before, ctx);
  const result = o.results[o.results.length - 1];
  return h("div", {class: "moment-row", "aria-label": "The revealed hands"},
    result.revealed.map((shown) => seatCards(ctx, shown.seat, shown.cards, {
      mark: shown.seat === result.scorer,
      note: (shown.combination ? String(shown.combination) : "no combination")
        + (shown.seat === result.scorer ? " · scores" : "")})));
};

/** While a Try! is answered: the hands this move turned face up. */
function tryHands(o, before, ctx) {
  if (!o.try || !Array.isArray(o.hands)) return null;
  const known = (hand) => Array.isArray(hand) && hand.length && hand.every((c) => c !== null);
  const shown = o.hands.map((hand, seat) => seat).filter((seat) => seat !== ctx.seat
    && known(o.hands[seat]) && !(before && known(before.hands?.[seat])));
  if (!shown.length) return null;
  return h("div", {class: "moment-row", "aria-label": "The hands shown"},
    shown.map((seat) => seatCards(ctx, seat, o.hands[seat], {
      mark: seat === o.try.best_seat,
      note: seat === o.try.best_seat ? `best so far: ${o.try.best}` : null})));
}

REVEALS.hoard = (o, before, kind, ctx) => {
  if (!grew(o, before, "round_markers")) return null;
  const markers = o.round_markers;
  // The engine's lines already count the Treasures; the cards show which door went under
  // which marker.
  return h("div", {class: "moment-row", "aria-label": "Round markers"},
    markers.map((name, index) => h("figure", {
      class: `moment-seat${index === markers.length - 1 ? " moment-mark" : ""}`},
    h("div", {class: "moment-cards"}, ctx.card(name, {size: "sm"})),
    h("figcaption", {}, h("span", {}, `round ${index + 1} marker`)))));
};
