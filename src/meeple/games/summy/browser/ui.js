// The Summy table: the board, the hand rack, staging (drag and drop, clicks, keys), checks, discard, pass.
import { el, t, translateRefusal } from "../../i18n.js";
import { createBoard, face, key, parseKey, tileName } from "./board.js";
import { tileDragging } from "./drag_tiles.js";
import { describeSummy, showParams } from "./lines.js";
import { rovingRack } from "./rack_keys.js";
import { createTracker } from "./tracker.js";
import { hintButton } from "./hint.js";

const isOperator = (tile) => !"0123456789".includes(tile);

/** Build the Summy UI in `root`; `ctx` gives send(action), seatName(seat), say(text, kind), and at
 * a table aside(node) (the tracker's place), hintAllowed() and askHint() (hint.js). */
export function createSummy(root, ctx) {
  let view = null;
  let staged = new Map(); // "row,col" -> rack index
  let ghost = new Map(); // "row,col" -> tile: a move shown faded (a review's best move)
  let selected = null; // {from: "rack", index} or {from: "cell", key}
  let discardMode = false;
  let discardPicks = new Set();
  let singleDir = "H";
  let checkSeq = 0;
  let verdict = null; // {legal, score, equation, message}
  let lastMoveKey = "";
  let pending = false; // an action is on its way: wait for the next view before another
  let arriving = new Set(); // cells of a move just made by someone else: they land with a short animation

  const viewport = el("div", {
    class: "summy-viewport", tabindex: "0", role: "application",
    "aria-label": t("js.summy.board_label"), "aria-describedby": "summy-help",
  });
  const help = el("details", { class: "hint" },
    el("summary", {}, t("js.summy.help_title")), el("p", { id: "summy-help" }, t("js.summy.help")));
  const cursorNews = el("p", { class: "sr", "aria-live": "polite" });
  const rack = el("div", { class: "rack", role: "group", "aria-label": t("js.summy.rack") });
  const rackKeys = rovingRack(rack);
  const stock = el("span", { class: "stock" });
  const dirBox = el("span", { class: "dir-choice", hidden: true });
  const buttons = {
    confirm: el("button", { type: "button", class: "primary", onclick: confirmPlace }, t("js.summy.confirm")),
    clear: el("button", { type: "button", onclick: clearStaged }, t("js.summy.clear")),
    discard: el("button", { type: "button", "aria-pressed": "false", onclick: toggleDiscard }, t("js.summy.discard_mode")),
    confirmDiscard: el("button", { type: "button", class: "primary", hidden: true, onclick: confirmDiscard }, t("js.summy.confirm_discard")),
    cancelDiscard: el("button", { type: "button", hidden: true, onclick: toggleDiscard }, t("js.summy.cancel_discard")),
    pass: el("button", { type: "button", onclick: () => act({ type: "pass" }) }, t("js.summy.pass")),
  };
  const dirButtons = ["H", "V"].map((dir) => el("button", {
    type: "button", class: "small", "aria-pressed": "false", dataset: { dir },
    onclick: () => { singleDir = dir; redraw(); check(); },
  }, t("js.summy.dir_" + dir)));
  dirBox.append(t("js.summy.read"), " ", ...dirButtons);
  // A puzzle asks for one placement: no discard, no pass, no stock.
  const controls = el("div", { class: "summy-controls" }, buttons.confirm, buttons.clear,
    ...(ctx.puzzle ? [] : [buttons.discard, buttons.cancelDiscard, buttons.confirmDiscard, buttons.pass]));
  // What just happened (a move, a pass or a discard, until the next one), on the felt's top edge
  // outside its cells: over the felt it hid the top rows, and on a phone the player's own tiles.
  // The stock is counted at its right end: under the rack it took a row of its own in Italian.
  const tableNote = el("p", { class: "felt-note", role: "status" });
  const feltHead = el("div", { class: "felt-head" }, tableNote, ctx.puzzle || ctx.replay ? null : stock);
  const playing = !ctx.replay && !ctx.puzzle;
  // At a table: the unseen tiles in the side column (no room taken from the board), and a Hint
  // button where hints are given.
  const tracker = playing && ctx.aside ? createTracker() : null;
  if (tracker) ctx.aside(tracker.node);
  const hint = playing && ctx.askHint ? hintButton(ctx, { myTurn: () => myTurn(), stage: stageHint, pickDiscard: pickHint }) : null;
  if (hint) buttons.confirm.after(hint.button); // on a phone's first row, beside the play button
  // A replay shows the game, not how to play it: no placing help, no buttons.
  root.replaceChildren(...[feltHead, viewport, ctx.replay ? null : help, cursorNews, rack, ctx.replay ? null : controls].filter(Boolean));
  // Ctrl+Enter (or ⌘+Enter) plays from the board or the rack: no Tab walk to the button.
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || ctx.replay) return;
    event.preventDefault();
    if (discardMode) confirmDiscard();
    else confirmPlace();
  });
  // The verdict on the staged tiles goes where the eyes are: between the rack and its buttons.
  const feedback = document.getElementById("message");
  if (feedback && !ctx.replay) controls.before(feedback);

  const board = createBoard(viewport, {
    cellClick, keyTile, takeBack: (r, c) => { if (staged.has(key(r, c))) unstage(key(r, c)); },
    redraw: () => redraw(),
    cursorMoved: (row, col) => { cursorNews.textContent = describeCell(row, col); },
  });

  /** What a screen reader hears when the keyboard cursor lands on a cell. */
  function describeCell(row, col) {
    const k = key(row, col);
    const where = t("js.summy.cell", { row, col });
    if (staged.has(k)) return `${where}: ${t("js.summy.staged_tile", { tile: tileName(hand()[staged.get(k)]) })}`;
    const tile = tableTiles().get(k);
    if (tile) return `${where}: ${tileName(tile)}`;
    return `${where}: ${sealedSet().has(k) ? t("js.summy.sealed") : t("js.summy.empty")}`;
  }

  const myTurn = () => Boolean(view && view.seat !== null && view.seat !== undefined
    && view.turn === view.seat && !view.game_over && !pending);
  const act = (action) => { pending = true; redraw(); ctx.send(action); };
  const tableTiles = () => new Map((view.tiles || []).map((tile) => [key(tile.row, tile.col), tile.tile]));
  const sealedSet = () => new Set((view.sealed || []).map((cell) => key(cell.row, cell.col)));
  const hand = () => view.hand || [];
  const stagedIndexes = () => new Set(staged.values());

  function lastCells() {
    const last = view.last_move;
    if (!last || !last.tiles) return [];
    return last.tiles.map((tile) => [tile.row, tile.col]);
  }

  function canPlaceOn(k) {
    return myTurn() && !discardMode && !tableTiles().has(k) && !staged.has(k);
  }

  function stage(k, index) {
    if (!canPlaceOn(k) || index === null || index === undefined || stagedIndexes().has(index)) return;
    staged.set(k, index);
    selected = null;
    changed();
  }

  function unstage(k) {
    staged.delete(k);
    selected = null;
    changed();
  }

  function moveStaged(fromKey, toKey) {
    if (!canPlaceOn(toKey)) return;
    const index = staged.get(fromKey);
    staged.delete(fromKey);
    staged.set(toKey, index);
    selected = null;
    changed();
  }

  function cellClick(row, col) {
    const k = key(row, col);
    board.cursor = [row, col];
    if (!selected) {
      if (staged.has(k)) selected = { from: "cell", key: k };
      redraw();
      return;
    }
    if (selected.from === "rack") stage(k, selected.index);
    else if (selected.key === k) unstage(k); // a second click on a staged tile takes it back
    else moveStaged(selected.key, k);
  }

  // Tiles dragged from the rack onto the felt, between cells and back (drag_tiles.js).
  const draggable = tileDragging(board, rack, { stage, moveStaged, unstage });

  function keyTile(row, col, char) {
    const used = stagedIndexes();
    const index = hand().findIndex((tile, i) => tile === char && !used.has(i));
    if (index < 0) { ctx.say(t("js.summy.no_such_tile", { tile: face(char) }), "bad"); return; }
    const k = key(row, col);
    if (!canPlaceOn(k)) return;
    stage(k, index);
    // Said once the cursor has moved on: the tile and where it went, not the next empty cell.
    cursorNews.textContent = t("js.summy.placed", { tile: tileName(char), row, col });
    const [dr, dc] = staged.size > 1 ? direction() === "V" ? [1, 0] : [0, 1] : singleDir === "V" ? [1, 0] : [0, 1];
    const next = [row + dr, col + dc];
    board.cursor = next;
    redraw();
  }

  function direction() {
    const cells = [...staged.keys()].map(parseKey);
    if (cells.length < 2) return singleDir;
    return cells.every(([r]) => r === cells[0][0]) ? "H" : "V";
  }

  function placement() {
    return {
      dir: direction(),
      tiles: [...staged.entries()].map(([k, index]) => {
        const [row, col] = parseKey(k);
        return { row, col, tile: hand()[index] };
      }),
    };
  }

  function changed() {
    verdict = null;
    redraw();
    check();
  }

  async function check() {
    const seq = ++checkSeq;
    if (!staged.size) { sayIdle(); return; }
    const body = {
      position: { tiles: view.tiles, equations: view.equations.map(({ row, col, dir, length }) => ({ row, col, dir, length })), hand: hand() },
      action: { type: "place", ...placement() },
    };
    try {
      const response = await fetch("/api/games/summy/preview", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (seq !== checkSeq) return;
      verdict = answer;
      if (answer.legal) ctx.say(t("js.summy.legal", { equation: [...answer.text].map(face).join(""), score: answer.score }), "ok");
      else ctx.say(translateRefusal(answer.reason, showParams(answer.params), answer.message || t("js.error.generic")), "bad");
    } catch {
      if (seq === checkSeq) ctx.say(t("js.error.network"), "bad");
    }
    redraw();
  }

  // A turn with no equation to make says so on the feedback line, with the reason and the way
  // on (discard, or pass once the stock is empty), that button marked: a greyed Pass with no
  // reason read as a broken page. The analysis board counts the placements (none are shown).
  let stuck = null; // {turn, none}: whether the hand makes no equation at this turn

  /** This turn's key: a new one after any move or draw. */
  const turnKey = () => JSON.stringify([view.hand, (view.tiles || []).length, view.last_move, view.stock]);
  const isStuck = () => playing && myTurn() && Boolean(stuck && stuck.none && stuck.turn === turnKey());

  async function lookForPlacements() {
    const turn = turnKey();
    if (!playing || !myTurn() || (stuck && stuck.turn === turn)) return;
    stuck = { turn, none: false };
    const position = { tiles: view.tiles, equations: view.equations.map(({ row, col, dir, length }) => ({ row, col, dir, length })), hand: hand() };
    try {
      const response = await fetch("/api/analysis/summy?limit=0", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(position),
      });
      if (!response.ok) return; // no help rather than a wrong one
      const answer = await response.json();
      if (stuck.turn !== turn) return;
      stuck.none = answer.count === 0;
    } catch { return; }
    if (!staged.size && !discardMode) sayIdle();
    redraw();
  }

  /** The feedback line with nothing staged: the help of a turn without an equation, or empty. */
  function sayIdle() {
    if (!isStuck()) { ctx.say("", ""); return; }
    ctx.say(t((view.stock ?? 0) > 0 ? "js.summy.stuck_discard" : "js.summy.stuck_pass"), "help");
  }

  /** The rack indexes of these tiles (a multiset): a hint's, as if picked by hand. */
  const indexesOf = (tiles) => tiles.reduce((found, tile) => [...found, hand().findIndex((have, i) => have === tile && !found.includes(i))], []);

  /** A hint's placement, staged from the rack as if placed by hand; `known`: its verdict. */
  function stageHint(dir, tiles, known) {
    if (!myTurn()) return;
    if (discardMode) toggleDiscard();
    const indexes = indexesOf(tiles.map((placed) => placed.tile));
    staged = new Map(tiles.map(({ row, col }, n) => [key(row, col), indexes[n]]));
    [singleDir, selected, verdict] = [dir, null, known];
    redraw();
    board.centreOn(tiles.map(({ row, col }) => [row, col]));
  }

  /** A hint's discard: discard mode with these tiles picked, ready to confirm. */
  function pickHint(tiles) {
    if (!myTurn()) return;
    if (!discardMode) toggleDiscard();
    discardPicks = new Set(indexesOf(tiles));
    redraw();
  }

  function confirmPlace() {
    if (!myTurn() || !staged.size || !verdict || !verdict.legal) return;
    act({ type: "place", ...placement() });
  }

  function clearStaged() {
    staged = new Map();
    selected = null;
    changed();
  }

  function toggleDiscard() {
    discardMode = !discardMode;
    discardPicks = new Set();
    if (discardMode) staged = new Map();
    selected = null;
    verdict = null;
    if (discardMode) ctx.say(t("js.summy.discard_help"), "");
    else sayIdle();
    redraw();
  }

  function confirmDiscard() {
    if (!myTurn() || !discardPicks.size) return;
    act({ type: "discard", tiles: [...discardPicks].map((i) => hand()[i]) });
  }

  function rackClick(index) {
    if (discardMode) {
      if (discardPicks.has(index)) discardPicks.delete(index);
      else discardPicks.add(index);
      redraw();
      return;
    }
    if (selected && selected.from === "cell") {
      unstage(selected.key);
      return;
    }
    selected = selected && selected.from === "rack" && selected.index === index ? null : { from: "rack", index };
    redraw();
    if (selected) ctx.say(t("js.summy.now_click_cell"), "");
  }

  function tileNode(tile, extraClass, attrs = {}) {
    const classes = ["tile", isOperator(tile) ? "op" : "", extraClass].filter(Boolean).join(" ");
    return el(attrs.tag || "span", { ...attrs, tag: null, class: classes }, face(tile));
  }

  function redraw() {
    if (!view) return;
    const cells = new Map();
    const table = tableTiles();
    const last = new Set(lastCells().map(([r, c]) => key(r, c)));
    const sealed = sealedSet();
    for (const [k, tile] of table) {
      const [r, c] = parseKey(k);
      const label = `${tileName(tile)}, ${t("js.summy.cell", { row: r, col: c })}`
        + (last.has(k) ? `, ${t("js.summy.last_move")}` : "");
      const order = arriving.has(k) ? [...arriving].indexOf(k) : -1;
      const classes = [last.has(k) ? "last" : "", order >= 0 ? "arrive" : ""].filter(Boolean).join(" ");
      cells.set(k, { node: tileNode(tile, classes, {
        role: "img", "aria-label": label, style: order >= 0 ? `--i:${order}` : null,
      }) });
    }
    for (const [k, tile] of ghost) {
      if (table.has(k)) continue;
      cells.set(k, { node: tileNode(tile, "ghost", {
        role: "img", "aria-label": t("js.review.ghost", { tile: tileName(tile) }),
      }) });
    }
    for (const [k, index] of staged) {
      const tile = hand()[index];
      const isSelected = selected && selected.from === "cell" && selected.key === k;
      cells.set(k, { node: draggable(tileNode(tile, "staged" + (isSelected ? " selected" : ""), {
        // Not a Tab stop: the board's own keys reach it (arrows, Enter, Backspace).
        tag: "button", type: "button", tabindex: "-1", dataset: { staged: k },
        "aria-label": t("js.summy.staged_tile", { tile: tileName(tile) }),
      }), `cell:${k}`) });
    }
    const targets = new Set();
    if (myTurn() && !discardMode) {
      for (const k of [...table.keys(), ...staged.keys()]) {
        const [r, c] = parseKey(k);
        for (const [dr, dc] of [[0, 1], [0, -1], [1, 0], [-1, 0]]) {
          const n = key(r + dr, c + dc);
          if (!table.has(n) && !staged.has(n) && !sealed.has(n)) targets.add(n);
        }
      }
    }
    board.draw(cells, sealed, targets);
    const used = stagedIndexes();
    const rackHadFocus = rackKeys.before();
    rack.replaceChildren(...hand().map((tile, index) => {
      if (used.has(index)) return null;
      const classes = [];
      if (selected && selected.from === "rack" && selected.index === index) classes.push("selected");
      if (discardPicks.has(index)) classes.push("discard-pick");
      const node = tileNode(tile, classes.join(" "), {
        tag: "button", type: "button",
        dataset: { index, tile }, "aria-pressed": String(classes.length > 0),
        "aria-label": discardMode ? t("js.summy.discard_tile", { tile: tileName(tile) }) : t("js.summy.rack_tile", { tile: tileName(tile) }),
        onclick: () => rackClick(index),
      });
      return myTurn() && !discardMode ? draggable(node, `rack:${index}`) : node;
    }).filter(Boolean));
    if (view.seat === null || view.seat === undefined) rack.replaceChildren(ctx.replay ? "" : el("span", { class: "muted" }, t("js.summy.spectating")));
    rackKeys.after(rackHadFocus);
    const mine = myTurn();
    buttons.confirm.disabled = !(mine && verdict && verdict.legal && staged.size);
    buttons.clear.disabled = !staged.size;
    buttons.discard.disabled = !mine || (view.stock ?? 0) === 0;
    buttons.discard.setAttribute("aria-pressed", String(discardMode));
    // Discard mode shows only its own buttons (the others could not be used in it): two rows
    // at most on a phone, in every language, as outside it.
    buttons.confirm.hidden = buttons.clear.hidden = buttons.pass.hidden = discardMode;
    buttons.confirmDiscard.hidden = buttons.cancelDiscard.hidden = !discardMode;
    buttons.confirmDiscard.disabled = !discardPicks.size;
    buttons.pass.disabled = !mine || (view.stock ?? 0) > 0;
    // Why it cannot be used, on the button itself; the way on of a turn without an equation
    // is the marked button.
    buttons.pass.title = mine && (view.stock ?? 0) > 0 ? t("js.summy.pass_when") : "";
    const wayOn = isStuck() ? ((view.stock ?? 0) > 0 ? buttons.discard : buttons.pass) : null;
    buttons.discard.classList.toggle("primary", wayOn === buttons.discard && !discardMode);
    buttons.pass.classList.toggle("primary", wayOn === buttons.pass);
    dirBox.hidden = staged.size !== 1;
    for (const button of dirButtons) button.setAttribute("aria-pressed", String(button.dataset.dir === singleDir));
    stock.textContent = t("js.summy.stock", { n: view.stock ?? 0 });
    const spectator = view.seat === null || view.seat === undefined;
    for (const button of Object.values(buttons)) if (spectator) button.hidden = true;
    hint?.redraw();
  }

  /** The last turn, said on the felt: who placed what for how much, who passed or swapped tiles. */
  function showTableNote(last) {
    const text = last && !view.game_over ? describeSummy(last, ctx.seatName) : "";
    if (tableNote.textContent === text) return;
    tableNote.textContent = text || "";
    tableNote.dataset.kind = last ? last.type : "";
    // Restart the entrance animation for a new note.
    tableNote.style.animation = "none";
    void tableNote.offsetWidth;
    tableNote.style.animation = "";
  }
  // Which way a single tile reads: asked on the felt, so the buttons under the rack never move.
  viewport.append(dirBox);

  return {
    /** Show a new view; a new move on the table clears the staging and centres on it. */
    update(next) {
      const before = view;
      view = next;
      pending = false;
      const moveKey = JSON.stringify(next.last_move || null);
      const handChanged = !before || JSON.stringify(before.hand) !== JSON.stringify(next.hand);
      if (handChanged || moveKey !== lastMoveKey || !myTurn()) {
        staged = new Map();
        selected = null;
        discardPicks = new Set();
        discardMode = false;
        verdict = null;
      }
      const fresh = Boolean(before) && moveKey !== lastMoveKey;
      // Someone else's tiles land one after another; your own are already where you put them.
      arriving = fresh && next.last_move?.seat !== next.seat ? new Set(lastCells().map(([r, c]) => key(r, c))) : new Set();
      redraw();
      arriving = new Set();
      if (moveKey !== lastMoveKey || !before) board.centreOn(lastCells());
      lastMoveKey = moveKey;
      showTableNote(next.last_move);
      tracker?.update(next);
      lookForPlacements();
    },
    /** Centre the felt on the whole table (a puzzle: no last move to look at). */
    centreOnTable() {
      const cells = [...tableTiles().keys()].map(parseKey);
      requestAnimationFrame(() => board.centreOn(cells));
    },
    /** Show a move faded on the table (``tiles``: [{row, col, tile}]), or none. */
    showGhost(tiles) {
      ghost = new Map((tiles || []).map((placed) => [key(placed.row, placed.col), placed.tile]));
      redraw();
      if (ghost.size) board.centreOn([...ghost.keys()].map(parseKey));
    },
    /** Whether the viewer must act now. */
    myTurn,
    /** A one-line description of an event for the game log. */
    describe(event) { return describeSummy(event, ctx.seatName); },
    /** The last action was refused (the shell shows why): let the player try again. */
    refused() { pending = false; redraw(); },
  };
}

// ----- what the generic pages ask of every game module (see /js/games.js) -----

/** This game's colour in charts (the profile's rating chart). */
export const colour = "#1f6f5c";

/** Build this game's table UI in `root` (the table and replay pages call it). */
export const createUi = createSummy;

/** The points to show per seat: the running scores. */
export function shownScores(view) {
  return view.scores;
}

/** The board grows and shrinks with the screen: the table page gives it the room the rack leaves. */
export const fillsScreen = true;

export { seatNotes, showParams } from "./lines.js";

// The replay's review hooks (replay.js asks for them).
export { review } from "./review.js";

// The puzzle page's hooks (puzzle.js asks for them).
export { puzzle } from "./puzzle.js";

// The tutorial page's hooks (learn.js asks for them).
export { learn } from "./learn.js";
