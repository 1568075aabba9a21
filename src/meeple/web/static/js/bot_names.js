// One name per bot level everywhere (seats, log, results, lobby): the level's display name,
// numbered in seat order when several bots of one level sit at a table ("casual bot 2").
import { t } from "./i18n.js";

/** The name of the bot in `seats[index]` (a seat is `{bot: level, ...}`), or null if no bot. */
export function botName(seats, index) {
  const level = seats?.[index]?.bot;
  if (!level) return null;
  const name = t("bot." + level);
  const same = seats.filter((seat) => seat?.bot === level).length;
  if (same < 2) return name;
  const n = seats.slice(0, index + 1).filter((seat) => seat?.bot === level).length;
  return t("js.bot.numbered", { name, n });
}
