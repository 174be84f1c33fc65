// The server's HTTP API (docs/protocol.md) and the seat tokens this browser holds.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body, token) {
  const headers = {accept: "application/json"};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
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
  replay: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay`),
  replayStep: (id, step, viewer) => request("GET",
    `/api/tables/${encodeURIComponent(id)}/replay/${step}?viewer=${viewer ?? "spectator"}`),
  // A record the browser holds (a file): its steps, or one step's view.
  replayRecord: (record) => request("POST", "/api/replay", {record}),
  replayRecordStep: (record, step, viewer) => request("POST", "/api/replay",
    {record, step, viewer: viewer ?? null}),
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
  /** A rematch keeps every seat's token: carry what we hold to the new table. */
  carry(fromId, toId) {
    const held = this.of(fromId);
    if (Object.keys(held).length) this.remember(toId, held);
  },
};

export function inviteLink(tableId, token) {
  return `${location.origin}/play/${tableId}#seat=${token}`;
}

export function spectateLink(tableId) {
  return `${location.origin}/play/${tableId}`;
}
