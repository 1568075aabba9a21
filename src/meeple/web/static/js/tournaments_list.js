// The home page's tournaments: those running, then those to come (public ones, from the API).
import { api } from "./api.js";
import { el } from "./i18n.js";
import { clockText, factsText } from "./tournament_texts.js";

const list = document.getElementById("tournament-list");

function item(tournament) {
  return el("li", { class: "my-game" },
    el("a", { href: `/tournaments/${encodeURIComponent(tournament.id)}` }, tournament.name),
    el("span", { class: "muted" }, ` ${factsText(tournament)} · ${clockText(tournament)}`));
}

async function load() {
  try {
    const [running, coming] = await Promise.all([
      api("GET", "/api/tournaments?status=running"),
      api("GET", "/api/tournaments?status=scheduled"),
    ]);
    const items = [...running, ...coming].map(item);
    list.replaceChildren(...items);
    document.getElementById("no-tournaments").hidden = items.length > 0;
  } catch { /* the list stays as it was; the next look tries again */ }
}

load();
setInterval(load, 30000);
