// The header's account area: who is signed in, their account page, sign in or out, play as
// guest; the language switch.
import { api, currentUser, routes, showRefusal } from "./api.js";
import { t } from "./i18n.js";
import { paintAvatar } from "./avatar.js";

const $ = (id) => document.getElementById(id);

async function show() {
  let user = null;
  try { user = await currentUser(); } catch { user = null; }
  const signedIn = Boolean(user);
  // The name is the link to the player's profile: one item, so a guest's header (name,
  // sign in, create an account) stays one line at 1280 px in every language.
  $("account-name").hidden = !signedIn;
  $("account-name").textContent = signedIn ? user.name : "";
  if (signedIn) $("account-name").href = `/profile/${encodeURIComponent(user.name)}`;
  // Nobody: sign in, sign up, play as a guest. A guest: their name, sign in (to an
  // account they have) and "Create an account" (which keeps their games). An account:
  // their name, their account page and sign out.
  const guest = signedIn && user.guest;
  $("account-signout").hidden = !signedIn || guest;
  if ($("account-settings")) $("account-settings").hidden = !signedIn || guest;
  if ($("nav-friends")) $("nav-friends").hidden = !signedIn || guest; // a guest follows nobody
  $("account-signin").hidden = signedIn && !guest;
  $("account-signup").hidden = signedIn && !guest;
  if (guest) $("account-signup").textContent = t("js.account.create_account");
  // The header's own chip: who you are, at a glance, on every screen size.
  $("me-chip").hidden = !signedIn;
  if (signedIn) {
    $("me-chip").href = $("account-name").href;
    $("me-chip").querySelector(".me-name").textContent = user.name;
    paintAvatar($("me-chip").querySelector(".avatar"), user.name);
  }
  $("account-guest").hidden = signedIn;
  // Kept on the page too, for a script that loads after the event (names.js: no challenge to oneself).
  document.body.dataset.me = signedIn ? user.name : "";
  document.dispatchEvent(new CustomEvent("meeple:user", { detail: user }));
}

$("account-signout")?.addEventListener("click", async () => {
  try { await api("POST", routes.logout); } finally { location.reload(); }
});
// A page made a guest on its own (taking a seat by invite): show who the person is now.
document.addEventListener("meeple:signed-in", () => show());
$("account-guest")?.addEventListener("click", async () => {
  const refusal = $("account-refusal");
  try {
    await api("POST", routes.guest);
  } catch (error) {
    if (refusal) { refusal.hidden = false; showRefusal(refusal, error); }
    return;
  }
  if (refusal) refusal.hidden = true;
  await show();
});
/** The phone header's menu: the links, the account and the language behind one button. */
const header = $("site-header");
const toggle = $("menu-toggle");
function openMenu(open) {
  header.classList.toggle("open", open);
  toggle.setAttribute("aria-expanded", String(open));
}
toggle?.addEventListener("click", () => openMenu(!header.classList.contains("open")));
document.addEventListener("keydown", (event) => { if (event.key === "Escape") openMenu(false); });
document.addEventListener("click", (event) => { if (header && !header.contains(event.target)) openMenu(false); });
const select = $("lang-select");
select?.addEventListener("change", () => select.form.submit());
show();
