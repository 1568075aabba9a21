// The tile tracker: the tiles this seat has not seen yet, by kind, counted from its own view
// (the same count as meeple.games.summy.tracker.unseen; a test keeps the two bags equal).
import { el, t } from "../../i18n.js";
import { face, tileName } from "./board.js";

/** How many of each tile the game has (tiles.BAG): digits 6 each, + - x : 5 each, = 14. */
export const BAG = {
  0: 6, 1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 6, 7: 6, 8: 6, 9: 6, "+": 5, "-": 5, x: 5, ":": 5, "=": 14,
};
const KINDS = [..."0123456789+-x:="];

/** What the seat of `view` has not seen: {counts, total, stock, hands, discards}; null for a spectator. */
export function unseen(view) {
  if (!view || view.seat === null || view.seat === undefined || !view.hand) return null;
  const counts = { ...BAG };
  const seen = [...(view.tiles || []).map((tile) => tile.tile), ...view.hand, ...(view.my_discards || [])];
  for (const tile of seen) if (tile in counts) counts[tile] -= 1;
  for (const kind of KINDS) counts[kind] = Math.max(0, counts[kind]);
  const others = (list) => (list || []).reduce((sum, n, seat) => sum + (seat === view.seat ? 0 : n), 0);
  return {
    counts, total: KINDS.reduce((sum, kind) => sum + counts[kind], 0),
    stock: view.stock ?? 0, hands: others(view.hand_sizes), discards: others(view.discarded),
  };
}

// Open unless the player closed it (then its one-line total stays): the choice is kept.
const OPEN_KEY = "meeple.summy.tracker";

/** The tracker panel: `node` to place, `update(view)` at each new view (hidden for a spectator). */
export function createTracker() {
  const total = el("span", { class: "tracker-total" });
  const where = el("span", { class: "tracker-where muted" });
  const list = el("ul", { class: "tracker-tiles", "aria-label": t("js.summy.tracker_list") });
  const kept = localStorage.getItem(OPEN_KEY);
  const node = el("details", {
    class: "tracker", id: "summy-tracker", hidden: true,
    open: kept !== "closed",
  }, el("summary", {}, total, " ", where), list);
  node.addEventListener("toggle", () => localStorage.setItem(OPEN_KEY, node.open ? "open" : "closed"));

  function update(view) {
    const left = unseen(view);
    node.hidden = !left;
    if (!left) return;
    total.textContent = t("js.summy.tracker_total", { n: left.total });
    where.textContent = [
      t("js.summy.tracker_stock", { n: left.stock }),
      view.players > 1 ? t("js.summy.tracker_hands", { n: left.hands }) : null,
      left.discards ? t("js.summy.tracker_discards", { n: left.discards }) : null,
    ].filter(Boolean).join(" · ");
    list.replaceChildren(...KINDS.map((kind) => el("li", {
      class: left.counts[kind] ? "" : "none", dataset: { kind, count: left.counts[kind] },
    },
    el("span", { class: `tile${"0123456789".includes(kind) ? "" : " op"}`, "aria-hidden": "true" }, face(kind)),
    el("span", { class: "n", "aria-hidden": "true" }, left.counts[kind]),
    el("span", { class: "sr" }, t("js.summy.tracker_kind", { tile: tileName(kind), n: left.counts[kind] })))));
  }

  return { node, update };
}
