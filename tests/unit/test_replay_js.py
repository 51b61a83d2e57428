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


def test_the_player_writes_the_speed_as_python_does() -> None:
    """assets/player/player.js's speedNote and specreplay.replay.playback.speed_note: the same line for every offered speed."""
    import json

    from specreplay.replay.playback import SPEEDS, speed_note
    from specreplay.words import PLAYER_KEYS, words

    node = shutil.which("node")
    assert node
    for lang in ("ko", "en"):
        script = (f"import {{ speedNote }} from './assets/player/player.js';"
                  f"const L = {json.dumps(words(PLAYER_KEYS, lang))};"
                  f"console.log(JSON.stringify({json.dumps(list(SPEEDS))}.map((s) => speedNote(s, L))));")
        proc = subprocess.run([node, "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == [speed_note(s, lang) for s in SPEEDS]
