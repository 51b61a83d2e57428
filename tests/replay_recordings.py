"""Small made-up recordings for the replay tests, written with specreplay.recording.format.create/append.

They live only in temporary folders during tests; nothing here is bundled (`bundled` reads a bundled one).
Three arms on two prompts, three repeats each plus a warm-up: a slow one-token-per-chunk
arm, a faster one, and a speculative arm whose chunks carry bursts of tokens.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from specreplay.recording.format import Recording, append, create, event_dict
from specreplay.resources import RECORDINGS

WORDS = ("the", "model", "reads", "every", "weight", "once", "per", "step", "so", "fewer", "bytes", "means",
         "faster", "tokens", "가중치를", "읽는", "시간이", "줄어듭니다")
MARKUP = ("<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "<b>not bold</b>")
# arm id → (label, model, decode tok/s, TTFT s, largest burst)
ARMS = {
    "base": ("bf16", "tiny-lm bf16", 20.0, 0.30, 1),
    "q4": ("4-bit", "tiny-lm q4", 28.0, 0.25, 1),
    "spec": ("4-bit + drafter", "tiny-lm q4", 70.0, 0.35, 5),
}
PROMPTS = ("chat-1", "code-1")
TOKENS = 90


def header() -> dict:
    return {
        "title": "replay test recording",
        "created": "2026-11-29T12:00:00+00:00",
        "machine": {"cpu": "Test CPU", "cores": 4, "ram_gib": 8.0, "accelerator": None, "os": "Debian"},
        "arms": [{"id": a, "label": label, "model": model, "engine": {"name": "vllm", "version": "0.0-test"},
                  "flags": {"spec": a == "spec"}} for a, (label, model, *_rest) in ARMS.items()],
        "prompts": [{"id": p, "kind": "code" if p.startswith("code") else "chat", "text": f"Say something ({p})",
                     "sampling": {"temperature": 0}} for p in PROMPTS],
    }


def run_events(arm: str, prompt: str, repeat: int, markup: bool) -> list[dict]:
    """Chunk times at the arm's rate, jittered by repeat so the median repeat is a real choice."""
    _label, _model, tok_s, ttft, burst = ARMS[arm]
    rng = random.Random(f"{arm}/{prompt}/{repeat}")
    rate = tok_s * (1 + 0.05 * (repeat - 1))  # repeat 1 is the median
    words = MARKUP if markup else WORDS
    events = [event_dict(0.05, 0, "", None)]  # the role chunk: no tokens
    t, emitted = ttft, 0
    while emitted < TOKENS:
        n = min(rng.randint(1, burst), TOKENS - emitted)
        text = "".join((" " if emitted + i else "") + words[(emitted + i) % len(words)] for i in range(n))
        events.append(event_dict(t, n, text, None))
        emitted += n
        t += n / rate
    return events


def write_recording(path: Path, *, markup: bool = False) -> Path:
    create(path, header())
    for prompt in PROMPTS:
        for arm in ARMS:
            for repeat in (-1, 0, 1, 2):  # -1 is the warm-up, dropped from every choice
                events = run_events(arm, prompt, max(repeat, 0), markup)
                tokens = sum(e["n"] for e in events)
                append(path, {
                    "type": "run", "arm": arm, "prompt": prompt, "repeat": max(repeat, 0), "warmup": repeat < 0,
                    "concurrency": 1, "stream": 0, "started_wall": "2026-11-29T12:00:00+00:00", "started_mono": 0.0,
                    "events": events, "ttft": events[1]["t"], "usage": {"completion_tokens": tokens},
                    "finish_reason": "length", "spec": None, "request_metrics": None, "status": "ok", "error": None,
                })
    return path


def bundled(name: str) -> Recording:
    """A bundled recording by file name, read the pages' way (catalogue.read); fails the test if it is missing."""
    from specreplay.recording import catalogue

    got = catalogue.read(name)
    assert isinstance(got, Recording), got
    return got


def add_copy(folder: Path, bundled: str, name: str, created: str = "2027-01-01T00:00:00+00:00") -> Path:
    """A copy of a bundled recording under another name, started later: what a new recording of the same kind is."""
    lines = (RECORDINGS / bundled).read_text(encoding="utf-8").split("\n")
    lines[0] = json.dumps({**json.loads(lines[0]), "created": created})
    (path := folder / name).write_text("\n".join(lines), encoding="utf-8")
    return path


def before_the_bundled(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`folder` as the recordings folder searched first, the bundled ones after it (SPECREPLAY_RECORDINGS)."""
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", os.pathsep.join([str(folder), str(RECORDINGS)]))
    return folder
