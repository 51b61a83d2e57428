// The live chart's formulas (assets/explainer/live_chart.js) against the same references as tests/test_theory.py:
// article 004's worked table and the issue's known points, so browser and server draw the same numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { computeOverhead, expectedTokens, speedup } from "../../assets/explainer/formulas.js";
import { MODELS, nearestCell, placeLabels, positionTicks, quartiles } from "../../assets/explainer/live_chart.js";

const round2 = (x) => Math.round(x * 100) / 100;

// Quoted cells only (the section text holds commas inside quotes; the numbers follow it).
const rows = readFileSync(new URL("../../assets/quoted_speculative_math.csv", import.meta.url), "utf8")
  .trim().split("\n").slice(1).map((line) => {
    const after = line.slice(line.lastIndexOf('"') + 2).split(",");
    const [, alpha, c, gamma, tau, gain, compute] = after.map(Number);
    return { alpha, c, gamma, tau, gain, compute };
  });

test("every row of article 004's worked table", () => {
  assert.equal(rows.length, 6);
  for (const r of rows) {
    assert.equal(round2(expectedTokens(r.alpha, r.gamma)), r.tau, JSON.stringify(r));
    assert.equal(round2(speedup(r.alpha, r.gamma, r.c)), r.gain, JSON.stringify(r));
    assert.equal(round2(computeOverhead(r.alpha, r.gamma, r.c)), r.compute, JSON.stringify(r));
  }
});

test("known points and edges", () => {
  assert.deepEqual([expectedTokens(0.8, 5), speedup(0.8, 5, 0.05), computeOverhead(0.8, 5, 0.05)].map(round2), [3.69, 2.95, 1.69]);
  assert.equal(expectedTokens(1, 7), 8); // every draft accepted: γ + 1
  assert.equal(expectedTokens(0, 7), 1); // nothing accepted: the verifier's own token
});

test("models redraw what a slider changes", () => {
  const etau = MODELS.etau({ grid: [0, 0.5, 1], curve: { name: "E[τ], γ={gamma}" } }, { alpha: 0.5, gamma: 3 });
  assert.equal(etau.series[0].name, "E[τ], γ=3");
  assert.deepEqual(etau.series[0].points, [[0, 1], [0.5, 1.875], [1, 4]]);
  assert.deepEqual(etau.current, { x: 0.5, ys: [1.875] });
  const gamma = MODELS.gamma({ grid: [1, 2], curves: [{}, {}], title: "α={alpha}, c={c}" }, { alpha: 0.6, gamma: 2, c: 0.05 });
  assert.equal(gamma.title, "α=0.60, c=0.05");
  assert.deepEqual(gamma.current.ys.map(round2), [1.78, 1.58]);
  const level = MODELS.level({ series: [], current_label: "selected: {level}" }, { level: 16 });
  assert.deepEqual(level.current, { x: 16, ys: [], label: "selected: 16" });
});

// Two cells of the bundled CPU recording (ngram k=4): copy-quote (α 0.984) and chat-advice (α 0.048).
const CELLS = [
  { id: "copy", alpha: 0.984, gamma: 4, length: 4.846, rates: [0.981, 0.981, 0.962, 0.923], label: "copy" },
  { id: "chat", alpha: 0.048, gamma: 4, length: 1.05, rates: [0.05, 0, 0, 0], label: "chat" },
];

test("moving α or γ picks the nearest measured cell", () => {
  assert.equal(nearestCell(CELLS, { alpha: 0.8, gamma: 5 }), 0);
  assert.equal(nearestCell(CELLS, { alpha: 0.3, gamma: 4 }), 1);
  assert.equal(nearestCell(CELLS, { alpha: 0.516, gamma: 4 }), 0); // equal distance: the first
  assert.equal(nearestCell([], { alpha: 0.5, gamma: 4 }), -1);
  // One γ step weighs 1/15 of the α range: 4 steps away loses to 0.1 of α.
  assert.equal(nearestCell([{ alpha: 0.5, gamma: 8 }, { alpha: 0.6, gamma: 4 }], { alpha: 0.5, gamma: 4 }), 1);
  const etau = MODELS.etau({ grid: [0, 1], curve: { name: "" }, cells: CELLS }, { alpha: 0.1, gamma: 4 });
  assert.deepEqual(etau.cells, { points: [[0.984, 4.846], [0.048, 1.05]], nearest: 1 });
});

test("the per-position chart draws the nearest cell, its formula and the slider's; the others as one band", () => {
  const spec = { cells: CELLS, curve: { name: "α^i, α={alpha}" }, implied_name: "at its α={alpha}", others_name: "other",
                 median_name: "median" };
  const m = MODELS.positions(spec, { alpha: 0.5, gamma: 2 });
  assert.equal(m.nearest, 1);
  const [cell, implied, formula] = m.series; // one other cell: too few for a band
  assert.deepEqual(cell.points, [[1, 0.05], [2, 0], [3, 0], [4, 0]]);
  assert.equal(implied.name, "at its α=0.05");
  assert.deepEqual(implied.points.map(([k, y]) => [k, round2(y * 1000)]), [[1, 48], [2, 2.3], [3, 0.11], [4, 0.01]]);
  assert.equal(formula.name, "α^i, α=0.50");
  assert.deepEqual(formula.points, [[1, 0.5], [2, 0.25]]);
  assert.deepEqual(m.current, { x: 1, ys: [0.5] });
  assert.deepEqual(m.xTicks, [1, 2, 3, 4]);
  // five others: a band of their middle half where at least three reach, around their median; a long one alone
  // past that is not drawn, and the axis stops where the drawing does
  const rows = [[1, 0.8], [0.9, 0.6], [0.5, 0.2], [0.7, 0.4, 0.3], new Array(48).fill(0.5)];
  const many = { ...spec, cells: [CELLS[1], ...rows.map((rates, i) => ({ id: `o${i}`, alpha: 0.9, gamma: 4, rates }))] };
  const [band, median] = MODELS.positions(many, { alpha: 0, gamma: 1 }).series;
  assert.deepEqual(quartiles(rows).map((q) => q.map(round2)), [[1, 0.5, 0.7, 0.9], [2, 0.4, 0.5, 0.6]]);
  assert.deepEqual(band.points.map(([k, y]) => [k, round2(y)]), [[1, 0.9], [2, 0.6]]);
  assert.deepEqual(band.low.map(round2), [0.5, 0.4]);
  assert.deepEqual(median.points.map(([k, y]) => [k, round2(y)]), [[1, 0.7], [2, 0.5]]);
  assert.deepEqual([positionTicks(48), positionTicks(16), positionTicks(5)],
                   [[1, 8, 16, 24, 32, 40, 48], [1, 4, 8, 12, 16], [1, 2, 3, 4, 5]]);
});

test("reference labels never overlap: close ones are stacked, kept inside the plot, in their order", () => {
  // 000 prose 2.2–2.5, 001 free prose 2.2, 001 copy 3.1, 000 code 5.3–5.6 on a 330 px chart: two land on one y.
  const ys = [200, 204, 170, 60];
  const at = placeLabels(ys, 13, 40, 280);
  const sorted = [...at].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i] - sorted[i - 1] >= 13, JSON.stringify(at));
  assert.deepEqual(at.slice(2), [170, 60]); // labels with room stay next to their band
  assert.ok(at[0] < at[1]); // the order on screen follows the values
  const crowded = placeLabels([275, 276, 277, 278], 13, 40, 280); // near the bottom: pushed up, not out
  assert.ok(Math.max(...crowded) <= 280 && Math.min(...crowded) >= 40);
  const c = [...crowded].sort((a, b) => a - b);
  for (let i = 1; i < c.length; i++) assert.ok(c[i] - c[i - 1] >= 13);
});
