// Traps' table: the goal Door card, the pot and the treasury, each player's gems, hand size
// and stack (its height face down, the revealed cards beside it), the bidding, and the
// seat's own hand.
//
// Moves are made where they happen: click a card in your hand to start or build your stack,
// type a bid and press Bid (or Pass), click the top of a stack to reveal it, and use the
// buttons on a player's panel to give them the trap gem or to stop and give them a gem. The
// view only names moves (ctx.bind); the engine says what is legal and why not.

import {el, svgElement} from "/static/js/dom.js";

const MAX_BID = 13;

let draft = { key: null, bid: null };

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

// A gem: a faceted hexagon (Traps' gems have no colour that matters).
function gemIcon(className = "tp-gem") {
  const icon = svgElement("svg", { viewBox: "0 0 20 20", class: className, "aria-hidden": "true",
                            focusable: "false" });
  icon.append(svgElement("polygon", { points: "10,1 18,5.5 18,14.5 10,19 2,14.5 2,5.5",
                               class: "tp-gem-body" }));
  icon.append(svgElement("path", { d: "M2 5.5 L10 10 L18 5.5 M10 10 L10 19", class: "tp-gem-facet" }));
  return icon;
}

function gemCount(count, label) {
  const box = el("span", "tp-gems");
  box.setAttribute("aria-label", label);
  const shown = Math.min(count, 8);
  for (let i = 0; i < shown; i++) box.append(gemIcon());
  box.append(el("span", "tp-gem-number", String(count)));
  return box;
}

function cardFace(ctx, name, size) {
  const face = ctx.card(name, { size });
  face.classList.add("tp-card");
  // The printed words say what the card is; a title would hide the tooltip of a control
  // that holds the card (the engine's reason when the move is not legal).
  face.removeAttribute("title");
  return face;
}

// How many of the goal's traits a card matches (2, 1, or 0 for a trap): the rules page's
// "Matching", shown beside revealed cards so nobody has to work it out.
export function traits(card, goal) {
  if (!goal) return null;
  if (card === "Blue/Red") return 1;
  if (card === "Lady/Tiger") return 0;
  const [colour, role] = card.split(" ");
  const [goalColour, goalRole] = goal.split(" ");
  return (colour === goalColour ? 1 : 0) + (role === goalRole ? 1 : 0);
}

function scoreBadge(card, goal) {
  const value = traits(card, goal);
  if (value === null) return null;
  return value ? el("span", "tp-score", `+${value}`) : el("span", "tp-score tp-trap", "trap");
}

function matchKey(goal) {
  const box = el("div", "tp-key");
  box.setAttribute("aria-label", `how cards score against the ${goal}`);
  const groups = new Map([[2, []], [1, []], [0, []]]);
  for (const name of ["Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger", "Blue/Red", "Lady/Tiger"]) {
    groups.get(traits(name, goal)).push(name);
  }
  for (const [value, names] of groups) {
    const line = el("div", "tp-key-line");
    line.append(el("span", value ? "tp-score" : "tp-score tp-trap", value ? `+${value}` : "trap"));
    line.append(el("span", null, names.join(", ")));
    box.append(line);
  }
  return box;
}

function centre(obs, ctx) {
  const box = el("section", "tp-centre");
  const goal = el("div", "tp-goal");
  goal.append(el("h3", null, "Goal"));
  goal.append(cardFace(ctx, obs.goal, "lg"));
  box.append(goal);

  const facts = el("div", "tp-facts");
  const pot = el("div", "tp-fact tp-pot");
  pot.append(el("span", "tp-fact-name", "Pot"),
             gemCount(obs.pot, `${plural(obs.pot, "gem")} in the pot`));
  const treasury = el("div", "tp-fact");
  treasury.append(el("span", "tp-fact-name", "Treasury"));
  const vault = el("span", "tp-gems");
  vault.append(gemIcon(), el("span", "tp-gem-number", `\u00D7 ${obs.treasury}`));
  treasury.append(vault);
  const bid = el("div", "tp-fact tp-bid-state");
  bid.append(el("span", "tp-fact-name", "Bid"));
  if (obs.high_bidder === null || obs.high_bidder === undefined) {
    bid.append(el("span", null, "no bid yet"));
  } else {
    bid.append(el("strong", "tp-big", String(obs.high_bid)));
    bid.append(el("span", null, `by ${ctx.seatName(obs.high_bidder)}`));
  }
  facts.append(pot, treasury, bid);
  if (obs.revealer !== null && obs.revealer !== undefined) {
    const progress = el("div", "tp-fact tp-progress");
    progress.append(el("span", "tp-fact-name", "Matched"));
    const meter = el("meter");
    meter.min = 0;
    meter.max = Math.max(1, obs.high_bid);
    meter.value = Math.min(obs.matched, obs.high_bid);
    meter.setAttribute("aria-label", `${obs.matched} of ${obs.high_bid} traits matched`);
    progress.append(meter, el("span", null, `${obs.matched} of ${obs.high_bid}`));
    facts.append(progress);
  }
  const when = el("p", "tp-when",
    `Year ${obs.year}, season ${obs.season} (at most ${obs.max_seasons}) \u00B7 ` +
    `${plural(obs.door_deck, "Door card")} left this year \u00B7 ` +
    `${obs.set_aside} Clue cards set aside unseen`);
  box.append(facts);
  if (obs.goal) box.append(matchKey(obs.goal));
  if (obs.past_seasons.length) box.append(lastSeason(obs, ctx));
  box.append(when);
  return box;
}

// The season just ended: its stacks went back to their owners' hands, so what it turned up
// is shown here, with how it ended.
function lastSeason(obs, ctx) {
  const season = obs.past_seasons[obs.past_seasons.length - 1];
  const box = el("div", "tp-last-season");
  const words = el("p", "tp-last-words");
  words.append(el("strong", null, `Season ${season.season}`),
               ` (goal ${season.goal}): ${seasonWords(season, ctx)}.`);
  box.append(words);
  const shown = el("div", "tp-row");
  season.revealed.forEach((cards, seat) => {
    for (const name of cards) {
      const item = el("span", "tp-revealed-card");
      item.append(cardFace(ctx, name, "xs"), el("span", "tp-caption", ctx.seatName(seat)));
      shown.append(item);
    }
  });
  if (shown.childElementCount) box.append(shown);
  return box;
}

function seasonWords(season, ctx) {
  const bidder = season.high_bidder === null || season.high_bidder === undefined
    ? "no bid" : `${ctx.seatName(season.high_bidder)} bid ${season.bid}, matched ${season.matched}`;
  return `${bidder}; ${season.how}`;
}

function stackNode(obs, seat, ctx, acting) {
  const stack = obs.stacks[seat];
  const box = el("div", "tp-stack");
  const pile = el("div", "tp-pile");
  pile.dataset.stack = String(seat);
  const height = stack.face_down;
  for (let i = 0; i < Math.min(height, 6); i++) {
    const back = el("span", "tp-back");
    back.style.setProperty("--i", String(i));
    pile.append(back);
  }
  if (!height) pile.classList.add("tp-pile-empty");
  pile.append(el("span", "tp-height", height ? String(height) : "empty"));
  const owner = ctx.seatName(seat);
  pile.setAttribute("aria-label", `${owner}'s stack: ${plural(height, "card")} face down`);
  if (acting && obs.phase === "revealing") {
    pile.classList.add("tp-revealable");
    pile.setAttribute("aria-label", `reveal the top card of ${owner}'s stack (${height} face down)`);
    ctx.bind(pile, `reveal seat ${seat}`);
  } else {
    pile.setAttribute("role", "img");
  }
  const revealing = acting && obs.phase === "revealing";
  const caption = el("span", "tp-caption", revealing ? "click to reveal" : "stack");
  const pileBox = el("div", "tp-pile-box");
  pileBox.append(pile, caption);
  box.append(pileBox);

  if (stack.revealed.length) {
    const shown = el("div", "tp-revealed");
    for (const name of stack.revealed) {
      const item = el("span", "tp-revealed-card");
      item.append(cardFace(ctx, name, "sm"));
      const badge = scoreBadge(name, obs.goal);
      if (badge) item.append(badge);
      shown.append(item);
    }
    box.append(shown);
  }
  if (stack.cards && stack.cards.length) {
    const mine = el("div", "tp-own-stack");
    mine.append(el("span", "tp-caption", "your stack, bottom to top (only you see it)"));
    const row = el("div", "tp-row");
    for (const name of stack.cards) row.append(cardFace(ctx, name, "sm"));
    mine.append(row);
    box.append(mine);
  }
  return box;
}

function seatPanel(obs, seat, ctx, view, acting) {
  const panel = el("section", "tp-seat");
  panel.dataset.seat = String(seat);
  const me = view.seat === seat;
  if (me) panel.classList.add("tp-me");
  if (obs.current_player === seat) panel.classList.add("tp-to-move");
  if (obs.passed[seat]) panel.classList.add("tp-passed");

  const head = el("header", "tp-seat-head");
  head.append(el("strong", "tp-name", ctx.seatName(seat)));
  const badges = el("span", "tp-badges");
  const badge = (text, kind) => badges.append(el("span", `tp-badge ${kind || ""}`, text));
  if (obs.current_player === seat) badge("to move", "tp-badge-turn");
  if (obs.starting_player === seat && !obs.terminal) badge("starts");
  if (obs.high_bidder === seat) badge(`bid ${obs.high_bid}`, "tp-badge-bid");
  if (obs.passed[seat]) badge("passed", "tp-badge-passed");
  if (obs.revealer === seat) badge("revealing", "tp-badge-turn");
  if (obs.winner === seat) badge("wins", "tp-badge-win");
  head.append(badges);
  panel.append(head);

  const line = el("div", "tp-seat-line");
  line.append(gemCount(obs.gems[seat], `${ctx.seatName(seat)} holds ${plural(obs.gems[seat], "gem")}`));
  line.append(el("span", "tp-of", `of ${obs.gems_to_win}`));
  const hand = el("span", "tp-hand-size", `${plural(obs.hand_sizes[seat], "card")} in hand`);
  line.append(hand);
  panel.append(line);
  panel.append(stackNode(obs, seat, ctx, acting));

  if (acting && seat !== view.seat) {
    const controls = el("div", "tp-seat-controls");
    if (obs.phase === "trap gem") {
      const give = el("div", "tp-button tp-primary", `Give the trap gem to ${ctx.seatName(seat)}`);
      ctx.bind(give, `trap gem to seat ${seat}`);
      controls.append(give);
    } else if (obs.phase === "revealing") {
      const stop = el("div", "tp-button", `Stop: give ${ctx.seatName(seat)} one of your gems`);
      ctx.bind(stop, `stop and give a gem to seat ${seat}`);
      controls.append(stop);
    }
    if (controls.childElementCount) panel.append(controls);
  }
  return panel;
}

function handPanel(obs, ctx, acting) {
  const box = el("section", "tp-hand");
  const verb = obs.phase === "start stacks" ? "start stack with" : "build";
  const bindable = acting && ["start stacks", "build or bid", "bidding"].includes(obs.phase);
  let title = "Your hand";
  if (acting && obs.phase === "start stacks") title = "Your hand: click a card to start your stack";
  else if (acting && obs.phase === "build or bid") {
    title = "Your hand: click a card to build it onto your stack, or bid";
  }
  box.append(el("h3", null, title));
  if (obs.goal) {
    box.append(el("p", "tp-note",
                  `Beside each card: what it scores against the goal, the ${obs.goal}.`));
  }
  const row = el("div", "tp-row tp-hand-cards");
  if (!obs.hand.length) row.append(el("span", "tp-none", "empty"));
  for (const name of obs.hand) {
    const face = cardFace(ctx, name, "md");
    const badge = scoreBadge(name, obs.goal);
    const item = el("div", "tp-hand-card");
    item.append(face);
    if (badge) item.append(badge);
    if (bindable) {
      item.classList.add("tp-playable");
      item.setAttribute("aria-label", `${verb} ${name}`);
      ctx.bind(item, `${verb} ${name}`);
    }
    row.append(item);
  }
  box.append(row);
  return box;
}

function bidPanel(obs, ctx, view) {
  const box = el("section", "tp-bidding");
  box.append(el("h3", null, obs.high_bid ? `Bid higher than ${obs.high_bid}, or pass` : "Bid"));
  box.append(el("p", "tp-note",
    `How many of the goal's traits you will turn up from the stacks (at most ${MAX_BID}).`));
  const key = `${view.table ?? ""}:${view.version ?? ""}`;
  const lowest = Math.min(obs.high_bid + 1, MAX_BID);
  if (draft.key !== key) draft = { key, bid: lowest };
  const form = el("form", "tp-bid-form");
  const label = el("label", "tp-bid-label", "Traits");
  const input = el("input", "tp-bid-input");
  input.type = "number";
  input.min = String(lowest);
  input.max = String(MAX_BID);
  input.step = "1";
  input.value = String(draft.bid);
  input.id = "tp-bid-input";
  input.setAttribute("inputmode", "numeric");
  label.htmlFor = input.id;
  const slot = el("span", "tp-bid-slot");
  // The Bid button names the move the box holds; a box that holds no whole number names
  // no move, and the engine's answer says which bids there are.
  const makeButton = () => {
    const typed = input.value.trim();
    const amount = /^\d+$/.test(typed) ? Number(typed) : null;
    const button = el("div", "tp-button tp-primary tp-bid-button", `Bid ${amount ?? "?"}`);
    ctx.bind(button, `bid ${amount ?? typed}`);
    slot.replaceChildren(button);
  };
  input.addEventListener("input", () => {
    draft.bid = input.value;
    makeButton();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = slot.firstElementChild;
    if (button) button.click();
  });
  makeButton();
  const pass = el("div", "tp-button tp-pass", "Pass");
  ctx.bind(pass, "pass");
  form.append(label, input, slot, pass);
  box.append(form);
  return box;
}

function history(obs, ctx) {
  const box = el("details", "tp-history");
  box.open = Boolean(obs.terminal);
  box.append(el("summary", null, `Past seasons (${obs.past_seasons.length})`));
  const list = el("ol", "tp-history-list");
  for (const season of [...obs.past_seasons].reverse()) {
    const item = el("li");
    item.value = season.season;
    const title = `Season ${season.season} (year ${season.year}), goal ${season.goal}: `;
    item.append(el("strong", null, title));
    item.append(el("span", null, `${seasonWords(season, ctx)}.`));
    list.append(item);
  }
  box.append(list);
  return box;
}

function phaseLine(obs, ctx, acting) {
  if (obs.terminal) {
    if (obs.winner !== null && obs.winner !== undefined) {
      return `${ctx.seatName(obs.winner)} wins with ${plural(obs.gems[obs.winner], "gem")}.`;
    }
    return `The season cap of ${obs.max_seasons} is reached: the game is a draw.`;
  }
  const who = obs.turn === null || obs.turn === undefined ? null : ctx.seatName(obs.turn);
  const waiting = {
    "start stacks": `${who} starts a stack.`,
    "build or bid": `${who} builds or bids.`,
    bidding: `${who} bids higher or passes.`,
    revealing: `${who} reveals cards: ${obs.matched} of ${obs.high_bid} traits so far.`,
    "trap gem": `${who} revealed an own trap and chooses who takes the gem.`,
  };
  const yours = {
    "start stacks": "Your turn: start your stack with a card from your hand.",
    "build or bid": "Your turn: build (click a card in your hand) or bid.",
    bidding: `Your turn: bid higher than ${obs.high_bid}, or pass.`,
    revealing: "Your turn: click the top of any stack to reveal it " +
      `(${obs.matched} of ${obs.high_bid} so far), or stop by giving an opponent one of your gems.`,
    "trap gem": "You revealed your own trap: choose the opponent who takes the gem from the pot.",
  };
  if (acting && yours[obs.phase]) return yours[obs.phase];
  return waiting[obs.phase] || "The cards are being dealt.";
}

export function render(root, view, ctx) {
  root.replaceChildren();
  const obs = view.observation;
  const acting = Boolean(view.your_turn) && !obs.terminal;
  // The hand and the bid come first while they are what the seat plays.
  const handFirst = acting && ["start stacks", "build or bid", "bidding"].includes(obs.phase);
  root.classList.toggle("tp-hand-first", handFirst);

  const top = el("header", "tp-status");
  top.append(el("p", "tp-phase", phaseLine(obs, ctx, acting)));
  root.append(top);

  const layout = el("div", "tp-main");
  layout.append(centre(obs, ctx));
  const seats = el("div", "tp-seats");
  for (let seat = 0; seat < obs.gems.length; seat++) {
    seats.append(seatPanel(obs, seat, ctx, view, acting));
  }
  layout.append(seats);
  root.append(layout);

  const bottom = el("div", "tp-bottom");
  if (obs.hand) bottom.append(handPanel(obs, ctx, acting));
  if (acting && (obs.phase === "build or bid" || obs.phase === "bidding")) {
    bottom.append(bidPanel(obs, ctx, view));
  }
  if (bottom.childElementCount) root.append(bottom);
  if (obs.past_seasons.length) root.append(history(obs, ctx));
}
