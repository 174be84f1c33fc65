// /me: the player's own page on this device: their name, the personal link that brings them
// back in another browser (/me#player=SECRET, read and wiped from the address by
// identity.js), their games, and "forget me on this device".
import {identity, personalLink, tokens} from "./api.js";
import {mutedPlayers, setMuted} from "./chat.js";
import {ago, clear, copyControl, h} from "./dom.js";
import {
  forget, identityState, onIdentity, previousPlayer, rename, startIdentity, switchBack,
} from "./identity.js";
import {renderMyGames} from "./mygames.js";

const $ = (id) => document.getElementById(id);

function show(id, on = true) {
  $(id).hidden = !on;
}

function notice(text, kind = "notice") {
  const box = $(kind === "error" ? "me-error" : "me-notice");
  box.textContent = text || "";
  box.hidden = !text;
}

function drawPlayer(player) {
  $("me-title").textContent = player.name;
  document.title = `${player.name} · ladytiger`;
  if (document.activeElement !== $("me-name")) $("me-name").value = player.name;
  $("me-public").href = `/players/${encodeURIComponent(player.id)}`;
  $("me-since").textContent = player.created_at ? `Playing here since ${ago(player.created_at)}` : "";
}

function drawLink() {
  const slot = $("me-link-slot");
  const secret = identity.secret();
  slot.replaceChildren(secret ? copyControl("Your personal link", personalLink(secret), "personal-link")
    : document.createTextNode(""));
}

/** The players this browser has muted in table chats, each with a way to hear them again. */
function drawMuted() {
  const list = clear($("me-muted-list"));
  const muted = Object.entries(mutedPlayers());
  show("me-muted", muted.length > 0);
  for (const [id, name] of muted) {
    const unmute = h("button", {type: "button", class: "small", "aria-label": `Unmute ${name}`},
      "Unmute");
    unmute.addEventListener("click", () => {
      setMuted(id, name, false);
      drawMuted();
    });
    list.append(h("li", {"data-player": id},
      h("a", {href: `/players/${encodeURIComponent(id)}`}, name), " ", unmute));
  }
}

async function refreshGames() {
  try {
    await renderMyGames($("me-games-list"), {section: $("me-games"), counter: $("me-turns")});
  } catch (error) {
    notice(error.message, "error");
  }
}

async function start() {
  const player = await startIdentity();
  const state = identityState();
  if (state.linkProblem) notice(state.linkProblem, "error");
  if (state.adopted) {
    const {from, to, same} = state.adopted;
    notice(same ? `This browser already plays as ${to}.`
      : `Welcome, ${to}: this browser now plays as you${from ? ` (it was ${from})` : ""}.`);
  }
  if (!player) {
    show("me-gone");
    document.body.dataset.ready = "1";
    return;
  }
  for (const id of ["me-card", "me-link", "me-games", "me-forget"]) show(id);
  const previous = previousPlayer();
  if (previous) {
    const back = h("button", {type: "button", class: "small", id: "switch-back"},
      `Switch back to ${previous.name || "the other player"}`);
    back.addEventListener("click", () => {
      if (switchBack()) location.reload();
    });
    $("me-card").append(h("p", {class: "switch-back"},
      `Before a personal link was opened here, this browser played as ${previous.name || "someone else"}. `,
      back));
  }
  onIdentity((now) => {
    if (now.player) drawPlayer(now.player);
  });
  drawLink();
  drawMuted();

  $("me-rename").addEventListener("submit", async (event) => {
    event.preventDefault();
    const problem = $("me-rename-problem");
    problem.hidden = true;
    try {
      const renamed = await rename($("me-name").value);
      notice(`Saved: you are ${renamed.name} now, at every table.`);
    } catch (error) {
      problem.textContent = error.message;
      problem.hidden = false;
      $("me-name").focus();
    }
  });
  $("forget-button").addEventListener("click", () => {
    show("forget-confirm");
    $("forget-yes").focus();
  });
  $("forget-no").addEventListener("click", () => {
    show("forget-confirm", false);
    $("forget-button").focus();
  });
  $("forget-yes").addEventListener("click", () => {
    forget();
    tokens.forgetAll();
    for (const [id, name] of Object.entries(mutedPlayers())) setMuted(id, name, false);
    for (const id of ["me-card", "me-link", "me-games", "me-muted", "me-forget", "me-error"]) {
      show(id, false);
    }
    notice(null);
    show("me-gone");
  });
  await refreshGames();
  setInterval(() => {
    if (document.visibilityState === "visible" && identity.get()) refreshGames();
  }, 20_000);
  document.body.dataset.ready = "1";
}

start();
