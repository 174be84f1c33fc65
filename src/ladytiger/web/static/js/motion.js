// Motion between two drawings of a game view. A view is drawn afresh for every position, so
// nothing moves by itself: before a new drawing the frame notes where each keyed thing was,
// and after it each thing is animated from its old place to its new one (FLIP, with the Web
// Animations API). The views say what is what with attributes (docs/architecture.md, "Motion"):
//   data-key     one thing that can move (a card whose face is shown, a cub, a gem)
//   data-zone    a place (the display, a hand, a pile, a cell)
//   data-from    on a new thing: the zone it came out of unseen (a card drawn from the deck)
//   data-took    on a zone: the keys it just swallowed, no longer drawn one by one
//   data-count-key / data-count   a number that can rise (gems, points)
// Every value comes from the observation the view was drawn from, so motion shows nothing a
// seat may not know.
import {h} from "./dom.js";
import {shownFor} from "./speed.js";

const GLIDE_MS = 420;
const MOVED = "lt-moved";

function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

function centre(rect) {
  return {x: rect.left + rect.width / 2, y: rect.top + rect.height / 2};
}

function visible(rect) {
  return rect.width > 0 && rect.height > 0;
}

/** Where every keyed thing, zone and count of `root` is now. */
function snapshot(root) {
  const things = new Map();
  for (const element of root.querySelectorAll("[data-key]")) {
    const rect = element.getBoundingClientRect();
    if (!visible(rect)) continue;
    things.set(element.dataset.key, {
      rect,
      zone: element.closest("[data-zone]")?.dataset.zone ?? null,
      // A copy to fly as a ghost if the thing is swallowed by a zone (data-took).
      ghost: element.cloneNode(true),
    });
  }
  const zones = new Map();
  for (const element of root.querySelectorAll("[data-zone]")) {
    const rect = element.getBoundingClientRect();
    if (visible(rect) && !zones.has(element.dataset.zone)) zones.set(element.dataset.zone, rect);
  }
  const counts = new Map();
  for (const element of root.querySelectorAll("[data-count-key]")) {
    counts.set(element.dataset.countKey, Number(element.dataset.count));
  }
  return {things, zones, counts};
}

/**
 * The motion of one view root. `capture()` before each drawing, `play(...)` after it.
 * `reset`: put away the highlights first (the viewer has just moved, or a spectator watches a
 * new position); `byOther`: whether what changed was done by someone else (only that is
 * highlighted); `animate: false` redraws without motion (a name changed, say).
 */
export function createMotion(root) {
  let before = null;
  const moved = new Set(); // keys brought to a new zone by others since the viewer last moved

  function capture() {
    before = root.isConnected ? snapshot(root) : null;
  }

  function play({reset = false, byOther = true, animate = true} = {}) {
    if (reset) moved.clear();
    const old = before;
    before = null;
    const still = !animate || reducedMotion() || !old;
    const duration = shownFor(GLIDE_MS);
    if (old) {
      for (const element of root.querySelectorAll("[data-key]")) {
        const key = element.dataset.key;
        const was = old.things.get(key);
        const zone = element.closest("[data-zone]")?.dataset.zone ?? null;
        if (was) {
          if (was.zone !== zone && byOther) moved.add(key);
          if (!still) glide(element, was.rect, duration);
        } else {
          // Out of the deck is chance (a refill, a deal), not a player's move: not marked.
          const from = element.dataset.from ? old.zones.get(element.dataset.from) : null;
          if (!still && from) arrive(element, from, duration);
        }
      }
      if (!still) {
        for (const zone of root.querySelectorAll("[data-took]")) gather(zone, old, duration);
        for (const number of root.querySelectorAll("[data-count-key]")) {
          const was = old.counts.get(number.dataset.countKey);
          const now = Number(number.dataset.count);
          if (Number.isFinite(was) && Number.isFinite(now) && now > was) rise(number, now - was, duration);
        }
      }
    }
    // The highlight outlives the drawing: the same thing is marked again in each new one.
    for (const element of root.querySelectorAll("[data-key]")) {
      element.classList.toggle(MOVED, moved.has(element.dataset.key));
    }
    root.dataset.moved = String(root.querySelectorAll(`.${MOVED}`).length);
  }

  function forget() {
    moved.clear();
    before = null;
  }

  return {capture, play, forget, moved};
}

/** From where it was to where it is now. */
function glide(element, was, duration) {
  const now = element.getBoundingClientRect();
  if (!visible(now)) return;
  const dx = was.left - now.left;
  const dy = was.top - now.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  element.animate(
    [{transform: `translate(${dx}px, ${dy}px)`}, {transform: "none"}],
    {duration, easing: "cubic-bezier(.2,.7,.3,1)"},
  );
}

/** Out of a zone where it was not to be seen (the deck): grows from that zone's middle. */
function arrive(element, from, duration) {
  const now = element.getBoundingClientRect();
  if (!visible(now)) return;
  const a = centre(from);
  const b = centre(now);
  element.animate(
    [{transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(.6)`, opacity: 0.2},
      {transform: "none", opacity: 1}],
    {duration, easing: "cubic-bezier(.2,.7,.3,1)"},
  );
}

/** Things a zone swallowed fly into it as ghosts and fade there. */
function gather(zone, old, duration) {
  const target = zone.getBoundingClientRect();
  if (!visible(target)) return;
  const end = centre(target);
  for (const key of zone.dataset.took.split("|")) {
    const was = old.things.get(key);
    // Still drawn somewhere: it glides by itself.
    if (!was || zone.ownerDocument.querySelector(`[data-key="${CSS.escape(key)}"]`)) continue;
    const ghost = was.ghost;
    ghost.removeAttribute("data-key");
    ghost.removeAttribute("data-move");
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("lt-ghost");
    Object.assign(ghost.style, {
      position: "fixed", left: `${was.rect.left}px`, top: `${was.rect.top}px`,
      width: `${was.rect.width}px`, height: `${was.rect.height}px`, margin: "0",
      pointerEvents: "none", zIndex: "40",
    });
    document.body.append(ghost);
    const start = centre(was.rect);
    const flight = ghost.animate(
      [{transform: "none", opacity: 1},
        {transform: `translate(${end.x - start.x}px, ${end.y - start.y}px) scale(.45)`, opacity: 0.15}],
      {duration: duration * 1.4, easing: "cubic-bezier(.4,0,.2,1)", fill: "forwards"},
    );
    const done = () => ghost.remove();
    flight.finished.then(done, done);
  }
}

/** A number went up: it pulses and a "+n" floats off it. */
function rise(number, by, duration) {
  number.animate(
    [{transform: "scale(1)"}, {transform: "scale(1.35)"}, {transform: "scale(1)"}],
    {duration, easing: "ease-out"},
  );
  const rect = number.getBoundingClientRect();
  if (!visible(rect)) return;
  const float = h("span", {class: "lt-rise", "aria-hidden": "true"}, `+${by}`);
  Object.assign(float.style, {left: `${rect.right - 4}px`, top: `${rect.top - 6}px`});
  document.body.append(float);
  const flight = float.animate(
    [{transform: "translateY(0)", opacity: 1}, {transform: "translateY(-22px)", opacity: 0}],
    {duration: duration * 2.4, easing: "ease-out", fill: "forwards"},
  );
  const done = () => float.remove();
  flight.finished.then(done, done);
}
