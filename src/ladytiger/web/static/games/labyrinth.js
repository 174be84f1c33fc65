// Labyrinth's table: the 4x4 grid of cards with the red and blue cubs on it, the four Doors
// (start and goal of each colour), and the two Switch cards with their gems.
//
// A turn is made on the grid. Move a cub: click a cell holding one of your cubs, then the
// neighbouring cell to move it to. Move the labyrinth: choose a Switch card, click a card and
// then a second card in its row or column, or pick a switch from the list under the chosen
// Switch card. The view only names moves (ctx.bind); the engine says what is legal and why.

import {el, svgElement} from "/static/js/dom.js";

const COLUMNS = "ABCD";
const CUBS = 5;
const GEM_OF = { "Blue/Red": "yellow", "Lady/Tiger": "white" };
const SIDES = { "Blue/Red": ["Blue", "Red"], "Lady/Tiger": ["Lady", "Tiger"] };

// What the player has picked on the way to a move; it lasts while the version is the same.
let selection = { key: null, from: null, first: null, switchCard: null, focus: null };
let drawn = null; // the last render's arguments, to draw again after a pick

// A cub token: red cubs are round, blue cubs square, each with its count printed inside, so
// the two players' cubs differ by shape and by the legend's words as well as by colour.
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
  token.setAttribute("title", `${count} ${colour} cub${count === 1 ? "" : "s"}`);
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

function neighbours(name) {
  const [row, col] = position(name);
  const near = [];
  for (const [dr, dc] of [[-1, 0], [0, -1], [0, 1], [1, 0]]) {
    const r = row + dr;
    const c = col + dc;
    if (r >= 0 && r < 4 && c >= 0 && c < 4) near.push(cellName(r, c));
  }
  return near;
}

function inLine(a, b) {
  return a !== b && (a[0] === b[0] || a.slice(1) === b.slice(1));
}

// The engine names a pair in reading order: row first, then column.
function readingOrder(a, b) {
  const [ra, ca] = position(a);
  const [rb, cb] = position(b);
  return ra * 4 + ca < rb * 4 + cb ? [a, b] : [b, a];
}

function switchText(a, b, card) {
  const [first, second] = readingOrder(a, b);
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

function redraw() {
  if (drawn) render(drawn.root, drawn.view, drawn.ctx);
}

// A grid card: the frame's card face (colour, printed words and a crown or stripes).
function tileFace(ctx, card) {
  const face = el("div", "lb-face");
  const picture = ctx.card(card, { size: "sm", class: "lb-card" });
  picture.removeAttribute("title"); // it would hide the tooltip of the cell when it is a control
  face.append(picture);
  return face;
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
  const node = el("div", "lb-cell");
  node.dataset.cell = square.cell;
  if (square.door) node.classList.add("lb-door");
  const moved = obs.cub_moved;
  if (moved && moved.from === square.cell) node.classList.add("lb-moved-from");
  if (moved && moved.to === square.cell) node.classList.add("lb-moved-to");
  const last = state.last;
  if (last && last.swap && last.swap.cells.includes(square.cell)) {
    node.classList.add("lb-last-switched");
    node.append(el("span", "lb-switched-mark", "\u21C4"));
  }
  if (last && !moved && last.step.from === square.cell) node.classList.add("lb-last-from");
  if (last && !moved && last.step.to === square.cell) node.classList.add("lb-last-to");
  // A Door sits in a dark frame: "Door" above the card, whose start or goal it is below.
  if (square.door) node.append(el("span", "lb-door-strip", "Door"));
  const face = tileFace(ctx, square.card);
  face.append(el("span", "lb-coord", square.cell));
  const cubs = el("div", "lb-cubs");
  for (const colour of obs.seat_colours) {
    if (square.cubs[colour]) cubs.append(cubToken(colour, square.cubs[colour]));
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
  state.decorate(node, square, label);
  return node;
}

// The last finished turn, read from the log (the engine's own move texts): the cub's step and
// the switch that followed it, so a player sees at once what the opponent just did.
function lastTurn(obs) {
  const log = obs.log || [];
  const seatOf = (number) => (number === undefined ? obs.viewer : Number(number));
  let swap = null;
  for (let i = log.length - 1; i >= Math.max(0, log.length - 8); i--) {
    // "Seat 1 switches C2 and D2 with the Lady/Tiger." / "You switch ..."
    const switched = /^(?:Seat (\d+)|You) switch(?:es)? (\w\d) and (\w\d) with the (.+)\.$/
      .exec(log[i]);
    if (switched && !swap) {
      swap = { seat: seatOf(switched[1]), cells: [switched[2], switched[3]], card: switched[4] };
      continue;
    }
    // "Seat 1 moves a blue cub from D1 to D2." / "You move a red cub ..."
    const stepped = /^(?:Seat (\d+)|You) moves? an? (\w+) cub from (\w\d) to (\w\d)\.$/
      .exec(log[i]);
    if (stepped) {
      const step = { seat: seatOf(stepped[1]), colour: stepped[2], from: stepped[3], to: stepped[4] };
      return { step, swap: swap && swap.seat === step.seat ? swap : null };
    }
  }
  return null;
}

function lastTurnText(last, ctx) {
  let text = `Last turn: ${ctx.seatName(last.step.seat)} moved a ${last.step.colour} cub from ` +
    `${last.step.from} to ${last.step.to}`;
  if (last.swap) {
    const [a, b] = last.swap.cells;
    text += ` and switched ${a} \u21C4 ${b} with ${last.swap.card}`;
  }
  return `${text}.`;
}

function instruction(obs, view, ctx, acting, colour) {
  if (obs.terminal) {
    if (obs.winner !== null && obs.winner !== undefined) {
      const who = `${ctx.seatName(obs.winner)} (${obs.seat_colours[obs.winner]})`;
      return `${who} wins: all five cubs escaped.`;
    }
    return `The turn cap of ${obs.turn_cap} is reached: the game is a draw.`;
  }
  const mover = obs.current_player;
  if (!acting) {
    if (mover !== 0 && mover !== 1) return "The labyrinth is being laid out.";
    const what = obs.phase === "move a cub" ? "move a cub" : "move the labyrinth";
    return `${ctx.seatName(mover)} (${obs.seat_colours[mover]}) is to ${what}.`;
  }
  if (obs.phase === "move a cub") {
    if (selection.from) {
      return `Move a ${colour} cub from ${selection.from}: click a highlighted neighbouring ` +
        "cell (click the cub again to choose another).";
    }
    return `Your turn: click one of your ${colour} cubs, then the neighbouring cell to move it to.`;
  }
  if (selection.first) {
    return `Switch ${selection.first} with ${selection.switchCard}: click a second card in its ` +
      "row or column (click it again to start over).";
  }
  return "Now move the labyrinth: choose a Switch card, then click two of its cards in one row " +
    "or column, one of them carrying a cub; or pick a switch from the list.";
}

function switchPanel(obs, view, ctx, acting, offered) {
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
        redraw();
      });
      const list = el("div", "lb-switch-list");
      if (!offered[card].length) list.append(el("span", "lb-none", "no switch with this card"));
      for (const [a, b] of offered[card]) {
        const button = el("div", "lb-switch-move", `${a} \u21C4 ${b}`);
        button.setAttribute("aria-label", switchText(a, b, card));
        ctx.bind(button, switchText(a, b, card));
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

function playersPanel(obs, ctx) {
  const box = el("section", "lb-players");
  obs.seat_colours.forEach((colour, seat) => {
    const row = el("div", "lb-player");
    if (obs.current_player === seat) row.classList.add("lb-to-move");
    row.append(cubToken(colour));
    const words = el("div", "lb-player-text");
    words.append(el("strong", null, `${ctx.seatName(seat)}: ${colour}`));
    words.append(el("span", null,
      `${obs.scores[seat]} of ${CUBS} cubs home on ${obs.goal_doors[seat]} ` +
      `(from ${obs.start_doors[seat]})`));
    row.append(words);
    if (obs.current_player === seat) row.append(el("span", "lb-badge", "to move"));
    box.append(row);
  });
  return box;
}

export function render(root, view, ctx) {
  drawn = { root, view, ctx };
  root.replaceChildren();
  const obs = view.observation;
  const key = `${view.table ?? ""}:${view.version ?? ""}`;
  if (selection.key !== key) {
    selection = { key, from: null, first: null, switchCard: null, focus: selection.focus };
  }
  const acting = Boolean(view.your_turn)
    && (obs.phase === "move a cub" || obs.phase === "move the labyrinth");
  const seat = view.seat ?? ctx.seat;
  const colour = seat === 0 || seat === 1 ? obs.seat_colours[seat] : null;
  const offered = offeredSwitches(view);
  const squares = obs.grid.flat();

  if (acting && obs.phase === "move a cub" && !selection.from) {
    // With every cub on one cell there is nothing to choose: that cell is picked already.
    const own = squares.filter((square) => square.cubs[colour] > 0);
    if (own.length === 1) selection.from = own[0].cell;
  }
  if (acting && obs.phase === "move the labyrinth" && !selection.switchCard) {
    const redBlue = offered["Blue/Red"].length || !offered["Lady/Tiger"].length;
    selection.switchCard = redBlue ? "Blue/Red" : "Lady/Tiger";
  }

  // The previous turn is marked while the new one has not moved a cub yet.
  const last = obs.cub_moved || obs.terminal ? null : lastTurn(obs);
  const state = { decorate: () => {}, last };
  if (acting && obs.phase === "move a cub") {
    const near = selection.from ? neighbours(selection.from) : [];
    state.decorate = (node, square, label) => {
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
    const inPairs = new Set(offered[card].flat());
    state.decorate = (node, square, label) => {
      if (inPairs.has(square.cell)) node.classList.add("lb-switchable");
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
      } else if (!square.door) {
        selectable(node, `${label}: switch this card with ${card}`, () => {
          selection.first = square.cell;
          redraw();
        });
      }
    };
  }

  const top = el("header", "lb-status");
  top.append(el("span", "lb-turn", `Turn ${obs.turn} of at most ${obs.turn_cap}`));
  top.append(el("p", "lb-instruction", instruction(obs, view, ctx, acting, colour)));
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
  side.append(playersPanel(obs, ctx), switchPanel(obs, view, ctx, acting, offered));
  main.append(left, side);
  root.append(main);

  if (selection.focus) {
    const wanted = selection.focus;
    const target = root.querySelector(`[data-cell="${wanted}"], [data-switch="${wanted}"]`);
    if (target && target.tabIndex >= 0 && root.isConnected) target.focus();
    selection.focus = null;
  }
}
