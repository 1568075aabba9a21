// Tiles dragged with a mouse or a finger: from the rack onto the felt, between cells, back to the rack.
import { makeDraggable } from "../../drag.js";
import { key } from "./board.js";

/**
 * `draggable(node, payload)` for this board and rack. A payload `rack:<index>` let go over a
 * cell is staged there, `cell:<row,col>` moves to it, or goes back when let go over the rack;
 * `moves` gives `stage(key, index)`, `moveStaged(from, to)` and `unstage(key)`.
 */
export function tileDragging(board, rack, moves) {
  /** A tile let go at a point of the screen: on a cell it is staged there, on the rack it goes back. */
  function dropAt(x, y, payload) {
    const at = board.cellAt(x, y);
    if (at) {
      const k = key(...at);
      if (payload.startsWith("rack:")) moves.stage(k, Number(payload.slice(5)));
      else if (payload.startsWith("cell:") && payload.slice(5) !== k) moves.moveStaged(payload.slice(5), k);
      return;
    }
    const box = rack.getBoundingClientRect();
    const onRack = x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
    if (onRack && payload.startsWith("cell:")) moves.unstage(payload.slice(5));
  }

  let lit = null;
  function lightUnder(x, y) {
    const at = board.cellAt(x, y);
    const node = at ? board.nodeAt(...at) : null;
    if (node === lit) return;
    lit?.classList.remove("drop-here");
    lit = node;
    lit?.classList.add("drop-here");
  }

  /** Drag `node` (a rack tile or a staged one) with a mouse or a finger. */
  return function draggable(node, payload) {
    makeDraggable(node, {
      move: lightUnder,
      drop: (x, y) => dropAt(x, y, payload),
      end: () => { lit?.classList.remove("drop-here"); lit = null; },
    });
    return node;
  };
}
