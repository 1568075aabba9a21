// Translations for the scripts: the catalog of the page's language, the same keys as the server's.
// The page names its catalog's versioned URL; the browser caches it, so it is fetched once.
const source = document.querySelector('meta[name="meeple-catalog"]')?.content;
const data = source ? await fetch(source).then((r) => r.json()).catch(() => ({})) : {};
const messages = data.messages || {};

/** The page's language code. */
export const lang = data.lang || document.documentElement.lang || "en";

const plural = new Intl.PluralRules(lang);

/** The entry's text: a plural entry ({one, other, ...}) picks its form by `values.count`. */
function textOf(entry, values) {
  if (typeof entry !== "object" || entry === null) return entry;
  return entry[plural.select(Number(values.count ?? 0))] ?? entry.other;
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** The text of `key` with `{name}` fields filled from `values`; the key itself when missing. */
export function t(key, values = {}) {
  const text = textOf(messages[key], values);
  if (!text) return key;
  return fill(text, values);
}

/**
 * A wait in the page's language, by the browser's own units: seconds under a minute,
 * else whole minutes rounded up ("31 minutes", "31 minuti", "31 分").
 */
export function waitText(seconds) {
  const wait = Math.max(1, Math.ceil(Number(seconds) || 0));
  const [value, unit] = wait < 60 ? [wait, "second"] : [Math.ceil(wait / 60), "minute"];
  return new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(value);
}

/** A moment (seconds since the epoch) in the page's language and the reader's time zone. */
export function momentText(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * A refusal (or a result's reason) in the page's language, by its code: the catalog's
 * `engine.<code>` text with the params filled in; the English when the code is unknown
 * or the text names a field the params lack. A refusal that gives its wait in `seconds`
 * also fills `{wait}` (see waitText), one that gives a moment in `until` fills `{when}` in
 * local time (see momentText).
 */
export function translateRefusal(code, params, english) {
  const values = { ...(params || {}) };
  if (values.seconds !== undefined && values.wait === undefined) values.wait = waitText(values.seconds);
  if (typeof values.until === "number") values.when = momentText(values.until); // local time
  const text = code ? textOf(messages[`engine.${code}`], values) : null;
  if (!text) return english;
  const filled = fill(text, values);
  return /\{\w+\}/.test(filled) ? english : filled;
}

/** Build an element: el("button", {class: "x", onclick: f}, "text", child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    // Through the CSSOM: the pages' Content-Security-Policy refuses style attributes.
    else if (name === "style") node.style.cssText = String(value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
