// Nim's table in the browser: the piles, and a button per take. The whole browser side of
// a game: createUi, shownScores, seatNotes and a chart colour (docs/adding-a-game.md).
import { el } from "../../i18n.js";

export const colour = "#8a5a00";

export function createUi(root, ctx) {
  let view = null;
  const piles = el("div", { class: "nim-piles" });
  root.replaceChildren(piles);
  const mine = () => view !== null && !ctx.replay && view.turn !== null && view.turn === view.seat;

  function draw() {
    piles.replaceChildren(...(view ? view.piles : []).map((count, pile) => el("p", { class: "nim-pile" },
      `Pile ${pile + 1}: ${"●".repeat(count) || "—"} `,
      ...Array.from({ length: count }, (_, n) => el("button", {
        type: "button", disabled: !mine(), "aria-label": `Take ${n + 1} from pile ${pile + 1}`,
        onclick: () => ctx.send({ type: "take", pile, count: n + 1 }),
      }, String(n + 1))))));
  }

  return {
    update(next) { view = next; draw(); },
    myTurn() { return mine(); },
    refused() { draw(); },
    describe(event) {
      return event.type === "take" ? `${ctx.seatName(event.seat)} takes ${event.count} from pile ${event.pile + 1}.` : null;
    },
  };
}

export function shownScores() { return []; }

export function seatNotes() { return []; }
