// Favor at the table: the lot, every player's gems, bid and collection, and the score sheets.
// Drawn only from the seat's observation (src/ladytiger/games/favor.py, `_observe`); moves are
// named by their engine texts ("add to lot", "call auction", "pass", "bid 3") and bound
// through the frame, which enables them or shows the engine's reason.

import { bind, h, isYou, lineSeat, plural, seatLabel, whose } from "./table_helpers.js";

const GEMS_PER_DAY = 5;

// Cards are drawn by the frame (colour plus printed word and symbol, the same look as the end
// summary); "lg" for the lot, "sm" for collections and score sheets.
function card(ctx, name, size = "md") {
  const options = { size };
  if (name === null || name === undefined) options.label = "face-down Door card";
  return ctx.card(name, options);
}

function cardRow(ctx, names, size, empty) {
  const row = h("div", { class: "fv-cards" });
  if (!names.length) row.append(h("span", { class: "fv-none", text: empty || "none" }));
  for (const name of names) row.append(card(ctx, name, size));
  return row;
}

function gems(count, label) {
  const shown = Math.min(count, 24);
  const icons = h("span", { class: "fv-gem-icons", "aria-hidden": "true" },
    "\u25C6".repeat(shown));
  return h("span", { class: "fv-gems", title: label || plural(count, "gem") },
    icons, h("span", { class: "fv-gem-count", text: plural(count, "gem") }));
}

// Remembered between renders of the same auction, so a number being typed survives the other
// players' bids; a new auction starts again from the lowest bid.
let typedBid = null;
let typedFor = null;

function bidControls(root, view, ctx, obs) {
  const me = view.seat;
  const auction = obs.auction;
  const top = GEMS_PER_DAY * obs.gems.length; // the highest bid the engine numbers
  const low = Math.min(auction.high_bid + 1, top);
  const mine = obs.gems[me];
  const high = Math.max(low, Math.min(mine, top));
  const clamp = (value) => Math.min(Math.max(value, 1), top);
  const key = `${obs.day}|${obs.deck}|${auction.caller}|${obs.lot.join(",")}`;
  if (typedFor !== key) {
    typedFor = key;
    typedBid = null;
  }
  let amount = typedBid !== null && typedBid >= low && typedBid <= high ? typedBid : low;
  amount = clamp(amount);

  const input = h("input", { type: "number", class: "fv-bid-input", min: low, max: high,
    step: 1, value: amount, inputmode: "numeric", "aria-label": "gems to bid" });
  const controls = h("div", { class: "fv-bid-controls" });
  const slot = h("span", { class: "fv-bid-slot" });
  const makeButton = () => {
    const button = h("button", { type: "button", class: "fv-button fv-bid-button",
      text: `Bid ${amount}` });
    bind(ctx, button, `bid ${amount}`);
    slot.replaceChildren(button);
    return button;
  };
  let button = makeButton();
  input.addEventListener("input", () => {
    const value = Number.parseInt(input.value, 10);
    if (!Number.isFinite(value)) return;
    amount = clamp(value);
    typedBid = amount;
    button = makeButton();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      button.click();
    }
  });
  const pass = h("button", { type: "button", class: "fv-button fv-pass-button", text: "Pass" });
  bind(ctx, pass, "pass");
  controls.append(h("label", { class: "fv-bid-label" }, `${whose(ctx, me)} bid `, input), slot, pass,
    h("span", { class: "fv-hint", text: `you hold ${plural(mine, "gem")}` }));
  root.append(controls);
}

function auctionPanel(view, ctx, obs) {
  const auction = obs.auction;
  const panel = h("section", { class: `fv-auction${auction.final ? " fv-final" : ""}`,
    "aria-label": "auction" });
  const kind = auction.final
    ? "Final auction: every gem bid goes to the supply"
    : `Auction called by ${seatLabel(ctx, auction.caller)}`;
  const high = auction.high_bidder === null
    ? "no bid yet"
    : `high bid ${plural(auction.high_bid, "gem")} by ${seatLabel(ctx, auction.high_bidder)}`;
  panel.append(h("h3", { class: "fv-auction-title", text: kind }),
    h("p", { class: "fv-auction-state" }, high, " \u00B7 ",
      h("strong", { text: `${seatLabel(ctx, auction.to_bid)} to bid` })));
  if (view.seat !== null && view.seat !== undefined && !view.observation.terminal) {
    bidControls(panel, view, ctx, obs);
  }
  return panel;
}

function bidChip(auction, seat) {
  if (!auction) return null;
  const bid = auction.bids[seat];
  if (bid === null) {
    const waiting = auction.to_bid === seat ? "bidding\u2026" : "to come";
    return h("span", { class: "fv-bid fv-bid-none", text: waiting });
  }
  if (bid === "pass") return h("span", { class: "fv-bid fv-bid-pass", text: "passed" });
  const lead = auction.high_bidder === seat ? " fv-bid-high" : "";
  return h("span", { class: `fv-bid${lead}`, title: `bid ${plural(bid, "gem")}` },
    h("span", { class: "fv-gem-icons", "aria-hidden": "true", text: "\u25C6" }),
    ` bid ${bid}`);
}

function seatPanel(view, ctx, obs, seat, lastSeat) {
  const me = view.seat;
  const auction = obs.auction;
  const toMove = obs.current_player === seat;
  const classes = ["fv-seat"];
  if (seat === me) classes.push("fv-me");
  if (toMove) classes.push("fv-to-move");
  if (seat === lastSeat) classes.push("fv-last");
  const badges = h("span", { class: "fv-badges" });
  if (toMove) badges.append(h("span", { class: "fv-badge fv-badge-move",
    text: auction ? "to bid" : "to play" }));
  if (auction && auction.caller === seat) badges.append(h("span", { class: "fv-badge",
    text: "caller" }));
  if (obs.first_player === seat) badges.append(h("span", { class: "fv-badge fv-badge-dim",
    text: "began the day" }));
  const identity = obs.identities[seat];
  const identityLabel = identity === null
    ? "identity hidden"
    : seat === me ? `your identity: ${identity}` : `identity: ${identity}`;
  const panel = h("section", { class: classes.join(" "), "aria-label": seatLabel(ctx, seat),
    "data-seat": seat },
  h("header", { class: "fv-seat-head" },
    h("span", { class: "fv-seat-name", text: seatLabel(ctx, seat) }), badges),
  h("div", { class: "fv-seat-body" },
    h("div", { class: "fv-identity", title: identityLabel }, card(ctx, identity, "sm")),
    h("div", { class: "fv-seat-facts" },
      gems(obs.gems[seat]),
      h("span", { class: "fv-points", text: plural(obs.scores[seat], "point") }),
      bidChip(auction, seat))),
  h("div", { class: "fv-collection", "aria-label": "collection" },
    cardRow(ctx, obs.collections[seat], "sm", "no cards yet")));
  return panel;
}

function scoreSheet(ctx, record, open) {
  const details = h("details", { class: "fv-sheet" });
  if (open) details.open = true;
  details.append(h("summary", { text: `Day ${record.day} score sheet` }));
  const table = h("table", { class: "fv-sheet-table" });
  table.append(h("thead", {}, h("tr", {},
    ["Player", "Identity", "Collected", "Wilds", "Cards", "Gems", "Day", "Total"].map(
      (title) => h("th", { scope: "col", text: title })))));
  const body = h("tbody");
  record.identities.forEach((identity, seat) => {
    const bonus = record.gem_bonus[seat] ? ` (+${record.gem_bonus[seat]})` : "";
    body.append(h("tr", {},
      h("th", { scope: "row", text: seatLabel(ctx, seat) }),
      h("td", { "data-label": "Identity" }, card(ctx, identity, "sm")),
      h("td", { "data-label": "Collected" }, cardRow(ctx, record.collections[seat], "sm", "nothing")),
      h("td", { class: "fv-wilds", "data-label": "Wilds",
        text: record.wilds[seat].join("; ") || "\u2014" }),
      h("td", { class: "fv-num", "data-label": "Cards", text: record.card_points[seat] }),
      h("td", { class: "fv-num", "data-label": "Gems", text: `${record.gems[seat]}${bonus}` }),
      h("td", { class: "fv-num", "data-label": "Day", text: record.points[seat] }),
      h("td", { class: "fv-num fv-total", "data-label": "Total", text: record.totals[seat] })));
  });
  table.append(body);
  details.append(h("div", { class: "fv-sheet-scroll" }, table));
  return details;
}

// The seat the last log sentence is about ("Seat 2 bids 3 gems."), to highlight it.
function lastMoveSeat(ctx) {
  return lineSeat(ctx.lastMove, ctx.seat);
}

export function render(root, view, ctx) {
  const obs = view.observation;
  const me = view.seat;
  const n = obs.gems.length;
  const over = obs.terminal;
  root.classList.add("fv-root");

  // The day at a glance.
  const facts = h("div", { class: "fv-facts" },
    h("span", { class: "fv-fact fv-day" }, h("strong", { text: `Day ${obs.day}` }),
      ` of ${obs.days}`),
    h("span", { class: "fv-fact fv-deck", title: "cards left in the deck" },
      h("span", { class: "fv-deck-icon", "aria-hidden": "true" }),
      `Deck: ${plural(obs.deck, "card")}`),
    h("span", { class: "fv-fact fv-supply", title: "gems out of play until the next day" },
      "Supply: ", gems(obs.supply)),
    h("span", { class: "fv-fact", text: `New lots: ${plural(obs.new_lot_size, "card")}` }));

  const header = h("div", { class: "fv-top" }, facts);
  if (me !== null && me !== undefined) {
    const identity = obs.identities[me];
    header.append(h("div", { class: "fv-you" },
      h("span", { class: "fv-you-label" }, isYou(ctx, me) ? "You are" : `${seatLabel(ctx, me)} is`,
        h("br"),
        h("strong", { text: identity || "\u2014" })),
      card(ctx, identity, "md")));
  }
  root.append(header);

  if (over) {
    const winner = obs.winner;
    root.append(h("div", { class: "fv-banner", role: "status" },
      `${seatLabel(ctx, winner)} ${isYou(ctx, winner) ? "win" : "wins"} with `
      + `${plural(obs.scores[winner], "point")}`));
  }

  // The lot and what can be done with it.
  const offer = h("div", { class: "fv-offer" },
    h("h3", { class: "fv-lot-title" }, "The lot ",
      h("span", { class: "fv-hint", text: obs.lot.length ? `${plural(obs.lot.length, "card")} on offer` : "" })),
    cardRow(ctx, obs.lot, "lg", "empty"));
  const action = h("div", { class: "fv-action" });
  if (obs.auction) {
    action.append(auctionPanel(view, ctx, obs));
  } else if (!over) {
    action.append(h("p", { class: "fv-turn-line" },
      h("strong", { text: seatLabel(ctx, obs.turn) }),
      obs.turn === me ? ": add a card or call an auction" : " is to play"));
    if (me !== null && me !== undefined) {
      const add = h("button", { type: "button", class: "fv-button fv-add" },
        "Add to the lot", h("small", { text: "turn up the top card" }));
      const call = h("button", { type: "button", class: "fv-button fv-call" },
        "Call auction", h("small", { text: "everyone bids once" }));
      bind(ctx, add, "add to lot");
      bind(ctx, call, "call auction");
      action.append(h("div", { class: "fv-turn-controls" }, add, call));
    }
  }
  const lot = h("section", { class: "fv-lot", "aria-label": "the lot" }, offer, action);
  root.append(lot);

  // Every player: identity, gems, bid and collection.
  const lastSeat = lastMoveSeat(ctx);
  const seats = h("div", { class: "fv-seats" });
  for (let seat = 0; seat < n; seat += 1) seats.append(seatPanel(view, ctx, obs, seat, lastSeat));
  root.append(seats);

  if (obs.discarded.length) {
    root.append(h("section", { class: "fv-discarded", "aria-label": "discarded cards" },
      h("h3", { text: "Discarded lots" }), cardRow(ctx, obs.discarded, "sm")));
  }

  if (obs.past_days.length) {
    const sheets = h("section", { class: "fv-sheets", "aria-label": "score sheets" },
      h("h3", { text: "Score sheets" }));
    obs.past_days.forEach((record, index) => {
      sheets.append(scoreSheet(ctx, record, index === obs.past_days.length - 1));
    });
    root.append(sheets);
  }
}
