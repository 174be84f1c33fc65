// Shady Lady at the table: your hand, the other hands (known cards face up, the rest face down),
// every personal pile in full order with its top card to take, the draw pile, Try! and Jack!,
// the Try! answers and the points. Drawn only from the seat's observation
// (src/ladytiger/games/shady_lady.py, `_observe`); every control names an engine move ("draw",
// "take 7 from seat 2", "discard 7", "try", "jack seat 1", "reveal", "decline") and the frame
// enables it or shows the engine's reason.

import { bind, h, isYou, lineSeat, plural, seatLabel, whose } from "./table_helpers.js";

// Cards are drawn by the frame (the number printed large, the same look as the end summary);
// low numbers (1-4) and high ones (6-9) get a tint and an edge mark of ours, since runs never
// mix them (there is no 5).
function numberCard(ctx, value, size = "md", extra = "") {
  const options = { size };
  if (value === null || value === undefined) options.label = "face-down card";
  const el = ctx.card(value === null || value === undefined ? null : value, options);
  el.classList.add("sl-card");
  if (value !== null && value !== undefined) el.classList.add(value < 5 ? "sl-low" : "sl-high");
  if (extra) el.classList.add(...extra.split(" "));
  return el;
}

function pointPips(points, target) {
  const pips = h("span", { class: "sl-pips", title: `${plural(points, "point")} of ${target}`,
    "aria-label": `${plural(points, "point")} of ${target}` });
  for (let i = 0; i < target; i += 1) {
    pips.append(h("span", { class: `sl-pip${i < points ? " sl-pip-on" : ""}`, "aria-hidden": "true" }));
  }
  pips.append(h("span", { class: "sl-points-text", text: `${points}/${target}` }));
  return pips;
}

// Controls are drawn for a seated player while the game is on (a spectator only watches).
function canMove(view) {
  return view.seat !== null && view.seat !== undefined && !view.observation.terminal;
}

// The whole pile, bottom first and top last; only the top card can be taken.
function pileView(ctx, view, obs, seat, highlightTop) {
  const pile = obs.piles[seat];
  const wrap = h("div", { class: "sl-pile", "aria-label": `${seatLabel(ctx, seat)}'s discard pile, top last` });
  const under = h("div", { class: "sl-pile-under" });
  pile.slice(0, -1).forEach((value) => under.append(numberCard(ctx, value, "xs")));
  wrap.append(under);
  if (pile.length) {
    const top = pile[pile.length - 1];
    const topCard = numberCard(ctx, top, "sm", `sl-pile-top${highlightTop ? " sl-latest" : ""}`);
    if (canMove(view)) bind(ctx, topCard, `take ${top} from seat ${seat}`);
    wrap.append(topCard);
  } else {
    const empty = h("div", { class: "sl-empty", text: "empty" });
    if (canMove(view)) bind(ctx, empty, `take from seat ${seat}`);
    wrap.append(empty);
  }
  return wrap;
}

function lastDiscardSeat(ctx) {
  // "Seat 1 discards a 7." or "You discard a 7."
  if (!/^(?:Seat \d+ discards|You discard) /.test(ctx.lastMove || "")) return null;
  return lineSeat(ctx.lastMove, ctx.seat);
}

function seatPanel(ctx, view, obs, seat, lastSeat) {
  const me = view.seat;
  const toMove = obs.current_player === seat;
  const classes = ["sl-seat"];
  if (seat === me) classes.push("sl-me");
  if (toMove) classes.push("sl-to-move");
  if (obs.winner === seat) classes.push("sl-winner");
  const badges = h("span", { class: "sl-badges" });
  if (toMove) badges.append(h("span", { class: "sl-badge sl-badge-move", text: "to move" }));
  if (obs.turn_player === seat && !toMove && !obs.terminal) {
    badges.append(h("span", { class: "sl-badge", text: "their turn" }));
  }
  if (obs.try && obs.try.declarer === seat) badges.append(h("span", { class: "sl-badge sl-badge-call", text: "Try!" }));
  const head = h("header", { class: "sl-seat-head" },
    h("span", { class: "sl-seat-name", text: seatLabel(ctx, seat) }), badges,
    pointPips(obs.scores[seat], obs.points_to_win));
  if (canMove(view) && seat !== me) {
    const jack = h("button", { type: "button", class: "sl-button sl-jack",
      "aria-label": `Jack! (accuse ${seatLabel(ctx, seat)})`, text: "Jack!" });
    bind(ctx, jack, `jack seat ${seat}`);
    head.append(jack);
  }
  const panel = h("section", { class: classes.join(" "), "data-seat": seat,
    "aria-label": seatLabel(ctx, seat) }, head);
  const hand = obs.hands[seat];
  const known = hand.filter((value) => value !== null).length;
  const handRow = h("div", { class: "sl-hand sl-other-hand",
    "aria-label": `${seatLabel(ctx, seat)}'s hand: ${known} known of ${hand.length}` });
  hand.forEach((value) => handRow.append(numberCard(ctx, value, "sm")));
  panel.append(h("div", { class: "sl-row" }, h("span", { class: "sl-row-label", text: "hand" }), handRow));
  panel.append(h("div", { class: "sl-row" }, h("span", { class: "sl-row-label", text: "pile" }),
    pileView(ctx, view, obs, seat, seat === lastSeat)));
  return panel;
}

function tryPanel(ctx, view, obs) {
  const call = obs.try;
  const panel = h("section", { class: "sl-call sl-try", "aria-label": "Try! in progress", role: "status" },
    h("div", { class: "sl-call-title" }, h("strong", { text: `${seatLabel(ctx, call.declarer)} declared Try!` })),
    h("div", {}, "Best shown: ", h("strong", { text: call.best }),
      ` by ${seatLabel(ctx, call.best_seat)}`),
    h("div", {}, h("strong", { text: seatLabel(ctx, call.to_answer) }),
      " may reveal a stronger combination or decline"));
  if (canMove(view)) {
    const reveal = h("button", { type: "button", class: "sl-button", text: "Reveal my hand" });
    const decline = h("button", { type: "button", class: "sl-button sl-quiet", text: "Decline" });
    bind(ctx, reveal, "reveal");
    bind(ctx, decline, "decline");
    panel.append(h("div", { class: "sl-controls" }, reveal, decline));
  }
  return panel;
}

function resultLine(ctx, result) {
  const who = result.call === "Jack!"
    ? `${seatLabel(ctx, result.declarer)} called Jack! on ${seatLabel(ctx, result.target)}`
    : `${seatLabel(ctx, result.declarer)} called Try!`;
  const shown = h("div", { class: "sl-shown" });
  for (const hand of result.revealed) {
    const cards = h("span", { class: "sl-shown-cards" });
    hand.cards.forEach((value) => cards.append(numberCard(ctx, value, "xs")));
    shown.append(h("span", { class: "sl-shown-hand" }, `${seatLabel(ctx, hand.seat)}: `, cards,
      h("span", { class: "sl-combo", text: hand.combination || "no combination" })));
  }
  return h("div", { class: "sl-result" },
    h("div", {}, h("span", { class: "sl-turn-no", text: `turn ${result.turn}` }), ` ${who}`),
    shown,
    h("div", { class: "sl-scored" }, `\u2192 ${seatLabel(ctx, result.scorer)} scores (${result.why})`));
}

export function render(root, view, ctx) {
  const obs = view.observation;
  const me = view.seat;
  const n = obs.hands.length;
  const seated = me !== null && me !== undefined;
  root.classList.add("sl-root");

  const facts = h("div", { class: "sl-top" },
    h("span", { class: "sl-fact" }, h("strong", { text: `Turn ${obs.turn}` }),
      ` of at most ${obs.turn_limit}`),
    h("span", { class: "sl-fact", text: `${obs.points_to_win} points win` }),
    obs.reshuffles ? h("span", { class: "sl-fact", text: `draw pile rebuilt ${obs.reshuffles}\u00D7` }) : null,
    h("span", { class: "sl-fact sl-combos",
      text: "runs 1-2-3, 2-3-4, 6-7-8, 7-8-9 < any triple" }));
  root.append(facts);

  if (obs.terminal) {
    const text = obs.winner === null
      ? `The turn limit (${obs.turn_limit}) is reached: a draw`
      : `${seatLabel(ctx, obs.winner)} ${isYou(ctx, obs.winner) ? "win" : "wins"} with ${plural(obs.points_to_win, "point")}`;
    root.append(h("div", { class: "sl-banner", role: "status", text }));
  }

  const lastSeat = lastDiscardSeat(ctx);

  // The centre: draw pile, what is going on, Try!
  const centre = h("section", { class: "sl-centre", "aria-label": "draw pile and calls" });
  const drawPile = h("div", { class: "sl-draw" },
    h("div", { class: "sl-stack" }, numberCard(ctx, null, "md", "sl-draw-card")),
    h("div", { class: "sl-draw-count", text: `Draw pile: ${plural(obs.draw_pile, "card")}` }));
  if (canMove(view)) bind(ctx, drawPile.querySelector(".sl-card"), "draw");
  centre.append(drawPile);
  const status = h("div", { class: "sl-status" });
  if (obs.try) status.append(tryPanel(ctx, view, obs));
  else if (obs.discarding.length) {
    status.append(h("div", { class: "sl-call", role: "status" },
      `${obs.discarding.map((seat) => seatLabel(ctx, seat)).join(", ")}: the revealed hand goes `
      + "onto the pile one card at a time, then three new cards are drawn"));
  } else if (!obs.terminal) {
    const turn = obs.turn_player;
    status.append(h("div", { class: "sl-call sl-quiet-call" },
      turn === me
        ? (obs.phase === "discard" ? "Discard one of your four cards onto your pile"
          : "Your turn: draw, take a pile's top card, Try! or Jack!")
        : `${seatLabel(ctx, turn)}'s turn`));
  }
  if (obs.results.length) {
    status.append(h("div", { class: "sl-last-call" },
      h("div", { class: "sl-label", text: "Last call" }),
      resultLine(ctx, obs.results[obs.results.length - 1])));
  }
  centre.append(status);
  root.append(centre);

  // The other players, clockwise from the one after you.
  const others = h("div", { class: "sl-others" });
  const start = seated ? me + 1 : 0;
  for (let k = 0; k < n; k += 1) {
    const seat = (start + k) % n;
    if (seat === me) continue;
    others.append(seatPanel(ctx, view, obs, seat, lastSeat));
  }
  root.append(others);

  // Your own place: the hand to discard from, Try!, your pile.
  if (seated) {
    const mine = h("section", { class: `sl-mine${obs.current_player === me ? " sl-to-move" : ""}`,
      "aria-label": "your hand and pile" });
    const head = h("header", { class: "sl-seat-head" },
      h("span", { class: "sl-seat-name", text: seatLabel(ctx, me) }),
      pointPips(obs.scores[me], obs.points_to_win));
    if (obs.combination) head.append(h("span", { class: "sl-combo sl-combo-mine", text: `you hold ${obs.combination}` }));
    mine.append(head);
    const hand = h("div", { class: "sl-hand sl-my-hand" });
    obs.hands[me].forEach((value) => {
      const el = numberCard(ctx, value, "lg", "sl-in-hand");
      if (canMove(view)) bind(ctx, el, `discard ${value}`);
      hand.append(el);
    });
    const tryButton = h("button", { type: "button", class: "sl-button sl-try-button" },
      "Try! ", h("small", { text: "show a combination" }));
    if (canMove(view)) bind(ctx, tryButton, "try");
    const handBlock = h("div", { class: "sl-my-hand-block" },
      h("div", { class: "sl-label" }, `${whose(ctx, me)} hand `,
        h("span", { class: "sl-hint", text: obs.terminal ? "" : "click a card to discard it" })),
      hand);
    mine.append(h("div", { class: "sl-mine-body" }, handBlock,
      obs.terminal ? null : h("div", { class: "sl-controls" }, tryButton),
      h("div", { class: "sl-my-pile" }, h("div", { class: "sl-label", text: `${whose(ctx, me)} pile (top last)` }),
        pileView(ctx, view, obs, me, me === lastSeat))));
    root.append(mine);
  }

  if (obs.results.length > 1) {
    const all = h("details", { class: "sl-history" },
      h("summary", { text: `Every Try! and Jack! (${obs.results.length})` }));
    [...obs.results].reverse().forEach((result) => all.append(resultLine(ctx, result)));
    root.append(all);
  }
}
