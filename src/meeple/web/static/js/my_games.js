// My games: the player's live tables, those waiting for their move first, each with the
// game, the opponents (bots marked), the time left on the player's clock and the last
// move. The list is fetched again whenever the tab's account socket brings a new count.
import { api, ApiError, showRefusal } from "./api.js";
import { el, lang, t } from "./i18n.js";
import { onUserLine } from "./me_socket.js";

const $ = (id) => document.getElementById(id);
const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

function gameName(game) {
  const name = t(`game.${game}`);
  return name === `game.${game}` ? game : name;
}

/** A span of time in the page's language, in its largest whole unit ("2 days", "5 hours"). */
export function spanText(seconds) {
  const left = Math.max(0, Number(seconds) || 0);
  const [unit, size] = UNITS.find(([, size]) => left >= size) ?? ["second", 1];
  const value = Math.max(1, Math.floor(left / size));
  return new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(value);
}

/** How long ago `at` (seconds since the epoch) was, in the page's language. */
function agoText(at) {
  const ago = Math.max(0, Date.now() / 1000 - at);
  const [unit, size] = UNITS.find(([, size]) => ago >= size) ?? ["second", 1];
  return new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(-Math.floor(ago / size), unit);
}

function opponentText(opponent) {
  const name = opponent.name ?? "?";
  return opponent.bot ? t("js.my_games.bot_name", { name }) : name;
}

/** The last move in words: who did what, how long ago. */
function lastMoveText(move) {
  if (!move) return "";
  const values = { name: move.name ?? "?", when: agoText(move.at) };
  if (move.kind === "action" && move.by === "timeout") return t("js.my_games.last_timeout", values);
  if (move.kind === "action") return t("js.my_games.last_action", values);
  if (move.kind === "start") return t("js.my_games.last_start", values);
  if (move.kind === "join") return t("js.my_games.last_join", values);
  return t("js.my_games.last_other", values);
}

function statusText(table) {
  if (table.status === "open") return t("js.my_games.waiting_players", { count: table.free_seats });
  if (table.my_turn) {
    return table.time_left_s === null
      ? t("js.my_games.your_turn")
      : t("js.my_games.your_turn_left", { left: spanText(table.time_left_s) });
  }
  return t("js.my_games.their_turn");
}

function row(table) {
  const opponents = table.opponents.map(opponentText).join(", ") || "—";
  return el("li", { class: table.my_turn ? "my-game mine" : "my-game", dataset: { table: table.id, myTurn: String(table.my_turn) } },
    el("a", { href: `/tables/${encodeURIComponent(table.id)}`, class: "my-game-link" },
      el("strong", {}, gameName(table.game)),
      " ",
      el("span", {}, t("js.my_games.against", { opponents }))),
    el("span", { class: table.my_turn ? "my-game-status turn" : "my-game-status" }, statusText(table)),
    el("span", { class: "my-game-last muted" }, lastMoveText(table.last_move)));
}

let loading = null;
let again = false;

async function load() {
  if (loading) { again = true; return; }
  loading = (async () => {
    try {
      const answer = await api("GET", "/api/me/tables");
      $("my-games-error").hidden = true;
      $("my-games-signin").hidden = true;
      $("my-games-empty").hidden = answer.tables.length > 0;
      $("my-games-list").replaceChildren(...answer.tables.map(row));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        $("my-games-signin").hidden = false;
        $("my-games-list").replaceChildren();
      } else {
        showRefusal($("my-games-error"), error);
      }
    }
  })();
  await loading;
  loading = null;
  if (again) { again = false; await load(); }
}

load();
// A new count: a turn began or ended at one of the tables; read the list again.
onUserLine("my_turns", () => load());
document.addEventListener("meeple:signed-in", () => load());
