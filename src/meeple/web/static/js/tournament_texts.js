// What the tournament pages say of a tournament: its game, format, pace and field, and
// where it stands in time (starts in, round N of M, ends in, finished, cancelled).
import { lang, t } from "./i18n.js";

const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

/** A span of time in the page's language, in its largest whole unit ("2 days"). */
export function spanText(seconds) {
  const left = Math.max(0, Number(seconds) || 0);
  const [unit, size] = UNITS.find(([, size]) => left >= size) ?? ["second", 1];
  const value = Math.max(1, Math.floor(left / size));
  return new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(value);
}

export function gameName(game) {
  const name = t(`game.${game}`);
  return name === `game.${game}` ? game : name;
}

function paceText(pace, seconds) {
  if (pace === "turn") return t("pace.turn_h", { n: Math.round(seconds / 3600) });
  return seconds < 120 ? t("pace.realtime_s", { n: seconds }) : t("pace.realtime_min", { n: Math.round(seconds / 60) });
}

/** The game, the format, the clock and the field, in one line. */
export function factsText(tournament) {
  const format = tournament.format === "arena"
    ? t("js.tournament.arena", { minutes: tournament.minutes })
    : t("js.tournament.swiss", { rounds: tournament.rounds });
  const players = t("js.tournament.players", { count: tournament.players, most: tournament.max_players });
  return [gameName(tournament.game), format, paceText(tournament.pace, tournament.move_seconds), players].join(" · ");
}

/** Where the tournament stands in time, at the page's clock. */
export function clockText(tournament) {
  const now = Date.now() / 1000;
  if (tournament.status === "scheduled") return t("js.tournament.starts_in", { left: spanText(tournament.starts_at - now) });
  if (tournament.status === "cancelled") return t("js.tournament.cancelled");
  if (tournament.status === "finished") return t("js.tournament.finished");
  if (tournament.format === "arena") return t("js.tournament.ends_in", { left: spanText(tournament.ends_at - now) });
  return t("js.tournament.round_of", { round: tournament.round, rounds: tournament.rounds });
}
