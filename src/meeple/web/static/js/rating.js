// A rating as players see it: the number, and a "?" explained on hover and to screen
// readers while it is provisional (fewer rated games than the page's data-provisional-games).
import { el, t } from "./i18n.js";

/** A span showing `rating`, with the provisional "?" mark when `provisional`. */
export function ratingText(rating, provisional) {
  if (!provisional) return el("span", { class: "rating" }, String(rating));
  const games = document.querySelector("[data-provisional-games]")?.dataset.provisionalGames ?? "10";
  const title = t("js.rating.provisional", { games });
  return el("span", { class: "rating" }, String(rating),
    el("abbr", { class: "provisional", title, "aria-label": title }, "?"));
}
