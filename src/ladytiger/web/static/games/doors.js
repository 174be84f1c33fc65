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

function traitsOf(identity) {
  return identity ? identity.split(" ") : [];
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

function seatBlock(o, seat, ctx, {over}) {
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
  else caption = "hidden door";
  return h("section", {class: `dr-seat${mine ? " dr-mine" : ""}${toMove ? " dr-to-move" : ""}`,
    "data-seat": seat, "aria-label": `${ctx.seatName(seat)}, the ${role}`},
    h("div", {class: "dr-door-wrap"}, door, h("span", {class: "dr-door-caption"}, caption)),
    h("div", {class: "dr-seat-text"},
      h("h3", {}, ctx.seatName(seat), " ", h("span", {class: `dr-role dr-role-${role.toLowerCase()}`}, role)),
      h("p", {class: "dr-gems"}, gems(o.scores[seat]), ` of ${o.gems_to_win} gems`),
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

function pile(title, cards, ctx, {highlight, empty, className}) {
  let marked = false;
  const row = h("div", {class: "card-row dr-pile-cards"});
  for (const name of cards) {
    const element = ctx.card(name, {size: "sm"});
    if (!marked && highlight && name === highlight) {
      element.classList.add("dr-last");
      marked = true;
    }
    row.append(element);
  }
  if (!cards.length) row.append(h("p", {class: "dr-empty"}, empty));
  return h("section", {class: `dr-pile ${className || ""}`.trim(), "aria-label": title},
    h("h4", {}, title, h("span", {class: "dr-count"}, cards.length)), row);
}

function guessPanel(o, ctx) {
  const mine = ctx.seat === o.guesser;
  const button = (text, label, extra = "") => ctx.bind(
    h("button", {type: "button", class: `dr-guess ${extra}`.trim()}, label), text);
  const identityButton = (name) => {
    const picture = ctx.card(name, {size: "xs"});
    picture.setAttribute("aria-hidden", "true");
    picture.removeAttribute("title");
    return ctx.bind(h("button", {type: "button", class: "dr-guess dr-guess-card"},
      picture, h("span", {}, name)), `guess ${name}`);
  };
  return h("section", {class: "dr-declare", "aria-label": "The Guesser's declarations"},
    h("h4", {}, mine ? "Your declaration (ends the contest)" : `${ctx.seatName(o.guesser)} may declare`),
    h("div", {class: "dr-guess-rows"},
      h("div", {class: "dr-guess-row"}, h("span", {class: "dr-label"}, "Colour · 1 gem"),
        button("guess Red", "Red", "dr-red"), button("guess Blue", "Blue", "dr-blue")),
      h("div", {class: "dr-guess-row"}, h("span", {class: "dr-label"}, "Role · 1 gem"),
        button("guess Lady", "Lady"), button("guess Tiger", "Tiger")),
      h("div", {class: "dr-guess-row dr-identities"}, h("span", {class: "dr-label"}, "Door · 5 gems"),
        IDENTITIES.map(identityButton))),
    h("p", {class: "dr-note"}, "A wrong guess pays the Collector 4 gems."),
    h("div", {class: "dr-turn-buttons"},
      button("claim set", "Claim set · 2 gems", "dr-claim"),
      button("end turn", "End turn", "dr-end")));
}

function lastContest(o, ctx, fresh) {
  const result = o.past_contests[o.past_contests.length - 1];
  if (!result) return null;
  const winner = ctx.seatName(result.winner);
  const doors = result.identities.map((name, seat) => `${ctx.seatName(seat)}: ${name}`).join(" · ");
  return h("section", {class: `dr-result${fresh ? " dr-fresh" : ""}`, "aria-live": "polite"},
    h("p", {}, h("b", {}, `Contest ${result.contest}: `), `${result.how}. `,
      h("b", {}, `${winner} ${winner === "You" ? "earn" : "earns"} ${result.gems} gem${result.gems === 1 ? "" : "s"}.`)),
    h("p", {class: "dr-doors-were"}, doors));
}

function history(o, ctx) {
  if (o.past_contests.length < 2) return null;
  return h("details", {class: "dr-history"},
    h("summary", {}, `All ${o.past_contests.length} contests`),
    h("ol", {}, o.past_contests.map((r) => h("li", {},
      `${r.how}: ${ctx.seatName(r.winner)} +${r.gems} (${r.identities.join(" vs ")})`))));
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
  else if (o.current_player === me && o.phase === "collect") status = "Take a card from the display.";
  else if (o.current_player === me && o.phase === "discard") status = "Discard a display card, or declare.";
  else if (o.current_player === me) status = "Declare now, or end your turn.";
  else if (o.phase === "collect") status = `${collectorName} (the Collector) takes a card…`;
  else status = `${guesserName} (the Guesser) discards or declares…`;

  const displayVerb = me === o.collector ? "take" : me === o.guesser ? "discard" : null;
  const display = h("div", {class: "card-row dr-display-cards"});
  for (const name of o.display) {
    const element = ctx.card(name, {size: "lg"});
    // Cards that came out of the deck after the last take or discard.
    if (recent.verb && recent.revealed.includes(name)) element.classList.add("dr-new");
    if (displayVerb && !over) ctx.bind(element, `${displayVerb} ${name}`);
    display.append(element);
  }
  if (!o.display.length) display.append(h("p", {class: "dr-empty"}, "The display is empty."));

  const hint = over || view.status === "finished" ? "" : displayVerb === "take" ? "click a card to take it"
    : displayVerb === "discard" ? "click a card to discard it" : "the Collector takes, the Guesser discards";
  const deck = h("div", {class: "dr-deck", title: `${o.deck} Clue cards left in the deck`},
    o.deck ? ctx.card(null, {size: "sm", label: "the deck"}) : h("div", {class: "dr-deck-empty"}, "empty"),
    h("span", {class: "dr-deck-count"}, `${o.deck} left`));

  // Your own door, kept in sight at the top as well as in front of you.
  let yours = null;
  if (me !== null && me !== undefined && o.identities[me] && !over) {
    const small = ctx.card(o.identities[me], {size: "xs"});
    small.setAttribute("aria-hidden", "true");
    yours = h("span", {class: "dr-chip dr-yours"}, small, `You are the ${o.identities[me]}`);
  }
  append(root, [
    h("header", {class: "dr-top"},
      h("span", {class: "dr-chip"}, `Contest ${o.contest}`),
      h("span", {class: "dr-chip"}, `First to ${o.gems_to_win} gems`),
      yours,
      h("p", {class: "dr-status", role: "status"}, status)),
    seatBlock(o, opponent, ctx, {over}),
    h("div", {class: "dr-middle"},
      h("section", {class: "dr-display", "aria-label": "The display"},
        h("h4", {}, "Display ", h("span", {class: "dr-hint"}, hint)),
        h("div", {class: "dr-display-row"}, display, deck)),
      h("div", {class: "dr-piles"},
        pile("The Collector's cards", o.collected, ctx, {
          highlight: recent.verb === "take" ? recent.card : null, empty: "none yet",
          className: "dr-collected"}),
        setProgress(o, ctx),
        pile("Discards", o.discarded, ctx, {
          highlight: recent.verb === "discard" ? recent.card : null, empty: "none yet",
          className: "dr-discarded"}))),
    !over && me === o.guesser ? guessPanel(o, ctx) : null,
    !over && me === o.collector ? h("p", {class: "dr-goal"},
      `Collect 4 cards on your colour (${traitsOf(o.identities[me])[0]}) or your role `
      + `(${traitsOf(o.identities[me])[1]}) before ${guesserName} names your door.`) : null,
    seatBlock(o, self, ctx, {over}),
    lastContest(o, ctx, justEnded),
    history(o, ctx),
  ]);
  root.dataset.phase = o.phase;
  root.dataset.players = String(players.length);
}
