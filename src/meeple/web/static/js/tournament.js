// A tournament's page: its settings, a countdown to its start (an arena: to its end), the
// standings, the newest round's games with links to watch them, the player's own game,
// join, withdraw, pause and resume, and for its creator cancel, built-in bots and the
// private link. Live over the tournament socket; read from the REST API every few seconds
// while that socket is down.
import { api, currentUser, routes, showRefusal, wsUrl } from "./api.js";
import { el, t } from "./i18n.js";
import { clockText, factsText } from "./tournament_texts.js";

const $ = (id) => document.getElementById(id);
const section = $("tournament");
const id = section.dataset.id;
const secret = section.dataset.secret;
const query = secret ? `?secret=${encodeURIComponent(secret)}` : "";
const base = `/api/tournaments/${encodeURIComponent(id)}`;
const EVERY_MS = 5000;
let me = null;
let shown = null;
let live = false;

function playerNodes(player, withdrawn = false, paused = false) {
  const name = player.bot ? t("js.tournament.bot_name", { name: player.name }) : player.name;
  const link = el("a", { href: `/profile/${encodeURIComponent(player.name)}` }, name);
  if (withdrawn) return [link, " ", t("js.tournament.withdrawn")];
  return paused ? [link, " ", t("js.tournament.paused")] : [link];
}

function standingRow(row, arena) {
  const tieBreak = arena ? row.wins : Number(row.buchholz).toFixed(1);
  const mine = me && row.player.id === me.id;
  return el("tr", { class: mine ? "mine" : "" },
    el("td", {}, row.rank),
    el("td", {}, ...playerNodes(row.player, row.withdrawn, row.paused), row.on_fire ? ` ${t("js.tournament.on_fire")}` : ""),
    el("td", {}, row.points),
    el("td", {}, tieBreak),
    el("td", {}, row.games));
}

function gameItem(game) {
  const names = game.players.map((player) => playerNodes(player)).flatMap((nodes, index) => (index ? [" – ", ...nodes] : nodes));
  const state = game.status === "finished" ? t("js.tournament.game_over") : t("js.tournament.game_on");
  return el("li", { class: "my-game" },
    el("span", {}, t("js.tournament.board", { board: game.board }), " ", ...names, " · ", state, " "),
    el("a", { href: `/tables/${encodeURIComponent(game.table_id)}` }, t("js.tournament.watch")));
}

function showRounds(rounds) {
  const newest = rounds[0];
  $("pairings-empty").hidden = Boolean(newest);
  $("pairings-round").textContent = newest ? t("js.tournament.round", { round: newest.round }) : "";
  const items = newest ? newest.games.map(gameItem) : [];
  for (const player of newest?.byes ?? []) items.push(el("li", { class: "my-game" }, t("js.tournament.bye", { name: player.name })));
  $("pairings-list").replaceChildren(...items);
  const mine = me && rounds.flatMap((round) => round.games)
    .find((game) => game.status === "playing" && game.players.some((player) => player.id === me.id));
  $("tournament-next").hidden = !mine;
  if (mine) $("tournament-next-link").href = `/tables/${encodeURIComponent(mine.table_id)}`;
}

function show(tournament) {
  shown = tournament;
  document.title = tournament.name;
  $("tournament-name").textContent = tournament.name;
  $("tournament-facts").textContent = factsText(tournament);
  $("tournament-clock").textContent = clockText(tournament);
  const arena = tournament.format === "arena";
  $("tie-break-heading").textContent = arena ? t("js.tournament.wins") : t("js.tournament.buchholz");
  $("standings-rows").replaceChildren(...tournament.standings.map((row) => standingRow(row, arena)));
  $("standings-empty").hidden = tournament.standings.length > 0;
  const open = tournament.status === "scheduled" || tournament.status === "running";
  const mine = me && tournament.standings.find((row) => row.player.id === me.id && !row.withdrawn);
  $("tournament-join").hidden = !me || !open || Boolean(mine);
  $("tournament-withdraw").hidden = !me || !open || !mine;
  $("tournament-pause").hidden = !open || !mine || mine.paused;
  $("tournament-resume").hidden = !open || !mine || !mine.paused;
  const creator = me && tournament.creator_id === me.id;
  $("tournament-cancel").hidden = !creator || tournament.status !== "scheduled";
  $("tournament-bots").hidden = !creator || !open || tournament.rated;
  $("tournament-link").hidden = !creator || !tournament.secret;
  if (creator && tournament.secret) {
    const link = `${location.origin}/tournaments/${encodeURIComponent(id)}?secret=${encodeURIComponent(tournament.secret)}`;
    $("tournament-link-url").textContent = link;
    $("tournament-link-url").href = link;
  }
}

function showError(error) {
  $("tournament-error").hidden = !error;
  if (error) showRefusal($("tournament-error"), error);
}

async function load() {
  try {
    const [tournament, rounds] = await Promise.all([api("GET", base + query), api("GET", `${base}/pairings${query}`)]);
    showError(null);
    show(tournament);
    showRounds(rounds);
  } catch (error) {
    showError(error);
  }
}

async function act(path, body) {
  try {
    show(await api("POST", `${base}/${path}`, body));
    showError(null);
  } catch (error) {
    showError(error);
  }
}

/** The tournament socket: the tournament and its rounds now, then at every change. */
function follow(delay = 1000) {
  const socket = new WebSocket(wsUrl(routes.tournamentSocket(id) + query));
  socket.onopen = () => { delay = 1000; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "tournament") return;
    live = true;
    showError(null);
    show(message.tournament);
    showRounds(message.rounds);
  };
  socket.onclose = () => {
    live = false;
    setTimeout(() => follow(Math.min(delay * 2, 30000)), delay);
  };
}

$("tournament-join").addEventListener("click", () => act("join", secret ? { secret } : undefined));
$("tournament-withdraw").addEventListener("click", () => act("withdraw"));
$("tournament-pause").addEventListener("click", () => act("pause", { paused: true }));
$("tournament-resume").addEventListener("click", () => act("pause", { paused: false }));
$("tournament-cancel").addEventListener("click", () => act("cancel"));
$("tournament-bots").addEventListener("submit", (event) => {
  event.preventDefault();
  act("bots", { level: $("tournament-bot-level").value, count: Number($("tournament-bot-count").value) });
});
me = await currentUser();
await load();
follow();
setInterval(() => { if (!live) load(); }, EVERY_MS);
setInterval(() => { if (shown) $("tournament-clock").textContent = clockText(shown); }, 1000);
