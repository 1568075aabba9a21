// A rating-over-time plot as inline SVG: one line per game, axes with a few ticks.
const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

/** Round tick values around [low, high]: a step of 1, 2 or 5 times a power of ten giving at
 * most five intervals, and the axis from the multiple of the step below `low` to the one above
 * `high`, so every label is a whole rating on the same scale as the numbers shown elsewhere. */
export function ratingTicks(low, high) {
  const span = Math.max(high - low, 4);
  const power = Math.max(1, 10 ** Math.floor(Math.log10(span / 5)));
  const step = [1, 2, 5, 10].map((k) => k * power).find((s) => Math.ceil(span / s) <= 5) || 10 * power;
  let r0 = Math.floor(low / step) * step, r1 = Math.ceil(high / step) * step;
  if (r0 === low) r0 -= step;  // a point on the frame's edge is hard to see
  if (r1 === high) r1 += step;
  const ticks = [];
  for (let r = r0; r <= r1 + step / 2; r += step) ticks.push(Math.round(r));
  return ticks;
}

/** An SVG plot of `series` ({game: [{at, rating}, ...]}), labelled `label`, each game named by
 * `names` and drawn in `colours` (by game), or null if empty. */
export function ratingChart(series, label, names, colours = {}) {
  const points = Object.values(series).flat();
  if (!points.length) return null;
  const width = 640, height = 260, left = 48, right = 12, top = 12, bottom = 36;
  const times = points.map((p) => p.at);
  const ratings = points.map((p) => p.rating);
  const t0 = Math.min(...times), t1 = Math.max(...times) || t0 + 1;
  const ticks = ratingTicks(Math.min(...ratings), Math.max(...ratings));
  const r0 = ticks[0], r1 = ticks[ticks.length - 1];
  const x = (time) => left + ((time - t0) / Math.max(1, t1 - t0)) * (width - left - right);
  const y = (rating) => top + (1 - (rating - r0) / Math.max(1e-9, r1 - r0)) * (height - top - bottom);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label });
  root.append(svg("line", { class: "axis", x1: left, y1: top, x2: left, y2: height - bottom }));
  root.append(svg("line", { class: "axis", x1: left, y1: height - bottom, x2: width - right, y2: height - bottom }));
  for (const rating of ticks) root.append(svg("text", { class: "tick", x: 4, y: y(rating) + 4 }, String(rating)));
  for (const time of [t0, t1]) {
    root.append(svg("text", { x: Math.min(x(time), width - 80), y: height - 12 }, new Date(time).toLocaleDateString()));
  }
  let row = 0;
  for (const [game, list] of Object.entries(series)) {
    if (!list.length) continue;
    const path = list.map((p, i) => `${i ? "L" : "M"}${x(p.at).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
    const colour = colours[game] || "#333";
    root.append(svg("path", { class: "line", d: path, stroke: colour }));
    for (const p of list) root.append(svg("circle", { cx: x(p.at), cy: y(p.rating), r: 3, fill: colour }));
    // The last point says its number: the rating the card above shows.
    const last = list[list.length - 1];
    root.append(svg("text", { class: "last", "data-game": game, x: Math.min(x(last.at) + 6, width - 44),
      y: y(last.rating) - 6, fill: colour }, String(last.rating)));
    root.append(svg("text", { x: width - 120, y: top + 14 + 16 * row++, fill: colour }, names[game] || game));
  }
  return root;
}
