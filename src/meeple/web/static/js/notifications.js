// The header's notifications: a bell with the unread count (live over the tab's account
// socket), and the list under it, each notification a link (the table, or the home page's
// challenges). Opening the list marks what it shows read.
import { api } from "./api.js";
import { el, lang, t } from "./i18n.js";
import { onConnected, onUserLine } from "./me_socket.js";

const ROUTE = "/api/notifications";
const SHOWN = 30;
const $ = (id) => document.getElementById(id);

let notes = [];
let unread = 0;
let loaded = false;
// Each kind's catalog keys, by kind, as the server defines them (the page's data-kinds).
const texts = JSON.parse($("notif")?.dataset.kinds || "{}");

function gameName(game) {
  const name = t(`game.${game}`);
  return name === `game.${game}` ? game : name;
}

/** What a notification says, in the page's language: its kind's text (its first place's,
 * when it has one and the account came first) filled with its data. */
function textOf(note) {
  const data = note.data || {};
  const said = texts[note.kind];
  if (!said) return note.kind;
  const key = said.won && data.rank === 1 ? said.won : said.text;
  return t(key, {
    game: gameName(data.game),
    opponents: (data.opponents || []).join(", "),
    from: data.from,
    rank: data.rank,
    players: data.players,
    count: data.score,
    name: data.name,
    round: data.round,
    reason: data.reason,
  });
}

/** Where a notification leads: its table, else its tournament, the friends list for a friend
 * online, else the home page (where challenges are). */
function linkOf(note) {
  if (note.kind === "warning") return "/safety"; // a moderator's warning: one's standing
  if (note.table_id) return `/table/${encodeURIComponent(note.table_id)}`;
  if (note.data?.tournament) return `/tournaments/${encodeURIComponent(note.data.tournament)}`;
  return note.kind === "friend_online" ? "/friends" : "/#challenges-in";
}

function whenText(seconds) {
  const ago = Math.round(seconds - Date.now() / 1000);
  const format = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (Math.abs(ago) >= size) return format.format(Math.round(ago / size), unit);
  }
  return format.format(0, "minute");
}

function paintCount() {
  const count = $("notif-count");
  count.hidden = unread === 0;
  count.textContent = unread > 99 ? "99+" : String(unread);
  $("notif-bell").setAttribute("aria-label", t("js.notif.bell", { count: unread }));
  $("notif-bell").classList.toggle("has-unread", unread > 0);
}

function paintList() {
  const list = $("notif-list");
  list.replaceChildren();
  if (!notes.length) {
    list.append(el("li", { class: "notif-empty" }, t("js.notif.empty")));
    return;
  }
  for (const note of notes.slice(0, SHOWN)) {
    list.append(el("li", { class: note.read ? "notif-item" : "notif-item unread", dataset: { kind: note.kind } },
      el("a", { href: linkOf(note) }, textOf(note)),
      el("time", { datetime: new Date(note.created_at * 1000).toISOString() }, whenText(note.created_at))));
  }
}

function isOpen() {
  return !$("notif-panel").hidden;
}

/** The list was seen: mark the unread ones it shows read (on the server, then here). */
async function markShownRead() {
  const ids = notes.slice(0, SHOWN).filter((note) => !note.read).map((note) => note.id);
  if (!ids.length) return;
  try {
    const answer = await api("POST", `${ROUTE}/read`, { ids });
    for (const note of notes) if (ids.includes(note.id)) note.read = true;
    unread = answer.unread;
    paintCount();
  } catch (error) {
    console.error(error);
  }
}

function open(wanted) {
  $("notif-panel").hidden = !wanted;
  $("notif-bell").setAttribute("aria-expanded", String(wanted));
  if (!wanted) return;
  paintList();
  markShownRead();
}

const heardLive = []; // what this page's socket relayed: a list read meanwhile may predate it

async function load() {
  const page = await api("GET", `${ROUTE}?limit=${SHOWN}`);
  notes = page.notifications;
  unread = page.unread;
  loaded = true;
  for (const note of heardLive) add(note);
  paintCount();
  if (isOpen()) { paintList(); markShownRead(); }
}

/** One notification more, unless the list holds it already. */
function add(note) {
  if (notes.some((known) => known.id === note.id)) return;
  notes.unshift(note);
  if (!note.read) unread += 1;
}

function heard(line) {
  const note = line.notification;
  if (!note) return;
  heardLive.push(note);
  if (heardLive.length > SHOWN) heardLive.shift();
  if (!loaded) return; // the list being read takes it in
  add(note);
  paintCount();
  if (isOpen()) { paintList(); markShownRead(); }
}

function userKnown(user) {
  $("notif").hidden = !user;
  if (!user) { open(false); return; }
  load().catch((error) => console.error(error));
}

if ($("notif")) {
  $("notif-bell").addEventListener("click", () => open(!isOpen()));
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && isOpen()) open(false); });
  document.addEventListener("click", (event) => { if (!$("notif").contains(event.target)) open(false); });
  document.addEventListener("meeple:user", (event) => userKnown(event.detail));
  document.addEventListener("meeple:signed-in", (event) => userKnown(event.detail));
  onUserLine("notification", heard);
  // A notification made before this tab's socket listened (or while it reconnected) is not
  // relayed: each (re)connection reads the list again.
  onConnected(() => { if (!$("notif").hidden) load().catch((error) => console.error(error)); });
}
