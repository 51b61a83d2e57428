// The player's playback clock, kept apart from the DOM: a plain value and pure functions of it.
// t (integer microseconds) = baseT + (wall - baseWall) * speed while playing, within [0, duration];
// wall is a performance.now() reading in milliseconds, passed in so the clock never reads time itself.

/** A paused clock at t = 0. */
export function makeClock(durationUs, speed) {
  return { duration: durationUs, speed, playing: false, baseT: 0, baseWall: 0 };
}

/** Playback time at wall time `wall`. */
export function timeAt(c, wall) {
  if (!c.playing) return c.baseT;
  return Math.min(c.duration, c.baseT + Math.max(0, Math.floor((wall - c.baseWall) * 1000 * c.speed)));
}

/** Playing from where it stands; play at the end starts over. */
export function play(c, wall) {
  if (c.playing) return c;
  return { ...c, playing: true, baseT: c.baseT >= c.duration ? 0 : c.baseT, baseWall: wall };
}

/** Stopped on the time it showed at `wall`. */
export function pause(c, wall) {
  if (!c.playing) return c;
  return { ...c, playing: false, baseT: timeAt(c, wall), baseWall: wall };
}

/** At t (rounded, clamped to [0, duration]); keeps playing if it was. */
export function seek(c, t, wall) {
  return { ...c, baseT: Math.max(0, Math.min(c.duration, Math.round(t))), baseWall: wall };
}

/** The same t at `wall`, running at speed s from then on. */
export function setSpeed(c, s, wall) {
  return { ...c, baseT: timeAt(c, wall), baseWall: wall, speed: s };
}
