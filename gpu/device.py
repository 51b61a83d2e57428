"""The device-side steps, run on the lent H200 from the repository root (docs/gpu.md has the call sequence).

    python3 .gpu/src/gpu/device.py STEP [STEP ...]

Steps, run in order; a failing step stops the rest:
  info                      nvidia-smi, python, disk -> $OUT/info.txt
  stage                     move the carried pieces (.gpu/p*/) to /tmp/stage (kept while the machine stays warm)
  setup                     check the pieces against the manifest, unpack to /tmp/carry, convert the GGUF to a
                            bf16 Hugging Face folder, write the dummy-weight model folders
  setup-qwen                unpack the vLLM pieces (as setup) and the real Qwen GGUFs carried (pieces q*: the 1.5B
                            target, d*: the 0.5B draft model) to /tmp/carry, convert each to a bf16 Hugging Face
                            folder (gpu/qwen_gpu.py)
  drafter:STEP              a step of gpu/drafter_train.py (prompts, generate, hidden, train, export, pieces:N+M):
                            the EAGLE-3 head trained for the real 1.5B
  wheels                    install .gpu/wheels/*.whl (a dependency found missing) into /tmp/carry/site
  serve:ARM,ARM,...[@S]     start these servers (setsid, so they outlive the call) and wait up to S seconds (420)
                            for each to answer; one that does not is stopped. A drafter server written ID=L starts
                            at synthetic acceptance L (without the switch: its arms at L are the ones to record)
  probe:SERVER,...          one short request per served name NAME@L of these drafter servers: the acceptance
                            length the spec counters show against L, and the decode rate -> stdout
  record:CONFIG[:OUTNAME[:ARM,ARM]]
                            `python3 -m recorder record` on recorder/configs/CONFIG (only these arms,
                            when named), less the arms whose server is down
  sweep:CONFIG[:OUTNAME]    `python3 -m recorder sweep` likewise
  stop:ARM,ARM,... | stop   stop these arms (all when none named)
  logs                      the servers' log tails -> $OUT/servers.log

A server's command is built from its arm's `flags` (the same flags go into the recording header, so the header
says what was served): lower-case keys become `--key value` (tables as JSON, true as a bare switch), upper-case
keys are environment variables, and DESCRIPTIVE keys are only written down. ARMS below names the SmolLM2 and
7B-shaped servers (one arm each); gpu/ladder27.py the 27B-class ones, where one drafter server serves several
arms (every arm of any config at its endpoint: their model names are its served names); gpu/qwen_gpu.py the real
Qwen2.5-Coder 1.5B + 0.5B ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

if __package__ in (None, ""):  # run as a script on the device: make the gpu package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from gpu import draft_graphs, drafter_train, ladder27, qwen_gpu, sizes  # noqa: E402
from specreplay.recording.counts import SpecCounts  # noqa: E402

REPO = Path.cwd()
SRC = REPO / ".gpu/src"
CONFIGS = SRC / "recorder/configs"  # the checkout's recorder/configs (gpu/carry.py SOURCES)
STAGE = Path("/tmp/stage")
CARRY = Path("/tmp/carry")
MODELS = Path("/tmp/models")
LOGS = Path("/tmp/logs")
RECORDINGS = Path("/tmp/recordings")
EFFECTIVE = Path("/tmp/configs")  # a config less the arms that did not come up
OUT = Path(os.environ.get("OUT", "/tmp/out"))
PLUGIN = Path("/tmp/plugin")  # the dist-info that makes gpu/synthetic_switch.py and gpu/draft_graphs.py vLLM plugins
PLUGINS = {"synthetic_switch": "specreplay_synthetic_switch", "draft_graphs": "specreplay_draft_graphs"}
SMOL = MODELS / "smollm2-135m-instruct"
GGUF = CARRY / "model/smollm2-135m-instruct.gguf"
DESCRIPTIVE = {"weights", "weights_sha256", "draft_weights", "draft_sha256", "model_config", "synthetic_switch",
               "target_size", "drafter_kind", "draft_graphs", "training_recipe"}
# arm id -> (config it is defined in, what --model points at)
ARMS = {
    "baseline": ("h200-smollm2.toml", SMOL),
    "ngram": ("h200-smollm2.toml", SMOL),
    "gguf-q4_1": ("h200-smollm2.toml", GGUF),
    "bf16": ("h200-timing.toml", MODELS / "qwen2.5-7b-shape-bf16"),
    "fp8": ("h200-timing.toml", MODELS / "qwen2.5-7b-shape-bf16"),
    "w4a16-gptq": ("h200-timing.toml", MODELS / "qwen2.5-7b-shape-gptq4"),
    "w4a16-awq": ("h200-timing.toml", MODELS / "qwen2.5-7b-shape-awq4"),
}
# Qwen2.5-7B's decoder shapes with SmolLM2's vocabulary, so SmolLM2's tokenizer serves it (weights are dummy).
QWEN7B_SHAPE = {
    "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
    "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4, "vocab_size": 49152,
    "max_position_embeddings": 32768, "rope_theta": 1000000.0, "rms_norm_eps": 1e-06, "hidden_act": "silu",
    "tie_word_embeddings": False, "use_sliding_window": False, "torch_dtype": "bfloat16", "bos_token_id": 1,
    "eos_token_id": 2,
}
LINEARS = ["self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
           "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"]
# vLLM 0.23's GPTQ path (AutoGPTQConfig, Marlin kernels) quantizes only the layers in
# modules_in_block_to_quantize; when the config leaves it out, maybe_update_config fills it from the
# checkpoint's safetensors dtypes, and with --load-format dummy there is no checkpoint, so the list is empty
# and every layer stays bf16. Naming the layers here is what makes the 4-bit config apply.
GPTQ4 = {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True,
         "checkpoint_format": "gptq", "modules_in_block_to_quantize": [LINEARS]}
# AWQ's Marlin path needs no such list: an empty modules_to_not_convert means "quantize everything".
AWQ4 = {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"}
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "generation_config.json",
                   "chat_template.jinja")


def sh(cmd: str, log: Path | None = None, cwd: Path | None = None) -> int:
    print(f"+ {cmd}", flush=True)
    if log is None:
        return subprocess.call(cmd, shell=True, cwd=cwd)
    return subprocess.call(f"set -o pipefail; ( {cmd} ) 2>&1 | tee -a {log}", shell=True, executable="/bin/bash",
                           cwd=cwd)


def site_env() -> dict[str, str]:
    """The carried packages first, then our recorder/specreplay sources; FlashInfer is not carried."""
    return {**os.environ, "PYTHONPATH": f"{CARRY / 'site'}:{SRC}:{PLUGIN}", "VLLM_USE_FLASHINFER_SAMPLER": "0",
            "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}


def info() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    sh("nvidia-smi; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; python3 -V; nproc; "
       "df -h /tmp | tail -1; python3 -c 'import torch, transformers; print(torch.__version__, "
       "transformers.__version__)'", OUT / "info.txt")


def stage() -> None:
    STAGE.mkdir(parents=True, exist_ok=True)
    for piece in (sorted(REPO.glob(".gpu/p*/carry.tar.xz.*")) + sorted(REPO.glob(".gpu/q*/q.tar.*"))
                  + sorted(REPO.glob(".gpu/d*/d.tar.*"))):
        shutil.move(str(piece), STAGE / piece.name)
        print(f"staged {piece.name}", flush=True)
    print("in /tmp/stage:", " ".join(sorted(p.name for p in STAGE.iterdir())), flush=True)


def check_pieces(listed: list[dict], stage_dir: Path | None = None) -> list[Path]:
    """Every piece listed (the manifest's "pieces", or one file's under "qwen"), present with its size and sha256;
    raises SystemExit naming what is off."""
    paths = []
    for p in listed:
        path = (stage_dir or STAGE) / p["name"]
        if not path.exists():
            raise SystemExit(f"setup: piece {p['name']} was never carried (call with carry=['{'.gpu/' + p['dir']}'])")
        if path.stat().st_size != p["bytes"] or hashlib.sha256(path.read_bytes()).hexdigest() != p["sha256"]:
            raise SystemExit(f"setup: piece {p['name']} differs from the manifest (carry it again)")
        paths.append(path)
    return paths


def model_config(quant: dict | None) -> dict:
    return {**QWEN7B_SHAPE, **({"quantization_config": quant} if quant else {})}


def write_dummy_models(tokenizer_dir: Path, models: Path = MODELS) -> None:
    folders = {f"qwen2.5-7b-shape-{name}": model_config(quant)
               for name, quant in (("bf16", None), ("gptq4", GPTQ4), ("awq4", AWQ4))}
    for name, config in {**folders, **ladder27.FOLDERS, **sizes.FOLDERS}.items():
        d = models / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "config.json").write_text(json.dumps(config, indent=1))
        for f in TOKENIZER_FILES:
            if (tokenizer_dir / f).exists():
                shutil.copy(tokenizer_dir / f, d / f)


def write_plugin(dest: Path = PLUGIN) -> None:
    """gpu/synthetic_switch.py and gpu/draft_graphs.py as top-level modules with the dist-info through which vLLM
    finds them (entry point group vllm.general_plugins). Top-level: `python -m` puts the working directory first
    on the servers' path, and the checkout's own gpu/ there shadowed the snapshot's on 2026-12-01 (docs/gpu.md)."""
    info = dest / "specreplay_gpu_plugins-0.2.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    for module, top in PLUGINS.items():
        shutil.copy(Path(__file__).with_name(f"{module}.py"), dest / f"{top}.py")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: specreplay-gpu-plugins\nVersion: 0.2\n")
    (info / "entry_points.txt").write_text(
        "[vllm.general_plugins]\n" + "".join(f"{m} = {top}:register\n" for m, top in PLUGINS.items()))


def unpack(pieces: list[Path], dest: Path, xz: bool = True, marker: str = ".unpacked") -> None:
    """Join the pieces and untar them into dest (once: the marker file in dest says it is done)."""
    if (dest / marker).exists():
        return
    dest.mkdir(parents=True, exist_ok=True)
    t = time.monotonic()
    decompress = "| xz -d -T0 " if xz else ""
    if subprocess.call(f"set -o pipefail; cat {' '.join(map(str, pieces))} {decompress}| tar -C {dest} -xf -",
                       shell=True, executable="/bin/bash"):
        raise SystemExit("setup: unpacking failed")
    (dest / marker).touch()
    print(f"setup: unpacked in {time.monotonic() - t:.0f} s", flush=True)


def setup() -> None:
    manifest = json.loads((SRC / "gpu/manifest.json").read_text())
    unpack(check_pieces(manifest["pieces"]), CARRY)
    if not (SMOL / "config.json").exists():
        code = ("import sys; from pathlib import Path; from recorder.engine.convert_gguf import convert; "
                f"convert(Path('{GGUF}'), Path('{SMOL}'), 'bfloat16')")
        if subprocess.call([sys.executable, "-c", code], env=site_env(), cwd=SRC):
            raise SystemExit("setup: GGUF -> bf16 conversion failed")
    write_dummy_models(SMOL)
    write_plugin()
    sh(f"ls -la {SMOL} {MODELS}")


def convert_gguf(pairs: tuple[tuple[Path, Path], ...]) -> None:
    """Each GGUF to a bf16 Hugging Face folder, side by side (one process each), unless already there."""
    code = ("import sys; from pathlib import Path; from recorder.engine.convert_gguf import convert; "
            "convert(Path(sys.argv[1]), Path(sys.argv[2]), 'bfloat16')")
    procs = [(out, subprocess.Popen([sys.executable, "-c", code, str(gguf), str(out)], env=site_env(), cwd=SRC))
             for gguf, out in pairs if not (out / "config.json").exists()]
    t = time.monotonic()
    failed = [str(out) for out, proc in procs if proc.wait()]
    if failed:
        raise SystemExit(f"setup: GGUF -> bf16 conversion failed for {', '.join(failed)}")
    print(f"setup: converted {len(procs)} GGUF file(s) in {time.monotonic() - t:.0f} s", flush=True)


def setup_qwen() -> None:
    """vLLM, then each Qwen GGUF whose first piece was carried (the draft model's are optional), each converted."""
    manifest = json.loads((SRC / "gpu/manifest.json").read_text())
    unpack(check_pieces(manifest["pieces"]), CARRY)
    carried = []
    for name, listed in manifest["qwen"].items():
        if listed and (STAGE / listed[0]["name"]).exists():
            unpack(check_pieces(listed), qwen_gpu.QWEN, xz=False, marker=f".{name}.unpacked")
            carried.append(name)
    convert_gguf(tuple(pair for pair in qwen_gpu.CONVERSIONS if pair[0].name in carried))
    write_plugin()
    sh(f"ls -la {qwen_gpu.QWEN} {MODELS}")


def drafter(step: str) -> None:
    """One step of gpu/drafter_train.py, on the carried vLLM and speculators."""
    arg = str(CONFIGS) if step == "prompts" else ""
    env = {**site_env(), "PYTHONPATH": f"{CARRY / 'site'}:{SRC}"}
    if subprocess.call([sys.executable, str(SRC / "gpu/drafter_train.py"), f"{step}:{arg}" if arg else step],
                       env=env, cwd=SRC):
        raise SystemExit(f"drafter {step}: failed (its output is above)")


def wheels() -> None:
    """Install extra wheels carried in .gpu/wheels (a dependency found missing on the device) over the carry."""
    found = sorted(REPO.glob(".gpu/wheels/*.whl"))
    if found and subprocess.call([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--no-compile",
                                  "--upgrade", "--target", str(CARRY / "site"), *map(str, found)]):
        raise SystemExit("wheels: pip install failed")
    print(f"wheels: installed {len(found)}", flush=True)


def load_arm(arm_id: str) -> dict:
    cfg_name, _ = ARMS[arm_id]
    cfg = tomllib.loads((CONFIGS / cfg_name).read_text())
    return next(a for a in cfg["arms"] if a["id"] == arm_id)


def server(server_id: str) -> tuple[dict, Path]:
    """The arm whose flags start this server, and the model folder (or file) it serves."""
    server_id, _, start = server_id.partition("=")
    if server_id in ladder27.SERVERS:
        return ladder27.server_arm(server_id, float(start) if start else None), MODELS / ladder27.SERVERS[server_id][1]
    if server_id in qwen_gpu.SERVERS:
        return qwen_gpu.arm(server_id), qwen_gpu.SERVERS[server_id][1]
    if server_id in qwen_gpu.TRAINED:
        return qwen_gpu.trained_arm(server_id), qwen_gpu.TARGET_BF16
    if server_id in sizes.SERVERS:
        return sizes.server_arm(server_id), sizes.target_folder(sizes.SERVERS[server_id][1])
    return load_arm(server_id), ARMS[server_id][1]


def served_names(arm: dict, configs: Path | None = None) -> list[str]:
    """The arm's model name, then every other model name that any config's arms request at its endpoint."""
    names = [arm["model"]]
    for path in sorted((configs or CONFIGS).glob("*.toml")):
        for other in tomllib.loads(path.read_text()).get("arms", []):
            if other.get("endpoint") == arm["endpoint"] and other["model"] not in names:
                names.append(other["model"])
    return names


def server_command(arm: dict, model: Path, names: list[str] | None = None) -> tuple[list[str], dict[str, str]]:
    """The vLLM command line and extra environment for a server, from its arm's flags."""
    port = arm["endpoint"].rsplit(":", 1)[1].split("/")[0]
    cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model),
           "--served-model-name", *(names or [arm["model"]]), "--host", "127.0.0.1", "--port", port]
    if model.suffix == ".gguf" and "tokenizer" not in arm.get("flags", {}):
        cmd += ["--tokenizer", str(SMOL)]
    env = {}
    for key, value in arm.get("flags", {}).items():
        if key in DESCRIPTIVE:
            continue
        if key.isupper():
            env[key] = str(value)
        elif value is True:
            cmd.append(f"--{key.replace('_', '-')}")
        elif value is not False and value is not None:
            cmd += [f"--{key.replace('_', '-')}", json.dumps(value) if isinstance(value, dict) else str(value)]
    return cmd, env


def serve(arm_ids: list[str], timeout: float = 420) -> list[str]:
    """Start the arms at once and wait for each /health; an arm whose process dies is reported, not waited for."""
    import httpx

    LOGS.mkdir(parents=True, exist_ok=True)
    write_plugin()
    procs = {}
    for arm_id in arm_ids:
        arm, model = server(arm_id)
        cmd, env = server_command(arm, model, served_names(arm))
        log = open(LOGS / f"{arm_id}.log", "w")
        print(f"serve {arm_id}: {' '.join(cmd)} {env}", flush=True)
        procs[arm_id] = (subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env={**site_env(), **env},
                                          start_new_session=True), arm["endpoint"])
        (LOGS / f"{arm_id}.pid").write_text(str(procs[arm_id][0].pid))
    t0, up, down = time.monotonic(), [], []
    waiting = dict(procs)
    while waiting and time.monotonic() - t0 < timeout:
        for arm_id, (proc, endpoint) in list(waiting.items()):
            if proc.poll() is not None:
                down.append(arm_id)
                del waiting[arm_id]
                print(f"serve {arm_id}: EXITED {proc.returncode} after {time.monotonic() - t0:.0f} s; log tail:\n"
                      + (LOGS / f"{arm_id}.log").read_text(errors="replace")[-3000:], flush=True)
                continue
            try:
                if httpx.get(f"{endpoint}/health", timeout=2).status_code == 200:
                    up.append(arm_id)
                    del waiting[arm_id]
                    print(f"serve {arm_id}: ready after {time.monotonic() - t0:.0f} s", flush=True)
            except httpx.HTTPError:
                pass
        time.sleep(1)
    for arm_id in waiting:
        print(f"serve {arm_id}: not ready after {timeout:.0f} s; stopping it (it would load the GPU while others "
              "are recorded)", flush=True)
    if waiting:
        stop(list(waiting))
    (LOGS / "up.txt").write_text("\n".join(sorted(set(_up()) | set(up))))
    return up


def _up() -> list[str]:
    f = LOGS / "up.txt"
    return f.read_text().split() if f.exists() else []


def stop(arm_ids: list[str]) -> None:
    for arm_id in arm_ids or [p.stem for p in LOGS.glob("*.pid")]:
        pid_file = LOGS / f"{arm_id}.pid"
        if not pid_file.exists():
            continue
        pid = int(pid_file.read_text())
        try:
            os.killpg(pid, signal.SIGTERM)
            for _ in range(30):
                if _reaped(pid):
                    break
                time.sleep(0.5)
            else:
                os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        pid_file.unlink()
        print(f"stopped {arm_id}", flush=True)
    (LOGS / "up.txt").write_text("\n".join(a for a in _up() if arm_ids and a not in arm_ids))


def _reaped(pid: int) -> bool:
    """True once the process is gone (reaping it when it is this process's child)."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return True
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
        return False
    except ProcessLookupError:
        return True


def drop_arms(text: str, drop: set[str]) -> str:
    """The config text without the [[arms]] tables (and their sub-tables) whose id is in drop."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines(keepends=True):
        head = line.strip()
        if head.startswith("[") and not head.startswith("[arms."):
            blocks.append([])
        blocks[-1].append(line)
    keep = [b for b in blocks if not (b[0].strip() == "[[arms]]"
                                      and tomllib.loads("".join(b[1:])).get("id") in drop)]
    return "".join(line for b in keep for line in b)


def update_header(path: Path, change) -> None:
    """Apply change(header) to a recording's header (line 1), replacing the file atomically."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    change(header)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(header, ensure_ascii=False) + "\n" + "".join(lines[1:]), encoding="utf-8")
    os.replace(tmp, path)


def mark_timing_only(path: Path) -> None:
    update_header(path, lambda h: h.update(timing_only=True))


def record(mode: str, config: str, out_name: str | None, only: set[str] | None = None) -> None:
    """Record with the arms of CONFIG (or those of them in `only`) whose server is up; the effective config keeps
    CONFIG's file name."""
    text = (CONFIGS / config).read_text()
    cfg = tomllib.loads(text)
    endpoints = {server(s)[0]["endpoint"] for s in _up()}
    missing = {a["id"] for a in cfg["arms"] if a["endpoint"] not in endpoints or (only and a["id"] not in only)}
    if missing == {a["id"] for a in cfg["arms"]}:
        print(f"{mode} {config}: skipped, no arm is up", flush=True)
        return
    if missing:
        print(f"{mode} {config}: leaving out arms that are not up: {', '.join(sorted(missing))}", flush=True)
    effective = EFFECTIVE / config
    effective.parent.mkdir(parents=True, exist_ok=True)
    effective.write_text(drop_arms(text, missing).replace(qwen_gpu.HEAD_SHA256, head_sha256()))
    RECORDINGS.mkdir(parents=True, exist_ok=True)
    OUT.mkdir(parents=True, exist_ok=True)
    out = RECORDINGS / (out_name or Path(cfg["record"]["output"]).name)
    t = time.monotonic()
    # cwd=SRC: `python -m` puts the working directory first on sys.path, and the checkout's own specreplay/ there
    # would win over the snapshot in SRC (it did on 2026-12-01: docs/gpu.md, "machine.accelerator")
    rc = sh(f"{sys.executable} -m recorder {mode} {effective} -o {out} --no-progress", OUT / "recorder.log", cwd=SRC)
    print(f"{mode} {config}: rc={rc} in {time.monotonic() - t:.0f} s -> {out}", flush=True)
    if out.exists():
        if cfg.get("timing_only"):
            mark_timing_only(out)
        shutil.copy(out, OUT / out.name)


def head_sha256() -> str:
    """The trained head's digest (gpu/drafter_train.py export), for the configs that name it."""
    f = drafter_train.HEAD / "sha256.txt"
    return f.read_text().split()[0] if f.exists() else "not trained on this machine"


def spec_counters(metrics_text: str) -> tuple[float, float]:
    """(drafts, accepted tokens) summed over vLLM's /metrics lines."""
    drafts = accepted = 0.0
    for line in metrics_text.splitlines():
        if line.startswith("vllm:spec_decode_num_drafts_total"):
            drafts += float(line.rsplit(" ", 1)[1])
        elif line.startswith("vllm:spec_decode_num_accepted_tokens_total"):
            accepted += float(line.rsplit(" ", 1)[1])
    return drafts, accepted


def probe(server_ids: list[str], tokens: int = 64) -> None:
    """Does the drafter run, and does each NAME@L run at L? One request per name, counters before and after."""
    import httpx

    for server_id in server_ids:
        arm, _ = server(server_id)
        if server_id not in _up():
            print(f"probe {server_id}: not up", flush=True)
            continue
        for name in [n for n in served_names(arm) if "@" in n]:
            before = spec_counters(httpx.get(f"{arm['endpoint']}/metrics", timeout=10).text)
            t = time.monotonic()
            r = httpx.post(f"{arm['endpoint']}/v1/completions", timeout=120, json={
                "model": name, "prompt": "Once upon a time", "max_tokens": tokens, "temperature": 0,
                "ignore_eos": True})
            wall = time.monotonic() - t
            after = spec_counters(httpx.get(f"{arm['endpoint']}/metrics", timeout=10).text)
            drafts = after[0] - before[0]
            spec = SpecCounts(drafts=round(drafts), draft_tokens=0, accepted=round(after[1] - before[1]))
            length = spec.acceptance_length or float("nan")
            asked = float(name.rsplit("@", 1)[1])
            print(f"probe {server_id} {name}: HTTP {r.status_code}, drafts {drafts:.0f}, acceptance length "
                  f"{length:.2f} (asked {asked:g}), {tokens / wall:.0f} tok/s with prefill", flush=True)
            if not abs(length - asked) <= 0.4:  # nan too: the drafter did not run
                raise SystemExit(f"probe {server_id}: {name} ran at acceptance {length:.2f}, not {asked:g}; "
                                 "not recording arms that would be mislabelled")
        if arm.get("flags", {}).get(draft_graphs.ENV) == "1":
            check_draft_graphs(server_id)


def draft_graph_counts(log_text: str) -> tuple[int, int] | None:
    """(drafter passes, passes that replayed a CUDA graph) from gpu/draft_graphs.py's last count line, if any."""
    lines = [ln for ln in log_text.splitlines() if draft_graphs.LOG in ln and "drafter passes" in ln]
    if not lines:
        return None
    words = lines[-1].split(draft_graphs.LOG, 1)[1].split()
    return int(words[0]), int(words[3])


def check_draft_graphs(server_id: str) -> None:
    """A patched draft-model server must replay CUDA graphs for most drafter passes, or its arms are not what
    their header says."""
    counts = draft_graph_counts((LOGS / f"{server_id}.log").read_text(errors="replace"))
    print(f"probe {server_id}: draft graphs {counts}", flush=True)
    # start-up's ~100 capture and profiling passes run without graphs by design: judge a count past them
    if counts is None or counts[0] < draft_graphs.EVERY or counts[1] * 2 < counts[0]:
        raise SystemExit(f"probe {server_id}: the draft model's passes did not replay CUDA graphs ({counts}); "
                         "the patch did not take: not recording")


def logs() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "servers.log", "w") as fh:
        for log in sorted(LOGS.glob("*.log")):
            # the server's own lines (start-up, weights, kernels, errors), not uvicorn's one line per request
            lines = [ln for ln in log.read_text(errors="replace").splitlines() if '"POST /v1/' not in ln
                     and '"GET /' not in ln]
            switches = [ln for ln in lines if "synthetic switch" in ln]
            fh.write(f"===== {log.name}\n" + "\n".join(switches[-40:]) + "\n" + "\n".join(lines)[-12000:] + "\n")


def main(argv: list[str]) -> int:
    os.environ.update({k: v for k, v in site_env().items() if k != "PYTHONPATH"})
    # the recorder runs on the image's packages, ours, and the httpx/httpcore it was tested with
    os.environ["PYTHONPATH"] = f"{SRC}:{SRC / 'recdeps'}"
    for step in argv:
        name, _, arg = step.partition(":")
        print(f"===== {step} ({time.strftime('%H:%M:%S')})", flush=True)
        if name == "info":
            info()
        elif name == "stage":
            stage()
        elif name == "setup":
            setup()
        elif name == "setup-qwen":
            setup_qwen()
        elif name == "serve":
            arms, _, timeout = arg.partition("@")
            serve(arms.split(","), float(timeout or 420))
        elif name == "probe":
            probe(arg.split(","))
        elif name == "drafter":
            drafter(arg)
        elif name == "wheels":
            wheels()
        elif name in ("record", "sweep"):
            config, _, rest = arg.partition(":")
            out_name, _, only = rest.partition(":")
            record(name, config, out_name or None, set(only.split(",")) if only else None)
        elif name == "stop":
            stop([a for a in arg.split(",") if a])
        elif name == "logs":
            logs()
        else:
            raise SystemExit(f"device.py: unknown step {step!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
