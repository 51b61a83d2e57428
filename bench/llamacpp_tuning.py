"""Short probes that chose the llama.cpp ladder's settings (docs/llamacpp.md, "Tuning"): draft length K,
--spec-draft-p-min, threads and the n-gram type, each on a code and a prose prompt (and copy for n-gram).

Not a recording: one request per setting and prompt after a warm-up, decode tok/s and acceptance from
llama-server's own `timings`. Run on an idle machine:
  python bench/llamacpp_tuning.py [--only NAME ...] > tuning.tsv
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from pathlib import Path

import httpx

SERVER = Path(os.environ.get("SPECREPLAY_LLAMA_SERVER",
                             Path.home() / ".cache/specreplay/llama.cpp-0.3.36/bin/llama-server"))
MODELS = Path(os.environ.get("SPECREPLAY_MODELS", Path.home() / ".cache/specreplay/models")) / "llamacpp"
F16, Q4 = MODELS / "qwen2.5-coder-1.5b-instruct-f16.gguf", MODELS / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
DRAFT = MODELS / "qwen2.5-coder-0.5b-instruct.gguf"
PORT = 8390
TOKENS = 96
PROMPTS = {
    "code": "Write a Python module that implements an LRU cache class with get, put and delete methods, type hints, "
            "docstrings, and a set of pytest unit tests for it.",
    "prose": "Write a long short story about a lighthouse keeper on a remote island who finds a message in a bottle "
             "during a winter storm. Describe the island, the weather and the keeper's thoughts in rich detail.",
    "copy": "Repeat the following passage exactly, word for word, and then repeat it once more:\n\nThe lighthouse "
            "keeper climbed the spiral stairs every evening at dusk. He trimmed the wick, polished the great lens, "
            "and wound the clockwork that turned the light. Ships passing in the night never saw him, but they "
            "steered by his patient work.",
}


def draft(k: int, p_min: float = 0.0) -> list[str]:
    return ["-md", str(DRAFT), "--spec-type", "draft-simple", "--spec-draft-n-max", str(k),
            "--spec-draft-p-min", str(p_min)]


# name -> (target, extra server flags, prompts)
SETTINGS: dict[str, tuple[Path, list[str], tuple[str, ...]]] = {
    "f16": (F16, [], ("code", "prose")),
    "q4": (Q4, [], ("code", "prose", "copy")),
    "q4-t1": (Q4, ["-t", "1"], ("code",)),
    **{f"f16-draft-k{k}": (F16, draft(k), ("code", "prose")) for k in (2, 4, 6)},
    **{f"q4-draft-k{k}": (Q4, draft(k), ("code", "prose")) for k in (2, 4)},
    **{f"f16-draft-k4-pmin{p}": (F16, draft(4, p), ("code", "prose")) for p in (0.5, 0.8)},
    "q4-draft-k4-pmin0.8": (Q4, draft(4, 0.8), ("code", "prose")),
    "f16-draft-k4-td1": (F16, [*draft(4), "-td", "1"], ("code",)),
    **{f"q4-{t}": (Q4, ["--spec-type", t], ("copy", "code", "prose"))
       for t in ("ngram-simple", "ngram-map-k", "ngram-mod", "ngram-cache")},
}


def ask(prompt: str) -> dict:
    body = {"messages": [{"role": "user", "content": prompt}], "max_tokens": TOKENS, "temperature": 0,
            "ignore_eos": True, "stream": False}
    r = httpx.post(f"http://127.0.0.1:{PORT}/v1/chat/completions", json=body, timeout=600)
    r.raise_for_status()
    return r.json()["timings"]


def probe(name: str, model: Path, flags: list[str], prompts: tuple[str, ...]) -> None:
    cmd = [str(SERVER), "-m", str(model), "-t", "2", "-c", "4096", "--parallel", "1", "--host", "127.0.0.1",
           "--port", str(PORT), *flags]
    with open(f"/tmp/tune-{name}.log", "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(240):
            try:
                if httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                print(f"{name}\tserver exited with {proc.returncode} (log /tmp/tune-{name}.log)", flush=True)
                return
            time.sleep(0.5)
        ask(PROMPTS[prompts[0]])  # warm-up
        for p in prompts:
            t = ask(PROMPTS[p])
            drafted, accepted = t.get("draft_n", 0), t.get("draft_n_accepted", 0)
            print(f"{name}\t{p}\t{t['predicted_per_second']:.1f}\t{t['predicted_n']}\t{drafted}\t{accepted}",
                  flush=True)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
            proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="setting names to run (default: all)")
    args = ap.parse_args()
    print("setting\tprompt\tdecode_tok_s\ttokens\tdrafted\taccepted", flush=True)
    for name, (model, flags, prompts) in SETTINGS.items():
        if not args.only or name in args.only:
            probe(name, model, flags, prompts)


if __name__ == "__main__":
    main()
