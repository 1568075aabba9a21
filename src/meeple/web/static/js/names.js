// A player's name with its BOT mark when a bot account (a program playing through the Bot
// API) holds it: one helper for every place a name shows (seats, log, results, profile,
// leaderboard, lobby), so the mark reads the same everywhere.
import { el, t } from "./i18n.js";

/** The BOT mark: a small badge whose text and title are in the page's language. */
export function botMark() {
  return el("span", { class: "bot-mark", title: t("js.names.bot_title") }, t("js.names.bot_mark"));
}

/** A name as nodes to append: the name, then the BOT mark if `bot`. */
export function nameNodes(name, bot) {
  return bot ? [name, " ", botMark()] : [name];
}

/** A name as plain text, for sentences (the log, "to play"): "DeepSlide (BOT)" if `bot`. */
export function nameText(name, bot) {
  return bot ? t("js.names.with_mark", { name }) : name;
}
