"""A `vllm bench serve --save-result --save-detailed` result at a chosen concurrency, for the concurrency replay tests.

Made-up numbers in vLLM's own schema (the keys specreplay.importers.vllm_bench reads, as vllm/benchmarks/serve.py
writes them): the real files in tests/fixtures/interop/ ran one request at a time, and a 64-stream run of a real
engine is out of reach of the fast tiers. Requests start together in waves of `concurrency`; each streams
`tokens` one-token chunks, slower the more requests share the server. The speculative totals are whole counts
whose per-position rates × drafts give whole numbers, as vLLM computes them.
"""

from __future__ import annotations

import json
from pathlib import Path


def bench_serve_result(concurrency: int = 64, requests: int = 128, tokens: int = 32) -> dict:
    itl = 0.01 * (1 + concurrency / 16)  # seconds between chunks: slower with more requests in flight
    ttfts, itls, starts, lats = [], [], [], []
    for i in range(requests):
        wave = i // concurrency
        ttft = 0.05 + 0.001 * (i % concurrency)
        gaps = [itl * (1 + 0.1 * ((i + k) % 3)) for k in range(tokens - 1)]
        ttfts.append(ttft)
        itls.append(gaps)
        starts.append(100.0 + wave * (ttft + sum(gaps) + 0.01))
        lats.append(ttft + sum(gaps))
    return {
        "date": "20261201-120000", "endpoint_type": "vllm", "backend": "vllm", "label": "test-lm ngram k=4 at "
        f"{concurrency}", "model_id": "test-lm", "num_prompts": requests, "vllm_version": "0.0-test",
        "max_concurrency": concurrency, "completed": requests, "failed": 0,
        "input_lens": [32] * requests, "output_lens": [tokens] * requests, "ttfts": ttfts, "itls": itls,
        "latencies": lats, "start_times": starts, "generated_texts": ["x" * tokens] * requests,
        "errors": [""] * requests,
        "spec_decode_acceptance_rate": 73.0, "spec_decode_acceptance_length": 2.92, "spec_decode_num_drafts": 100,
        "spec_decode_draft_tokens": 400, "spec_decode_accepted_tokens": 192,
        "spec_decode_per_position_acceptance_rates": [0.8, 0.55, 0.35, 0.22],
    }


def write_bench_serve(path: Path, concurrency: int = 64, requests: int = 128) -> Path:
    path.write_text(json.dumps(bench_serve_result(concurrency, requests)), encoding="utf-8")
    return path
