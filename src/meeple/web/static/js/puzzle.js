// A Summy puzzle: stage the move on the board as at a table, play it, and learn at once.
import { api, routes } from "./api.js";
import { el, t } from "./i18n.js";
import { GAMES } from "/js/games.js";
import { face } from "./games/summy/board.js";

const $ = (id) => document.getElementById(id);
const asked = $("puzzle").dataset.puzzle; // an id, "daily", or "" for the next one
let puzzle = null;
let ui = null;
let unseen = false; // answered without an account: right or wrong was told, not the answer

function say(text, kind) {
  $("message").textContent = text || "";
  $("message").dataset.kind = kind || "";
}

async function load(path) {
  $("puzzle-result").hidden = true;
  $("puzzle-invite").hidden = true;
  unseen = false;
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

/** The staged move is played: the server says right or wrong and, to a player with an
 * account (guests too), shows the answer; anyone else is invited to sign in to see it. */
async function answer(action) {
  if (action.type !== "place") return;
  let verdict;
  try {
    verdict = await api("POST", `/api/puzzles/summy/${encodeURIComponent(puzzle.id)}/answer`,
      { dir: action.dir, tiles: action.tiles });
  } catch (error) {
    say(error.message, "bad");
    ui.refused();
    return;
  }
  // The puzzle is over: the board stops taking tiles, and a wrong answer sees the right one.
  ui.update({ ...puzzle.view, turn: null, game_over: true });
  say("", "");
  unseen = verdict.answer === null;
  let text;
  if (unseen) {
    text = verdict.correct ? t("js.puzzle.right_unseen", { points: verdict.points }) : t("js.puzzle.wrong_unseen");
  } else {
    const equation = [...verdict.answer.equation].map(face).join("");
    if (!verdict.correct) ui.showGhost(verdict.answer.tiles);
    text = t(verdict.correct ? "js.puzzle.right" : "js.puzzle.wrong", { equation, points: verdict.points });
  }
  $("puzzle-verdict").replaceChildren(el("strong", { class: verdict.correct ? "review-found" : "review-missed" }, text));
  $("puzzle-rating").textContent = verdict.rating ? t("js.puzzle.rating", verdict.rating) : "";
  $("puzzle-invite").hidden = !unseen;
  $("puzzle-result").hidden = false;
  $("puzzle-next").focus();
}

/** Signed in (or a guest) after an anonymous answer: the same puzzle again, to answer for real. */
function again() {
  if (unseen && puzzle) load(`/api/puzzles/summy/${encodeURIComponent(puzzle.id)}`);
}

document.addEventListener("meeple:user", (event) => { if (event.detail) again(); });
$("puzzle-guest").addEventListener("click", async () => {
  try {
    await api("POST", routes.guest);
  } catch (error) {
    say(error.message, "bad");
    return;
  }
  location.reload();
});
$("puzzle-next").addEventListener("click", () => load(`/api/puzzles/summy/next?after=${encodeURIComponent(puzzle.id)}`));
load(asked === "daily" ? "/api/puzzles/summy/daily"
  : asked ? `/api/puzzles/summy/${encodeURIComponent(asked)}` : "/api/puzzles/summy/next");
