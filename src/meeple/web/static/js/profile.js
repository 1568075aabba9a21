// A player's profile: games played and won per game, the rating chart, recent games; to
// follow the player and challenge them.
import { api, currentUser, routes } from "./api.js";
import { ratingChart } from "./chart.js";
import { el, t } from "./i18n.js";
import { avatar } from "./avatar.js";
import { outcome } from "./outcome.js";
import { botMark, nameText } from "./names.js";
import { followButton } from "./follow.js";
import { ratingText } from "./rating.js";
import { GAMES } from "/js/games.js";

const $ = (id) => document.getElementById(id);
const name = $("profile").dataset.name;
const GAME_NAMES = Object.keys(GAMES);
$("profile").querySelector("h1").prepend(avatar(name, { size: "large" }));

/** A catalog text filled with "\u0000" where `node` goes: its pieces around the node. */
function withNode(text, node) {
  const [before, after = ""] = text.split("\u0000");
  return [before, node, after];
}

async function load() {
  let data;
  try {
    data = await api("GET", routes.profile(name));
  } catch (error) {
    $("profile-error").hidden = false;
    $("profile-error").textContent = error.message;
    return;
  }
  showOwnSpelling(data.user.name);
  showActions(data.user);
  if (data.user.bot) $("profile").querySelector("h1").append(" ", botMark());
  const ratings = new Map(data.ratings.map((r) => [r.game, r]));
  const finished = data.finished || {};
  const won = data.won || {};
  // Played and won count the same games (every finished one, rated or not); the rated
  // ones, which alone move the rating, are counted apart.
  const stats = GAME_NAMES.filter((game) => ratings.has(game) || finished[game]).map((game) => {
    const rating = ratings.get(game);
    return el("div", { class: "stat", dataset: { game } }, el("strong", {}, t("game." + game)), el("br"),
      el("span", { class: "played" }, t("js.profile.played", { n: finished[game] ?? 0 })), " · ",
      el("span", { class: "won" }, t("js.profile.won", { n: won[game] ?? 0 })),
      rating ? el("span", {}, " · ", t("js.profile.rated_games", { n: rating.games }), " · ",
        ...withNode(t("js.profile.rating", { rating: "\u0000" }), ratingText(rating.rating, rating.provisional))) : null);
  });
  $("profile-games").replaceChildren(...(stats.length ? stats : [el("p", {}, t("js.profile.no_games"))]));
  const series = {};
  for (const game of GAME_NAMES) {
    try {
      const points = await api("GET", routes.history(name, game));
      series[game] = points.map((p) => ({ at: p.at * 1000, rating: p.rating }));
      if (points.length) {  // where the player started, a little before the first game
        const span = Math.max(3600e3, (points[points.length - 1].at - points[0].at) * 100);
        series[game].unshift({ at: points[0].at * 1000 - span, rating: points[0].previous });
      }
    } catch { series[game] = []; }
  }
  const chart = ratingChart(series, t("js.profile.chart_label", { name }),
    Object.fromEntries(GAME_NAMES.map((game) => [game, t("game." + game)])),
    Object.fromEntries(GAME_NAMES.map((game) => [game, GAMES[game].colour])));
  $("profile-chart").replaceChildren(chart || el("p", { class: "muted" }, t("js.profile.no_ratings")));
  $("profile-recent").replaceChildren(...(data.recent_tables || []).map(recentLine));
}

/** A recent table: game and date (the link), the opponents, the scores and how it went. */
function recentLine(table) {
  const when = new Date(table.created_at * 1000).toLocaleString(document.documentElement.lang);
  const label = `${t("game." + table.game)} · ${when}`;
  const finished = table.status === "finished";
  const link = el("a", { href: `/${finished ? "replay" : "table"}/${encodeURIComponent(table.id)}` }, label);
  const players = table.players || [];
  const nameOf = (p) => (p.bot ? t("bot." + p.bot) : p.name ? nameText(p.name, p.bot_account) : t("js.table.free_seat"));
  const others = players.filter((p) => p.seat !== table.seat && (p.name || p.bot));
  const parts = [];
  if (others.length) parts.push(t("js.profile.against", { names: others.map(nameOf).join(", ") }));
  const result = finished ? table.result : null;
  if (result && table.seat !== null && table.seat !== undefined) {
    // The player's score first, then the others' in seat order: "120–95".
    const seats = [table.seat, ...others.map((p) => p.seat)];
    parts.push(seats.map((s) => result.scores[s]).join("–"));
    const how = outcome(result.ranks, table.seat);
    parts.push(el("strong", { class: `outcome-word ${how.kind}` }, t(`js.profile.outcome_${how.kind}`, how)));
    if (table.aborted) parts.push(el("em", { class: "aborted" }, t("js.profile.aborted")));
  } else if (!finished) {
    parts.push(t(`js.profile.status_${table.status}`));
  }
  return el("li", { dataset: { table: table.id } }, link, ...parts.flatMap((part) => [" · ", part]));
}

/** Follow and Challenge, on someone else's profile (one's own has neither). */
async function showActions(player) {
  const me = await currentUser().catch(() => null);
  if (me && me.id === player.id) return;
  const challenge = el("button", {
    type: "button", id: "profile-challenge", class: "primary",
    onclick: async () => (await import("./challenge_dialog.js")).openChallenge(player.name, player.bot),
  }, t("js.friends.challenge"));
  $("profile-actions").replaceChildren(await followButton(player.name, me), challenge);
  $("profile-actions").hidden = false;
}

// Names are found by their normal form (/profile/bob is Bob's): show the name and the
// address as the player spelt them.
function showOwnSpelling(own) {
  if (own === name) return;
  $("profile").querySelector("h1").replaceChildren(avatar(own, { size: "large" }), own);
  document.title = document.title.replace(name, own);
  history.replaceState(null, "", `/profile/${encodeURIComponent(own)}`);
}

load();
