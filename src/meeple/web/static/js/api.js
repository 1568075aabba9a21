// The server's REST routes and WebSocket addresses, in one place.
import { t, translateRefusal } from "./i18n.js";

/** An error from the server, its message already translated. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** A refusal's text in the page's language: by its reason code, else the server's English. */
function refusalText(data) {
  if (!data) return t("js.error.generic");
  const english = typeof data.detail === "string" ? data.detail : data.message;
  if (typeof english !== "string") return t("js.error.generic");
  return translateRefusal(data.reason || data.code, data.params, english);
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
  if (!response.ok) throw new ApiError(response.status, refusalText(data));
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
  bots: (id) => `/api/tables/${encodeURIComponent(id)}/bots`,
  rematch: (id) => `/api/tables/${encodeURIComponent(id)}/rematch`,
  review: (id) => `/api/tables/${encodeURIComponent(id)}/review`,
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

/** Make sure there is a player: the signed-in one, else a new guest (the header is told). */
export async function ensurePlayer() {
  const user = await currentUser();
  if (user) return user;
  const guest = await api("POST", routes.guest);
  document.dispatchEvent(new CustomEvent("meeple:signed-in", { detail: guest }));
  return guest;
}
