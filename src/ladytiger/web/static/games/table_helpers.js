// Helpers shared by the table views of Favor, Tighee and Shady Lady: building elements,
// binding a control to an engine move, and naming seats the way the frame does.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

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
