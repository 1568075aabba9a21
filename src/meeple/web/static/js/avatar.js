// Player avatars drawn from the name alone: initials on a colour of their own, the same everywhere.
import { el } from "./i18n.js";

/** A stable hue (0-359) for a name: a small string hash (FNV-1a), not a secret. */
export function hueOf(name) {
  let hash = 2166136261;
  for (const char of name) {
    hash ^= char.codePointAt(0);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash % 360;
}

/** Up to two letters for a name: "ada_lovelace" -> "AL", "guest-48d9" -> "G4", "casual bot" -> "CB". */
export function initialsOf(name) {
  const parts = name.split(/[\s_\-.]+/u).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[1]].map((p) => [...p][0]) : [...(parts[0] || "?")].slice(0, 2);
  return letters.join("").toUpperCase();
}

/** An avatar for a player or a bot (bots are square, people round); decorative, so hidden from readers. */
export function avatar(name, { bot = false, size = "" } = {}) {
  return el("span", {
    class: ["avatar", bot ? "bot" : "", size].filter(Boolean).join(" "),
    style: `--hue:${hueOf(name)}`, "aria-hidden": "true",
  }, initialsOf(name));
}

/** Fill an existing avatar node (the header's) for `name`. */
export function paintAvatar(node, name) {
  node.style.setProperty("--hue", String(hueOf(name)));
  node.textContent = initialsOf(name);
}
