// The guided first game, /learn/{game}: a scripted deal against a bot, played on the game's
// own board, with a coach who says what to do and why. Every position comes from the server
// (/api/lessons/{game}), where the engine replays the script: this page holds no rule. Only
// the move the lesson expects can be played; any other control says so beside the coach.
import {capitalise, clear, h, normalise} from "./dom.js";
import {
  drawView, lastMovesBySeat, loadView, makeBinder, makeContext, renderLog, renderPlayers,
} from "./frame.js";
import {createMotion} from "./motion.js";
import {shownFor} from "./speed.js";

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);
// The bot is named for what it is; the learner is "You" everywhere.
const NAMES = ["You", "Bot"];
const BOT_MS = 1100; // how long a position without words stays before the bot moves on

const L = {lesson: null, entry: null, at: 0, timer: null, motion: null};

function frame() {
  return L.lesson.frames[L.at];
}

function names(seat) {
  const seats = L.lesson.frames[0].view.observation.scores.length;
  // With two bots or more the coach tells them apart: Bot 1, Bot 2, in seat order.
  const bots = [];
  for (let i = 0; i < seats; i += 1) if (i !== L.lesson.seat) bots.push(i);
  const list = [...Array(seats).keys()].map((i) => {
    if (i === L.lesson.seat) return NAMES[0];
    return bots.length > 1 ? `${NAMES[1]} ${bots.indexOf(i) + 1}` : NAMES[1];
  });
  return list[seat] ?? `Seat ${seat}`;
}

function seatNames() {
  return L.lesson.frames[0].view.observation.scores.map((_, i) => names(i));
}

function show(index) {
  clearTimeout(L.timer);
  L.at = index;
  const current = frame();
  const {view} = current;
  const seat = L.lesson.seat;
  const expect = current.expect;
  document.body.dataset.frame = String(index);
  document.body.dataset.turn = view.status === "finished" ? "over" : (expect ? "you" : "other");
  hint(null);

  // Only the expected move can be played: the board's other controls explain that.
  const action = expect ? view.legal_actions.find((a) => normalise(a.text) === normalise(expect))
    : null;
  const moves = new Map(action ? [[normalise(action.text), action]] : []);
  const bind = makeBinder({
    moves,
    play: () => advance(),
    explain: (text, element, purpose) => {
      if (purpose === "look") {
        element.title = expect ? `Not in this lesson: ${expect} is the move to make now`
          : "Watch the bot's move";
        return;
      }
      hint(expect ? `Not this time: in this lesson, ${expect}. It is marked on the board.`
        : "Wait for the bot's move, or press Continue.");
    },
    reasonOf: () => (expect ? `in this lesson, ${expect}` : "the bot is to move"),
  });
  const log = view.observation.log || [];
  const ctx = makeContext({seat, bind, lastMove: log.length ? log[log.length - 1] : null,
    names: seatNames(), extra: {suggested: expect}});
  L.motion.capture();
  drawView($("game-root"), L.entry, {...view, type: "view", table: "lesson"}, ctx);
  $("game-root").classList.add("game-root");
  // The frame before said whose move led here: the learner's (marks put away) or the bot's.
  const before = index > 0 ? L.lesson.frames[index - 1] : null;
  L.motion.play({reset: Boolean(before?.expect), byOther: Boolean(before && !before.expect),
    animate: Boolean(before)});
  if (action) {
    const target = [...$("game-root").querySelectorAll("[data-move]")]
      .find((e) => normalise(e.dataset.move) === normalise(action.text)
        && e.getClientRects().length > 0);
    if (target) {
      target.classList.add("lesson-target");
      // The move to make must be in sight, and not under the coach that stays on top.
      const box = target.getBoundingClientRect();
      const coachBottom = $("coach").getBoundingClientRect().bottom;
      if (box.top < coachBottom || box.bottom > window.innerHeight) {
        target.scrollIntoView({block: "center", behavior: "instant"});
      }
    }
  } else if (index === L.lesson.frames.length - 1) {
    window.scrollTo({top: 0, behavior: "instant"});
  }
  const seats = view.observation.scores.map((_, i) => (i === seat ? {kind: "human", name: "You"}
    : {kind: "bot", bot: "lesson", name: names(i)}));
  renderPlayers($("players"), {seats, observation: view.observation, mySeat: seat,
    presence: null, winners: view.observation.terminal ? winners(view.observation.returns) : null,
    lastMoves: lastMovesBySeat(log, seat)});
  renderLog($("log"), log, seat, seatNames());
  coach(current, index);
}

// What the first real game is played against: a solo game has nobody.
function opponents() {
  const others = L.lesson.frames[0].view.observation.scores.length - 1;
  if (others === 0) return "for real";
  return others === 1 ? "against a beginner bot" : "against beginner bots";
}

function winners(returns) {
  if (!returns) return [];
  const best = Math.max(...returns);
  return returns.map((r, i) => (r === best && best > 0 ? i : -1)).filter((i) => i >= 0);
}

function coach(current, index) {
  const total = L.lesson.frames.length;
  $("coach-progress").textContent = `step ${index + 1} of ${total}`;
  const pill = $("turn");
  const actions = clear($("coach-actions"));
  const last = index === total - 1;
  const words = current.say || (current.expect ? "" : "The bot is thinking…");
  $("coach-say").textContent = words;
  $("coach").dataset.expect = current.expect || "";
  if (current.expect) {
    pill.className = "pill turn-you";
    pill.textContent = "Your turn";
    $("coach-say").append(" ", h("b", {class: "coach-do"},
      `Your move: ${capitalise(current.expect)}.`));
  } else if (last) {
    pill.className = "pill over";
    pill.textContent = "Lesson complete";
    actions.append(
      h("a", {class: "button primary", id: "lesson-play",
        href: `/?game=${encodeURIComponent(game)}&bots=beginner#create`},
      `Play ${L.lesson.game_title} ${opponents()}`),
      h("a", {class: "button", href: `/rules/${encodeURIComponent(game)}`}, "Read the rules"),
      h("button", {type: "button", class: "quiet", onclick: () => show(0)}, "Start again"));
  } else {
    pill.className = "pill turn-other";
    pill.textContent = "Bot is thinking…";
    const next = h("button", {type: "button", class: "primary", id: "lesson-next"}, "Continue");
    next.addEventListener("click", () => advance());
    actions.append(next);
    // A position with something to read waits for the learner; the bot's plain moves go on
    // by themselves at a human pace.
    if (!current.say) L.timer = setTimeout(advance, shownFor(BOT_MS));
  }
}

function advance() {
  if (L.at + 1 < L.lesson.frames.length) show(L.at + 1);
}

function hint(text) {
  const line = $("coach-hint");
  line.hidden = !text;
  line.textContent = text || "";
}

// A name with no guided game (a mistyped one, or a game added before its lesson) gets a short
// signpost: what to do instead (read the game's rules, play it, or take a guided game), with
// the empty board, players and log put away rather than left blank.
async function noLesson() {
  let info = null;
  let guided = [];
  try {
    const listed = await (await fetch("/api/games")).json();
    info = listed.games.find((entry) => entry.name === game) || null;
    guided = listed.games.filter((entry) => entry.lesson);
  } catch (error) {
    info = null;
  }
  if (!guided.length) guided = [{title: "Doors", lesson: "/learn/doors"}];
  const titles = guided.map((entry) => entry.title);
  const named = titles.length > 1
    ? `${titles.slice(0, -1).join(", ")} and ${titles[titles.length - 1]}` : titles[0];
  const haveOne = `${named} ${titles.length > 1 ? "have guided games" : "has a guided game"}.`;
  const title = info ? info.title : "";
  $("game-title").textContent = game ? "No guided game here" : "Learn a game";
  $("table-meta").textContent = title ? `for ${title}, yet` : "";
  $("turn").hidden = true;
  document.querySelector(".players-panel").hidden = true;
  document.querySelector(".log-panel").hidden = true;
  $("rules-link").href = info ? `/rules/${encodeURIComponent(info.name)}` : "/rules";
  $("coach-say").textContent = info
    ? `${title} has no guided game yet. Read its rules, or play it against a beginner bot: `
      + `the table explains every move you cannot make. ${haveOne}`
    : game ? `There is no game called “${game}”. ${haveOne}`
      : "Pick a game: you play a short game against a bot, and every step is explained as "
        + "you go.";
  const actions = $("coach-actions");
  if (info) {
    actions.append(
      h("a", {class: "button", href: `/rules/${encodeURIComponent(info.name)}`},
        `Rules of ${title}`),
      h("a", {class: "button", href: `/?game=${encodeURIComponent(info.name)}#create`},
        `Play ${title}`),
    );
  }
  guided.forEach((entry, index) => actions.append(
    h("a", {class: `button${index === 0 ? " primary" : ""}`, href: entry.lesson},
      `Learn ${entry.title}`)));
  document.title = game ? "No guided game · ladytiger" : "Learn a game · ladytiger";
  document.body.dataset.turn = "error";
}

async function start() {
  L.motion = createMotion($("game-root"));
  if (!game) {
    await noLesson();
    return;
  }
  let answer;
  try {
    answer = await fetch(`/api/lessons/${encodeURIComponent(game)}`);
  } catch (error) {
    $("coach-say").textContent = "The server cannot be reached.";
    return;
  }
  if (!answer.ok) {
    await noLesson();
    return;
  }
  L.lesson = await answer.json();
  $("game-title").textContent = L.lesson.title;
  const others = L.lesson.frames[0].view.observation.scores.length - 1;
  $("table-meta").textContent = others === 0 ? "a guided solo game"
    : `a guided game against ${others === 1 ? "a bot" : `${others} bots`}`;
  document.title = `${L.lesson.title} · ladytiger`;
  $("rules-link").href = `/rules/${encodeURIComponent(game)}`;
  L.entry = await loadView(game);
  show(0);
}

start();
