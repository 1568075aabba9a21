// A game's tutorial: its scripted steps on the game's own board (its ui.js, as at a table), each
// move checked by the game's engine on the server (/api/tutorials/{game}); a refusal is said in
// the engine's own words. The game's optional `learn` hooks show a step and hold the board still
// once the step is done; without them the view is shown as it is.
import { api } from "./api.js";
import { el, t, translateRefusal } from "./i18n.js";
import { GAMES } from "/js/games.js";

const $ = (id) => document.getElementById(id);
const root = $("learn");
const game = root.dataset.game;
const module = GAMES[game];
const hooks = { show: (ui, view, events = []) => ui.update(view, events), still: (view) => view, ...(module.learn || {}) };
const base = `/api/tutorials/${encodeURIComponent(game)}`;
/** "done" once the tutorial is finished (the table page then offers it no more). */
const MEMORY = `meeple.learn.${game}`;

let steps = [];
let at = 0;
const done = new Set();
let ui = null;

function say(text, kind) {
  $("message").textContent = text || "";
  $("message").className = `message ${kind || ""}`.trim();
}

/** The learner is "you"; the other seats (a Slide opponent) are players by number. */
function seatName(seat) {
  const mine = steps[at] ? steps[at].seat : 0;
  return seat === mine ? t("js.learn.you") : t("js.learn.player_n", { n: Number(seat) + 1 });
}

function drawSteps() {
  $("learn-progress").textContent = t("js.learn.progress", { n: at + 1, total: steps.length });
  $("learn-steps").replaceChildren(...steps.map((step, index) => el("li", { class: done.has(index) ? "done" : null },
    el("button", {
      type: "button", class: "link", "aria-current": index === at ? "step" : null,
      onclick: () => { show(index); $("learn-step-title").focus(); },
    }, step.title),
    done.has(index) ? el("span", { class: "learn-tick" }, " ✓", el("span", { class: "sr" }, ` ${t("js.learn.step_done")}`)) : null)));
}

/** Step `index`: its words above the board, its position on it, ready to play. */
function show(index) {
  at = index;
  const step = steps[at];
  $("learn-step-title").textContent = step.title;
  $("learn-step-text").textContent = step.text;
  $("learn-step-text").hidden = false;
  $("learn-done").hidden = true;
  $("learn-finished").hidden = true;
  $("game").inert = false;
  say("", "");
  hooks.show(ui, step.view);
  drawSteps();
}

async function send(action) {
  const step = at;
  let verdict;
  try {
    verdict = await api("POST", `${base}/${step}`, { action });
  } catch (error) {
    say(error.message, "bad");
    ui.refused();
    return;
  }
  if (step !== at) return; // another step was chosen meanwhile
  if (!verdict.ok) {
    const params = module.showParams ? module.showParams(verdict.params) : verdict.params;
    say(translateRefusal(verdict.reason, params, verdict.message || t("js.error.generic")), "bad");
    ui.refused();
    return;
  }
  done.add(step);
  // The position after the move, at rest: read, not played on (Next goes on).
  $("game").inert = true;
  say("", "");
  const points = module.shownScores(verdict.view)[steps[step].seat];
  $("learn-done-text").textContent = `${t("js.learn.well_done")} ${steps[step].done}`;
  $("learn-points").textContent = points === undefined ? "" : t("js.learn.points", { n: points });
  $("learn-next").hidden = step === steps.length - 1;
  // What the step taught takes the place of what it asked, where the eyes start.
  $("learn-step-text").hidden = true;
  $("learn-done").hidden = false;
  // Every step done (in any order): every kind of move made once.
  const finished = done.size === steps.length;
  $("learn-finished").hidden = !finished;
  if (finished) {
    try { localStorage.setItem(MEMORY, "done"); } catch { /* private mode: nothing kept */ }
  }
  drawSteps();
  // Shown once the panel above has its new height (a board that fills the screen shrinks).
  hooks.show(ui, hooks.still(verdict.view), verdict.events || []);
  if (finished) $("learn-play").focus();
  else if (!$("learn-next").hidden) $("learn-next").focus();
  else $("learn-steps").querySelector("li:not(.done) button")?.focus(); // a step skipped
}

async function start() {
  try {
    steps = (await api("GET", base)).steps;
  } catch (error) {
    $("learn-error").hidden = false;
    $("learn-error").textContent = error.message;
    return;
  }
  // A game whose board grows and shrinks fills the first screen with it, as at a table.
  root.classList.toggle("fits", Boolean(module.fillsScreen));
  ui = module.createUi($("game"), {
    send, seatName, say,
    // The game's hint for the step (the lesson's own move where the engine's best is not it).
    hintAllowed: () => true,
    askHint: () => api("POST", `${base}/${at}/hint`),
  });
  show(0);
}

$("learn-next").addEventListener("click", () => {
  show(Math.min(at + 1, steps.length - 1));
  $("learn-step-title").focus();
});
$("learn-again").addEventListener("click", () => {
  done.clear();
  show(0);
  $("learn-step-title").focus();
});
start();
