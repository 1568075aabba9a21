// The table shell: the live connection, seats, turn, clocks, log, chat, summary; the game UI inside.
import { api, ensurePlayer, routes, showRefusal } from "./api.js";
import { el, t, translateRefusal } from "./i18n.js";
import { TableConnection } from "./connection.js";
import { GAMES } from "/js/games.js";
import { describeTableEvent } from "./table_log.js";
import { avatar } from "./avatar.js";
import { botName } from "./bot_names.js";
import { nameNodes, nameText } from "./names.js";
import { showTurnCue, playTurnSound } from "./turn_cue.js";
import { outcome } from "./outcome.js";
import { chatLine, setupChatSafety } from "./chat_safety.js";
import { offerTutorial } from "./learn_offer.js";
import { Takebacks } from "./takeback.js";

const $ = (id) => document.getElementById(id);
const root = $("table");
const tableId = root.dataset.table;
const invite = root.dataset.invite || "";
const baseTitle = document.title;
const SEAT_CHANGES = new Set(["join", "leave", "kick", "start", "zombie", "finish", "rematch_vote", "rematch", "close", "claim"]);

let info = null; // the table summary (docs/protocol.md): game, seats, status, deadlines, result
let view = null; // this client's view of the game
let drawnView = null; // the view the game UI shows (redrawn only when it changes)
let freshEvents = []; // the game events that led to the view not yet drawn (for animations)
let user = null; // the signed-in player, if any
let toAct = [];
let deadlines = {};
let ui = null;
let wasMyTurn = false;
let ratingChanges = {};
let askedRematch = false;
const settings = {
  sound: localStorage.getItem("meeple.sound") !== "off", // on unless the player muted it
  notify: localStorage.getItem("meeple.notify") === "on",
};

function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = `message ${kind}`;
}

/** A seat's name in sentences: with the BOT mark's text for a bot account. */
function seatName(seat) {
  return nameText(plainSeatName(seat), Boolean(info?.seats?.[seat]?.bot_account));
}

/** A seat's name alone, beside which a badge shows the BOT mark (seat cards, results). */
function plainSeatName(seat) {
  const entry = info && info.seats ? info.seats[seat] : null;
  if (!entry) return t("js.table.seat_n", { n: seat + 1 });
  if (entry.bot) return botName(info.seats, seat);
  const name = entry.name || t("js.table.free_seat");
  return entry.zombie ? `${name} (${t("js.table.zombie")})` : name;
}

const mySeat = () => (view && view.seat !== undefined ? view.seat : null);

function send(action) {
  if (connection.send({ type: "action", id: crypto.randomUUID(), action })) {
    drawTurn(); // no longer "Your turn" while the action is on its way
    return;
  }
  say(t("js.table.offline_wait"), "bad");
  if (ui) ui.refused();
}

function ensureUi(game) {
  if (ui || !game) return;
  $("table-heading").textContent = t("game." + game);
  $("rules-link").href = `/rules/${game}`;
  // A game whose board can grow and shrink fills the first screen with it (the rack stays in sight).
  root.classList.toggle("fits", Boolean(GAMES[game].fillsScreen));
  ui = GAMES[game].createUi($("game"), {
    send, seatName, say, isBot: (seat) => Boolean(info?.seats?.[seat]?.bot),
    hintAllowed, askHint: () => api("POST", routes.hint(tableId)),
    // A panel of the game's own at the top of the side column (beside the board on a laptop,
    // under it on a phone): it takes no room from the board.
    aside: (node) => besideOffer(root.querySelector(".side"), node),
  });
}

/** A game's side panel (Summy's tracker) at the top of the side column, under the first
 * game's tutorial offer when there is one (the offer, once, comes first). */
function besideOffer(side, node) {
  const offer = $("learn-offer");
  if (offer && offer.parentNode === side) offer.after(node);
  else side.prepend(node);
}

/** Whether this player may ask for a hint (POST /api/tables/{id}/hint; a game module with a
 * hint shows its button then): seated at a running table never asked rated, every other seat
 * a built-in bot. The server decides; this only spares a button it would refuse. */
function hintAllowed() {
  const me = mySeat();
  return Boolean(info && me !== null && info.status === "playing" && !info.rated && !info.unrated_by_bots
    && info.seats.every((seat, index) => index === me || seat.bot));
}

function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawPlayers() {
  if (!info) return;
  const gameModule = info ? GAMES[info.game] : null;
  const scores = view && gameModule ? gameModule.shownScores(view) : [];
  const playing = info.status === "playing";
  $("players").replaceChildren(...info.seats.map((seat, index) => {
    const at = deadlines[String(index)];
    const left = at === undefined || at === null ? null : at - Date.now() / 1000;
    const acting = toAct.includes(index);
    // A seated person with no connection to the table (on any server) is away; bots never are.
    const away = Boolean(seat.user_id && !seat.bot && !seat.zombie && !seat.left && Array.isArray(info.present)
      && !info.present.includes(index));
    const parts = [
      away ? el("span", { class: "away-note" }, t("js.table.away")) : null,
      scores[index] !== undefined ? el("span", { class: "score" }, t("js.table.points", { n: scores[index] })) : null,
      left !== null ? el("span", { class: `clock${left < 15 ? " low" : ""}`, "aria-label": t("js.table.clock_label", { time: formatClock(left) }) }, formatClock(left)) : null,
      ...(view && gameModule ? gameModule.seatNotes(view, index) : []),
      // Someone else's turn: say they are thinking (a bot's "moment" is a setting on the server).
      playing && acting && mySeat() !== index ? el("span", { class: "thinking" }, t("js.table.thinking")) : null,
    ].filter(Boolean).flatMap((part, i) => (i ? [" · ", part] : [part]));
    return el("li", { class: [acting ? "to-act" : "", mySeat() === index ? "me" : "", away ? "away" : ""].join(" ").trim(), dataset: { seat: index } },
      seat.name || seat.bot ? avatar(plainSeatName(index), { bot: Boolean(seat.bot) })
        : el("span", { class: "avatar empty", "aria-hidden": "true" }),
      el("span", { class: "line" }, el("span", { class: "name" }, ...nameNodes(plainSeatName(index), seat.bot_account,
        seat.user_id && !seat.bot ? seat.name : null)),
        mySeat() === index ? el("span", { class: "muted" }, ` (${t("js.table.you")})`) : null),
      el("span", { class: "line" }, ...parts),
      acting ? el("span", { class: "sr" }, ` ${t("js.table.to_play")}`) : null);
  }));
}

function drawTurn() {
  const mine = Boolean(ui && view && info && info.status === "playing" && ui.myTurn());
  let text = "";
  if (info && info.status === "open") text = waitingText();
  else if (info && (info.status === "finished" || info.status === "closed")) {
    text = t(info.aborted ? "js.table.game_aborted" : "js.table.game_over");
  }
  else if (mine) text = t("js.table.your_turn");
  else if (toAct.length) text = t("js.table.to_play_line", { names: toAct.map(seatName).join(", ") });
  $("turn-line").textContent = text;
  $("turn-line").classList.toggle("mine", mine);
  showTurnCue(mine, t("js.table.your_turn"), baseTitle);
  if (mine && !wasMyTurn) signalTurn();
  wasMyTurn = mine;
}

/** Before the start: who is awaited. Once every seat is taken, only the host can start. */
function waitingText() {
  if (!info.seats.every((seat) => seat.name || seat.bot)) return t("js.table.waiting_players");
  if (user && user.id === info.creator_id) return t("js.table.start_prompt");
  const host = info.seats.find((seat) => seat.user_id === info.creator_id && !seat.bot);
  return host ? t("js.table.waiting_start", { name: host.name }) : t("js.table.waiting_host");
}

function signalTurn() {
  if (settings.sound) playTurnSound();
  if (settings.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(t("js.table.your_turn"), { body: t("game." + info.game) });
  }
}

function drawWaiting() {
  const waiting = Boolean(info && info.status === "open");
  $("seat-panel").hidden = !waiting;
  if (!waiting) { $("game").classList.remove("waiting"); return; }
  const seated = user && info.seats.some((seat) => seat.user_id === user.id);
  const creator = Boolean(user && user.id === info.creator_id);
  $("waiting-seats").replaceChildren(...info.seats.map((seat, index) => el("li", {},
    `${index + 1}. `, seat.name || seat.bot ? seatName(index) : seated ? t("js.table.free_seat") : el("button", {
      type: "button", onclick: () => join(index), "aria-label": t("js.table.take_seat_n", { n: index + 1 }),
    }, t("js.table.take_seat")),
    creator && seat.user_id !== null && seat.user_id !== user.id ? el("button", {
      type: "button", class: "small", onclick: () => kick(index),
      "aria-label": t("js.table.kick_n", { name: seatName(index) }),
    }, t("js.table.kick")) : null)));
  $("invite-line").hidden = !info.invite_url;
  if (info.invite_url) $("invite-link").value = location.origin + info.invite_url;
  if (!$("copy-invite").textContent) $("copy-invite").textContent = t("js.table.copy");
  $("game").classList.toggle("waiting", waiting); // no empty board while people sit down
  const full = info.seats.every((seat) => seat.name || seat.bot);
  $("start").hidden = !(user && user.id === info.creator_id && full);
  $("seat-heading").textContent = full ? t("js.table.all_seated") : $("seat-heading").dataset.waiting;
  drawSearch();
}

/** A quick-play table still waiting: how long it has searched, when bots come, "bots now". */
function drawSearch() {
  const searching = Boolean(info && info.status === "open" && info.bots_at && user
    && info.seats.some((seat) => seat.user_id === user.id));
  $("quick-search").hidden = !searching;
  if (!searching) return;
  const now = Date.now() / 1000;
  const elapsed = formatClock(now - info.created_at);
  const left = Math.max(0, Math.ceil(info.bots_at - now));
  $("quick-search-text").textContent = `${t("js.table.searching", { elapsed })} ${t("js.table.bots_in", { n: left })}`;
  $("bots-now").textContent = t("js.table.bots_now");
  $("bots-now").hidden = user.id !== info.creator_id; // the free seats are the creator's to fill
}

setInterval(() => { if (!$("quick-search").hidden) drawSearch(); }, 1000);
$("copy-invite").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("invite-link").value);
    $("copy-invite").textContent = t("js.table.copied");
  } catch {
    $("invite-link").select(); // no clipboard here: the link is selected, ready to copy
  }
});
$("bots-now").addEventListener("click", async () => {
  try { await api("POST", routes.bots(tableId)); } catch (error) { say(error.message, "bad"); }
});

async function loadRatingChanges() {
  if (!info.rated) return;
  for (const seat of info.seats) {
    if (!seat.name || seat.bot) continue;
    try {
      const points = await api("GET", routes.history(seat.name, info.game));
      const at = points.findIndex((p) => p.table_id === tableId);
      if (at >= 0) ratingChanges[seat.seat] = points[at].rating - points[at].previous;
    } catch { /* a guest without history */ }
  }
  drawSummary();
}

function drawSummary() {
  const result = (info && info.result) || (view && view.result);
  if (!result) return;
  $("summary-reason").textContent = translateRefusal(result.reason_code, result.reason_params, result.reason || "");
  // A player reads first how it went for them; their row is marked. A spectator sees neither.
  const me = mySeat();
  const mine = me === null ? null : outcome(result.ranks, me);
  $("summary-outcome").hidden = !mine;
  $("summary-outcome").className = mine ? `outcome ${mine.kind}` : "outcome";
  $("summary-outcome").textContent = mine ? t(`js.table.outcome_${mine.kind}`, mine) : "";
  const order = result.ranks.map((rank, seat) => [rank, seat]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  $("summary-rows").replaceChildren(...order.map(([rank, seat]) => {
    const change = ratingChanges[seat];
    return el("tr", { dataset: { seat }, class: seat === me ? "me" : null }, el("td", {}, rank),
      el("td", {}, ...nameNodes(plainSeatName(seat), info?.seats?.[seat]?.bot_account), seat === me ? ` (${t("js.table.you")})` : ""), el("td", {}, result.scores[seat]),
      el("td", {}, change === undefined ? "—" : `${change >= 0 ? "+" : ""}${change}`));
  }));
  $("replay-link").href = `/replay/${encodeURIComponent(tableId)}`;
  $("rematch").hidden = mySeat() === null;
  if (!$("summary").open && !$("summary").dataset.closed) $("summary").showModal();
}

function log(text) {
  if (!text) return;
  $("log").append(el("li", {}, text));
  $("log").scrollTop = $("log").scrollHeight;
}

function chat(event) {
  // A spectators' line reaches the players only once the game is over (its text held back).
  if (typeof event.data.text !== "string") return;
  const watching = event.data.room === "spectators";
  const who = watching ? t("js.chat.spectator", { name: event.data.name }) : event.data.name;
  // As text, never a link; its menu reports the line, hides or blocks its writer (chat_safety.js).
  $("chat").append(chatLine(event, who, watching ? "spectator-line" : null));
  $("chat").scrollTop = $("chat").scrollHeight;
}

function draw() {
  takebacks.draw();
  if (info) ensureUi(info.game);
  if (ui && view && view !== drawnView) {
    drawnView = view;
    ui.update(view, freshEvents);
  }
  freshEvents = [];
  drawPlayers();
  drawTurn();
  drawWaiting();
  drawSummary();
  $("spectators").textContent = info && Number.isInteger(info.spectators) ? t("js.table.spectators", { n: info.spectators }) : "";
  $("leave").hidden = !(info && user && info.seats.some((seat) => seat.user_id === user.id && !seat.zombie))
    || (info && info.status === "finished");
}

/**
 * A summary fetched while events arrived may predate bots those events seated: it keeps them,
 * so a bot's number ("casual bot 3") never depends on which answer came back last.
 */
function keepNewerBots(fresh, known) {
  if (!known?.seats || !fresh.seats || (fresh.version ?? 0) >= (known.version ?? 0)) return fresh;
  const seats = fresh.seats.map((seat, i) => {
    const bot = known.seats[i]?.bot;
    return bot && !seat.name && !seat.bot ? { ...seat, bot } : seat;
  });
  return { ...fresh, seats, version: known.version };
}

async function refreshTable() {
  try {
    const answer = await api("GET", routes.table(tableId, invite));
    info = keepNewerBots({ ...answer.table, invite_url: answer.invite_url }, info);
    deadlines = info.deadlines || {};
  } catch (error) {
    say(error.message, "bad");
  }
  draw();
}

async function kick(seat) {
  try {
    await api("POST", routes.kick(tableId), { seat });
  } catch (error) {
    say(error.message, "bad");
  }
}

async function join(seat) {
  try {
    user = await ensurePlayer();
    await api("POST", routes.join(tableId), { seat, invite: invite || null });
    connection.restart();
  } catch (error) {
    say(error.message, "bad");
    showRefusal($("message"), error); // no guest made: a sign-in link when that helps
  }
}

function handleEvent(event) {
  // A bot sitting down is named in the log as its seat will be: seated here before the summary
  // is fetched again (bots fill free seats in order, so their numbers come out the same).
  const free = info?.seats?.[event.seat];
  if (event.kind === "join" && event.data.bot && free && !free.name && !free.bot) free.bot = event.data.bot;
  if (info && event.version > (info.version ?? 0)) info.version = event.version;
  takebacks.heard(event);
  if (event.kind === "chat") chat(event);
  else log(describeTableEvent(event, seatName, ui));
  if (event.kind === "rematch" && askedRematch) location.href = `/table/${encodeURIComponent(event.data.table_id)}`;
  if (event.kind === "rematch" && !askedRematch) {
    $("summary").querySelector(".actions").append(el("a", { href: `/table/${encodeURIComponent(event.data.table_id)}` }, t("js.table.rematch_ready")));
  }
}

const takebacks = new Takebacks({ tableId, info: () => info, mySeat, seatName, say });
const connection = new TableConnection(routes.tableSocket(tableId), invite, {
  async snapshot(hello) {
    info = { ...hello.table, invite_url: hello.invite_url };
    user = hello.user;
    view = hello.view;
    toAct = hello.table.to_act || [];
    deadlines = hello.table.deadlines || {};
    ensureUi(info.game);
    offerTutorial(info.game, user, mySeat() !== null); // a first game: learn it on the side
    $("log").replaceChildren();
    $("chat").replaceChildren();
    try {
      for (const event of await api("GET", routes.events(tableId, invite))) {
        if (event.version <= hello.version) handleEvent(event);
      }
    } catch { /* the log is a comfort; the board is what matters */ }
    draw();
    if (info.status === "finished") loadRatingChanges();
  },
  watchers(count, present) {
    if (info) {
      info.spectators = count;
      if (Array.isArray(present)) info.present = present;
    }
    draw();
  },
  event(event) {
    if (event.view) view = event.view;
    if (event.kind === "action") freshEvents = event.data.events || [];
    toAct = event.to_act || [];
    deadlines = event.deadlines || {};
    handleEvent(event);
    if (event.kind === "action" && ui && ui.myTurn() === false) say("", "");
    draw();
    if (SEAT_CHANGES.has(event.kind)) {
      refreshTable().then(() => { if (event.kind === "finish") loadRatingChanges(); });
    }
  },
  refused(error) {
    const game = info ? GAMES[info.game] : null;
    const params = game && game.showParams ? game.showParams(error.params) : error.params;
    say(translateRefusal(error.reason, params, error.message || t("js.error.generic")), "bad");
    if (ui && ui.refused) ui.refused();
  },
  gone() {
    // A table this person may not see (or none): the reason and a way home, nothing else of
    // the table (no Leave, chat or log beside it).
    for (const node of root.children) node.hidden = node.id !== "table-gone";
    if ($("summary").open) $("summary").close();
    $("table-gone").hidden = false;
    $("table-gone-text").textContent = t("js.table.no_table");
  },
  online(isOnline) {
    $("offline").hidden = isOnline;
    root.classList.toggle("is-offline", !isOnline);
  },
});
window.meeple = { connection, view: () => view };
setupChatSafety({ tableId, invite, seats: () => info?.seats ?? [], user: () => user });

$("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("chat-input").value.trim();
  if (!text) return;
  if (user) {
    if (connection.send({ type: "chat", text })) $("chat-input").value = "";
    return;
  }
  // No session yet (an invite link opened anonymously): the line is said as a new guest, as
  // taking a seat makes one; if no guest can be made, the line stays, with a way to sign in.
  try {
    user = await ensurePlayer();
    await api("POST", routes.chat(tableId, invite), { text });
    $("chat-input").value = "";
    connection.restart();
  } catch (error) {
    say(error.message, "bad");
    showRefusal($("message"), error);
  }
});
$("leave").addEventListener("click", async () => {
  const playing = info.status === "playing";
  if (playing && !confirm(t("js.table.leave_confirm"))) return;
  try {
    await api("POST", routes.leave(tableId));
    // In a running game a bot takes the seat: stay and watch it to the end of the game.
    if (playing) await refreshTable();
    else location.href = "/";
  } catch (error) { say(error.message, "bad"); }
});
$("start").addEventListener("click", async () => {
  try { await api("POST", routes.start(tableId)); } catch (error) { say(error.message, "bad"); }
});
$("rematch").addEventListener("click", async () => {
  askedRematch = true;
  try {
    const answer = await api("POST", routes.rematch(tableId));
    if (answer.rematch_id) location.href = `/table/${encodeURIComponent(answer.rematch_id)}`;
    else say(t("js.table.rematch_asked"), "ok");
  } catch (error) { say(error.message, "bad"); }
});
$("summary-close").addEventListener("click", () => { $("summary").dataset.closed = "1"; $("summary").close(); });
$("mute").setAttribute("aria-pressed", String(!settings.sound));
$("mute").addEventListener("click", () => {
  settings.sound = !settings.sound;
  $("mute").setAttribute("aria-pressed", String(!settings.sound));
  localStorage.setItem("meeple.sound", settings.sound ? "on" : "off");
});
const notifyBox = $("opt-notify");
notifyBox.checked = settings.notify;
notifyBox.addEventListener("change", async () => {
  settings.notify = notifyBox.checked;
  localStorage.setItem("meeple.notify", notifyBox.checked ? "on" : "off");
  if (notifyBox.checked && "Notification" in window) await Notification.requestPermission();
});
setInterval(drawPlayers, 1000);
// Watchers come and go without table events: refresh the summary (and its count) now and then.
setInterval(() => { if (info && !document.hidden && $("offline").hidden) refreshTable(); }, 15000);
connection.start();
