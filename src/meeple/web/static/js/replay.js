// Step through a finished game, forward and back, from the server's replay of its record.
import { api, routes } from "./api.js";
import { el, t } from "./i18n.js";
import { avatar } from "./avatar.js";
import { botName } from "./bot_names.js";
import { GAMES } from "/js/games.js";
import { describeTableEvent, standingActions } from "./table_log.js";

const $ = (id) => document.getElementById(id);
const tableId = $("replay").dataset.table;
const steps = new Map(); // "seat:step" -> the server's ReplayStep
let seat = null; // whose view is shown (null: a spectator's)
let table = null;
let total = 0;
let index = 0;
let ui = null;
let actions = []; // every action event of the game as it stands, for the log (one request)
let review = null; // the game's review, once the server has made it

function seatName(seat) {
  const entry = table && table.seats[seat];
  if (!entry) return t("js.table.seat_n", { n: seat + 1 });
  return entry.bot ? botName(table.seats, seat) : entry.name || t("js.table.seat_n", { n: seat + 1 });
}

async function fetchStep(n) {
  const key = `${seat}:${n}`;
  if (!steps.has(key)) steps.set(key, await api("GET", routes.replay(tableId, n, seat)));
  return steps.get(key);
}

async function show(n) {
  const step = await fetchStep(n);
  index = n;
  ui.update(step.view, step.events);
  $("replay-step").textContent = t("js.replay.step", { n, total });
  $("replay-first").disabled = $("replay-back").disabled = n === 0;
  $("replay-forward").disabled = $("replay-last").disabled = n === total;
  const scores = GAMES[table.game].shownScores(step.view);
  $("players").replaceChildren(...table.seats.map((entry, seat) => el("li", {},
    avatar(seatName(seat), { bot: Boolean(entry.bot) }),
    el("span", { class: "line" }, el("span", { class: "name" }, seatName(seat))),
    el("span", { class: "line" }, scores[seat] !== undefined ? t("js.table.points", { n: scores[seat] }) : ""),
    reviewSummary(seat) || "")));
  showReview(n);
  // The log: a line per action up to this step, the last one marked and kept in view
  // (at the log's end).
  $("log").replaceChildren(...actions.slice(0, n).map((event, i) =>
    el("li", { class: i === n - 1 ? "current" : "" }, describeTableEvent(event, seatName, ui) || "")));
  // Scrolled inside the log only: scrollIntoView would scroll the page too, and on a phone
  // (the log under the board) every step then carried the controls off the screen.
  $("log").scrollTop = $("log").scrollHeight;
  $("message").textContent = step.result ? t(table.aborted ? "js.table.game_aborted" : "js.table.game_over") : "";
}

/** The game's review hooks (its ui.js's `review` export), or null if it shows no review. */
function reviewHooks() {
  return (table && GAMES[table.game].review) || null;
}

/** A seat's review summary, under its name, in the game's own words. */
function reviewSummary(seat) {
  const summary = review && review.summary[seat];
  const hooks = reviewHooks();
  if (!summary || !hooks) return null;
  return el("span", { class: "line review-summary" }, hooks.summary(summary));
}

/** Under the board: what the next action missed, with the best move marked by the game. */
function showReview(n) {
  const line = review && review.lines[n];
  const hooks = reviewHooks();
  if (!hooks) return;
  hooks.mark(ui, line || null);
  if (!review) return;
  if (!line) { $("review-line").replaceChildren(); return; }
  const played = actions[n] ? describeTableEvent(actions[n], seatName, ui) : "";
  const next = el("span", { class: "review-next" }, `${t("js.review.next", { name: seatName(line.seat) })} · ${played}`);
  $("review-line").replaceChildren(next, ...hooks.line(line));
}

/** The review, asked again every few seconds while the server prepares it. */
async function loadReview() {
  $("review").hidden = false;
  try {
    review = await api("GET", routes.review(tableId));
    show(index);
  } catch (error) {
    if (error.status === 404) {
      $("review-line").textContent = t("js.review.pending");
      setTimeout(loadReview, 3000);
    } else {
      $("review-line").textContent = t("js.review.unavailable");
    }
  }
}

/** Show step `to` at once: one request (the log is already known). */
async function go(to) {
  await show(Math.max(0, Math.min(total, to)));
}

async function load() {
  try {
    table = (await api("GET", routes.table(tableId))).table;
    const first = await fetchStep(0);
    total = first.steps;
    actions = standingActions(await api("GET", routes.events(tableId))); // none taken back
  } catch (error) {
    // No replay to step through: the error and a way home, none of the empty controls.
    for (const node of $("replay").querySelectorAll(".play-area > :not(h1), .side")) node.hidden = true;
    $("replay-error").hidden = $("replay-home").hidden = false;
    $("replay-error").textContent = error.message;
    return;
  }
  $("replay").querySelector("h1").textContent = `${t("game." + table.game)} · ${document.querySelector("h1").textContent}`;
  const choice = $("replay-seat");
  choice.append(...table.seats.map((_, n) => el("option", { value: n }, seatName(n))));
  choice.addEventListener("change", () => {
    seat = choice.value === "" ? null : Number(choice.value);
    show(index);
  });
  // The whole game as text (docs/notation.md), for a game that writes its moves as text.
  if ($("replay").dataset.textGames.split(" ").includes(table.game)) {
    const download = $("replay-download");
    download.href = routes.gameText(tableId);
    download.download = `${table.game}-${tableId}.txt`;
    download.hidden = false;
  }
  const ctx = { send: () => {}, seatName, say: () => {}, replay: true };
  ui = GAMES[table.game].createUi($("game"), ctx);
  await show(0);
  if (reviewHooks()) loadReview(); // a game with no review hooks shows none
}

$("replay-first").addEventListener("click", () => go(0));
$("replay-back").addEventListener("click", () => go(index - 1));
$("replay-forward").addEventListener("click", () => go(index + 1));
$("replay-last").addEventListener("click", () => go(total));
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea, [role=application]")) return;
  if (event.key === "ArrowLeft") go(index - 1);
  else if (event.key === "ArrowRight") go(index + 1);
});
load();
