// Shady Lady at the table: your hand, the other hands (known cards face up, the rest face down),
// every personal pile with its top card in a fixed place and the rest fanned beside it, the
// draw pile, Try! and Jack!, the Try! answers and the points. Drawn only from the seat's
// observation (src/ladytiger/games/shady_lady.py, `_observe`); every control names an engine
// move ("draw", "take 7 from seat 2", "discard 7", "try", "jack seat 1", "reveal", "decline")
// and the frame enables it or shows the engine's reason.
//
// Motion (js/motion.js): the deck holds ten of each number, so a face-up card is keyed by the
// moment it first came into view. The seat's own log is read from the start to follow each
// face-up card from place to place (a pile top taken into a hand, a card discarded onto a
// pile); the places are `hand-<seat>`, `discard-<seat>` and `deck`. The log is the seat's own
// account, so nothing hidden is used; where it and the observation ever disagree, the
// observation wins and that place's cards are keyed by position instead.

import { bind, h, isYou, plural, seatLabel, whose } from "./table_helpers.js";

// Turns from the end at which the turn limit is shown (and any limit up to ten times this).
const CLOSE_TO_LIMIT = 10;

// ---------------------------------------------------------------- following the cards
const HOW_MANY = { a: 1, an: 1, two: 2, three: 3, four: 4 };

// "a 4, a 2 and a 6", "two 2s and a 3", "three 7s" -> [4, 2, 6] ...
function countedCards(text) {
  const values = [];
  for (const part of text.split(/,\s*|\s+and\s+/)) {
    const match = /^(a|an|two|three|four)\s+(\d)s?$/.exec(part.trim());
    if (!match) return null;
    for (let i = 0; i < HOW_MANY[match[1]]; i += 1) values.push(Number(match[2]));
  }
  return values;
}

// "1, 7 and 8" -> [1, 7, 8]
function listedCards(text) {
  const values = text.split(/,\s*|\s+and\s+/).map((part) => Number(part.trim()));
  return values.every((value) => Number.isInteger(value) && value > 0) ? values : null;
}

function seatWord(word, me) {
  const match = /^Seat (\d+)$/i.exec(word);
  if (match) return Number(match[1]);
  return /^you$/i.test(word) ? me : null;
}

const sameValues = (a, b) => a.length === b.length && a.every((value, i) => value === b[i]);
const byValue = (a, b) => a.value - b.value;

/**
 * Every face-up card with a key that stays with it: {piles, hands, fresh, reshuffled, exact}.
 * piles[seat] bottom first; hands[seat] the known cards in the observation's order (sorted);
 * a card is {value, key, how, line}: `how` says how it came into view ("deal", "draw",
 * "take", "hand" for a discard nobody had seen, "shown"). `fresh`: the keys of the cards the
 * viewer drew or took since its own last move; `reshuffled`: the keys of the pile cards the
 * latest rebuilt draw pile swallowed, if nothing was taken or discarded since.
 */
export function followCards(obs, me) {
  const n = obs.hands.length;
  const piles = Array.from({ length: n }, () => []);
  const hands = Array.from({ length: n }, () => []);
  let exact = true;
  let myLastMove = -1;
  let reshuffled = [];
  const log = obs.log || [];
  log.forEach((text, line) => {
    const made = new Map();
    const fresh = (value, how) => {
      const j = made.get(value) || 0;
      made.set(value, j + 1);
      return { value, key: `card:${value}#${line}.${j}`, how, line };
    };
    const show = (seat, values) => {
      const pool = hands[seat].slice();
      hands[seat] = values.map((value) => {
        const at = pool.findIndex((card) => card.value === value);
        return at >= 0 ? pool.splice(at, 1)[0] : fresh(value, "shown");
      });
    };
    const sentence = text.replace(/\.$/, "");
    let match;
    if (/^The draw pile is empty/.test(sentence)) {
      reshuffled = [];
      for (let seat = 0; seat < n; seat += 1) {
        reshuffled.push(...piles[seat].slice(0, -1).map((card) => card.key));
        piles[seat] = piles[seat].slice(-1);
      }
    } else if (/^(You|Seat \d+)[^:]* (are dealt|is dealt|draws?) /.test(sentence)) {
      for (const part of sentence.split("; ")) {
        match = /^you (are dealt|draw) (.+)$/i.exec(part);
        if (!match || me === null || me === undefined) continue;
        const values = countedCards(match[2]);
        if (!values) {
          exact = false;
          continue;
        }
        const how = match[1] === "draw" ? "draw" : "deal";
        for (const value of values) hands[me].push(fresh(value, how));
      }
    } else if ((match = /^(You|Seat \d+) takes? the (\d) from (your own|their own|your|Seat \d+'s) pile$/.exec(sentence))) {
      const taker = seatWord(match[1], me);
      const value = Number(match[2]);
      const whose = match[3];
      const owner = whose === "their own" ? taker
        : whose.startsWith("your") ? me : seatWord(whose.replace(/'s$/, ""), me);
      let card = owner === null ? null : piles[owner].pop();
      if (!card || card.value !== value) {
        exact = false;
        card = fresh(value, "take");
      }
      hands[taker].push({ ...card, how: "take", line });
      if (taker === me) myLastMove = line;
      reshuffled = [];
    } else if ((match = /^(You|Seat \d+) discards? an? (\d)$/.exec(sentence))) {
      const seat = seatWord(match[1], me);
      const value = Number(match[2]);
      const hand = hands[seat];
      let at = -1;
      for (let i = hand.length - 1; i >= 0; i -= 1) {
        if (hand[i].value === value) {
          at = i;
          break;
        }
      }
      if (at < 0 && seat === me) exact = false;
      piles[seat].push(at >= 0 ? hand.splice(at, 1)[0] : fresh(value, "hand"));
      if (seat === me) myLastMove = line;
      reshuffled = [];
    } else if ((match = /^(You|Seat \d+) reveals? (.+?): /.exec(sentence))) {
      const seat = seatWord(match[1], me);
      const values = listedCards(match[2]);
      if (values) show(seat, values);
      else exact = false;
      if (seat === me) myLastMove = line;
    } else if (/^You (declare|decline)/.test(sentence)) {
      myLastMove = line;
    } else if ((match = /^Hands at the end: (.+)$/.exec(sentence))) {
      for (const part of match[1].split("; ")) {
        const held = /^(you|Seat \d+) held (.+)$/.exec(part);
        const values = held && listedCards(held[2]);
        if (values) show(seatWord(held[1], me), values);
      }
    }
  });
  // The observation is the authority: a place the log did not account for is keyed by position.
  for (let seat = 0; seat < n; seat += 1) {
    if (!sameValues(piles[seat].map((card) => card.value), obs.piles[seat])) {
      exact = false;
      piles[seat] = obs.piles[seat].map((value, i) => (
        { value, key: `card:${value}@discard-${seat}.${i}`, how: "pile", line: -1 }));
    }
    const known = obs.hands[seat].filter((value) => value !== null);
    const sorted = hands[seat].slice().sort(byValue);
    if (!sameValues(sorted.map((card) => card.value), known)) {
      exact = false;
      hands[seat] = known.map((value, i) => (
        { value, key: `card:${value}@hand-${seat}.${i}`, how: "hand", line: -1 }));
    } else hands[seat] = sorted;
  }
  const fresh = new Set();
  if (me !== null && me !== undefined) {
    for (const card of hands[me]) {
      if ((card.how === "draw" && card.line > myLastMove)
        || (card.how === "take" && card.line >= myLastMove)) fresh.add(card.key);
    }
  }
  return { piles, hands, fresh, reshuffled, exact };
}

// Cards are drawn by the frame (the number printed large, the same look as the end summary);
// low numbers (1-4) and high ones (6-9) get a tint and an edge mark of ours, since runs never
// mix them (there is no 5).
function numberCard(ctx, value, size = "md", extra = "") {
  const options = { size };
  if (value === null || value === undefined) options.label = "face-down card";
  const el = ctx.card(value === null || value === undefined ? null : value, options);
  el.classList.add("sl-card");
  if (value !== null && value !== undefined) el.classList.add(value < 5 ? "sl-low" : "sl-high");
  if (extra) el.classList.add(...extra.split(" "));
  return el;
}

// A followed card (see followCards), with its key and, if it came out of a place where it
// was not to be seen, that place.
function keyedCard(ctx, card, seat, size, extra = "") {
  const el = numberCard(ctx, card.value, size, extra);
  el.dataset.key = card.key;
  if (card.how === "draw" || card.how === "deal") el.dataset.from = "deck";
  else if (card.how === "hand" || card.how === "shown") el.dataset.from = `hand-${seat}`;
  return el;
}

function pointPips(points, target, seat) {
  const pips = h("span", { class: "sl-pips", title: `${plural(points, "point")} of ${target}`,
    "aria-label": `${plural(points, "point")} of ${target}` });
  for (let i = 0; i < target; i += 1) {
    pips.append(h("span", { class: `sl-pip${i < points ? " sl-pip-on" : ""}`, "aria-hidden": "true" }));
  }
  pips.append(h("span", { class: "sl-points-text", "data-count-key": `points:${seat}`,
    "data-count": points, text: `${points}/${target}` }));
  return pips;
}

// Controls are drawn for a seated player while the game is on (a spectator only watches).
function canMove(view) {
  return view.seat !== null && view.seat !== undefined && !view.observation.terminal;
}

// A pile: its top card always in the same place, the only one that can be taken; the cards
// under it fanned beside it, the most recent first, each showing its number.
function pileView(ctx, view, seat, cards) {
  const top = cards.length ? cards[cards.length - 1] : null;
  const words = top ? `${plural(cards.length, "card")}, ${top.value} on top` : "empty";
  const wrap = h("div", { class: "sl-pile", "data-zone": `discard-${seat}`,
    "aria-label": `${whose(ctx, seat)} discard pile: ${words}` });
  const spot = h("div", { class: "sl-pile-top-spot" });
  if (top) {
    const topCard = keyedCard(ctx, top, seat, "md", "sl-pile-top");
    if (canMove(view)) bind(ctx, topCard, `take ${top.value} from seat ${seat}`);
    spot.append(topCard);
  } else {
    const empty = h("div", { class: "sl-empty", text: "empty" });
    if (canMove(view)) bind(ctx, empty, `take from seat ${seat}`);
    spot.append(empty);
  }
  wrap.append(spot);
  if (cards.length > 1) {
    const under = cards.slice(0, -1).reverse();
    const fan = h("div", { class: "sl-pile-fan", title: `under it: ${under.map((c) => c.value).join(" ")}` });
    under.forEach((card, i) => {
      const el = keyedCard(ctx, card, seat, "xs", "sl-fanned");
      // Each card lies over the older ones to its right.
      el.style.zIndex = String(under.length - i);
      fan.append(el);
    });
    wrap.append(fan);
  }
  return wrap;
}

function seatPanel(ctx, view, obs, seat, track) {
  const me = view.seat;
  const toMove = obs.current_player === seat;
  const classes = ["sl-seat"];
  if (seat === me) classes.push("sl-me");
  if (toMove) classes.push("sl-to-move");
  if (obs.winner === seat) classes.push("sl-winner");
  const badges = h("span", { class: "sl-badges" });
  if (toMove) badges.append(h("span", { class: "sl-badge sl-badge-move", text: "to move" }));
  if (obs.turn_player === seat && !toMove && !obs.terminal) {
    badges.append(h("span", { class: "sl-badge", text: "their turn" }));
  }
  if (obs.try && obs.try.declarer === seat) badges.append(h("span", { class: "sl-badge sl-badge-call", text: "Try!" }));
  const head = h("header", { class: "sl-seat-head" },
    h("span", { class: "sl-seat-name", text: seatLabel(ctx, seat) }), badges,
    pointPips(obs.scores[seat], obs.points_to_win, seat));
  if (canMove(view) && seat !== me) {
    const jack = h("button", { type: "button", class: "sl-button sl-jack",
      "aria-label": `Jack! (accuse ${seatLabel(ctx, seat)})`, text: "Jack!" });
    bind(ctx, jack, `jack seat ${seat}`);
    head.append(jack);
  }
  const panel = h("section", { class: classes.join(" "), "data-seat": seat,
    "aria-label": seatLabel(ctx, seat) }, head);
  const hand = obs.hands[seat];
  const known = track.hands[seat];
  const handRow = h("div", { class: "sl-hand sl-other-hand", "data-zone": `hand-${seat}`,
    "aria-label": `${seatLabel(ctx, seat)}'s hand: ${known.length} known of ${hand.length}` });
  // The known cards come first (sorted), then one face-down card for each unknown one.
  known.forEach((card) => handRow.append(keyedCard(ctx, card, seat, "sm")));
  for (let i = known.length; i < hand.length; i += 1) handRow.append(numberCard(ctx, null, "sm"));
  panel.append(h("div", { class: "sl-seat-body" },
    h("div", { class: "sl-row" }, h("span", { class: "sl-row-label", text: "hand" }), handRow),
    h("div", { class: "sl-row" }, h("span", { class: "sl-row-label", text: "pile" }),
      pileView(ctx, view, seat, track.piles[seat]))));
  return panel;
}

function tryPanel(ctx, view, obs) {
  const call = obs.try;
  const panel = h("section", { class: "sl-call sl-try", "aria-label": "Try! in progress", role: "status" },
    h("div", { class: "sl-call-title" }, h("strong", { text: `${seatLabel(ctx, call.declarer)} declared Try!` })),
    h("div", {}, "Best shown: ", h("strong", { text: call.best }),
      ` by ${named(ctx, call.best_seat)}`),
    h("div", {}, h("strong", { text: seatLabel(ctx, call.to_answer) }),
      " may reveal a stronger combination or decline"));
  if (canMove(view)) {
    const reveal = h("button", { type: "button", class: "sl-button", text: "Reveal my hand" });
    const decline = h("button", { type: "button", class: "sl-button sl-quiet", text: "Decline" });
    bind(ctx, reveal, "reveal");
    bind(ctx, decline, "decline");
    panel.append(h("div", { class: "sl-controls" }, reveal, decline));
  }
  return panel;
}

// A seat named inside a sentence: "you", not "You".
function named(ctx, seat) {
  return isYou(ctx, seat) ? "you" : seatLabel(ctx, seat);
}

// Who scored a Try! or a Jack!, and why, in the view's own names.
function scoredWords(ctx, result) {
  const scorer = `${seatLabel(ctx, result.scorer)} ${isYou(ctx, result.scorer) ? "score" : "scores"}`;
  const shown = (seat) => result.revealed.find((hand) => hand.seat === seat)?.combination;
  if (result.call === "Try!") return `${scorer} with the best combination, ${shown(result.scorer)}`;
  const target = result.target;
  const held = shown(target) || "no combination";
  return `${scorer}: ${named(ctx, target)} ${isYou(ctx, target) ? "hold" : "holds"} ${held}`;
}

function resultLine(ctx, result) {
  const who = result.call === "Jack!"
    ? `${seatLabel(ctx, result.declarer)} called Jack! on ${named(ctx, result.target)}`
    : `${seatLabel(ctx, result.declarer)} called Try!`;
  const shown = h("div", { class: "sl-shown" });
  for (const hand of result.revealed) {
    const cards = h("span", { class: "sl-shown-cards" });
    hand.cards.forEach((value) => cards.append(numberCard(ctx, value, "xs")));
    shown.append(h("span", { class: "sl-shown-hand" }, `${seatLabel(ctx, hand.seat)}: `, cards,
      h("span", { class: "sl-combo", text: hand.combination || "no combination" })));
  }
  return h("div", { class: "sl-result" },
    h("div", {}, h("span", { class: "sl-turn-no", text: `turn ${result.turn}` }), ` ${who}`),
    shown,
    h("div", { class: "sl-scored" }, `\u2192 ${scoredWords(ctx, result)}`));
}

// What the viewer is asked to do with the hand now, or "" when the hand is not what to use.
function handHint(obs, me) {
  if (obs.terminal || obs.current_player !== me) return "";
  if (obs.phase === "discard") return "click a card to discard it";
  if (obs.phase === "discard hand") {
    return `click a card to put it on your pile (${plural(obs.hands[me].length, "card")} to go)`;
  }
  return "";
}

export function render(root, view, ctx) {
  const obs = view.observation;
  const me = view.seat;
  const n = obs.hands.length;
  const seated = me !== null && me !== undefined;
  const track = followCards(obs, seated ? me : null);
  root.classList.add("sl-root");
  // For the tests: whether the log accounted for every face-up card.
  root.dataset.slFollowed = track.exact ? "exact" : "by-position";

  // The turn limit is ours, a safety net against endless games: worth showing only when a
  // table chose a short one or the game is getting near it.
  const limitMatters = obs.turn_limit <= CLOSE_TO_LIMIT * 10 ||
    obs.turn_limit - obs.turn < CLOSE_TO_LIMIT;
  const facts = h("div", { class: "sl-top" },
    h("span", { class: "sl-fact" }, h("strong", { text: `Turn ${obs.turn}` }),
      limitMatters ? ` of at most ${obs.turn_limit}` : ""),
    h("span", { class: "sl-fact", text: `${obs.points_to_win} points win` }),
    obs.reshuffles ? h("span", { class: "sl-fact", text: `draw pile rebuilt ${obs.reshuffles}\u00D7` }) : null,
    h("span", { class: "sl-fact sl-combos",
      text: "runs 1-2-3, 2-3-4, 6-7-8, 7-8-9 < any triple" }));
  root.append(facts);

  if (obs.terminal) {
    const text = obs.winner === null
      ? `The turn limit (${obs.turn_limit}) is reached: a draw`
      : `${seatLabel(ctx, obs.winner)} ${isYou(ctx, obs.winner) ? "win" : "wins"} with ${plural(obs.points_to_win, "point")}`;
    root.append(h("div", { class: "sl-banner", role: "status", text }));
  }

  // The centre: draw pile, what is going on, Try!
  const centre = h("section", { class: "sl-centre", "aria-label": "draw pile and calls" });
  const deckCard = numberCard(ctx, null, "md", "sl-draw-card");
  const drawPile = h("div", { class: "sl-draw", "data-zone": "deck" },
    h("div", { class: "sl-stack" }, deckCard),
    h("div", { class: "sl-draw-count", text: `Draw pile: ${plural(obs.draw_pile, "card")}` }));
  // A rebuilt draw pile swallowed the cards under each pile's top.
  if (track.reshuffled.length) drawPile.dataset.took = track.reshuffled.join("|");
  if (canMove(view)) bind(ctx, deckCard, "draw");
  centre.append(drawPile);
  const status = h("div", { class: "sl-status" });
  if (obs.try) status.append(tryPanel(ctx, view, obs));
  else if (obs.discarding.length) {
    status.append(h("div", { class: "sl-call", role: "status" },
      `${obs.discarding.map((seat) => seatLabel(ctx, seat)).join(", ")}: the revealed hand goes `
      + "onto the pile one card at a time, then three new cards are drawn"));
  } else if (!obs.terminal) {
    const turn = obs.turn_player;
    status.append(h("div", { class: "sl-call sl-quiet-call" },
      turn === me
        ? (obs.phase === "discard" ? "Discard one of your four cards onto your pile"
          : "Your turn: draw, take a pile's top card, Try! or Jack!")
        : `${seatLabel(ctx, turn)}'s turn`));
  }
  if (obs.results.length) {
    status.append(h("div", { class: "sl-last-call" },
      h("div", { class: "sl-label", text: "Last call" }),
      resultLine(ctx, obs.results[obs.results.length - 1])));
  }
  centre.append(status);
  root.append(centre);

  // The other players, clockwise from the one after you.
  const others = h("div", { class: "sl-others" });
  const start = seated ? me + 1 : 0;
  for (let k = 0; k < n; k += 1) {
    const seat = (start + k) % n;
    if (seat === me) continue;
    others.append(seatPanel(ctx, view, obs, seat, track));
  }
  root.append(others);

  // Your own place: the hand to discard from, Try!, your pile.
  if (seated) {
    const mine = h("section", { class: `sl-mine${obs.current_player === me ? " sl-to-move" : ""}`,
      "aria-label": "your hand and pile" });
    const head = h("header", { class: "sl-seat-head" },
      h("span", { class: "sl-seat-name", text: seatLabel(ctx, me) }),
      pointPips(obs.scores[me], obs.points_to_win, me));
    if (obs.combination) head.append(h("span", { class: "sl-combo sl-combo-mine", text: `you hold ${obs.combination}` }));
    mine.append(head);
    const hand = h("div", { class: "sl-hand sl-my-hand", "data-zone": `hand-${me}` });
    for (const card of track.hands[me]) {
      const fresh = track.fresh.has(card.key);
      const el = keyedCard(ctx, card, me, "lg", `sl-in-hand${fresh ? " sl-fresh" : ""}`);
      // The card just drawn or taken, marked until your next move.
      if (fresh) el.append(h("span", { class: "sl-fresh-tag", "aria-hidden": "true", text: "new" }));
      if (canMove(view)) bind(ctx, el, `discard ${card.value}`);
      if (fresh) el.title = `${el.title} (just ${card.how === "take" ? "taken" : "drawn"})`;
      hand.append(el);
    }
    const tryButton = h("button", { type: "button", class: "sl-button sl-try-button" },
      "Try! ", h("small", { text: "show a combination" }));
    if (canMove(view)) bind(ctx, tryButton, "try");
    const hint = handHint(obs, me);
    const handBlock = h("div", { class: `sl-my-hand-block${hint ? " sl-discarding" : ""}` },
      h("div", { class: "sl-label" }, `${whose(ctx, me)} hand `,
        hint ? h("span", { class: "sl-hint", text: hint }) : null),
      hand);
    mine.append(h("div", { class: "sl-mine-body" }, handBlock,
      obs.terminal ? null : h("div", { class: "sl-controls" }, tryButton),
      h("div", { class: "sl-my-pile" }, h("div", { class: "sl-label", text: `${whose(ctx, me)} pile` }),
        pileView(ctx, view, me, track.piles[me]))));
    root.append(mine);
  }

  if (obs.results.length > 1) {
    const all = h("details", { class: "sl-history" },
      h("summary", { text: `Every Try! and Jack! (${obs.results.length})` }));
    [...obs.results].reverse().forEach((result) => all.append(resultLine(ctx, result)));
    root.append(all);
  }
}
