// Doors: the table as one seat sees it (game rules: /rules/doors).
// The display cards are the Collector's takes and the Guesser's discards; the Guesser's
// declarations are buttons. Everything is drawn from the observation; moves are named by
// their texts and the frame decides whether they are legal now.
import {append, h} from "/static/js/dom.js";
import {gems} from "/static/js/cards.js";

const IDENTITIES = ["Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger"];
// Which cards carry each trait: a wild carries both of its kind.
const TRAITS = {
  Red: ["Red Lady", "Red Tiger", "Blue/Red"],
  Blue: ["Blue Lady", "Blue Tiger", "Blue/Red"],
  Lady: ["Red Lady", "Blue Lady", "Lady/Tiger"],
  Tiger: ["Red Tiger", "Blue Tiger", "Lady/Tiger"],
};
const SET_SIZE = 4;
// The steps where chance moves: nobody is to play, and the status says what is happening.
const DEALING = {
  "choose first collector": "The first Collector is being drawn…",
  "deal identities": "The Door cards are being dealt…",
  "refill display": "Cards are turned up for the display…",
};

// Whether the confirmation of a guess of one's own Door is open, and for which position:
// it stays open while the view is drawn again for the same turn (a chat, a presence).
let confirming = null;

function traitsOf(identity) {
  return identity ? identity.split(" ") : [];
}

/** The engine's words with each "Seat N" shown as that seat's name at the table. */
function named(text, ctx) {
  return String(text).replace(/\bSeat (\d+)\b/g, (_, seat) => ctx.seatName(Number(seat)));
}

function countOf(cards, name) {
  return cards.filter((c) => c === name).length;
}

/**
 * Motion keys of the cards in a pile. Equal cards in one pile are told apart by the order
 * they hold there; `tag` keeps the piles' keys apart (a taken card is keyed anew and flies
 * in from the display, named by data-from).
 */
function pileKeys(cards, tag) {
  const seen = new Map();
  return cards.map((name) => {
    const index = seen.get(name) || 0;
    seen.set(name, index + 1);
    return `card:${name}#${tag}${index}`;
  });
}

/**
 * Motion keys of the display's cards. The k-th card of a name out of the deck this contest
 * is #k; the display holds the latest of each name (takes and discards draw the earliest),
 * so a card turned up is always a new key, even when one of its name just left.
 */
function displayKeys(o) {
  const seen = new Map();
  return o.display.map((name) => {
    const out = countOf(o.collected, name) + countOf(o.discarded, name) + countOf(o.display, name);
    const shown = countOf(o.display, name);
    const index = seen.get(name) || 0;
    seen.set(name, index + 1);
    return `card:${name}#${out - shown + index}`;
  });
}

/** What the last player's move was, and which cards came out of the deck after it. */
function recentMoves(log, mySeat) {
  const revealed = [];
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const line = log[i];
    // "The Red Tiger is turned up for the display." or "Four cards are turned up for the
    // display: Red Tiger, Red Lady, Blue Lady and Blue Tiger."
    const one = /^The (.+) is turned up for the display\.$/.exec(line);
    const many = /^\w+ cards are turned up for the display: (.+)\.$/.exec(line);
    if (one || many) {
      const cards = one ? [one[1]] : many[1].split(/, | and /);
      revealed.push(...cards.reverse());
      continue;
    }
    const move = /^(?:Seat (\d+)|You) (take|discard)s? the (.+)\.$/.exec(line);
    if (move) {
      const seat = move[1] === undefined ? mySeat : Number(move[1]);
      return {seat, verb: move[2], card: move[3], revealed};
    }
    return {revealed};
  }
  return {revealed};
}

// A contest's result ("Contest 3: Seat 1 guessed ..."), not its deal ("Contest 3: you are
// dealt ...").
function contestEnded(line) {
  return /^Contest \d+: /.test(line) && !/ dealt /.test(line);
}

function seatBlock(o, seat, ctx, {over, far = false}) {
  const mine = seat === ctx.seat;
  const identity = o.identities[seat];
  const role = seat === o.collector ? "Collector" : "Guesser";
  const toMove = !o.terminal && o.current_player === seat;
  const door = ctx.card(identity, {size: "lg",
    label: mine ? "your Door card" : `${ctx.seatName(seat)}'s Door card, face down`});
  door.classList.add("dr-door");
  door.dataset.seat = seat;
  let caption;
  if (identity && mine && !over) caption = "your door";
  else if (identity) caption = over ? `was the ${identity}` : identity;
  else if (o.phase === "deal identities" || o.phase === "choose first collector") {
    caption = "not dealt yet";
  } else caption = "hidden door";
  return h("section", {class: `dr-seat ${far ? "dr-far" : "dr-near"}${mine ? " dr-mine" : ""}`
    + `${toMove ? " dr-to-move" : ""}`,
    "data-seat": seat, "aria-label": `${ctx.seatName(seat)}, the ${role}`},
    h("div", {class: "dr-door-wrap"}, door, h("span", {class: "dr-door-caption"}, caption)),
    h("div", {class: "dr-seat-text"},
      h("h3", {}, ctx.seatName(seat), " ", h("span", {class: `dr-role dr-role-${role.toLowerCase()}`}, role)),
      h("p", {class: "dr-gems", "data-count-key": `gems-${seat}`, "data-count": o.scores[seat]},
        gems(o.scores[seat]), ` of ${o.gems_to_win} gems`),
      toMove ? h("p", {class: "dr-turn"}, mine ? "your move" : "to move") : null));
}

function setProgress(o, ctx) {
  // Counts of the Collector's cards on each trait: a set is four on one trait.
  const collected = o.collected;
  const collectorTraits = traitsOf(o.identities[o.collector]);
  const guesserTraits = traitsOf(o.identities[o.guesser]);
  const chips = Object.entries(TRAITS).map(([trait, cards]) => {
    const count = collected.filter((c) => cards.includes(c)).length;
    const classes = ["dr-trait", `dr-trait-${trait.toLowerCase()}`];
    let note = "";
    if (ctx.seat === o.collector && collectorTraits.includes(trait)) {
      classes.push("dr-own");
      note = " (yours)";
    } else if (ctx.seat === o.guesser && guesserTraits.includes(trait)) {
      classes.push("dr-own");
      note = " (yours: claim at 4)";
    }
    if (count >= SET_SIZE) classes.push("dr-full");
    return h("li", {class: classes.join(" "), title: `${count} of the Collector's cards carry ${trait}${note}`},
      h("b", {}, trait), h("span", {}, `${Math.min(count, SET_SIZE)}/${SET_SIZE}`));
  });
  return h("ul", {class: "dr-traits", "aria-label": "Cards on each trait (a set is 4)"}, chips);
}

function pile(title, cards, ctx, {highlight, empty, className, zone, tag}) {
  // The card just put here is the last of its name (its newest key).
  const lastIndex = highlight ? cards.lastIndexOf(highlight) : -1;
  const row = h("div", {class: "card-row dr-pile-cards", "data-zone": zone});
  const keys = pileKeys(cards, tag);
  cards.forEach((name, index) => {
    const element = ctx.card(name, {size: "sm"});
    element.dataset.key = keys[index];
    // Every card here came off the display.
    element.dataset.from = "display";
    if (index === lastIndex) element.classList.add("dr-last");
    row.append(element);
  });
  if (!cards.length) row.append(h("p", {class: "dr-empty"}, empty));
  return h("section", {class: `dr-pile ${className || ""}`.trim(), "aria-label": title},
    h("h4", {}, title, h("span", {class: "dr-count"}, cards.length)), row);
}

/**
 * Naming one's own Door is allowed but can never be right: the two Doors of a contest are
 * always different cards. Its button asks first, in a box beside it; the move is on the
 * box's button.
 */
function confirmBox(o, ctx, name, close) {
  const cancel = h("button", {type: "button", class: "dr-cancel"}, "Keep thinking");
  cancel.addEventListener("click", close);
  const go = ctx.bind(h("button", {type: "button", class: "dr-confirm-go"},
    `Guess the ${name} anyway`), `guess ${name}`);
  return h("div", {class: "dr-confirm", id: "dr-own-confirm", role: "group",
    "aria-label": "Guess your own Door?"},
  h("p", {}, h("b", {}, `The ${name} is your own Door.`),
    " The Collector's Door is always another card, so this guess is always wrong: it ends",
    ` the contest and pays ${ctx.seatName(o.collector)} 4 gems.`),
  h("div", {class: "dr-confirm-buttons"}, go, cancel));
}

function guessPanel(o, ctx, view) {
  const mine = ctx.seat === o.guesser;
  const button = (text, label, extra = "") => ctx.bind(
    h("button", {type: "button", class: `dr-guess ${extra}`.trim()}, label), text);
  const own = o.identities[ctx.seat];
  const position = `${o.contest}|${o.phase}|${o.display.join(",")}|${o.discarded.length}`;
  const row = h("div", {class: "dr-guess-row dr-identities"},
    h("span", {class: "dr-label"}, "Door · 5 gems"));
  let box = null;
  let reopen = null;
  const identityButton = (name) => {
    const picture = ctx.card(name, {size: "xs"});
    picture.setAttribute("aria-hidden", "true");
    picture.removeAttribute("title");
    const content = [picture, h("span", {}, name)];
    // Off one's turn the button is the move itself, disabled, so its tooltip says why.
    if (name !== own || !view.your_turn || ctx.replay) {
      return ctx.bind(h("button", {type: "button", class: "dr-guess dr-guess-card"}, content),
        `guess ${name}`);
    }
    const ask = h("button", {type: "button", class: "dr-guess dr-guess-card dr-guess-own",
      "aria-expanded": "false", "aria-controls": "dr-own-confirm",
      title: `Guess ${name}: your own Door, so always wrong (asks first)`},
    content, h("span", {class: "dr-own-mark"}, "yours"));
    const close = () => {
      confirming = null;
      box?.remove();
      box = null;
      ask.setAttribute("aria-expanded", "false");
      ask.focus();
    };
    const open = (focus) => {
      confirming = position;
      box = confirmBox(o, ctx, name, close);
      row.after(box);
      ask.setAttribute("aria-expanded", "true");
      if (focus) box.querySelector(".dr-confirm-go").focus();
    };
    ask.addEventListener("click", () => (box ? close() : open(true)));
    // Drawn again for the same turn (a chat line, a presence), the question stays open.
    if (confirming === position) reopen = open;
    return ask;
  };
  row.append(...IDENTITIES.map(identityButton));
  const panel = h("section", {class: "dr-declare", "aria-label": "The Guesser's declarations"},
    h("h4", {}, mine ? "Your declaration (ends the contest)" : `${ctx.seatName(o.guesser)} may declare`),
    h("div", {class: "dr-guess-rows"},
      h("div", {class: "dr-guess-row"}, h("span", {class: "dr-label"}, "Colour · 1 gem"),
        button("guess Red", "Red", "dr-red"), button("guess Blue", "Blue", "dr-blue")),
      h("div", {class: "dr-guess-row"}, h("span", {class: "dr-label"}, "Role · 1 gem"),
        button("guess Lady", "Lady"), button("guess Tiger", "Tiger")),
      row),
    h("p", {class: "dr-note"}, "A wrong guess pays the Collector 4 gems."),
    h("div", {class: "dr-turn-buttons"},
      button("claim set", "Claim set · 2 gems", "dr-claim"),
      button("end turn", "End turn", "dr-end")));
  if (reopen) reopen(false);
  return panel;
}

function lastContest(o, ctx, fresh) {
  const result = o.past_contests[o.past_contests.length - 1];
  if (!result) return null;
  const doors = result.identities.map((name, seat) => `${ctx.seatName(seat)}: ${name}`).join(" · ");
  // `how` is the engine's sentence for this seat ("Seat 1 guessed Blue, wrong: you earn 4
  // gems."), the log's words, with the seats named as at the table.
  return h("section", {class: `dr-result${fresh ? " dr-fresh" : ""}`, "aria-live": "polite"},
    h("p", {}, h("b", {}, `Contest ${result.contest}: `), named(result.how, ctx)),
    h("p", {class: "dr-doors-were"}, `Doors · ${doors}`));
}

function history(o, ctx) {
  if (o.past_contests.length < 2) return null;
  return h("details", {class: "dr-history"},
    h("summary", {}, `All ${o.past_contests.length} contests`),
    h("ol", {}, o.past_contests.map((r) => h("li", {},
      h("b", {}, `Contest ${r.contest}: `), `${named(r.how, ctx)} (${r.identities.join(" vs ")})`))));
}

export function render(root, view, ctx) {
  const o = view.observation;
  const over = o.terminal;
  const me = ctx.seat;
  const players = [0, 1];
  const opponent = me === null || me === undefined ? 1 : 1 - me;
  const self = me === null || me === undefined ? 0 : me;
  const log = o.log || [];
  const recent = recentMoves(log, me);
  const lastLine = log[log.length - 1] || "";
  const justEnded = contestEnded(lastLine) || log.slice(-3).some(contestEnded);

  // Status: whose move and what it is.
  let status;
  const collectorName = ctx.seatName(o.collector);
  const guesserName = ctx.seatName(o.guesser);
  if (over) status = "The game is over: both doors are face up.";
  else if (DEALING[o.phase]) status = DEALING[o.phase];
  else if (view.your_turn && o.phase === "collect") status = "Take a card from the display.";
  else if (view.your_turn && o.phase === "discard") status = "Discard a display card, or declare.";
  else if (view.your_turn) status = "Declare now, or end your turn.";
  // A view of one's own turn before the move is offered says "You", with the verb for "You".
  else if (o.phase === "collect") {
    status = collectorName === "You" ? "You (the Collector) take a card…"
      : `${collectorName} (the Collector) takes a card…`;
  } else {
    status = guesserName === "You" ? "You (the Guesser) discard or declare…"
      : `${guesserName} (the Guesser) discards or declares…`;
  }

  const displayVerb = me === o.collector ? "take" : me === o.guesser ? "discard" : null;
  const display = h("div", {class: "card-row dr-display-cards", "data-zone": "display"});
  const keys = displayKeys(o);
  for (const [index, name] of o.display.entries()) {
    const element = ctx.card(name, {size: "lg"});
    element.dataset.key = keys[index];
    element.dataset.from = "deck";
    // Cards that came out of the deck after the last take or discard.
    if (recent.verb && recent.revealed.includes(name)) element.classList.add("dr-new");
    if (displayVerb && !over) ctx.bind(element, `${displayVerb} ${name}`);
    display.append(element);
  }
  if (!o.display.length) display.append(h("p", {class: "dr-empty"}, "The display is empty."));

  const hint = over || view.status === "finished" ? "" : displayVerb === "take" ? "click a card to take it"
    : displayVerb === "discard" ? "click a card to discard it" : "the Collector takes, the Guesser discards";
  const deck = h("div", {class: "dr-deck", "data-zone": "deck",
    title: `${o.deck} Clue cards left in the deck`},
    o.deck ? ctx.card(null, {size: "sm", label: "the deck"}) : h("div", {class: "dr-deck-empty"}, "empty"),
    h("span", {class: "dr-deck-count"}, `${o.deck} left`));

  // Your own door, kept in sight at the top as well as in front of you.
  let yours = null;
  if (me !== null && me !== undefined && o.identities[me] && !over) {
    const small = ctx.card(o.identities[me], {size: "xs"});
    small.setAttribute("aria-hidden", "true");
    yours = h("span", {class: "dr-chip dr-yours"}, small, `You are the ${o.identities[me]}`);
  }
  // The Collector's aim, once the Collector's Door is dealt (a replay's first step has none).
  const [colour, role] = traitsOf(me === null || me === undefined ? null : o.identities[me]);
  const goal = !over && me === o.collector && colour ? h("p", {class: "dr-goal"},
    `Collect 4 cards on your colour (${colour}) or your role (${role}) before ${guesserName}`
    + " names your door.") : null;
  append(root, [
    h("header", {class: "dr-top"},
      h("span", {class: "dr-chip"}, `Contest ${o.contest}`),
      h("span", {class: "dr-chip"}, `First to ${o.gems_to_win} gems`),
      yours,
      h("p", {class: "dr-status", role: "status"}, status)),
    seatBlock(o, opponent, ctx, {over, far: true}),
    h("div", {class: "dr-middle"},
      h("section", {class: "dr-display", "aria-label": "The display"},
        h("h4", {}, "Display ", h("span", {class: "dr-hint"}, hint)),
        h("div", {class: "dr-display-row"}, display, deck)),
      h("div", {class: "dr-piles"},
        pile("The Collector's cards", o.collected, ctx, {
          highlight: recent.verb === "take" ? recent.card : null, empty: "none yet",
          className: "dr-collected", zone: `collection-${o.collector}`, tag: "c"}),
        setProgress(o, ctx),
        pile("Discards", o.discarded, ctx, {
          highlight: recent.verb === "discard" ? recent.card : null, empty: "none yet",
          className: "dr-discarded", zone: "discard", tag: "d"}))),
    !over && me === o.guesser ? guessPanel(o, ctx, view) : null,
    goal,
    seatBlock(o, self, ctx, {over}),
    lastContest(o, ctx, justEnded),
    history(o, ctx),
  ]);
  root.dataset.phase = o.phase;
  root.dataset.players = String(players.length);
}
