// Forgotten password: ask for a reset link (the answer never says whether the account
// exists), then choose a new password from the link's page and be signed in.
import { api } from "./api.js";
import { t } from "./i18n.js";

const message = document.getElementById("password-message");

function say(text, kind = "") {
  message.textContent = text;
  message.className = `message ${kind}`;
}

const forgot = document.getElementById("forgot-form");
if (forgot) {
  forgot.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = new FormData(forgot).get("name_or_email").trim();
    try {
      await api("POST", "/api/password/forgot", { name_or_email: value });
    } catch (error) {
      say(error.message, "bad");
      return;
    }
    say(t("js.password.link_sent"), "ok");
  });
}

const reset = document.getElementById("reset-form");
if (reset) {
  reset.addEventListener("submit", async (event) => {
    event.preventDefault();
    const password = new FormData(reset).get("password");
    try {
      await api("POST", "/api/password/reset", { token: reset.dataset.token, password });
    } catch (error) {
      say(error.message, "bad");
      return;
    }
    say(t("js.password.changed"), "ok");
    location.href = "/account";
  });
}
