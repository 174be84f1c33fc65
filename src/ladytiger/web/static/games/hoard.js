// Hoard's table: the 2x2 square of Doors with their gems, the revealed Clue card, the deck,
// the removed-Trash pile, the collected Treasure, the round markers and the set-aside cards.
//
// Every move is a control on the square, there from the start of the turn (no list of
// sentences, nothing to pick first). With a regular card revealed, click a gem on a door of
// the card's row: it moves across to the other door of that row (the only place it can go);
// Remove pairs and Collect are buttons on the named door. With a wild revealed, each door
// offers "white here" (the black goes on its partner), or, when the removed pile is empty,
// each door holding a black Trash names the doors whose white it can take in exchange. The
// view only names moves (ctx.bind); the engine decides what is legal and why not.
//
// Motion (js/motion.js): every gem is drawn one by one with a key of its own. Gems of a kind
// are alike, so a gem's identity is its public history: the log tells every move, and the
// view follows the gems through it from the deal (see gemIdentities).

import {el, svgElement} from "/static/js/dom.js";

const GEMS = ["red", "blue", "white", "black"];
const GEM_NAMES = {
  red: "red Treasure",
  blue: "blue Treasure",
  white: "white Trash",
  black: "black Trash",
};
const PER_KIND = 5;
const TREASURES = 10;
const ROUNDS = 3;
const DOORS = ["Red Lady", "Blue Lady", "Red Tiger", "Blue Tiger"]; // the deal's order
const REMOVED = "removed";
const COLLECTED = "collected";

// A gem as a small SVG: Treasure is a cut diamond with its colour's initial, Trash a round
// stone (white hollow, black filled), so shape and letter tell them apart without colour.
export function gemIcon(kind, className = "hd-gem") {
  const icon = svgElement("svg", { viewBox: "0 0 20 20", class: `${className} hd-gem-${kind}`,
                            "aria-hidden": "true", focusable: "false" });
  if (kind === "red" || kind === "blue") {
    icon.append(svgElement("polygon", { points: "10,1 19,8 10,19 1,8", class: "hd-gem-body" }));
    icon.append(svgElement("polyline", { points: "1,8 19,8", class: "hd-gem-facet" }));
    const letter = svgElement("text", { x: "10", y: "14.5", "text-anchor": "middle", class: "hd-gem-letter" });
    letter.textContent = kind === "red" ? "R" : "B";
    icon.append(letter);
  } else {
    icon.append(svgElement("circle", { cx: "10", cy: "10", r: "7.5", class: "hd-gem-body" }));
  }
  return icon;
}

// ---------------------------------------------------------------- gem identities
// The log's sentences for the player's moves ("You ..." to the player, "Seat 0 ..." to
// anyone else), each read as the gems it carries: [kind, from, to, how many].
const SUBJECT = "(?:You|Seat \\d+)";
const DOOR = "((?:Red|Blue) (?:Lady|Tiger))";
const MOVES = [
  [new RegExp(`^${SUBJECT} moves? an? (\\w+) (?:Treasure|Trash) from the ${DOOR} to the ${DOOR}\\.$`),
   (m) => [[m[1], m[2], m[3], 1]]],
  [new RegExp(`^${SUBJECT} removes? (a|\\d+) pairs? of Trash from the ${DOOR}\\.$`),
   (m) => {
     const pairs = m[1] === "a" ? 1 : Number(m[1]);
     return [["white", m[2], REMOVED, pairs], ["black", m[2], REMOVED, pairs]];
   }],
  [new RegExp(`^${SUBJECT} collects? an? (red|blue) Treasure from the ${DOOR}\\.$`),
   (m) => [[m[1], m[2], COLLECTED, 1]]],
  [new RegExp(`^${SUBJECT} puts? a white Trash on the ${DOOR} and a black Trash on the ${DOOR}\\.$`),
   (m) => [["white", REMOVED, m[1], 1], ["black", REMOVED, m[2], 1]]],
  [new RegExp(`^${SUBJECT} swaps? a black Trash on the ${DOOR} with a white Trash on the ${DOOR}\\.$`),
   (m) => [["black", m[1], m[2], 1], ["white", m[2], m[1], 1]]],
];

function transfers(log) {
  const found = [];
  for (const line of log || []) {
    for (const [pattern, read] of MOVES) {
      const match = pattern.exec(line);
      if (match) {
        found.push(...read(match));
        break;
      }
    }
  }
  return found;
}

function countsNow(obs) {
  const counts = {};
  for (const door of DOORS) counts[door] = { ...obs.doors[door] };
  counts[REMOVED] = { red: 0, blue: 0, white: obs.removed.white, black: obs.removed.black };
  counts[COLLECTED] = { red: obs.collected.red, blue: obs.collected.blue, white: 0, black: 0 };
  return counts;
}

// Keys numbered kind by kind in the order of `counts`' places: `gem:white#3`.
function numbered(counts) {
  const keys = {};
  const next = { red: 1, blue: 1, white: 1, black: 1 };
  for (const place of [...DOORS, REMOVED, COLLECTED]) {
    keys[place] = {};
    for (const kind of GEMS) {
      keys[place][kind] = [];
      for (let i = 0; i < counts[place][kind]; i++) keys[place][kind].push(`gem:${kind}#${next[kind]++}`);
    }
  }
  return keys;
}

/**
 * Every gem's key, place by place: {place: {kind: [key, ...]}}. The gems where the deal put
 * them are numbered in the deal's order, then followed move by move through the log, so a
 * gem keeps its key wherever it goes. Should the log not account for the table (a sentence
 * this view does not know), the gems are simply numbered where they are now.
 */
function gemIdentities(obs) {
  const now = countsNow(obs);
  const moved = transfers(obs.log);
  // Undo the moves to find where the deal left the gems.
  const start = JSON.parse(JSON.stringify(now));
  let sound = true;
  for (let i = moved.length - 1; i >= 0 && sound; i--) {
    const [kind, from, to, n] = moved[i];
    if (!start[from] || !start[to] || start[to][kind] < n) sound = false;
    else {
      start[to][kind] -= n;
      start[from][kind] += n;
    }
  }
  if (!sound) return numbered(now);
  const keys = numbered(start);
  for (const [kind, from, to, n] of moved) {
    for (let i = 0; i < n; i++) keys[to][kind].push(keys[from][kind].pop());
  }
  for (const place of Object.keys(now)) {
    for (const kind of GEMS) {
      if (keys[place][kind].length !== now[place][kind]) return numbered(now);
    }
  }
  return keys;
}

function gemRow(kind, keys) {
  const row = el("span", "hd-gem-row");
  for (const key of keys) {
    const gem = gemIcon(kind);
    gem.dataset.key = key;
    row.append(gem);
  }
  return row;
}

function zoneName(door) {
  return `door-${door.toLowerCase().replace(" ", "-")}`;
}

// ---------------------------------------------------------------- cards
function cardFace(ctx, name, size, key = null) {
  const face = ctx.card(name, { size });
  face.classList.add("hd-card");
  // The printed words say what the card is; a title would hide the tooltip of a control
  // that holds the card (the engine's reason when the move is not legal).
  face.removeAttribute("title");
  if (key) face.dataset.key = key;
  return face;
}

// The round whose cards `played` lists: the current one, or at a loss the third.
function playedRound(obs) {
  return Math.min(obs.round_markers.length + 1, ROUNDS);
}

// Keys of a round's revealed cards: `card:Red Lady#r2.1` is the first Red Lady of round 2.
function playedKeys(obs) {
  const seen = new Map();
  const round = playedRound(obs);
  return obs.played.map((name) => {
    const n = (seen.get(name) || 0) + 1;
    seen.set(name, n);
    return `card:${name}#r${round}.${n}`;
  });
}

// The cards of the last round that went back into the deck when it ended (its last card went
// under the marker). Their keys are named on the deck so that the frame flies them into it.
function reshuffledKeys(obs) {
  const ended = obs.round_markers.length;
  if (!ended || obs.terminal) return [];
  const back = new Map();
  for (const name of [...obs.still_unseen, ...obs.played]) back.set(name, (back.get(name) || 0) + 1);
  const keys = [];
  for (const [name, count] of back) {
    for (let n = 1; n <= count; n++) keys.push(`card:${name}#r${ended}.${n}`);
  }
  return keys;
}

// ---------------------------------------------------------------- doors
// The other door a card's wild placement pairs with `door`: same colour for Blue/Red (a
// column), same role for Lady/Tiger (a row).
function partner(wild, door) {
  const [colour, role] = door.split(" ");
  if (wild === "Blue/Red") return `${colour} ${role === "Lady" ? "Tiger" : "Lady"}`;
  return `${colour === "Red" ? "Blue" : "Red"} ${role}`;
}

function across(door) {
  const [colour, role] = door.split(" ");
  return `${colour === "Red" ? "Blue" : "Red"} ${role}`;
}

function mode(obs) {
  const card = obs.revealed;
  if (!card) return "none";
  if (!card.includes("/")) return "regular";
  return obs.removed.white > 0 ? "place" : "swap";
}

function hint(obs, acting) {
  const card = obs.revealed;
  if (obs.terminal) {
    const got = obs.collected.red + obs.collected.blue;
    return obs.won
      ? `All 10 Treasures collected: score ${obs.scores[0]} for the removed Trash.`
      : `The third round ended with ${got} of 10 Treasures collected.`;
  }
  if (!card) return "Waiting for the next Clue card.";
  const m = mode(obs);
  if (m === "regular") {
    const [colour, role] = card.split(" ");
    const how = acting ? " Click a gem on a " + `${role} door to move it across.` : "";
    return `Move a gem between the ${role} doors, remove Trash pairs from the ${card}, or ` +
      `collect a ${colour.toLowerCase()} Treasure from it once it holds no Trash.${how}`;
  }
  const pair = card === "Blue/Red" ? "both Red or both Blue doors" : "both Lady or both Tiger doors";
  if (m === "place") {
    return `Put a removed white and black Trash back on ${pair}, one on each.` +
      (acting ? " Click \u201cwhite here\u201d on the door that gets the white." : "");
  }
  return "The removed pile is empty: swap a black Trash on one door with a white Trash on " +
    "another." + (acting ? " On a door with a black, click the door to take a white from." : "");
}

function doorPanel(obs, name, ctx, acting, keys) {
  const m = mode(obs);
  const counts = obs.doors[name];
  const panel = el("section", "hd-door");
  panel.dataset.door = name;
  panel.dataset.zone = zoneName(name);
  const [colour, role] = name.split(" ");
  panel.classList.add(`hd-${colour.toLowerCase()}`);
  if (m === "regular") {
    if (obs.revealed === name) panel.classList.add("hd-named");
    else if (obs.revealed.endsWith(role)) panel.classList.add("hd-row-of-named");
  }
  panel.setAttribute("aria-label", `${name} door`);

  const head = el("header", "hd-door-head");
  head.append(cardFace(ctx, name, "sm"));
  const title = el("div", "hd-door-title");
  title.append(el("strong", null, name));
  const total = GEMS.reduce((sum, kind) => sum + counts[kind], 0);
  title.append(el("span", "hd-door-count", total ? `${total} gem${total === 1 ? "" : "s"}` : "empty"));
  head.append(title);
  panel.append(head);

  const gems = el("div", "hd-door-gems");
  for (const kind of GEMS) {
    const count = counts[kind];
    if (!count) continue;
    const chip = el("span", `hd-chip hd-chip-${kind}`);
    chip.dataset.gem = kind;
    chip.append(gemRow(kind, keys[name][kind]));
    chip.append(el("span", "hd-chip-label", `${count} ${kind}`));
    const label = `${count} ${GEM_NAMES[kind]} on the ${name}`;
    if (acting && m === "regular") {
      const target = across(name);
      const arrow = el("span", "hd-arrow", colour === "Red" ? "\u2192" : "\u2190");
      arrow.setAttribute("aria-hidden", "true");
      chip.append(arrow);
      // Named before binding: the binder then reads the move's own words to a screen reader.
      chip.setAttribute("aria-label", label);
      ctx.bind(chip, `move ${GEM_NAMES[kind]} from ${name} to ${target}`);
    } else {
      chip.setAttribute("aria-label", label);
      chip.setAttribute("role", "img");
    }
    gems.append(chip);
  }
  if (!total) gems.append(el("span", "hd-empty", "no gems"));
  panel.append(gems);

  const actions = el("div", "hd-door-actions");
  if (acting && m === "regular" && obs.revealed === name) {
    const remove = el("div", "hd-action", "Remove pairs");
    remove.prepend(gemIcon("white", "hd-gem hd-mini hd-pair"),
                   gemIcon("black", "hd-gem hd-mini hd-pair"));
    ctx.bind(remove, `remove pairs from ${name}`);
    const collect = el("div", "hd-action", `Collect ${colour.toLowerCase()}`);
    collect.prepend(gemIcon(colour.toLowerCase(), "hd-gem hd-mini"));
    ctx.bind(collect, `collect ${colour.toLowerCase()} Treasure from ${name}`);
    actions.append(remove, collect);
  } else if (acting && m === "place") {
    const other = partner(obs.revealed, name);
    const put = el("div", "hd-action hd-place");
    put.append(gemIcon("white", "hd-gem hd-mini"), el("span", null, "white here, "),
               gemIcon("black", "hd-gem hd-mini"), el("span", null, `black on ${other}`));
    put.setAttribute("aria-label", name);
    ctx.bind(put, `put white Trash on ${name} and black Trash on ${other}`);
    actions.append(put);
  } else if (acting && m === "swap" && counts.black > 0) {
    // This door gives a black Trash; each door with a white Trash can give one back.
    const givers = DOORS.filter((door) => door !== name && obs.doors[door].white > 0);
    if (givers.length) {
      const lead = el("span", "hd-swap-lead");
      lead.append(el("span", null, "Swap "), gemIcon("black", "hd-gem hd-mini"),
                  el("span", null, " for "), gemIcon("white", "hd-gem hd-mini"),
                  el("span", null, " from:"));
      actions.append(lead);
      for (const door of givers) {
        const swap = el("div", "hd-action hd-swap");
        swap.dataset.with = door;
        swap.append(gemIcon("white", "hd-gem hd-mini"), el("span", null, door));
        swap.setAttribute("aria-label", door);
        ctx.bind(swap, `swap black Trash on ${name} with white Trash on ${door}`);
        actions.append(swap);
      }
    }
  }
  if (actions.childElementCount) panel.append(actions);
  return panel;
}

function square(obs, ctx, acting, keys) {
  const box = el("div", "hd-square");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "the four doors");
  box.append(el("span", "hd-corner"));
  box.append(el("span", "hd-colhead hd-red", "Red"), el("span", "hd-colhead hd-blue", "Blue"));
  for (const row of obs.layout) {
    const role = row[0].split(" ")[1];
    box.append(el("span", "hd-rowhead", role));
    for (const name of row) box.append(doorPanel(obs, name, ctx, acting, keys));
  }
  return box;
}

function counted(names, ctx) {
  const list = el("div", "hd-cards");
  if (!names.length) {
    list.append(el("span", "hd-none", "none"));
    return list;
  }
  const counts = new Map();
  for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
  for (const [name, count] of counts) {
    const item = el("span", "hd-counted");
    item.append(cardFace(ctx, name, "sm"));
    if (count > 1) item.append(el("span", "hd-times", `×${count}`));
    list.append(item);
  }
  return list;
}

function block(title, ...content) {
  const box = el("section", "hd-block");
  box.append(el("h3", null, title), ...content);
  return box;
}

function counter(key, value, text) {
  const number = el("span", "hd-count", text ?? String(value));
  number.dataset.countKey = key;
  number.dataset.count = String(value);
  return number;
}

function sidePanels(obs, ctx, keys) {
  const side = el("div", "hd-side");

  const deck = el("div", "hd-deck");
  const pile = el("div", "hd-pile");
  pile.dataset.zone = "deck";
  const back = reshuffledKeys(obs);
  if (back.length) pile.dataset.took = back.join("|");
  if (obs.deck > 0) {
    pile.append(cardFace(ctx, null, "sm"));
    pile.append(el("span", "hd-pile-count", String(obs.deck)));
  } else {
    pile.classList.add("hd-pile-empty");
  }
  const left = `${obs.deck} card${obs.deck === 1 ? "" : "s"} left in round ${obs.round}`;
  deck.append(pile, el("span", null, left));
  side.append(block("Deck", deck));

  const markers = el("div", "hd-markers");
  for (let i = 0; i < ROUNDS; i++) {
    const slot = el("div", "hd-marker");
    slot.dataset.zone = `marker-${i + 1}`;
    const under = obs.round_markers[i];
    const disc = el("span", "hd-marker-disc", String(i + 1));
    slot.append(disc);
    if (under) {
      slot.classList.add("hd-covered");
      // The round's last card comes to its marker from the revealed card's place.
      const face = cardFace(ctx, under, "sm", `card:${under}#marker${i + 1}`);
      face.dataset.from = "revealed";
      slot.append(face);
      slot.setAttribute("aria-label", `round marker ${i + 1}: ${under} under it, out of the game`);
    } else {
      slot.append(el("span", "hd-marker-open", "open"));
      slot.setAttribute("aria-label", `round marker ${i + 1}: open`);
    }
    markers.append(slot);
  }
  side.append(block("Round markers", markers));

  const removed = el("div", "hd-removed");
  removed.dataset.zone = REMOVED;
  for (const kind of ["white", "black"]) {
    const line = el("div", "hd-line");
    line.append(gemRow(kind, keys[REMOVED][kind]), el("span", null, `${obs.removed[kind]} ${kind}`));
    removed.append(line);
  }
  if (!obs.terminal) {
    const total = obs.removed.white + obs.removed.black;
    const note = el("p", "hd-note", "Score if you win now: ");
    note.append(counter("removed", total), ` of ${TREASURES}`);
    removed.append(note);
  }
  side.append(block("Removed Trash", removed));

  const collected = el("div", "hd-collected");
  collected.dataset.zone = COLLECTED;
  for (const kind of ["red", "blue"]) {
    const line = el("div", "hd-line");
    const slots = el("span", "hd-slots");
    const got = keys[COLLECTED][kind];
    for (let i = 0; i < PER_KIND; i++) {
      if (i < got.length) {
        const gem = gemIcon(kind);
        gem.dataset.key = got[i];
        slots.append(gem);
      } else {
        slots.append(gemIcon(kind, "hd-gem hd-gem-missing"));
      }
    }
    line.append(slots, el("span", null, `${obs.collected[kind]} of ${PER_KIND} ${kind}`));
    collected.append(line);
  }
  side.append(block("Collected Treasure", collected));

  const aside = el("div", "hd-cards");
  aside.dataset.zone = "set-aside";
  const seen = new Map();
  for (const name of obs.set_aside) {
    const n = (seen.get(name) || 0) + 1;
    seen.set(name, n);
    aside.append(cardFace(ctx, name, "sm", `card:${name}#aside${n}`));
  }
  for (let i = 0; i < obs.face_down; i++) aside.append(cardFace(ctx, null, "sm"));
  if (obs.face_down) aside.append(el("span", "hd-note", `${obs.face_down} face down`));
  if (!aside.childElementCount) aside.append(el("span", "hd-none", "none"));
  side.append(block(`Set aside (${obs.difficulty})`, aside));

  // The revealed card is drawn in its own place; this row holds the cards already used.
  const played = el("div", "hd-cards hd-played");
  played.dataset.zone = "played";
  const cardKeys = playedKeys(obs);
  const used = obs.revealed ? obs.played.length - 1 : obs.played.length;
  if (!used) played.append(el("span", "hd-none", "none yet"));
  for (let i = 0; i < used; i++) played.append(cardFace(ctx, obs.played[i], "sm", cardKeys[i]));
  side.append(block("Used this round", played));

  const unseen = counted(obs.still_unseen, ctx);
  if (obs.face_down) unseen.append(el("span", "hd-note", "(includes the face-down cards)"));
  side.append(block("Still unseen", unseen));
  return side;
}

function revealedPanel(obs, ctx, acting) {
  const box = el("section", "hd-revealed");
  box.setAttribute("aria-live", "polite");
  const slot = el("div", "hd-revealed-card");
  slot.dataset.zone = "revealed";
  let title = obs.revealed ? `Revealed: ${obs.revealed}` : "No card revealed";
  if (obs.terminal && obs.won) {
    title = "The hoard is open: won";
    const trophy = el("div", "hd-trophy");
    trophy.append(gemIcon("red", "hd-gem hd-big"), gemIcon("blue", "hd-gem hd-big"));
    slot.append(trophy);
  } else if (obs.revealed) {
    const keys = playedKeys(obs);
    const face = cardFace(ctx, obs.revealed, "lg", keys[keys.length - 1]);
    face.dataset.from = "deck";
    slot.append(face);
  } else if (obs.terminal) {
    // Lost: the two Treasures the hoard keeps, as empty outlines (no card is in play).
    title = "The hoard stays shut";
    const kept = el("div", "hd-trophy hd-shut");
    kept.append(gemIcon("red", "hd-gem hd-big hd-gem-missing"),
                gemIcon("blue", "hd-gem hd-big hd-gem-missing"));
    slot.append(kept);
  } else {
    slot.append(cardFace(ctx, null, "lg"));
  }
  const text = el("div", "hd-revealed-text");
  text.append(el("h3", null, title));
  text.append(el("p", "hd-hint", hint(obs, acting)));
  box.append(slot, text);
  return box;
}

function legend() {
  const box = el("p", "hd-legend");
  box.append(gemIcon("red", "hd-gem hd-mini"), gemIcon("blue", "hd-gem hd-mini"),
             el("span", null, " Treasure (diamonds)  "),
             gemIcon("white", "hd-gem hd-mini"), gemIcon("black", "hd-gem hd-mini"),
             el("span", null, " Trash (round stones)"));
  return box;
}

/** The end of a game in Hoard's words: the hoard opened (won) or it stays shut. */
export function endHeadline(observation, ctx) {
  if (!observation || !observation.terminal || !observation.collected) return null;
  const who = ctx && typeof ctx.seatName === "function" ? ctx.seatName(0) : "You";
  if (observation.won) {
    const score = (observation.scores || [])[0] ?? 0;
    return `${who} opened the hoard: won with all ${TREASURES} Treasures, score ${score}`;
  }
  const got = observation.collected.red + observation.collected.blue;
  return `The hoard stays shut: ${got} of ${TREASURES} Treasures, not won this time`;
}

export function render(root, view, ctx) {
  root.replaceChildren();
  const obs = view.observation;
  const acting = Boolean(view.your_turn) && obs.phase === "action";
  const keys = gemIdentities(obs);

  const top = el("header", "hd-status");
  top.append(el("span", "hd-round", `Round ${obs.round} of ${ROUNDS}`));
  top.append(el("span", "hd-difficulty", obs.difficulty));
  const got = obs.collected.red + obs.collected.blue;
  const goal = el("span", "hd-goal", "Treasure ");
  goal.append(counter("treasure", got), ` of ${TREASURES}`);
  top.append(goal);
  root.append(top);

  const main = el("div", "hd-main");
  const left = el("div", "hd-table");
  left.append(revealedPanel(obs, ctx, acting), square(obs, ctx, acting, keys), legend());
  main.append(left, sidePanels(obs, ctx, keys));
  root.append(main);
}
