// One table's WebSocket: reconnects by itself, resumes from the last version it saw.
import { wsUrl } from "./api.js";

const RETRY_MS = [500, 1000, 2000, 4000, 8000];
const POLICY_VIOLATION = 1008;

/**
 * Calls handlers.snapshot(hello) for the table as it is, handlers.event(event) for each versioned
 * event in order, handlers.refused(error), handlers.ack(ack), handlers.online(isOnline) and
 * handlers.gone(reason) when the server refuses the table for good.
 * Messages are those of docs/protocol.md.
 */
export class TableConnection {
  constructor(path, invite, handlers) {
    this.path = path;
    this.invite = invite;
    this.handlers = handlers;
    this.version = null;
    this.socket = null;
    this.attempt = 0;
    this.timer = null;
    // The table's socket on its owner, when a server said where that is (see follow).
    this.ownerUrl = null;
    // The device lost its network: say so now, not when the socket times out; and come
    // back as soon as it returns rather than at the next retry.
    window.addEventListener("offline", () => this.drop());
    window.addEventListener("online", () => { if (!this.socket) this.start(); });
  }

  start() {
    clearTimeout(this.timer);
    const query = new URLSearchParams();
    if (this.version !== null) query.set("since", String(this.version));
    if (this.invite) query.set("invite", this.invite);
    const url = (this.ownerUrl ?? wsUrl(this.path)) + (query.toString() ? `?${query}` : "");
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.handlers.online(true);
    };
    socket.onmessage = (message) => this.receive(JSON.parse(message.data));
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      if (event.code === POLICY_VIOLATION) {
        // No such table, or a private one without its invite: retrying will not help.
        this.handlers.gone(event.reason);
        return;
      }
      this.lost();
    };
  }

  /** The connection is gone: say so, and try again after a while. */
  lost() {
    this.handlers.online(false);
    // The owner may be the server that went away: come back through the site's address.
    this.ownerUrl = null;
    // Spread over half to one and a half times the step: when a server dies, its players
    // come back to the others over a second, not all in the same instant.
    const step = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    const delay = step * (0.5 + Math.random());
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.start(), delay);
  }

  /** Close and open again at once (after taking a seat: the view changes). */
  restart() {
    const old = this.socket;
    this.socket = null;
    this.version = null;
    if (old) old.close();
    this.start();
  }

  receive(data) {
    switch (data.type) {
      case "hello":
        this.version = data.version;
        this.handlers.snapshot(data);
        break;
      case "event":
        if (this.version !== null && data.version !== this.version + 1) {
          // A gap: never show a stale board; reconnect and ask for what was missed.
          this.socket.close();
          return;
        }
        this.version = data.version;
        this.handlers.event(data);
        break;
      case "error":
        this.handlers.refused(data);
        break;
      case "ack":
        if (this.handlers.ack) this.handlers.ack(data);
        break;
      case "owner":
        this.follow(data.url);
        break;
      case "watchers":
        if (this.handlers.watchers) this.handlers.watchers(data.spectators, data.present);
        break;
      default:
        break;
    }
  }

  /**
   * The table runs on another server: connect to it there, so moves skip a hop. Only an
   * address on this same site is followed (a path per server behind one host): another
   * host would get neither this page's cookies nor past its Origin check.
   */
  follow(url) {
    let target;
    try {
      target = new URL(url);
    } catch {
      return;
    }
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    if (target.protocol !== scheme || target.host !== location.host || target.search) return;
    if (this.ownerUrl === target.href) return;
    this.ownerUrl = target.href;
    const old = this.socket;
    this.socket = null; // its close is not a failure
    if (old) old.close();
    this.start();
  }

  /**
   * Cut the connection as a network failure would (it reconnects by itself). The page is
   * offline at once: a socket's close waits for the server's answer, which a network that
   * is gone never brings.
   */
  drop() {
    const old = this.socket;
    if (!old) return;
    this.socket = null;
    old.close();
    this.lost();
  }

  /** Send a message; false when offline. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
