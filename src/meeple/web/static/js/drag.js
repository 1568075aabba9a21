// Drag with pointer events: one code path for a mouse, a pen and a finger (HTML5 drag and drop
// does not work on touch screens). A press that does not move stays a click.

const THRESHOLD = 6; // pixels a press must travel to become a drag
let suppressClick = false;

// The click that ends a drag is not a click.
document.addEventListener("click", (event) => {
  if (!suppressClick) return;
  suppressClick = false;
  event.stopPropagation();
  event.preventDefault();
}, true);

/**
 * Make `node` draggable. `hooks.move(x, y)` follows the pointer (to light the place under it);
 * `hooks.drop(x, y)` is called where it is let go; `hooks.end()` after either a drop or a cancel.
 */
export function makeDraggable(node, hooks) {
  node.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || node.disabled) return;
    const start = { x: event.clientX, y: event.clientY };
    let ghost = null;
    suppressClick = false;

    const onMove = (move) => {
      if (move.pointerId !== event.pointerId) return;
      if (!ghost) {
        if (Math.hypot(move.clientX - start.x, move.clientY - start.y) < THRESHOLD) return;
        ghost = node.cloneNode(true);
        ghost.classList.add("drag-ghost");
        ghost.removeAttribute("id");
        ghost.setAttribute("aria-hidden", "true");
        document.body.append(ghost);
        node.classList.add("dragging");
      }
      move.preventDefault();
      ghost.style.left = `${move.clientX}px`;
      ghost.style.top = `${move.clientY}px`;
      hooks.move?.(move.clientX, move.clientY);
    };
    // A finger's drag is a touch gesture too: unless its touchmoves are cancelled, Chromium reads a
    // finger lifted while still moving as a fling, and the next tap (on "Play") only stops that
    // fling, with no click. Cancelling a pointermove does not cancel the touchmove.
    const onTouchMove = (touchMove) => { if (ghost && touchMove.cancelable) touchMove.preventDefault(); };
    const finish = (end, dropped) => {
      if (end.pointerId !== event.pointerId) return;
      document.removeEventListener("touchmove", onTouchMove);
      document.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerup", onUp);
      document.removeEventListener("pointercancel", onCancel);
      if (!ghost) return; // a press without a move: the click does the work
      ghost.remove();
      node.classList.remove("dragging");
      suppressClick = true;
      setTimeout(() => { suppressClick = false; }, 0);
      // After the touchend has reached the node: redrawing removes it, and a touch sequence whose
      // node is gone leaves Chromium without the next tap's click.
      setTimeout(() => {
        if (dropped) hooks.drop(end.clientX, end.clientY);
        hooks.end?.();
      }, 0);
    };
    const onUp = (up) => finish(up, true);
    const onCancel = (cancel) => finish(cancel, false);
    document.addEventListener("touchmove", onTouchMove, { passive: false });
    document.addEventListener("pointermove", onMove);
    document.addEventListener("pointerup", onUp);
    document.addEventListener("pointercancel", onCancel);
  });
}
