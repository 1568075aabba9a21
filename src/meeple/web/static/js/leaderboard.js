// A game's leaderboard.
import { api, routes } from "./api.js";
import { el } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const game = $("leaderboard").dataset.game;

async function load() {
  let data;
  try {
    data = await api("GET", routes.leaderboard(game));
  } catch (error) {
    $("leaderboard-error").hidden = false;
    $("leaderboard-error").textContent = error.message;
    return;
  }
  const rows = (Array.isArray(data) ? data : data.players || data.entries || []);
  $("leaderboard-rows").replaceChildren(...rows.map((row, index) => el("tr", {},
    el("td", {}, row.rank ?? index + 1),
    el("td", {}, el("a", { href: `/profile/${encodeURIComponent(row.name)}` }, row.name)),
    el("td", {}, Number(row.rating ?? row.ordinal ?? 0).toFixed(1)),
    el("td", {}, row.games ?? row.played ?? "")));
  $("leaderboard-empty").hidden = rows.length > 0;
}
load();
