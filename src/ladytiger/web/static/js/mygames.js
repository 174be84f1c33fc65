// "My games": the player's tables from GET /api/me/tables, for the home page and /me. Tables
// where it is the player's turn come first and stand out; each is one click from its seat.
import {api, inviteLink, tokens} from "./api.js";
import {botLabel} from "./bots.js";
import {
  ago, clear, copyControl, h, plural, ratingNote, seatDisplayName, seatNumber, winnersOf,
} from "./dom.js";

const FINISHED_SHOWN = 5;

/** "with Ana, Random bot": the other seats of a listed table, by name where it has names. */
export function withWhom(table) {
  const seats = table.seats || [];
  const names = seats.map((_, seat) => seat).filter((seat) => seat !== table.seat).map((seat) => {
    const other = seats[seat] || {};
    if (other.player?.name || other.name) return seatDisplayName(seats, seat);
    // A listing without names (an ended table read back from storage): say what sat there.
    return other.kind === "bot" ? botLabel(other) : "a player";
  });
  return names.length ? `with ${names.join(", ")}` : "solo";
}

const titles = new Map();

/** Load the games' titles once, for listings that give only a game's name. */
export async function loadTitles() {
  if (titles.size) return titles;
  try {
    for (const info of (await api.games()).games) titles.set(info.name, info.title);
  } catch (error) {
    // The names will do.
  }
  return titles;
}

function titleOf(table) {
  return table.title || titles.get(table.game) || table.game;
}

function playingRow(table) {
  const mine = Boolean(table.your_turn);
  const mover = table.current_player;
  const whose = mine ? h("span", {class: "pill turn-you"}, "Your turn")
    : h("span", {class: "pill turn-other"},
      mover === null || mover === undefined ? "in play" : `${seatDisplayName(table.seats, mover)} to move`);
  return h("li", {class: mine ? "mygame your-turn" : "mygame", "data-table": table.id,
    "data-status": "playing"},
  h("div", {class: "what"},
    h("b", {}, titleOf(table), " ", whose),
    h("span", {}, withWhom(table))),
  h("a", {class: mine ? "button small primary go" : "button small go",
    href: `/play/${encodeURIComponent(table.id)}`}, mine ? "Play" : "Open"));
}

function waitingRow(table) {
  const held = tokens.of(table.id);
  const missing = (table.seats || []).filter((s) => s.kind === "human" && !s.joined);
  const invites = [];
  for (const seat of missing) {
    if (seat.seat === table.seat || !held[seat.seat]) continue;
    invites.push(h("div", {class: "mygame-invite"},
      h("span", {class: "hint"}, `Invite link for seat ${seatNumber(seat.seat)}`),
      copyControl(`Invite link for seat ${seatNumber(seat.seat)} of ${titleOf(table)}`,
        inviteLink(table.id, held[seat.seat]), `my-invite-${table.id}-${seat.seat}`, {
          title: `A game of ${titleOf(table)}`,
          text: `Come and join a game of ${titleOf(table)}: whoever opens this link first `
            + "takes the seat.",
        })));
  }
  const count = missing.filter((s) => s.seat !== table.seat).length;
  return h("li", {class: "mygame", "data-table": table.id, "data-status": "waiting"},
    h("div", {class: "what"},
      h("b", {}, titleOf(table), " ", h("span", {class: "pill"}, "Waiting")),
      h("span", {}, count ? `waiting for ${plural(count, "player")}` : "about to start")),
    h("a", {class: "button small go", href: `/play/${encodeURIComponent(table.id)}`}, "Open"),
    invites.length ? h("div", {class: "mygame-invites"}, invites) : null);
}

function resultWords(table) {
  const result = table.result || {};
  const winners = winnersOf(result.returns);
  const scores = (result.scores || []).join(" – ");
  let words;
  if (!winners.length) words = "Nobody won";
  else if (winners.includes(table.seat)) words = winners.length > 1 ? "Shared win" : "You won";
  else {
    const winner = table.seats?.[winners[0]] || {};
    const named = winner.player?.name || winner.name;
    words = named ? `${named} won` : (winner.kind === "bot" ? `The ${botLabel(winner)} won` : "Another player won");
  }
  return {words, won: winners.includes(table.seat), scores};
}

/** How a list names another seat of the table: its player, its bot, or "a player". */
function seatWord(table, seat) {
  const entry = table.seats?.[seat] || {};
  const named = entry.player?.name || entry.name;
  return named || (entry.kind === "bot" ? `the ${botLabel(entry)}` : "a player");
}

function finishedRow(table) {
  const {words, won, scores} = resultWords(table);
  const rematch = table.rematch
    ? h("a", {class: "button small", href: `/play/${encodeURIComponent(table.rematch)}`}, "Rematch")
    : h("button", {type: "button", class: "small", "data-rematch": table.id}, "Rematch");
  if (!table.rematch) {
    rematch.addEventListener("click", async () => {
      rematch.disabled = true;
      try {
        const made = await api.rematch(table.id);
        tokens.carry(table.id, made.table.id);
        location.href = `/play/${encodeURIComponent(made.table.id)}`;
      } catch (error) {
        rematch.disabled = false;
        rematch.textContent = "Rematch";
        rematch.title = error.message;
        rematch.after(h("span", {class: "mygame-problem", role: "alert"}, error.message));
      }
    });
  }
  const resigned = table.abandoned?.resigned;
  let status = table.status === "abandoned" ? "closed" : words;
  let winning = won;
  if (resigned !== undefined && resigned !== null) {
    // Given up: no scores, but a winner all the same (docs/protocol.md, "Resigning").
    winning = resigned !== table.seat;
    status = winning ? `Won: ${seatWord(table, resigned)} resigned` : "You resigned";
  }
  return h("li", {class: "mygame", "data-table": table.id, "data-status": "finished"},
    h("div", {class: "what"},
      h("b", {}, titleOf(table), " ",
        h("span", {class: winning ? "pill result won" : "pill result"}, status)),
      h("span", {}, [withWhom(table), scores ? `scores ${scores}` : null,
        ratingNote(table, table.seat), ago(table.finished_at)].filter(Boolean).join(" · "))),
    h("div", {class: "actions"},
      table.status === "finished" ? h("a", {class: "button small", href:
        `/replay/${encodeURIComponent(table.id)}`}, "Replay") : null,
      table.status === "finished" ? rematch : null));
}

function group(title, rows, extra) {
  if (!rows.length) return null;
  return h("div", {class: "mygames-group"}, h("h3", {}, title),
    h("ul", {class: "lobby-list mygames-list"}, rows), extra);
}

/**
 * Draw the player's tables into `root`; resolves to the count of games waiting for their
 * move, or null when there is no player. `section` is hidden while there is nothing to show.
 */
export async function renderMyGames(root, {section, counter, showAll = false} = {}) {
  let tables;
  try {
    [tables] = await Promise.all([api.myTables(), loadTitles()]);
  } catch (error) {
    if (error.status === 401 || error.status === 403) {
      if (section) section.hidden = true;
      return null;
    }
    throw error;
  }
  const playing = tables.playing || [];
  const turnsNow = playing.filter((t) => t.your_turn).length;
  // Nothing changed: leave the list alone, so a half-selected invite link stays selected.
  const seen = JSON.stringify(tables);
  if (root._seen === seen && !showAll) return turnsNow;
  root._seen = seen;
  const waiting = tables.waiting || [];
  const finished = tables.finished || [];
  // Keep the page where the player was reading: an open invite field or list stays open.
  const expanded = root.dataset.expanded === "1" || showAll;
  const focused = document.activeElement && root.contains(document.activeElement)
    ? document.activeElement.id : null;
  clear(root);
  const turns = turnsNow;
  if (counter) {
    counter.hidden = turns === 0;
    counter.textContent = turns === 1 ? "1 game: your turn" : `${turns} games: your turn`;
  }
  const shownFinished = expanded ? finished : finished.slice(0, FINISHED_SHOWN);
  let more = null;
  if (finished.length > shownFinished.length) {
    more = h("button", {type: "button", class: "small quiet more"},
      `Show all ${finished.length} finished games`);
    more.addEventListener("click", () => {
      root.dataset.expanded = "1";
      renderMyGames(root, {section, counter, showAll: true});
    });
  }
  const parts = [
    group("In play", playing.map(playingRow)),
    group("Waiting for players", waiting.map(waitingRow)),
    group("Finished", shownFinished.map(finishedRow), more),
  ].filter(Boolean);
  if (!parts.length) {
    root.append(h("p", {class: "empty"},
      "No games yet. Make a table, or take an open seat in the lobby."));
  } else root.append(...parts);
  if (section) section.hidden = !parts.length && section.dataset.keepEmpty !== "1";
  if (focused) document.getElementById(focused)?.focus({preventScroll: true});
  return turns;
}
