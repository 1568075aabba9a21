// The server's REST routes and WebSocket addresses, in one place.
import { t, translateMessage } from "./i18n.js";

/** An error from the server, its message already translated. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function detailText(detail) {
  if (typeof detail === "string") return translateMessage(detail);
  if (Array.isArray(detail)) return detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
  if (detail && typeof detail === "object") return translateMessage(detail.message || JSON.stringify(detail));
  return t("js.error.generic");
}

/** Call a REST route; the parsed JSON answer, or an ApiError with the server's message. */
export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method, credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("js.error.network"));
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, detailText(data && (data.detail ?? data.error ?? data.message)));
  return data;
}

/** A WebSocket URL on this server for `path`. */
export function wsUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

export const routes = {
  me: "/api/auth/me",
  register: "/api/auth/register",
  login: "/api/auth/login",
  logout: "/api/auth/logout",
  guest: "/api/auth/guest",
  tables: "/api/tables",
  quickPlay: "/api/quickplay",
  table: (id, invite) => `/api/tables/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`,
  events: (id, invite) => `/api/tables/${encodeURIComponent(id)}/events${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`,
  join: (id) => `/api/tables/${encodeURIComponent(id)}/join`,
  leave: (id) => `/api/tables/${encodeURIComponent(id)}/leave`,
  kick: (id) => `/api/tables/${encodeURIComponent(id)}/kick`,
  start: (id) => `/api/tables/${encodeURIComponent(id)}/start`,
  rematch: (id) => `/api/tables/${encodeURIComponent(id)}/rematch`,
  replay: (id, step, seat) => `/api/tables/${encodeURIComponent(id)}/replay?step=${step}${seat === null ? "" : `&seat=${seat}`}`,
  profile: (name) => `/api/users/${encodeURIComponent(name)}`,
  history: (name, game) => `/api/users/${encodeURIComponent(name)}/history/${encodeURIComponent(game)}`,
  leaderboard: (game) => `/api/leaderboard/${encodeURIComponent(game)}`,
  lobbySocket: "/ws/lobby",
  tableSocket: (id) => `/ws/tables/${encodeURIComponent(id)}`,
};

/** The signed-in player ({name, guest, ...}) or null. */
export async function currentUser() {
  try {
    return await api("GET", routes.me);
  } catch (error) {
    if (error.status === 401 || error.status === 404) return null;
    throw error;
  }
}

/** Make sure there is a player: the signed-in one, else a new guest. */
export async function ensurePlayer() {
  return (await currentUser()) || api("POST", routes.guest);
}
