// The Hint button: asks the server for the analysis engine's best move (POST
// /api/tables/{id}/hint, only in unrated games against built-in bots; in a tutorial, POST
// /api/tutorials/{game}/{step}/hint, the step's own move where that is not it) and shows it: a
// placement staged on the board ready to play, a discard's tiles picked, or the pass, in words.
import { el, t } from "../../i18n.js";
import { face } from "./board.js";

const shown = (text) => [...String(text)].map(face).join("");

/**
 * The button, for the table page's context `ctx` (its `hintAllowed()` and `askHint()`); `ui`
 * gives `myTurn()`, `stage(dir, tiles, verdict)` and `pickDiscard(tiles)`. `redraw()` shows it
 * only where hints are given and enables it on the player's turn.
 */
export function hintButton(ctx, ui) {
  let asking = false;
  const button = el("button", { type: "button", class: "hint-button", hidden: true, onclick: ask }, t("js.summy.hint"));

  async function ask() {
    if (asking || !ui.myTurn()) return;
    asking = true;
    redraw();
    ctx.say(t("js.summy.hint_working"), "");
    try {
      show(await ctx.askHint());
    } catch (error) {
      ctx.say(error.message || t("js.error.generic"), "bad");
    } finally {
      asking = false;
      redraw();
    }
  }

  function show(answer) {
    const { action } = answer;
    // A tutorial's hint may be the step's own move, its facts in the move's effects.
    const details = answer.details.kind === "lesson"
      ? (answer.details.effects || []).find((effect) => effect.type === "place") || {}
      : answer.details;
    if (action.type === "place") {
      const verdict = { legal: true, score: details.score, text: details.equation };
      ui.stage(action.dir, action.tiles, verdict);
      ctx.say(t("js.summy.hint_place", { equation: shown(details.equation), score: details.score }), "help");
    } else if (action.type === "discard") {
      ui.pickDiscard(action.tiles);
      ctx.say(t("js.summy.hint_discard", { tiles: action.tiles.map(face).join(" ") }), "help");
    } else {
      ctx.say(t("js.summy.hint_pass"), "help");
    }
  }

  function redraw() {
    button.hidden = !ctx.hintAllowed();
    button.disabled = asking || !ui.myTurn();
  }

  return { button, redraw };
}
