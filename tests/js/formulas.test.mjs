// The browser's formulas against the cases specreplay/theory.py is tested on (one case file, two sides).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { computeOverhead, expectedTokens, speedup } from "../../assets/explainer/formulas.js";

const { cases } = JSON.parse(readFileSync(new URL("../../assets/formula_cases.json", import.meta.url), "utf8"));
const close = (got, want, what) => assert.ok(Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)),
                                             `${what}: ${got} ≠ ${want}`);

test("every shared case gives the Python values", () => {
  assert.ok(cases.length >= 20);
  for (const k of cases) {
    const at = JSON.stringify([k.alpha, k.gamma, k.c]);
    close(expectedTokens(k.alpha, k.gamma), k.expected_tokens, `E[τ] ${at}`);
    close(speedup(k.alpha, k.gamma, k.c), k.speedup, `speedup ${at}`);
    close(computeOverhead(k.alpha, k.gamma, k.c), k.compute, `compute ${at}`);
  }
});
