// A game's leaderboard.
import { api, routes } from "./api.js";
import { el } from "./i18n.js";
import { avatar } from "./avatar.js";
import { ratingText } from "./rating.js";

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
  const rows = data;
  $("leaderboard-rows").replaceChildren(...rows.map((row) => el("tr", {},
    el("td", {}, row.place),
    el("td", {}, el("a", { class: "player-link", href: `/profile/${encodeURIComponent(row.name)}` }, avatar(row.name), row.name)),
    el("td", {}, ratingText(row.rating, row.provisional)),
    el("td", {}, row.games))));
  $("leaderboard-empty").hidden = rows.length > 0;
}
load();
