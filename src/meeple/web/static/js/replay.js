// Step through a finished game, forward and back, from the server's replay of its record.
import { api, routes } from "./api.js";
import { el, t } from "./i18n.js";
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
  $("players").replaceChildren(...table.seats.map((_, seat) => el("li", {},
    seatName(seat), el("br"), scores[seat] !== undefined ? t("js.table.points", { n: scores[seat] }) : "")));
  const line = describeTableEvent({ kind: "action", seat: step.action ? step.action[0] : null, data: { events: step.events } }, seatName, ui);
  if (n > 0) {
    const items = [...$("log").children];
    if (items.length >= n) items.slice(n - 1).forEach((item) => item.remove());
    $("log").append(el("li", {}, line));
  } else {
    $("log").replaceChildren();
  }
  $("message").textContent = step.result ? t("js.table.game_over") : "";
}

async function go(to) {
  const target = Math.max(0, Math.min(total, to));
  // Fill the log for every step up to the target, in order.
  if (target > index + 1) for (let n = index + 1; n < target; n++) await show(n);
  await show(target);
}

async function load() {
  try {
    table = (await api("GET", routes.table(tableId))).table;
    const first = await fetchStep(0);
    total = first.steps;
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
