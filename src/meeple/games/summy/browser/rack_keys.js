// The rack for the keyboard: one Tab stop for all its tiles (a roving tabindex), the arrows, Home
// and End move between them, and the tile in hand keeps the keyboard when the rack is redrawn.

/** Give the buttons of `rack` one Tab stop; call `before()` ahead of a redraw, `after(it)` once done. */
export function rovingRack(rack) {
  const tiles = () => [...rack.querySelectorAll("button")];
  let position = 0; // which tile (in rack order) has the Tab stop

  function settle(focus) {
    const all = tiles();
    position = Math.max(0, Math.min(position, all.length - 1));
    all.forEach((button, index) => { button.tabIndex = index === position ? 0 : -1; });
    if (focus) all[position]?.focus();
  }

  rack.addEventListener("focusin", (event) => {
    const at = tiles().indexOf(event.target);
    if (at >= 0 && at !== position) { position = at; settle(false); }
  });
  rack.addEventListener("keydown", (event) => {
    const all = tiles();
    const at = all.indexOf(event.target);
    if (at < 0) return;
    const to = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: all.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    position = to;
    settle(true);
  });

  return {
    /** Whether the keyboard is on a rack tile now (ask before the tiles are replaced). */
    before() { return rack.contains(document.activeElement); },
    /** After a redraw: one tile in the Tab order again, and the keyboard back on it if it was there. */
    after(hadFocus) { settle(hadFocus); },
  };
}
