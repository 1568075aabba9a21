// The home page: quick play, play a bot, the live list of open tables, the create-table form.
import { api, ensurePlayer, routes, showRefusal, wsUrl } from "./api.js";
import { el, t } from "./i18n.js";
import { botName } from "./bot_names.js";
import { challengeButton, nameText } from "./names.js";
import { challengeBot, onlineBotChosen, startChallenges } from "./challenges.js";

const $ = (id) => document.getElementById(id);
/** The chosen game's radio button: its data says the players allowed and the bot levels. */
const chosenGame = () => form.querySelector('input[name="game"]:checked');

/** Show a refusal (an ApiError: its message, and a sign-in link when that gets around it). */
function showError(error) {
  $("lobby-error").hidden = !error;
  showRefusal($("lobby-error"), error);
}

async function goTo(promise) {
  try {
    await ensurePlayer();
    const answer = await promise();
    location.href = `/table/${encodeURIComponent(answer.table.id)}`;
  } catch (error) {
    showError(error);
  }
}

/** Open a table and start it at once when every seat is already taken (bots). */
async function createAndStart(body) {
  const answer = await api("POST", routes.tables, body);
  if (answer.table.seats.every((seat) => seat.name || seat.bot)) {
    await api("POST", routes.start(answer.table.id));
  }
  return answer;
}

for (const button of document.querySelectorAll("[data-quick]")) {
  button.addEventListener("click", () => goTo(() => api("POST", routes.quickPlay, { game: button.dataset.quick })));
}
/** The card's bot choices (level, and how many for games of more than two), remembered. */
function botChoice(game) {
  const level = document.querySelector(`[data-bot-level="${game}"]`);
  const count = document.querySelector(`[data-bot-count="${game}"]`);
  const clock = document.querySelector(`[data-bot-clock="${game}"]`);
  return { level, count, clock };
}

for (const button of document.querySelectorAll("[data-bot]")) {
  const game = button.dataset.bot;
  const { level, count, clock } = botChoice(game);
  const key = `meeple.bots.${game}`;
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "null");
    if (kept && level && [...level.options].some((o) => o.value === kept.level)) level.value = kept.level;
    if (kept && count && [...count.options].some((o) => o.value === String(kept.count))) count.value = String(kept.count);
    if (kept && clock && [...clock.options].some((o) => o.value === kept.clock)) clock.value = kept.clock;
  } catch { /* a damaged memory is no reason to fail */ }
  button.addEventListener("click", () => {
    const online = onlineBotChosen(level);
    if (online) return challengeBot(online, game, count ? Number(count.value) + 1 : 2, showError);
    const chosen = { level: level ? level.value : "greedy", count: count ? Number(count.value) : 1, clock: clock ? clock.value : "realtime:600" };
    try { localStorage.setItem(key, JSON.stringify(chosen)); } catch { /* private mode */ }
    const bots = Object.fromEntries(Array.from({ length: chosen.count }, (_, i) => [i + 1, chosen.level]));
    goTo(() => createAndStart({
      game, seats: chosen.count + 1, bots, rated: false, private: true,
      options: {}, pace: chosen.clock.startsWith("turn:") ? "turn" : "realtime",
      move_seconds: Number(chosen.clock.split(":")[1]), sit: true, seat: 0,
    }));
  });
}

// Create a table
const form = $("create-form");
const seatsInput = $("create-seats");

function seatRow(index, previous, levels) {
  const choices = [
    ["me", t("js.create.seat_me")], ["open", t("js.create.seat_open")],
    ...levels.map((level) => [`bot:${level}`, t("js.create.seat_bot", { level: t("bot." + level) })]),
  ].filter(([value]) => (index === 0 ? value === "me" : value !== "me"));
  const select = el("select", { name: `seat-${index}`, "aria-label": t("js.create.seat_n", { n: index + 1 }) },
    ...choices.map(([value, label]) => el("option", { value, selected: value === previous }, label)));
  return el("div", { class: "seat-row" }, el("span", {}, t("js.create.seat_n", { n: index + 1 })), select);
}

function updateForm() {
  const chosen = chosenGame();
  const game = chosen.value;
  const [low, high] = [Number(chosen.dataset.min), Number(chosen.dataset.max)];
  const levels = chosen.dataset.levels.split(",").filter(Boolean);
  seatsInput.min = low;
  seatsInput.max = high;
  const seats = Math.min(high, Math.max(low, Number(seatsInput.value) || low));
  seatsInput.value = seats;
  const previous = [...$("seat-rows").querySelectorAll("select")].map((s) => s.value);
  $("seat-rows").replaceChildren(...Array.from({ length: seats }, (_, i) => seatRow(i, previous[i] || (i === 0 ? "me" : "open"), levels)));
  for (const fieldset of form.querySelectorAll(".game-options")) fieldset.hidden = fieldset.dataset.game !== game;
  updateRated();
}

/** Bots are not rated players (the server's rule, tables/core/ratings.py `rates_anyone`): the box
 * is unticked and disabled when fewer than two seats are left for people, with the reason. */
function updateRated() {
  const box = $("create-rated"), note = $("rated-note");
  const choices = [...$("seat-rows").querySelectorAll("select")].map((s) => s.value);
  const bots = choices.filter((c) => c.startsWith("bot:")).length;
  const people = choices.length - bots;
  if (!box.disabled) box.dataset.wanted = box.checked ? "on" : "";
  box.disabled = people < 2;
  box.checked = !box.disabled && box.dataset.wanted === "on";
  let text = "";
  if (people < 2) text = bots ? t("js.create.rated_bots") : t("js.create.rated_solo");
  else if (bots) text = t("js.create.rated_people_only");
  note.textContent = text;
  note.hidden = !text;
}

/** The chosen game's options, as the form's checkboxes say. */
function chosenOptions(game) {
  const options = {};
  const fieldset = form.querySelector(`.game-options[data-game="${game}"]`);
  for (const box of fieldset ? fieldset.querySelectorAll("input[type=checkbox]") : []) {
    options[box.name.slice("option:".length)] = box.checked;
  }
  return options;
}

form.addEventListener("change", (event) => {
  if (event.target.name.startsWith("seat-")) updateRated();
  else if (event.target.name !== "rated") updateForm();
});
seatsInput.addEventListener("input", updateForm);
form.addEventListener("submit", (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const game = data.get("game");
  const seats = Number(data.get("seats"));
  const bots = {};
  for (let i = 0; i < seats; i++) {
    const choice = data.get(`seat-${i}`);
    if (choice && choice.startsWith("bot:")) bots[i] = choice.slice(4);
  }
  const [kind, seconds] = String(data.get("pace")).split(":");
  const options = chosenOptions(game);
  goTo(() => createAndStart({
    game, seats, bots, options, rated: data.get("rated") === "on",
    private: data.get("visibility") === "private",
    pace: kind === "turn" ? "turn" : "realtime", move_seconds: Number(seconds), sit: true, seat: 0,
  }));
});
updateForm();

// Open tables, live
/** The pace of a table in words ("3 minutes per move"). */
export function paceText(pace, seconds) {
  if (!seconds) return "";
  if (pace === "turn") return t("pace.turn_h", { n: Math.round(seconds / 3600) });
  return seconds < 120 ? t("pace.realtime_s", { n: seconds }) : t("pace.realtime_min", { n: Math.round(seconds / 60) });
}

/** A seat in the lobby's list: its player's name (with a challenge button for a person or a
 * bot account), a built-in bot's, or "free seat". */
function seatNodes(seats, i) {
  const seat = seats[i];
  if (!seat.name) return botName(seats, i) || t("js.lobby.free_seat");
  const shown = nameText(seat.name, seat.bot_account);
  return seat.user_id && !seat.bot ? el("span", { class: "seat-name" }, shown, " ", challengeButton(seat.name, seat.bot_account)) : shown;
}

function drawTables(tables) {
  const rows = tables.map((table) => el("tr", { dataset: { table: table.id } },
    el("td", {}, t("game." + table.game)),
    el("td", {}, ...table.seats.flatMap((seat, i) => [i ? ", " : null, seatNodes(table.seats, i)])),
    el("td", {}, paceText(table.pace, table.move_seconds)),
    el("td", {}, table.rated ? t("js.lobby.rated") : t(table.unrated_by_bots ? "js.lobby.unrated_by_bots" : "js.lobby.casual")),
    el("td", {}, el("a", { href: `/table/${encodeURIComponent(table.id)}`,
      "aria-label": t("js.lobby.join_label", { game: t("game." + table.game) }) }, t("js.lobby.join")))));
  $("open-tables").replaceChildren(...rows);
  $("no-tables").hidden = rows.length > 0;
}

let tables = new Map();
function connectLobby() {
  const socket = new WebSocket(wsUrl(routes.lobbySocket));
  socket.onopen = () => { $("lobby-live").textContent = t("js.lobby.live"); };
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "lobby") tables = new Map(data.tables.map((table) => [table.id, table]));
    else if (data.type === "table") tables.set(data.table.id, data.table);
    else if (data.type === "gone") tables.delete(data.id);
    // Newest first, as the server lists them: a table just opened shows on top.
    drawTables([...tables.values()].sort((a, b) => b.created_at - a.created_at));
  };
  socket.onclose = () => {
    $("lobby-live").textContent = t("js.lobby.reconnecting");
    setTimeout(connectLobby, 2000);
  };
}
connectLobby();
startChallenges({ paceText, showError });
