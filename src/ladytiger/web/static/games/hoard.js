// Hoard's table: the 2x2 square of Doors with their gems, the revealed Clue card, the deck,
// the removed-Trash pile, the collected Treasure, the round markers and the set-aside cards.
//
// Moves are made on the square itself. With a regular card revealed, click a gem to move it
// to the other door of its row, or use the Remove / Collect buttons on the named door. With a
// wild revealed, each door offers "white here" (the black goes on its partner), or, when the
// removed pile is empty, click a black Trash and then a white Trash on another door to swap
// them. The view only names moves (ctx.bind); the engine decides what is legal and why not.

import {el, svgElement} from "/static/js/dom.js";

const GEMS = ["red", "blue", "white", "black"];
const GEM_NAMES = {
  red: "red Treasure",
  blue: "blue Treasure",
  white: "white Trash",
  black: "black Trash",
};
const PER_KIND = 5;
const ROUNDS = 3;

// The swap's first pick (a door whose black Trash is chosen) survives only while the table
// stays at the same version.
let selection = { key: null, black: null };
let drawn = null; // the last render's arguments, to draw again after a pick

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

function gemRow(kind, count, max = 12) {
  const row = el("span", "hd-gem-row");
  for (let i = 0; i < Math.min(count, max); i++) row.append(gemIcon(kind));
  if (count > max) row.append(el("span", "hd-more", `+${count - max}`));
  return row;
}

function cardFace(ctx, name, size) {
  const face = ctx.card(name, { size });
  face.classList.add("hd-card");
  // The printed words say what the card is; a title would hide the tooltip of a control
  // that holds the card (the engine's reason when the move is not legal).
  face.removeAttribute("title");
  return face;
}

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
    const how = acting
      ? `Click a gem on a ${role} door to move it across, or use the buttons on the ${card}.`
      : "";
    return `${card}: move one gem between the two ${role} doors, remove the white+black ` +
      `pairs from the ${card}, or collect a ${colour.toLowerCase()} Treasure from it once it ` +
      `holds no Trash. ${how}`;
  }
  const pair = card === "Blue/Red"
    ? "the two Red or the two Blue doors"
    : "the two Lady or the two Tiger doors";
  if (m === "place") {
    return `${card}: put a removed white and black Trash back on ${pair}, one on each.` +
      (acting ? " Pick the door that gets the white." : "");
  }
  return `${card}: the removed pile is empty, so swap a black Trash on one door with a white ` +
    `Trash on another.` + (acting ? " Click a black Trash, then a white Trash on another door." : "");
}

function doorPanel(obs, name, ctx, acting) {
  const m = mode(obs);
  const counts = obs.doors[name];
  const panel = el("section", "hd-door");
  panel.dataset.door = name;
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
    chip.append(gemRow(kind, count));
    chip.append(el("span", "hd-chip-label", `${count} ${kind}`));
    const label = `${count} ${GEM_NAMES[kind]} on the ${name}`;
    if (acting && m === "regular") {
      const target = across(name);
      const arrow = el("span", "hd-arrow", colour === "Red" ? "→" : "←");
      arrow.setAttribute("aria-hidden", "true");
      chip.append(arrow);
      chip.setAttribute("aria-label", `${label}: move one to the ${target}`);
      ctx.bind(chip, `move ${GEM_NAMES[kind]} from ${name} to ${target}`);
    } else if (acting && m === "swap" && kind === "black" && selection.black === null) {
      gems.append(pickButton(chip, `${label}: swap one of these black Trash`, false, name));
      continue;
    } else if (acting && m === "swap" && kind === "black" && selection.black === name) {
      const again = `${label}: chosen for the swap (click to choose again)`;
      gems.append(pickButton(chip, again, true, null));
      continue;
    } else if (acting && m === "swap" && kind === "white" && selection.black
               && selection.black !== name) {
      chip.classList.add("hd-target");
      chip.setAttribute("aria-label",
                        `${label}: swap one with the black Trash on the ${selection.black}`);
      ctx.bind(chip, `swap black Trash on ${selection.black} with white Trash on ${name}`);
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
    put.setAttribute("aria-label", `put white Trash on ${name} and black Trash on ${other}`);
    ctx.bind(put, `put white Trash on ${name} and black Trash on ${other}`);
    actions.append(put);
  }
  if (actions.childElementCount) panel.append(actions);
  return panel;
}

// A black Trash picked as the first half of a swap is a plain button: it plays no move.
function pickButton(chip, label, chosen, door) {
  const pick = el("button", chosen ? "hd-chip-pick hd-selected" : "hd-chip-pick");
  pick.type = "button";
  pick.setAttribute("aria-pressed", String(chosen));
  pick.setAttribute("aria-label", label);
  pick.append(chip);
  pick.addEventListener("click", () => choose(door));
  return pick;
}

function choose(door) {
  selection.black = door;
  if (!drawn) return;
  render(drawn.root, drawn.view, drawn.ctx);
  // Keep the keyboard where it was: on the chosen black Trash, or on the first black again.
  const next = drawn.root.querySelector(".hd-chip-pick.hd-selected, .hd-chip-pick");
  if (next && drawn.root.isConnected) next.focus();
}

function square(obs, ctx, acting) {
  const box = el("div", "hd-square");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "the four doors");
  box.append(el("span", "hd-corner"));
  box.append(el("span", "hd-colhead hd-red", "Red"), el("span", "hd-colhead hd-blue", "Blue"));
  for (const row of obs.layout) {
    const role = row[0].split(" ")[1];
    box.append(el("span", "hd-rowhead", role));
    for (const name of row) box.append(doorPanel(obs, name, ctx, acting));
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

function sidePanels(obs, ctx) {
  const side = el("div", "hd-side");

  const deck = el("div", "hd-deck");
  const pile = el("div", "hd-pile");
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
    const under = obs.round_markers[i];
    const disc = el("span", "hd-marker-disc", String(i + 1));
    slot.append(disc);
    if (under) {
      slot.classList.add("hd-covered");
      slot.append(cardFace(ctx, under, "sm"));
      slot.setAttribute("aria-label", `round marker ${i + 1}: ${under} under it, out of the game`);
    } else {
      slot.append(el("span", "hd-marker-open", "open"));
      slot.setAttribute("aria-label", `round marker ${i + 1}: open`);
    }
    markers.append(slot);
  }
  side.append(block("Round markers", markers));

  const removed = el("div", "hd-removed");
  for (const kind of ["white", "black"]) {
    const line = el("div", "hd-line");
    line.append(gemRow(kind, obs.removed[kind]), el("span", null, `${obs.removed[kind]} ${kind}`));
    removed.append(line);
  }
  if (!obs.terminal) {
    const total = obs.removed.white + obs.removed.black;
    removed.append(el("p", "hd-note", `Score if you win now: ${total} of 10`));
  }
  side.append(block("Removed Trash", removed));

  const collected = el("div", "hd-collected");
  for (const kind of ["red", "blue"]) {
    const line = el("div", "hd-line");
    const slots = el("span", "hd-slots");
    for (let i = 0; i < PER_KIND; i++) {
      slots.append(gemIcon(kind, i < obs.collected[kind] ? "hd-gem" : "hd-gem hd-gem-missing"));
    }
    line.append(slots, el("span", null, `${obs.collected[kind]} of ${PER_KIND} ${kind}`));
    collected.append(line);
  }
  side.append(block("Collected Treasure", collected));

  const aside = counted(obs.set_aside, ctx);
  if (obs.face_down) {
    if (!obs.set_aside.length) aside.replaceChildren();
    for (let i = 0; i < obs.face_down; i++) aside.append(cardFace(ctx, null, "sm"));
    aside.append(el("span", "hd-note", `${obs.face_down} face down`));
  }
  side.append(block(`Set aside (${obs.difficulty})`, aside));

  const played = el("div", "hd-cards hd-played");
  if (!obs.played.length) played.append(el("span", "hd-none", "none yet"));
  for (const name of obs.played) played.append(cardFace(ctx, name, "sm"));
  side.append(block("Played this round", played));

  const unseen = counted(obs.still_unseen, ctx);
  if (obs.face_down) unseen.append(el("span", "hd-note", "(includes the face-down cards)"));
  side.append(block("Still unseen", unseen));
  return side;
}

function revealedPanel(obs, ctx, acting) {
  const box = el("section", "hd-revealed");
  box.setAttribute("aria-live", "polite");
  const slot = el("div", "hd-revealed-card");
  let title = obs.revealed ? "Revealed" : "No card revealed";
  if (obs.terminal && obs.won) {
    title = "The hoard is won";
    const trophy = el("div", "hd-trophy");
    trophy.append(gemIcon("red", "hd-gem hd-big"), gemIcon("blue", "hd-gem hd-big"));
    slot.append(trophy);
  } else {
    if (obs.terminal) title = "The hoard is lost";
    slot.append(cardFace(ctx, obs.revealed, "lg"));
  }
  const text = el("div", "hd-revealed-text");
  text.append(el("h3", null, title));
  text.append(el("p", "hd-hint", hint(obs, acting)));
  if (acting && mode(obs) === "swap" && selection.black) {
    const cancel = el("button", "hd-cancel", `Choose another black Trash (now: ${selection.black})`);
    cancel.type = "button";
    cancel.addEventListener("click", () => choose(null));
    text.append(cancel);
  }
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

export function render(root, view, ctx) {
  drawn = { root, view, ctx };
  root.replaceChildren();
  const obs = view.observation;
  const key = `${view.table ?? ""}:${view.version ?? ""}`;
  if (selection.key !== key) selection = { key, black: null };
  const acting = Boolean(view.your_turn) && obs.phase === "action";

  const top = el("header", "hd-status");
  top.append(el("span", "hd-round", `Round ${obs.round} of ${ROUNDS}`));
  top.append(el("span", "hd-difficulty", obs.difficulty));
  const got = obs.collected.red + obs.collected.blue;
  top.append(el("span", "hd-goal", `Treasure ${got} of 10`));
  root.append(top);

  const main = el("div", "hd-main");
  const left = el("div", "hd-table");
  left.append(revealedPanel(obs, ctx, acting), square(obs, ctx, acting), legend());
  main.append(left, sidePanels(obs, ctx));
  root.append(main);
}
