// A game's text on its analysis board (docs/notation.md): a pasted text or a file is read by the
// server (POST /api/games/{game}/import, every move checked by the game's engine), then the
// game is stepped through move by move; and the link to the position on the board, to share.
// Generic: the game's board script gives its name and how to show a position (its `show`).
import { api } from "./api.js";
import { t, translateRefusal } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** A refusal of the import in the page's language, with the line it names. */
function refusalText(error) {
  const params = error.params || {};
  if (typeof params.line !== "number") return error.message;
  const why = translateRefusal(error.reason, params, params.why || error.message);
  return t("js.game_text.at_line", { line: params.line, why });
}

/**
 * Wire the import panel (templates/game_text.html's `import_panel`): `show(view, next, name)`
 * puts the position before the move `next` on the board (`view`: the game's view for the
 * mover's seat; `next`: `{seat, action, text}`, or null after the last move).
 */
export function gameTextPanel({ game, show }) {
  let imported = null;
  let index = 0;
  const status = $("import-status");

  const seatName = (seat) => (imported && imported.names[seat]) || t("js.table.seat_n", { n: seat + 1 });

  function go(to) {
    if (!imported) return;
    const total = imported.moves.length;
    index = Math.max(0, Math.min(total, to));
    const next = imported.moves[index] || null;
    $("game-step").textContent = t("js.replay.step", { n: index, total });
    $("game-first").disabled = $("game-back").disabled = index === 0;
    $("game-forward").disabled = $("game-last").disabled = index === total;
    $("game-next").textContent = next
      ? t("js.game_text.next", { name: seatName(next.seat), move: next.text })
      : t(imported.result ? "js.table.game_over" : "js.game_text.end");
    show(imported.views[index], next, next ? seatName(next.seat) : null);
  }

  async function read(text) {
    status.classList.remove("error");
    if (!text.trim()) {
      status.textContent = t("js.game_text.empty");
      status.classList.add("error");
      return;
    }
    status.textContent = t("js.game_text.reading");
    try {
      imported = await api("POST", `/api/games/${encodeURIComponent(game)}/import`, { text });
    } catch (error) {
      status.textContent = refusalText(error);
      status.classList.add("error");
      return;
    }
    status.textContent = t("js.game_text.read", { count: imported.moves.length });
    $("game-steps").hidden = $("game-next").hidden = false;
    $("import-box").open = false; // the board comes up under the steps; the box opens again
    go(0);
  }

  $("import-go").addEventListener("click", () => read($("import-text").value));
  $("import-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      $("import-text").value = await file.text();
    } catch {
      status.textContent = t("js.game_text.unreadable");
      status.classList.add("error");
      return;
    }
    read($("import-text").value);
  });
  $("game-first").addEventListener("click", () => go(0));
  $("game-back").addEventListener("click", () => go(index - 1));
  $("game-forward").addEventListener("click", () => go(index + 1));
  $("game-last").addEventListener("click", () => go(Infinity));
  document.addEventListener("keydown", (event) => {
    if (!imported || event.target.closest("input, select, textarea, [role=application]")) return;
    if (event.key === "ArrowLeft") go(index - 1);
    else if (event.key === "ArrowRight") go(index + 1);
  });
}

/**
 * Wire the share link (templates/game_text.html's `share_link`): the page's address, which the
 * board keeps on the position shown; call the returned function whenever it changes.
 */
export function shareLink() {
  const field = $("share-url");
  const status = $("share-status");
  const update = () => {
    field.value = location.href;
    status.textContent = "";
  };
  $("share-copy").addEventListener("click", async () => {
    update();
    try {
      await navigator.clipboard.writeText(field.value);
      status.textContent = t("js.game_text.copied");
    } catch {
      // No clipboard (an insecure page, a refused permission): the link is selected to copy.
      field.select();
      status.textContent = t("js.game_text.copy_yourself");
    }
  });
  update();
  return update;
}
