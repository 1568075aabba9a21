// The report dialog (docs/moderation.md): report a chat line, or a player (named, or chosen
// among a table's players), with one of the fixed reasons and the reporter's own words.
// Used by the table's chat, the table's "Report a player" and the profile page.
import { api } from "./api.js";
import { el, t } from "./i18n.js";

const REASONS = ["abuse", "spam", "cheating", "name", "other"];
const TEXT_MAX = 500;

let dialog = null;
let parts = null;
let asked = null;

function build() {
  const heading = el("h2", { id: "report-heading" });
  const quoted = el("blockquote", { class: "report-quoted", hidden: true });
  const choose = el("select", { id: "report-player", name: "player" });
  const chooser = el("p", { class: "report-chooser" },
    el("label", { for: "report-player" }, t("js.report.player")), " ", choose);
  const reasons = el("fieldset", { class: "report-reasons" }, el("legend", {}, t("js.report.why")),
    ...REASONS.map((reason, index) => el("label", { class: "choice" },
      el("input", { type: "radio", name: "reason", value: reason, required: true, checked: index === 0 }),
      " ", t(`js.report.reason_${reason}`))));
  const text = el("textarea", { id: "report-text", name: "text", maxlength: TEXT_MAX, rows: 3 });
  const words = el("p", {}, el("label", { for: "report-text" }, t("js.report.text")), el("br"), text,
    el("span", { class: "hint", id: "report-text-hint" }, t("js.report.text_hint", { count: TEXT_MAX })));
  text.setAttribute("aria-describedby", "report-text-hint");
  const result = el("p", { id: "report-result", class: "message", role: "status" });
  const send = el("button", { type: "submit", class: "primary", id: "report-send" }, t("js.report.send"));
  const close = el("button", { type: "button", id: "report-close" }, t("js.report.cancel"));
  const form = el("form", { method: "dialog", class: "report-form" }, heading, quoted, chooser, reasons, words,
    result, el("div", { class: "actions" }, send, close));
  dialog = el("dialog", { id: "report-dialog", class: "report-dialog", "aria-labelledby": "report-heading" }, form);
  parts = { heading, quoted, chooser, choose, reasons, text, result, send, close, form };
  form.addEventListener("submit", (event) => { event.preventDefault(); submit(); });
  close.addEventListener("click", () => dialog.close());
  document.body.append(dialog);
}

async function submit() {
  const reason = parts.form.querySelector("input[name=reason]:checked")?.value || "other";
  const body = { reason, text: parts.text.value.trim() };
  if (asked.tableId) body.table_id = asked.tableId;
  if (asked.invite) body.invite = asked.invite;
  if (asked.version) body.version = asked.version;
  else body.name = asked.name || parts.choose.value;
  parts.send.disabled = true;
  try {
    const answer = await api("POST", "/api/reports", body);
    parts.result.className = "message ok";
    parts.result.textContent = t(answer.duplicate ? "js.report.duplicate" : "js.report.sent");
    parts.send.hidden = true;
    parts.close.textContent = t("js.report.close");
    parts.close.focus();
  } catch (error) {
    parts.result.className = "message bad";
    parts.result.textContent = error.message;
    parts.send.disabled = false;
  }
}

/**
 * Open the dialog: `name` the player reported, or `choices` (names) to pick one from;
 * `tableId` the table it is made at, with `version` and `text` for a chat line (and
 * `invite` for a private table reached by its link).
 */
export function openReport({ name = null, choices = [], tableId = null, version = null, text = null, invite = null }) {
  if (!dialog) build();
  if (dialog.open) return;
  asked = { name, tableId, version, invite };
  parts.heading.textContent = version ? t("js.report.line_heading", { name })
    : name ? t("js.report.player_heading", { name }) : t("js.report.heading");
  parts.quoted.hidden = !text;
  parts.quoted.textContent = text || "";
  parts.chooser.hidden = Boolean(name);
  parts.choose.replaceChildren(...choices.map((choice) => el("option", { value: choice }, choice)));
  parts.text.value = "";
  parts.result.textContent = "";
  parts.send.hidden = false;
  parts.send.disabled = !name && !choices.length;
  parts.close.textContent = t("js.report.cancel");
  dialog.showModal();
}
