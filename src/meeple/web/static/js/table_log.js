// The game log in words: one line per table event (docs/protocol.md), game moves through the game UI.
import { t } from "./i18n.js";
import { nameText } from "./names.js";

/** A readable line for a table event, or null for one not worth a line. */
export function describeTableEvent(event, seatName, ui) {
  const who = event.seat === null || event.seat === undefined ? "" : seatName(event.seat);
  switch (event.kind) {
    case "action": {
      const lines = (event.data.events || []).map((e) => (ui ? ui.describe(e) : null)).filter(Boolean);
      if (event.data.by === "timeout") lines.unshift(t("js.log.timeout", { name: who }));
      return lines.join(" ");
    }
    case "join": {
      const name = event.data.name ? nameText(event.data.name, event.data.bot_account) : who;
      return t("js.log.join", { name: event.data.bot ? who : name });
    }
    case "leave": return t("js.log.leave", { name: who });
    case "kick": return t("js.log.kick", { name: who });
    case "start": return t("js.log.start");
    case "zombie": return t("js.log.zombie", { name: who });
    case "finish": return t("js.log.game_over");
    case "rematch_vote": return t("js.log.rematch_vote", { name: who });
    case "rematch": return t("js.log.rematch");
    case "close": return t("js.log.close");
    case "claim": return t("js.log.claim", { name: nameText(event.data.name, false) });
    case "takeback_ask": return t("js.log.takeback_ask", { name: who });
    case "takeback_accept": return t("js.log.takeback_accept", { name: who });
    case "takeback_decline": return t("js.log.takeback_decline", { name: who });
    case "takeback": return t("js.log.takeback", { name: who });
    default: return null;
  }
}

/** The action events of the game as it stands: each `takeback` drops the last `count` actions
 * standing before it (docs/protocol.md). */
export function standingActions(events) {
  const standing = [];
  for (const event of events) {
    if (event.kind === "action") standing.push(event);
    else if (event.kind === "takeback") standing.splice(standing.length - event.data.count);
  }
  return standing;
}
