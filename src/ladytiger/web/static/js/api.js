// The server's HTTP API (docs/protocol.md), the player this browser is, and the seat tokens
// it holds.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// ------------------------------------------------------------------ the player
// The player's secret is the only proof of being them: it stays in this browser (and in the
// personal link the player chooses to copy), and goes to the server in a header only.
const PLAYER_KEY = "ladytiger.player";

export const identity = {
  /** {secret, id, name} or null. */
  get() {
    try {
      const held = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
      if (held && typeof held.secret === "string" && held.secret) return held;
      // Another tab may have forgotten the player; only a refused write falls back.
      return stored ? null : memory;
    } catch (error) {
      return memory;
    }
  },
  secret() {
    return this.get()?.secret || null;
  },
  set(entry) {
    memory = {secret: entry.secret, id: entry.id || null, name: entry.name || null};
    try {
      localStorage.setItem(PLAYER_KEY, JSON.stringify(memory));
      stored = true;
    } catch (error) {
      // Private browsing may refuse storage: the player lasts as long as the page.
    }
  },
  /** Keep the name and id up to date without touching the secret. */
  update(player) {
    const held = this.get();
    if (held && player) this.set({...held, id: player.id, name: player.name});
  },
  clear() {
    memory = null;
    try {
      localStorage.removeItem(PLAYER_KEY);
    } catch (error) {
      // Nothing was kept.
    }
  },
};
let memory = null;
let stored = false;

function playerSecret() {
  return identity.secret();
}

// `auth`: a seat token (sent as Bearer), a {player: SECRET} to act as that player, false to
// send nothing, or undefined to act as the player this browser is, if any.
async function request(method, path, body, auth) {
  const headers = {accept: "application/json"};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (typeof auth === "string" && auth) headers.authorization = `Bearer ${auth}`;
  else if (auth && auth.player) headers.authorization = `Player ${auth.player}`;
  let implicit = null;
  if (auth === undefined || auth === null) {
    implicit = playerSecret();
    if (implicit) headers.authorization = `Player ${implicit}`;
  }
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "network", "the server cannot be reached; is it running?");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const problem = (data && data.error) || {};
    if (implicit && problem.code === "unknown_player") {
      // The server no longer knows this browser's player (its database was replaced): the
      // request still stands on its own, so ask again as nobody.
      identity.clear();
      return request(method, path, body, false);
    }
    throw new ApiError(response.status, problem.code || "http",
      problem.message || `the server answered ${response.status}`);
  }
  return data;
}

export const api = {
  games: () => request("GET", "/api/games"),
  bots: () => request("GET", "/api/bots"),
  tables: (status) => request("GET", `/api/tables?status=${encodeURIComponent(status)}`),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (spec) => request("POST", "/api/tables", spec),
  join: (id, seat) => request("POST", `/api/tables/${encodeURIComponent(id)}/join`,
    seat === undefined ? {} : {seat}),
  rematch: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`,
    {}, token),
  leave: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`,
    {}, token),
  close: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/close`,
    {}, token),
  // bot null: open the empty invited seats to the lobby instead of seating bots there.
  fill: (id, token, bot) => request("POST", `/api/tables/${encodeURIComponent(id)}/fill`,
    bot === null ? {lobby: true} : {bot}, token),
  resign: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/resign`,
    {}, token),
  replay: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay`),
  replayStep: (id, step, viewer) => request("GET",
    `/api/tables/${encodeURIComponent(id)}/replay/${step}?viewer=${viewer ?? "spectator"}`),
  // A record the browser holds (a file): its steps, or one step's view.
  replayRecord: (record) => request("POST", "/api/replay", {record}),
  replayRecordStep: (record, step, viewer) => request("POST", "/api/replay",
    {record, step, viewer: viewer ?? null}),
  // Players (docs/protocol.md, "Players").
  newPlayer: (name) => request("POST", "/api/players", name ? {name} : {}, false),
  me: (secret) => request("GET", "/api/me", undefined, secret ? {player: secret} : undefined),
  rename: (name) => request("POST", "/api/me", {name}),
  myTables: () => request("GET", "/api/me/tables"),
  player: (id) => request("GET", `/api/players/${encodeURIComponent(id)}`),
  leaderboard: (game) => request("GET", `/api/leaderboard/${encodeURIComponent(game)}`),
};

// Tokens this browser was given (when it created a table or claimed a seat), so the creator's
// waiting room can show every invite link and a rematch can hand them on. They stay in this
// browser only: the server keeps digests and never shows a token twice.
const KEY = "ladytiger.tokens";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch (error) {
    return {};
  }
}

function save(all) {
  try {
    // Keep the most recent tables only.
    const ids = Object.keys(all);
    for (const id of ids.slice(0, Math.max(0, ids.length - 100))) delete all[id];
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch (error) {
    // Private browsing may refuse storage; the links in the page still work.
  }
}

export const tokens = {
  /** {seat: token} for a table. */
  of(tableId) {
    return load()[tableId] || {};
  },
  remember(tableId, seatTokens) {
    const all = load();
    const entry = {...(all[tableId] || {})};
    for (const [seat, token] of Object.entries(seatTokens)) entry[seat] = token;
    delete all[tableId];
    all[tableId] = entry;
    save(all);
  },
  /** A seat given back (docs/protocol.md, "Giving a lobby seat back"): its token is void. */
  forget(tableId, seat) {
    const all = load();
    if (!all[tableId]) return;
    delete all[tableId][seat];
    save(all);
  },
  /** A rematch keeps every seat's token: carry what we hold to the new table. */
  carry(fromId, toId) {
    const held = this.of(fromId);
    if (Object.keys(held).length) this.remember(toId, held);
  },
  /** Forget every token (the player asked this browser to forget them). */
  forgetAll() {
    try {
      localStorage.removeItem(KEY);
    } catch (error) {
      // Nothing was kept.
    }
  },
};

export function inviteLink(tableId, token) {
  return `${location.origin}/play/${tableId}#seat=${token}`;
}

export function spectateLink(tableId) {
  return `${location.origin}/play/${tableId}`;
}

export function personalLink(secret) {
  return `${location.origin}/me#player=${secret}`;
}
