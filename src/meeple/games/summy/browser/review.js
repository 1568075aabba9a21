// Summy's side of the replay's review: a seat's points missed, an action's best placement
// (shown faded on the board) and a link to analyse the position. The replay page asks
// GAMES[game].review for these (docs/adding-a-game.md).
import { el, t } from "../../i18n.js";
import { face } from "./board.js";

/** An equation as the board and the log write it: × ÷ − for x : -. */
const written = (text) => [...(text || "")].map(face).join("");

/** What the strong bot would do instead of the top score, in words that fit its choice: a
 * lower-scoring placement, a discard (it scores 0 now), or a pass. */
function strongText(strong) {
  const action = strong.action || {};
  if (action.type === "discard") return t("js.review.strong_discard", { tiles: action.tiles.map(face).join(" ") });
  if (action.type === "pass") return t("js.review.strong_pass");
  return t("js.review.strong", { equation: written(strong.equation), points: strong.score });
}

export const review = {
  /** The words under a seat's name: points missed, and how often the best was played. */
  summary(summary) {
    const share = Math.round(summary.best_share * 100);
    const missed = summary.missed;
    return t("js.review.summary", { count: missed, missed, per: summary.missed_per_turn.toFixed(1), share });
  },

  /** What follows "next: who · what" under the board: the best placement and the verdict. */
  line(line) {
    const analyse = el("a", { class: "review-analyse", href: `/analysis/summy#position=${encodeURIComponent(JSON.stringify(line.position))}` }, t("js.replay.analyse"));
    const best = line.best ? t("js.review.best", { equation: written(line.best.equation), points: line.best_score }) : t("js.review.no_move");
    const verdict = line.missed > 0 ? t("js.review.missed", { count: line.missed, n: line.missed }) : t("js.review.found");
    return [" · ", analyse, el("br"),
      el("span", { class: "review-best" }, best), " · ",
      el("strong", { class: line.missed > 0 ? "review-missed" : "review-found" }, verdict),
      line.strong_differs && line.best ? el("span", { class: "review-strong muted" }, ` · ${strongText(line.strong)}`) : ""];
  },

  /** The best placement of the action to come, faded on the board (null: none). */
  mark(ui, line) {
    ui.showGhost(line && line.best ? line.best.tiles : null);
  },
};
