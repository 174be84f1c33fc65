// Cards drawn in CSS and inline SVG: a colour, and always a printed word or symbol too, so
// that nobody has to tell red from blue by hue alone.
import {h, svg} from "./dom.js";

const ICONS = {
  // A crown for a Lady, stripes for a Tiger, a star for a wild.
  lady: '<path d="M3 18 4.6 7.4 9 11.6 12 4.5l3 7.1 4.4-4.2L21 18z" fill="currentColor"/>'
    + '<rect x="3" y="19.2" width="18" height="2.2" rx="1.1" fill="currentColor"/>',
  tiger: '<path d="M5.5 3.5c2.6 5.4 2.6 11.6 0 17M12 2.5c2.6 6 2.6 13 0 19M18.5 3.5c2.6 5.4'
    + ' 2.6 11.6 0 17" stroke="currentColor" stroke-width="2.8" fill="none"'
    + ' stroke-linecap="round"/>',
  wild: '<path d="m12 2.2 2.9 6.5 7.1.7-5.4 4.8 1.6 7L12 17.5l-6.2 3.7 1.6-7L2 9.4l7.1-.7z"'
    + ' fill="currentColor"/>',
  circle: '<circle cx="12" cy="12" r="8.5" fill="currentColor"/>',
  diamond: '<path d="M12 2.5 21 12l-9 9.5L3 12z" fill="currentColor"/>',
  square: '<rect x="4" y="4" width="16" height="16" rx="2.5" fill="currentColor"/>',
  triangle: '<path d="M12 3.2 21.5 20H2.5z" fill="currentColor"/>',
};

export function icon(name, className = "icon") {
  return svg("0 0 24 24", ICONS[name] || ICONS.wild, {class: className});
}

const LT_COLOURS = {Red: "red", Blue: "blue"};
const LT_ROLES = {Lady: "lady", Tiger: "tiger"};
const TIGHEE_SUITS = {
  Red: "circle", Purple: "diamond", Blue: "square", Green: "triangle", Black: "tiger",
};

/** What kind of card a name is: {kind, ...}. */
export function parseCard(name) {
  if (name === null || name === undefined) return {kind: "back"};
  const text = String(name).trim();
  if (/^\d+$/.test(text)) return {kind: "number", value: Number(text)};
  if (text === "Blue/Red") return {kind: "lt", colour: "both", role: "wild", word: ["Blue/Red", "wild"]};
  if (text === "Lady/Tiger") return {kind: "lt", colour: "none", role: "both", word: ["Lady/Tiger", "wild"]};
  const parts = text.split(/\s+/);
  if (parts.length === 2 && LT_COLOURS[parts[0]] && LT_ROLES[parts[1]]) {
    return {kind: "lt", colour: LT_COLOURS[parts[0]], role: LT_ROLES[parts[1]], word: parts};
  }
  if (parts.length === 2 && TIGHEE_SUITS[parts[0]] && /^\d+$/.test(parts[1])) {
    return {kind: "suit", suit: parts[0], rank: Number(parts[1])};
  }
  return {kind: "text", text};
}

/**
 * A card element. `name` is a card's name as the engine writes it ("Red Lady", "Blue/Red",
 * "Green 7", 7), or null for a face-down card. options: {size: "sm" | "md" | "lg",
 * caption: text under the card, selected: true, title}.
 */
export function card(name, options = {}) {
  const parsed = parseCard(name);
  const size = options.size || "md";
  const classes = ["card", `card-${parsed.kind}`, `size-${size}`];
  if (options.selected) classes.push("selected");
  if (options.class) classes.push(options.class);
  const label = parsed.kind === "back" ? (options.label || "face-down card") : String(name);
  const element = h("div", {
    class: classes.join(" "), role: "img", "aria-label": label,
    title: options.title || label, "data-card": parsed.kind === "back" ? null : String(name),
  });
  if (parsed.kind === "back") {
    element.append(h("span", {class: "card-back-mark"}, "?"));
  } else if (parsed.kind === "lt") {
    element.classList.add(`colour-${parsed.colour}`, `role-${parsed.role}`);
    let symbol;
    if (parsed.role === "wild") symbol = icon("wild", "card-icon");
    else if (parsed.role === "both") {
      symbol = h("span", {class: "card-icon-pair"}, icon("lady", "card-icon"),
        icon("tiger", "card-icon"));
    } else symbol = icon(parsed.role, "card-icon");
    element.append(
      h("span", {class: "card-word card-word-top"}, parsed.word[0]),
      symbol,
      h("span", {class: "card-word"}, parsed.word[1]),
    );
  } else if (parsed.kind === "suit") {
    element.classList.add(`suit-${parsed.suit.toLowerCase()}`);
    element.append(
      h("span", {class: "card-rank"}, parsed.rank),
      icon(TIGHEE_SUITS[parsed.suit], "card-icon"),
      h("span", {class: "card-word"}, parsed.suit),
    );
  } else if (parsed.kind === "number") {
    element.classList.add(`number-${parsed.value}`);
    element.append(
      h("span", {class: "card-corner"}, parsed.value),
      h("span", {class: "card-number"}, parsed.value),
      h("span", {class: "card-corner card-corner-end"}, parsed.value),
    );
  } else {
    element.append(h("span", {class: "card-text"}, parsed.text));
  }
  if (options.caption !== undefined && options.caption !== null) {
    return h("figure", {class: "card-with-caption"}, element,
      h("figcaption", {}, options.caption));
  }
  return element;
}

/** A row of cards (a hand, a pile), wrapping on a narrow screen. */
export function cardRow(names, options = {}) {
  const row = h("div", {class: `card-row ${options.class || ""}`.trim()});
  for (const name of names) row.append(card(name, options));
  if (!names.length && options.empty) row.append(h("p", {class: "empty"}, options.empty));
  return row;
}

/** Gems as a small icon and a number: "◆ 3". */
export function gems(count, label = "gems") {
  return h("span", {class: "gems", title: `${count} ${label}`},
    svg("0 0 24 24", '<path d="M6 3h12l4 6-10 12L2 9z" fill="currentColor"/>'
      + '<path d="M2 9h20M9 3l3 18 3-18" stroke="rgba(255,255,255,.55)" stroke-width="1.2"'
      + ' fill="none"/>', {class: "gem-icon"}),
    h("span", {class: "gems-count"}, count));
}
