// Slide's side of the replay's review: expected points given away per seat, an action's
// best option (its card highlighted). The replay page asks GAMES[game].review for these.
import { el, t } from "../../i18n.js";

/** A Slide action in words (the review's best option). */
function actionText(action) {
  if (action.type === "reveal") return t("js.review.reveal", { row: action.cell[0] + 1, col: action.cell[1] + 1 });
  return t("js.review.take", { value: action.value, side: t("js.review.side_" + action.side) });
}

export const review = {
  /** The words under a seat's name: points given away, and how often the best was chosen. */
  summary(summary) {
    const share = Math.round(summary.best_share * 100);
    return t("js.review.slide_summary", { given: summary.given_away.toFixed(1), share });
  },

  /** What follows "next: who · what" under the board: the best option and the verdict. */
  line(line) {
    const lost = line.given_away > 0;
    return [el("br"),
      el("span", { class: "review-best" }, t("js.review.slide_best", {
        action: actionText(line.best), best: line.best_points.toFixed(1), chosen: line.chosen_points.toFixed(1) })),
      " · ", el("strong", { class: lost ? "review-missed" : "review-found" },
        lost ? t("js.review.given_away", { n: line.given_away.toFixed(1) }) : t("js.review.found"))];
  },

  /** The best option of the action to come, highlighted on the grid (null: none). */
  mark(ui, line) {
    ui.highlight(line ? line.best : null, line ? line.seat : null);
  },
};
