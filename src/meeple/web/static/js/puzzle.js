// A Summy puzzle: stage the move on the board as at a table, play it, and learn at once.
import { api, ensurePlayer } from "./api.js";
import { el, t } from "./i18n.js";
import { GAMES } from "/js/games.js";
import { face } from "./games/summy/board.js";

const $ = (id) => document.getElementById(id);
const asked = $("puzzle").dataset.puzzle; // an id, "daily", or "" for the next one
let puzzle = null;
let ui = null;

function say(text, kind) {
  $("message").textContent = text || "";
  $("message").dataset.kind = kind || "";
}

async function load(path) {
  $("puzzle-result").hidden = true;
  $("puzzle-error").hidden = true;
  say("", "");
  try {
    puzzle = await api("GET", path);
  } catch (error) {
    $("puzzle-error").hidden = false;
    $("puzzle-error").textContent = error.status === 404 ? t("js.puzzle.none") : error.message;
    $("puzzle-task").textContent = "";
    return;
  }
  if (!ui) {
    ui = GAMES.summy.createUi($("game"), { send: answer, seatName: () => t("js.puzzle.you"), say, puzzle: true });
  }
  ui.showGhost(null);
  ui.update(puzzle.view);
  ui.centreOnTable();
  $("puzzle-task").textContent = t("js.puzzle.task", { points: puzzle.points });
  $("puzzle-stats").textContent = t("js.puzzle.stats", puzzle);
  history.replaceState(null, "", `/puzzles/summy/${puzzle.id}`);
}

/** The staged move is played: the server says right or wrong and shows the answer. */
async function answer(action) {
  if (action.type !== "place") return;
  await ensurePlayer();
  let verdict;
  try {
    verdict = await api("POST", `/api/puzzles/summy/${encodeURIComponent(puzzle.id)}/answer`,
      { dir: action.dir, tiles: action.tiles });
  } catch (error) {
    say(error.message, "bad");
    ui.refused();
    return;
  }
  const equation = [...verdict.answer.equation].map(face).join("");
  // The puzzle is over: the board stops taking tiles, and a wrong answer sees the right one.
  ui.update({ ...puzzle.view, turn: null, game_over: true });
  if (!verdict.correct) ui.showGhost(verdict.answer.tiles);
  say("", "");
  $("puzzle-verdict").replaceChildren(el("strong", { class: verdict.correct ? "review-found" : "review-missed" },
    verdict.correct ? t("js.puzzle.right", { equation, points: verdict.points })
      : t("js.puzzle.wrong", { equation, points: verdict.points })));
  $("puzzle-rating").textContent = verdict.rating ? t("js.puzzle.rating", verdict.rating) : "";
  $("puzzle-result").hidden = false;
  $("puzzle-next").focus();
}

$("puzzle-next").addEventListener("click", () => load(`/api/puzzles/summy/next?after=${encodeURIComponent(puzzle.id)}`));
load(asked === "daily" ? "/api/puzzles/summy/daily"
  : asked ? `/api/puzzles/summy/${encodeURIComponent(asked)}` : "/api/puzzles/summy/next");
