"""vLLM's own benchmark client, live: `vllm bench serve --save-result --save-detailed` against the test session's
real vLLM CPU servers (tests/engine_fixtures.py), imported with `python -m specreplay import vllm-bench`.

About a minute here (two bench runs, most of it the bench client importing vLLM). With
SPECREPLAY_WRITE_INTEROP_FIXTURES=1 the two result files also replace tests/fixtures/interop/vllm-bench-*.json
(that is how the committed ones were made; see the README there).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.browser_fixtures import ROOT
from tests.unit.test_importers import check_vllm_import, import_cli
from tests.vllm_bench_run import bench, engine_version, label


def test_live_vllm_bench_results_import_and_load(vllm_arms, tmp_path: Path) -> None:
    version = engine_version()
    results = [bench(vllm_arms[arm], tmp_path / f"vllm-bench-{arm}.json", label(arm), version)
               for arm in ("baseline", "ngram")]
    out = tmp_path / "live.jsonl"
    done = import_cli("vllm-bench", *map(str, results), "-o", str(out))
    assert done.returncode == 0, done.stderr
    check_vllm_import(out, results)
    if os.environ.get("SPECREPLAY_WRITE_INTEROP_FIXTURES"):
        for result in results:
            shutil.copy(result, ROOT / "tests" / "fixtures" / "interop" / result.name)
