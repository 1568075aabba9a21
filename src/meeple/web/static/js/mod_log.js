// The moderators' audit log (/mod/log, docs/moderation.md): every action, newest first, who
// did what to whom, when and why; older entries a page at a time.
import { api } from "./api.js";
import { el, momentText, t } from "./i18n.js";
import { actionLabel, detailsText } from "./mod_texts.js";

const $ = (id) => document.getElementById(id);
let before = null;

function row(entry) {
  return el("tr", { dataset: { action: entry.action } },
    el("td", {}, el("time", { datetime: new Date(entry.at * 1000).toISOString() }, momentText(entry.at))),
    el("td", {}, entry.moderator ?? t("js.mod.command_line")),
    el("td", {}, actionLabel(entry.action)),
    el("td", {}, el("a", { href: `/profile/${encodeURIComponent(entry.target)}` }, entry.target)),
    el("td", {}, entry.reason),
    el("td", {}, detailsText(entry)));
}

async function load() {
  const path = before === null ? "/api/mod/log" : `/api/mod/log?before=${before}`;
  let page;
  try {
    page = await api("GET", path);
  } catch (error) {
    $("mod-log-error").hidden = false;
    $("mod-log-error").textContent = error.message;
    return;
  }
  $("mod-log-rows").append(...page.entries.map(row));
  const any = $("mod-log-rows").children.length > 0;
  $("mod-log-table").hidden = !any;
  $("mod-log-empty").hidden = any;
  before = page.next_before;
  $("mod-log-more").hidden = before === null;
}

$("mod-log-more").addEventListener("click", load);
load();
