// A challenge to a named player from wherever the name shows (a profile, the friends list, a
// seat in the lobby or at a table): a dialog to choose the game and the clock, then the wait
// for the answer (the table once accepted, else why not), as the home page challenges a bot.
import { api, ensurePlayer } from "./api.js";
import { el, t } from "./i18n.js";
import { nameText } from "./names.js";
import { closedText } from "./challenges.js";

const CLOCKS = [
  ["realtime:60", "pace.realtime_s", 60], ["realtime:180", "pace.realtime_min", 3],
  ["realtime:600", "pace.realtime_min", 10], ["turn:86400", "pace.turn_h", 24],
  ["turn:259200", "pace.turn_h", 72],
];
const KEPT = "meeple.challenge"; // the last game and clock chosen, offered first next time
const WAIT_EVERY_MS = 1000;

let dialog = null;
let parts = null;
let waiting = null; // the id of the challenge sent and not yet answered
let gamesAsked = null;

/** The games a challenge can be for (two players at least may sit), as the server lists them. */
function challengeGames() {
  gamesAsked ??= api("GET", "/api/games")
    .then((games) => games.filter((game) => game.min_players <= 2 && game.max_players >= 2).map((game) => game.name))
    .catch(() => { gamesAsked = null; return []; });
  return gamesAsked;
}

function kept() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "{}") || {}; } catch { return {}; }
}

function build() {
  const heading = el("h2", { id: "challenge-dialog-heading" });
  const game = el("select", { id: "challenge-dialog-game", name: "game" });
  const clock = el("select", { id: "challenge-dialog-clock", name: "clock" },
    ...CLOCKS.map(([value, key, n]) => el("option", { value }, t(key, { n }))));
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const status = el("p", { class: "challenge-wait", role: "status" });
  const send = el("button", { type: "submit", class: "primary", id: "challenge-dialog-send" }, t("js.friends.send_challenge"));
  const close = el("button", { type: "button", id: "challenge-dialog-close" }, t("js.friends.close"));
  const choices = el("div", { class: "challenge-choices" },
    el("label", { for: "challenge-dialog-game" }, t("js.friends.game")), game,
    el("label", { for: "challenge-dialog-clock" }, t("js.friends.clock")), clock);
  const form = el("form", { method: "dialog" }, heading, choices, error, status,
    el("div", { class: "actions" }, send, close));
  dialog = el("dialog", { class: "challenge-dialog", "aria-labelledby": "challenge-dialog-heading" }, form);
  parts = { heading, game, clock, error, status, send, close, choices };
  form.addEventListener("submit", (event) => { event.preventDefault(); sendChallenge(); });
  close.addEventListener("click", () => dialog.close());
  // Closed while waiting (the button, Escape): the challenge is taken back.
  dialog.addEventListener("close", () => { if (waiting) cancel(waiting); });
  document.body.append(dialog);
}

/** Say how the challenge stands (the line stays, empty, so readers hear what comes in it). */
function showStatus(text) {
  parts.status.textContent = text;
}

function showError(error) {
  parts.error.hidden = !error;
  parts.error.textContent = error ? error.message : "";
}

/** Open the dialog to challenge `name` (`bot`: a bot account, marked so). */
export async function openChallenge(name, bot = false) {
  if (!dialog) build();
  if (dialog.open) return;
  const games = await challengeGames();
  const last = kept();
  parts.heading.textContent = t("js.friends.challenge_title", { name: nameText(name, bot) });
  parts.game.replaceChildren(...games.map((game) => el("option", { value: game }, t("game." + game))));
  if (games.includes(last.game)) parts.game.value = last.game;
  parts.clock.value = CLOCKS.some(([value]) => value === last.clock) ? last.clock : "realtime:180";
  dialog.dataset.name = name;
  dialog.dataset.bot = bot ? "1" : "";
  parts.choices.hidden = false;
  parts.send.hidden = false;
  showStatus("");
  parts.close.textContent = t("js.friends.close");
  showError(null);
  dialog.showModal();
}

async function sendChallenge() {
  const name = dialog.dataset.name;
  const [pace, seconds] = parts.clock.value.split(":");
  const game = parts.game.value;
  try { localStorage.setItem(KEPT, JSON.stringify({ game, clock: parts.clock.value })); } catch { /* private mode */ }
  showError(null);
  try {
    await ensurePlayer();
    const sent = await api("POST", "/api/challenges", {
      to: name, game, options: { players: 2 }, pace, move_seconds: Number(seconds), rated: false,
    });
    waiting = sent.id;
    parts.choices.hidden = true;
    parts.send.hidden = true;
    parts.close.textContent = t("js.friends.cancel_challenge");
    showStatus(t("js.challenge.waiting", { name: nameText(name, Boolean(dialog.dataset.bot)) }));
    follow(sent.id);
  } catch (error) {
    showError(error);
  }
}

/** Follow a sent challenge each second until answered: the table once accepted. */
async function follow(id) {
  while (waiting === id) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_EVERY_MS));
    if (waiting !== id) return;
    let challenge;
    try { challenge = await api("GET", `/api/challenges/${encodeURIComponent(id)}`); } catch { continue; }
    if (challenge.status === "accepted") {
      location.href = `/table/${encodeURIComponent(challenge.table_id)}`;
      return;
    }
    if (challenge.status !== "open") {
      waiting = null;
      showStatus(closedText(challenge));
      parts.close.textContent = t("js.friends.close");
      return;
    }
  }
}

async function cancel(id) {
  waiting = null;
  try {
    await api("POST", `/api/challenges/${encodeURIComponent(id)}/cancel`);
  } catch (error) {
    // Accepted meanwhile: go to the game after all.
    if (error.status === 409) {
      const challenge = await api("GET", `/api/challenges/${encodeURIComponent(id)}`).catch(() => null);
      if (challenge?.status === "accepted") location.href = `/table/${encodeURIComponent(challenge.table_id)}`;
    }
  }
}
