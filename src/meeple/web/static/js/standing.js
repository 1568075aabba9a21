// The player's standing on every page (docs/moderation.md): a muted player is told on each
// page until when and why (GET /api/standing), and a moderator's header links the queue.
import { api } from "./api.js";
import { el, momentText, t } from "./i18n.js";
import { onUser } from "./signed_in.js";

const $ = (id) => document.getElementById(id);

async function show(user) {
  const banner = $("standing-banner");
  const link = $("nav-mod");
  if (!user) {
    if (banner) banner.hidden = true;
    if (link) link.hidden = true;
    return;
  }
  let standing;
  try { standing = await api("GET", "/api/standing"); } catch { return; }
  if (link) link.hidden = !standing.moderator;
  if (!banner) return;
  banner.hidden = !standing.muted_until;
  if (!standing.muted_until) return;
  banner.replaceChildren(
    el("strong", {}, t("js.standing.muted", { when: momentText(standing.muted_until) })), " ",
    standing.mute_reason ? t("js.standing.reason", { reason: standing.mute_reason }) : "", " ",
    el("a", { href: "/safety" }, t("js.standing.more")));
}

onUser(show);
