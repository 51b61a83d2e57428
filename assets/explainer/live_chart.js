// A small SVG chart that follows the page's Streamlit sliders in the browser, so a slider move redraws it at
// once instead of after a server round trip (specreplay/live_chart.py mounts it; docs/explainer.md says why).
// The server sends the chart's fixed parts and the slider values it knows; the "model" recomputes what a slider
// changes with the formulas of formulas.js, the twin of specreplay/theory.py (assets/formula_cases.json pins both).

import { computeOverhead, expectedTokens, speedup } from "./formulas.js";
import { times } from "./multiplier.js";

const fill = (template, v) => template.replace(/\{(\w+)\}/g, (m, k) => (k in v ? v[k] : m));
const shown = (v) => ({ alpha: v.alpha?.toFixed(2), c: v.c?.toFixed(2), gamma: v.gamma, level: v.level });

// The measured cell closest to the sliders, each axis scaled by its slider's range (α 0–1, γ 1–16); first on a
// tie. specreplay/explain/acceptance_measured.py (nearest) picks the same one on the server.
export function nearestCell(cells, v) {
  let best = -1;
  let bestD = Infinity;
  cells.forEach((c, i) => {
    const d = (c.alpha - v.alpha) ** 2 + ((c.gamma - v.gamma) / 15) ** 2;
    if (d < bestD) [best, bestD] = [i, d];
  });
  return best;
}

const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

// What each chart draws at slider values v: series, the current point(s), the measured cells and the texts.
export const MODELS = {
  etau: (spec, v) => ({
    // Fixed layers first (drawn under): e.g. the curve at the articles' draft length, which no slider moves.
    series: [...(spec.fixed || []), { ...spec.curve, name: fill(spec.curve.name, shown(v)),
               points: spec.grid.map((a) => [a, expectedTokens(a, v.gamma)]) }],
    current: { x: v.alpha, ys: [expectedTokens(v.alpha, v.gamma)] },
    cells: spec.cells && { points: spec.cells.map((c) => [c.alpha, c.length]), nearest: nearestCell(spec.cells, v) },
  }),
  gamma: (spec, v) => ({
    series: [{ ...spec.curves[0], points: spec.grid.map((g) => [g, speedup(v.alpha, g, v.c)]) },
             { ...spec.curves[1], points: spec.grid.map((g) => [g, computeOverhead(v.alpha, g, v.c)]) }],
    current: { x: v.gamma, ys: [speedup(v.alpha, v.gamma, v.c), computeOverhead(v.alpha, v.gamma, v.c)] },
    title: fill(spec.title, shown(v)),
  }),
  level: (spec, v) => ({ series: spec.series, current: { x: v.level, ys: [], label: fill(spec.current_label, shown(v)) } }),
  // Share of drafts accepted up to position i: the measured cell nearest the sliders drawn strong, with the formula
  // α^i at its implied α dashed; every other cell as one grey band (their middle half at each position, where at
  // least SPREAD_MIN of them reach it) around their median, not ~90 crossing lines; the formula at the slider's α
  // over positions 1..γ.
  positions: (spec, v) => {
    const near = nearestCell(spec.cells, v);
    const spread = quartiles(spec.cells.filter((_, i) => i !== near).map((c) => c.rates));
    const others = spread.length ? [
      { name: spec.others_name, color: spec.others_color, area: true, line: false,
        points: spread.map(([k, , , hi]) => [k, hi]), low: spread.map(([, lo]) => lo) },
      { name: spec.median_name, color: spec.others_color, width: 1.5, points: spread.map(([k, , mid]) => [k, mid]) }] : [];
    const c = spec.cells[near];
    const mine = c ? [
      { name: c.label, color: spec.cell_color, width: 3, markers: true, points: c.rates.map((r, k) => [k + 1, r]),
        hover: c.hover },
      { name: fill(spec.implied_name, { alpha: c.alpha.toFixed(2) }), color: spec.cell_color, dash: "dash",
        points: range(1, c.gamma).map((k) => [k, c.alpha ** k]) }] : [];
    const series = [...others, ...mine, { ...spec.curve, name: fill(spec.curve.name, shown(v)),
                                          points: range(1, v.gamma).map((k) => [k, v.alpha ** k]) }];
    const last = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p[0])));
    return { series, current: { x: 1, ys: [v.alpha] }, nearest: near, xTicks: positionTicks(last) };
  },
};

const SPREAD_MIN = 3; // cells a position needs before the band shows their spread there

/** Each position i that at least SPREAD_MIN rows reach: [i, 25th percentile, median, 75th percentile]. */
export function quartiles(rows) {
  const out = [];
  for (let k = 0; ; k++) {
    const at = rows.filter((r) => r.length > k).map((r) => r[k]).sort((a, b) => a - b);
    if (at.length < SPREAD_MIN) return out;
    const q = (f) => { const x = f * (at.length - 1), i = Math.floor(x); return at[i] + (at[Math.min(i + 1, at.length - 1)] - at[i]) * (x - i); };
    out.push([k + 1, q(0.25), q(0.5), q(0.75)]);
  }
}

/** Position 1, then a round step to the last position drawn (a llama.cpp n-gram arm counts 48). */
export function positionTicks(last) {
  const step = last <= 8 ? 1 : last <= 16 ? 4 : last <= 48 ? 8 : 16;
  return [1, ...range(Math.max(step, 2), last).filter((t) => t % step === 0)];
}

// ------------------------------------------------------------------ reading the page's sliders

// A Streamlit slider keyed KEY sits in a container with the class st-key-KEY (one stable hook in every language);
// inside it is an <input type=range>, whose value for a select_slider is the option index.
function sliderValue(key, options) {
  const input = document.querySelector(`.st-key-${key} input[type=range]`);
  if (!input) return undefined;
  return options ? options[Number(input.value)] : Number(input.value);
}

export function currentValues(live) {
  const v = { ...live.values };
  for (const [name, s] of Object.entries(live.sliders)) {
    const read = sliderValue(s.key, s.options);
    if (read !== undefined && !Number.isNaN(read)) v[name] = read;
  }
  return v;
}

// ------------------------------------------------------------------ drawing

const NS = "http://www.w3.org/2000/svg";
const M = { l: 48, r: 14, t: 30, b: 42 };

export function el(tag, attrs, parent, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, val);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

// An empty chart of this size, titled (its title read out as the image's label too).
export function titledSvg(width, height, title) {
  const svg = document.createElementNS(NS, "svg");
  for (const [k, val] of Object.entries({ width, height, role: "img", "aria-label": title })) svg.setAttribute(k, val);
  el("text", { x: 4, y: 16, class: "lc-title" }, svg, title);
  return svg;
}

const TITLE_LINE = 19; // px between a wrapped title's lines (15 px type)

// The title text node in as many lines as it needs of `room` px, broken between words and measured in the page (a
// chart in a narrow column cut its one-line title); returns the px its further lines take.
export function wrapTitle(node, room) {
  const words = node.textContent.split(" ");
  if (words.length < 2 || node.getComputedTextLength() <= room) return 0;
  const x = node.getAttribute("x");
  node.textContent = "";
  let line = el("tspan", { x, dy: 0 }, node, words[0]);
  let lines = 1;
  for (const w of words.slice(1)) {
    line.textContent += " " + w;
    if (line.getComputedTextLength() > room) {
      line.textContent = line.textContent.slice(0, -(w.length + 1));
      line = el("tspan", { x, dy: TITLE_LINE }, node, w);
      lines += 1;
    }
  }
  return (lines - 1) * TITLE_LINE;
}

export function niceTicks(lo, hi, n = 5) {
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(+t.toFixed(10));
  return out;
}

const DASH = { solid: "", dot: "2 4", dash: "7 4", dashdot: "7 3 2 3" };
const NARROW = 560; // px: a chart narrower than this labels its bands by value (a phone; 560 px pages are wider)

export const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// Label positions (pixel y, in the order given) at least `gap` apart, as near their wanted y as that allows and
// inside [top, bottom]: close references (2.2 and 2.2–2.5) get stacked labels instead of overprinted ones.
export function placeLabels(ys, gap, top, bottom) {
  const order = ys.map((y, i) => [y, i]).sort((a, b) => a[0] - b[0]);
  const out = new Array(ys.length);
  let prev = -Infinity;
  for (const [y, i] of order) {
    out[i] = Math.max(y, prev + gap, top);
    prev = out[i];
  }
  let next = Infinity; // the stack ran past the bottom: push it back up, keeping the gaps
  for (const [, i] of order.reverse()) {
    out[i] = Math.min(out[i], next - gap, bottom);
    next = out[i];
  }
  return out;
}

export function draw(root, spec, v) {
  const model = MODELS[spec.live.model](spec, v);
  const series = model.series;
  const width = Math.max(root.clientWidth || 600, 320);
  const svg = titledSvg(width, spec.height, model.title || spec.title);
  root.querySelector(".lc-plot").replaceChildren(svg); // in the page while drawn: labels are measured (getBBox)
  const extra = wrapTitle(svg.querySelector(".lc-title"), width - 8);
  const height = spec.height + extra, top = M.t + extra; // a wrapped title moves the plot down, its height kept
  svg.setAttribute("height", height);
  const xs = series.flatMap((s) => s.points.map((p) => p[0])).concat([model.current.x]);
  const bands = spec.bands || [];
  // measured cells reach the axis up to y.cells_cap (Python's chart_parts.on_scale); one above it is drawn off scale
  const cap = spec.y.cells_cap ?? Infinity;
  const ys = series.flatMap((s) => s.points.map((p) => p[1])).filter((y) => y !== null)
    .concat(model.current.ys, spec.hlines.map((h) => h.y), bands.map((b) => b.y1),
            model.cells ? model.cells.points.map((p) => Math.min(p[1], cap)) : []);
  const [x0, x1] = spec.x.range || [Math.min(...xs), Math.max(...xs)];
  const y0 = spec.y.range ? spec.y.range[0] : 0;
  const y1 = spec.y.range ? spec.y.range[1] : Math.max(...ys) * 1.08;
  const fx = spec.x.log ? Math.log10 : (x) => x;
  const px = (x) => M.l + ((fx(x) - fx(x0)) / (fx(x1) - fx(x0))) * (width - M.l - M.r);
  const py = (y) => height - M.b - ((y - y0) / (y1 - y0)) * (height - top - M.b);

  for (const t of niceTicks(y0, y1)) {
    el("line", { x1: M.l, x2: width - M.r, y1: py(t), y2: py(t), class: "lc-grid" }, svg);
    el("text", { x: M.l - 6, y: py(t) + 4, class: "lc-tick", "text-anchor": "end" }, svg, String(t));
  }
  for (const t of model.xTicks || spec.x.ticks || niceTicks(x0, x1)) {
    if (t < x0 || t > x1) continue;
    el("text", { x: px(t), y: height - M.b + 16, class: "lc-tick", "text-anchor": "middle" }, svg, String(t));
  }
  el("text", { x: (M.l + width - M.r) / 2, y: height - 6, class: "lc-axis", "text-anchor": "middle" }, svg, spec.x.title);
  el("text", { x: 12, y: (top + height - M.b) / 2, class: "lc-axis", "text-anchor": "middle",
               transform: `rotate(-90 12 ${(top + height - M.b) / 2})` }, svg, spec.y.title);
  for (const h of spec.hlines) {
    el("line", { x1: M.l, x2: width - M.r, y1: py(h.y), y2: py(h.y), stroke: h.color, "stroke-dasharray": DASH[h.dash || "solid"],
                 class: "lc-hline" }, svg);
  }
  // A measured range is a band from low to high; a single value a thin band (at least 2 px).
  for (const b of bands) {
    const top = py(b.y1);
    el("rect", { x: M.l, width: width - M.l - M.r, y: top - 1, height: Math.max(py(b.y0) - top, 0) + 2, fill: b.color,
                 class: "lc-band" }, svg);
  }
  // Reference labels stacked so that none overlaps another (each next to its line or band): at the right edge, or
  // where there are bands (E[τ]'s articles) at the left, where the curve and the cells stay low (at the right they
  // ran over the cells). On a narrow chart a band says only its value, its full label in the legend.
  const left = bands.length > 0;
  const compact = left && width < NARROW && bands.every((b) => b.value);
  const labelled = spec.hlines.filter((h) => h.label).map((h) => [h.label, py(h.y)])
    .concat(bands.filter((b) => b.label).map((b) => [compact ? b.value : b.label, (py(b.y0) + py(b.y1)) / 2]));
  const at = placeLabels(labelled.map(([, y]) => y - 4), 16, top + 12, height - M.b - 4); // 16 px: an 11 px label's box
  labelled.forEach(([label], i) => {
    el("text", { x: left ? M.l + 4 : width - M.r - 4, y: at[i], class: "lc-note lc-ref-label",
                 "text-anchor": left ? "start" : "end" }, svg, label);
  });
  for (const s of series.filter((s) => s.area)) { // a spread: filled between its points and its low values
    const edge = s.points.map(([x, y]) => `${px(x)},${py(y)}`).concat(s.low.map((y, i) => `${px(s.points[i][0])},${py(y)}`).reverse());
    el("path", { d: `M${edge.join("L")}Z`, fill: s.color, "fill-opacity": 0.3, class: "lc-area" }, svg);
  }
  for (const s of series) {
    // Break the line at unmeasured cells (null): nothing is drawn across a gap. line: false draws dots only.
    if (s.line !== false) {
      const d = s.points.map((p, i) => (p[1] === null ? "" : `${i && s.points[i - 1][1] !== null ? "L" : "M"}${px(p[0])},${py(p[1])}`)).join("");
      const path = el("path", { d, fill: "none", stroke: s.color, "stroke-width": s.width || 2, "stroke-dasharray": DASH[s.dash || "solid"] }, svg);
      if (s.hover && !s.markers) el("title", {}, path, `${s.name}`);
    }
    if (s.markers) {
      for (const [x, y] of s.points) {
        if (y === null) continue;
        const dot = el("circle", { cx: px(x), cy: py(y), r: 4, fill: s.hollow ? "white" : s.color, stroke: s.color,
                                   "stroke-width": s.hollow ? 2 : 0 }, svg);
        // Multipliers read with two decimals at most, as everywhere on the pages.
        el("title", {}, dot, `${s.name}\n${x} → ${s.unit === "×" ? times(y) : `${+y.toFixed(3)}${s.unit || ""}`}${s.hover ? "\n" + s.hover : ""}`);
      }
    }
  }
  if (model.cells) {
    model.cells.points.forEach(([x, y], i) => {
      const cell = spec.cells[i];
      const color = cell.color || spec.cell_color; // a cell's own kind of number, where it says
      const dot = y > y1 // off scale: a triangle at the top edge pointing up, its value in the hover
        ? el("path", { d: `M${px(x)},${py(y1) - 6}l6,10h-12z`, fill: color, class: "lc-cell lc-off-scale" }, svg)
        : el("circle", { cx: px(x), cy: py(y), r: 5, fill: color, class: "lc-cell" }, svg);
      el("title", {}, dot, `${cell.label}\nα ${x.toFixed(3)} → ${y.toFixed(2)}${cell.hover ? "\n" + cell.hover : ""}`);
    });
    const found = model.cells.points[model.cells.nearest];
    const near = found && [found[0], Math.min(found[1], y1)];
    if (near) {
      el("circle", { cx: px(near[0]), cy: py(near[1]), r: 10, stroke: spec.cell_color, class: "lc-nearest" }, svg);
      const right = px(near[0]) < width / 2;
      const label = el("text", { x: px(near[0]) + (right ? 14 : -14), y: py(near[1]) - 10, class: "lc-note lc-nearest-label",
                                 "text-anchor": right ? "start" : "end" }, svg, spec.cells[model.cells.nearest].label);
      // above the ring, else below it; where both would cover a reference label or run out of the plot (over the
      // axis' title on a phone), the readout under the chart names it
      const refs = [...svg.querySelectorAll(".lc-ref-label")].map((t) => t.getBBox());
      const covers = () => {
        const b = label.getBBox();
        return b.x < M.l || b.x + b.width > width - M.r || refs.some((r) => overlaps(r, b));
      };
      if (covers()) label.setAttribute("y", py(near[1]) + 22);
      if (covers()) label.remove();
    }
  }
  const cur = model.current;
  if (cur.ys.length === 0) {
    el("line", { x1: px(cur.x), x2: px(cur.x), y1: py(y0), y2: py(y1), class: "lc-current-line", "stroke-dasharray": DASH.dashdot }, svg);
  }
  for (const y of cur.ys) {
    const dot = el("circle", { cx: px(cur.x), cy: py(y), r: 7, class: "lc-current" }, svg);
    el("title", {}, dot, `${cur.x} → ${y.toFixed(2)}`);
  }
  const legend = series.filter((s) => s.legend !== false).map((s) => [s.name, s.color, s.dash])
    .concat(compact ? bands.map((b) => [`${b.value}: ${b.label}`, b.color]) : [])
    .concat([[cur.label || spec.current_name, "crimson", cur.ys.length ? "solid" : "dashdot"]]);
  root.querySelector(".lc-legend").replaceChildren(...legend.map(([name, color, dash]) => {
    const item = document.createElement("span");
    item.className = "lc-key";
    item.innerHTML = `<svg width="22" height="10"><line x1="1" x2="21" y1="5" y2="5" stroke="${color}" stroke-width="3" stroke-dasharray="${DASH[dash || "solid"]}"/></svg>`;
    item.append(name);
    return item;
  }));
  // Read by the browser test and bench/explainer_bench.py: what the chart shows now.
  root.dataset.currentX = String(cur.x);
  // Data series in the legend (not gap pieces, keys or the current marker): at most six per chart (docs/explainer.md).
  root.dataset.dataSeries = String(series.filter((s) => s.legend !== false && s.points.length).length);
  root.dataset.currentYs = JSON.stringify(cur.ys.map((y) => +y.toFixed(4)));
  const nearest = model.cells ? model.cells.nearest : model.nearest;
  if (nearest !== undefined) root.dataset.nearest = spec.cells[nearest]?.id ?? "";
}

// ------------------------------------------------------------------ the Streamlit component

export default function mount({ parentElement, data }) {
  let root = parentElement.querySelector(".lc-root");
  if (!root) {
    root = document.createElement("div");
    root.className = "lc-root";
    root.innerHTML = '<div class="lc-plot"></div><div class="lc-legend"></div>';
    parentElement.appendChild(root);
  }
  root.dataset.liveChart = data.key;
  root.stopWatching?.(); // mounted again with new data: one set of observers per chart
  // Draw only when what is shown would change: each rerun mounts the chart again with the same picture,
  // and any slider on the page (not only this chart's) changes an aria-valuetext.
  const spec = JSON.stringify({ ...data, live: { ...data.live, values: null } });
  const redraw = () => {
    const v = currentValues(data.live);
    const shown = `${spec}|${JSON.stringify(v)}|${parentElement.clientWidth}`;
    if (shown !== root.shown) {
      root.shown = shown;
      draw(root, data, v);
    }
  };
  redraw();
  // A slider move changes its aria-valuetext first; redraw then, not when the server's rerun arrives.
  const watch = new MutationObserver(redraw);
  watch.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["aria-valuetext"] });
  const resize = new ResizeObserver(redraw);
  resize.observe(parentElement);
  root.stopWatching = () => { watch.disconnect(); resize.disconnect(); };
  return root.stopWatching;
}
