// The server's REST routes and WebSocket addresses, in one place.
import { el, t, translateRefusal } from "./i18n.js";

/**
 * An error from the server, its message already translated; `reason` its code (`params` its
 * blanks), and for a 429 `retryAfter` (seconds). `signIn`: signing in gets around it (no
 * new guest).
 */
export class ApiError extends Error {
  constructor(status, message, data = null) {
    super(message);
    this.status = status;
    this.reason = data ? data.reason || data.code || null : null;
    this.params = data && data.params ? data.params : null; // the blanks of its reason's text
    this.retryAfter = data && typeof data.retry_after === "number" ? data.retry_after : null;
    this.signIn = this.reason === "rate_limited_guest";
  }
}

/**
 * Show a refusal in `node`: its message, and when signing in gets around it a link to the
 * sign-in page (coming back here after).
 */
export function showRefusal(node, error) {
  node.textContent = error ? error.message : "";
  if (!error || !error.signIn) return;
  const back = encodeURIComponent(location.pathname + location.search);
  node.append(" ", el("a", { href: `/signin?next=${back}`, class: "refusal-sign-in" }, t("js.account.sign_in")));
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
  if (!response.ok) throw new ApiError(response.status, refusalText(data), data);
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
  password: "/api/auth/password",
  account: "/api/account",
  signOutEverywhere: "/api/account/signout-everywhere",
  deleteAccount: "/api/account/delete",
  tokens: "/api/account/tokens",
  token: (id) => `/api/account/tokens/${encodeURIComponent(id)}`,
  botAccount: "/api/account/bot",
  tables: "/api/tables",
  quickPlay: "/api/quickplay",
  table: (id, invite) => `/api/tables/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`,
  events: (id, invite) => `/api/tables/${encodeURIComponent(id)}/events${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`,
  join: (id) => `/api/tables/${encodeURIComponent(id)}/join`,
  chat: (id, invite) => `/api/tables/${encodeURIComponent(id)}/chat${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`,
  leave: (id) => `/api/tables/${encodeURIComponent(id)}/leave`,
  kick: (id) => `/api/tables/${encodeURIComponent(id)}/kick`,
  start: (id) => `/api/tables/${encodeURIComponent(id)}/start`,
  bots: (id) => `/api/tables/${encodeURIComponent(id)}/bots`,
  rematch: (id) => `/api/tables/${encodeURIComponent(id)}/rematch`,
  hint: (id) => `/api/tables/${encodeURIComponent(id)}/hint`,
  takeback: (id) => `/api/tables/${encodeURIComponent(id)}/takeback`,
  review: (id) => `/api/tables/${encodeURIComponent(id)}/review`,
  replay: (id, step, seat) => `/api/tables/${encodeURIComponent(id)}/replay?step=${step}${seat === null ? "" : `&seat=${seat}`}`,
  gameText: (id) => `/api/tables/${encodeURIComponent(id)}/text`,
  profile: (name) => `/api/users/${encodeURIComponent(name)}`,
  history: (name, game) => `/api/users/${encodeURIComponent(name)}/history/${encodeURIComponent(game)}`,
  leaderboard: (game) => `/api/leaderboard/${encodeURIComponent(game)}`,
  lobbySocket: "/ws/lobby",
  tournamentSocket: (id) => `/ws/tournaments/${encodeURIComponent(id)}`,
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
