// The Summy table's growing grid: pan and zoom by mouse, touch and keyboard; cells by key "row,col".
import { el, t } from "../../i18n.js";

export const CELL = 40;
const MARGIN = 3;
const OPERATORS = { x: "×", ":": "÷", "-": "−" }; // the minus sign, not the hyphen

/** How a tile is written on its face. */
export function face(tile) {
  return OPERATORS[tile] || tile;
}

/** The accessible name of a tile. */
export function tileName(tile) {
  return { "+": t("js.summy.plus"), "-": t("js.summy.minus"), x: t("js.summy.times"),
    ":": t("js.summy.divide"), "=": t("js.summy.equals") }[tile] || tile;
}

export const key = (row, col) => `${row},${col}`;
export const parseKey = (text) => text.split(",").map(Number);

/**
 * A pannable, zoomable grid inside `viewport`. The grid lines are the felt's own background, moved
 * with the pan and scaled with the zoom, so they fill the felt at every zoom and size; cells are
 * found from coordinates, and nodes are drawn only around what is on the table.
 * `handlers.cellClick(row, col)` and `handlers.keyTile(row, col, char)` do the game's part.
 */
export function createBoard(viewport, handlers) {
  const plane = el("div", { class: "summy-plane" });
  const zoomBox = el("div", { class: "zoom" },
    el("button", { type: "button", class: "small", "aria-label": t("js.summy.zoom_in"), onclick: () => zoomBy(1.25) }, "+"),
    el("button", { type: "button", class: "small", "aria-label": t("js.summy.zoom_out"), onclick: () => zoomBy(0.8) }, "−"),
    el("button", { type: "button", class: "small", "aria-label": t("js.summy.centre"), onclick: () => centreOn(lastCells) }, "◎"));
  viewport.replaceChildren(plane, zoomBox);
  let pan = { x: 0, y: 0 };
  let zoom = 1;
  let bounds = { r0: -MARGIN, c0: -MARGIN, r1: MARGIN, c1: MARGIN };
  let cursor = [0, 0];
  let lastCells = [[0, 0]];
  const pointers = new Map();
  let pinch = null; // {distance, zoom, mid} when two fingers are down
  let dragged = false;
  let frame = 0;

  // One paint per frame however many pointer moves arrive: panning stays smooth.
  function apply() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      plane.style.transform = `translate(${pan.x}px, ${pan.y}px) scale(${zoom})`;
      const cell = CELL * zoom;
      viewport.style.setProperty("--cell", `${cell}px`);
      viewport.style.setProperty("--gx", `${pan.x}px`);
      viewport.style.setProperty("--gy", `${pan.y}px`);
    });
  }

  function zoomBy(factor, cx = viewport.clientWidth / 2, cy = viewport.clientHeight / 2) {
    const next = Math.min(2.5, Math.max(0.35, zoom * factor));
    pan.x = cx - ((cx - pan.x) * next) / zoom;
    pan.y = cy - ((cy - pan.y) * next) / zoom;
    zoom = next;
    apply();
  }

  function cellCentre(row, col) {
    return [((col - bounds.c0) + 0.5) * CELL, ((row - bounds.r0) + 0.5) * CELL];
  }

  /** The cell under a point of the screen, or null outside the felt. */
  function cellAt(clientX, clientY) {
    const box = viewport.getBoundingClientRect();
    if (clientX < box.left || clientX > box.right || clientY < box.top || clientY > box.bottom) return null;
    const x = (clientX - box.left - pan.x) / zoom;
    const y = (clientY - box.top - pan.y) / zoom;
    return [bounds.r0 + Math.floor(y / CELL), bounds.c0 + Math.floor(x / CELL)];
  }

  function centreOn(cells) {
    if (!cells.length) return;
    const xs = cells.map(([r, c]) => cellCentre(r, c)[0]);
    const ys = cells.map(([r, c]) => cellCentre(r, c)[1]);
    const x = (Math.min(...xs) + Math.max(...xs)) / 2;
    const y = (Math.min(...ys) + Math.max(...ys)) / 2;
    pan.x = viewport.clientWidth / 2 - x * zoom;
    pan.y = viewport.clientHeight / 2 - y * zoom;
    apply();
  }

  function keepVisible(row, col) {
    const [x, y] = cellCentre(row, col);
    const sx = pan.x + x * zoom;
    const sy = pan.y + y * zoom;
    const pad = CELL * zoom;
    if (sx < pad) pan.x += pad - sx;
    if (sy < pad) pan.y += pad - sy;
    if (sx > viewport.clientWidth - pad) pan.x -= sx - (viewport.clientWidth - pad);
    if (sy > viewport.clientHeight - pad) pan.y -= sy - (viewport.clientHeight - pad);
    apply();
  }

  // The felt is overflow: hidden, yet the browser still scrolls it to bring something into
  // view (a focused tile, scrollIntoView): the cells would then sit off the grid lines and off
  // the points cellAt reads. Such a scroll becomes a pan, the same move the player sees.
  viewport.addEventListener("scroll", () => {
    if (!viewport.scrollLeft && !viewport.scrollTop) return;
    pan.x -= viewport.scrollLeft;
    pan.y -= viewport.scrollTop;
    viewport.scrollLeft = 0;
    viewport.scrollTop = 0;
    plane.style.transform = `translate(${pan.x}px, ${pan.y}px) scale(${zoom})`;
    apply();
  });

  viewport.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = viewport.getBoundingClientRect();
    zoomBy(event.deltaY < 0 ? 1.1 : 0.9, event.clientX - box.left, event.clientY - box.top);
  }, { passive: false });

  const midpoint = () => {
    const [a, b] = [...pointers.values()];
    const box = viewport.getBoundingClientRect();
    return { x: (a.x + b.x) / 2 - box.left, y: (a.y + b.y) / 2 - box.top, distance: Math.hypot(a.x - b.x, a.y - b.y) };
  };
  viewport.addEventListener("pointerdown", (event) => {
    // Buttons (staged tiles, zoom) have their own gestures; a second finger always pinches.
    if (event.target.closest("button") && pointers.size === 0) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    dragged = false;
    if (pointers.size === 2) {
      const mid = midpoint();
      pinch = { distance: Math.max(mid.distance, 1), zoom, mid };
      dragged = true; // two fingers never make a click
    }
  });
  viewport.addEventListener("pointermove", (event) => {
    const previous = pointers.get(event.pointerId);
    if (!previous) return;
    const now = { x: event.clientX, y: event.clientY };
    pointers.set(event.pointerId, now);
    if (pointers.size === 1) {
      const dx = now.x - previous.x;
      const dy = now.y - previous.y;
      if (!dragged && Math.hypot(dx, dy) < 3) { pointers.set(event.pointerId, previous); return; }
      if (!dragged) viewport.setPointerCapture(event.pointerId);
      dragged = true;
      pan.x += dx;
      pan.y += dy;
      apply();
    } else if (pointers.size === 2 && pinch) {
      // Pinch: zoom about the fingers' midpoint, and follow it as it moves.
      const mid = midpoint();
      zoomBy((pinch.zoom * mid.distance) / pinch.distance / zoom, mid.x, mid.y);
      pan.x += mid.x - pinch.mid.x;
      pan.y += mid.y - pinch.mid.y;
      pinch.mid = mid;
      apply();
    }
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
  };
  viewport.addEventListener("pointerup", release);
  viewport.addEventListener("pointercancel", release);
  viewport.addEventListener("click", (event) => {
    if (dragged) { dragged = false; return; }
    if (event.target.closest(".zoom, .dir-choice")) return;
    const at = cellAt(event.clientX, event.clientY);
    if (at) {
      cursor = at;
      handlers.cellClick(...cursor);
    }
  });
  viewport.addEventListener("keydown", (event) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in moves) {
      event.preventDefault();
      const [dr, dc] = moves[event.key];
      if (event.shiftKey) {
        pan.x -= dc * CELL;
        pan.y -= dr * CELL;
        apply();
        return;
      }
      cursor = [cursor[0] + dr, cursor[1] + dc];
      handlers.redraw();
      keepVisible(...cursor);
      handlers.cursorMoved(...cursor);
      return;
    }
    if ((event.key === "Enter" && !event.ctrlKey && !event.metaKey) || event.key === " ") {
      event.preventDefault();
      handlers.cellClick(...cursor);
    } else if (event.key === "PageUp" || (event.key === "+" && event.ctrlKey)) {
      event.preventDefault();
      zoomBy(1.25);
    } else if (event.key === "PageDown" || (event.key === "-" && event.ctrlKey)) {
      event.preventDefault();
      zoomBy(0.8);
    } else if (event.key === "Home") {
      event.preventDefault();
      centreOn(lastCells);
    } else if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      handlers.takeBack(...cursor);
    } else if (event.key.length === 1 && "0123456789+-x*:/=".includes(event.key)) {
      event.preventDefault();
      const char = { "*": "x", "/": ":" }[event.key] || event.key;
      handlers.keyTile(...cursor, char);
    }
  });

  // A new size (a phone turned, a line of text more under the rack): the middle of the felt stays
  // where it was, so nothing the player is looking at jumps; the first size centres the last move.
  let size = null;
  new ResizeObserver(() => {
    const next = { w: viewport.clientWidth, h: viewport.clientHeight };
    if (size && next.w === size.w && next.h === size.h) return;
    if (size) {
      pan.x += (next.w - size.w) / 2;
      pan.y += (next.h - size.h) / 2;
      apply();
    } else {
      centreOn(lastCells);
    }
    size = next;
  }).observe(viewport);

  return {
    /** Draw every cell in `cells` (a Map key -> {node}), the sealed ones and the targets; keep the view steady. */
    draw(cells, sealed, extra) {
      const rows = [0];
      const cols = [0];
      for (const k of [...cells.keys(), ...sealed, ...extra]) {
        const [r, c] = parseKey(k);
        rows.push(r);
        cols.push(c);
      }
      const next = {
        r0: Math.min(...rows, cursor[0]) - MARGIN, c0: Math.min(...cols, cursor[1]) - MARGIN,
        r1: Math.max(...rows, cursor[0]) + MARGIN, c1: Math.max(...cols, cursor[1]) + MARGIN,
      };
      // Keep what is on screen in place when the drawn area grows up or left.
      pan.x += (next.c0 - bounds.c0) * CELL * zoom;
      pan.y += (next.r0 - bounds.r0) * CELL * zoom;
      bounds = next;
      plane.style.width = `${(bounds.c1 - bounds.c0 + 1) * CELL}px`;
      plane.style.height = `${(bounds.r1 - bounds.r0 + 1) * CELL}px`;
      const nodes = [];
      for (let r = bounds.r0; r <= bounds.r1; r++) {
        for (let c = bounds.c0; c <= bounds.c1; c++) {
          const k = key(r, c);
          const content = cells.get(k);
          const classes = ["cell"];
          if (sealed.has(k)) classes.push("sealed");
          if (cursor[0] === r && cursor[1] === c) classes.push("cursor");
          if (extra.has(k)) classes.push("target");
          const node = el("div", {
            class: classes.join(" "), dataset: { cell: k },
            style: `left:${(c - bounds.c0) * CELL}px;top:${(r - bounds.r0) * CELL}px`,
            title: sealed.has(k) ? t("js.summy.sealed") : null,
          });
          if (content) node.append(content.node);
          nodes.push(node);
        }
      }
      plane.replaceChildren(...nodes);
      apply();
    },
    /** Centre on these cells (the last move) and remember them for the centre button. */
    centreOn(cells) {
      lastCells = cells.length ? cells : [[0, 0]];
      centreOn(lastCells);
    },
    /** The cell under a point of the screen (a drop), or null off the felt. */
    cellAt,
    /** The board's own node for a cell, if drawn (to light it up under a dragged tile). */
    nodeAt(row, col) { return plane.querySelector(`[data-cell="${key(row, col)}"]`); },
    get cursor() { return cursor; },
    set cursor(cell) { cursor = cell; },
  };
}
