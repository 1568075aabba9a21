// Challenges on the home page: the external bots online, listed in their own section and among
// each card's bot levels, a challenge to one of them (on the clock chosen there) waiting for its
// answer (then the table), and the challenges sent to the player.
import { api, currentUser, ensurePlayer } from "./api.js";
import { el, t } from "./i18n.js";
import { nameText } from "./names.js";

const $ = (id) => document.getElementById(id);
const ONLINE_PREFIX = "online:";
const ONLINE_EVERY_MS = 10000;
const WAIT_EVERY_MS = 1000;
const INCOMING_EVERY_MS = 5000;

const challengeRoute = (id) => `/api/challenges/${encodeURIComponent(id)}`;

/** Whether a level select's choice is an online bot; its name if so. */
export function onlineBotChosen(select) {
  return select && select.value.startsWith(ONLINE_PREFIX) ? select.value.slice(ONLINE_PREFIX.length) : null;
}

/** Put the online bots that take `game` into its card's level select, after the built-in levels. */
function fillSelect(select, game, bots) {
  const kept = select.value;
  select.querySelector("optgroup.online-bots")?.remove();
  const taking = bots.filter((bot) => !bot.accept || bot.accept.includes(game));
  if (taking.length) {
    select.append(el("optgroup", { class: "online-bots", label: t("js.challenge.online_bots") },
      ...taking.map((bot) => el("option", { value: ONLINE_PREFIX + bot.name }, nameText(bot.name, true)))));
  }
  if ([...select.options].some((option) => option.value === kept)) select.value = kept;
}

/** The home page's list of the bots online: each one's profile and a challenge per game it
 * takes (the games are the cards' own, in their order). */
function drawOnline(bots, showError) {
  const games = [...document.querySelectorAll("[data-bot-level]")].map((select) => select.dataset.botLevel);
  const rows = bots.map((bot) => {
    const taking = games.filter((game) => !bot.accept || bot.accept.includes(game));
    if (!taking.length) return null;
    return el("li", { dataset: { bot: bot.name } },
      el("a", { href: `/profile/${encodeURIComponent(bot.name)}` }, nameText(bot.name, true)), " ",
      ...taking.map((game) => {
        const text = t("js.challenge.challenge_to", { game: t("game." + game) });
        // Its name says which bot too, after the words it shows (several bots, one word each).
        return el("button", {
          type: "button", "aria-label": `${text}: ${bot.name}`,
          onclick: () => challengeBot(bot.name, game, 2, showError),
        }, text);
      }));
  }).filter(Boolean);
  $("online-bots-list").replaceChildren(...rows);
  $("online-bots").hidden = rows.length === 0;
}

async function refreshOnline(showError) {
  let bots = [];
  try { bots = await api("GET", "/api/bots/online"); } catch { /* the built-in levels stay */ }
  for (const select of document.querySelectorAll("[data-bot-level]")) {
    fillSelect(select, select.dataset.botLevel, bots);
  }
  if ($("online-bots")) drawOnline(bots, showError);
}

/** The clock chosen for a challenge to a bot ("realtime:180" by default, the create form's). */
function chosenClock() {
  const [pace, seconds] = ($("challenge-clock")?.value || "realtime:180").split(":");
  return { pace, move_seconds: Number(seconds) };
}

let waiting = null;

/** Show the waiting note's text and whether its cancel button shows. */
function showWait(text, cancellable) {
  $("challenge-wait").hidden = false;
  $("challenge-wait-text").textContent = text;
  $("challenge-cancel").hidden = !cancellable;
}

/** What became of a challenge that is no longer open, in words. */
export function closedText(challenge) {
  const name = challenge.to.name;
  if (challenge.status === "declined") {
    return t("js.challenge.declined", { name, reason: t(`js.challenge.reason_${challenge.reason || "generic"}`) });
  }
  return t(challenge.status === "lapsed" ? "js.challenge.lapsed" : "js.challenge.cancelled", { name });
}

/** Follow a sent challenge each second until answered: the table once accepted. */
async function follow(id) {
  while (waiting === id) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_EVERY_MS));
    if (waiting !== id) return;
    let challenge;
    try { challenge = await api("GET", challengeRoute(id)); } catch { continue; }
    if (challenge.status === "accepted") {
      location.href = `/table/${encodeURIComponent(challenge.table_id)}`;
      return;
    }
    if (challenge.status !== "open") {
      waiting = null;
      showWait(closedText(challenge), false);
      return;
    }
  }
}

/** Challenge the online bot `name` to `game` for `players` seats (beyond two: built-in bots). */
export async function challengeBot(name, game, players, showError) {
  try {
    await ensurePlayer();
    const sent = await api("POST", "/api/challenges", {
      to: name, game, options: { players }, ...chosenClock(), rated: false,
    });
    waiting = sent.id;
    showWait(t("js.challenge.waiting", { name: nameText(name, true) }), true);
    follow(sent.id);
  } catch (error) {
    showError(error);
  }
}

async function cancelWaiting(showError) {
  const id = waiting;
  if (!id) return;
  waiting = null;
  try {
    await api("POST", `${challengeRoute(id)}/cancel`);
    $("challenge-wait").hidden = true;
  } catch (error) {
    // Answered meanwhile: follow it to its end (the table, or why not).
    if (error.status === 409) { waiting = id; follow(id); } else showError(error);
  }
}

/** The challenges sent to the player, each with accept and decline. */
function drawIncoming(me, challenges, paceText, showError) {
  const mine = challenges.filter((c) => c.to.id === me.id && c.status === "open");
  $("challenges-in").hidden = mine.length === 0;
  $("challenges-in-list").replaceChildren(...mine.map((c) => el("li", { dataset: { challenge: c.id } },
    el("span", {}, t("js.challenge.incoming", {
      name: nameText(c.from.name, c.from.bot), game: t("game." + c.game),
      pace: paceText(c.pace, c.move_seconds),
      rated: t(c.rated ? "js.lobby.rated" : "js.lobby.casual"),
    })), " ",
    el("button", { type: "button", class: "primary", onclick: async () => {
      try {
        const answer = await api("POST", `${challengeRoute(c.id)}/accept`);
        location.href = `/table/${encodeURIComponent(answer.table_id)}`;
      } catch (error) { showError(error); }
    } }, t("js.challenge.accept")), " ",
    el("button", { type: "button", onclick: async () => {
      try { await api("POST", `${challengeRoute(c.id)}/decline`, { reason: "generic" }); } catch (error) { showError(error); }
      refreshIncoming(me, paceText, showError);
    } }, t("js.challenge.decline")))));
}

async function refreshIncoming(me, paceText, showError) {
  try { drawIncoming(me, await api("GET", "/api/challenges"), paceText, showError); } catch { /* next round */ }
}

/** Start the page's challenge parts: the online bots, the cancel button, the incoming list. */
export async function startChallenges({ paceText, showError }) {
  $("challenge-cancel").addEventListener("click", () => cancelWaiting(showError));
  refreshOnline(showError);
  setInterval(() => refreshOnline(showError), ONLINE_EVERY_MS);
  const me = await currentUser().catch(() => null);
  if (!me) return;
  refreshIncoming(me, paceText, showError);
  setInterval(() => refreshIncoming(me, paceText, showError), INCOMING_EVERY_MS);
}
