// The account page: change the password, sign out everywhere, access tokens, turn into a
// bot account, download the data, delete.
import { api, currentUser, routes } from "./api.js";
import { el, t } from "./i18n.js";
import { botMark } from "./names.js";

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
  $("settings-name").replaceChildren(...(user && !user.guest ? [`· ${user.name}`, ...(user.bot ? [" ", botMark()] : [])] : []));
  $("bot-is").hidden = !user || !user.bot;
  $("bot-become").hidden = !user || Boolean(user.bot);
  if (user && !user.guest) listTokens();
}

const when = (seconds) => new Date(seconds * 1000).toLocaleString(document.documentElement.lang);

/** The account's live tokens: label, scopes, dates, and a button to revoke each. */
async function listTokens() {
  let tokens;
  try {
    tokens = await api("GET", routes.tokens);
  } catch (error) {
    say("token-message", error.message, "bad");
    return;
  }
  $("token-none").hidden = tokens.length > 0;
  $("token-list").replaceChildren(...tokens.map((token) => el("li", { dataset: { token: token.id } },
    el("strong", {}, token.label), " ",
    el("code", {}, token.scopes.join(" ")), " · ",
    t("js.tokens.created", { when: when(token.created_at) }), " · ",
    token.last_used_at ? t("js.tokens.last_used", { when: when(token.last_used_at) }) : t("js.tokens.never_used"), " ",
    el("button", {
      type: "button", class: "danger",
      "aria-label": t("js.tokens.revoke_named", { label: token.label }),
      onclick: () => revoke(token.id),
    }, t("js.tokens.revoke")))));
}

async function revoke(id) {
  try {
    await api("DELETE", routes.token(id));
  } catch (error) {
    say("token-message", error.message, "bad");
    return;
  }
  say("token-message", t("js.tokens.revoked"), "ok");
  listTokens();
}

$("token-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const data = new FormData(form);
  const scopes = data.getAll("scopes");
  if (!scopes.length) {
    say("token-message", t("js.tokens.pick_scope"), "bad");
    return;
  }
  let made;
  try {
    made = await api("POST", routes.tokens, { label: data.get("label"), scopes });
  } catch (error) {
    say("token-message", error.message, "bad");
    return;
  }
  form.reset();
  say("token-message", "", "");
  // Shown once: the page forgets it on the next load, the server never had it in clear.
  $("token-value").textContent = made.token;
  $("token-new").hidden = false;
  $("token-copy").focus();
  listTokens();
});

$("token-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("token-value").textContent);
    say("token-message", t("js.tokens.copied"), "ok");
  } catch {
    // No clipboard (an insecure page, a refusal): select it for the keyboard's copy.
    getSelection().selectAllChildren($("token-value"));
    say("token-message", t("js.tokens.copy_by_hand"), "");
  }
});

$("bot-button").addEventListener("click", async () => {
  if (!confirm(t("js.botaccount.confirm"))) return;
  try {
    await api("POST", routes.botAccount);
  } catch (error) {
    say("bot-message", error.message, "bad");
    return;
  }
  show();
});

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
