// Bars of measured rates for an exported ladder (specreplay export-chart ladder): one bar per rung, its tok/s
// on top and its multiplier over the rung before under that; an unmeasured rung is an empty slot marked "—".
// SVG helpers from the app's live chart (assets/explainer/live_chart.js), so both look alike.

import { el, niceTicks, titledSvg } from "../explainer/live_chart.js";
import { times } from "../explainer/multiplier.js";

const BAR_PAD = { l: 44, r: 8, t: 28, b: 64 };
const LINE = 14;  // px between the lines of a wrapped label or title

// A text wider than `room` px (at `charPx` a character) as two lines, split at the space nearest its middle; one
// with no space stays whole. So a phone's narrow slots never run labels into each other.
function twoLines(text, room, charPx) {
  if (text.length * charPx <= room || !text.includes(" ")) return [text];
  const spaces = [...text.matchAll(/ /g)].map((m) => m.index);
  const cut = spaces.reduce((a, b) => (Math.abs(b - text.length / 2) < Math.abs(a - text.length / 2) ? b : a));
  return [text.slice(0, cut), text.slice(cut + 1)];
}

function setLines(node, lines, x) {
  node.textContent = "";
  lines.forEach((line, i) => el("tspan", { x, dy: i ? LINE : 0 }, node, line));
}

// bars: [{label, value (tok/s or null), prev (× the rung before, or null), color}]
export function drawBars(box, title, bars, height) {
  const width = Math.max(box.clientWidth || 360, 240);
  const top = Math.max(1, ...bars.map((b) => b.value ?? 0)) * 1.25;
  const slot = (width - BAR_PAD.l - BAR_PAD.r) / Math.max(bars.length, 1);
  const heading = twoLines(title, width - 8, 8.5);
  const padTop = BAR_PAD.t + LINE * (heading.length - 1);
  const py = (y) => height - BAR_PAD.b - (y / top) * (height - padTop - BAR_PAD.b);
  const svg = titledSvg(width, height, title);
  setLines(svg.querySelector(".lc-title"), heading, 4);
  for (const t of niceTicks(0, top)) {
    el("line", { x1: BAR_PAD.l, x2: width - BAR_PAD.r, y1: py(t), y2: py(t), class: "lc-grid" }, svg);
    el("text", { x: BAR_PAD.l - 6, y: py(t) + 4, class: "lc-tick", "text-anchor": "end" }, svg, String(t));
  }
  el("text", { x: 12, y: height / 2, class: "lc-axis", "text-anchor": "middle", transform: `rotate(-90 12 ${height / 2})` },
     svg, "tok/s");
  bars.forEach((b, i) => {
    const mid = BAR_PAD.l + slot * (i + 0.5);
    if (b.value !== null) {
      const bar = el("rect", { x: mid - slot * 0.3, width: slot * 0.6, y: py(b.value), height: py(0) - py(b.value),
                               fill: b.color, class: "ex-bar" }, svg);
      el("title", {}, bar, `${b.label}: ${b.value} tok/s`);
    }
    el("text", { x: mid, y: (b.value === null ? py(0) : py(b.value)) - 6, class: "lc-tick ex-bar-value",
                 "text-anchor": "middle" }, svg, b.value === null ? "—" : String(b.value));
    const label = twoLines(b.label, slot - 4, 6.5);
    setLines(el("text", { x: mid, y: height - BAR_PAD.b + 16, class: "lc-axis", "text-anchor": "middle" }, svg), label, mid);
    if (b.prev !== null) {
      el("text", { x: mid, y: height - BAR_PAD.b + 18 + LINE * label.length, class: "lc-note ex-bar-step",
                   "text-anchor": "middle" }, svg, times(b.prev));
    }
  });
  box.replaceChildren(svg);
}
