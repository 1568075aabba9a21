// Step through a finished game, forward and back, from the server's replay of its record.
import { api, routes } from "./api.js";
import { el, t } from "./i18n.js";
import { avatar } from "./avatar.js";
import { GAMES } from "/js/games.js";
import { describeTableEvent } from "./table_log.js";

const $ = (id) => document.getElementById(id);
const tableId = $("replay").dataset.table;
const steps = new Map(); // "seat:step" -> the server's ReplayStep
let seat = null; // whose view is shown (null: a spectator's)
let table = null;
let total = 0;
let index = 0;
let ui = null;
let actions = []; // every action event of the game, for the log (one request for all)
let review = null; // the game's review (Summy), once the server has made it

function seatName(seat) {
  const entry = table && table.seats[seat];
  if (!entry) return t("js.table.seat_n", { n: seat + 1 });
  return entry.bot ? t("bot." + entry.bot) : entry.name || t("js.table.seat_n", { n: seat + 1 });
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
  // The log: a line per action up to this step, the last one marked and kept in view.
  $("log").replaceChildren(...actions.slice(0, n).map((event, i) =>
    el("li", { class: i === n - 1 ? "current" : "" }, describeTableEvent(event, seatName, ui) || "")));
  $("log").lastElementChild?.scrollIntoView({ block: "nearest" });
  $("message").textContent = step.result ? t("js.table.game_over") : "";
}

/** A seat's review summary, under its name: points missed (Summy) or given away (Slide). */
function reviewSummary(seat) {
  const summary = review && review.summary[seat];
  if (!summary) return null;
  const share = Math.round(summary.best_share * 100);
  const text = review.game === "slide"
    ? t("js.review.slide_summary", { given: summary.given_away.toFixed(1), share })
    : t("js.review.summary", { missed: summary.missed, per: summary.missed_per_turn.toFixed(1), share });
  return el("span", { class: "line review-summary" }, text);
}

/** A Slide action in words (the review's best option). */
function slideActionText(action) {
  if (action.type === "reveal") return t("js.review.reveal", { row: action.cell[0] + 1, col: action.cell[1] + 1 });
  return t("js.review.take", { value: action.value, side: t("js.review.side_" + action.side) });
}

/** Under the board: what the next action missed, with the best move shown on the table. */
function showReview(n) {
  const line = review && review.lines[n];
  if (review && review.game === "slide") {
    if (ui.highlight) ui.highlight(line ? line.best : null, line ? line.seat : null);
  } else if (ui.showGhost) {
    ui.showGhost(line && line.best ? line.best.tiles : null);
  }
  if (!review) return;
  if (!line) { $("review-line").replaceChildren(); return; }
  const played = actions[n] ? describeTableEvent(actions[n], seatName, ui) : "";
  const next = el("span", { class: "review-next" }, `${t("js.review.next", { name: seatName(line.seat) })} · ${played}`);
  if (review.game === "slide") {
    const lost = line.given_away > 0;
    $("review-line").replaceChildren(next, el("br"),
      el("span", { class: "review-best" }, t("js.review.slide_best", {
        action: slideActionText(line.best), best: line.best_points.toFixed(1), chosen: line.chosen_points.toFixed(1) })),
      " · ", el("strong", { class: lost ? "review-missed" : "review-found" },
        lost ? t("js.review.given_away", { n: line.given_away.toFixed(1) }) : t("js.review.found")));
    return;
  }
  const analyse = el("a", { class: "review-analyse", href: `/analysis/summy#position=${encodeURIComponent(JSON.stringify(line.position))}` }, t("js.replay.analyse"));
  const best = line.best ? t("js.review.best", { equation: line.best.equation, points: line.best_score }) : t("js.review.no_move");
  const verdict = line.missed > 0 ? t("js.review.missed", { n: line.missed }) : t("js.review.found");
  $("review-line").replaceChildren(next, " · ", analyse, el("br"),
    el("span", { class: "review-best" }, best), " · ",
    el("strong", { class: line.missed > 0 ? "review-missed" : "review-found" }, verdict),
    line.strong_differs && line.best ? el("span", { class: "review-strong muted" }, ` · ${t("js.review.strong", { points: line.strong.score })}`) : "");
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
    actions = (await api("GET", routes.events(tableId))).filter((event) => event.kind === "action");
  } catch (error) {
    $("replay-error").hidden = false;
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
  const ctx = { send: () => {}, seatName, say: () => {}, replay: true };
  ui = GAMES[table.game].createUi($("game"), ctx);
  await show(0);
  loadReview();
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
