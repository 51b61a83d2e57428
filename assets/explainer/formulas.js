// The speculative-decoding formulas in the browser, the twin of specreplay/theory.py (Leviathan et al. 2023):
// the app's live charts and the exported charts (specreplay export-chart) both run these, and
// assets/formula_cases.json holds the cases both test suites read (tests/unit/test_formula_cases.py,
// tests/js/formulas.test.mjs), so the browser and the pages never disagree.

// E[τ]: tokens per verification step = (1 − α^(γ+1)) / (1 − α); γ + 1 when every draft is accepted.
export const expectedTokens = (a, g) => (a === 1 ? g + 1 : (1 - a ** (g + 1)) / (1 - a));
// Wall-time speedup over plain decoding (theorem 3.8): E[τ] / (1 + γc).
export const speedup = (a, g, c) => expectedTokens(a, g) / (1 + g * c);
// Compute relative to plain decoding (theorem 3.11, ĉ = c): (γc + γ + 1) / E[τ].
export const computeOverhead = (a, g, c) => (g * c + g + 1) / expectedTokens(a, g);
