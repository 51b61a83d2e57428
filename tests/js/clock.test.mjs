// The player's clock (assets/player/clock.js): t under play, pause, seek and speed, wall times given by hand (ms).
import { test } from "node:test";
import assert from "node:assert/strict";
import { makeClock, pause, play, seek, setSpeed, timeAt } from "../../assets/player/clock.js";

test("a paused clock stands still", () => {
  const c = makeClock(10_000_000, 1);
  assert.equal(timeAt(c, 0), 0);
  assert.equal(timeAt(c, 5000), 0);
});

test("playing, t follows wall time times the speed, in whole microseconds", () => {
  const c = play(makeClock(10_000_000, 2), 100);
  assert.equal(timeAt(c, 100), 0);
  assert.equal(timeAt(c, 1100), 2_000_000);
  assert.equal(timeAt(c, 100.0004), 0); // 0.8 µs rounds down
  assert.equal(timeAt(c, 50), 0); // a wall time before play never runs the clock backwards
});

test("pause freezes t where it was, play resumes from there", () => {
  let c = play(makeClock(10_000_000, 1), 0);
  c = pause(c, 1500);
  assert.equal(timeAt(c, 9999), 1_500_000);
  c = play(c, 3000);
  assert.equal(timeAt(c, 3500), 2_000_000);
});

test("t stops at the duration, and play at the end starts over", () => {
  let c = play(makeClock(1_000_000, 1), 0);
  assert.equal(timeAt(c, 5000), 1_000_000);
  c = pause(c, 5000);
  c = play(c, 6000);
  assert.equal(timeAt(c, 6000), 0);
});

test("seek lands on the asked t, clamped and rounded, and keeps playing", () => {
  let c = makeClock(10_000_000, 1);
  assert.equal(timeAt(seek(c, 2_345_678.4, 0), 0), 2_345_678);
  assert.equal(timeAt(seek(c, -5, 0), 0), 0);
  assert.equal(timeAt(seek(c, 99_000_000, 0), 0), 10_000_000);
  c = seek(play(c, 0), 4_000_000, 1000);
  assert.equal(timeAt(c, 1500), 4_500_000);
});

test("a speed change keeps t and changes only the rate from then on", () => {
  let c = play(makeClock(100_000_000, 1), 0);
  c = setSpeed(c, 4, 1000);
  assert.equal(timeAt(c, 1000), 1_000_000);
  assert.equal(timeAt(c, 2000), 5_000_000);
  c = setSpeed(pause(c, 2000), 0.25, 2500); // paused: the speed changes, t does not move
  assert.equal(timeAt(c, 9000), 5_000_000);
  assert.equal(c.speed, 0.25);
});

test("the clock functions never change the clock they are given", () => {
  const c = makeClock(10_000_000, 1);
  const before = JSON.stringify(c);
  play(c, 0); seek(c, 5, 0); setSpeed(c, 2, 0); pause(play(c, 0), 10);
  assert.equal(JSON.stringify(c), before);
});
