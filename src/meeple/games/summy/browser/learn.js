// Summy's side of the tutorial page (learn.js asks GAMES[game].learn): a step's position on the
// board with the whole table in sight, and the board at rest once the step is done.
export const learn = {
  /** Show a step's position: the board takes tiles, the table centred. */
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
