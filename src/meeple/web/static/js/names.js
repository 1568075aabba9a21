// A player's name with its BOT mark when a bot account (a program playing through the Bot
// API) holds it: one helper for every place a name shows (seats, log, results, profile,
// leaderboard, lobby), so the mark reads the same everywhere. A name may carry a small
// challenge button (the lobby's seats, a table's players): one helper for it too.
import { el, t } from "./i18n.js";

// The signed-in player's name (no challenge button beside one's own): the header's account.js
// says it, on the page's body and by an event, whichever comes after this module loads.
let me = document.body.dataset.me || null;
const sameName = (a, b) => Boolean(a && b) && a.toLocaleLowerCase() === b.toLocaleLowerCase();
function hideOwn(user) {
  me = user ? user.name : null;
  for (const button of document.querySelectorAll("button.challenge-name")) button.hidden = sameName(button.dataset.name, me);
}
document.addEventListener("meeple:user", (event) => hideOwn(event.detail));
document.addEventListener("meeple:signed-in", (event) => hideOwn(event.detail));

/** A small button challenging `name` to a game (a dialog asks which and on what clock);
 * hidden beside one's own name. `bot`: a bot account. */
export function challengeButton(name, bot = false) {
  const label = t("js.friends.challenge_name", { name: nameText(name, bot) });
  return el("button", {
    type: "button", class: "challenge-name", title: label, "aria-label": label, dataset: { name },
    hidden: sameName(name, me),
    onclick: async (event) => {
      event.preventDefault();
      event.stopPropagation();
      const { openChallenge } = await import("./challenge_dialog.js");
      openChallenge(name, bot);
    },
  }, swordsIcon());
}

/** Two crossed swords, drawn (no font need hold a glyph for them): blades, guards, grips and
 * round pommels, so the pair never reads as a cross that closes or deletes. */
function swordsIcon() {
  const svgNs = "http://www.w3.org/2000/svg";
  const shape = (tag, attributes) => {
    const node = document.createElementNS(svgNs, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    return node;
  };
  const svg = shape("svg", { viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true", class: "swords-icon" });
  svg.append(
    shape("path", { d: "M3 3l11 11M21 3L10 14", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }),
    shape("path", { d: "M11.5 18.5l7-7M5.5 11.5l7 7M16 16l3 3M8 16l-3 3", fill: "none", stroke: "currentColor", "stroke-width": 2.4, "stroke-linecap": "round" }),
    shape("circle", { cx: 20, cy: 20, r: 1.8, fill: "currentColor" }),
    shape("circle", { cx: 4, cy: 20, r: 1.8, fill: "currentColor" }),
  );
  return svg;
}

/** The BOT mark: a small badge whose text and title are in the page's language. */
export function botMark() {
  return el("span", { class: "bot-mark", title: t("js.names.bot_title") }, t("js.names.bot_mark"));
}

/** A name as nodes to append: the name, then the BOT mark if `bot`, then a challenge button
 * to the account called `challenge` if given (a seat's name may be shown otherwise). */
export function nameNodes(name, bot, challenge = null) {
  const nodes = bot ? [name, " ", botMark()] : [name];
  return challenge ? [...nodes, " ", challengeButton(challenge, bot)] : nodes;
}

/** A name as plain text, for sentences (the log, "to play"): "DeepSlide (BOT)" if `bot`. */
export function nameText(name, bot) {
  return bot ? t("js.names.with_mark", { name }) : name;
}
