// The one timeline rule, as in specreplay/replay/timeline.py: a chunk that arrived t_i
// microseconds after its request was sent is visible at playback time t iff t_i <= t.
// Times are integer microseconds; both sides are tested against assets/timeline_cases.json.

export const US = 1_000_000;

/** Number of chunks visible at t_us: index of the first t_i > t (bisect right). */
export function visibleChunks(tUs, t) {
  let lo = 0;
  let hi = tUs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tUs[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** cum[k] = tokens in the first k chunks (length = chunks + 1). */
export function cumulative(n) {
  const cum = new Array(n.length + 1);
  cum[0] = 0;
  for (let i = 0; i < n.length; i++) cum[i + 1] = cum[i] + n[i];
  return cum;
}

export function visibleTokens(track, t) {
  return track.cum[visibleChunks(track.tUs, t)];
}

export function visibleText(track, t) {
  return track.text.slice(0, visibleChunks(track.tUs, t)).join("");
}

/** Playback time of video frame k at fps, in whole microseconds (integer maths, like Python's //). */
export function frameTimeUs(k, fps) {
  return Math.floor((k * US) / fps);
}

/** Index of the first chunk that carried a token (its arrival is the TTFT), or -1. */
export function firstTokenIndex(track) {
  return track.n.findIndex((n) => n > 0);
}

/**
 * Decode tok/s from the first token to t, first token excluded (timeline.decode_rate with t given):
 * tokens after the first divided by the time since the first token arrived.
 */
export function decodeRate(track, t) {
  const first = firstTokenIndex(track);
  if (first < 0) return null;
  const k = visibleChunks(track.tUs, t);
  if (k <= first) return null;
  const span = t - track.tUs[first];
  const afterFirst = track.cum[k] - track.cum[first + 1];
  return span > 0 && afterFirst > 0 ? (afterFirst * US) / span : null;
}

/** A track from the payload's parallel arrays. */
export function makeTrack({ t_us, n, text }) {
  return { tUs: t_us, n, text, cum: cumulative(n) };
}
