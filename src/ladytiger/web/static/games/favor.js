// Favor at the table: the lot, every player's gems, bid and collection, and the score sheets.
// Drawn only from the seat's observation (src/ladytiger/games/favor.py, `_observe`); moves are
// named by their engine texts ("add to lot", "call auction", "pass", "bid 3") and bound
// through the frame, which enables them or shows the engine's reason.
//
// Gems and points are apart: gems are what a player bids with today (five each day), points
// are the score sheet's and decide the game.
//
// Motion (the frame's contract): a lot's cards come out of the deck, and every card in a
// collection or the discards came out of the lot; bids come out of their bidder's gems; the
// gems, the points and the supply are counts that can rise.

import { bind, h, isYou, lineSeat, plural, seatLabel, whose } from "./table_helpers.js";

const GEMS_PER_DAY = 5;

// Cards are drawn by the frame (colour plus printed word and symbol, the same look as the end
// summary); "lg" for the lot, "sm" for collections and score sheets.
function card(ctx, name, size = "md") {
  const options = { size };
  if (name === null || name === undefined) options.label = "face-down Door card";
  return ctx.card(name, options);
}

// `motion`: {keys, from, zone} to key each card for the frame's motion and name its place.
function cardRow(ctx, names, size, empty, motion = null) {
  const row = h("div", { class: "fv-cards", "data-zone": motion?.zone });
  if (!names.length) row.append(h("span", { class: "fv-none", text: empty || "none" }));
  names.forEach((name, index) => {
    const face = card(ctx, name, size);
    if (motion) {
      face.dataset.key = motion.keys[index];
      face.dataset.from = motion.from;
    }
    row.append(face);
  });
  return row;
}

function countOf(cards, name) {
  return cards.filter((c) => c === name).length;
}

/**
 * Motion keys of a day's cards. Equal cards in one place are told apart by their order
 * there; a lot's k-th card of a name is #k among that name's cards out of the deck today,
 * the lot holding the latest, so a card turned up is always a new key. Cards that leave the
 * lot are keyed anew where they land and fly in from the lot (data-from).
 */
function dayKeys(obs) {
  const day = `d${obs.day}`;
  const inPlace = (cards, tag) => {
    const seen = new Map();
    return cards.map((name) => {
      const index = seen.get(name) || 0;
      seen.set(name, index + 1);
      return `card:${name}#${day}${tag}${index}`;
    });
  };
  const seen = new Map();
  const lot = obs.lot.map((name) => {
    const out = obs.collections.reduce((sum, mine) => sum + countOf(mine, name), 0)
      + countOf(obs.discarded, name) + countOf(obs.lot, name);
    const index = seen.get(name) || 0;
    seen.set(name, index + 1);
    return `card:${name}#${day}-${out - countOf(obs.lot, name) + index}`;
  });
  return {
    lot,
    collections: obs.collections.map((mine, seat) => inPlace(mine, `c${seat}-`)),
    discarded: inPlace(obs.discarded, "x"),
  };
}

// `countKey`: the frame's name for this number, which animates when it rises.
function gems(count, label, countKey = null) {
  const shown = Math.min(count, 24);
  const icons = h("span", { class: "fv-gem-icons", "aria-hidden": "true" },
    "\u25C6".repeat(shown));
  return h("span", { class: "fv-gems", title: label || plural(count, "gem"),
    "data-count-key": countKey, "data-count": countKey ? count : null },
  icons, h("span", { class: "fv-gem-count", text: plural(count, "gem") }));
}

// The bid being stepped, kept between drawings of the same auction, so another player's
// bid does not reset it; a new auction starts again from the lowest bid.
let steppedBid = null;
let steppedFor = null;

/**
 * The one bid control, beside the lot: a stepper offering only the bids the rules allow this
 * seat now (above the high bid, at most its gems), whose middle button makes the bid shown,
 * and Pass. The ends of the range have no step button, so nothing leads to an impossible bid.
 */
function bidControls(root, view, ctx, obs) {
  const me = view.seat;
  const auction = obs.auction;
  const top = GEMS_PER_DAY * obs.gems.length; // the highest bid the engine numbers
  const low = auction.high_bid + 1;
  const mine = obs.gems[me];
  const high = Math.min(mine, top);
  const key = `${obs.day}|${obs.deck}|${auction.caller}|${auction.final}|${obs.lot.join(",")}`;
  if (steppedFor !== key) {
    steppedFor = key;
    steppedBid = null;
  }
  if (!(steppedBid >= low && steppedBid <= high)) steppedBid = low;
  // A guided game names the bid it teaches (ctx.suggested): the stepper starts there, so the
  // one button the coach marks is the move it asks for.
  const wanted = /^bid (\d+)$/.exec(ctx.suggested || "");
  if (wanted && Number(wanted[1]) >= low && Number(wanted[1]) <= high) {
    steppedBid = Number(wanted[1]);
  }

  const controls = h("div", { class: "fv-bid-controls", role: "group",
    "aria-label": `${whose(ctx, me)} bid` });
  const stepper = h("span", { class: "fv-stepper" });
  const draw = (focus) => {
    const amount = steppedBid;
    const step = (by, label, sign) => {
      const target = amount + by;
      if (low === high) return null;  // one bid: no steps, and no room kept for them
      if (target < low || target > high) return h("span", { class: "fv-step-none" });
      const button = h("button", { type: "button", class: "fv-step", "data-step": by,
        "aria-label": `${label}: ${target}`, title: `${label}: ${target}` }, sign);
      button.addEventListener("click", () => {
        steppedBid = target;
        draw(by);
      });
      return button;
    };
    const button = h("button", { type: "button", class: "fv-button fv-bid-button",
      text: `Bid ${amount}`, "aria-keyshortcuts": "ArrowUp ArrowDown" });
    bind(ctx, button, `bid ${amount}`);
    button.addEventListener("keydown", (event) => {
      const by = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1 }[event.key];
      if (!by || amount + by < low || amount + by > high) return;
      event.preventDefault();
      steppedBid = amount + by;
      draw(0);
    });
    stepper.replaceChildren(...[step(-1, "one fewer", "\u2212"), button, step(1, "one more", "+")]
      .filter(Boolean));
    if (focus !== undefined) (stepper.querySelector(`[data-step="${focus}"]`) || button).focus();
  };
  const pass = h("button", { type: "button", class: "fv-button fv-pass-button", text: "Pass" });
  bind(ctx, pass, "pass");
  if (low <= high) {
    draw();
    controls.append(h("span", { class: "fv-bid-label", text: `${whose(ctx, me)} bid` }), stepper);
  }
  const hint = low <= high ? `you hold ${plural(mine, "gem")}`
    : `you hold ${plural(mine, "gem")}: too few to beat ${auction.high_bid}`;
  controls.append(pass, h("span", { class: "fv-hint", text: hint }));
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
  // The gems bid lie in front of the bidder: they come out of the bidder's gems.
  return h("span", { class: `fv-bid${lead}`, title: `bid ${plural(bid, "gem")}`,
    "data-key": `bid:${seat}`, "data-from": `gems-${seat}` },
    h("span", { class: "fv-gem-icons", "aria-hidden": "true", text: "\u25C6" }),
    ` bid ${bid}`);
}

function seatPanel(view, ctx, obs, seat, lastSeat, keys) {
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
      h("span", { class: "fv-purse", "data-zone": `gems-${seat}` },
        gems(obs.gems[seat], `${plural(obs.gems[seat], "gem")} to bid with today`, `gems-${seat}`)),
      h("span", { class: "fv-points", title: "points on the score sheet, which decide the game",
        "data-count-key": `points-${seat}`, "data-count": obs.scores[seat],
        text: plural(obs.scores[seat], "point") }),
      bidChip(auction, seat))),
  h("div", { class: "fv-collection", "aria-label": "collection" },
    cardRow(ctx, obs.collections[seat], "sm", "no cards yet",
      { keys: keys.collections[seat], from: "lot", zone: `collection-${seat}` })));
  return panel;
}

function scoreSheet(ctx, record, open) {
  const details = h("details", { class: "fv-sheet" });
  if (open) details.open = true;
  details.append(h("summary", { text: `Day ${record.day} score sheet` }));
  const table = h("table", { class: "fv-sheet-table" });
  // Points and gems apart: the cards' points, the gems left (most gems scores 3 points), the
  // day's points and the running total.
  const columns = [["Player"], ["Identity"], ["Collected"], ["Wilds"],
    ["Card points", "points scored by the collected cards"],
    ["Gems left", "gems held at the day's end; most gems scores 3 points"],
    ["Day points"], ["Total points"]];
  table.append(h("thead", {}, h("tr", {},
    columns.map(([title, hint]) => h("th", { scope: "col", text: title, title: hint })))));
  const body = h("tbody");
  record.identities.forEach((identity, seat) => {
    const bonus = record.gem_bonus[seat] ? ` (+${record.gem_bonus[seat]} points)` : "";
    body.append(h("tr", {},
      h("th", { scope: "row", text: seatLabel(ctx, seat) }),
      h("td", { "data-label": "Identity" }, card(ctx, identity, "sm")),
      h("td", { "data-label": "Collected" }, cardRow(ctx, record.collections[seat], "sm", "nothing")),
      h("td", { class: "fv-wilds", "data-label": "Wilds",
        text: record.wilds[seat].join("; ") || "\u2014" }),
      h("td", { class: "fv-num", "data-label": "Card points", text: record.card_points[seat] }),
      h("td", { class: "fv-num", "data-label": "Gems left", text: `${record.gems[seat]}${bonus}` }),
      h("td", { class: "fv-num", "data-label": "Day points", text: record.points[seat] }),
      h("td", { class: "fv-num fv-total", "data-label": "Total points", text: record.totals[seat] })));
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
  const keys = dayKeys(obs);
  root.classList.add("fv-root");

  // The day at a glance.
  const facts = h("div", { class: "fv-facts" },
    h("span", { class: "fv-fact fv-day" }, h("strong", { text: `Day ${obs.day}` }),
      ` of ${obs.days}`),
    h("span", { class: "fv-fact fv-deck", title: "cards left in the deck", "data-zone": "deck" },
      h("span", { class: "fv-deck-icon", "aria-hidden": "true" }),
      `Deck: ${plural(obs.deck, "card")}`),
    h("span", { class: "fv-fact fv-supply", title: "gems out of play until the next day" },
      "Supply: ", gems(obs.supply, `${plural(obs.supply, "gem")} in the supply`, "supply")),
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
    cardRow(ctx, obs.lot, "lg", "empty", { keys: keys.lot, from: "deck", zone: "lot" }));
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
  for (let seat = 0; seat < n; seat += 1) {
    seats.append(seatPanel(view, ctx, obs, seat, lastSeat, keys));
  }
  root.append(seats);

  if (obs.discarded.length) {
    root.append(h("section", { class: "fv-discarded", "aria-label": "discarded cards" },
      h("h3", { text: "Discarded lots" }),
      cardRow(ctx, obs.discarded, "sm", null, { keys: keys.discarded, from: "lot", zone: "discard" })));
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
