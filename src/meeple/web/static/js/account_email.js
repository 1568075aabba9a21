// The account page's Email section (only on a server that sends email): give an address,
// see whether it is verified, send the link again, remove it.
import { api, currentUser } from "./api.js";
import { t } from "./i18n.js";

const ROUTE = "/api/account/email";
const $ = (id) => document.getElementById(id);

function say(text, kind = "") {
  $("email-message").textContent = text;
  $("email-message").className = `message ${kind}`;
}

/** Show the address and its state (none, waiting for its link, verified). */
function showState(state) {
  const has = Boolean(state && state.address);
  $("email-current").hidden = !has;
  $("email-remove").hidden = !has;
  $("email-resend").hidden = !has || state.verified;
  if (has) {
    $("email-address").textContent = state.address;
    $("email-state").textContent = t(state.verified ? "js.email.verified" : "js.email.unverified");
    $("email-state").className = state.verified ? "email-state ok" : "email-state";
    $("email-form").elements.address.value = state.address;
  }
}

async function load() {
  const user = await currentUser().catch(() => null);
  if (!user || user.guest) return;
  try {
    showState(await api("GET", ROUTE));
  } catch (error) {
    say(error.message, "bad");
  }
}

async function send(address) {
  try {
    showState(await api("PUT", ROUTE, { address }));
  } catch (error) {
    say(error.message, "bad");
    return;
  }
  say(t("js.email.sent", { address }), "ok");
}

$("email-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send(new FormData(event.target).get("address").trim());
});

$("email-resend").addEventListener("click", () => send($("email-address").textContent));

$("email-remove").addEventListener("click", async () => {
  try {
    await api("DELETE", ROUTE);
  } catch (error) {
    say(error.message, "bad");
    return;
  }
  $("email-form").reset();
  showState(null);
  say(t("js.email.removed"), "ok");
});

document.addEventListener("meeple:user", () => load());
load();
