// The browser's multiplier format against the cases specreplay/multiplier.py is tested on (one spec, two sides).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { times } from "../../assets/explainer/multiplier.js";

const { cases } = JSON.parse(readFileSync(new URL("../../assets/multiplier_cases.json", import.meta.url), "utf8"));

test("every shared case reads the same as in Python", () => {
  assert.ok(cases.length >= 10);
  for (const [value, text] of cases) assert.equal(times(value), text, String(value));
});
