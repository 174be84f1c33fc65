// Traps' table: the goal Door card, the pot and the treasury, each player's gems, hand size
// and stack (its height face down, the revealed cards beside it), the bidding, and the
// seat's own hand.
//
// Moves are made where they happen: click a card in your hand to start or build your stack,
// step the bid beside the pot and press Bid (or Pass), click the top of a stack to reveal it,
// and use the buttons on a player's panel to give them the trap gem or to stop and give them
// a gem. The view only names moves (ctx.bind); the engine says what is legal and why not.
//
// Motion (the frame's contract): the seat's own cards keep one key from hand to stack to
// face up and back, other stacks' cards arrive face up out of their stack, and the pot, the
// treasury and every seat's gems are counts that can rise.

import {el, svgElement} from "/static/js/dom.js";

const MAX_BID = 13;

// The bid being stepped, kept while the view is drawn again for the same bidding.
let draft = { key: null, bid: null };

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** The engine's words with each "Seat N" shown as that seat's name at the table. */
function named(text, ctx) {
  return String(text).replace(/\bSeat (\d+)\b/g, (_, seat) => ctx.seatName(Number(seat)));
}

// The frame names the reader's own seat "You", and "You" takes the verb's plain form ("You
// build", "Ana builds") and its own possessive ("your stack", "Ana's stack").
function isYou(ctx, seat) {
  return ctx.seatName(seat) === "You";
}

function whose(ctx, seat) {
  return isYou(ctx, seat) ? "your" : `${ctx.seatName(seat)}'s`;
}

function whom(ctx, seat) {
  return isYou(ctx, seat) ? "you" : ctx.seatName(seat);
}

function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function counted(element, key, count) {
  element.dataset.countKey = key;
  element.dataset.count = String(count);
  return element;
}

/**
 * Motion keys of the seat's own cards, which it sees wherever they are. For each name: the
 * stack's from the bottom up, then the ones turned up from it, latest first, then the hand.
 * Building puts a card of the hand on top of the stack and turning up takes the top card of
 * the stack, so in both the card keeps its key; the season's end takes them all home with
 * their keys. A year deals new cards, new keys.
 */
function ownKeys(obs, seat) {
  const stack = obs.stacks[seat];
  const year = `y${obs.year}-`;
  const next = new Map();
  const key = (name) => {
    const index = next.get(name) || 0;
    next.set(name, index + 1);
    return `card:${name}#${year}${index}`;
  };
  const below = (stack.cards || []).map(key);
  const shown = [...stack.revealed].reverse().map(key).reverse();
  const hand = (obs.hand || []).map(key);
  return { stack: below, revealed: shown, hand };
}

/** Another seat's cards turned up this season: new keys, each out of that seat's stack. */
function revealedKeys(obs, seat) {
  const next = new Map();
  return obs.stacks[seat].revealed.map((name) => {
    const index = next.get(name) || 0;
    next.set(name, index + 1);
    return `card:${name}#s${seat}-${index}`;
  });
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

function centre(obs, ctx, view, acting) {
  const box = el("section", "tp-centre");
  const goal = el("div", "tp-goal");
  goal.append(el("h3", null, "Goal"));
  goal.append(cardFace(ctx, obs.goal, "lg"));
  box.append(goal);

  const facts = el("div", "tp-facts");
  const pot = el("div", "tp-fact tp-pot");
  pot.dataset.zone = "pot";
  pot.append(el("span", "tp-fact-name", "Pot"),
             counted(gemCount(obs.pot, `${plural(obs.pot, "gem")} in the pot`), "pot", obs.pot));
  const treasury = el("div", "tp-fact");
  treasury.dataset.zone = "treasury";
  treasury.append(el("span", "tp-fact-name", "Treasury"));
  const vault = el("span", "tp-gems");
  vault.setAttribute("aria-label", `${plural(obs.treasury, "gem")} in the treasury`);
  vault.append(gemIcon(), el("span", "tp-gem-number", `\u00D7 ${obs.treasury}`));
  treasury.append(counted(vault, "treasury", obs.treasury));
  const bid = el("div", "tp-fact tp-bid-state");
  bid.append(el("span", "tp-fact-name", "Bid"));
  if (obs.high_bidder === null || obs.high_bidder === undefined) {
    bid.append(el("span", null, "no bid yet"));
  } else {
    bid.append(el("strong", "tp-big", String(obs.high_bid)));
    bid.append(el("span", null, `by ${whom(ctx, obs.high_bidder)}`));
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
  if (acting && (obs.phase === "build or bid" || obs.phase === "bidding")) {
    box.append(bidStepper(obs, ctx, view));
  }
  if (obs.goal) box.append(matchKey(obs.goal));
  if (obs.past_seasons.length) box.append(lastSeason(obs, ctx));
  box.append(when);
  return box;
}

/**
 * The one bid control: a stepper offering only the bids the rules allow now (above the high
 * bid, at most 13), whose middle button makes the bid shown, and Pass beside it. The ends
 * of the range have no step button, so nothing on it leads to an impossible bid.
 */
function bidStepper(obs, ctx, view) {
  const lowest = obs.high_bid + 1;
  const box = el("div", "tp-bid-controls");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "your bid");
  const key = `${view.table ?? ""}:${obs.season}:${obs.high_bid}`;
  if (draft.key !== key || !(draft.bid >= lowest && draft.bid <= MAX_BID)) {
    draft = { key, bid: lowest };
  }
  // A guided game names the bid it teaches (ctx.suggested): the stepper starts there, so the
  // one button the coach marks is the move it asks for.
  const wanted = /^bid (\d+)$/.exec(ctx.suggested || "");
  if (wanted && Number(wanted[1]) >= lowest && Number(wanted[1]) <= MAX_BID) {
    draft.bid = Number(wanted[1]);
  }
  const stepper = el("span", "tp-stepper");
  const draw = (focus) => {
    const amount = draft.bid;
    const step = (by, label, sign) => {
      const target = amount + by;
      if (lowest === MAX_BID) return null;  // one bid: no steps, and no room kept for them
      if (target < lowest || target > MAX_BID) return el("span", "tp-step-none");
      const button = el("button", "tp-step", sign);
      button.type = "button";
      button.dataset.step = String(by);
      button.setAttribute("aria-label", `${label}: ${target}`);
      button.title = `${label}: ${target}`;
      button.addEventListener("click", () => {
        draft.bid = target;
        draw(by);
      });
      return button;
    };
    const bid = el("div", "tp-button tp-primary tp-bid-button", `Bid ${amount}`);
    ctx.bind(bid, `bid ${amount}`);
    bid.setAttribute("aria-keyshortcuts", "ArrowUp ArrowDown");
    bid.addEventListener("keydown", (event) => {
      const by = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1 }[event.key];
      if (!by || amount + by < lowest || amount + by > MAX_BID) return;
      event.preventDefault();
      draft.bid = amount + by;
      draw(0);
    });
    stepper.replaceChildren(...[step(-1, "one fewer", "\u2212"), bid, step(1, "one more", "+")]
      .filter(Boolean));
    // The focus stays on the step just used, or on the bid once that step is gone.
    if (focus !== undefined) {
      (stepper.querySelector(`[data-step="${focus}"]`) || bid).focus();
    }
  };
  if (lowest <= MAX_BID) draw();
  else stepper.append(el("span", "tp-note tp-no-bid", `nobody can bid above ${MAX_BID}`));
  const pass = el("div", "tp-button tp-pass", "Pass");
  ctx.bind(pass, "pass");
  const label = el("span", "tp-bid-label", "Your bid: the goal's traits you will turn up");
  box.append(label, stepper, pass);
  return box;
}

// The season just ended: its stacks went back to their owners' hands, so what it turned up
// is shown here, with how it ended.
function lastSeason(obs, ctx) {
  const season = obs.past_seasons[obs.past_seasons.length - 1];
  const box = el("div", "tp-last-season");
  const words = el("p", "tp-last-words");
  words.append(el("strong", null, `Season ${season.season}`),
               ` (goal ${season.goal}): ${seasonWords(season, ctx)}`);
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

// "Ana bid 3 and matched 2. You reached the bid ..." : `how` is the engine's sentence for
// this seat, in the log's words.
function seasonWords(season, ctx) {
  const how = named(season.how, ctx);
  if (season.high_bidder === null || season.high_bidder === undefined) return how;
  return `${ctx.seatName(season.high_bidder)} bid ${season.bid} and matched ${season.matched}. ${how}`;
}

function stackCards(obs, seat, ctx, own) {
  const row = el("div", "tp-row");
  row.dataset.zone = `stack-${seat}`;
  // Another seat's cards are seen only when the end turns the stacks over: new keys, each
  // out of that seat's stack (apart from the ones turned up during the season).
  const next = new Map();
  obs.stacks[seat].cards.forEach((name, index) => {
    const face = cardFace(ctx, name, "sm");
    if (own) {
      face.dataset.key = own.stack[index];
    } else {
      const count = next.get(name) || 0;
      next.set(name, count + 1);
      face.dataset.key = `card:${name}#s${seat}-down${count}`;
      face.dataset.from = `stack-${seat}`;
    }
    row.append(face);
  });
  return row;
}

function stackNode(obs, seat, ctx, acting, own) {
  const stack = obs.stacks[seat];
  const box = el("div", "tp-stack");
  const height = stack.face_down;
  const owner = ctx.seatName(seat);
  const ownersStack = `${whose(ctx, seat)} stack`;
  // The end of the game turns every stack face up for everyone (rules: ruling 21), and the
  // stack lies face up where it stood.
  const faceUp = obs.terminal && height > 0 && Array.isArray(stack.cards)
    && stack.cards.length === height;
  const pileBox = el("div", "tp-pile-box");
  if (faceUp) {
    const up = stackCards(obs, seat, ctx, own);
    up.classList.add("tp-stack-face-up");
    up.setAttribute("aria-label",
      `${capitalised(ownersStack)}, face up, bottom to top: ${stack.cards.join(", ")}`);
    pileBox.append(up, el("span", "tp-caption", "stack, face up at the end (bottom to top)"));
  } else {
    const pile = el("div", "tp-pile");
    pile.dataset.stack = String(seat);
    pile.dataset.zone = `stack-${seat}`;
    for (let i = 0; i < Math.min(height, 6); i++) {
      const back = el("span", "tp-back");
      back.style.setProperty("--i", String(i));
      pile.append(back);
    }
    if (!height) pile.classList.add("tp-pile-empty");
    // A card built on it shows as the height rising.
    pile.append(counted(el("span", "tp-height", height ? String(height) : "empty"),
      `stack-${seat}`, height));
    pile.setAttribute("aria-label",
      `${capitalised(ownersStack)}: ${plural(height, "card")} face down`);
    const revealing = acting && obs.phase === "revealing";
    if (revealing) {
      pile.classList.add("tp-revealable");
      pile.setAttribute("aria-label", `reveal the top card of ${ownersStack} (${height} face down)`);
      ctx.bind(pile, `reveal seat ${seat}`);
    } else {
      pile.setAttribute("role", "img");
    }
    pileBox.append(pile, el("span", "tp-caption", revealing ? "click to reveal" : "stack"));
  }
  box.append(pileBox);

  if (stack.revealed.length) {
    const shown = el("div", "tp-revealed");
    shown.dataset.zone = `revealed-${seat}`;
    const keys = own ? own.revealed : revealedKeys(obs, seat);
    stack.revealed.forEach((name, index) => {
      const item = el("span", "tp-revealed-card");
      const face = cardFace(ctx, name, "sm");
      face.dataset.key = keys[index];
      face.dataset.from = `stack-${seat}`;
      item.append(face);
      const badge = scoreBadge(name, obs.goal);
      if (badge) item.append(badge);
      shown.append(item);
    });
    box.append(shown);
  }
  if (!faceUp && stack.cards && stack.cards.length) {
    const mine = el("div", "tp-own-stack");
    const words = drawnUnderName(ctx, seat)
      ? `${owner}'s stack, bottom to top (only they see it)`
      : "your stack, bottom to top (only you see it)";
    mine.append(el("span", "tp-caption", words), stackCards(obs, seat, ctx, own));
    box.append(mine);
  }
  return box;
}

// Whether `seat` is drawn under its name rather than as "You" (the end summary's tabs and a
// replay draw a seat's own view under its name).
function drawnUnderName(ctx, seat) {
  return ctx.seatName(seat) !== "You";
}

function seatPanel(obs, seat, ctx, view, acting) {
  const panel = el("section", "tp-seat");
  panel.dataset.seat = String(seat);
  const me = view.seat === seat;
  if (me) panel.classList.add("tp-me");
  if (obs.current_player === seat) panel.classList.add("tp-to-move");
  if (obs.passed[seat] && !obs.terminal) panel.classList.add("tp-passed");

  const head = el("header", "tp-seat-head");
  head.append(el("strong", "tp-name", ctx.seatName(seat)));
  const badges = el("span", "tp-badges");
  const badge = (text, kind) => badges.append(el("span", `tp-badge ${kind || ""}`, text));
  if (obs.current_player === seat) badge("to move", "tp-badge-turn");
  if (obs.starting_player === seat && !obs.terminal) badge("starts");
  if (obs.high_bidder === seat) badge(`bid ${obs.high_bid}`, "tp-badge-bid");
  if (obs.passed[seat] && !obs.terminal) badge("passed", "tp-badge-passed");
  if (obs.revealer === seat) badge("revealing", "tp-badge-turn");
  if (obs.winner === seat) badge("wins", "tp-badge-win");
  head.append(badges);
  panel.append(head);

  // "3 gems (5 wins)": what the seat holds, and what wins the game.
  const line = el("div", "tp-seat-line");
  const holds = isYou(ctx, seat) ? "You hold" : `${ctx.seatName(seat)} holds`;
  const held = gemCount(obs.gems[seat], `${holds} ${plural(obs.gems[seat], "gem")}`);
  held.querySelector(".tp-gem-number").textContent = plural(obs.gems[seat], "gem");
  line.append(counted(held, `gems-${seat}`, obs.gems[seat]));
  line.append(el("span", "tp-of", `(${obs.gems_to_win} wins)`));
  const hand = el("span", "tp-hand-size", `${plural(obs.hand_sizes[seat], "card")} in hand`);
  line.append(hand);
  panel.append(line);
  const own = seat === view.seat && obs.hand ? ownKeys(obs, seat) : null;
  panel.append(stackNode(obs, seat, ctx, acting, own));

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

function handPanel(obs, ctx, acting, seat) {
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
  row.dataset.zone = `hand-${seat}`;
  if (!obs.hand.length) row.append(el("span", "tp-none", "empty"));
  const keys = ownKeys(obs, seat).hand;
  for (const [index, name] of obs.hand.entries()) {
    const face = cardFace(ctx, name, "md");
    face.dataset.key = keys[index];
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
    item.append(el("span", null, seasonWords(season, ctx)));
    list.append(item);
  }
  box.append(list);
  return box;
}

function phaseLine(obs, ctx, acting) {
  if (obs.terminal) {
    if (obs.winner !== null && obs.winner !== undefined) {
      const wins = isYou(ctx, obs.winner) ? "You win" : `${ctx.seatName(obs.winner)} wins`;
      return `${wins} with ${plural(obs.gems[obs.winner], "gem")}.`;
    }
    return `The season cap of ${obs.max_seasons} is reached: the game is a draw.`;
  }
  const turn = obs.turn === null || obs.turn === undefined ? null : obs.turn;
  // Whose turn it is, in words for "You" (a view drawn while the move is not yet offered)
  // or for anyone else.
  const said = (yourWords, theirWords) => (turn !== null && isYou(ctx, turn)
    ? `You ${yourWords}` : `${ctx.seatName(turn)} ${theirWords}`);
  const sofar = `${obs.matched} of ${obs.high_bid} traits so far`;
  const waiting = {
    "start stacks": said("start your stack.", "starts a stack."),
    "build or bid": said("build or bid.", "builds or bids."),
    bidding: said("bid higher or pass.", "bids higher or passes."),
    revealing: said(`reveal cards: ${sofar}.`, `reveals cards: ${sofar}.`),
    "trap gem": said("revealed your own trap and choose who takes the gem.",
      "revealed their own trap and chooses who takes the gem."),
  };
  const yours = {
    "start stacks": "Your turn: start your stack with a card from your hand.",
    "build or bid": "Your turn: build (click a card in your hand) or bid (beside the pot).",
    bidding: `Your turn: bid higher than ${obs.high_bid}, or pass.`,
    revealing: "Your turn: click the top of any stack to reveal it " +
      `(${obs.matched} of ${obs.high_bid} so far), or stop by giving an opponent one of your gems.`,
    "trap gem": "You revealed your own trap: choose the opponent who takes the gem from the pot.",
  };
  if (acting && yours[obs.phase]) return yours[obs.phase];
  if (obs.phase === "goal card") return "The goal Door is being turned up.";
  return waiting[obs.phase] || "The cards are being dealt.";
}

export function render(root, view, ctx) {
  root.replaceChildren();
  const obs = view.observation;
  const acting = Boolean(view.your_turn) && !obs.terminal;
  // The hand comes first while the seat plays from it (the bid is beside the pot).
  const handFirst = acting && ["start stacks", "build or bid"].includes(obs.phase);
  root.classList.toggle("tp-hand-first", handFirst);

  const top = el("header", "tp-status");
  top.append(el("p", "tp-phase", phaseLine(obs, ctx, acting)));
  root.append(top);

  const layout = el("div", "tp-main");
  layout.append(centre(obs, ctx, view, acting));
  const seats = el("div", "tp-seats");
  for (let seat = 0; seat < obs.gems.length; seat++) {
    seats.append(seatPanel(obs, seat, ctx, view, acting));
  }
  layout.append(seats);
  root.append(layout);

  const bottom = el("div", "tp-bottom");
  if (obs.hand && view.seat !== null && view.seat !== undefined) {
    bottom.append(handPanel(obs, ctx, acting, view.seat));
  }
  if (bottom.childElementCount) root.append(bottom);
  if (obs.past_seasons.length) root.append(history(obs, ctx));
}
