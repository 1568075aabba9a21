// A player's safety page (/safety, docs/moderation.md): their standing (a mute in force and
// why, the warnings of the last 30 days) and the players they blocked, to unblock or add.
import { api } from "./api.js";
import { el, momentText, t } from "./i18n.js";
import { onUser } from "./signed_in.js";

const $ = (id) => document.getElementById(id);

function say(text, ok) {
  $("safety-message").className = `message ${ok ? "ok" : "bad"}`;
  $("safety-message").textContent = text;
}

async function showStanding() {
  const standing = await api("GET", "/api/standing");
  $("safety-mute").textContent = standing.muted_until
    ? `${t("js.standing.muted", { when: momentText(standing.muted_until) })} ${standing.mute_reason ? t("js.standing.reason", { reason: standing.mute_reason }) : ""}`
    : t("js.safety.not_muted");
  $("safety-warnings").replaceChildren(...(standing.warnings.length
    ? standing.warnings.map((warning) => el("li", { class: "safety-warning" },
      el("time", { datetime: new Date(warning.at * 1000).toISOString() }, momentText(warning.at)), " · ",
      t("js.safety.warned", { reason: warning.reason })))
    : [el("li", { class: "muted" }, t("js.safety.no_warnings"))]));
}

async function showBlocks() {
  const blocks = await api("GET", "/api/blocks");
  $("safety-no-blocks").hidden = blocks.length > 0;
  $("safety-blocks").replaceChildren(...blocks.map((block) => el("li", { dataset: { name: block.name } },
    el("a", { href: `/profile/${encodeURIComponent(block.name)}` }, block.name), " · ",
    t("js.safety.since", { when: momentText(block.since) }), " ",
    el("button", { type: "button", class: "small", onclick: () => unblock(block.name) },
      t("js.safety.unblock", { name: block.name })))));
}

async function unblock(name) {
  try {
    await api("DELETE", `/api/blocks/${encodeURIComponent(name)}`);
    say(t("js.safety.unblocked", { name }), true);
    await showBlocks();
  } catch (error) { say(error.message, false); }
}

$("safety-block-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("safety-block-name").value.trim();
  if (!name) return;
  try {
    const block = await api("POST", "/api/blocks", { name });
    $("safety-block-name").value = "";
    say(t("js.safety.blocked_now", { name: block.name }), true);
    await showBlocks();
  } catch (error) { say(error.message, false); }
});

onUser(async (user) => {
  $("safety-signin").hidden = Boolean(user);
  $("safety-body").hidden = !user;
  if (!user) return;
  try {
    await Promise.all([showStanding(), showBlocks()]);
  } catch (error) { say(error.message, false); }
});
