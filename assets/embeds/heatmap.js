// The break-even map of an exported chart (specreplay export-chart breakeven): one cell per set acceptance length
// × concurrency level, coloured red below 1.0 and blue above (as the app's RdBu map, centred on 1.0), each with
// its multiplier; a thick line runs along every edge between a losing and a paying cell (the 1.0 contour), and
// the chosen level's column is outlined. Unmeasured cells stay empty.

import { el, titledSvg } from "../explainer/live_chart.js";
import { times } from "../explainer/multiplier.js";

const MAP_PAD = { l: 56, r: 8, t: 28, b: 44 };

// Red for v < 1, blue for v > 1, white at 1; full colour at 0.5× and 2× (log scale around 1.0).
export function cellColour(v) {
  const s = Math.max(-1, Math.min(1, Math.log2(v)));
  const [r, g, b] = s < 0 ? [178, 24, 43] : [33, 102, 172];
  const k = Math.abs(s);
  const mix = (c) => Math.round(255 + (c - 255) * k);
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

// grid: {lengths, levels, z: [length][level] (null: not measured)}; level: the outlined column's level.
export function drawHeatmap(box, title, labels, grid, level, height) {
  const width = Math.max(box.clientWidth || 480, 280);
  const cw = (width - MAP_PAD.l - MAP_PAD.r) / grid.levels.length;
  const ch = (height - MAP_PAD.t - MAP_PAD.b) / grid.lengths.length;
  const x = (j) => MAP_PAD.l + j * cw;
  const y = (i) => height - MAP_PAD.b - (i + 1) * ch; // the shortest acceptance length at the bottom
  const svg = titledSvg(width, height, title);
  const below = (i, j) => grid.z[i]?.[j] != null && grid.z[i][j] < 1;
  const above = (i, j) => grid.z[i]?.[j] != null && grid.z[i][j] >= 1;
  grid.lengths.forEach((L, i) => {
    el("text", { x: MAP_PAD.l - 6, y: y(i) + ch / 2 + 4, class: "lc-tick", "text-anchor": "end" }, svg, String(L));
    grid.levels.forEach((lv, j) => {
      const v = grid.z[i][j];
      if (v === null) return;
      const cell = el("rect", { x: x(j), y: y(i), width: cw, height: ch, fill: cellColour(v), class: "ex-cell",
                                "data-length": L, "data-level": lv }, svg);
      el("title", {}, cell, `L ${L} · ${lv} · ${times(v)}`);
      el("text", { x: x(j) + cw / 2, y: y(i) + ch / 2 + 4, class: "ex-cell-text", "text-anchor": "middle" }, svg, times(v));
    });
  });
  // The 1.0 contour: every edge between a losing cell and a paying neighbour (right or above).
  grid.lengths.forEach((_, i) => grid.levels.forEach((_, j) => {
    if ((below(i, j) && above(i, j + 1)) || (above(i, j) && below(i, j + 1))) {
      el("line", { x1: x(j + 1), x2: x(j + 1), y1: y(i), y2: y(i) + ch, class: "ex-contour" }, svg);
    }
    if ((below(i, j) && above(i + 1, j)) || (above(i, j) && below(i + 1, j))) {
      el("line", { x1: x(j), x2: x(j) + cw, y1: y(i), y2: y(i), class: "ex-contour" }, svg);
    }
  }));
  grid.levels.forEach((lv, j) => {
    el("text", { x: x(j) + cw / 2, y: height - MAP_PAD.b + 16, class: "lc-tick", "text-anchor": "middle" }, svg, String(lv));
  });
  const col = grid.levels.indexOf(level);
  if (col >= 0) el("rect", { x: x(col), y: MAP_PAD.t, width: cw, height: height - MAP_PAD.t - MAP_PAD.b, class: "ex-column" }, svg);
  el("text", { x: (MAP_PAD.l + width - MAP_PAD.r) / 2, y: height - 6, class: "lc-axis", "text-anchor": "middle" }, svg, labels.x);
  el("text", { x: 12, y: (MAP_PAD.t + height - MAP_PAD.b) / 2, class: "lc-axis", "text-anchor": "middle",
               transform: `rotate(-90 12 ${(MAP_PAD.t + height - MAP_PAD.b) / 2})` }, svg, labels.y);
  box.replaceChildren(svg);
}
