// Side-by-side replay player. What is on screen is a pure function of the playback
// clock t (integer microseconds): render(t) applies the visible-at-t rule from
// timeline.js to every pane. The clock (clock.js) is performance.now() scaled by the
// speed, so nothing the server does can make playback stutter or drift.
//
// The module only exports mount(); the page that embeds the player calls it (embed.js
// in the app's document). Keys act only while focus is inside the player, and a speed
// change is announced as a "specreplay:speed" event on the root, for the page to act on.
//
// Per-frame DOM work is bounded by what changed since the last frame: new chunks are
// appended as text nodes (never HTML), counters are rewritten only when their text
// changes, nothing already shown is rebuilt.

import * as clk from "./clock.js";
import { decodeRate, makeTrack, visibleChunks } from "./timeline.js";

const SEEK_STEP_US = 1_000_000;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const fmtS = (us) => `${(us / 1_000_000).toFixed(2)} s`;
const fmtRate = (r) => (r === null ? "—" : r.toFixed(1));
const g3 = (x) => String(Number(x.toPrecision(3)));

/** "0.1× — slowed 10×": the same templates as specreplay.replay.playback.speed_note. */
export function speedNote(s, L) {
  if (s === 1) return L.speed_real.replace("{x}", "1");
  const [key, n] = s < 1 ? ["speed_slow", 1 / s] : ["speed_fast", s];
  return L[key].replace("{x}", g3(s)).replace("{n}", g3(n));
}

/** A text node's content is set only when it differs, so unchanged counters cost no DOM mutation. */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function buildPane(p, L, signal) {
  const track = makeTrack(p);
  const root = el("section", `pane pane-${p.kind}`);
  root.dataset.key = p.key;
  const head = el("header", "pane-head");
  const title = el("div", "pane-title");
  // the label leads with what differs between the arms; the full label shows on hover and while focused
  const label = el("span", "pane-label");
  label.append(el("span", "label-short", p.label), el("span", "label-full", p.full_label));
  label.title = p.full_label;
  label.tabIndex = 0;
  label.setAttribute("aria-label", p.full_label);
  title.append(label, el("span", `badge badge-${p.kind}`, L[p.kind]));
  const sub = el("div", "pane-sub", p.subtitle);
  sub.title = Object.entries(p.details).map(([k, v]) => `${k}: ${v}`).join("\n");
  head.append(title, sub);
  if (p.warnings.length) {
    const warn = el("div", "pane-warn");
    warn.setAttribute("role", "note");
    p.warnings.forEach((w) => {
      const line = el("div", "warn-line", "⚠ ");
      if (p.defect && w === p.defect.text) {  // an engine defect: its line links to the fix
        const link = el("a", "warn-link", w);
        Object.assign(link, { href: p.defect.href, target: "_blank", rel: "noopener" });
        line.append(link);
      } else line.append(w);
      warn.append(line);
    });
    head.append(warn);
  }

  const counters = el("div", "counters");
  const counter = (name, label) => {
    const box = el("div", `counter counter-${name}`);
    const value = el("span", "value", "0");
    box.append(value, el("span", "unit", label));
    counters.append(box);
    return value;
  };
  // an imported arm whose file has no tokens per chunk counts chunks, and says so
  const chunks = p.counts === "chunks";
  const tokens = counter("tokens", chunks ? L.chunks : L.tokens);
  const elapsed = counter("elapsed", L.elapsed);
  const rate = counter("rate", chunks ? L.chunk_rate : L.rate);
  const ttft = counter("ttft", L.ttft);

  // The pane's own time bar: filled up to min(t, end); a tick marks the first token.
  const bar = el("div", "timebar");
  const fill = el("div", "timebar-fill");
  bar.append(fill);
  if (p.ttft_us !== null) {
    const tick = el("div", "timebar-ttft");
    tick.title = `${L.ttft} ${fmtS(p.ttft_us)}`;
    bar.append(tick);
  }

  const stream = el("div", "stream");
  stream.setAttribute("aria-live", "off");
  const foot = el("footer", "pane-foot");
  const status = el("span", "status", L.waiting);
  const ratio = el("span", "ratio", "");
  ratio.title = L.ratio;
  foot.append(status, ratio);
  root.append(head, counters, bar, stream, foot);
  // concurrency replay: the level's total output tok/s, all requests together, under this one request's text
  let system = null;
  if (p.system) {
    const line = el("div", "system");
    system = { track: makeTrack({ t_us: p.system.t_us, n: p.system.n, text: p.system.n.map(() => "") }),
      value: el("span", "system-value", "—") };
    line.append(el("span", "system-label", `${L.system} `), system.value, el("span", "unit", " tok/s"));
    root.append(line);
  }

  const pane = { p, track, root, tokens, elapsed, rate, ttft, bar, fill, stream, status, ratio, system, shown: 0, added: [], follow: true };
  // Follow the newest text unless the reader scrolled up to look at something.
  stream.addEventListener("scroll", () => {
    pane.follow = stream.scrollTop + stream.clientHeight >= stream.scrollHeight - 4;
  }, { signal });
  return pane;
}

function layoutBar(pane, duration) {
  const { p, bar } = pane;
  bar.style.width = `${(100 * Math.max(p.end_us, 1)) / duration}%`;
  const tick = bar.querySelector(".timebar-ttft");
  if (tick) tick.style.left = `${(100 * p.ttft_us) / Math.max(p.end_us, 1)}%`;
}

// Text goes into line-aligned segments: a new block starts after a chunk that ends a line, so the
// browser re-lays out only the last segment when chunks are appended, not the whole output. Within a
// segment, runs of one-token chunks share one text node (fewer inline items to lay out); a multi-token
// chunk (an accepted speculative block) gets its own span so it can be highlighted. pane.added records,
// per shown chunk, the node it went into and whether it was appended to an existing text node, so
// seeking back can undo exactly.
function appendChunks(pane, k) {
  const { track, stream, added } = pane;
  let seg = stream.lastChild;
  for (let i = pane.shown; i < k; i++) {
    if (!seg || (i > 0 && track.text[i - 1].endsWith("\n"))) seg = stream.appendChild(el("div", "seg"));
    const last = seg.lastChild;
    if (track.n[i] > 1) {
      added.push([seg.appendChild(el("span", "burst", track.text[i])), false]);
    } else if (last && last.nodeType === Node.TEXT_NODE) {
      last.appendData(track.text[i]);
      added.push([last, true]);
    } else {
      added.push([seg.appendChild(document.createTextNode(track.text[i])), false]);
    }
  }
  pane.shown = k;
  if (pane.follow) stream.scrollTop = stream.scrollHeight;
}

function removeChunks(pane, k) {
  const { track, added } = pane;
  for (; pane.shown > k; pane.shown--) {
    const [node, merged] = added.pop();
    const len = track.text[pane.shown - 1].length;
    if (merged) {
      node.deleteData(node.length - len, len);
    } else {
      const seg = node.parentNode;
      node.remove();
      if (!seg.firstChild) seg.remove();
    }
  }
}

function renderPane(pane, t, allDone, L, ref, isRef) {
  const { p, track } = pane;
  const k = visibleChunks(track.tUs, t);
  if (k > pane.shown) appendChunks(pane, k);
  else if (k < pane.shown) removeChunks(pane, k); // seeking back
  const tp = Math.min(t, p.end_us);
  setText(pane.tokens, String(track.cum[k]));
  setText(pane.elapsed, fmtS(tp));
  setText(pane.rate, fmtRate(decodeRate(track, tp)));
  setText(pane.ttft, p.ttft_us !== null && t >= p.ttft_us ? fmtS(p.ttft_us) : "—");
  pane.fill.style.transform = `scaleX(${p.end_us > 0 ? tp / p.end_us : 1})`;
  const done = t >= p.end_us;
  setText(pane.status, done ? `${L.finished} ${fmtS(p.end_us)}` : (p.ttft_us !== null && t >= p.ttft_us ? "" : L.waiting));
  setText(pane.ratio, !allDone ? "" : (p.ratio !== null ? `×${p.ratio.toFixed(2)} ${ref ? L.vs.replace("{x}", ref) : ""}`
    : (isRef ? L.reference : "")));
  if (pane.system) {
    const s = pane.system;
    const shown = s.track.cum[visibleChunks(s.track.tUs, t)];
    setText(s.value, t > 0 && shown > 0 ? (shown * 1_000_000 / t).toFixed(1) : "—");
  }
}

/** The player's DOM, empty of state: controls, one pane per arm, the key help line. */
function buildDom(root, data, signal) {
  const L = data.labels;
  const controls = el("div", "controls");
  const playBtn = el("button", "play", L.play);
  const restartBtn = el("button", "restart", L.restart);
  const scrub = el("input", "scrub");
  Object.assign(scrub, { type: "range", min: "0", max: String(data.duration_us), step: "1", value: "0" });
  scrub.setAttribute("aria-label", "t");
  const clock = el("span", "clock", "");
  const speedNoteEl = el("span", "speed-note", "");
  const speedBox = el("div", "speeds");
  speedBox.append(el("span", "speeds-label", L.speed));
  const speedBtns = data.speeds.map((s) => {
    const b = el("button", "speed", `${s}×`);
    b.dataset.speed = String(s);
    speedBox.append(b);
    return b;
  });
  const burstLabel = el("label", "bursts");
  const burstBox = el("input");
  burstBox.type = "checkbox";
  burstLabel.append(burstBox, document.createTextNode(` ${L.bursts}`));
  controls.append(playBtn, restartBtn, scrub, clock, speedNoteEl, speedBox, burstLabel);
  const grid = el("div", "panes");
  grid.style.setProperty("--cols", String(Math.min(data.panes.length, 4)));
  const panes = data.panes.map((p) => buildPane(p, L, signal));
  grid.append(...panes.map((pn) => pn.root));
  root.append(controls, grid, el("p", "keys", L.keys));
  panes.forEach((pn) => layoutBar(pn, data.duration_us));
  return { playBtn, restartBtn, scrub, clock, speedNote: speedNoteEl, speedBtns, burstBox, panes };
}

/**
 * Mount the player into root; returns a small controller (also used by tests and the benchmark).
 * dispose() stops the clock, removes every listener the player added and empties root.
 */
export function mount(root, data) {
  const L = data.labels;
  const duration = data.duration_us;
  const listeners = new AbortController();
  const signal = listeners.signal;
  let clock = clk.makeClock(duration, data.speed);
  let raf = 0;
  let lastT = -1;

  root.replaceChildren(); // the document's loading note goes once the player is built
  root.classList.add("player");
  if (!root.hasAttribute("tabindex")) root.tabIndex = 0; // focusable, so its keys can be scoped to it
  const dom = buildDom(root, data, signal);
  const { playBtn, scrub, speedBtns, panes } = dom;
  const maxEnd = Math.max(0, ...data.panes.map((p) => p.end_us));
  const refLabel = data.reference_name || "";

  function render(t) {
    lastT = t;
    const allDone = t >= maxEnd;
    panes.forEach((pane, i) => renderPane(pane, t, allDone, L, refLabel, i === data.reference));
    scrub.value = String(t);
    setText(dom.clock, `${fmtS(t)} / ${fmtS(duration)}`);
    root.dataset.tUs = String(t);
  }

  function frame(wall) {
    raf = 0;
    const t = clk.timeAt(clock, wall);
    render(t);
    if (t >= duration) setPlaying(false);
    else if (clock.playing) raf = requestAnimationFrame(frame);
  }

  function setPlaying(on) {
    if (on === clock.playing || signal.aborted) return;
    if (on) {
      clock = clk.play(clock, performance.now());
      if (!raf) raf = requestAnimationFrame(frame);
    } else {
      // freeze on the clock's time and show it now: the last painted frame is up to one frame older
      clock = clk.pause(clock, performance.now());
      if (raf) { cancelAnimationFrame(raf); raf = 0; }
      render(clock.baseT);
    }
    setText(playBtn, clock.playing ? L.pause : L.play);
    root.dataset.playing = String(clock.playing);
  }

  function seek(t) {
    if (signal.aborted) return;
    clock = clk.seek(clock, t, performance.now());
    render(clock.baseT);
  }

  function showSpeed(s) {
    speedBtns.forEach((b) => b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === s)));
    root.dataset.speed = String(s);
    setText(dom.speedNote, speedNote(s, L));
  }

  function setSpeed(s) {
    if (signal.aborted || s === clock.speed) return;
    clock = clk.setSpeed(clock, s, performance.now());
    showSpeed(s);
    root.dispatchEvent(new CustomEvent("specreplay:speed", { detail: { speed: s }, bubbles: true }));
  }

  function onKey(e) {
    const onControl = e.target instanceof HTMLButtonElement || e.target instanceof HTMLInputElement;
    if (e.key === " " && !onControl) {
      e.preventDefault();
      setPlaying(!clock.playing);
    } else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && e.target !== scrub) {
      e.preventDefault();
      const step = (e.shiftKey ? 5 : 1) * SEEK_STEP_US;
      seek(clk.timeAt(clock, performance.now()) + (e.key === "ArrowLeft" ? -step : step));
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && e.target !== scrub) {
      e.preventDefault();
      const i = data.speeds.indexOf(clock.speed) + (e.key === "ArrowUp" ? 1 : -1);
      setSpeed(data.speeds[Math.max(0, Math.min(data.speeds.length - 1, i))]);
    }
  }

  playBtn.addEventListener("click", () => setPlaying(!clock.playing), { signal });
  dom.restartBtn.addEventListener("click", () => { seek(0); setPlaying(true); }, { signal });
  scrub.addEventListener("input", () => seek(Number(scrub.value)), { signal });
  speedBtns.forEach((b) => b.addEventListener("click", () => setSpeed(Number(b.dataset.speed)), { signal }));
  dom.burstBox.addEventListener("change", () => root.classList.toggle("show-bursts", dom.burstBox.checked),
    { signal });
  root.addEventListener("keydown", onKey, { signal }); // keys pressed elsewhere on the page are not the player's

  function dispose() {
    if (signal.aborted) return;
    if (raf) { cancelAnimationFrame(raf); raf = 0; }
    listeners.abort();
    root.replaceChildren();
    root.classList.remove("player", "show-bursts");
    for (const k of ["tUs", "playing", "speed", "mounted"]) delete root.dataset[k];
  }

  showSpeed(clock.speed);
  root.dataset.playing = "false";
  render(0);
  root.dataset.mounted = "true";
  return {
    play: () => setPlaying(true),
    pause: () => setPlaying(false),
    seek,
    setSpeed,
    dispose,
    get t() { return lastT; },
    get playing() { return clock.playing; },
    get speed() { return clock.speed; },
  };
}
