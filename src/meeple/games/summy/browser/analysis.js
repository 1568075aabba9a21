// The Summy analysis board: set up a table and a hand, see every legal move ranked by score.
// A position can arrive in the address (`#position=` JSON, from a replay's "analyse from here"
// or a shared link), and a whole game from its text (the import panel, static/js/game_text.js).
import { api } from "../../api.js";
import { el, t } from "../../i18n.js";
import { makeDraggable } from "../../drag.js";
import { gameTextPanel, shareLink } from "../../game_text.js";
import { createBoard, face, key, parseKey, tileName } from "./board.js";

const $ = (id) => document.getElementById(id);
const TILES = "0123456789+-x:=";
const tiles = new Map([[key(0, 0), "="]]); // "row,col" -> tile: the table being set up
let picked = null; // the palette tile a click on a cell puts down
let moves = []; // the server's answer, best first
let shown = null; // the move previewed on the board (hovered or selected)
let selected = null;
let timer = 0;
// The equations of a position handed over (a link, a game's step): kept while the table is not
// edited, so the link and the analysis are of that exact position; null: found on the table.
let equations = null;
let played = null; // the tiles of the imported game's next move, faded on the board

const isOperator = (tile) => "+-x:".includes(tile);

function tileNode(tile, extraClass = "", attrs = {}) {
  const classes = ["tile", isOperator(tile) ? "op" : "", extraClass].filter(Boolean).join(" ");
  return el(attrs.tag || "span", { ...attrs, tag: null, class: classes }, face(tile));
}

const board = createBoard($("board"), {
  cellClick(row, col) {
    if (picked) put(row, col, picked);
  },
  // Typing writes across, as in a crossword: the cursor moves on one cell.
  keyTile(row, col, char) {
    board.cursor = [row, col + 1];
    put(row, col, char);
  },
  takeBack(row, col) {
    tiles.delete(key(row, col));
    edited();
  },
  redraw: () => draw(),
  cursorMoved() {},
});

function put(row, col, tile) {
  tiles.set(key(row, col), tile);
  edited();
}

/** The table changed by hand: its equations are the board's to find again. */
function edited() {
  equations = played = null;
  changed();
}

function draw() {
  const cells = new Map();
  for (const [k, tile] of tiles) {
    const [r, c] = parseKey(k);
    cells.set(k, { node: tileNode(tile, "", { role: "img", "aria-label": `${tileName(tile)}, ${t("js.summy.cell", { row: r, col: c })}` }) });
  }
  const preview = shown || selected;
  for (const placed of preview ? preview.tiles : []) {
    cells.set(key(placed.row, placed.col), { node: tileNode(placed.tile, "ghost", {
      role: "img", "aria-label": t("js.review.ghost", { tile: tileName(placed.tile) }) }) });
  }
  for (const placed of preview ? [] : played || []) {
    cells.set(key(placed.row, placed.col), { node: tileNode(placed.tile, "ghost played", {
      role: "img", "aria-label": t("js.game_text.ghost", { tile: tileName(placed.tile) }) }) });
  }
  board.draw(cells, new Set(), new Set());
}

/** The hand typed in the box, as tiles; null if it is not a hand. */
function hand() {
  const text = $("hand").value.replace(/\s+/g, "").replace(/\*/g, "x").replace(/\//g, ":");
  if (text.length > 8 || [...text].some((c) => !TILES.includes(c))) return null;
  return [...text];
}

/** The position as the server reads it; equations, unless handed over, are left for it to
 * find on the table. */
function position() {
  return {
    game: "summy",
    tiles: [...tiles].map(([k, tile]) => { const [row, col] = parseKey(k); return { row, col, tile }; }),
    ...(equations ? { equations } : {}),
    hand: hand() || [],
  };
}

function changed() {
  selected = shown = null;
  draw();
  history.replaceState(null, "", `#position=${encodeURIComponent(JSON.stringify(position()))}`);
  updateLink();
  clearTimeout(timer);
  timer = setTimeout(analyse, 250);
}

async function analyse() {
  const status = $("analysis-status");
  if (hand() === null) {
    status.textContent = t("js.analysis.bad_hand");
    status.classList.add("error");
    return;
  }
  status.classList.remove("error");
  status.textContent = t("js.analysis.working");
  try {
    const answer = await api("POST", "/api/analysis/summy?limit=500", position());
    moves = answer.moves;
    status.textContent = answer.count ? t("js.analysis.count", { n: answer.count }) : t("js.analysis.none");
  } catch (error) {
    moves = [];
    status.textContent = error.message;
    status.classList.add("error");
  }
  fillFilter();
  listMoves();
}

function fillFilter() {
  const choice = $("tiles-used");
  const counts = [...new Set(moves.map((move) => move.tiles.length))].sort((a, b) => a - b);
  const keep = choice.value;
  choice.replaceChildren(choice.options[0], ...counts.map((n) => el("option", { value: n }, String(n))));
  choice.value = counts.includes(Number(keep)) ? keep : "";
}

function listMoves() {
  const used = $("tiles-used").value;
  const listed = moves.filter((move) => used === "" || move.tiles.length === Number(used));
  $("moves").replaceChildren(...listed.map((move) => {
    const item = el("li", {}, el("button", {
      type: "button", class: "move-choice", "aria-pressed": String(selected === move),
      onclick: () => { selected = selected === move ? null : move; listMoves(); draw(); if (selected) board.centreOn(move.tiles.map((p) => [p.row, p.col])); },
      onmouseenter: () => { shown = move; draw(); },
      onmouseleave: () => { shown = null; draw(); },
      onfocus: () => { shown = move; draw(); },
      onblur: () => { shown = null; draw(); },
    }, t("js.analysis.move", { points: move.score, equation: [...move.equation].map(face).join(""), tiles: move.tiles.length }),
    // Where it goes is shown on the board (hover, focus or select), not as grid coordinates.
    el("span", { class: "muted" }, ` · ${t("js.summy.dir_" + move.dir)}`)));
    return item;
  }));
}

// The palette: pick a tile to put with clicks, or drag it onto a cell.
$("palette").append(...[...TILES].map((tile) => {
  const button = tileNode(tile, "", { tag: "button", type: "button", "aria-pressed": "false", dataset: { tile },
    "aria-label": tileName(tile),
    onclick: () => {
      picked = picked === tile ? null : tile;
      for (const other of $("palette").children) other.setAttribute("aria-pressed", String(other.dataset.tile === picked));
    } });
  makeDraggable(button, {
    drop(x, y) {
      const at = board.cellAt(x, y);
      if (at) put(at[0], at[1], tile);
    },
  });
  return button;
}));
$("hand").addEventListener("input", changed);
$("tiles-used").addEventListener("change", listMoves);
$("clear-table").addEventListener("click", () => {
  tiles.clear();
  tiles.set(key(0, 0), "=");
  edited();
});

/** Put a position (the shared format: tiles, equations, hand) on the board. */
function load(data) {
  tiles.clear();
  for (const placed of data.tiles || []) tiles.set(key(placed.row, placed.col), String(placed.tile));
  equations = Array.isArray(data.equations)
    ? data.equations.map(({ row, col, dir, length }) => ({ row, col, dir, length }))
    : null;
  $("hand").value = (data.hand || []).join("");
}

const updateLink = shareLink();
// A game from its text: each step is the position its next mover faced (their own hand).
gameTextPanel({
  game: "summy",
  show(view, next) {
    load(view);
    played = next && next.action.type === "place" ? next.action.tiles : null;
    changed();
    board.centreOn([...tiles.keys()].map(parseKey));
  },
});

// A position handed over in the address (a replay's step, or a shared link).
const given = new URLSearchParams(location.hash.slice(1)).get("position");
if (given) {
  try {
    load(JSON.parse(given));
  } catch { // a broken link: start from the empty table
    tiles.clear();
    tiles.set(key(0, 0), "=");
    equations = null;
  }
}
draw();
board.centreOn([...tiles.keys()].map(parseKey));
analyse();
