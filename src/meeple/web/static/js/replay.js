// Step through a finished game, forward and back, from the server's replay of its record.
import { api, routes } from "./api.js";
import { el, t } from "./i18n.js";
import { createSlide } from "./slide.js";
import { createSummy } from "./summy.js";

const $ = (id) => document.getElementById(id);
const tableId = $("replay").dataset.table;
let steps = [];
let names = [];
let index = 0;
let ui = null;

const seatName = (seat) => names[seat] || t("js.table.seat_n", { n: seat + 1 });

function show() {
  const step = steps[index];
  ui.update(step.view);
  $("replay-step").textContent = t("js.replay.step", { n: index, total: steps.length - 1 });
  $("replay-first").disabled = $("replay-back").disabled = index === 0;
  $("replay-forward").disabled = $("replay-last").disabled = index === steps.length - 1;
  const scores = step.view.scores || step.view.totals || [];
  $("players").replaceChildren(...names.map((_, seat) => el("li", { class: (step.view.to_act || []).includes(seat) ? "to-act" : "" },
    seatName(seat), el("br"), scores[seat] !== undefined ? t("js.table.points", { n: scores[seat] }) : "")));
  $("log").replaceChildren(...steps.slice(1, index + 1).map((s) => el("li", {}, (s.events || []).map((e) => ui.describe(e)).filter(Boolean).join(" · ") || s.text || "")));
}

function go(to) {
  index = Math.max(0, Math.min(steps.length - 1, to));
  show();
}

async function load() {
  let data;
  try {
    data = await api("GET", routes.replay(tableId));
  } catch (error) {
    $("replay-error").hidden = false;
    $("replay-error").textContent = error.message;
    return;
  }
  steps = data.steps;
  names = (data.seats || data.players || []).map((seat) => (typeof seat === "string" ? seat : seat && seat.name));
  const ctx = { send: () => {}, seatName, say: (text) => { $("message").textContent = text; } };
  ui = data.game === "slide" ? createSlide($("game"), ctx) : createSummy($("game"), ctx);
  go(0);
}

$("replay-first").addEventListener("click", () => go(0));
$("replay-back").addEventListener("click", () => go(index - 1));
$("replay-forward").addEventListener("click", () => go(index + 1));
$("replay-last").addEventListener("click", () => go(steps.length - 1));
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowLeft") go(index - 1);
  else if (event.key === "ArrowRight") go(index + 1);
});
load();
