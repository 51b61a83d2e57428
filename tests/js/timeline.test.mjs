// The JS timeline rule against the same hand-written cases as tests/test_timeline.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  decodeRate, frameTimeUs, makeTrack, visibleChunks, visibleText, visibleTokens,
} from "../../assets/player/timeline.js";

const cases = JSON.parse(readFileSync(new URL("../../assets/timeline_cases.json", import.meta.url))).tracks;

// Same conversion as specreplay.format: seconds → integer microseconds, rounded.
const trackOf = (events) => makeTrack({
  t_us: events.map((e) => Math.round(e.t * 1_000_000)),
  n: events.map((e) => e.n),
  text: events.map((e) => e.text),
});

for (const c of cases) {
  test(`visible at t: ${c.name}`, () => {
    const tr = trackOf(c.events);
    for (const at of c.at) {
      assert.equal(visibleChunks(tr.tUs, at.t_us), at.chunks, JSON.stringify(at));
      assert.equal(visibleTokens(tr, at.t_us), at.tokens, JSON.stringify(at));
      assert.equal(visibleText(tr, at.t_us), at.text, JSON.stringify(at));
    }
  });

  test(`video frames: ${c.name}`, () => {
    const tr = trackOf(c.events);
    for (const fr of c.frames) {
      assert.equal(frameTimeUs(fr.k, fr.fps), fr.t_us, JSON.stringify(fr));
      assert.equal(visibleChunks(tr.tUs, frameTimeUs(fr.k, fr.fps)), fr.chunks, JSON.stringify(fr));
    }
  });
}

test("decode rate excludes the first token (same case as the Python test)", () => {
  // first token at 0.5 s, then 10 more tokens over 1 s → 10 tok/s whatever the TTFT was
  const tr = makeTrack({ t_us: [500_000, 1_000_000, 1_500_000], n: [1, 5, 5], text: ["a", "bcdef", "ghijk"] });
  assert.ok(Math.abs(decodeRate(tr, 1_500_000) - 10) < 1e-9);
  assert.ok(Math.abs(decodeRate(tr, 1_000_000) - 10) < 1e-9);
  assert.equal(decodeRate(tr, 500_000), null);
  assert.equal(decodeRate(tr, 100_000), null);
});

test("a role chunk without tokens is not the first token", () => {
  const tr = makeTrack({ t_us: [100, 200, 300], n: [0, 1, 2], text: ["", "a", "bc"] });
  assert.equal(decodeRate(tr, 300), 2 * 1_000_000 / 100);
});
