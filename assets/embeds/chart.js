// The runtime of an exported chart (specreplay export-chart; specreplay/embeds/ writes the file): inflate the
// embedded data (gzip + base64, by the browser's DecompressionStream), build the controls, and redraw on every
// move with the app's own chart code and formulas (assets/explainer/). Nothing is fetched: the file plays from
// file:// and inside any site's <iframe>.
//
// The data: {chart, height, controls: [Control], state: {name: value}, ...the chart's own fields (below)}.
// Control: {name, label, kind: "range", min, max, step} | {name, label, kind: "steps", options: [value]}
//        | {name, label, kind: "select", options: [[value, label]]}
//        | {name, label, kind: "select", depends: [name], options_by: {"<values of depends joined by />": options}}

import { draw, nearestCell } from "../explainer/live_chart.js";
import { computeOverhead, expectedTokens, speedup } from "../explainer/formulas.js";
import { times } from "../explainer/multiplier.js";
import { drawBars } from "./bars.js";
import { drawHeatmap } from "./heatmap.js";

async function inflate(b64) {
  const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

const choices = (c, state) => c.options_by ? (c.options_by[c.depends.map((k) => state[k]).join("/")] || []) : c.options;

// One control's element; its value goes into state on every move, then everything is drawn again.
function control(c, state, redraw) {
  const wrap = document.createElement("label");
  wrap.className = `ex-control ex-${c.kind}`;
  const name = document.createElement("span");
  const shown = document.createElement("output");
  name.textContent = c.label;
  let input;
  if (c.kind === "select") {
    input = document.createElement("select");
  } else {
    input = document.createElement("input");
    input.type = "range";
    const steps = c.kind === "steps";
    Object.assign(input, steps ? { min: 0, max: c.options.length - 1, step: 1 } : { min: c.min, max: c.max, step: c.step });
  }
  input.dataset.control = c.name;
  const read = () => (c.kind === "select" ? state[c.name] = input.value
    : state[c.name] = c.kind === "steps" ? c.options[Number(input.value)] : Number(input.value));
  input.addEventListener("input", () => { read(); redraw(); });
  input.addEventListener("change", () => { read(); redraw(); });
  wrap.append(name, input, shown);
  // Set the element from state (a dependent select gets its options again, and the first when its value is gone).
  wrap.sync = () => {
    if (c.kind === "select") {
      const opts = choices(c, state);
      if (!opts.some(([v]) => v === state[c.name])) state[c.name] = opts[0]?.[0];
      const key = JSON.stringify(opts);
      if (input.dataset.options !== key) {
        input.dataset.options = key;
        input.replaceChildren(...opts.map(([v, label]) => new Option(label, v)));
      }
      input.value = state[c.name];
      shown.textContent = "";
    } else {
      input.value = c.kind === "steps" ? c.options.indexOf(state[c.name]) : state[c.name];
      shown.textContent = c.kind === "range" && c.step < 1 ? state[c.name].toFixed(2) : String(state[c.name]);
    }
  };
  return wrap;
}

// A live-chart box (the app's .lc-root layout), drawn by assets/explainer/live_chart.js.
function liveBox(parent, id) {
  const box = document.createElement("div");
  box.className = "lc-root";
  box.id = id;
  box.innerHTML = '<div class="lc-plot"></div><div class="lc-legend"></div>';
  parent.append(box);
  return box;
}

// Rows of readouts: [name, label, text]; each text in an element the tests read by its data-readout name.
function readouts(parent, rows) {
  const dl = document.createElement("dl");
  dl.className = "ex-readouts";
  for (const [name, label, text] of rows) {
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = label;
    dd.textContent = text;
    dd.dataset.readout = name;
    dl.append(dt, dd);
  }
  parent.append(dl);
}

function table(parent, name, head, rows) {
  const t = document.createElement("table");
  t.className = "ex-table";
  t.dataset.table = name;
  const tr = (cells, tag) => {
    const row = document.createElement("tr");
    row.append(...cells.map((text) => Object.assign(document.createElement(tag), { textContent: text })));
    return row;
  };
  t.append(tr(head, "th"), ...rows.map((r) => tr(r, "td")));
  parent.append(t);
}

const fillIn = (template, v) => template.replace(/\{(\w+)\}/g, (m, k) => (k in v ? v[k] : m));

// What each chart shows at state v, drawn into view (emptied first).
const CHARTS = {
  acceptance(d, v, view) {
    const e = expectedTokens(v.alpha, v.gamma);
    const rows = [["expected_tokens", d.words.expected_tokens, e.toFixed(2)],
                  ["speedup", d.words.speedup, `${speedup(v.alpha, v.gamma, v.c).toFixed(2)}×`],
                  ["compute", d.words.compute, `${computeOverhead(v.alpha, v.gamma, v.c).toFixed(2)}×`]];
    const near = d.etau.cells[nearestCell(d.etau.cells, v)];
    if (near) rows.push(["nearest", d.words.nearest, fillIn(d.words.nearest_text, near)]);
    readouts(view, rows);
    draw(liveBox(view, "etau"), { ...d.etau, height: d.height || d.etau.height }, v);
    draw(liveBox(view, "gamma"), { ...d.gamma, height: d.height || d.gamma.height }, v);
  },
  concurrency(d, v, view) {
    const s = d.views[`${v.family}/${v.source}/${v.metric}`];
    readouts(view, [["question", d.words.question, s.question]]);
    draw(liveBox(view, "level"), { ...s.chart, height: d.height || s.chart.height }, { level: v.level });
    table(view, "readout", [d.words.series, d.words.kind, fillIn(d.words.at, v), d.words.below],
          s.rows.map((r) => [r.name, r.kind, r.at[v.level], r.below]));
    for (const c of s.caveats) readouts(view, [["caveat", "ⓘ", c]]);
  },
  ladder(d, v, view) {
    const art = d.article[v.prompt];
    const ours = d.ours[`${v.our_machine}/${v.our_drafter}`];
    const mine = ours?.prompts[v.our_prompt];
    const side = document.createElement("div");
    side.className = "ex-side";
    view.append(side);
    // Both columns first, then the bars: each draws to its column's width.
    const columns = [["article", art.title, art.rungs], ["ours", mine?.title ?? ours?.empty, mine?.rungs ?? []]]
      .map(([id, title, rungs]) => {
        const col = document.createElement("section");
        col.id = id;
        side.append(col);
        return [col, title, rungs];
      });
    for (const [col, title, rungs] of columns) {
      const plot = document.createElement("div");
      col.append(plot);
      drawBars(plot, title, rungs.map((r) => ({ label: r.label, value: r.value, prev: r.prev, color: r.color })),
               d.height || 320);
      table(col, col.id, d.words.columns, rungs.map((r) => [r.label, r.value === null ? "—" : String(r.value),
                                                            times(r.prev), times(r.first)]));
    }
    for (const c of mine?.caveats ?? []) readouts(columns[1][0], [["caveat", "ⓘ", c]]);
  },
  breakeven(d, v, view) {
    const g = d.grids[v.be_target];
    readouts(view, [["row", fillIn(d.words.at, v), g.rows[v.be_metric][v.be_level] ?? "—"]]);
    const plot = document.createElement("div");
    view.append(plot);
    drawHeatmap(plot, fillIn(d.words.title, v), d.words, { ...g, z: g[v.be_metric] }, v.be_level, d.height || 420);
    for (const c of g.caveats) readouts(view, [["caveat", "ⓘ", c]]);
  },
};

export async function start(root) {
  const d = await inflate(root.querySelector("#chart-data").textContent.trim());
  const state = { ...d.state };
  const controls = root.querySelector("#controls");
  const view = root.querySelector("#view");
  const parts = [];
  const redraw = () => {
    for (const p of parts) p.sync();
    view.replaceChildren();
    CHARTS[d.chart](d, state, view);
    // Read by tests/browser/test_chart_export_browser.py: the state the chart shows now.
    root.dataset.state = JSON.stringify(state);
  };
  for (const c of d.controls) parts.push(control(c, state, redraw));
  controls.replaceChildren(...parts);
  redraw();
  let width = view.clientWidth; // a narrower frame (a phone, a blog column) redraws the charts to its width
  new ResizeObserver(() => {
    if (view.clientWidth === width) return;
    width = view.clientWidth;
    redraw();
  }).observe(view);
  root.dataset.ready = "1";
}

start(document.querySelector("#chart"));
