// The table page /play/{id}: the waiting room, the game as this seat sees it, and the end.
// The seat token rides in the URL fragment (#seat=TOKEN), which browsers never send to the
// server. The page also says hello as this browser's player: a player who holds a seat here
// is put in it without any token, and an invite link opened by a player makes the seat
// theirs. Without either the page watches as a spectator. Everything shown comes from the
// server's messages for this connection (docs/protocol.md).
import {api, identity, inviteLink, spectateLink, tokens} from "./api.js";
import {revealArrived, setTurnSignal, soundToggle, turnArrived} from "./attention.js";
import {STRENGTHS, botLabel} from "./bots.js";
import {card} from "./cards.js";
import {createChat} from "./chat.js";
import {createConfirm} from "./confirm.js";
import {createHint} from "./hint.js";
import {
  capitalise, clear, clockWords, copyControl, h, normalise, plural, ratingDelta, ratingWords,
  seatNumber,
} from "./dom.js";
import {
  drawView, lastMovesBySeat, lastSeatMove, loadView, makeBinder, makeContext, namedText, renderLog,
  namedThirdPerson, renderPlayers, seatNamer, tableNames,
} from "./frame.js";
import {refresh as refreshIdentity, startIdentity} from "./identity.js";
import {createMoments} from "./moments.js";
import {createMotion} from "./motion.js";
import {createRuleHelp} from "./rulehelp.js";
import {shownFor, speedControl} from "./speed.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);

const S = {
  token: null,
  seat: null,
  table: null, // the table as GET /api/tables/{id} shows it (from welcome)
  seatRatings: null, // each seat's rating on this game ({rating, games} or null)
  ratedPlayers: null, // who held the seats when seatRatings was read
  presence: null,
  view: null,
  end: null,
  socket: null,
  connected: false,
  retry: 0,
  fatal: null,
  pending: false,
  refs: 0,
  why: new Map(), // "version|text" -> reason
  asking: new Map(), // ref -> {key, element}
  rematch: null,
  wantRematch: false,
  finalViews: null,
  revealSeat: null,
  entry: null,
  statusTimer: null,
  clockTimer: null,
  chat: null, // the chat panel's controls
  sentPlayer: false, // whether the last hello said who the player is
  wasMine: null,
  spectators: null,
  moments: null, // the moment panel (moments.js)
  ruleHelp: null, // the "?" button and its panel of the rules of the moment (rulehelp.js)
  hint: null, // the Hint button and its suggestion (hint.js)
  changedAt: 0, // when the position last changed (performance.now())
  refusal: null, // the "Not now" bubble beside a control: {bubble, element, timer}
  motion: null, // the game view's motion (motion.js)
  drawnVersion: null, // the version the game view was last drawn at
  movesOpen: false, // whether the player unfolded the list of moves
  presenceAt: 0, // when the seats' presence was last read (Date.now())
  standInTimer: null, // redraws the stand-in offer when its wait is over
};

/** The table's names by seat (players', bots'), or null while no seat has one. */
function names() {
  return tableNames(S.presence || S.table?.seats);
}

/** "You", "Ana", "Random bot", or "Seat 2": how this page names a seat. */
function nameOf(seat) {
  return seatNamer(S.seat, names())(seat);
}

/** The engine's words with the seats it names shown by name (as text). */
function named(text) {
  const parts = namedText(text, S.seat, names());
  return parts.map((part) => (typeof part === "string" ? part : part.textContent)).join("");
}

function readToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("seat");
  return token && token.trim() ? token.trim() : null;
}

// ------------------------------------------------------------------ status line
function say(text, kind = "info", sticky = false) {
  const line = $("statusline");
  clearTimeout(S.statusTimer);
  S.statusKind = text ? kind : null;
  if (!text) {
    line.hidden = true;
    return;
  }
  // The server's and the engine's words say "seat 1"; the page says who that is.
  line.textContent = named(text);
  line.className = `statusline ${kind}`;
  line.hidden = false;
  if (!sticky) S.statusTimer = setTimeout(() => { line.hidden = true; }, shownFor(7000));
}

// ------------------------------------------------------------------ the socket
function send(message) {
  if (S.socket && S.socket.readyState === WebSocket.OPEN) {
    S.socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

function connect() {
  if (S.socket) {
    S.socket.onclose = null;
    S.socket.close();
  }
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/api/tables/${encodeURIComponent(tableId)}/ws`);
  S.socket = socket;
  setConnection("connecting");
  socket.onopen = () => {
    const hello = {type: "hello"};
    if (S.token) hello.token = S.token;
    const secret = identity.secret();
    if (secret) hello.player = secret;
    S.sentPlayer = Boolean(secret);
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    receive(message);
  };
  socket.onclose = (event) => {
    S.connected = false;
    S.pending = false;
    if (event.code === 4401) {
      if (!S.token && S.sentPlayer) {
        // No seat token was sent, so the refusal is of the player: this server no longer
        // knows them. Come back as a spectator rather than not at all.
        identity.clear();
        refreshIdentity();
        connect();
        return;
      }
      fatal("This link does not hold a seat at this table.",
        "The seat token in the link is not valid here. You can still watch the game.", true);
      return;
    }
    if (event.code === 4404) {
      fatal("There is no such table.", "The table may have been removed, or the link is mistyped.");
      return;
    }
    setConnection("off");
    const wait = Math.min(5000, 500 * 2 ** S.retry);
    S.retry += 1;
    say(`Connection lost; trying again in ${Math.round(wait / 100) / 10} s…`, "warn", true);
    setTimeout(() => {
      if (!S.fatal) connect();
    }, wait);
  };
}

function setConnection(state) {
  const element = $("connection");
  element.querySelector(".dot").className = `dot ${state === "on" ? "on" : state === "off" ? "off" : ""}`;
  const words = {on: "connected", off: "disconnected", connecting: "connecting"}[state];
  element.title = capitalise(words);
  $("connection-text").textContent = words;
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      S.connected = true;
      S.retry = 0;
      S.seat = message.seat;
      S.table = message.table;
      S.presence = message.table.seats;
      S.presenceAt = Date.now();
      S.spectators = message.table.spectators ?? null;
      if (message.table.rematch) S.rematch = message.table.rematch;
      setConnection("on");
      say(null);
      if (S.token && S.seat !== null) tokens.remember(tableId, {[S.seat]: S.token});
      S.chat.enable(message.table.chat !== false);
      S.chat.reset(message.chat || []);
      render();
      break;
    case "view": {
      const before = S.view?.observation ?? null;
      const first = !S.view;
      // Everyone is here: whoever waited is told, with the chime if it is not their turn
      // (their own turn chimes anyway).
      const began = S.view?.status === "waiting" && message.status === "playing";
      if (!S.view || S.view.version !== message.version) {
        S.changedAt = performance.now();
        // A refusal explained the position before this one: it may no longer hold.
        hideRefusal();
      }
      S.view = message;
      S.pending = false;
      S.confirm?.seen(message.version, message.your_turn && message.status === "playing");
      if (S.table) S.table.status = message.status;
      render();
      S.moments.offer(message, before, {first});
      // Only where someone else was awaited: at a table of bots the game simply starts.
      const awaited = (S.presence || S.table?.seats || []).some((seat) =>
        seat.kind === "human" && seat.seat !== S.seat);
      if (began && S.seat !== null && awaited) {
        if (!message.your_turn) turnArrived();
        say(message.your_turn ? "Everyone is here: the game has begun, and you start."
          : `Everyone is here: the game has begun. ${nameOf(message.current_player)} starts.`);
      }
      break;
    }
    case "presence": {
      const before = JSON.stringify(names());
      S.presence = message.seats;
      refreshSeatRatings(message.seats);
      S.presenceAt = Date.now();
      S.spectators = message.spectators ?? S.spectators;
      if (S.table) S.table.seats = message.seats;
      if (JSON.stringify(names()) !== before) {
        // A name arrived or changed: everything that names seats is drawn again.
        render();
        break;
      }
      renderPlayersPanel();
      renderStandIn();
      if (S.view && S.view.status === "waiting") {
        // The waiting room is drawn afresh: a button the player had reached with the
        // keyboard (a copy, "Close the table") keeps the focus.
        const focused = document.activeElement?.id;
        renderBanner();
        if (focused && document.activeElement?.id !== focused) $(focused)?.focus();
      }
      break;
    }
    case "chat":
      S.chat.add(message);
      break;
    case "end":
      S.end = message;
      render();
      loadFinalViews();
      break;
    case "ack":
      break;
    case "unseated":
      // The seat was given back, from this page or another tab: watch from now on. The
      // token holds nothing any more, so the address and this browser forget it.
      tokens.forget(tableId, message.seat);
      history.replaceState(null, "", location.pathname + location.search);
      S.token = null;
      S.seat = null;
      say("You gave your seat back: you are watching now. Take an open seat to play.",
        "info", true);
      break;
    case "rated":
      // The game's ratings are saved: what it did to each seat's rating shows at its end,
      // and each name's rating is the new one.
      S.table = {...(S.table || {}), ratings: message.ratings};
      S.seatRatings = (S.seatRatings || []).slice();
      for (const change of message.ratings) {
        S.seatRatings[change.seat] = {rating: change.after, games: change.games};
      }
      renderBanner();
      renderPlayersPanel();
      break;
    case "timeout": {
      // The clock's bot moves next for that seat: say so, or the move seems to come from
      // nowhere (the view with it follows this message).
      const bot = clockBotLabel();
      say(message.seat === S.seat
        ? `Your time ran out: a ${bot} made this move for you.`
        : `${nameOf(message.seat)} ran out of time: a ${bot} made this move for them.`,
      "warn");
      break;
    }
    case "why":
      answerWhy(message);
      break;
    case "hint":
      S.hint.receive(message);
      break;
    case "error":
      if (message.ref !== undefined && S.hint.owns(message.ref)) {
        S.hint.receive(message);
        break;
      }
      if (message.ref !== undefined && S.chat.owns(message.ref)) {
        S.chat.refused(message);
        break;
      }
      S.pending = false;
      document.body.dataset.pending = "0";
      if (message.ref === "fill") S.wantRematch = false;
      if (message.ref === "close" || message.ref === "resign" || message.ref === "leave"
        || message.ref === "fill") {
        // Refused (the game began meanwhile, or had ended): ask afresh, with the words why.
        S.closeAsked = false;
        S.resignAsked = false;
        $("resign").dataset.key = "";
        renderBanner();
        renderResign();
      }
      if (message.code === "stale_version") {
        say("The table moved on before your move arrived; nothing was played. Look again.", "warn");
      } else {
        say(message.message || "The server refused that.", "error");
      }
      break;
    case "rematch":
      S.rematch = message.rematch;
      tokens.carry(tableId, S.rematch);
      // A table still waiting has a rematch only when its maker started it with bots: the
      // game is there now, so everyone here goes along.
      if (S.wantRematch || S.view?.status === "waiting") goToRematch();
      else renderBanner();
      break;
    default:
      break;
  }
}

function fatal(title, detail, offerWatch = false) {
  S.fatal = {title, detail};
  setConnection("off");
  document.body.dataset.turn = "error";
  $("turn").textContent = "Not connected";
  const banner = clear($("banner"));
  banner.append(h("section", {class: "panel notice error-notice", role: "alert"},
    h("h2", {}, title), h("p", {}, detail),
    h("div", {class: "actions"},
      offerWatch ? h("a", {class: "button primary", href: spectateLink(tableId)},
        "Watch this table") : null,
      h("a", {class: "button", href: "/"}, "All games"))));
  clear($("game-root"));
  // With no game ever shown, empty players, moves and log panels would only puzzle.
  if (!S.view) $("main").classList.add("table-missing");
  say(null);
}

// ------------------------------------------------------------------ moves and questions
function play(action, element, confirmed = false) {
  const view = S.view;
  if (!view || !view.your_turn || S.pending) return;
  if (!confirmed && S.confirm && !S.confirm.offer(action, view.version)) {
    say(null);
    return;
  }
  S.refs += 1;
  if (send({type: "action", version: view.version, action: action.id, ref: `m${S.refs}`})) {
    S.pending = true;
    document.body.dataset.pending = "1";
    if (element) element.classList.add("sent");
    say(null);
  } else {
    say("Not connected: the move was not sent.", "error");
  }
}

/** Why a move cannot be played, when the page knows without asking (else null). */
function knownReason(text) {
  const view = S.view;
  if (S.seat === null) return "you are watching this table; only its players make moves";
  if (!view || view.status === "waiting") return "the game has not started";
  if (view.status === "finished") return "the game is over; no more moves can be made";
  if (view.status === "abandoned") return view.abandoned || "this table was closed";
  if (!view.your_turn) return `it is not your turn: seat ${view.current_player} is to move`;
  return S.why.get(`${view.version}|${normalise(text)}`) ?? null;
}

/** A known reason in the page's words (seats by name), for a tooltip. */
function knownWords(text) {
  const reason = knownReason(text);
  return reason === null ? null : named(reason);
}

/**
 * A disabled control was looked at (`purpose` "look": hovered or focused) or used ("click",
 * "key"). Either way its tooltip learns the reason; only a use shows it, beside the control.
 */
function explain(text, element, purpose = "look") {
  const view = S.view;
  // A click that lands just as the position changed was aimed at what was there before
  // (a card that moved away, a move already on its way): it gets no refusal.
  const meant = purpose !== "look" && !S.pending && performance.now() - S.changedAt > 400;
  const reason = knownReason(text);
  if (reason) {
    showReason(element, text, reason, meant);
    return;
  }
  const key = `${view ? view.version : 0}|${normalise(text)}`;
  S.refs += 1;
  const ref = `w${S.refs}`;
  S.asking.set(ref, {key, element, text, meant});
  send({type: "why", action: text, ref});
}

function answerWhy(message) {
  const asked = S.asking.get(message.ref);
  S.asking.delete(message.ref);
  if (!asked) return;
  const reason = message.legal ? "this move can be played now" : (message.reason || "not now");
  S.why.set(asked.key, reason);
  showReason(asked.element, asked.text, reason, asked.meant);
}

function showReason(element, text, reason, meant) {
  element.title = named(`${capitalise(text)}: ${reason}`);
  element.dataset.reason = reason;
  if (meant && element.isConnected) showRefusal(element, reason);
}

// ------------------------------------------------------------------ refusals
/** "Not now: ..." in a bubble beside the control that was used. */
function showRefusal(element, reason) {
  hideRefusal();
  const bubble = h("div", {id: "refusal", class: "refusal"}, h("b", {}, "Not now: "),
    named(reason));
  document.body.append(bubble);
  // Said aloud through a live region that was there before: a new element is not announced.
  $("refusal-announce").textContent = `Not now: ${named(reason)}`;
  S.refusal = {bubble, element, timer: setTimeout(hideRefusal, shownFor(5000))};
  placeRefusal();
}

function hideRefusal() {
  if (!S.refusal) return;
  clearTimeout(S.refusal.timer);
  S.refusal.bubble.remove();
  S.refusal = null;
}

/** Below the control, or above it when the screen ends first; never off the screen. */
function placeRefusal() {
  const refusal = S.refusal;
  if (!refusal) return;
  if (!refusal.element.isConnected) {
    hideRefusal();
    return;
  }
  const {bubble, element} = refusal;
  const box = element.getBoundingClientRect();
  const size = bubble.getBoundingClientRect();
  const gap = 10;
  let top = box.bottom + gap;
  let side = "below";
  if (top + size.height > window.innerHeight - 8 && box.top - gap - size.height >= 8) {
    top = box.top - gap - size.height;
    side = "above";
  }
  const margin = 8;
  const left = Math.min(Math.max(margin, box.left + box.width / 2 - size.width / 2),
    Math.max(margin, window.innerWidth - size.width - margin));
  bubble.style.left = `${Math.round(left)}px`;
  bubble.style.top = `${Math.round(top)}px`;
  const arrow = Math.min(Math.max(14, box.left + box.width / 2 - left), size.width - 14);
  bubble.style.setProperty("--arrow-x", `${Math.round(arrow)}px`);
  bubble.dataset.side = side;
}

// ------------------------------------------------------------------ rendering
/** Where the keyboard focus is, in terms that survive a re-render. */
function focusPlace() {
  const active = document.activeElement;
  if (!active || active === document.body) return null;
  // The moves panel holds the focus while others move; it stands for its list.
  const area = active.id === "moves" ? $("move-list") : active.closest("#game-root, #move-list, #banner");
  if (!area) return null;
  return {area: area.id, move: active.dataset.move ?? null, id: active.id || null};
}

/** Put the focus back where it was (the same move, or the same area) after a re-render. */
function restoreFocus(place) {
  if (!place || (document.activeElement && document.activeElement !== document.body)) return;
  const area = $(place.area);
  if (!area) return;
  const enabled = [...area.querySelectorAll('[data-move]:not([aria-disabled="true"])')];
  // A control that cannot be played would answer the focus with its reason: skip those.
  let target = place.id ? document.getElementById(place.id) : null;
  if (target && target.getAttribute("aria-disabled") === "true") target = null;
  if (!target && place.move !== null) target = enabled.find((e) => e.dataset.move === place.move);
  if (!target) target = enabled[0];
  if (!target && place.area !== "banner") target = $("moves");
  if (target) target.focus({preventScroll: true});
}

function render() {
  if (S.fatal) return;
  const place = focusPlace();
  renderHeader();
  renderBanner();
  renderStandIn();
  renderGame();
  renderPlayersPanel();
  renderMoves();
  // A move chosen and not yet confirmed stays marked on the board just drawn.
  S.confirm?.mark(document);
  renderLogPanel();
  S.ruleHelp?.update();
  const view = S.view;
  document.body.dataset.seat = S.seat === null ? "spectator" : String(S.seat);
  document.body.dataset.version = view ? String(view.version) : "";
  document.body.dataset.pending = S.pending ? "1" : "0";
  document.body.dataset.turn = turnState();
  signalTurn();
  restoreFocus(place);
  placeRefusal();
  // After the board is drawn, so that a suggestion can be marked on it.
  S.hint?.offer(S.view);
}

/** The tab's icon and (if wanted) a chime tell a player looking elsewhere that it is their turn. */
function signalTurn() {
  const mine = turnState() === "you";
  setTurnSignal(mine);
  // Only a turn that arrives while the page is open chimes, not the one found on opening.
  if (mine && S.wasMine === false) turnArrived();
  // The top bar's count of games waiting for the player includes this one.
  if (S.view && S.wasMine !== null && mine !== S.wasMine) refreshIdentity();
  if (S.view) S.wasMine = mine;
}

function turnState() {
  const view = S.view;
  if (!view) return "loading";
  if (view.status === "waiting") return "waiting";
  if (view.status === "finished" || view.status === "abandoned") return "over";
  return view.your_turn ? "you" : "other";
}

function gameTitle() {
  return S.table ? S.table.title : "Table";
}

/** The reader's own name as a player, for words sent on their behalf (an invitation). */
function myName() {
  return identity.get()?.name || null;
}

const HURRY_SECONDS = 10;

/** "42 s" under a minute, "2:05" under an hour, "23 h 05 min" beyond. */
function timeLeft(seconds) {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

function renderHeader() {
  const title = gameTitle();
  $("game-title").textContent = title;
  document.title = `${turnState() === "you" ? "● Your turn · " : ""}${title} · ladytiger`;
  const who = S.seat === null ? "watching" : `you are seat ${seatNumber(S.seat)}`;
  const unrated = S.table?.rated === false ? " · not rated" : "";
  const clock = S.table?.clock ? ` · ${clockWords(S.table.clock.seconds)} a move` : "";
  // The table's id is for support, not for play: it stays in the tooltip, so that the top
  // bar keeps to one line at a laptop's width even with a clock named.
  $("table-meta").textContent = `${who}${unrated}${clock}`;
  $("table-meta").title = `table ${tableId}`;
  if (S.table) $("rules-link").href = `/rules/${S.table.game}`;
  const pill = $("turn");
  const view = S.view;
  pill.className = "pill";
  clearInterval(S.clockTimer);
  if (!view) {
    pill.textContent = "Connecting…";
    return;
  }
  const state = turnState();
  if (state === "waiting") pill.textContent = "Waiting for players";
  else if (state === "over") {
    pill.classList.add("over");
    pill.textContent = view.began === false ? "Closed" : "Game over";
  } else if (state === "you") {
    pill.classList.add("turn-you");
    pill.textContent = "Your turn";
  } else {
    pill.classList.add("turn-other");
    const mover = view.current_player;
    const plan = S.table?.seats?.[mover];
    if (names()) {
      pill.textContent = plan && plan.kind === "bot"
        ? `${nameOf(mover)} is thinking…` : `${nameOf(mover)} to move`;
    } else {
      pill.textContent = plan && plan.kind === "bot"
        ? `Seat ${mover} (${botLabel(plan)}) is thinking…` : `Seat ${mover} to move`;
    }
  }
  if (view.deadline && state !== "over") {
    const base = pill.textContent;
    const mine = view.deadline.seat === S.seat;
    const tick = () => {
      const left = Math.max(0, Math.round(view.deadline.at - Date.now() / 1000));
      pill.textContent = `${base} · ${timeLeft(left)}`;
      // The last seconds of one's own time stand out, so they are not missed.
      pill.classList.toggle("hurry", mine && left <= HURRY_SECONDS);
    };
    tick();
    S.clockTimer = setInterval(tick, 1000);
  }
}

function renderBanner() {
  const banner = clear($("banner"));
  const view = S.view;
  if (!view) return;
  if (view.status === "waiting") banner.append(waitingRoom());
  if (view.status === "finished" || S.end) banner.append(endSummary());
  if (view.status === "abandoned") banner.append(abandonedNotice(view));
  // A table that ended before anything was dealt has no moves to list nor story to tell.
  $("main").classList.toggle("table-unbegun", view.status === "abandoned" && view.began === false);
  const rematch = S.rematch && !S.wantRematch ? rematchNotice() : null;
  if (rematch) banner.append(rematch);
}

/**
 * When the seat to move belongs to someone who left, the other players may have a bot play
 * for them until they come back (docs/protocol.md, "A player who left"): first a word that
 * they are away and when the offer comes, then the button. A stand-in at work is said too.
 */
function renderStandIn() {
  const slot = clear($("stand-in"));
  clearTimeout(S.standInTimer);
  const view = S.view;
  if (!view || view.status !== "playing" || S.seat === null) return;
  const seat = view.current_player;
  const live = (S.presence || [])[seat];
  if (seat === S.seat || !live || live.kind !== "human") return;
  const who = nameOf(seat);
  if ((view.stand_ins || []).includes(seat)) {
    slot.append(h("p", {class: "panel notice stand-in", id: "stand-in-note"},
      `${who} left the table: a casual bot plays for them until they come back.`));
    return;
  }
  if (live.connected || live.stand_in_wait === null || live.stand_in_wait === undefined) return;
  const wait = Math.ceil(live.stand_in_wait - (Date.now() - S.presenceAt) / 1000);
  if (wait > 0) {
    slot.append(h("p", {class: "panel notice stand-in", id: "stand-in-note"},
      `${who} has left the table. If they are not back in ${wait} s, you can let a bot play `
      + "for them."));
    S.standInTimer = setTimeout(renderStandIn, Math.min(wait, 5) * 1000);
    return;
  }
  const button = h("button", {type: "button", class: "primary", id: "stand-in-button"},
    `Let a bot play for ${who}`);
  button.addEventListener("click", () => {
    button.disabled = true;
    if (!send({type: "stand_in", seat, ref: `stand-in-${seat}`})) {
      button.disabled = false;
      say("Not connected: try again in a moment.", "warn");
    }
  });
  slot.append(h("section", {class: "panel notice stand-in", id: "stand-in-note"},
    h("p", {}, `${who} has left the table and it is their turn. A casual bot can play for `
      + "them until they come back."),
    h("div", {class: "actions"}, button)));
}

function waitingRoom() {
  const seats = S.presence || S.table?.seats || [];
  const held = tokens.of(tableId);
  const humans = seats.filter((s) => s.kind === "human");
  const joined = humans.filter((s) => s.joined).length;
  const list = h("ul", {class: "seat-list"});
  const known = names();
  for (const seat of seats) {
    const me = seat.seat === S.seat;
    const number = seatNumber(seat.seat);
    let name = me ? `Seat ${number} · you` : `Seat ${number}`;
    if (known && known[seat.seat] !== `Seat ${seat.seat}`) {
      name = me ? `${known[seat.seat]} · you, seat ${number}` : `${known[seat.seat]} · seat ${number}`;
    }
    let status;
    let extra = null;
    if (seat.kind === "bot") status = h("span", {class: "tag bot"}, botLabel(seat));
    else if (seat.joined) {
      status = h("span", {class: "tag joined"}, seat.connected ? "here" : "joined");
    } else if (seat.open && !seat.claimed) {
      status = h("span", {class: "tag waiting"}, "open: listed in the lobby");
      if (S.seat === null) {
        const take = h("button", {type: "button", class: "small primary"}, "Take this seat");
        take.addEventListener("click", () => claim(seat.seat, take));
        extra = take;
      }
    } else status = h("span", {class: "tag waiting"}, "waiting to join");
    if (me && seat.open) {
      // Sat down from the lobby: free to get up again until the game begins.
      const leave = h("button", {type: "button", class: "small", id: "leave-seat"},
        "Give this seat back");
      leave.addEventListener("click", () => leaveSeat(leave));
      extra = [leave, h("span", {class: "hint"},
        "You took this seat from the lobby. Until the game begins you may give it back.")];
    } else if (seat.kind === "human" && held[seat.seat]) {
      extra = [copyControl(`Invite link for seat ${number}`,
        inviteLink(tableId, held[seat.seat]), `invite-${seat.seat}`, me ? null : {
          title: `A game of ${gameTitle()}`,
          text: `${myName() ? `${myName()} invites` : "Come and join"} you to a game of `
            + `${gameTitle()}: whoever opens this link first takes the seat.`,
        }),
      h("span", {class: "hint"}, me
        ? "Your seat's own link. This browser already knows your seat; the link opens it anywhere else."
        : `Send this link to the player of seat ${number}: whoever opens it first sits there.`)];
    }
    list.append(h("li", {"data-seat": seat.seat, class: me ? "me" : null},
      h("div", {class: "seat-head"}, h("b", {}, name), status), extra));
  }
  return h("section", {class: "panel waiting-room", "aria-labelledby": "waiting-title"},
    h("h2", {id: "waiting-title"}, "Waiting for players"),
    h("p", {}, `The game starts by itself when every human seat is taken (${joined} of `
      + `${plural(humans.length, "human seat")} so far). ${waitingAdvice(seats, held)}`),
    tableTerms(),
    list,
    h("div", {class: "spectate"}, h("label", {for: "spectate-link"}, "Link for spectators"),
      copyControl("Link for spectators", spectateLink(tableId), "spectate-link",
        {title: `Watch ${gameTitle()}`, text: `Watch a game of ${gameTitle()}:`})),
    fillControl(seats),
    closeControl(seats));
}

/**
 * "Start now with bots" for whoever set the table up, while some seat is still empty: the game
 * goes on at a new table with a bot of the chosen level in each empty seat, and everyone who
 * is here follows (docs/protocol.md, "Starting with bots").
 */
function fillControl(seats) {
  const mine = seats.find((seat) => seat.seat === S.seat);
  if (!mine || mine.open) return null;
  const empty = seats.filter((seat) => seat.kind === "human" && seat.seat !== S.seat
    && !seat.joined);
  if (!empty.length) return null;
  const level = h("select", {id: "fill-level", "aria-label": "Level of the bots"},
    STRENGTHS.map((s) => h("option", {value: s.key, selected: s.key === (S.fillLevel || "casual"),
      title: s.about}, s.short)));
  level.addEventListener("change", () => { S.fillLevel = level.value; });
  const go = h("button", {type: "button", class: "small", id: "fill-button"},
    empty.length === 1 ? "Start now with a bot in the empty seat"
      : `Start now with bots in the ${empty.length} empty seats`);
  go.addEventListener("click", () => fillWithBots(go, level.value));
  // An invited friend who does not come: their seat can go to anyone in the lobby instead.
  const invited = empty.filter((seat) => !seat.open);
  let open = null;
  if (invited.length) {
    open = h("button", {type: "button", class: "small", id: "open-seats-button"},
      invited.length === 1 ? "Open the invited seat to anyone"
        : `Open the ${invited.length} invited seats to anyone`);
    open.addEventListener("click", () => fillWithBots(open, null));
  }
  return h("div", {class: "fill-table", id: "fill-table"},
    h("p", {class: "hint"}, "Tired of waiting? The game can begin now, a bot taking each "
      + "seat nobody has joined; whoever is here comes along."),
    h("div", {class: "actions"}, h("label", {for: "fill-level", class: "visually-hidden"},
      "Level of the bots"), level, go),
    open ? h("p", {class: "hint"}, "Or let anyone in the lobby take "
      + (invited.length === 1 ? "the seat your invite has not filled" : "the seats your "
      + "invites have not filled") + ": the table moves to a new address, and the old "
      + "invite links no longer hold a seat.") : null,
    open ? h("div", {class: "actions"}, open) : null);
}

/** Start now with `bot` in the empty seats, or (bot null) open the invited ones to all. */
async function fillWithBots(button, bot) {
  button.disabled = true;
  button.textContent = bot === null ? "Opening…" : "Starting…";
  S.wantRematch = true;  // the new table is this one's rematch: the page goes there
  if (send(bot === null ? {type: "fill", lobby: true, ref: "fill"}
    : {type: "fill", bot, ref: "fill"})) return;
  try {
    const made = await api.fill(tableId, S.token, bot);
    S.rematch = made.table.id;
    tokens.carry(tableId, S.rematch);
    goToRematch();
  } catch (error) {
    S.wantRematch = false;
    button.disabled = false;
    say(error.message, "error");
  }
}

/**
 * "Close this table…" for whoever set the table up (a seat not taken from the lobby): it
 * asks once more before it sends anything (docs/protocol.md, "Closing a waiting table").
 */
function closeControl(seats) {
  const mine = seats.find((seat) => seat.seat === S.seat);
  if (!mine || mine.open) return null;
  const slot = h("div", {class: "close-table", id: "close-table"});
  if (!S.closeAsked) {
    const ask = h("button", {type: "button", class: "small quiet", id: "close-button"},
      "Close this table…");
    ask.addEventListener("click", () => {
      S.closeAsked = true;
      renderBanner();
      $("close-confirm")?.focus();
    });
    slot.append(ask);
    return slot;
  }
  const sure = h("button", {type: "button", class: "small danger", id: "close-confirm"},
    "Close the table");
  const keep = h("button", {type: "button", class: "small"}, "Keep waiting");
  sure.addEventListener("click", () => closeTable(sure));
  keep.addEventListener("click", () => {
    S.closeAsked = false;
    renderBanner();
    $("close-button")?.focus();
  });
  const others = seats.some((seat) => seat.seat !== S.seat && seat.kind === "human"
    && (seat.joined || seat.claimed));
  slot.append(h("div", {class: "resign-ask", role: "group", "aria-label": "Close this table"},
    h("p", {}, "Close this table? Nothing has been dealt, so nobody wins or loses; the "
      + "invite links stop working" + (others ? " and whoever has sat down is told." : ".")),
    h("div", {class: "actions"}, sure, keep)));
  return slot;
}

async function leaveSeat(button) {
  button.disabled = true;
  if (send({type: "leave", ref: "leave"})) return;
  try {
    const seat = S.seat;
    await api.leave(tableId, S.token);
    tokens.forget(tableId, seat);
    location.replace(location.pathname);  // not connected: read the table afresh, watching
  } catch (error) {
    button.disabled = false;
    say(error.message, "error");
  }
}

async function closeTable(button) {
  button.disabled = true;
  if (send({type: "close", ref: "close"})) return;
  try {
    await api.close(tableId, S.token);
    location.reload();  // not connected: the page reads the closed table afresh
  } catch (error) {
    button.disabled = false;
    say(error.message, "error");
  }
}

/** What to do while waiting: the maker hands out links; the others wait, or sit down. */
function waitingAdvice(seats, held) {
  const links = seats.some((seat) => seat.seat !== S.seat && held[seat.seat]);
  if (links) return "Send each player their own link: whoever holds a link holds that seat.";
  const open = seats.some((seat) => seat.open && !seat.claimed);
  if (S.seat === null) {
    return open ? "You are watching: take an open seat below to play."
      : "You are watching: every seat is spoken for.";
  }
  const invited = seats.some((seat) => seat.seat !== S.seat && seat.kind === "human"
    && !seat.open && !seat.joined);
  const ways = [invited ? "by the links the table's maker sent them" : null,
    open ? "from the lobby, where the open seats are listed" : null].filter(Boolean);
  return (ways.length ? `The others come ${ways.join(", or ")}: this` : "This")
    + " page turns into the game as soon as it starts.";
}

/** "casual bot": how the page names the bot that moves when a player's clock runs out. */
function clockBotLabel() {
  return botLabel({kind: "bot", bot: S.table?.clock?.bot || "random"});
}

/** What the players agree to by sitting down: rating, time limit, chat. */
function tableTerms() {
  const table = S.table || {};
  const clock = table.clock;
  const terms = [
    table.rated === false ? "Not rated" : "Rated game",
    clock ? `${clockWords(clock.seconds)} a move (then a ${clockBotLabel()} moves for whoever `
      + "ran out)" : "No time limit",
  ];
  if (table.chat === false) terms.push("No table chat");
  return h("p", {class: "table-terms", id: "table-terms"}, terms.join(" · "));
}

async function claim(seat, button) {
  button.disabled = true;
  try {
    const claimed = await api.join(tableId, seat);
    tokens.remember(tableId, {[claimed.seat]: claimed.token});
    location.hash = `seat=${claimed.token}`;
  } catch (error) {
    button.disabled = false;
    // The server counts seats from 0; the page names this one by its own count.
    say(error.code === "seat_taken"
      ? `Seat ${seatNumber(seat)} is taken: someone sat there a moment before you.`
      : error.message, "error");
  }
}

function winnersOf(returns) {
  if (!returns || !returns.length) return [];
  const best = Math.max(...returns);
  return best > 0 ? returns.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0) : [];
}

/** Who holds each seat, as a key: a new player sitting down changes it. */
function seatPlayers(seats) {
  return JSON.stringify((seats || []).map((seat) => seat.player?.id ?? seat.bot ?? null));
}

/** Read the seats' ratings again once someone new holds a seat (a player joins). */
async function refreshSeatRatings(seats) {
  const key = seatPlayers(seats);
  if (key === S.ratedPlayers) return;
  S.ratedPlayers = key;
  try {
    const info = await api.table(tableId);
    S.seatRatings = info.table.seat_ratings || null;
    renderPlayersPanel();
  } catch (error) {
    // The names stand without their ratings until the next change.
  }
}

/** What the game did to `seat`'s rating, once the server has said (its `rated`). */
function ratingChange(seat) {
  return (S.table?.ratings || []).find((change) => change.seat === seat) || null;
}

function myRatingChange() {
  return S.seat === null ? null : ratingChange(S.seat);
}

/** "+12" beside a seat's final score, titled with the whole change. */
function ratingChip(seat) {
  const change = ratingChange(seat);
  if (!change) return null;
  const delta = ratingDelta(change);
  const kind = delta.startsWith("+") ? "up" : delta === "±0" ? "same" : "down";
  return h("small", {class: `rating-delta ${kind}`,
    title: ratingWords(change, `${nameOf(seat)}'s rating`)}, delta);
}

/** Whether the server rates this game: two seats or more, every human seat a player's. */
function ratedTable() {
  const seats = S.presence || S.table?.seats || [];
  return S.table?.rated !== false && seats.length >= 2
    && seats.every((seat) => seat.kind === "bot" || seat.player);
}

/** A seat's name, linked to the player's page when a player holds it. */
function playerLink(seat, text) {
  const player = (S.presence || S.table?.seats || [])[seat]?.player;
  if (!player?.id) return h("span", {}, text);
  return h("a", {href: `/players/${encodeURIComponent(player.id)}`, class: "player-link"}, text);
}

function abandonedNotice(view) {
  if (view.resigned !== undefined && view.resigned !== null) return resignedNotice(view);
  const closer = view.closed ?? null;
  let words = view.abandoned || "this table was closed";
  if (closer !== null && closer === S.seat) words = "you closed this table before the game began";
  if (view.opened) {
    // Someone holding an invite to a seat that was opened to the lobby without them.
    return h("section", {class: "notice abandoned-notice", role: "status"},
      h("h2", {}, "This table moved to a new address"),
      h("p", {}, `${words[0].toUpperCase()}${words.slice(1)}. This link no longer holds a `
        + "seat, but an open seat there may still be free."),
      h("p", {class: "actions"},
        h("a", {class: "button primary", href: `/play/${view.rematch}`, id: "restarted-link"},
          "Go to the new table"),
        h("a", {class: "button", href: "/"}, "Find another game")));
  }
  if (view.restarted !== undefined && view.restarted !== null) {
    // Someone holding a link to a seat a bot took when the game began without them.
    return h("section", {class: "notice abandoned-notice", role: "status"},
      h("h2", {}, "The game went on at a new table"),
      h("p", {}, `${words[0].toUpperCase()}${words.slice(1)}; a bot took each seat nobody `
        + "had joined."),
      h("p", {class: "actions"},
        h("a", {class: "button primary", href: `/play/${view.rematch}`, id: "restarted-link"},
          "Watch the game"),
        h("a", {class: "button", href: "/"}, "Find another game")));
  }
  const after = view.began === false ? "Nothing was dealt: nobody won or lost."
    : "No more moves can be made.";
  return h("section", {class: "notice abandoned-notice", role: "status"},
    h("h2", {}, "This table is closed"),
    h("p", {}, `${words[0].toUpperCase()}${words.slice(1)}. ${after}`),
    h("p", {class: "actions"}, h("a", {class: "button primary", href: "/"}, "Find another game")));
}

/** Who won a game that `quitter` gave up, in words: there are no final scores to show. */
function resignedWords(quitter, seats) {
  const others = [];
  for (let seat = 0; seat < seats; seat += 1) if (seat !== quitter) others.push(seat);
  const named = others.map((seat) => (seat === S.seat ? "you" : nameOf(seat)));
  const lead = named.length ? `${named[0][0].toUpperCase()}${named[0].slice(1)}` : "";
  if (!others.length) return "The game is over, as a loss.";
  if (others.length === 1) return `${lead} ${others[0] === S.seat ? "win" : "wins"}: the game ends there, with no final scores.`;
  return `${[lead, ...named.slice(1, -1)].join(", ")} and ${named[named.length - 1]} share the `
    + "win: the game ends there, with no final scores.";
}

/** The end of a game someone gave up (docs/protocol.md, "Resigning"). */
function resignedNotice(view) {
  const quitter = view.resigned;
  const seats = (S.presence || S.table?.seats || []).length;
  let headline;
  if (quitter === S.seat) headline = "You resigned";
  else if (S.seat !== null && seats === 2) headline = `You win: ${nameOf(quitter)} resigned`;
  else if (S.seat !== null) headline = `${nameOf(quitter)} resigned: you share the win`;
  else headline = `${nameOf(quitter)} resigned`;
  const rated = S.table?.rated === false ? "Not rated."
    : (ratingWords(myRatingChange()) ? `${ratingWords(myRatingChange())}.`
      : (ratedTable() ? (quitter === S.seat ? "Rated: it counts as a loss."
        : "Rated: it counts as a win against them.") : null));
  const actions = h("div", {class: "actions"});
  if (S.seat !== null && !S.rematch) {
    const again = h("button", {type: "button", class: "primary", id: "rematch-button"}, "Rematch");
    again.addEventListener("click", () => requestRematch(again));
    actions.append(again);
  } else if (S.rematch) {
    actions.append(h("a", {class: "button primary", href: rematchHref()},
      S.seat === null ? "Watch the rematch" : "Join the rematch"));
  }
  actions.append(h("a", {class: "button quiet", href: "/"}, "New game"));
  return h("section", {class: "panel end-summary resigned-notice", role: "status",
    "aria-labelledby": "end-title"},
  h("p", {class: "eyebrow"}, "Game over"),
  h("h2", {id: "end-title"}, headline),
  h("p", {}, resignedWords(quitter, seats) + (rated ? ` ${rated}` : "")),
  actions);
}

function endSummary() {
  const observation = S.view?.observation || {};
  const returns = S.end?.returns || observation.returns || [];
  const scores = S.end?.scores || observation.scores || [];
  const winners = winnersOf(returns);
  const name = nameOf;
  let headline = null;
  // A game may say its end in its own words (a solo game is won or lost, not "nobody wins").
  try {
    headline = S.entry?.module?.endHeadline?.(observation, {seat: S.seat, seatName: nameOf}) ?? null;
  } catch (error) {
    console.error("the game's end headline failed", error);
  }
  if (headline) {
    // The game's words stand.
  } else if (!winners.length) headline = scores.length === 1 ? "The game is over: not won this time" : "The game is over: nobody wins";
  else if (winners.length === 1) headline = winners[0] === S.seat ? "You win!" : `${name(winners[0])} wins`;
  else {
    headline = `A shared win: ${winners.map(name).join(" and ")}`;
  }
  const scoreList = h("ol", {class: "final-scores"}, scores.map((score, seat) =>
    h("li", {class: winners.includes(seat) ? "winner" : null, "data-seat": seat},
      playerLink(seat, name(seat)), h("b", {}, score), ratingChip(seat))));
  const actions = h("div", {class: "actions"});
  if (S.seat !== null && !S.rematch) {
    const again = h("button", {type: "button", class: "primary", id: "rematch-button"}, "Rematch");
    again.addEventListener("click", () => requestRematch(again));
    actions.append(again);
  } else if (S.rematch) {
    actions.append(h("a", {class: "button primary", href: rematchHref()},
      S.seat === null ? "Watch the rematch" : "Join the rematch"));
  }
  actions.append(
    h("a", {class: "button", href: `/replay/${tableId}`}, "Watch the replay"),
    h("a", {class: "button", href: `/api/tables/${tableId}/record`, download: ""}, "Download record"),
    S.table ? h("a", {class: "button", href: `/leaderboard/${encodeURIComponent(S.table.game)}`,
      id: "leaderboard-link"}, "Leaderboard") : null,
    h("a", {class: "button quiet", href: "/"}, "New game"));
  const rated = S.table?.rated === false ? "Not rated: the table was made to change no rating."
    : (ratingWords(myRatingChange())
      || (ratedTable() ? "Rated: each player's rating on this game has been updated." : null));
  return h("section", {class: "panel end-summary", "aria-labelledby": "end-title",
    "data-ready": S.end && S.finalViews ? "1" : "0"},
    h("div", {class: "end-head"},
      h("div", {}, h("p", {class: "eyebrow"}, "Game over"), h("h2", {id: "end-title"}, headline)),
      scoreList),
    actions,
    rated ? h("p", {class: "muted rated-note"}, rated) : null,
    revealSection());
}

function revealSection() {
  const record = S.end?.record;
  const section = h("div", {class: "reveal"});
  const views = S.finalViews;
  const count = (S.view?.observation?.scores || []).length;
  if (count > 0) {
    const tabs = h("div", {class: "reveal-tabs", role: "tablist", "aria-label": "Each seat's cards"});
    const body = h("div", {class: "reveal-body", role: "tabpanel"});
    const chosen = S.revealSeat ?? (count > 1 ? (S.seat === 0 ? 1 : 0) : 0);
    for (let seat = 0; seat < count; seat += 1) {
      const tab = h("button", {type: "button", role: "tab", class: "small",
        "aria-selected": seat === chosen ? "true" : "false"},
      seat === S.seat ? `You (seat ${names() ? seatNumber(seat) : seat})`
        : (names() ? nameOf(seat) : `Seat ${seat}`));
      tab.addEventListener("click", () => {
        S.revealSeat = seat;
        renderBanner();
      });
      tabs.append(tab);
    }
    if (views && views[chosen]) {
      const root = h("div", {});
      const ctx = makeContext({seat: chosen, bind: readOnlyBind("the game is over"),
        lastMove: null, extra: {replay: true}});
      // Another seat's view speaks of its seat by name, never as "You".
      const known = names();
      ctx.seatName = (i) => (known ? seatNamer(null, known)(i) : `Seat ${i}`);
      drawView(root, S.entry, {...S.view, observation: views[chosen], legal_actions: [],
        seat: chosen, your_turn: false}, ctx);
      body.append(root);
    } else body.append(h("p", {class: "muted"}, "Loading what each seat held…"));
    // The state is kept on click, before the toggle: a re-render in between keeps it.
    const details = h("details", {class: "reveal-seats", open: S.revealOpen},
      h("summary", {onclick: () => { S.revealOpen = !details.open; }},
        "Every hidden card, revealed: the end as each seat saw it"), tabs, body);
    section.append(details);
  }
  if (record && Array.isArray(record.history)) {
    section.append(h("details", {class: "reveal-record"},
      h("summary", {}, `The whole record: ${plural(record.history.length, "step")}, every deal named`),
      h("ol", {class: "record-list"}, record.history.map((text) => h("li", {}, text)))));
  }
  return section;
}

async function loadFinalViews() {
  if (S.finalViews || !S.end) return;
  const count = (S.view?.observation?.scores || []).length;
  const of = S.end.record?.history?.length;
  if (!count || of === undefined) return;
  try {
    const views = await Promise.all(Array.from({length: count}, (_, seat) =>
      api.replayStep(tableId, of, seat)));
    S.finalViews = views.map((v) => v.observation);
  } catch (error) {
    S.finalViews = [];
  }
  renderBanner();
}

function readOnlyBind(reason) {
  return (element, text) => {
    element.dataset.move = text;
    element.classList.add("disabled");
    element.setAttribute("aria-disabled", "true");
    element.title = `${capitalise(text)}: ${reason}`;
    return element;
  };
}

function rematchHref() {
  // The same players hold the same seats at the rematch, so a player needs no token there.
  const token = S.token;
  return token && S.seat !== null ? `/play/${S.rematch}#seat=${token}` : `/play/${S.rematch}`;
}

function requestRematch(button) {
  button.disabled = true;
  button.textContent = "Setting up…";
  S.wantRematch = true;
  if (!send({type: "rematch"})) {
    api.rematch(tableId, S.token).then((made) => {
      S.rematch = made.table.id;
      tokens.carry(tableId, S.rematch);
      goToRematch();
    }).catch((error) => {
      S.wantRematch = false;
      button.disabled = false;
      button.textContent = "Rematch";
      say(error.message, "error");
    });
  }
}

function goToRematch() {
  location.href = rematchHref();
}

function rematchNotice() {
  if (S.view?.restarted !== undefined) return null;  // the notice of the table says it
  // The end summary, or the notice of a resignation, offers it.
  if (S.view?.status === "finished" || S.end || S.view?.resigned !== undefined) return null;
  return h("section", {class: "panel notice"}, h("p", {}, "A rematch of this table is ready."),
    h("a", {class: "button primary", href: rematchHref()}, "Go to the rematch"));
}

function renderGame() {
  const root = $("game-root");
  const view = S.view;
  if (!view || view.status === "waiting" || view.began === false || !S.entry) {
    clear(root);
    root.className = "game-root";
    return;
  }
  const moves = new Map((view.legal_actions || []).map((a) => [normalise(a.text), a]));
  const log = view.observation.log || [];
  const ctx = makeContext({
    seat: S.seat,
    bind: makeBinder({moves, play, explain, reasonOf: knownWords, describe: named}),
    lastMove: log.length ? log[log.length - 1] : null,
    names: names(),
  });
  S.motion.capture();
  drawView(root, S.entry, view, ctx, (error) =>
    say(`The ${gameTitle()} view failed (${error.message}); showing the plain view.`, "error"));
  root.classList.add("game-root");
  // Its prompts speak of a turn that will never be played: the board stays to be looked at,
  // greyed and out of reach.
  root.classList.toggle("table-closed", view.status === "abandoned");
  const fresh = S.drawnVersion !== view.version;
  const first = S.drawnVersion === null;
  S.drawnVersion = view.version;
  // The viewer's own move puts away the marks of what the others did before it; a spectator
  // sees the latest move marked.
  const mineLast = S.seat !== null && /^You\b/.test(lastSeatMove(log) || "");
  S.motion.play({
    reset: fresh && (S.seat === null || mineLast),
    byOther: fresh && !first && !mineLast,
    animate: fresh && !first,
  });
}

function renderPlayersPanel() {
  const view = S.view;
  const observation = view?.observation;
  const resigned = view?.resigned ?? null;
  let winners = observation?.terminal ? winnersOf(S.end?.returns || observation.returns) : null;
  if (resigned !== null) {
    winners = (observation?.scores || []).map((_, seat) => seat).filter((seat) => seat !== resigned);
  }
  const playing = view && view.status !== "waiting";
  renderPlayers($("players"), {seats: S.table?.seats, observation, mySeat: S.seat,
    presence: S.presence, winners, over: view?.status === "abandoned", ratings: S.seatRatings,
    lastMoves: playing ? lastMovesBySeat(observation?.log || [], S.seat) : null});
  const watchers = $("watchers");
  const count = S.spectators || 0;
  watchers.hidden = !count;
  watchers.textContent = count ? `${plural(count, "spectator")} watching` : "";
  renderResign();
}

/**
 * "Resign…" under the players, for a player in a game in play; it asks once more, saying
 * what resigning does, before it sends anything (docs/protocol.md, "Resigning").
 */
function renderResign() {
  const view = S.view;
  const shown = Boolean(view && S.seat !== null && view.status === "playing");
  if (!shown) S.resignAsked = false;
  const others = (S.presence || S.table?.seats || []).length - 1;
  const rated = ratedTable();
  // The panel is drawn again with every view: keep these buttons as they are unless what
  // they say changes, or a click landing as a bot moves would find its button gone.
  const key = shown ? `${S.resignAsked}/${others}/${rated}` : "";
  const slot = $("resign");
  if (slot.dataset.key === key) return;
  slot.dataset.key = key;
  clear(slot);
  if (!shown) return;
  if (!S.resignAsked) {
    const ask = h("button", {type: "button", class: "small quiet", id: "resign-button"}, "Resign…");
    ask.addEventListener("click", () => {
      S.resignAsked = true;
      renderResign();
      $("resign-confirm")?.focus();
    });
    slot.append(ask);
    return;
  }
  const sure = h("button", {type: "button", class: "small danger", id: "resign-confirm"}, "Resign");
  const keep = h("button", {type: "button", class: "small"}, "Keep playing");
  sure.addEventListener("click", () => resign(sure));
  keep.addEventListener("click", () => {
    S.resignAsked = false;
    renderResign();
    $("resign-button")?.focus();
  });
  slot.append(h("div", {class: "resign-ask", role: "group", "aria-label": "Resign this game"},
    h("p", {}, (others === 0 ? "Give up this game? It ends at once, as a loss."
      : `Give up this game? It ends at once for everyone, and ${others === 1
        ? "the other player wins" : "the other players share the win"}.`)
      + (rated ? " It counts as a loss in your rating." : "")),
    h("div", {class: "actions"}, sure, keep)));
}

async function resign(button) {
  button.disabled = true;
  if (send({type: "resign", ref: "resign"})) return;
  try {
    await api.resign(tableId, S.token);
    location.reload();  // not connected: the page reads the ended table afresh
  } catch (error) {
    button.disabled = false;
    say(error.message, "error");
  }
}

function renderMoves() {
  const list = clear($("move-list"));
  const view = S.view;
  const title = $("moves-title");
  if (S.confirmToggle) S.confirmToggle.hidden = !view || S.seat === null || view.status !== "playing";
  // Shown once a trick has ended in this game (moments.js), while there are tricks to come.
  if (S.moments && view?.status !== "playing") S.moments.trickToggle.hidden = true;
  if (!view) return;
  if (S.seat === null) {
    title.textContent = "Moves";
    list.append(h("p", {class: "muted"}, "You are watching. Only the players make moves."));
    return;
  }
  title.textContent = "Your moves";
  if (view.status === "waiting") {
    list.append(h("p", {class: "muted"}, "The game has not started yet."));
    return;
  }
  if (view.status === "finished") {
    list.append(h("p", {class: "muted"}, "The game is over."));
    return;
  }
  if (view.status === "abandoned") {
    list.append(h("p", {class: "muted"},
      view.resigned !== undefined ? "The game is over." : "This table is closed."));
    return;
  }
  if (!view.your_turn) {
    list.append(h("p", {class: "muted waiting-turn"},
      `Waiting for ${nameOf(view.current_player)}…`));
    return;
  }
  const moves = new Map(view.legal_actions.map((a) => [normalise(a.text), a]));
  const bind = makeBinder({moves, play, explain, reasonOf: knownWords, describe: named});
  const groups = new Map();
  for (const action of view.legal_actions) {
    if (!groups.has(action.verb)) groups.set(action.verb, []);
    groups.get(action.verb).push(action);
  }
  const items = h("div", {class: "move-items"});
  for (const [verb, actions] of groups) {
    const numbers = actions.every((a) => /^\d+$/.test(a.args));
    if (numbers && actions.length >= 3) {
      items.append(numberChoice(verb, actions, bind));
      continue;
    }
    const row = h("div", {class: "move-group", "data-verb": verb});
    for (const action of actions) {
      // The move's text names seats by number; the button says who they are.
      row.append(bind(h("button", {type: "button", class: "move-button"},
        capitalise(named(action.text))), action.text));
    }
    items.append(row);
  }
  if (!S.entry?.own) {
    // The plain view draws no controls of its own: the list is where moves are made.
    list.append(items);
    return;
  }
  // Every move is made on the board. The same moves as a list serve the keyboard and screen
  // readers; it stays folded away unless the player opens it (the choice is remembered).
  const count = view.legal_actions.length;
  list.append(h("p", {class: "muted board-hint"}, "Your turn: play on the board."));
  // Folded, it holds no controls at all: nothing in it can be reached or clicked by mistake.
  const details = h("details", {class: "move-list-details", id: "move-list-details",
    open: S.movesOpen},
  h("summary", {}, `All ${plural(count, "move")} as a list`), S.movesOpen ? items : null);
  details.addEventListener("toggle", () => {
    if (details.open === S.movesOpen) return;
    S.movesOpen = details.open;
    const focused = details.contains(document.activeElement);
    renderMoves();
    if (focused) $("move-list-details")?.querySelector("summary")?.focus();
  });
  list.append(details);
}

/**
 * Moves like "bid 3" ... "bid 12": a choice of exactly the numbers that can be played now
 * (never a range with gaps in it) and one button.
 */
function numberChoice(verb, actions, bind) {
  const values = actions.map((a) => Number(a.args)).sort((a, b) => a - b);
  const id = `number-${verb}`;
  const select = h("select", {id, class: "number-select"},
    values.map((value) => h("option", {value}, String(value))));
  const wrap = h("div", {class: "move-group number-move", "data-verb": verb});
  const draw = () => {
    const old = wrap.querySelector("button.number-go");
    const button = h("button", {type: "button", class: "move-button number-go primary"},
      `${capitalise(verb)} ${select.value}`);
    bind(button, `${verb} ${select.value}`);
    if (old) old.replaceWith(button);
    else wrap.append(button);
  };
  select.addEventListener("change", draw);
  wrap.append(h("label", {for: id, class: "number-label"}, capitalise(verb)), select);
  draw();
  return wrap;
}

function renderLogPanel() {
  const view = S.view;
  const lines = view?.observation?.log || [];
  renderLog($("log"), lines, S.seat, names());
  const last = lastSeatMove(lines);
  $("log").dataset.lastMove = last || "";
}

// ------------------------------------------------------------------ start
async function start() {
  if (!tableId) {
    fatal("There is no such table.", "The link names no table.");
    return;
  }
  S.token = readToken();
  const ready = startIdentity();
  $("sound-slot").append(soundToggle());
  $("speed-slot").append(speedControl({id: "speed"}));
  S.motion = createMotion($("game-root"));
  S.moments = createMoments({
    send,
    tableId,
    onShow: revealArrived,
    context: () => ({
      seat: S.seat,
      seatName: (seat) => nameOf(seat),
      card,
      // A moment is told in the third person ("Seat 1 takes the trick"): the reader's own
      // seat goes by their name, marked as theirs (frame.js, namedThirdPerson).
      named: (text) => namedThirdPerson(text, S.seat, names()),
    }),
  });
  document.body.append(h("div", {id: "refusal-announce", class: "visually-hidden",
    "aria-live": "assertive"}));
  // A refusal stays beside its control; anything else the player does puts it away.
  document.addEventListener("pointerdown", (event) => {
    if (S.refusal && !S.refusal.bubble.contains(event.target)) hideRefusal();
  }, true);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hideRefusal();
  });
  window.addEventListener("scroll", placeRefusal, true);
  window.addEventListener("resize", placeRefusal);
  S.chat = createChat({send, me: () => ({seat: S.seat, playerId: identity.get()?.id ?? null})});
  S.hint = createHint({
    send,
    onPlay: (move) => play(move, null, true),
    allowed: () => S.table?.hints === true,
    named: (text) => named(text),
  });
  // Beside the list of moves (which each drawing of the moves clears), not inside it.
  $("moves").append(S.hint.button, S.hint.panel);
  S.confirm = createConfirm({send: (action, element) => play(action, element, true),
    named: (text) => named(text)});
  S.confirmToggle = S.confirm.toggle();
  $("moves").append(S.confirmToggle, S.moments.trickToggle);
  document.body.append(S.confirm.bar);
  try {
    const info = await api.table(tableId);
    S.table = info.table;
    S.seatRatings = info.table.seat_ratings || null;
    S.ratedPlayers = seatPlayers(info.table.seats);
  } catch (error) {
    if (error.status === 404) fatal("There is no such table.", "The link may be mistyped, or the table was never made.");
    else fatal("The server cannot be reached.", error.message);
    return;
  }
  S.entry = await loadView(S.table.game);
  // The "?" beside the top bar's links: the rules of the moment, from the rules page's source.
  S.ruleHelp = createRuleHelp({game: S.table.game, observation: () => S.view?.observation ?? null,
    seat: () => S.seat});
  $("rule-help-slot").append(S.ruleHelp.button);
  document.body.append(S.ruleHelp.panel);
  document.body.dataset.view = S.entry.own ? "own" : "generic";
  renderHeader();
  // Say hello as the player (when there is one), so that their seat is theirs.
  await ready;
  connect();
  window.addEventListener("hashchange", () => {
    const token = readToken();
    if (token === S.token) return;
    S.token = token;
    S.seat = null;
    S.view = null;
    S.why.clear();
    connect();
  });
}

start();
