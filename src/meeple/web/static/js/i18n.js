// Translations for the scripts: the catalog the page embeds (#i18n), the same keys as the server's.
const data = JSON.parse(document.getElementById("i18n")?.textContent || "{}");
const messages = data.messages || {};
const patterns = (data.patterns || []).map(([source, key]) => [new RegExp(`^(?:${source})$`), key]);

/** The page's language code. */
export const lang = data.lang || document.documentElement.lang || "en";

/** The text of `key` with `{name}` fields filled from `values`; the key itself when missing. */
export function t(key, values = {}) {
  const text = messages[key];
  if (!text) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** A server or engine message in the page's language when its shape is known, else as it is. */
export function translateMessage(message) {
  for (const [regex, key] of patterns) {
    const match = regex.exec(message);
    if (match) {
      const text = messages[key];
      if (!text) return message;
      return text.replace(/\{(\d+)\}/g, (whole, n) => match[Number(n) + 1] ?? whole);
    }
  }
  return message;
}

/** Build an element: el("button", {class: "x", onclick: f}, "text", child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
