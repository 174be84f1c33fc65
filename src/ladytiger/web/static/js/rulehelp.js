// The rule of the moment: a "?" button and a panel that shows the part of a game's rules that
// applies to the phase the table is in and to the viewer's role in it. The text comes from
// /api/guides/<game>, the same guide the rules page (/rules/<game>) is drawn from, so the two
// never disagree. The choice of section mirrors ladytiger.guides.moments_for on the server.
import {clear, h} from "./dom.js";

const guides = new Map();

/** The game's guide from the server, fetched once per page. */
export function fetchGuide(game) {
  if (!guides.has(game)) {
    const asked = fetch(`/api/guides/${encodeURIComponent(game)}`).then((answer) => {
      if (!answer.ok) throw new Error(`no rules for ${game} (${answer.status})`);
      return answer.json();
    });
    guides.set(game, asked.catch((error) => {
      guides.delete(game);
      throw error;
    }));
  }
  return guides.get(game);
}

/** The roles `seat` holds in `observation`: the guide's own, and whether it is to move. */
export function rolesOf(guide, observation, seat) {
  if (seat === null || seat === undefined) return new Set(["watching"]);
  const held = new Set([observation.current_player === seat ? "to move" : "waiting"]);
  for (const [role, field] of Object.entries(guide.roles || {})) {
    let value = observation;
    for (const key of field.split(".")) value = value && typeof value === "object" ? value[key] : undefined;
    if (value === seat || (Array.isArray(value) && value.includes(seat))) held.add(role);
  }
  return held;
}

/** [{section, moment}] explaining this phase to this seat, in the guide's order. */
export function momentsFor(guide, observation, seat) {
  if (!observation) return [];
  const held = rolesOf(guide, observation, seat);
  const found = [];
  for (const section of guide.sections) {
    const moment = (section.moments || []).find((m) => m.phase === observation.phase
      && m.roles.every((role) => held.has(role)));
    if (moment) found.push({section, moment});
  }
  return found;
}

/** Our own server's HTML (the guide's Markdown, rendered with raw HTML escaped) as nodes. */
function fragment(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup;
  // The panel is a side note: the section's own headings step down a level.
  for (const heading of template.content.querySelectorAll("h2")) {
    const smaller = h("h3", {});
    smaller.append(...heading.childNodes);
    heading.replaceWith(smaller);
  }
  return template.content;
}

function ensureStyle() {
  if (document.querySelector('link[href="/static/css/rules.css"]')) return;
  document.head.append(h("link", {rel: "stylesheet", href: "/static/css/rules.css"}));
}

let panels = 0;

/**
 * The "?" button and its panel for a table of `game`. `observation()` and `seat()` give the
 * table's current observation (or null) and the viewer's seat (null for a spectator). Call
 * `update()` whenever the table draws a new view; the panel redraws only when its content
 * would change, and only while it is open.
 */
export function createRuleHelp({game, observation, seat}) {
  ensureStyle();
  panels += 1;
  const id = `rule-help-${panels}`;
  const button = h("button", {type: "button", class: "rule-help-button", "aria-expanded": "false",
    "aria-controls": id, title: "The rules for this moment", "aria-label": "Rules for this moment"},
  "?");
  const body = h("div", {class: "rule-help-body"});
  const close = h("button", {type: "button", class: "rule-help-close", "aria-label": "Close the rules"},
    "×");
  const panel = h("aside", {id, class: "rule-help-panel", hidden: true, "aria-label": "Rules for this moment"},
    h("header", {class: "rule-help-head"}, h("h2", {}, "Rules for this moment"), close), body);
  let shown = null;

  function draw(guide) {
    const obs = observation();
    const mine = seat();
    const found = momentsFor(guide, obs, mine);
    const key = JSON.stringify([obs?.phase ?? null, [...(obs ? rolesOf(guide, obs, mine) : [])].sort()]);
    if (key === shown) return;
    shown = key;
    clear(body);
    panel.dataset.phase = obs?.phase ?? "";
    if (!found.length) {
      body.append(h("p", {class: "rule-help-say"}, `The essentials of ${guide.title}:`),
        h("ol", {class: "rule-help-minute"}, guide.minute.map((line) => {
          const item = h("li", {});
          item.append(fragment(line));
          return item;
        })));
    }
    for (const {section, moment} of found) {
      const say = h("p", {class: "rule-help-say"});
      say.append(fragment(moment.say));
      body.append(h("section", {class: "rule-help-section", "data-section": section.id},
        say, fragment(section.html)));
    }
    const anchor = found.length ? `#${found[0].section.id}` : "";
    body.append(h("p", {class: "rule-help-more"},
      h("a", {href: `/rules/${encodeURIComponent(game)}${anchor}`, target: "_blank",
        rel: "noopener"}, `All the rules of ${guide.title}`),
      // New players learn faster by playing: the guided game opens beside the table.
      guide.lesson && " · ",
      guide.lesson && h("a", {href: guide.lesson, target: "_blank", rel: "noopener",
        class: "rule-help-learn"}, "Learn it in a guided game")));
  }

  async function update() {
    if (panel.hidden) return;
    try {
      draw(await fetchGuide(game));
    } catch (error) {
      shown = null;
      clear(body);
      body.append(h("p", {class: "rule-help-say"}, "The rules could not be loaded. "),
        h("a", {href: `/rules/${encodeURIComponent(game)}`, target: "_blank", rel: "noopener"},
          "Open the rules page"));
    }
  }

  function toggle(open) {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) update();
    else button.focus();
  }

  button.addEventListener("click", () => toggle(panel.hidden));
  close.addEventListener("click", () => toggle(false));
  const escape = (event) => {
    if (event.key === "Escape" && !panel.hidden) toggle(false);
  };
  panel.addEventListener("keydown", escape);
  button.addEventListener("keydown", escape);
  // Fetched early so that the first click answers at once.
  fetchGuide(game).catch(() => {});
  return {button, panel, update};
}
