// Nim's table in the browser: the piles, and a button per take. The whole browser side of
// a game: createUi, shownScores, seatNotes and a chart colour, and the replay's review hooks
// (docs/adding-a-game.md).
import { el } from "../../i18n.js";

export const colour = "#8a5a00";

export function createUi(root, ctx) {
  let view = null;
  let best = null; // the review's winning take, marked on its button in the replay
  const piles = el("div", { class: "nim-piles" });
  root.replaceChildren(piles);
  const mine = () => view !== null && !ctx.replay && view.turn !== null && view.turn === view.seat;

  function draw() {
    piles.replaceChildren(...(view ? view.piles : []).map((count, pile) => el("p", { class: "nim-pile" },
      `Pile ${pile + 1}: ${"●".repeat(count) || "—"} `,
      ...Array.from({ length: count }, (_, n) => {
        const marked = best !== null && best.pile === pile && best.count === n + 1;
        return el("button", {
          type: "button", disabled: !mine(), class: marked ? "nim-best" : "",
          "aria-label": `Take ${n + 1} from pile ${pile + 1}${marked ? " (best)" : ""}`,
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
      return event.type === "take" ? `${ctx.seatName(event.seat)} takes ${event.count} from pile ${event.pile + 1}.` : null;
    },
  };
}

export function shownScores() { return []; }

export function seatNotes() { return []; }

const takeText = (take) => `take ${take.count} from pile ${take.pile + 1}`;

// The replay's review, from Nim's reviewer (meeple_nim.NimReviewer): replay.js asks for these.
export const review = {
  summary(summary) { return `${summary.best_played} of ${summary.turns} takes kept the win`; },
  line(line) {
    const best = line.best ? `Best: ${takeText(line.best)}` : "No winning take";
    return [" · ", el("span", { class: "review-best" }, best), " · ",
      el("strong", { class: line.found ? "review-found" : "review-missed" }, line.found ? "Kept the win" : "Let the win go")];
  },
  mark(ui, line) { ui.markBest(line ? line.best : null); },
};
