// Who is signed in, for a script that may start after the header told it (account.js sets
// body[data-me] and sends "meeple:user" once it knows): the moderation scripts ask here.
import { currentUser } from "./api.js";

/** Call `show(user)` (or `show(null)`) each time the header learns who is signed in, and at
 * once, by asking again, if it knew before this script started. */
export function onUser(show) {
  document.addEventListener("meeple:user", (event) => show(event.detail));
  if (document.body.dataset.me !== undefined) currentUser().then(show, () => show(null));
}
