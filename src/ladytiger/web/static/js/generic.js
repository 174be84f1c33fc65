// The view of any game without a module of its own: the observation, laid out as labelled
// fields, with card names drawn as cards. It reads only the observation.
import {h} from "./dom.js";
import {parseCard} from "./cards.js";

const FRAME_FIELDS = new Set([
  "game", "options", "viewer", "current_player", "terminal", "scores", "returns", "log",
]);

function label(key) {
  return key.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

function isCardName(value) {
  if (value === null) return true;
  if (typeof value === "number") return false;
  if (typeof value !== "string") return false;
  const kind = parseCard(value).kind;
  return kind === "lt" || kind === "suit";
}

function isCardList(value) {
  return Array.isArray(value) && value.length > 0 && value.every(isCardName)
    && value.some((v) => v !== null);
}

function isSeatList(value, players) {
  return Array.isArray(value) && value.length === players && players > 1
    && value.every((v) => Array.isArray(v) || v === null || typeof v !== "object");
}

function renderValue(value, ctx, players, depth) {
  if (value === null || value === undefined) return h("span", {class: "muted"}, "—");
  if (typeof value === "boolean") return h("span", {}, value ? "yes" : "no");
  if (typeof value !== "object") {
    return isCardName(value) ? ctx.card(value, {size: "sm"}) : h("span", {}, String(value));
  }
  if (isCardList(value)) {
    return h("div", {class: "card-row"}, value.map((name) => ctx.card(name, {size: "sm"})));
  }
  if (Array.isArray(value)) {
    if (!value.length) return h("span", {class: "muted"}, "none");
    if (isSeatList(value, players)) {
      return h("dl", {class: "generic-seats"}, value.map((entry, seat) => [
        h("dt", {}, ctx.seatName(seat)), h("dd", {}, renderValue(entry, ctx, players, depth + 1)),
      ]));
    }
    if (value.every((v) => typeof v !== "object" || v === null)) {
      return h("span", {}, value.map((v) => (v === null ? "?" : String(v))).join(", "));
    }
    if (depth > 2) return h("code", {}, JSON.stringify(value));
    return h("ol", {class: "generic-list"}, value.map((entry) =>
      h("li", {}, renderValue(entry, ctx, players, depth + 1))));
  }
  if (depth > 2) return h("code", {}, JSON.stringify(value));
  return h("dl", {class: "generic-fields"}, Object.entries(value).map(([key, entry]) => [
    h("dt", {}, label(key)), h("dd", {}, renderValue(entry, ctx, players, depth + 1)),
  ]));
}

export function render(root, view, ctx) {
  const observation = view.observation || {};
  const players = (observation.scores || []).length;
  root.classList.add("generic-view");
  const fields = Object.entries(observation).filter(([key]) => !FRAME_FIELDS.has(key));
  root.append(
    h("p", {class: "generic-note muted"},
      "This game has no table drawing of its own yet: here is everything your seat can see."),
    h("dl", {class: "generic-fields"}, fields.map(([key, value]) => [
      h("dt", {}, label(key)), h("dd", {}, renderValue(value, ctx, players, 0)),
    ])));
}
