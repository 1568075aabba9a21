// The header's account area: who is signed in, sign out, play as guest; the language switch.
import { api, currentUser, routes } from "./api.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

async function show() {
  let user = null;
  try { user = await currentUser(); } catch { user = null; }
  const signedIn = Boolean(user);
  $("account-name").hidden = !signedIn;
  $("account-name").textContent = signedIn ? user.name : "";
  $("account-profile").hidden = !signedIn;
  if (signedIn) $("account-profile").href = `/profile/${encodeURIComponent(user.name)}`;
  // Nobody: sign in, sign up, play as a guest. A guest: their name and "Create an
  // account" (which keeps their games). An account: their name and sign out.
  const guest = signedIn && user.guest;
  $("account-signout").hidden = !signedIn || guest;
  $("account-signin").hidden = signedIn;
  $("account-signup").hidden = signedIn && !guest;
  if (guest) $("account-signup").textContent = t("js.account.create_account");
  $("account-guest").hidden = signedIn;
  document.dispatchEvent(new CustomEvent("meeple:user", { detail: user }));
}

$("account-signout")?.addEventListener("click", async () => {
  try { await api("POST", routes.logout); } finally { location.reload(); }
});
$("account-guest")?.addEventListener("click", async () => {
  await api("POST", routes.guest);
  await show();
});
const select = $("lang-select");
select?.addEventListener("change", () => select.form.submit());
show();
