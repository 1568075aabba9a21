// The table's chat made safe (docs/moderation.md): every line is text (never markup, never a
// link), each other person's line has a small menu (report the line, hide that person's lines
// at this table, block them), lines of blocked players are not shown (the page fetches the
// list: GET /api/blocks) and "Report a player" reports anyone seated here.
import { api } from "./api.js";
import { el, t } from "./i18n.js";
import { openReport } from "./report_dialog.js";
import { onUser } from "./signed_in.js";

const $ = (id) => document.getElementById(id);

let options = null;
let signedIn = null;
const blocked = new Set();
let hidden = new Set();

function hiddenKey() {
  return `meeple.chat.hidden.${options.tableId}`;
}

function loadHidden() {
  try { hidden = new Set(JSON.parse(localStorage.getItem(hiddenKey()) || "[]")); } catch { hidden = new Set(); }
}

function saveHidden() {
  try { localStorage.setItem(hiddenKey(), JSON.stringify([...hidden])); } catch { /* private mode: this visit only */ }
}

/** Show or hide each line by who wrote it, and say what is hidden and how to show it again. */
function refilter() {
  let blockedLines = 0;
  for (const line of document.querySelectorAll("#chat li[data-name]")) {
    const name = line.dataset.name;
    line.hidden = blocked.has(name) || hidden.has(name);
    if (blocked.has(name)) blockedLines += 1;
  }
  const note = $("chat-filtered");
  if (!note) return;
  const shown = [...hidden].filter((name) => !blocked.has(name));
  // replaceChildren writes a null as the text "null": only nodes go in.
  note.replaceChildren(
    ...shown.map((name) => el("button", { type: "button", class: "small link", onclick: () => setHidden(name, false) },
      t("js.safety.show_lines", { name }))),
    ...(blockedLines ? [el("span", { class: "hint" }, t("js.safety.blocked_lines", { count: blockedLines }), " ",
      el("a", { href: "/safety" }, t("js.safety.manage_blocks")))] : []));
  note.hidden = !note.childNodes.length;
}

function setHidden(name, hide) {
  if (hide) hidden.add(name);
  else hidden.delete(name);
  saveHidden();
  refilter();
}

async function block(name) {
  try {
    await api("POST", "/api/blocks", { name });
    blocked.add(name);
    refilter();
  } catch (error) {
    const note = $("chat-filtered");
    note.hidden = false;
    note.replaceChildren(el("span", { class: "error", role: "alert" }, error.message));
  }
}

/** Who reads the chat: the table's signed-in user (from its socket), else the header's. */
function reader() {
  return (options.user && options.user()) || signedIn;
}

function lineMenu(event) {
  const name = event.data.name;
  const signedIn = reader();
  const items = [
    signedIn ? el("button", { type: "button", class: "small", onclick: () => openReport({
      name, tableId: options.tableId, version: event.version, text: event.data.text, invite: options.invite,
    }) }, t("js.safety.report_line")) : null,
    el("button", { type: "button", class: "small", onclick: () => setHidden(name, true) }, t("js.safety.hide", { name })),
    signedIn ? el("button", { type: "button", class: "small", onclick: () => block(name) }, t("js.safety.block", { name })) : null,
  ];
  return el("details", { class: "line-menu" },
    el("summary", {}, el("span", { "aria-hidden": "true" }, "⋯"), el("span", { class: "sr" }, t("js.safety.line_menu", { name }))),
    el("div", { class: "line-menu-items" }, ...items));
}

/**
 * A chat line as a list item: the name (`shown`, if it says more than the name), the text as
 * text, and for another's line its menu; `className` its class, if any.
 */
export function chatLine(event, shown = null, className = null) {
  const name = String(event.data.name ?? "");
  const me = reader();
  const own = Boolean(me && me.name === name);
  const said = el("span", { class: "chat-said" }, el("strong", {}, `${shown ?? name}: `), String(event.data.text ?? ""));
  const line = el("li", { class: className, dataset: { name, version: event.version } },
    said, own || !name ? null : lineMenu(event));
  line.hidden = blocked.has(name) || hidden.has(name);
  if (blocked.has(name)) queueMicrotask(refilter); // the count of lines not shown
  return line;
}

/** The people seated at the table but oneself, whom "Report a player" offers. */
function reportable() {
  const names = options.seats().filter((seat) => seat.name && !seat.bot && seat.user_id).map((seat) => seat.name);
  const me = reader();
  return [...new Set(names)].filter((name) => !me || name !== me.name);
}

/**
 * Set the chat up: `tableId`, `invite` (a private table's token), `seats()` the table's
 * seats now, `user()` who the table's socket says is signed in. The list of blocked players is fetched once the page knows who is signed in.
 */
export function setupChatSafety(given) {
  options = given;
  loadHidden();
  const form = $("chat-form");
  const note = el("p", { id: "chat-filtered", class: "chat-filtered", hidden: true });
  const report = el("button", { type: "button", id: "report-a-player", class: "small link", hidden: true,
    onclick: () => openReport({ choices: reportable(), tableId: options.tableId, invite: options.invite }) },
  t("js.safety.report_player"));
  form.before(note);
  form.after(el("p", { class: "chat-report" }, report));
  onUser(async (user) => {
    signedIn = user;
    report.hidden = !signedIn;
    if (!signedIn) return;
    try {
      for (const entry of await api("GET", "/api/blocks")) blocked.add(entry.name);
    } catch { /* the chat stays as it is */ }
    refilter();
  });
}
