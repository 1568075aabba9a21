// The account page's choice of emails about one's games ("your turn", "game finished"):
// shows what an unsubscribe link stopped, and turns it back on.
import { api, currentUser } from "./api.js";
import { t } from "./i18n.js";

const ROUTE = "/api/account/email-choices";
const box = document.getElementById("email-choices");
const message = document.getElementById("email-choices-message");

function show(choices) {
  for (const input of box.querySelectorAll("input[type=checkbox]")) {
    input.checked = Boolean(choices[input.name]);
  }
  box.hidden = false;
}

async function load() {
  const user = await currentUser().catch(() => null);
  if (!user || user.guest) return;
  try {
    show(await api("GET", ROUTE));
  } catch (error) {
    message.textContent = error.message;
  }
}

box.addEventListener("change", async () => {
  const wanted = {};
  for (const input of box.querySelectorAll("input[type=checkbox]")) wanted[input.name] = input.checked;
  try {
    show(await api("PUT", ROUTE, wanted));
    message.textContent = t("js.email_choices.saved");
    message.className = "message ok";
  } catch (error) {
    message.textContent = error.message;
    message.className = "message bad";
  }
});

document.addEventListener("meeple:user", () => load());
load();
