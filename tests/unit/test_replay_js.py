"""The JS side of the one timeline rule (tests/js/, node's built-in runner) runs with pytest too, so `make test` covers it."""

import shutil
import subprocess

from tests.browser_fixtures import ROOT


def test_node_tests_pass() -> None:
    node = shutil.which("node")
    assert node, "node (v18+) is needed for tests/js: apt-get install nodejs"
    proc = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "# fail 0" in proc.stdout and "# pass 0" not in proc.stdout
