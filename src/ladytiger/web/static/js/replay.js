// The replay viewer: /replay/{id} steps through a finished table's record, as any seat saw it
// or as a spectator did; /replay opens a record file (saved by `ladytiger play` or downloaded
// from a table) the same way. Views come from the server's replay endpoints.
import {api, tokens} from "./api.js";
import {capitalise, clear, h, svg} from "./dom.js";
import {drawView, loadView, makeContext, renderPlayers, seatNamer, tableNames} from "./frame.js";
import {startIdentity} from "./identity.js";

/** A seat by the name it had at the table ("Ana", "Random bot"), else "Seat N". */
function seatName(seat) {
  return seatNamer(null, tableNames(R.table?.seats))(seat);
}

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);

const R = {
  table: null,
  record: null,
  steps: [],
  step: 0,
  viewer: null,
  everyStep: false,
  views: new Map(),
  entry: null,
  playing: null,
  drawn: null,
  // History entries the drawn view's viewer still did not know at its step (`hidden` of the
  // server's view), and the step and viewer that answer was for.
  hidden: new Map(),
  hiddenFor: null,
};

function players() {
  return R.record?.options?.players ?? R.table?.seats?.length ?? 1;
}

/** Positions worth stopping at: the start, each state where a player is to move, the end. */
function stops() {
  const n = R.steps.length;
  if (R.everyStep) return Array.from({length: n + 1}, (_, i) => i);
  const out = [0];
  for (let p = 1; p < n; p += 1) if (R.steps[p].actor >= 0) out.push(p);
  out.push(n);
  return [...new Set(out)];
}

function neighbour(direction) {
  const all = stops();
  if (direction > 0) return all.find((p) => p > R.step) ?? R.step;
  return [...all].reverse().find((p) => p < R.step) ?? R.step;
}

async function viewAt(step, viewer) {
  const key = `${viewer ?? "s"}|${step}`;
  if (!R.views.has(key)) {
    const asked = tableId ? api.replayStep(tableId, step, viewer)
      : api.replayRecordStep(R.record, step, viewer);
    R.views.set(key, asked.catch((error) => {
      R.views.delete(key);
      throw error;
    }));
  }
  return R.views.get(key);
}

async function go(step) {
  R.step = Math.max(0, Math.min(R.steps.length, step));
  const wanted = {step: R.step, viewer: R.viewer};
  renderControls();
  renderSteps();
  let answer;
  try {
    answer = await viewAt(wanted.step, wanted.viewer);
  } catch (error) {
    say(error.message);
    return;
  }
  if (wanted.step !== R.step || wanted.viewer !== R.viewer) return;
  R.drawn = answer;
  R.hidden = new Map((answer.hidden || []).map((step) => [step.index, step.seen]));
  R.hiddenFor = `${R.viewer}|${R.step}`;
  renderBoard(answer);
  // Only the words of the step line: the slider may be held in the middle of a drag.
  const now = document.querySelector(".replay-now");
  const words = nowWords(R.step > 0 ? R.steps[R.step - 1] : null);
  if (now) clear(now).append(...(Array.isArray(words) ? words : [words]));
  renderSteps();
  const url = new URL(location.href);
  if (tableId) url.searchParams.set("step", String(R.step));
  if (R.viewer === null || !tableId) url.searchParams.delete("viewer");
  else url.searchParams.set("viewer", String(R.viewer));
  history.replaceState(null, "", url);
  document.body.dataset.step = String(R.step);
  document.body.dataset.ready = "1";
  const next = neighbour(1);
  if (next !== R.step) viewAt(next, R.viewer).catch(() => {});
}

function say(text) {
  const line = $("statusline");
  line.textContent = text;
  line.className = "statusline error";
  line.hidden = !text;
}

function readOnlyBind(element, text) {
  element.dataset.move = text;
  element.classList.add("disabled");
  element.setAttribute("aria-disabled", "true");
  element.title = `${capitalise(text)}: this is a replay`;
  return element;
}

function renderBoard(answer) {
  const observation = answer.observation;
  const log = observation.log || [];
  const ctx = makeContext({seat: R.viewer, bind: readOnlyBind,
    lastMove: log.length ? log[log.length - 1] : null, extra: {replay: true}});
  // A replay is watched, not played: nobody at the table is "you".
  ctx.seatName = seatName;
  const view = {type: "view", table: tableId, version: R.step, status: "finished",
    seat: R.viewer, current_player: observation.current_player, your_turn: false,
    deadline: null, observation, legal_actions: []};
  drawView($("game-root"), R.entry, view, ctx);
  $("game-root").classList.add("game-root");
  renderPlayers($("players"), {seats: R.table?.seats || R.record?.seats, observation,
    mySeat: null, viewer: R.viewer, presence: null,
    winners: observation.terminal ? winners(observation.returns) : null});
}

function winners(returns) {
  if (!returns) return [];
  const best = Math.max(...returns);
  return best > 0 ? returns.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0) : [];
}

const ICONS = {
  first: '<path d="M6 5v14M19 5l-9 7 9 7z" fill="currentColor" stroke="currentColor" stroke-width="2"/>',
  last: '<path d="M18 5v14M5 5l9 7-9 7z" fill="currentColor" stroke="currentColor" stroke-width="2"/>',
};

function control(label, content, onclick, disabled, key) {
  return h("button", {type: "button", class: "small", "aria-label": label, title: `${label} (${key})`,
    disabled, onclick}, content);
}

/**
 * What the viewer chosen saw of a history entry, in the words of their log, when its outcome
 * is hidden from them at the step shown (a card put out face down, another seat's deal);
 * null when they know it. Steps still to come are told so if they stay hidden to the end.
 */
function hiddenWords(entry) {
  let seen;
  if (entry.index < R.step && R.hiddenFor === `${R.viewer}|${R.step}`) {
    // The server's view of this step says what is still hidden then, a Door until its
    // contest shows it included.
    seen = R.hidden.get(entry.index);
  } else seen = entry.seen?.[R.viewer === null ? 0 : R.viewer + 1];
  if (seen === null || seen === undefined) return null;
  return seen.replace(/\bSeat (\d+)\b/g, (_, seat) => seatName(Number(seat))).replace(/\.$/, "");
}

/** An entry as the list and the step line show it: who, then what. */
function entryWords(entry) {
  const hidden = hiddenWords(entry);
  if (hidden !== null) return [h("span", {class: "step-hidden"}, hidden)];
  return [h("b", {}, entry.actor >= 0 ? seatName(entry.actor) : "Chance"), `: ${entry.text}`];
}

/** What the position at `step` follows: the last move, and any deals after it. */
function describeStep(step) {
  let move = step - 1;
  while (move >= 0 && R.steps[move].actor < 0) move -= 1;
  const deals = step - 1 - move;
  const after = deals ? ` (then ${deals} chance step${deals === 1 ? "" : "s"})` : "";
  if (step === 0) return "The start: nothing has happened yet.";
  if (move < 0) return [h("b", {}, "The deal"), `: ${deals} chance step${deals === 1 ? "" : "s"}`];
  return [...entryWords(R.steps[move]), h("span", {class: "muted"}, after)];
}

function nowWords(current) {
  return R.everyStep && current ? entryWords(current) : describeStep(R.step);
}

function renderControls() {
  const bar = clear($("replay-controls"));
  const n = R.steps.length;
  const current = R.step > 0 ? R.steps[R.step - 1] : null;
  const slider = h("input", {type: "range", class: "slider", min: 0, max: n, value: R.step,
    "aria-label": "Step"});
  slider.addEventListener("input", () => go(Number(slider.value)));
  const viewer = h("select", {id: "viewer", "aria-label": "Whose view"},
    h("option", {value: "", selected: R.viewer === null}, "Everyone's view (public)"),
    Array.from({length: players()}, (_, seat) =>
      h("option", {value: String(seat), selected: R.viewer === seat}, `${seatName(seat)}'s view`)));
  viewer.addEventListener("change", () => {
    R.viewer = viewer.value === "" ? null : Number(viewer.value);
    go(R.step);
  });
  const every = h("input", {type: "checkbox", id: "every-step", checked: R.everyStep});
  every.addEventListener("change", () => {
    R.everyStep = every.checked;
    renderControls();
    renderSteps();
  });
  const playButton = h("button", {type: "button", class: "small primary", id: "autoplay"},
    R.playing ? "Pause" : "Play");
  playButton.addEventListener("click", toggleAutoplay);
  const what = nowWords(current);
  bar.append(
    h("div", {class: "row replay-controls"},
      control("First step", svg("0 0 24 24", ICONS.first, {class: "icon"}), () => go(0),
        R.step === 0, "Home"),
      control("Back", "◀ Back", () => go(neighbour(-1)), R.step === 0, "←"),
      control("Forward", "Forward ▶", () => go(neighbour(1)), R.step === n, "→"),
      control("Last step", svg("0 0 24 24", ICONS.last, {class: "icon"}), () => go(n),
        R.step === n, "End"),
      playButton,
      slider,
      h("span", {class: "step-count", "aria-live": "polite"}, `step ${R.step} of ${n}`)),
    h("div", {class: "row"},
      h("span", {class: "replay-now"}, what),
      h("span", {class: "spacer", style: {flex: "1"}}),
      viewer,
      h("label", {class: "check", for: "every-step"}, every, "Every deal")));
}

function renderSteps() {
  const list = $("steps");
  if (list.childElementCount !== R.steps.length + 1) {
    clear(list);
    list.append(h("li", {"data-step": 0}, h("button", {type: "button", onclick: () => go(0)},
      h("span", {class: "index"}, "0"), "The start")));
    for (const entry of R.steps) {
      list.append(h("li", {"data-step": entry.index + 1,
        class: entry.actor >= 0 ? "step-player" : "step-chance"},
        h("button", {type: "button", onclick: () => go(entry.index + 1)})));
    }
  }
  // Each entry as the chosen viewer knows it at this step: drawn again only where that changed.
  for (const entry of R.steps) {
    const hidden = hiddenWords(entry);
    const item = list.children[entry.index + 1];
    const key = hidden === null ? "full" : hidden;
    if (item.dataset.words === key) continue;
    item.dataset.words = key;
    const who = entry.actor >= 0 ? `${seatName(entry.actor)}: ` : "";
    clear(item.firstChild).append(h("span", {class: "index"}, entry.index + 1),
      ...(hidden === null ? [who, entry.text] : [h("span", {class: "step-hidden"}, hidden)]));
  }
  // The current entry: the last one shown that is already played at this step.
  let current = null;
  for (const item of list.children) {
    item.hidden = !R.everyStep && item.classList.contains("step-chance");
    item.removeAttribute("aria-current");
    if (!item.hidden && Number(item.dataset.step) <= R.step) current = item;
  }
  if (current) current.setAttribute("aria-current", "step");
  if (current) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

function toggleAutoplay() {
  if (R.playing) {
    clearInterval(R.playing);
    R.playing = null;
  } else {
    if (R.step >= R.steps.length) go(0);
    R.playing = setInterval(() => {
      if (R.step >= R.steps.length) {
        toggleAutoplay();
        return;
      }
      go(neighbour(1));
    }, 900);
  }
  renderControls();
}

function onKey(event) {
  if (event.target.matches("input, select, textarea")) return;
  const keys = {ArrowLeft: () => neighbour(-1), ArrowRight: () => neighbour(1), Home: () => 0,
    End: () => R.steps.length};
  if (!keys[event.key]) return;
  event.preventDefault();
  go(keys[event.key]());
}

/** /replay: the viewer for a record file the player picks (it never leaves this page but
 * for the server, which replays it through the rules and answers with the views). */
function startFromFile() {
  $("game-title").textContent = "Open a saved game";
  $("table-meta").textContent = "a record file";
  const input = h("input", {type: "file", id: "record-file", accept: ".json,application/json"});
  const problem = h("p", {class: "record-problem", id: "record-problem", role: "alert"});
  input.addEventListener("change", async () => {
    problem.textContent = "";
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      await openRecord(await file.text());
    } catch (error) {
      problem.textContent = `${file.name}: ${error.message}`;
    }
  });
  clear($("replay-controls")).append(
    h("h2", {}, "Open a saved game"),
    h("p", {}, "Pick a record file: one saved by ", h("code", {}, "ladytiger play --save"),
      " or downloaded from a finished table. The server replays it through the rules, so a "
      + "damaged record is named, entry by entry."),
    h("label", {class: "file-pick", for: "record-file"}, "Record file ", input),
    problem);
  document.body.dataset.ready = "file";
}

async function openRecord(text) {
  let record;
  try {
    record = JSON.parse(text);
  } catch (error) {
    throw new Error(`this file is not a JSON record (${error.message})`);
  }
  const replay = await api.replayRecord(record);
  const games = await api.games();
  const info = (games.games || games).find((g) => g.name === record.game);
  R.record = record;
  R.steps = replay.steps;
  R.views.clear();
  R.viewer = null;
  const title = info ? info.title : record.game;
  $("game-title").textContent = `${title} replay`;
  document.title = `${title} replay · ladytiger`;
  $("table-meta").textContent = "from a record file";
  $("rules-link").href = `/rules/${record.game}`;
  R.entry = await loadView(record.game);
  if (!R.listening) document.addEventListener("keydown", onKey);
  R.listening = true;
  renderSteps();
  await go(0);
}

async function start() {
  const ready = startIdentity();
  if (!tableId) {
    startFromFile();
    return;
  }
  let info;
  try {
    info = await api.table(tableId);
    R.table = info.table;
  } catch (error) {
    $("main").classList.add("table-missing");
    if (error.status === 404) {
      showProblem("There is no such table.",
        "The link may be mistyped, or the table was never made.");
    } else {
      showProblem("The server cannot be reached.", error.message);
    }
    return;
  }
  $("game-title").textContent = `${R.table.title} replay`;
  document.title = `${R.table.title} replay · ladytiger`;
  $("table-meta").textContent = `table ${tableId}`;
  $("rules-link").href = `/rules/${R.table.game}`;
  try {
    const replay = await api.replay(tableId);
    R.record = replay.record;
    R.steps = replay.steps;
  } catch (error) {
    if (error.code === "not_finished") {
      showProblem("This game is still being played.",
        "A replay opens once the game is over. You can watch it live meanwhile.",
        h("a", {class: "button primary", href: `/play/${tableId}`}, "Watch it live"));
    } else showProblem("The replay cannot be loaded.", error.message);
    return;
  }
  R.entry = await loadView(R.table.game);
  const params = new URLSearchParams(location.search);
  const held = Object.keys(tokens.of(tableId)).map(Number);
  if (params.has("viewer")) {
    const wanted = params.get("viewer");
    R.viewer = /^\d+$/.test(wanted) && Number(wanted) < players() ? Number(wanted) : null;
  } else if (held.length === 1) R.viewer = held[0];
  else {
    // A player sees the game from their own seat first.
    const me = (await ready)?.id;
    const mine = (R.table.seats || []).findIndex((seat) => me && seat.player?.id === me);
    if (mine >= 0) R.viewer = mine;
  }
  const step = params.has("step") ? Number(params.get("step")) : 0;
  document.addEventListener("keydown", onKey);
  renderSteps();
  go(Number.isFinite(step) ? step : 0);
}

function showProblem(title, detail, action = null) {
  clear($("replay-controls")).append(h("h2", {}, title), h("p", {}, detail),
    h("div", {class: "actions"}, action, h("a", {class: "button", href: "/"}, "All games")));
  document.body.dataset.ready = "error";
}

start();
