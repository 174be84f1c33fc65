// Tighee at the table: your hand by colour, the Forest card, the trick being played (with the
// colour each Black card counts as), the colour to follow, and each player's tricks and pile top.
// Drawn only from the seat's observation (src/ladytiger/games/tighee.py, `_observe`); a card in
// hand is bound to "put out Green 7" or "play Green 7", and the frame enables it or shows why not.
//
// The rulebook forbids looking through won piles ("Cards acquired cannot be checked"): the
// observation carries the seat's memory of every trick, but this view shows only the trick
// counts, the pile tops and the trick that just ended (docs/rules/tighee.md).
//
// Motion (js/motion.js): every card whose face is shown once is keyed by its name (the 60 cards
// are all different); the places are `hand-<seat>`, `put-out`, `deck` (the Forest deck),
// `forest`, `trick` and `won-<seat>`. When a trick has just been gathered, the winner's pile
// names its cards in `data-took`, so they are seen going there.

import { bind, h, isYou, plural, seatLabel, whose } from "./table_helpers.js";

const COLOURS = ["Red", "Purple", "Blue", "Green", "Black"];
// A hand longer than this is laid out in two rows; each row squeezes its cards together
// (they overlap) when the screen is too narrow for them.
const ONE_ROW = 10;

function parse(name) {
  const [colour, number] = name.split(" ");
  return { colour, number: Number(number) };
}

function cardKey(name) {
  return `card:${name}`;
}

// Keys must be unique in the view: a card drawn twice (the pile top and the trick just ended)
// is keyed only where it is first drawn, the rest are pictures of it.
function keyer() {
  const used = new Set();
  return (el, name, from = null) => {
    const key = cardKey(name);
    if (used.has(key)) return el;
    used.add(key);
    el.dataset.key = key;
    if (from) el.dataset.from = from;
    return el;
  };
}

// Cards are drawn by the frame: colour, the colour's symbol and word, and the number (the
// same look as the end summary). Black cards get our extra mark in tighee.css.
function tigerCard(ctx, name, size = "md", extra = "") {
  const el = ctx.card(name, { size });
  const colour = parse(name).colour.toLowerCase();
  el.classList.add("tg-card", `tg-${colour}`);
  if (extra) el.classList.add(...extra.split(" "));
  return el;
}

// An empty place on the table (the Forest between tricks, a player with no won pile).
function emptySlot(text, size = "md") {
  return h("div", { class: `tg-slot tg-slot-${size}`, text });
}

// A colour named in words on its own colour (the colour to follow, what a Black card counts as).
function colourChip(colour, text = colour) {
  return h("span", { class: `tg-chip tg-${colour.toLowerCase()}`, text });
}

function stageLine(obs) {
  if (obs.terminal) return "Game over";
  if (obs.phase === "put out" || obs.phase === "deal") {
    return `Put out ${plural(obs.put_out_per_player, "card")} each for the Forest deck`;
  }
  const played = obs.tricks_won.reduce((a, b) => a + b, 0);
  return `Trick ${Math.min(played + 1, obs.tricks_per_round)} of ${obs.tricks_per_round}`;
}

// The trick that has just been gathered (no card of the next one is out yet), or null.
function justGathered(obs) {
  if (obs.trick.length || !obs.tricks.length) return null;
  return obs.tricks[obs.tricks.length - 1];
}

function seatPanel(obs, view, ctx, seat, key, gathered) {
  const me = view.seat;
  const toMove = !obs.terminal && obs.current_player === seat;
  const classes = ["tg-seat"];
  if (seat === me) classes.push("tg-me");
  if (toMove) classes.push("tg-to-move");
  const tookNow = gathered && gathered.winner === seat;
  if (tookNow) classes.push("tg-took");
  const badges = h("span", { class: "tg-badges" });
  if (toMove) badges.append(h("span", { class: "tg-badge tg-badge-move",
    text: obs.phase === "put out" ? "putting out" : "to play" }));
  else if (obs.lead === seat && obs.phase === "play" && !obs.terminal) {
    badges.append(h("span", { class: "tg-badge", text: "leads" }));
  }
  const top = obs.pile_tops[seat];
  const won = obs.tricks_won[seat];
  const pile = h("div", { class: "tg-pile", "data-zone": `won-${seat}`,
    title: top ? `won pile, ${top} on top` : "no tricks won" },
  top ? key(tigerCard(ctx, top, "sm"), top) : emptySlot("none", "sm"));
  if (tookNow) {
    // The Forest card is the new pile top and glides there itself; the played cards are no
    // longer drawn one by one, so their copies fly into the pile.
    pile.dataset.took = gathered.cards.map(([, name]) => cardKey(name)).join("|");
    badges.append(h("span", { class: "tg-badge tg-badge-took", text: `took trick ${gathered.trick}` }));
  }
  // Short lines ("3 tricks", "9 in hand") that wrap in a narrow panel.
  const facts = h("div", { class: "tg-facts" },
    h("span", { class: "tg-fact-line" },
      h("b", { class: "tg-won", "data-count-key": `tricks:${seat}`, "data-count": won, text: won }),
      won === 1 ? " trick" : " tricks"),
    h("span", { class: "tg-fact-line", "data-zone": seat === me ? null : `hand-${seat}`,
      title: `${plural(obs.hand_sizes[seat], "card")} in hand` },
    h("span", { class: "tg-back-icon", "aria-hidden": "true" }),
    h("b", { text: obs.hand_sizes[seat] }), h("span", { class: "tg-in-hand-word", text: " in hand" })));
  if (obs.phase === "put out") {
    facts.append(h("span", { class: "tg-fact-line" },
      h("b", { text: `${obs.put_out_counts[seat]}/${obs.put_out_per_player}` }), " put out"));
  }
  return h("section", { class: classes.join(" "), "data-seat": seat,
    "aria-label": seatLabel(ctx, seat) },
  h("header", { class: "tg-seat-head" },
    h("span", { class: "tg-seat-name", text: seatLabel(ctx, seat) }), badges,
    h("span", { class: "tg-total", title: "total score" },
      h("span", { class: "tg-points", "data-count-key": `points:${seat}`,
        "data-count": obs.scores[seat], text: obs.scores[seat] }), " pts")),
  h("div", { class: "tg-seat-body" },
    h("div", { class: "tg-pile-box" }, pile, h("span", { class: "tg-pile-label", text: "pile top" })),
    facts));
}

// One played card with what it counts as and who played it.
function playedCard(ctx, entry, forestColour, opts) {
  const slot = h("figure", { class: `tg-played${opts.extra ? ` ${opts.extra}` : ""}` });
  const card = tigerCard(ctx, entry.card, opts.size || "md");
  slot.append(opts.key ? opts.key(card, entry.card, opts.from) : card);
  if (entry.counts_as && entry.counts_as !== entry.card) {
    slot.append(h("span", { class: "tg-counts", title: `counts as ${entry.counts_as}` },
      h("span", { class: "tg-eq", text: "= " }),
      colourChip(parse(entry.counts_as).colour, entry.counts_as)));
  } else if (parse(entry.card).colour === "Black" && forestColour === "Black") {
    slot.append(h("span", { class: "tg-counts", text: "stays Black" }));
  }
  slot.append(h("figcaption", {}, seatLabel(ctx, entry.seat),
    opts.lead ? h("span", { class: "tg-lead-mark", text: " (lead)" }) : null));
  return slot;
}

function trickArea(obs, ctx, key, gathered) {
  const area = h("section", { class: "tg-trick-area", "aria-label": "the trick" });
  if (obs.phase === "put out" || obs.phase === "deal") {
    const total = obs.put_out_per_player * obs.scores.length;
    const out = obs.put_out_counts.reduce((a, b) => a + b, 0);
    area.classList.add("tg-setup");
    area.append(h("p", { class: "tg-setup-note" },
      h("strong", { text: `Forest deck: ${out} of ${total} cards put out. ` }),
      "The put-out cards are shuffled face down; one is turned up as the Forest card for each "
      + `trick, and ${isYou(ctx, obs.lead) ? "you lead" : `${seatLabel(ctx, obs.lead)} leads`} the first.`));
    return area;
  }
  // A Forest card is new while no card of its trick is out: it came off the Forest deck.
  const forestCard = obs.forest
    ? key(tigerCard(ctx, obs.forest, "lg"), obs.forest, obs.trick.length ? null : "deck")
    : emptySlot("empty", "lg");
  const forest = h("div", { class: "tg-forest" },
    h("div", { class: "tg-label", text: "Forest" }),
    h("div", { class: "tg-forest-spot", "data-zone": "forest" }, forestCard),
    h("div", { class: "tg-sub tg-deck", "data-zone": "deck", text: `Forest deck: ${obs.forest_deck}` }));
  const trick = h("div", { class: "tg-trick" });
  const head = h("div", { class: "tg-trick-head" }, h("span", { class: "tg-label", text: "Trick" }));
  if (obs.follow) head.append(h("span", { class: "tg-follow" }, "follow ", colourChip(obs.follow)));
  trick.append(head);
  const cards = h("div", { class: "tg-trick-cards", "data-zone": "trick" });
  if (!obs.trick.length) {
    if (gathered && obs.phase === "play") {
      cards.append(h("p", { class: "tg-gathered", role: "status" },
        h("strong", { text: seatLabel(ctx, gathered.winner) }),
        ` ${isYou(ctx, gathered.winner) ? "take" : "takes"} trick ${gathered.trick} and `
        + `${isYou(ctx, gathered.winner) ? "lead" : "leads"} the next one`));
    } else {
      cards.append(h("span", { class: "tg-none",
        text: obs.phase !== "play" ? "no trick yet"
          : isYou(ctx, obs.lead) ? "your lead" : `${seatLabel(ctx, obs.lead)} to lead` }));
    }
  }
  const forestColour = obs.forest ? parse(obs.forest).colour : null;
  obs.trick.forEach((entry, index) => {
    // Another player's card comes out of their hand, where it was not to be seen.
    const from = entry.seat === ctx.seat ? null : `hand-${entry.seat}`;
    const latest = index === obs.trick.length - 1;
    cards.append(playedCard(ctx, entry, forestColour,
      { key, from, lead: index === 0, extra: latest ? "tg-latest" : "" }));
  });
  trick.append(cards);
  area.append(forest, trick);
  return area;
}

// Only the trick just ended; the earlier ones lie in the won piles where nobody may look. Its
// cards are pictures (the real ones went to the winner's pile), the winner's marked.
function lastTrick(obs, ctx, gathered) {
  if (!obs.tricks.length) return null;
  const last = obs.tricks[obs.tricks.length - 1];
  const forestColour = parse(last.forest).colour;
  const row = h("div", { class: "tg-last-cards" },
    h("figure", { class: "tg-played tg-last-forest" }, tigerCard(ctx, last.forest, "sm"),
      h("figcaption", { text: "Forest" })));
  last.cards.forEach(([seat, name], index) => {
    const entry = { seat, card: name, counts_as: convert(name, last.forest) };
    row.append(playedCard(ctx, entry, forestColour, { size: "sm", lead: index === 0,
      extra: seat === last.winner ? "tg-winner" : "" }));
  });
  const classes = `tg-last${gathered ? " tg-last-now" : ""}`;
  return h("section", { class: classes, "aria-label": "the trick just ended" },
    h("div", { class: "tg-label" }, `Trick ${last.trick} went to `,
      h("strong", { class: "tg-last-winner", text: isYou(ctx, last.winner) ? "you" : seatLabel(ctx, last.winner) })), row);
}

// What a played card counted as under a Forest card: a Black card takes the Forest's colour.
function convert(name, forest) {
  const { colour, number } = parse(name);
  return colour === "Black" ? `${parse(forest).colour} ${number}` : name;
}

// The hand in colour order, split in two rows when long, at a colour change if one is near
// the middle so colours stay together.
function handRows(cards) {
  if (cards.length <= ONE_ROW) return [cards];
  const half = Math.ceil(cards.length / 2);
  let split = half;
  let best = Infinity;
  for (let i = 1; i < cards.length; i += 1) {
    if (parse(cards[i]).colour === parse(cards[i - 1]).colour) continue;
    const off = Math.abs(i - half);
    if (off < best) {
      best = off;
      split = i;
    }
  }
  if (best > 1) split = half;
  return [cards.slice(0, split), cards.slice(split)];
}

function handArea(obs, view, ctx, key) {
  const me = view.seat;
  const putting = obs.phase === "put out" && obs.put_out.length < obs.put_out_per_player;
  const verb = putting ? "put out" : "play";
  const myTurn = !obs.terminal && obs.current_player === me;
  const area = h("section", { class: `tg-hand-area${myTurn ? " tg-my-turn" : ""}`,
    "aria-label": "your hand" });
  let hint;
  if (obs.terminal) hint = "";
  else if (putting && myTurn) {
    const left = obs.put_out_per_player - obs.put_out.length;
    hint = `click a card to put it out face down (${left} to go)`;
  } else if (myTurn) hint = "click a card to play it";
  else hint = `${seatLabel(ctx, obs.current_player)} is to move`;
  area.append(h("div", { class: "tg-label" }, `${whose(ctx, me)} hand `,
    h("span", { class: "tg-hint", text: hint })));
  const hand = h("div", { class: "tg-hand", "data-zone": `hand-${me}` });
  for (const cards of handRows(obs.hand)) {
    const row = h("div", { class: "tg-hand-row" });
    row.style.setProperty("--n", String(cards.length));
    row.style.setProperty("--g", String(new Set(cards.map((name) => parse(name).colour)).size));
    for (const colour of COLOURS) {
      const group = cards.filter((name) => parse(name).colour === colour);
      if (!group.length) continue;
      const box = h("div", { class: `tg-group tg-group-${colour.toLowerCase()}`,
        "aria-label": `${colour} cards` });
      for (const name of group) {
        const el = key(tigerCard(ctx, name, "md", "tg-in-hand"), name);
        bind(ctx, el, `${verb} ${name}`);
        // The slot may be narrower than the card: the next card then covers part of it.
        box.append(h("div", { class: "tg-hand-slot" }, el));
      }
      row.append(box);
    }
    hand.append(row);
  }
  if (!obs.hand.length) hand.append(h("span", { class: "tg-none", text: "no cards" }));
  area.append(hand);
  const out = h("div", { class: "tg-put-out" },
    h("span", { class: "tg-label", text: `${isYou(ctx, me) ? "You" : seatLabel(ctx, me)} put out ` }),
    h("span", { class: "tg-hint", text: "(they are in the Forest deck)" }));
  const outCards = h("div", { class: "tg-out-cards", "data-zone": "put-out" });
  // Keyed only while cards are being put out (they glide there from the hand); later one of
  // them may turn up as a Forest card, which is then that card's only keyed picture.
  for (const name of obs.put_out) {
    const card = tigerCard(ctx, name, "sm");
    outCards.append(obs.phase === "put out" ? key(card, name) : card);
  }
  if (!obs.put_out.length) outCards.append(h("span", { class: "tg-none", text: "nothing yet" }));
  out.append(outCards);
  area.append(out);
  return area;
}

function roundsTable(obs, ctx) {
  if (!obs.past_rounds.length) return null;
  const n = obs.scores.length;
  const table = h("table", { class: "tg-rounds" });
  const head = h("tr", {}, h("th", { scope: "col", text: "Round" }));
  for (let seat = 0; seat < n; seat += 1) head.append(h("th", { scope: "col", text: seatLabel(ctx, seat) }));
  table.append(h("thead", {}, head));
  const body = h("tbody");
  for (const result of obs.past_rounds) {
    const row = h("tr", {}, h("th", { scope: "row", text: result.round }));
    for (let seat = 0; seat < n; seat += 1) {
      const points = result.points[seat];
      const signed = points > 0 ? `+${points}` : String(points);
      row.append(h("td", {}, h("span", { class: "tg-round-tricks",
        text: `${plural(result.tricks_won[seat], "trick")} ` }),
      h("span", { class: points > 0 ? "tg-plus" : points < 0 ? "tg-minus" : "", text: signed }),
      h("span", { class: "tg-round-total", text: ` = ${result.totals[seat]}` })));
    }
    body.append(row);
  }
  table.append(body);
  return h("section", { class: "tg-rounds-area", "aria-label": "round scores" },
    h("div", { class: "tg-label", text: "Rounds" }), h("div", { class: "tg-scroll" }, table));
}

export function render(root, view, ctx) {
  const obs = view.observation;
  const n = obs.scores.length;
  const key = keyer();
  const gathered = obs.terminal ? null : justGathered(obs);
  root.classList.add("tg-root");

  root.append(h("div", { class: "tg-top" },
    h("span", { class: "tg-fact" }, h("strong", { text: `Round ${obs.round}` }), ` of ${obs.rounds}`),
    h("span", { class: "tg-fact tg-stage", text: stageLine(obs) }),
    h("span", { class: "tg-fact tg-scoring",
      text: "4 tricks +50 \u00B7 8 +100 \u00B7 12 +169 \u00B7 else \u221210 each" })));

  if (obs.terminal && obs.winners) {
    const who = obs.winners.map((seat) => seatLabel(ctx, seat)).join(" and ");
    root.append(h("div", { class: "tg-banner", role: "status" },
      `${who} ${obs.winners.length === 1 ? (isYou(ctx, obs.winners[0]) ? "win" : "wins") : "share the win"}`));
  }

  const seats = h("div", { class: "tg-seats" });
  // On a phone every player fits in one row: the grid has as many columns as seats.
  seats.style.setProperty("--tg-seats", String(n));
  for (let seat = 0; seat < n; seat += 1) seats.append(seatPanel(obs, view, ctx, seat, key, gathered));
  root.append(seats);

  // Once the game is over no trick is in play: only the last one is left to see.
  const middle = h("div", { class: "tg-middle" },
    obs.terminal ? null : trickArea(obs, ctx, key, gathered));
  const last = lastTrick(obs, ctx, gathered);
  if (last) middle.append(last);
  root.append(middle);

  if (view.seat !== null && view.seat !== undefined && obs.hand) {
    root.append(handArea(obs, view, ctx, key));
  }
  const rounds = roundsTable(obs, ctx);
  if (rounds) root.append(rounds);
}
