// How the moderators' pages say an action and what it did, in the page's language.
import { momentText, t } from "./i18n.js";

/** An action of the audit log in words ("Muted", "Marked as cheater"...). */
export function actionLabel(action) {
  const text = t(`js.mod.action_${action}`);
  return text === `js.mod.action_${action}` ? action : text;
}

/** What an entry's action did, in words: a mute's end, a role's change, a cheater's games. */
export function detailsText(entry) {
  const details = entry.details || {};
  const parts = [];
  if (typeof details.until === "number") parts.push(t("js.mod.until", { when: momentText(details.until) }));
  if (details.role) {
    parts.push(t("js.mod.role_change", { was: t(`js.mod.role_${details.was}`), role: t(`js.mod.role_${details.role}`) }));
  }
  if (typeof details.tables === "number") {
    parts.push(t("js.mod.unrated", { count: details.tables }), t("js.mod.restored", { count: details.opponents }));
  }
  if (details.reports) parts.push(t("js.mod.reports_closed", { count: details.reports }));
  return parts.join(" · ");
}
