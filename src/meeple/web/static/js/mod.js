// The moderators' queue (/mod, docs/moderation.md): each open report with what to read beside
// it (the chat around a reported line, the two accounts' tables together, the accounts sharing
// an address with the reported one, its standing and earlier actions) and the actions on it.
// Every text a player wrote is shown as text, never as markup or a link.
import { api } from "./api.js";
import { el, momentText, t } from "./i18n.js";
import { actionLabel, detailsText } from "./mod_texts.js";

const $ = (id) => document.getElementById(id);
const DURATIONS = [[60, "js.mod.hour"], [1440, "js.mod.day"], [10080, "js.mod.week"], [43200, "js.mod.month"]];
const DOES = ["warn", "mute", "cheater", "close", "dismiss"];

function gameName(game) {
  const name = t(`game.${game}`);
  return name === `game.${game}` ? game : name;
}

function when(seconds) {
  return el("time", { datetime: new Date(seconds * 1000).toISOString() }, momentText(seconds));
}

function profileLink(name) {
  return el("a", { href: `/profile/${encodeURIComponent(name)}` }, name);
}

function part(title, items, empty) {
  return el("section", { class: "mod-context" }, el("h3", {}, title),
    items.length ? el("ul", { class: "plain" }, ...items) : el("p", { class: "muted" }, empty));
}

function chatPart(report) {
  if (!report.chat.length) return null;
  return el("section", { class: "mod-context" }, el("h3", {}, t("js.mod.chat")),
    el("ol", { class: "mod-chat" }, ...report.chat.map((line) => el("li", { class: line.reported ? "reported" : null },
      when(line.at), " ", el("strong", {}, `${line.name}: `), line.text,
      line.reported ? el("span", { class: "mod-tag" }, t("js.mod.reported_line")) : null))));
}

function gameLine(game) {
  const finished = game.status === "finished";
  const href = `/${finished ? "replay" : "table"}/${encodeURIComponent(game.id)}`;
  return el("li", {}, el("a", { href }, `${gameName(game.game)} · ${momentText(game.created_at)}`),
    " · ", t(`js.mod.status_${game.status}`), game.rated ? ` · ${t("js.mod.rated")}` : "");
}

function standingLine(report) {
  const standing = report.standing;
  const parts = [t("js.mod.reports_count", { count: standing.reports })];
  if (standing.guest) parts.push(t("js.mod.guest"));
  if (standing.muted_until) parts.push(t("js.mod.muted_until", { when: momentText(standing.muted_until) }));
  if (standing.cheater) parts.push(t("js.mod.cheater"));
  if (standing.closed) parts.push(t("js.mod.closed"));
  return el("p", { class: "mod-standing" }, parts.join(" · "));
}

function historyPart(report) {
  const items = report.history.map((entry) => el("li", {}, when(entry.at), " ",
    `${entry.moderator ?? t("js.mod.command_line")}: ${actionLabel(entry.action)}`, " — ", entry.reason));
  return part(t("js.mod.history"), items, t("js.mod.none"));
}

function actionsForm(report) {
  const id = `r${report.id}`;
  const reason = el("textarea", { id: `${id}-reason`, required: true, maxlength: 500, rows: 2 });
  const minutes = el("select", { id: `${id}-minutes` },
    ...DURATIONS.map(([value, key]) => el("option", { value }, t(key))));
  const status = el("p", { class: "message", role: "status" });
  const buttons = DOES.map((action) => el("button", {
    type: "button", class: action === "close" || action === "cheater" ? "danger" : null, dataset: { action },
    onclick: () => act(report, action, reason, minutes, status),
  }, t(`js.mod.do_${action}`)));
  return el("form", { class: "mod-actions", onsubmit: (event) => event.preventDefault() },
    el("h3", {}, t("js.mod.actions")),
    el("p", {}, el("label", { for: reason.id }, t("js.mod.reason_label")), el("br"), reason),
    el("p", {}, el("label", { for: minutes.id }, t("js.mod.mute_for")), " ", minutes),
    el("div", { class: "actions" }, ...buttons), status);
}

async function act(report, action, reason, minutes, status) {
  const why = reason.value.trim();
  status.className = "message bad";
  if (!why) {
    status.textContent = t("js.mod.reason_needed");
    reason.focus();
    return;
  }
  if ((action === "cheater" || action === "close") && !confirm(t(`js.mod.confirm_${action}`, { name: report.target }))) return;
  const body = { target: report.target, action, reason: why, report_id: report.id };
  if (action === "mute") body.minutes = Number(minutes.value);
  try {
    const done = await api("POST", "/api/mod/actions", body);
    $("mod-done").textContent = `${actionLabel(action)}: ${report.target}. ${detailsText(done.entry)}`;
    await load();
    $("mod-heading").focus();
  } catch (error) {
    status.textContent = error.message;
  }
}

function card(report) {
  const heading = `mod-report-${report.id}`;
  return el("li", {}, el("article", { class: "mod-report", "aria-labelledby": heading },
    el("h2", { id: heading }, t("js.mod.report_heading", { reporter: report.reporter, target: report.target })),
    el("p", {}, el("strong", {}, t(`js.report.reason_${report.reason}`)), " · ", when(report.created_at), " · ",
      profileLink(report.target)),
    report.text ? el("blockquote", { class: "report-quoted" }, report.text) : null,
    standingLine(report),
    chatPart(report),
    part(t("js.mod.games"), report.games.map(gameLine), t("js.mod.none")),
    part(t("js.mod.shared"), report.shared_address.map((account) => el("li", {}, profileLink(account.name),
      account.guest ? ` (${t("js.mod.guest")})` : "")), t("js.mod.none")),
    historyPart(report),
    actionsForm(report)));
}

async function load() {
  let reports;
  try {
    reports = await api("GET", "/api/mod/reports");
  } catch (error) {
    $("mod-error").hidden = false;
    $("mod-error").textContent = error.message;
    return;
  }
  $("mod-error").hidden = true;
  $("mod-empty").hidden = reports.length > 0;
  $("mod-reports").replaceChildren(...reports.map(card));
}

load();
