// Summy's side of the puzzle page: the board as at a table, a placement as the answer, the
// right one shown faded. The puzzle page asks GAMES[game].puzzle for these.
import { face } from "./board.js";

export const puzzle = {
  /** Show a puzzle's view on the board (no answer shown), the table in sight. */
  show(ui, view) {
    ui.showGhost(null);
    ui.update(view);
    ui.centreOnTable();
  },

  /** The answer to send for a played action (the placement), or null to ignore it. */
  answerOf(action) {
    return action.type === "place" ? { dir: action.dir, tiles: action.tiles } : null;
  },

  /** The blanks of the verdict's sentence for the server's answer: its equation. */
  answerWords(answer) {
    return { equation: [...answer.equation].map(face).join("") };
  },

  /** The right answer, faded on the board (after a wrong one). */
  showAnswer(ui, answer) {
    ui.showGhost(answer.tiles);
  },
};
