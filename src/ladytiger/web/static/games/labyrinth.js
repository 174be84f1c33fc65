// Labyrinth's table: the 4x4 grid of cards with the red and blue cubs on it, the four Doors
// (start and goal of each colour), and the two Switch cards with their gems.
//
// Every move is a control on the board from the start of the turn. Move a cub: click one of
// the arrows on a card holding your cubs (or click that card, then the neighbouring card to
// move to). Move the labyrinth: under each Switch card sits the list of its switches; or,
// with a Switch card chosen, click one of the highlighted cards, then a second card in its
// row or column. A Door or a card that cannot be switched says why when clicked. The view
// only names moves (ctx.bind); the engine says what is legal and why not.
//
// Motion (js/motion.js): every cub and every Clue card has a key; a cell is a zone. Cubs of a
// colour are alike and cards of a name too, so their identities are their public history:
// the log tells every cub step and every switch, and the view follows them from the start.

import {el, svgElement} from "/static/js/dom.js";
import {lineSeat} from "./table_helpers.js";

const COLUMNS = "ABCD";
const CUBS = 5;
const GEM_OF = { "Blue/Red": "yellow", "Lady/Tiger": "white" };
const SIDES = { "Blue/Red": ["Blue", "Red"], "Lady/Tiger": ["Lady", "Tiger"] };
const DIRECTIONS = [
  ["up", -1, 0, "\u25B2"], ["left", 0, -1, "\u25C0"], ["right", 0, 1, "\u25B6"], ["down", 1, 0, "\u25BC"],
];
const FLASH_MS = 2000;

// The log's sentences for a turn ("You ..." to the player, "Seat 1 ..." to anyone else).
const STEP_LINE = /^(?:You|Seat \d+) moves? an? (red|blue) cub from ([A-D][1-4]) to ([A-D][1-4])\.$/;
const SWITCH_LINE = /^(?:You|Seat \d+) switch(?:es)? ([A-D][1-4]) and ([A-D][1-4]) with the (Blue\/Red|Lady\/Tiger)\.$/;

// What the player has picked on the way to a move; it lasts while the version is the same.
let selection = { key: null, from: null, first: null, switchCard: null, focus: null, note: null };
// The switches already flashed, so that drawing the same table again does not flash them anew.
const flashed = new Set();

// A cub token: red cubs are round, blue cubs square, the top one of a stack with the stack's
// count printed inside, so the two players' cubs differ by shape and words as well as colour.
function cubToken(colour, count = null) {
  const token = el("span", `lb-cub lb-cub-${colour}`);
  const icon = svgElement("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" });
  if (colour === "red") icon.append(svgElement("circle", { cx: "12", cy: "12", r: "10.5" }));
  else icon.append(svgElement("rect", { x: "2", y: "2", width: "20", height: "20", rx: "3" }));
  token.append(icon);
  if (count === null) return token;
  const number = svgElement("text", { x: "12", y: "16.5", "text-anchor": "middle" });
  number.textContent = String(count);
  icon.append(number);
  return token;
}

// A gem on a Switch card: a small diamond in its own colour (its name is in the words beside).
function switchGem(name) {
  const gem = el("span", `lb-gem lb-gem-${name}`);
  const icon = svgElement("svg", { viewBox: "0 0 20 20", role: "img", "aria-label": `the ${name} gem` });
  icon.append(svgElement("polygon", { points: "10,1 19,9 10,19 1,9" }));
  gem.append(icon);
  return gem;
}

function cellName(row, col) {
  return `${COLUMNS[col]}${row + 1}`;
}

function position(name) {
  return [Number(name.slice(1)) - 1, COLUMNS.indexOf(name[0])];
}

function readingIndex(name) {
  const [row, col] = position(name);
  return row * 4 + col;
}

function neighbours(name) {
  const [row, col] = position(name);
  const near = [];
  for (const [, dr, dc] of DIRECTIONS) {
    const r = row + dr;
    const c = col + dc;
    if (r >= 0 && r < 4 && c >= 0 && c < 4) near.push(cellName(r, c));
  }
  return near;
}

function distance(a, b) {
  const [ra, ca] = position(a);
  const [rb, cb] = position(b);
  return Math.abs(ra - rb) + Math.abs(ca - cb);
}

function inLine(a, b) {
  return a !== b && (a[0] === b[0] || a.slice(1) === b.slice(1));
}

// The engine names a pair in reading order: row first, then column.
function switchText(a, b, card) {
  const [first, second] = readingIndex(a) < readingIndex(b) ? [a, b] : [b, a];
  return `switch ${first} ${second} with ${card}`;
}

// The legal switches the engine offered, from their descriptions: {card: [[a, b], ...]}.
function offeredSwitches(view) {
  const offered = { "Blue/Red": [], "Lady/Tiger": [] };
  for (const move of view.legal_actions || []) {
    if (move.verb === "switch" && offered[move.switch]) offered[move.switch].push(move.cells);
  }
  return offered;
}

// ---------------------------------------------------------------- identities
// The turns so far, from the log: cub steps and switches, in order, with the seat of each.
function turns(obs) {
  const found = [];
  for (const line of obs.log || []) {
    const stepped = STEP_LINE.exec(line);
    if (stepped) {
      found.push({ seat: lineSeat(line, obs.viewer), colour: stepped[1], from: stepped[2], to: stepped[3] });
      continue;
    }
    const switched = SWITCH_LINE.exec(line);
    if (switched) {
      found.push({ seat: lineSeat(line, obs.viewer), swap: [switched[1], switched[2]], card: switched[3] });
    }
  }
  return found;
}

/**
 * Keys for the cubs (`cub:0` to `cub:4` red, `cub:5` to `cub:9` blue, as they stood on their
 * start Doors) and the Clue cards (`card:Blue Lady#2`, the second Blue Lady placed), each
 * followed through every step and switch the log tells. {cubs: {cell: {colour: [key]}},
 * cards: {cell: key}}. Should the log not account for the grid, the cubs are numbered where
 * they stand now.
 */
function identities(obs) {
  const squares = obs.grid.flat();
  const cells = squares.map((square) => square.cell);
  const history = turns(obs);
  const cubs = {};
  for (const cell of cells) cubs[cell] = { red: [], blue: [] };
  obs.seat_colours.forEach((colour, seat) => {
    for (let i = 0; i < CUBS; i++) cubs[obs.start_doors[seat]][colour].push(`cub:${seat * CUBS + i}`);
  });
  const origin = Object.fromEntries(cells.map((cell) => [cell, cell]));
  let sound = true;
  for (const turn of history) {
    if (turn.swap) {
      const [a, b] = turn.swap;
      [cubs[a], cubs[b]] = [cubs[b], cubs[a]];
      [origin[a], origin[b]] = [origin[b], origin[a]];
    } else if (cubs[turn.from][turn.colour].length) {
      cubs[turn.to][turn.colour].push(cubs[turn.from][turn.colour].pop());
    } else {
      sound = false;
    }
  }
  for (const square of squares) {
    for (const colour of obs.seat_colours) {
      if (cubs[square.cell][colour].length !== (square.cubs[colour] || 0)) sound = false;
    }
  }
  if (!sound) {
    let next = 0;
    for (const colour of obs.seat_colours) {
      for (const square of squares) {
        cubs[square.cell][colour] = [];
        for (let i = 0; i < (square.cubs[colour] || 0); i++) cubs[square.cell][colour].push(`cub:${next++}`);
      }
    }
  }
  // A card's place-order index: how many cards of its name were placed before it, plus one.
  const placedAt = {};
  for (const square of squares) placedAt[origin[square.cell]] = square;
  const cards = {};
  for (const square of squares) {
    if (square.door || !square.card) continue;
    const home = origin[square.cell];
    let n = 1;
    for (const cell of cells) {
      if (readingIndex(cell) >= readingIndex(home)) continue;
      const was = placedAt[cell];
      if (!was.door && was.card === square.card) n++;
    }
    cards[square.cell] = `card:${square.card}#${n}`;
  }
  return { cubs, cards };
}

// The last finished turn: the cub's step and the switch that followed it, so a player sees at
// once what the opponent just did.
function lastTurn(obs) {
  const history = turns(obs);
  const last = history[history.length - 1];
  if (!last) return null;
  if (last.swap) {
    const step = history[history.length - 2];
    if (!step || step.swap || step.seat !== last.seat) return null;
    return { step, swap: last };
  }
  return { step: last, swap: null };
}

function lastTurnText(last, ctx) {
  let text = `Last turn: ${ctx.seatName(last.step.seat)} moved a ${last.step.colour} cub from ` +
    `${last.step.from} to ${last.step.to}`;
  if (last.swap) {
    const [a, b] = last.swap.swap;
    text += ` and switched ${a} \u21C4 ${b} with ${last.swap.card}`;
  }
  return `${text}.`;
}

function stepsHome(obs, seat) {
  const colour = obs.seat_colours[seat];
  const goal = obs.goal_doors[seat];
  let steps = 0;
  for (const square of obs.grid.flat()) steps += (square.cubs[colour] || 0) * distance(square.cell, goal);
  return steps;
}

// ---------------------------------------------------------------- the grid
function selectable(node, label, handler) {
  node.setAttribute("role", "button");
  node.tabIndex = 0;
  node.setAttribute("aria-label", label);
  node.classList.add("lb-selectable");
  const act = () => {
    selection.focus = node.dataset.cell || node.dataset.switch || null;
    handler();
  };
  node.addEventListener("click", act);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      act();
    }
  });
}

// A grid card: the frame's card face (colour, printed words and a crown or stripes).
function tileFace(ctx, card, key) {
  const face = el("div", "lb-face");
  const picture = ctx.card(card, { size: "sm", class: "lb-card" });
  picture.removeAttribute("title"); // it would hide the tooltip of the cell when it is a control
  if (key) picture.dataset.key = key;
  face.append(picture);
  return face;
}

function cubStack(colour, keys) {
  const stack = el("span", `lb-stack lb-stack-${colour}`);
  keys.forEach((key, index) => {
    const token = cubToken(colour, index === keys.length - 1 ? keys.length : null);
    token.dataset.key = key;
    token.style.setProperty("--i", String(index));
    stack.append(token);
  });
  stack.style.setProperty("--n", String(keys.length));
  return stack;
}

function cellLabel(square, obs) {
  let text = `${square.cell}: ${square.card || "no card"}${square.door ? " Door" : ""}`;
  obs.seat_colours.forEach((colour, seat) => {
    if (obs.start_doors[seat] === square.cell) text += `, ${colour} start`;
    if (obs.goal_doors[seat] === square.cell) text += `, ${colour} goal`;
  });
  for (const [colour, count] of Object.entries(square.cubs)) {
    if (count) text += `, ${count} ${colour} cub${count === 1 ? "" : "s"}`;
  }
  return text;
}

function cellNode(square, obs, state, ctx) {
  const spot = el("div", square.door ? "lb-spot lb-spot-door" : "lb-spot");
  spot.dataset.zone = `cell-${square.cell}`;
  const node = el("div", "lb-cell");
  node.dataset.cell = square.cell;
  if (square.door) node.classList.add("lb-door");
  const moved = obs.cub_moved;
  if (moved && moved.from === square.cell) node.classList.add("lb-moved-from");
  if (moved && moved.to === square.cell) node.classList.add("lb-moved-to");
  const last = state.last;
  if (last && last.swap && last.swap.swap.includes(square.cell)) {
    node.classList.add("lb-last-switched");
    if (state.flash) node.classList.add("lb-flash");
    node.append(el("span", "lb-switched-mark", "\u21C4"));
  }
  if (last && !moved && last.step.from === square.cell) node.classList.add("lb-last-from");
  if (last && !moved && last.step.to === square.cell) node.classList.add("lb-last-to");
  // A Door sits in a dark frame: "Door" above the card, whose start or goal it is below.
  if (square.door) node.append(el("span", "lb-door-strip", "Door"));
  const face = tileFace(ctx, square.card, state.ids.cards[square.cell]);
  face.append(el("span", "lb-coord", square.cell));
  const cubs = el("div", "lb-cubs");
  for (const colour of obs.seat_colours) {
    const keys = state.ids.cubs[square.cell][colour];
    if (keys.length) cubs.append(cubStack(colour, keys));
  }
  if (moved && moved.to === square.cell) cubs.append(el("span", "lb-from", `from ${moved.from}`));
  face.append(cubs);
  node.append(face);
  if (square.door) {
    const tags = el("div", "lb-tags");
    obs.seat_colours.forEach((colour, seat) => {
      if (obs.start_doors[seat] === square.cell) {
        tags.append(el("span", `lb-tag lb-tag-${colour}`, `${colour} start`));
      }
      if (obs.goal_doors[seat] === square.cell) {
        tags.append(el("span", `lb-tag lb-tag-${colour} lb-goal`, `${colour} goal`));
      }
    });
    node.append(tags);
  }

  const label = cellLabel(square, obs);
  node.setAttribute("aria-label", label);
  spot.append(node);
  state.decorate(node, square, label, spot);
  return spot;
}

// The arrows on a card holding the player's cubs: one per neighbouring card, each a move.
// They sit beside the card's control, not inside it, so that no control holds another.
function stepArrows(spot, cell, colour, ctx) {
  const [row, col] = position(cell);
  for (const [side, dr, dc, glyph] of DIRECTIONS) {
    const r = row + dr;
    const c = col + dc;
    if (r < 0 || r > 3 || c < 0 || c > 3) continue;
    const arrow = el("span", `lb-step lb-step-${side}`, glyph);
    arrow.setAttribute("aria-label", "step");
    ctx.bind(arrow, `move ${colour} cub from ${cell} to ${cellName(r, c)}`);
    spot.append(arrow);
  }
}

/**
 * The move text a card that cannot be switched now answers with when clicked: a pair with it
 * that the engine refuses for the reason that concerns this card (a Door; not the trait the
 * gem names; no cub on either card). Null when every such pair would be refused for its
 * other card: the view then says itself what is missing.
 */
function refusedSwitch(square, squares, card, side) {
  const line = squares.filter((other) => inLine(square.cell, other.cell) && !other.door);
  const fits = (other) => Boolean(other.card) && other.card.split(" ").includes(side);
  let partner;
  if (square.door) {
    partner = line.find((other) => distance(other.cell, square.cell) === 1) || line[0];
  } else if (!fits(square)) {
    // The engine names the first card of the pair that breaks the rule: a partner that fits,
    // or one after this card in reading order, leaves this card to be named.
    partner = line.find(fits)
      || line.find((other) => readingIndex(other.cell) > readingIndex(square.cell)) || line[0];
  } else {
    partner = line.find(fits);
  }
  return partner ? switchText(square.cell, partner.cell, card) : null;
}

function instruction(obs, ctx, acting, colour) {
  if (obs.terminal) {
    if (obs.winner !== null && obs.winner !== undefined) {
      const who = `${ctx.seatName(obs.winner)} (${obs.seat_colours[obs.winner]})`;
      return `${who} ${ctx.seatName(obs.winner) === "You" ? "win" : "wins"}: all five cubs escaped.`;
    }
    return `The turn cap of ${obs.turn_cap} is reached: the game is a draw.`;
  }
  const mover = obs.current_player;
  if (!acting) {
    if (mover !== 0 && mover !== 1) return "The labyrinth is being laid out.";
    const what = obs.phase === "move a cub" ? "move a cub" : "move the labyrinth";
    const who = ctx.seatName(mover);
    return `${who} (${obs.seat_colours[mover]}) ${who === "You" ? "are" : "is"} to ${what}.`;
  }
  if (obs.phase === "move a cub") {
    if (selection.from) {
      return `Move a ${colour} cub from ${selection.from}: click a highlighted card next to ` +
        `it (or ${selection.from} again to choose another cub).`;
    }
    return `Your turn: move a ${colour} cub one card. Click an arrow, or the cub and then ` +
      "where it goes.";
  }
  if (selection.first) {
    return `Switch ${selection.first} with ${selection.switchCard}: click a second card in its ` +
      "row or column (click it again to start over).";
  }
  return `Now move the labyrinth with the ${selection.switchCard}: click a highlighted card, ` +
    "then a second one in its row or column, or pick a switch under the Switch cards.";
}

function switchPanel(obs, ctx, acting, offered, redraw, root) {
  const box = el("section", "lb-switches");
  box.append(el("h3", null, "Switch cards"));
  for (const [card, gemOn] of Object.entries(obs.switches)) {
    const item = el("div", "lb-switch");
    item.dataset.switch = card;
    const face = el("div", "lb-switch-card");
    for (const side of SIDES[card]) {
      const half = el("span", `lb-half lb-half-${side.toLowerCase()}`);
      half.append(el("span", "lb-word", side));
      if (side === gemOn) {
        half.classList.add("lb-gem-on");
        half.append(switchGem(GEM_OF[card]));
      }
      face.append(half);
    }
    const about = el("div", "lb-switch-text");
    about.append(el("strong", null, card));
    about.append(el("span", null, `${GEM_OF[card]} gem on ${gemOn}: switches two ${gemOn} cards`));
    item.append(face, about);
    if (acting && obs.phase === "move the labyrinth") {
      const chosen = selection.switchCard === card;
      item.classList.toggle("lb-chosen", chosen);
      item.setAttribute("aria-pressed", String(chosen));
      selectable(item, `use the ${card} card (${GEM_OF[card]} gem on ${gemOn})`, () => {
        selection.switchCard = card;
        selection.first = null;
        selection.note = null;
        redraw();
      });
      const list = el("div", "lb-switch-list");
      if (!offered[card].length) list.append(el("span", "lb-none", "no switch with this card"));
      for (const [a, b] of offered[card]) {
        const button = el("div", "lb-switch-move", `${a} \u21C4 ${b}`);
        button.setAttribute("aria-label", switchText(a, b, card));
        ctx.bind(button, switchText(a, b, card));
        // Pointing at a switch shows its two cards on the grid.
        const show = (on) => {
          for (const cell of [a, b]) {
            root.querySelector(`.lb-cell[data-cell="${cell}"]`)?.classList.toggle("lb-preview", on);
          }
        };
        button.addEventListener("mouseenter", () => show(true));
        button.addEventListener("mouseleave", () => show(false));
        button.addEventListener("focus", () => show(true));
        button.addEventListener("blur", () => show(false));
        list.append(button);
      }
      // The list sits outside the toggle so that its buttons are not nested controls.
      const wrap = el("div", "lb-switch-wrap");
      wrap.append(item, list);
      box.append(wrap);
      continue;
    }
    box.append(item);
  }
  return box;
}

function race(obs, ctx) {
  const box = el("div", "lb-race");
  obs.seat_colours.forEach((colour, seat) => {
    const chip = el("span", `lb-race-chip lb-race-${colour}`);
    if (obs.current_player === seat && !obs.terminal) chip.classList.add("lb-to-move");
    const steps = stepsHome(obs, seat);
    const words = el("span", "lb-race-text");
    const home = el("span", "lb-race-home", String(obs.scores[seat]));
    home.dataset.countKey = `home-${seat}`;
    home.dataset.count = String(obs.scores[seat]);
    const far = el("span", "lb-race-far", `${steps} step${steps === 1 ? "" : "s"} \u00B7 `);
    far.append(home, `/${CUBS} home`);
    words.append(el("b", null, `${ctx.seatName(seat)}:`), " ", far);
    chip.append(cubToken(colour), words);
    chip.title = `${ctx.seatName(seat)} (${colour}): ${obs.scores[seat]} of ${CUBS} cubs home; ` +
      `the cubs still need ${steps} steps in all to reach ${obs.goal_doors[seat]}, if the grid ` +
      "stays as it is";
    box.append(chip);
  });
  return box;
}

function playersPanel(obs, ctx) {
  const box = el("section", "lb-players");
  obs.seat_colours.forEach((colour, seat) => {
    const row = el("div", "lb-player");
    if (obs.current_player === seat) row.classList.add("lb-to-move");
    row.append(cubToken(colour));
    const words = el("div", "lb-player-text");
    words.append(el("strong", null, `${ctx.seatName(seat)}: ${colour}`));
    const steps = stepsHome(obs, seat);
    words.append(el("span", null,
      `${obs.scores[seat]} of ${CUBS} cubs home on ${obs.goal_doors[seat]} ` +
      `(from ${obs.start_doors[seat]}); ${steps} step${steps === 1 ? "" : "s"} to go`));
    row.append(words);
    if (obs.current_player === seat) row.append(el("span", "lb-badge", "to move"));
    box.append(row);
  });
  return box;
}

// The player's own redraw (a pick) keeps what the frame marked as the others' last move.
function redrawer(root, view, ctx) {
  return () => {
    const marked = new Set([...root.querySelectorAll(".lt-moved")].map((node) => node.dataset.key));
    render(root, view, ctx);
    for (const node of root.querySelectorAll("[data-key]")) {
      if (marked.has(node.dataset.key)) node.classList.add("lt-moved");
    }
  };
}

export function render(root, view, ctx) {
  root.replaceChildren();
  const obs = view.observation;
  const redraw = redrawer(root, view, ctx);
  const key = `${view.table ?? ""}:${view.version ?? ""}`;
  if (selection.key !== key) {
    selection = { key, from: null, first: null, switchCard: null, focus: selection.focus, note: null };
  }
  const acting = Boolean(view.your_turn)
    && (obs.phase === "move a cub" || obs.phase === "move the labyrinth");
  const seat = view.seat ?? ctx.seat;
  const colour = seat === 0 || seat === 1 ? obs.seat_colours[seat] : null;
  const offered = offeredSwitches(view);
  const squares = obs.grid.flat();

  if (acting && obs.phase === "move a cub" && !selection.from) {
    // With every cub on one card there is nothing to choose: that card is picked already.
    const own = squares.filter((square) => square.cubs[colour] > 0);
    if (own.length === 1) selection.from = own[0].cell;
  }
  if (acting && obs.phase === "move the labyrinth" && !selection.switchCard) {
    const redBlue = offered["Blue/Red"].length || !offered["Lady/Tiger"].length;
    selection.switchCard = redBlue ? "Blue/Red" : "Lady/Tiger";
  }

  // The previous turn is marked until the player to move has moved a cub; another player's
  // switch flashes on the grid the first time it is drawn.
  const last = obs.cub_moved || obs.terminal ? null : lastTurn(obs);
  let flash = false;
  if (last && last.swap && (seat === null || seat === undefined || last.swap.seat !== seat)) {
    const mark = `${view.table ?? ""}:${(obs.log || []).length}`;
    flash = !flashed.has(mark);
    flashed.add(mark);
  }
  const state = { decorate: () => {}, last, flash, ids: identities(obs) };
  if (acting && obs.phase === "move a cub") {
    const near = selection.from ? neighbours(selection.from) : [];
    state.decorate = (node, square, label, spot) => {
      if (square.cubs[colour] > 0) stepArrows(spot, square.cell, colour, ctx);
      if (square.cell === selection.from) {
        node.classList.add("lb-selected");
        selectable(node, `${label}: chosen, click again to choose another cub`, () => {
          selection.from = null;
          redraw();
        });
      } else if (near.includes(square.cell)) {
        node.classList.add("lb-target");
        node.setAttribute("aria-label",
                          `move a ${colour} cub from ${selection.from} to ${square.cell}`);
        ctx.bind(node, `move ${colour} cub from ${selection.from} to ${square.cell}`);
      } else if (square.cubs[colour] > 0) {
        node.classList.add("lb-own");
        selectable(node, `${label}: choose a ${colour} cub here`, () => {
          selection.from = square.cell;
          redraw();
        });
      }
    };
  } else if (acting && obs.phase === "move the labyrinth") {
    const card = selection.switchCard;
    const side = obs.switches[card];
    const inPairs = new Set(offered[card].flat());
    state.decorate = (node, square, label) => {
      if (selection.first === square.cell) {
        node.classList.add("lb-selected");
        selectable(node, `${label}: chosen, click again to start over`, () => {
          selection.first = null;
          redraw();
        });
      } else if (selection.first && inLine(selection.first, square.cell)) {
        node.classList.add("lb-target");
        const text = switchText(selection.first, square.cell, card);
        node.setAttribute("aria-label", text);
        ctx.bind(node, text);
      } else if (inPairs.has(square.cell)) {
        node.classList.add("lb-switchable");
        selectable(node, `${label}: switch this card with the ${card}`, () => {
          selection.first = square.cell;
          selection.note = null;
          redraw();
        });
      } else {
        const refused = refusedSwitch(square, squares, card, side);
        if (refused) {
          ctx.bind(node, refused);
          node.setAttribute("aria-label", `${label}: cannot be switched with the ${card} now`);
        } else {
          const why = `${square.cell} cannot be switched with the ${card}: no other ${side} card ` +
            "lies in its row or column.";
          selectable(node, `${label}: cannot be switched with the ${card} now`, () => {
            selection.note = why;
            redraw();
          });
        }
        node.classList.add("lb-unswitchable");
      }
    };
  }

  const top = el("header", "lb-status");
  top.append(el("span", "lb-turn", `Turn ${obs.turn} of at most ${obs.turn_cap}`));
  top.append(race(obs, ctx));
  top.append(el("p", "lb-instruction", instruction(obs, ctx, acting, colour)));
  if (selection.note) {
    const note = el("p", "lb-note", selection.note);
    note.setAttribute("role", "status");
    top.append(note);
  }
  if (last) top.append(el("p", "lb-last", lastTurnText(last, ctx)));
  root.append(top);

  const main = el("div", "lb-main");
  const board = el("div", "lb-board");
  board.setAttribute("role", "group");
  board.setAttribute("aria-label", "the labyrinth, columns A to D, rows 1 to 4");
  board.append(el("span", "lb-axis"));
  for (const letter of COLUMNS) board.append(el("span", "lb-axis", letter));
  obs.grid.forEach((row, index) => {
    board.append(el("span", "lb-axis", String(index + 1)));
    for (const square of row) board.append(cellNode(square, obs, state, ctx));
  });
  const legend = el("p", "lb-legend");
  legend.append(cubToken("red"), el("span", null, "red cubs,"),
                cubToken("blue"), el("span", null, "blue cubs; the number is how many"));
  const left = el("div", "lb-left");
  left.append(board, legend);
  const side = el("div", "lb-side");
  side.append(playersPanel(obs, ctx), switchPanel(obs, ctx, acting, offered, redraw, root));
  main.append(left, side);
  root.append(main);

  if (flash) {
    // Past the flash, the two cards stay marked (until the player's next move) but still.
    setTimeout(() => {
      for (const node of root.querySelectorAll(".lb-flash")) node.classList.remove("lb-flash");
    }, FLASH_MS);
  }
  if (selection.focus) {
    const wanted = selection.focus;
    const target = root.querySelector(`[data-cell="${wanted}"], [data-switch="${wanted}"]`);
    if (target && target.tabIndex >= 0 && root.isConnected) target.focus();
    selection.focus = null;
  }
}
