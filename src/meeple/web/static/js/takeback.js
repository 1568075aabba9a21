// Takebacks at the table (docs/server.md, "Takebacks"): the "Take back" button where the server
// would allow it, the ask shown to the players it waits on, with Accept and Decline. Generic: it
// reads only table events and the table's summary, never a game's view.
import { api, routes } from "./api.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const SERVER_MOVES = new Set(["bot", "zombie"]); // moves a takeback may undo besides one's own

/** The takeback controls of one table page. `ctx`: `tableId`, `info()` (the summary), `mySeat()`,
 * `seatName(seat)`, `say(text, kind)`. */
export class Takebacks {
  constructor(ctx) {
    this.ctx = ctx;
    this.standing = []; // the action events that stand: {seat, by}
    this.declined = false; // my ask was declined and no move came since
    $("takeback").addEventListener("click", () => this.post(null));
    $("takeback-accept").addEventListener("click", () => this.post("accept"));
    $("takeback-decline").addEventListener("click", () => this.post("decline"));
  }

  /** Follow one table event, in version order (the page's whole log after a reconnect). */
  heard(event) {
    if (event.version === 1) { this.standing = []; this.declined = false; this.version = 0; }
    const me = this.ctx.mySeat();
    if (event.kind === "action") {
      this.standing.push({ seat: event.seat, by: event.data.by });
      this.declined = false;
    } else if (event.kind === "takeback") {
      this.standing.splice(this.standing.length - event.data.count);
    } else if (event.kind === "takeback_decline") {
      const asked = this.ctx.info()?.takeback?.asked;
      if (asked && asked.seat === me) this.declined = true;
    }
    const info = this.ctx.info();
    if (info && info.takeback && event.version > (this.version ?? 0)) {
      this.version = event.version;
      info.takeback.asked = askAfter(info.takeback.asked, event);
    }
  }

  /** Whether my last standing move may be taken back now: the server's own rule, so the button
   * never offers what it would refuse. */
  undoable() {
    const info = this.ctx.info();
    const me = this.ctx.mySeat();
    if (!info || me === null || info.status !== "playing" || !info.takeback?.allowed) return false;
    if (info.takeback.asked || this.declined || info.seats[me]?.zombie) return false;
    for (let i = this.standing.length - 1; i >= 0; i -= 1) {
      if (this.standing[i].seat === me) return true;
      if (!SERVER_MOVES.has(this.standing[i].by)) return false;
    }
    return false;
  }

  /** Show the button and the ask as the table stands. */
  draw() {
    const info = this.ctx.info();
    const me = this.ctx.mySeat();
    $("takeback").hidden = !this.undoable();
    const asked = info && info.status === "playing" ? info.takeback?.asked : null;
    const mine = Boolean(asked && asked.seat === me);
    const toAnswer = Boolean(asked && me !== null && asked.waiting.includes(me));
    $("takeback-ask").hidden = !(mine || toAnswer);
    $("takeback-accept").hidden = $("takeback-decline").hidden = !toAnswer;
    if (toAnswer) $("takeback-ask-text").textContent = t("js.takeback.asked_you", { name: this.ctx.seatName(asked.seat) });
    else if (mine) {
      const names = asked.waiting.map((seat) => this.ctx.seatName(seat)).join(", ");
      $("takeback-ask-text").textContent = t("js.takeback.waiting", { names });
    }
  }

  async post(answer) {
    try {
      await api("POST", routes.takeback(this.ctx.tableId), answer ? { answer } : {});
    } catch (error) {
      this.ctx.say(error.message, "bad");
    }
  }
}

/** The ask awaiting answers after `event`, from the one before it (the server's summary
 * says the same; events keep it current between summaries). */
function askAfter(asked, event) {
  switch (event.kind) {
    case "takeback_ask": return { seat: event.seat, count: event.data.count, waiting: [...event.data.waiting] };
    case "takeback_accept": return asked ? { ...asked, waiting: asked.waiting.filter((s) => s !== event.seat) } : null;
    case "action": case "zombie": case "takeback": case "takeback_decline": case "finish": return null;
    default: return asked;
  }
}
