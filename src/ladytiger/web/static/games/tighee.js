// Tighee at the table: your hand by colour, the Forest card, the trick being played (with the
// colour each Black card counts as), the colour to follow, and each player's tricks and pile top.
// Drawn only from the seat's observation (src/ladytiger/games/tighee.py, `_observe`); a card in
// hand is bound to "put out Green 7" or "play Green 7", and the frame enables it or shows why not.
//
// The rulebook forbids looking through won piles ("Cards acquired cannot be checked"): the
// observation carries the seat's memory of every trick, but this view shows only the trick
// counts, the pile tops and the trick that just ended (docs/rules/tighee.md).

import { bind, h, isYou, plural, seatLabel, whose } from "./table_helpers.js";

const COLOURS = ["Red", "Purple", "Blue", "Green", "Black"];

function parse(name) {
  const [colour, number] = name.split(" ");
  return { colour, number: Number(number) };
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

function seatPanel(obs, view, ctx, seat) {
  const me = view.seat;
  const toMove = obs.current_player === seat;
  const classes = ["tg-seat"];
  if (seat === me) classes.push("tg-me");
  if (toMove) classes.push("tg-to-move");
  const badges = h("span", { class: "tg-badges" });
  if (toMove) badges.append(h("span", { class: "tg-badge tg-badge-move",
    text: obs.phase === "put out" ? "putting out" : "to play" }));
  if (obs.lead === seat && obs.phase === "play") badges.append(h("span", { class: "tg-badge",
    text: "leads" }));
  const top = obs.pile_tops[seat];
  const won = obs.tricks_won[seat];
  return h("section", { class: classes.join(" "), "data-seat": seat,
    "aria-label": seatLabel(ctx, seat) },
  h("header", { class: "tg-seat-head" },
    h("span", { class: "tg-seat-name", text: seatLabel(ctx, seat) }), badges,
    h("span", { class: "tg-total", title: "total score", text: `${obs.scores[seat]} pts` })),
  h("div", { class: "tg-seat-body" },
    h("div", { class: "tg-pile", title: top ? `won pile, ${top} on top` : "no tricks won" },
      top ? tigerCard(ctx, top, "sm") : emptySlot("none", "sm"),
      h("span", { class: "tg-pile-label", text: "pile top" })),
    h("dl", { class: "tg-facts" },
      h("dt", { text: "tricks" }), h("dd", { class: "tg-won", text: won }),
      h("dt", { text: "in hand" }), h("dd", { text: obs.hand_sizes[seat] }),
      h("dt", { text: "put out" }),
      h("dd", { text: `${obs.put_out_counts[seat]}/${obs.put_out_per_player}` }))));
}

function trickArea(obs, ctx) {
  const area = h("section", { class: "tg-trick-area", "aria-label": "the trick" });
  if (obs.phase === "put out" || obs.phase === "deal") {
    const total = obs.put_out_per_player * obs.scores.length;
    const out = obs.put_out_counts.reduce((a, b) => a + b, 0);
    area.classList.add("tg-setup");
    area.append(h("p", { class: "tg-setup-note" },
      h("strong", { text: `Forest deck: ${out} of ${total} cards put out. ` }),
      "The put-out cards are shuffled face down; one is turned up as the Forest card for each "
      + `trick, and ${seatLabel(ctx, obs.lead)} leads the first.`));
    return area;
  }
  const forest = h("div", { class: "tg-forest" },
    h("div", { class: "tg-label", text: "Forest" }),
    obs.forest ? tigerCard(ctx, obs.forest, "lg") : emptySlot("empty", "lg"),
    h("div", { class: "tg-sub", text: `Forest deck: ${obs.forest_deck}` }));
  const trick = h("div", { class: "tg-trick" });
  const head = h("div", { class: "tg-trick-head" }, h("span", { class: "tg-label", text: "Trick" }));
  if (obs.follow) head.append(h("span", { class: "tg-follow" }, "follow ", colourChip(obs.follow)));
  trick.append(head);
  const cards = h("div", { class: "tg-trick-cards" });
  if (!obs.trick.length) {
    const waiting = obs.phase === "play"
      ? `${seatLabel(ctx, obs.lead)} to lead`
      : "no trick yet";
    cards.append(h("span", { class: "tg-none", text: waiting }));
  }
  obs.trick.forEach((entry, index) => {
    // The trick's last card is the latest move: tricks are played out one card at a time.
    const latest = index === obs.trick.length - 1;
    const slot = h("figure", { class: `tg-played${latest ? " tg-latest" : ""}` },
      tigerCard(ctx, entry.card));
    if (entry.counts_as !== entry.card) {
      slot.append(h("span", { class: "tg-counts", title: `counts as ${entry.counts_as}` }, "= ",
        colourChip(parse(entry.counts_as).colour, entry.counts_as)));
    } else if (parse(entry.card).colour === "Black") {
      slot.append(h("span", { class: "tg-counts", text: "stays Black" }));
    }
    slot.append(h("figcaption", {}, seatLabel(ctx, entry.seat),
      index === 0 ? h("span", { class: "tg-lead-mark", text: " (lead)" }) : null));
    cards.append(slot);
  });
  trick.append(cards);
  area.append(forest, trick);
  return area;
}

// Only the trick just ended; the earlier ones lie in the won piles where nobody may look.
function lastTrick(obs, ctx) {
  if (!obs.tricks.length) return null;
  const last = obs.tricks[obs.tricks.length - 1];
  const row = h("div", { class: "tg-last-cards" },
    h("figure", { class: "tg-played tg-last-forest" }, tigerCard(ctx, last.forest, "sm"),
      h("figcaption", { text: "Forest" })));
  for (const [seat, name] of last.cards) {
    row.append(h("figure", { class: `tg-played${seat === last.winner ? " tg-winner" : ""}` },
      tigerCard(ctx, name, "sm"), h("figcaption", { text: seatLabel(ctx, seat) })));
  }
  return h("section", { class: "tg-last", "aria-label": "the trick just ended" },
    h("div", { class: "tg-label" }, `Trick ${last.trick} went to `,
      h("strong", { text: seatLabel(ctx, last.winner) })), row);
}

function handArea(obs, view, ctx) {
  const me = view.seat;
  const putting = obs.phase === "put out" && obs.put_out.length < obs.put_out_per_player;
  const verb = putting ? "put out" : "play";
  const area = h("section", { class: "tg-hand-area", "aria-label": "your hand" });
  let hint;
  if (obs.terminal) hint = "";
  else if (putting) {
    const left = obs.put_out_per_player - obs.put_out.length;
    hint = `click a card to put it out face down (${left} to go)`;
  } else if (obs.current_player === me) hint = "click a card to play it";
  else hint = `${seatLabel(ctx, obs.current_player)} is to move`;
  area.append(h("div", { class: "tg-label" }, `${whose(ctx, me)} hand `,
    h("span", { class: "tg-hint", text: hint })));
  const hand = h("div", { class: "tg-hand" });
  for (const colour of COLOURS) {
    const group = obs.hand.filter((name) => parse(name).colour === colour);
    if (!group.length) continue;
    const row = h("div", { class: `tg-group tg-group-${colour.toLowerCase()}`,
      "aria-label": `${colour} cards` });
    for (const name of group) {
      const el = tigerCard(ctx, name, "md", "tg-in-hand");
      bind(ctx, el, `${verb} ${name}`);
      row.append(el);
    }
    hand.append(row);
  }
  if (!obs.hand.length) hand.append(h("span", { class: "tg-none", text: "no cards" }));
  area.append(hand);
  const out = h("div", { class: "tg-put-out" },
    h("span", { class: "tg-label", text: `${isYou(ctx, me) ? "You" : seatLabel(ctx, me)} put out ` }),
    h("span", { class: "tg-hint", text: "(they are in the Forest deck)" }));
  const outCards = h("div", { class: "tg-out-cards" });
  for (const name of obs.put_out) outCards.append(tigerCard(ctx, name, "sm"));
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
  for (let seat = 0; seat < n; seat += 1) seats.append(seatPanel(obs, view, ctx, seat));
  root.append(seats);

  // Once the game is over no trick is in play: only the last one is left to see.
  const middle = h("div", { class: "tg-middle" }, obs.terminal ? null : trickArea(obs, ctx));
  const last = lastTrick(obs, ctx);
  if (last) middle.append(last);
  root.append(middle);

  if (view.seat !== null && view.seat !== undefined && obs.hand) {
    root.append(handArea(obs, view, ctx));
  }
  const rounds = roundsTable(obs, ctx);
  if (rounds) root.append(rounds);
}
