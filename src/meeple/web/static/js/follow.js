// Following a player from a page: a Follow / Unfollow button over PUT and DELETE
// /api/users/{name}/follow, with a line beside it saying what it did or why not.
import { api } from "./api.js";
import { el, t } from "./i18n.js";

/** The route that follows (PUT) or unfollows (DELETE) the account called `name`. */
export const followRoute = (name) => `/api/users/${encodeURIComponent(name)}/follow`;

/** The names the signed-in account `me` follows (none for nobody or a guest). */
export async function followedNames(me) {
  if (!me || me.guest) return new Set();
  try {
    return new Set((await api("GET", "/api/me/following")).friends.map((friend) => friend.name));
  } catch {
    return new Set();
  }
}

/** Say why following needs an account in `note`, with the way to make one. */
export function needAccount(note) {
  note.replaceChildren(t("js.friends.need_account"), " ",
    el("a", { href: `/signup?next=${encodeURIComponent(location.pathname)}` }, t("js.friends.sign_up")));
}

/** A button following `name`, or unfollowing once followed (`me`: the signed-in player, or
 * null), and the line beside it saying what it did or why not. */
export async function followButton(name, me) {
  let following = (await followedNames(me)).has(name);
  const note = el("span", { class: "follow-note", role: "status" });
  const button = el("button", { type: "button", id: "profile-follow" });
  const paint = () => { button.textContent = t(following ? "js.friends.unfollow" : "js.friends.follow"); };
  button.addEventListener("click", async () => {
    if (!me || me.guest) {
      needAccount(note);
      return;
    }
    try {
      following = (await api(following ? "DELETE" : "PUT", followRoute(name))).following;
      note.textContent = t(following ? "js.friends.now_following" : "js.friends.no_longer", { name });
    } catch (error) {
      note.textContent = error.message;
    }
    paint();
  });
  paint();
  return el("span", { class: "follow" }, button, " ", note);
}
