// The home page's tournaments: those running, then those to come, and the last finished
// (public ones, from the API).
import { api } from "./api.js";
import { el } from "./i18n.js";
import { clockText, factsText } from "./tournament_texts.js";

const list = document.getElementById("tournament-list");
const finishedList = document.getElementById("finished-tournament-list");
const FINISHED_SHOWN = 5;

function item(tournament) {
  return el("li", { class: "my-game" },
    el("a", { href: `/tournaments/${encodeURIComponent(tournament.id)}` }, tournament.name),
    el("span", { class: "muted" }, ` ${factsText(tournament)} · ${clockText(tournament)}`));
}

async function load() {
  try {
    const [running, coming, finished] = await Promise.all([
      api("GET", "/api/tournaments?status=running"),
      api("GET", "/api/tournaments?status=scheduled"),
      api("GET", "/api/tournaments?status=finished"),
    ]);
    const items = [...running, ...coming].map(item);
    list.replaceChildren(...items);
    document.getElementById("no-tournaments").hidden = items.length > 0;
    const last = finished.slice(0, FINISHED_SHOWN);
    finishedList.replaceChildren(...last.map(item));
    document.getElementById("finished-tournaments-heading").hidden = last.length === 0;
  } catch { /* the list stays as it was; the next look tries again */ }
}

load();
setInterval(load, 30000);
