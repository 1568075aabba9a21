// The account page: change the password, sign out everywhere, download the data, delete.
import { api, currentUser, routes } from "./api.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function say(id, text, kind = "") {
  $(id).textContent = text;
  $(id).className = `message ${kind}`;
}

async function show() {
  let user = null;
  try { user = await currentUser(); } catch { user = null; }
  $("settings-nobody").hidden = Boolean(user);
  $("settings-guest").hidden = !user || !user.guest;
  $("settings-sections").hidden = !user || user.guest;
  $("settings-name").textContent = user && !user.guest ? `· ${user.name}` : "";
}

$("password-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const data = new FormData(form);
  try {
    await api("POST", routes.password, {
      current_password: data.get("current_password"),
      new_password: data.get("new_password"),
    });
  } catch (error) {
    say("password-message", error.message, "bad");
    return;
  }
  form.reset();
  say("password-message", t("js.settings.password_changed"), "ok");
});

$("everywhere-button").addEventListener("click", async () => {
  try {
    await api("POST", routes.signOutEverywhere);
  } catch (error) {
    say("everywhere-message", error.message, "bad");
    return;
  }
  location.href = "/signin?next=/account";
});

$("delete-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  try {
    await api("POST", routes.deleteAccount, { password: data.get("password") });
  } catch (error) {
    say("delete-message", error.message, "bad");
    return;
  }
  location.href = "/";
});

// The header asks who is signed in too; either answer shows the page (both: the same).
document.addEventListener("meeple:user", () => show());
show();
