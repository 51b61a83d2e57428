"""vLLM's own benchmark client, live: `vllm bench serve --save-result --save-detailed` against the test session's
real ngram vLLM CPU server (tests/engine_fixtures.py), imported with `python -m specreplay import vllm-bench`.

One arm only (about 40 s here, most of it the bench client importing vLLM): the committed fixtures cover the
baseline; this checks that today's vLLM still writes what the importer reads.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_importers import check_vllm_import, import_cli
from tests.vllm_bench_run import bench, engine_version, label


def test_a_live_vllm_bench_result_imports_and_loads(vllm_arms, tmp_path: Path) -> None:
    result = bench(vllm_arms["ngram"], tmp_path / "live-ngram.json", label("ngram"), engine_version())
    out = tmp_path / "live.jsonl"
    done = import_cli("vllm-bench", str(result), "-o", str(out))
    assert done.returncode == 0, done.stderr
    check_vllm_import(out, [result])
