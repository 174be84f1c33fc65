// How long the table page keeps what just happened on screen for this viewer: results,
// revealed cards, refusals. The bots' pace is the table's and the same for everyone; this is
// a reading speed, kept in this browser only.
import {h, svg} from "./dom.js";

const KEY = "ladytiger.speed";
export const SPEEDS = [
  {key: "quick", label: "Quick", factor: 0.5},
  {key: "normal", label: "Normal", factor: 1},
  {key: "slow", label: "Slow", factor: 2},
];
const listeners = new Set();
let fallback = null; // the choice when storage refuses it

export function speed() {
  try {
    const kept = localStorage.getItem(KEY);
    if (SPEEDS.some((s) => s.key === kept)) return kept;
  } catch (error) {
    // No storage (a private window, say): the usual speed.
  }
  return "normal";
}

function setSpeed(key) {
  try {
    localStorage.setItem(KEY, key);
  } catch (error) {
    fallback = key;
  }
  // Every copy of the control (the top bar's, a moment's) shows the same choice.
  for (const select of document.querySelectorAll("select.speed-select")) select.value = key;
  for (const listener of listeners) listener(key);
}

/** `ms` at the normal speed, as long as this viewer wants it. */
export function shownFor(ms) {
  const key = fallback || speed();
  return ms * (SPEEDS.find((s) => s.key === key)?.factor ?? 1);
}

export function onSpeed(listener) {
  listeners.add(listener);
}

const WORDS = "How long results, revealed cards and refusals stay on screen for you. "
  + "The bots keep the table's pace.";

/**
 * The control: a small select, explained by its tooltip. `id` for the top bar's; `label`,
 * words shown before it instead of the top bar's clock.
 */
export function speedControl({id = null, label = null} = {}) {
  const select = h("select", {id, class: "speed-select",
    "aria-label": "How long results stay on screen"},
  SPEEDS.map((s) => h("option", {value: s.key, selected: s.key === (fallback || speed())},
    s.label)));
  select.addEventListener("change", () => setSpeed(select.value));
  return h("label", {class: "speed", title: WORDS},
    label ? h("span", {class: "speed-words"}, label) : svg("0 0 24 24", CLOCK, {class: "speed-icon"}),
    select);
}

const CLOCK = '<circle cx="12" cy="13" r="8" fill="none" stroke="currentColor" stroke-width="2"/>'
  + '<path d="M12 9v4.2l2.8 1.8M9.5 2.5h5" fill="none" stroke="currentColor" stroke-width="2"'
  + ' stroke-linecap="round" stroke-linejoin="round"/>';
