// A puzzle of any game that cuts them: play the move as at a table and learn at once. The game's
// ui.js exports `puzzle` (how to show one, what to send, how to show the answer).
import { api, routes, showRefusal } from "./api.js";
import { el, t } from "./i18n.js";
import { GAMES } from "/js/games.js";

const $ = (id) => document.getElementById(id);
const asked = $("puzzle").dataset.puzzle; // an id, "daily", or "" for the next one
const game = $("puzzle").dataset.game;
const hooks = GAMES[game].puzzle;
const base = `/api/puzzles/${encodeURIComponent(game)}`;
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
    ui = GAMES[game].createUi($("game"), { send: answer, seatName: () => t("js.puzzle.you"), say, puzzle: true });
  }
  hooks.show(ui, puzzle.view);
  $("puzzle-task").textContent = t("js.puzzle.task", { points: puzzle.points });
  $("puzzle-stats").textContent = t("js.puzzle.stats", puzzle);
  // A puzzle the server's bots made (a short pool filled) says so; people's games' say nothing.
  $("puzzle-source").textContent = puzzle.from_bots ? t("js.puzzle.from_bots") : "";
  $("puzzle-source").hidden = !puzzle.from_bots;
  history.replaceState(null, "", `/puzzles/${encodeURIComponent(game)}/${puzzle.id}`);
}

/** The staged move is played: the server says right or wrong and, to a player with an
 * account (guests too), shows the answer; anyone else is invited to sign in to see it. */
async function answer(action) {
  const move = hooks.answerOf(action);
  if (move === null) return;
  let verdict;
  try {
    verdict = await api("POST", `${base}/${encodeURIComponent(puzzle.id)}/answer`, move);
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
    if (!verdict.correct) hooks.showAnswer(ui, verdict.answer);
    const words = { ...hooks.answerWords(verdict.answer), points: verdict.points };
    text = t(verdict.correct ? "js.puzzle.right" : "js.puzzle.wrong", words);
  }
  $("puzzle-verdict").replaceChildren(el("strong", { class: verdict.correct ? "review-found" : "review-missed" }, text));
  $("puzzle-rating").textContent = verdict.rating ? t("js.puzzle.rating", verdict.rating) : "";
  // This answer may have moved the puzzle's own figures: show them as they are now.
  Object.assign(puzzle, verdict.puzzle);
  $("puzzle-stats").textContent = t("js.puzzle.stats", puzzle);
  $("puzzle-invite").hidden = !unseen;
  $("puzzle-result").hidden = false;
  $("puzzle-next").focus();
}

/** Signed in (or a guest) after an anonymous answer: the same puzzle again, to answer for real. */
function again() {
  if (unseen && puzzle) load(`${base}/${encodeURIComponent(puzzle.id)}`);
}

document.addEventListener("meeple:user", (event) => { if (event.detail) again(); });
$("puzzle-guest").addEventListener("click", async () => {
  try {
    await api("POST", routes.guest);
  } catch (error) {
    say(error.message, "bad");
    showRefusal($("message"), error); // a sign-in link when no guest may be made now
    return;
  }
  location.reload();
});
$("puzzle-next").addEventListener("click", () => load(`${base}/next?after=${encodeURIComponent(puzzle.id)}`));
load(asked === "daily" ? `${base}/daily`
  : asked ? `${base}/${encodeURIComponent(asked)}` : `${base}/next`);
