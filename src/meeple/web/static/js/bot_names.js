// One name per bot level everywhere (seats, log, results, lobby): the level's display name,
// and for a second or third bot of that level at one table a number ("casual bot 2"). The
// number counts the same-level bots in lower seats only, so a bot's name is the same whether
// the later bots have sat down yet or not (bots fill free seats in seat order).
import { t } from "./i18n.js";

/** The name of the bot of `level` (default: the seat's own) in `seats[index]`; null if none. */
export function botName(seats, index, level = seats?.[index]?.bot) {
  if (!level) return null;
  const name = t("bot." + level);
  const n = (seats || []).slice(0, index).filter((seat) => seat?.bot === level).length + 1;
  return n === 1 ? name : t("js.bot.numbered", { name, n });
}
