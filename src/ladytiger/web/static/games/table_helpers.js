// Helpers shared by the table views of Favor, Tighee and Shady Lady: building elements,
// binding a control to an engine move, and naming seats the way the frame does.

// Elements are built with the pages' own helpers (`text` sets an element's text).
export {h, plural} from "/static/js/dom.js";

// A control for one engine move: the frame decides whether it is playable and why not.
export function bind(ctx, el, text) {
  el.dataset.move = text;
  ctx.bind(el, text);
  return el;
}

export function seatLabel(ctx, seat) {
  return typeof ctx.seatName === "function" ? ctx.seatName(seat) : `Seat ${seat}`;
}

// "You" at the player's own table; "Seat 2" when the frame draws another seat's view (the end
// summary, the replay viewer), so the words follow the frame's names.
export function isYou(ctx, seat) {
  return seatLabel(ctx, seat) === "You";
}

export function whose(ctx, seat) {
  return isYou(ctx, seat) ? "Your" : `${seatLabel(ctx, seat)}'s`;
}

/** The seat a log sentence is about ("Seat 2 bids 3 gems." or, for the reader, "You bid
 * ..."), or null for a sentence about no seat. */
export function lineSeat(line, mySeat) {
  const match = /^(?:Seat (\d+)|You)\b/.exec(line || "");
  if (!match) return null;
  return match[1] === undefined ? (mySeat ?? null) : Number(match[1]);
}
