// Nim's table in the browser: the piles, and a button per take. The whole browser side of
// a game: createUi, shownScores, seatNotes and a chart colour, and the replay's review hooks
// (docs/adding-a-game.md).
import { el, t } from "../../i18n.js";

export const colour = "#8a5a00";

export function createUi(root, ctx) {
  let view = null;
  let best = null; // the review's winning take, marked on its button in the replay
  const piles = el("div", { class: "nim-piles" });
  root.replaceChildren(piles);
  const mine = () => view !== null && !ctx.replay && view.turn !== null && view.turn === view.seat;

  function draw() {
    piles.replaceChildren(...(view ? view.piles : []).map((count, pile) => el("p", { class: "nim-pile" },
      `${t("js.nim.pile", { pile: pile + 1 })} ${"●".repeat(count) || "—"} `,
      ...Array.from({ length: count }, (_, n) => {
        const marked = best !== null && best.pile === pile && best.count === n + 1;
        return el("button", {
          type: "button", disabled: !mine(), class: marked ? "nim-best" : "",
          "aria-label": t(marked ? "js.nim.take_best" : "js.nim.take", { count: n + 1, pile: pile + 1 }),
          onclick: () => ctx.send({ type: "take", pile, count: n + 1 }),
        }, marked ? `★${n + 1}` : String(n + 1));
      }))));
  }

  return {
    update(next) { view = next; draw(); },
    myTurn() { return mine(); },
    refused() { draw(); },
    /** Mark the take `take` ({pile, count}) as the best one (null: none). */
    markBest(take) { best = take; draw(); },
    describe(event) {
      if (event.type !== "take") return null;
      return t("js.nim.log_take", { name: ctx.seatName(event.seat), count: event.count, pile: event.pile + 1 });
    },
  };
}

export function shownScores() { return []; }

export function seatNotes() { return []; }

// The replay's review, from Nim's reviewer (meeple_nim.NimReviewer): replay.js asks for these.
export const review = {
  summary(summary) { return t("js.nim.review_summary", { kept: summary.best_played, turns: summary.turns }); },
  line(line) {
    const best = line.best ? t("js.nim.best", { count: line.best.count, pile: line.best.pile + 1 }) : t("js.nim.no_win");
    return [" · ", el("span", { class: "review-best" }, best), " · ",
      el("strong", { class: line.found ? "review-found" : "review-missed" }, t(line.found ? "js.nim.kept" : "js.nim.lost"))];
  },
  mark(ui, line) { ui.markBest(line ? line.best : null); },
};
