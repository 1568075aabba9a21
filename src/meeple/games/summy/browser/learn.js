// Summy's side of the tutorial page (learn.js asks GAMES[game].learn): a position on the board
// with the whole table in sight (a step's, or the one its move made), and the board at rest once
// the step is done.
export const learn = {
  /** Show a position, the table centred (the step's own takes tiles; a still one does not). */
  show(ui, view) {
    ui.showGhost(null);
    ui.update(view);
    ui.centreOnTable();
  },

  /** The position after the learner's move, with nobody to play: it is shown, not played on. */
  still(view) {
    return { ...view, turn: null };
  },
};
