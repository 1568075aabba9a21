// A player's profile: games played and won per game, the rating chart, recent games.
import { api, routes } from "./api.js";
import { ratingChart } from "./chart.js";
import { el, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const name = $("profile").dataset.name;

async function load() {
  let data;
  try {
    data = await api("GET", routes.profile(name));
  } catch (error) {
    $("profile-error").hidden = false;
    $("profile-error").textContent = error.message;
    return;
  }
  const games = data.games || {};
  $("profile-games").replaceChildren(...Object.entries(games).map(([game, stats]) => el("div", { class: "stat" },
    el("strong", {}, t("game." + game)), el("br"),
    t("js.profile.played", { n: stats.played ?? 0 }), " · ", t("js.profile.won", { n: stats.won ?? 0 }),
    stats.rating !== undefined && stats.rating !== null ? el("span", {}, " · ", t("js.profile.rating", { rating: Number(stats.rating).toFixed(1) })) : null)));
  if (!Object.keys(games).length) $("profile-games").textContent = t("js.profile.no_games");
  const history = data.history || data.rating_history || {};
  const names = { summy: t("game.summy"), slide: t("game.slide") };
  const chart = ratingChart(history, t("js.profile.chart_label", { name }), names);
  $("profile-chart").replaceChildren(chart || el("p", { class: "muted" }, t("js.profile.no_ratings")));
  $("profile-recent").replaceChildren(...(data.recent || []).map((game) => el("li", {},
    el("a", { href: `/replay/${encodeURIComponent(game.table_id ?? game.id)}` }, `${t("game." + game.game)} · ${new Date(game.finished_at || game.at).toLocaleString()}`),
    game.rank ? ` · ${t("js.profile.rank", { rank: game.rank })}` : "")));
}
load();
