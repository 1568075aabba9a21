// The header's live "your turn" count: the "My games" link (in the menu) says how many
// tables wait for the player's move, and on a phone a chip outside the menu says it too.
// The count comes over the tab's account socket (me_socket.js), never by polling.
import { t } from "./i18n.js";
import { onUserLine } from "./me_socket.js";

const $ = (id) => document.getElementById(id);

/** The count's accessible text ("2 games where it is your turn"). */
export function turnsLabel(count) {
  return t("js.my_games.turns_label", { count });
}

function showCount(count) {
  const link = $("nav-my-games");
  const badge = $("my-turns-count");
  const chip = $("turns-chip");
  if (!link || !badge || !chip || !$("my-turns-words")) return;
  const label = turnsLabel(count);
  badge.hidden = count <= 0;
  badge.textContent = count > 0 ? String(count) : "";
  // The name comes from the link's content (its visible words first, then the count's words,
  // hidden from sight): an aria-label would have to repeat the visible text in every
  // language's word order, or voice control could not find the link by what it shows.
  $("my-turns-words").textContent = count > 0 ? `(${label})` : "";
  chip.hidden = count <= 0;
  chip.querySelector(".turns-chip-count").textContent = String(count);
  chip.setAttribute("aria-label", label);
  chip.title = label;
  document.dispatchEvent(new CustomEvent("meeple:my-turns", { detail: count }));
}

document.addEventListener("meeple:user", (event) => {
  const link = $("nav-my-games");
  if (link) link.hidden = !event.detail;
  if (!event.detail && $("turns-chip")) $("turns-chip").hidden = true;
});
document.addEventListener("meeple:signed-in", () => { if ($("nav-my-games")) $("nav-my-games").hidden = false; });
onUserLine("my_turns", (line) => showCount(Number(line.count) || 0));
