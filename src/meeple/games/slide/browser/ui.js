// The Slide table: your grid large with entry arrows, the others small, the pool, the reveal.
import { el, t } from "../../i18n.js";

const SIDES = ["top", "left", "right", "bottom"];
const ARROWS = { top: "↓", bottom: "↑", left: "→", right: "←" };

/** Sides a card may enter from for a hole at [row, col]: never straight into the hole. */
export function allowedSides(hole) {
  if (!hole) return [];
  const [row, col] = hole;
  return SIDES.filter((side) =>
    !((side === "left" && col === 0) || (side === "right" && col === 3) ||
      (side === "top" && row === 0) || (side === "bottom" && row === 3)));
}

/** How each card of a grid moved in a take: "row,col" -> [drow, dcol] it came from (in cells). */
export function slideOffsets(hole, side) {
  const [hr, hc] = hole;
  const moved = new Map();
  if (side === "left") for (let c = 0; c <= hc; c++) moved.set(`${hr},${c}`, [0, -1]);
  if (side === "right") for (let c = hc; c <= 3; c++) moved.set(`${hr},${c}`, [0, 1]);
  if (side === "top") for (let r = 0; r <= hr; r++) moved.set(`${r},${hc}`, [-1, 0]);
  if (side === "bottom") for (let r = hr; r <= 3; r++) moved.set(`${r},${hc}`, [1, 0]);
  return moved;
}

function cardLabel(value, row, col) {
  const where = t("js.slide.cell", { row: row + 1, col: col + 1 });
  if (value === null) return `${t("js.slide.hole")}, ${where}`;
  if (value === 0) return `${t("js.slide.face_down")}, ${where}`;
  return `${value}, ${where}`;
}

/**
 * Build the Slide UI in `root`; `ctx` gives send(action), seatName(seat), say(text, kind), and
 * `replay: true` when the grids are a past position, named after their players.
 */
export function createSlide(root, ctx) {
  let view = null;
  let chosen = null; // the pool value chosen for the draft
  let slides = new Map(); // seat -> the cards that just slid, for the animation
  let pending = false; // an action is on its way: wait for the next view before another
  let best = null; // a review's best option to mark: {action, seat}

  const status = el("p", { class: "slide-status", "aria-live": "polite" });
  const mineHeading = el("h2", {}, t("js.slide.your_grid"));
  const mine = el("div", { class: "slide-mine", role: "group", "aria-label": t("js.slide.your_grid") });
  const poolBox = el("div", { class: "pool", role: "group", "aria-label": t("js.slide.pool") });
  const others = el("div", { class: "others" });
  const finalBox = el("div", { class: "slide-final" });
  root.replaceChildren(
    status,
    el("div", { class: "slide-area" },
      el("div", { class: "mine-box" }, mineHeading, mine),
      el("div", { class: "pool-box" }, el("h2", {}, t("js.slide.pool")), poolBox),
      el("div", { class: "others-box" }, el("h2", {}, t("js.slide.others")), others)),
    finalBox,
  );

  const me = () => (view && view.seat !== null && view.seat !== undefined ? view.seat : null);
  const myTurnToPick = () => !pending && me() !== null && view.phase === "reveal" && view.to_act.includes(me());
  const myTurnToTake = () => !pending && me() !== null && view.phase === "draft" && view.turn === me();
  const act = (action) => { pending = true; draw(); ctx.send(action); };

  function drawMine() {
    const seat = me() ?? 0;
    const grid = view.grids[seat];
    const hole = view.holes[seat];
    const sides = myTurnToTake() && chosen !== null ? allowedSides(hole) : [];
    const cells = [];
    for (let r = -1; r <= 4; r++) {
      for (let c = -1; c <= 4; c++) {
        const inside = r >= 0 && r < 4 && c >= 0 && c < 4;
        const style = `grid-row:${r + 2};grid-column:${c + 2}`;
        if (inside) {
          cells.push(cardButton(grid[r][c], r, c, style, true));
          continue;
        }
        const side = entrySide(hole, r, c);
        if (side && sides.includes(side)) {
          cells.push(el("button", {
            type: "button", class: "entry", style, dataset: { side },
            "aria-label": t("js.slide.enter_" + side, { value: chosen }),
            onclick: () => take(side),
          }, ARROWS[side]));
        }
      }
    }
    mine.replaceChildren(...cells);
    // A spectator sees seat 0 large, under its player's name.
    const title = me() === null || ctx.replay ? ctx.seatName(me() ?? 0) : t("js.slide.your_grid");
    mine.setAttribute("aria-label", title);
    mineHeading.textContent = title;
  }

  function entrySide(hole, r, c) {
    if (!hole) return null;
    const [hr, hc] = hole;
    if (r === hr && c === -1) return "left";
    if (r === hr && c === 4) return "right";
    if (c === hc && r === -1) return "top";
    if (c === hc && r === 4) return "bottom";
    return null;
  }

  function cardButton(value, r, c, style, large, seat = me() ?? 0) {
    const pick = view.my_pick && view.my_pick[0] === r && view.my_pick[1] === c;
    const pickable = large && myTurnToPick() && value === 0;
    const classes = ["slide-card"];
    if (value === null) classes.push("hole");
    else if (value === 0) classes.push("back");
    if (pickable) classes.push("pickable");
    if (pick) classes.push("picked");
    const marked = best && best.action.type === "reveal" && best.seat === seat
      && best.action.cell[0] === r && best.action.cell[1] === c;
    if (marked) classes.push("best");
    const slid = slides.get(seat)?.get(`${r},${c}`);
    if (slid) {
      classes.push("slid");
      style = `${style};--dy:${slid[0]};--dx:${slid[1]}`;
    }
    const label = cardLabel(value, r, c) + (pick ? ` (${t("js.slide.your_pick")})` : "");
    const text = value === null ? "" : value === 0 ? (pick ? "✓" : "") : String(value);
    if (!pickable) return el("div", { class: classes.join(" "), style, role: "img", "aria-label": label }, text);
    return el("button", {
      type: "button", class: classes.join(" "), style, "aria-label": `${label}: ${t("js.slide.reveal_this")}`,
      dataset: { row: r, col: c }, onclick: () => act({ type: "reveal", cell: [r, c] }),
    }, text);
  }

  function drawPool() {
    const canTake = myTurnToTake();
    if (chosen !== null && !view.pool.includes(chosen)) chosen = null;
    poolBox.replaceChildren(...view.pool.map((value) => canTake
      ? el("button", {
          type: "button", class: "slide-card", "aria-pressed": String(chosen === value),
          "aria-label": t("js.slide.choose_card", { value }), dataset: { value },
          onclick: () => { chosen = value; draw(); },
        }, String(value))
      : el("div", { class: `slide-card${best && best.action.type === "take" && best.action.value === value ? " best" : ""}`,
          role: "img", "aria-label": String(value) }, String(value))));
    if (!view.pool.length) poolBox.append(el("span", { class: "muted" }, t("js.slide.pool_empty")));
  }

  function drawOthers() {
    const seats = view.grids.map((_, s) => s).filter((s) => s !== (me() ?? 0));
    others.replaceChildren(...seats.map((s) => el("figure", { class: "other" },
      el("div", { class: "slide-small", role: "group", "aria-label": ctx.seatName(s) },
        view.grids[s].flatMap((row, r) => row.map((value, c) => cardButton(value, r, c, "", false, s)))),
      el("figcaption", {}, ctx.seatName(s)))));
  }

  function drawStatus() {
    const picked = view.picked.filter(Boolean).length;
    let text = t("js.slide.round", { round: view.round, rounds: view.rounds });
    if (view.phase === "reveal") {
      text += " · " + t("js.slide.picked_count", { n: picked, total: view.players });
      if (myTurnToPick()) text += " · " + t("js.slide.pick_prompt");
      else if (view.my_pick) text += " · " + t("js.slide.wait_others");
    } else if (view.phase === "draft") {
      if (myTurnToTake()) text += " · " + (chosen === null ? t("js.slide.take_prompt") : t("js.slide.side_prompt"));
      else text += " · " + t("js.slide.taking", { name: ctx.seatName(view.turn) });
    }
    if (view.deal > 1 || view.options?.match_to_100) {
      text += " · " + t("js.slide.deal", { deal: view.deal });
    }
    status.textContent = text;
  }

  function drawFinal() {
    const last = view.last_deal;
    if (!last) { finalBox.replaceChildren(); return; }
    finalBox.replaceChildren(el("h2", {}, t("js.slide.cancelled_heading")),
      el("div", { class: "others" }, ...last.grids.map((grid, s) => el("figure", { class: "other" },
        el("div", { class: "slide-small", role: "group", "aria-label": ctx.seatName(s) },
          grid.flatMap((row, r) => row.map((value, c) => {
            const original = view.phase === "over" ? view.grids[s][r][c] : null;
            return value === null
              ? el("div", { class: "slide-card cancelled", role: "img",
                  "aria-label": `${original ?? ""} ${t("js.slide.cancelled")}` }, original ?? "×")
              : el("div", { class: "slide-card", role: "img", "aria-label": String(value) }, String(value));
          }))),
        el("figcaption", {}, t("js.slide.cards_left", { name: ctx.seatName(s), n: last.cards_left[s] }),
          " · ", t("js.table.points", { n: view.totals[s] }))))));
  }

  function take(side) {
    const value = chosen;
    chosen = null;
    act({ type: "take", value, side });
  }

  function draw() {
    drawStatus();
    drawMine();
    drawPool();
    drawOthers();
    drawFinal();
  }

  return {
    /** Show a new view (after an event or a reconnect). */
    update(next, events = []) {
      view = next;
      pending = false;
      slides = new Map(events.filter((e) => e.type === "take").map((e) => [e.seat, slideOffsets(e.hole, e.side)]));
      draw();
      slides = new Map();
    },
    /** Mark a review's best option (``action`` of ``seat``): a card to reveal, or a pool card. */
    highlight(action, seat) {
      best = action ? { action, seat } : null;
      if (view) draw();
    },
    /** Whether the viewer must act now (for the tab title and the sound). */
    myTurn() { return view !== null && (myTurnToPick() || myTurnToTake()); },
    /** The last action was refused: let the player act again. */
    refused() { pending = false; if (view) draw(); }, // a refusal before the deal: no board yet
    /** A one-line description of an event for the game log. */
    describe(event) { return describeSlide(event, ctx.seatName); },
  };
}

/** A readable line for a Slide event. */
export function describeSlide(event, seatName) {
  switch (event.type) {
    case "picked": return t("js.slide.log_picked", { name: seatName(event.seat) });
    case "revealed": return t("js.slide.log_revealed", { cards: (event.pool || []).join(", ") });
    case "first_player": return t("js.slide.log_first", { name: seatName(event.seat) });
    case "take": return t("js.slide.log_take", { name: seatName(event.seat), value: event.value, side: t("js.side." + event.side) });
    case "round_over": return t("js.slide.log_round", { round: event.round });
    case "deal_over": return t("js.slide.log_deal_over");
    case "new_deal": return t("js.slide.log_new_deal", { deal: event.deal });
    case "game_over": return null; // the table's own "finish" line says it once
    default: return null;
  }
}

// ----- what the generic pages ask of every game module (see /js/games.js) -----

/** This game's colour in charts (the profile's rating chart). */
export const colour = "#7b3c96";

/** Build this game's table UI in `root` (the table and replay pages call it). */
export const createUi = createSlide;

/** The points to show per seat: the totals once they mean something (the end, or a match to 100). */
export function shownScores(view) {
  if (view.phase === "over" || (view.options && view.options.match_to_100)) return view.totals;
  return [];
}

/** Short notes beside a seat's name in the players list. */
export function seatNotes(view, seat) {
  return view.phase === "reveal" && view.picked && view.picked[seat] ? [el("span", {}, t("js.slide.has_picked"))] : [];
}

// The replay's review hooks (replay.js asks for them).
export { review } from "./review.js";
