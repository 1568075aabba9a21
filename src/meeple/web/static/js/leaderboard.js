// A game's leaderboard: people's, or with ?bots=true the bot accounts' (each has its own).
import { api, routes } from "./api.js";
import { el } from "./i18n.js";
import { nameNodes } from "./names.js";
import { avatar } from "./avatar.js";
import { ratingText } from "./rating.js";

const $ = (id) => document.getElementById(id);
const game = $("leaderboard").dataset.game;
const bots = new URLSearchParams(location.search).get("bots") === "true";

async function load() {
  let data;
  try {
    data = await api("GET", routes.leaderboard(game) + (bots ? "?bots=true" : ""));
  } catch (error) {
    $("leaderboard-error").hidden = false;
    $("leaderboard-error").textContent = error.message;
    return;
  }
  const rows = data;
  $("leaderboard-rows").replaceChildren(...rows.map((row) => el("tr", {},
    el("td", {}, row.place),
    el("td", {}, el("a", { class: "player-link", href: `/profile/${encodeURIComponent(row.name)}` }, avatar(row.name), ...nameNodes(row.name, row.bot))),
    el("td", {}, ratingText(row.rating, row.provisional)),
    el("td", {}, row.games))));
  $("leaderboard-empty").hidden = rows.length > 0;
}

// The toggle between the two boards says which one is shown.
if (bots) $("board-bots").setAttribute("aria-current", "page");
else $("board-people").setAttribute("aria-current", "page");
load();
