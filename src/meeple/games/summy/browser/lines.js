// Summy in words: a line per event for the log and the felt, a seat's notes, a refusal's params.
import { el, t } from "../../i18n.js";
import { face } from "./board.js";

/** A readable line for a Summy event. */
export function describeSummy(event, seatName) {
  switch (event.type) {
    case "place": return t("js.summy.log_place", { name: seatName(event.seat), equation: [...(event.equation || "")].map(face).join(""), score: event.score ?? 0 });
    case "discard": { const n = event.count ?? event.tiles ?? "?"; return t("js.summy.log_discard", { name: seatName(event.seat), n, count: n }); }
    case "pass": return t("js.summy.log_pass", { name: seatName(event.seat) });
    case "game_over": return null; // the table's own "finish" line says it once
    default: return null;
  }
}

/**
 * A refusal's params as the board writes them: ×, ÷ and − for the tiles x, : and -, in the
 * equations, signs and tiles it names (the catalog texts fill them in).
 */
export function showParams(params) {
  const shown = {};
  for (const [name, value] of Object.entries(params || {})) {
    shown[name] = typeof value === "string" && name !== "cell" ? [...value].map(face).join("") : value;
  }
  return shown;
}

/** Short notes beside a seat's name in the players list: tiles in hand, and what their last turn was. */
export function seatNotes(view, seat) {
  const notes = view.hand_sizes ? [el("span", { class: "muted" }, t("js.summy.tiles_in_hand", { n: view.hand_sizes[seat] }))] : [];
  const last = view.last_move;
  if (last && last.seat === seat && !view.game_over) {
    const text = last.type === "place" ? `+${last.score ?? 0}` : t(`js.summy.note_${last.type}`);
    notes.push(el("span", { class: "note", dataset: { note: last.type } }, text));
  }
  return notes;
}
