// A profile's report and block buttons (docs/moderation.md): for another player, once signed
// in; the block button says whether that player is blocked already (GET /api/blocks).
import { api } from "./api.js";
import { el, t } from "./i18n.js";
import { openReport } from "./report_dialog.js";
import { onUser } from "./signed_in.js";

const $ = (id) => document.getElementById(id);
const box = $("profile-safety");

function show(name, blocked) {
  const status = el("span", { class: "message", role: "status" });
  const toggle = el("button", { type: "button", class: "small", "aria-pressed": String(blocked) },
    t(blocked ? "js.safety.unblock" : "js.safety.block", { name }));
  toggle.addEventListener("click", async () => {
    try {
      if (blocked) await api("DELETE", `/api/blocks/${encodeURIComponent(name)}`);
      else await api("POST", "/api/blocks", { name });
      show(name, !blocked);
      box.querySelector(".message").textContent = t(blocked ? "js.safety.unblocked" : "js.safety.blocked_now", { name });
    } catch (error) { status.textContent = error.message; }
  });
  box.replaceChildren(
    el("button", { type: "button", class: "small", id: "profile-report", onclick: () => openReport({ name }) },
      t("js.safety.report", { name })),
    toggle, status);
  box.hidden = false;
}

onUser(async (user) => {
  const name = $("profile")?.dataset.name;
  if (!box || !user || !name || user.name.toLowerCase() === name.toLowerCase()) return;
  let blocks = [];
  try { blocks = await api("GET", "/api/blocks"); } catch { /* shown as not blocked */ }
  show(name, blocks.some((block) => block.name.toLowerCase() === name.toLowerCase()));
});
