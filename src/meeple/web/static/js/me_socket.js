// The tab's one socket for the signed-in account (/ws/me): the "your turn" count, the
// notifications and other lines of the account's channel, pushed by the server.
// onUserLine(type, fn) calls fn(line) for each line of that type; a late subscriber gets
// the last one seen at once, so a count shows whatever loaded first. onConnected(fn) calls
// fn() at each (re)connection, to read again what a page may have missed meanwhile.
import { wsUrl } from "./api.js";

const PATH = "/ws/me";
const RETRY_MS = [1000, 2000, 4000, 8000, 16000, 30000];
const POLICY_VIOLATION = 1008;

const handlers = new Map();
const connected = [];
const last = new Map();
let socket = null;
let attempt = 0;
let timer = null;
let wanted = false;

/** Call fn(line) for every line of `type` ("my_turns", "notification", ...). */
export function onUserLine(type, fn) {
  if (!handlers.has(type)) handlers.set(type, []);
  handlers.get(type).push(fn);
  if (last.has(type)) fn(last.get(type));
}

/**
 * Call fn() each time the socket (re)connects, as soon as the server listens to the
 * account's lines (its first line says so): read again whatever may have come meanwhile,
 * since a line published before that moment is not relayed.
 */
export function onConnected(fn) {
  connected.push(fn);
}

function deliver(line) {
  if (!line || typeof line.type !== "string") return;
  last.set(line.type, line);
  for (const fn of handlers.get(line.type) ?? []) {
    try { fn(line); } catch (error) { console.error(error); }
  }
}

function open() {
  clearTimeout(timer);
  if (!wanted || socket) return;
  const opened = new WebSocket(wsUrl(PATH));
  socket = opened;
  opened.onopen = () => { attempt = 0; };
  let first = true;
  opened.onmessage = (message) => {
    if (first) {
      first = false;
      for (const fn of connected) {
        try { fn(); } catch (error) { console.error(error); }
      }
    }
    try { deliver(JSON.parse(message.data)); } catch { /* not JSON: skipped */ }
  };
  opened.onclose = (event) => {
    if (socket !== opened) return;
    socket = null;
    // Signed out (or not signed in): nothing to wait for until a user is known again.
    if (event.code === POLICY_VIOLATION) { wanted = false; return; }
    const step = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
    attempt += 1;
    timer = setTimeout(open, step * (0.5 + Math.random()));
  };
}

function userKnown(user) {
  wanted = Boolean(user);
  if (wanted) open();
  else if (socket) { const closing = socket; socket = null; closing.close(); }
}

document.addEventListener("meeple:user", (event) => userKnown(event.detail));
document.addEventListener("meeple:signed-in", (event) => userKnown(event.detail));
window.addEventListener("online", () => { if (wanted && !socket) { attempt = 0; open(); } });
