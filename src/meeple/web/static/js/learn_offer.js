// A player's first game of a game that has a tutorial: the table page offers it at the top of its
// side column (never above the board: the first screen stays the game's), with a way to dismiss it. "First": the player has finished no game of it yet (their profile's
// count); the offer is not made again once dismissed or once the tutorial was finished in this
// browser (learn.js remembers it).
import { api, routes } from "./api.js";

const $ = (id) => document.getElementById(id);
let asked = false;

/** Offer the tutorial of `game` to `user` (signed in or a guest) when `seated` at its table. */
export async function offerTutorial(game, user, seated) {
  const offer = $("learn-offer");
  if (asked || !offer || !user || !seated) return;
  asked = true;
  if (!offer.dataset.games.split(" ").includes(game)) return;
  const memory = `meeple.learn.${game}`;
  try { if (localStorage.getItem(memory)) return; } catch { /* private mode: offered each time */ }
  let profile;
  try { profile = await api("GET", routes.profile(user.name)); } catch { return; }
  if ((profile.finished || {})[game]) return;
  $("learn-link").href = `/learn/${encodeURIComponent(game)}`;
  $("learn-dismiss").addEventListener("click", () => {
    offer.hidden = true;
    try { localStorage.setItem(memory, "dismissed"); } catch { /* offered again next time */ }
  });
  offer.hidden = false;
}
