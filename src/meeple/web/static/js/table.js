// The table shell: the live connection, seats, turn, clocks, log, chat, summary; the game UI inside.
import { api, ensurePlayer, routes } from "./api.js";
import { el, t, translateMessage } from "./i18n.js";
import { TableConnection } from "./connection.js";
import { createSlide } from "./slide.js";
import { createSummy } from "./summy.js";

const $ = (id) => document.getElementById(id);
const root = $("table");
const tableId = root.dataset.table;
const invite = root.dataset.invite || new URLSearchParams(location.search).get("invite") || "";
const baseTitle = document.title;

let info = null; // the table: game, seats, status, clocks, spectators, result
let view = null;
let ui = null;
let wasMyTurn = false;
let clockBase = { at: 0, clocks: null };
const settings = {
  sound: localStorage.getItem("meeple.sound") === "on",
  notify: localStorage.getItem("meeple.notify") === "on",
};

function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = `message ${kind}`;
}

function seatName(seat) {
  const entry = info && info.seats ? info.seats[seat] : null;
  if (!entry) return t("js.table.seat_n", { n: seat + 1 });
  const name = entry.name || t("js.table.free_seat");
  if (entry.zombie) return `${name} (${t("js.table.zombie")})`;
  if (entry.bot) return `${name} (${t("bot." + (entry.level || entry.bot))})`;
  return name;
}

function send(action) {
  if (!connection.send({ type: "action", id: crypto.randomUUID(), action })) say(t("js.table.offline_wait"), "bad");
}

function ensureUi(game) {
  if (ui) return;
  $("table-heading").textContent = t("game." + game);
  $("rules-link").href = `/rules/${game}`;
  const ctx = { send, seatName, say };
  ui = game === "slide" ? createSlide($("game"), ctx) : createSummy($("game"), ctx);
}

function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clockLeft(seat) {
  const clocks = clockBase.clocks;
  if (!clocks || clocks[seat] === null || clocks[seat] === undefined) return null;
  const toAct = view ? view.to_act || [] : [];
  const elapsed = toAct.includes(seat) && info.status === "playing" ? (Date.now() - clockBase.at) / 1000 : 0;
  return clocks[seat] - elapsed;
}

function drawPlayers() {
  if (!info || !info.seats) return;
  const toAct = view ? view.to_act || [] : [];
  const scores = view ? view.scores || view.totals || [] : [];
  $("players").replaceChildren(...info.seats.map((seat, index) => {
    const left = clockLeft(index);
    const classes = [toAct.includes(index) ? "to-act" : "", view && view.seat === index ? "me" : ""].filter(Boolean).join(" ");
    const picked = view && view.phase === "reveal" && view.picked && view.picked[index];
    return el("li", { class: classes, dataset: { seat: index } },
      el("span", { class: "name" }, seatName(index)),
      view && view.seat === index ? el("span", { class: "muted" }, ` (${t("js.table.you")})`) : null,
      el("br"),
      scores[index] !== undefined ? el("span", { class: "score" }, t("js.table.points", { n: scores[index] })) : null,
      left !== null ? el("span", { class: `clock${left < 15 ? " low" : ""}`, "aria-label": t("js.table.clock_label", { time: formatClock(left) }) }, ` · ⏱ ${formatClock(left)}`) : null,
      toAct.includes(index) ? el("span", { class: "sr" }, t("js.table.to_play")) : null,
      picked ? el("span", {}, ` · ${t("js.slide.has_picked")}`) : null,
      view && view.hand_sizes ? el("span", { class: "muted" }, ` · ${t("js.summy.tiles_in_hand", { n: view.hand_sizes[index] })}`) : null);
  }));
}

function drawTurn() {
  const mine = Boolean(ui && view && ui.myTurn());
  let text = "";
  if (!info) text = "";
  else if (info.status === "waiting") text = t("js.table.waiting_players");
  else if (info.status === "over" || (view && view.result)) text = t("js.table.game_over");
  else if (mine) text = t("js.table.your_turn");
  else if (view && (view.to_act || []).length) {
    text = t("js.table.to_play_line", { names: view.to_act.map(seatName).join(", ") });
  }
  $("turn-line").textContent = text;
  $("turn-line").classList.toggle("mine", mine);
  document.title = mine ? `▶ ${t("js.table.your_turn")} · ${baseTitle}` : baseTitle;
  if (mine && !wasMyTurn) signalTurn();
  wasMyTurn = mine;
}

function signalTurn() {
  if (settings.sound) {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.value = 0.08;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.18);
    } catch { /* no audio on this device */ }
  }
  if (settings.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(t("js.table.your_turn"), { body: t("game." + info.game) });
  }
}

function drawWaiting() {
  const waiting = info && info.status === "waiting";
  $("seat-panel").hidden = !waiting;
  if (!waiting) return;
  $("waiting-seats").replaceChildren(...info.seats.map((seat, index) => el("li", {},
    `${index + 1}. `, seat.name ? seatName(index) : el("button", {
      type: "button", onclick: () => join(index), "aria-label": t("js.table.take_seat_n", { n: index + 1 }),
    }, t("js.table.take_seat")))));
  if (info.invite) {
    $("invite-line").hidden = false;
    $("invite-link").value = `${location.origin}/table/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(info.invite)}`;
  }
  $("start").hidden = !info.can_start;
}

function drawSummary() {
  const result = (view && view.result) || (info && info.result);
  if (!result) return;
  $("summary-reason").textContent = translateMessage(result.reason || "");
  const changes = (info && info.rating_changes) || {};
  const order = result.ranks.map((rank, seat) => [rank, seat]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  $("summary-rows").replaceChildren(...order.map(([rank, seat]) => {
    const change = changes[seat] ?? changes[String(seat)];
    return el("tr", {}, el("td", {}, rank), el("td", {}, seatName(seat)), el("td", {}, result.scores[seat]),
      el("td", {}, change === undefined || change === null ? "—" : `${change >= 0 ? "+" : ""}${Number(change).toFixed(1)}`));
  }));
  $("replay-link").href = `/replay/${encodeURIComponent(tableId)}`;
  if (!$("summary").open && !$("summary").dataset.closed) $("summary").showModal();
}

function log(text) {
  if (!text) return;
  $("log").append(el("li", {}, text));
  $("log").scrollTop = $("log").scrollHeight;
}

function draw() {
  if (info) ensureUi(info.game || (view && view.game));
  if (ui && view) ui.update(view);
  drawPlayers();
  drawTurn();
  drawWaiting();
  drawSummary();
  $("spectators").textContent = info ? t("js.table.spectators", { n: info.spectators ?? 0 }) : "";
  $("leave").hidden = !(view && view.seat !== null && view.seat !== undefined) && !(info && info.status === "waiting");
}

async function join(seat) {
  try {
    await ensurePlayer();
    await api("POST", routes.join(tableId), { seat, invite });
    connection.restart();
  } catch (error) {
    say(error.message, "bad");
  }
}

const connection = new TableConnection(routes.tableSocket(tableId), invite, {
  snapshot(data) {
    info = data.table || info;
    view = data.view ?? view;
    clockBase = { at: Date.now(), clocks: data.clocks ?? (info && info.clocks) ?? null };
    $("log").replaceChildren();
    for (const event of data.log || []) log(ui ? ui.describe(event) : null);
    draw();
  },
  event(data) {
    if (data.view) view = data.view;
    if (data.table) info = data.table;
    if (data.clocks !== undefined) clockBase = { at: Date.now(), clocks: data.clocks };
    ensureUi((info && info.game) || (view && view.game));
    log(ui.describe(data.event || {}));
    draw();
  },
  table(data) {
    info = data.table;
    if (data.clocks !== undefined) clockBase = { at: Date.now(), clocks: data.clocks };
    draw();
  },
  chat(data) {
    $("chat").append(el("li", {}, el("strong", {}, `${data.name ?? data.from ?? "?"}: `), data.text ?? ""));
    $("chat").scrollTop = $("chat").scrollHeight;
  },
  refused(data) {
    const message = translateMessage(data.message || data.error || t("js.error.generic"));
    say(message, "bad");
  },
  online(isOnline) {
    $("offline").hidden = isOnline;
    root.classList.toggle("is-offline", !isOnline);
  },
});

$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-input").value.trim();
  if (text && connection.send({ type: "chat", text })) $("chat-input").value = "";
});
$("leave").addEventListener("click", async () => {
  if (!confirm(t("js.table.leave_confirm"))) return;
  try { await api("POST", routes.leave(tableId)); location.href = "/"; } catch (error) { say(error.message, "bad"); }
});
$("start").addEventListener("click", async () => {
  try { await api("POST", routes.start(tableId)); } catch (error) { say(error.message, "bad"); }
});
$("rematch").addEventListener("click", async () => {
  try {
    const table = await api("POST", routes.rematch(tableId));
    if (table && table.id && table.id !== tableId) location.href = `/table/${encodeURIComponent(table.id)}`;
    else say(t("js.table.rematch_asked"), "ok");
  } catch (error) { say(error.message, "bad"); }
});
$("summary-close").addEventListener("click", () => { $("summary").dataset.closed = "1"; $("summary").close(); });
for (const name of ["sound", "notify"]) {
  const box = $(`opt-${name}`);
  box.checked = settings[name];
  box.addEventListener("change", async () => {
    settings[name] = box.checked;
    localStorage.setItem(`meeple.${name}`, box.checked ? "on" : "off");
    if (name === "notify" && box.checked && "Notification" in window) await Notification.requestPermission();
  });
}
setInterval(drawPlayers, 1000);
connection.start();
