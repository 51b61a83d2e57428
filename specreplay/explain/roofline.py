"""Roofline maths for one linear layer, and the measured file bench/roofline.py writes.

No torch here: the page and the tests use these plain functions on numbers and on the JSON.

    I(B) ≈ 2B / b_w                  FLOP per byte of weight read, for B rows through a d_in × d_out layer
    ridge = peak FLOP/s / bandwidth   below it a layer waits on memory, above it on arithmetic
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from specreplay import resources
from specreplay.explain.derived import first_below

ASSETS = resources.ASSETS
MEASURED_FILE = ASSETS / "roofline_h200.json"

# Bytes per weight. int4 ignores its group scales and zeros (2 bf16 per 128 weights: +0.03 byte).
BYTES_PER_WEIGHT = {"bf16": 2.0, "int4": 0.5, "fp8": 1.0}
# Which measured peak bounds each format's arithmetic: W4A16 dequantizes to bf16 and multiplies in bf16.
PEAK_KEY = {"bf16": "bf16_matmul_flops_per_s", "int4": "bf16_matmul_flops_per_s", "fp8": "fp8_matmul_flops_per_s"}


def intensity(batch: float, bytes_per_weight: float) -> float:
    """Approximate arithmetic intensity 2B/b_w (FLOP/byte): activations' bytes neglected, d_in, d_out ≫ B."""
    return 2 * batch / bytes_per_weight


def intensity_exact(batch: float, d_in: int, d_out: int, bytes_per_weight: float, bytes_per_act: float = 2.0) -> float:
    """2·B·d_in·d_out FLOPs over the weight bytes plus the input and output activation bytes."""
    flops = 2 * batch * d_in * d_out
    moved = d_in * d_out * bytes_per_weight + batch * (d_in + d_out) * bytes_per_act
    return flops / moved


def ridge_point(peak_flops: float, bandwidth: float) -> float:
    """FLOP/byte at which a kernel turns from memory-bound to compute-bound."""
    return peak_flops / bandwidth


def ridge_batch(ridge: float, bytes_per_weight: float) -> float:
    """The batch at which I(B) = 2B/b_w reaches the ridge: B = ridge · b_w / 2."""
    return ridge * bytes_per_weight / 2


def roofline_time(batch: float, d_in: int, d_out: int, bytes_per_weight: float, peak_flops: float,
                  bandwidth: float, bytes_per_act: float = 2.0) -> float:
    """Seconds an ideal kernel needs: the slower of moving the bytes and doing the FLOPs."""
    moved = d_in * d_out * bytes_per_weight + batch * (d_in + d_out) * bytes_per_act
    return max(moved / bandwidth, 2 * batch * d_in * d_out / peak_flops)


def ideal_speedup(batch: float, d_in: int, d_out: int, fmt: str, peaks: dict[str, float], bandwidth: float) -> float:
    """BF16's roofline time over the format's: what a perfect kernel would gain. It never drops below 1
    for int4 (same arithmetic, fewer bytes); it only fades to 1 once both are compute-bound."""
    bf16 = roofline_time(batch, d_in, d_out, BYTES_PER_WEIGHT["bf16"], peaks["bf16"], bandwidth)
    return bf16 / roofline_time(batch, d_in, d_out, BYTES_PER_WEIGHT[fmt], peaks[fmt], bandwidth)


# ---------- the measured file ----------

@dataclass(frozen=True)
class LayerShape:
    name: str
    model: str
    layer: str
    k: int  # d_in
    n: int  # d_out


@lru_cache(maxsize=4)
def load_measured(path: Path = MEASURED_FILE) -> dict:
    return json.loads(Path(path).read_text())


def shapes(data: dict) -> list[LayerShape]:
    return [LayerShape(**s) for s in data["shapes"]]


def median_us(data: dict, shape: str, kernel: str) -> dict[int, float]:
    """Batch → median microseconds for one (shape, kernel)."""
    return {r["m"]: r["median_us"] for r in data["results"] if r["shape"] == shape and r["kernel"] == kernel}


def speedup(data: dict, shape: str, kernel: str) -> dict[int, float]:
    """Batch → BF16 time / kernel time (above 1: the kernel is faster), at batches both were timed."""
    base, other = median_us(data, shape, "bf16"), median_us(data, shape, kernel)
    return {m: base[m] / other[m] for m in sorted(base.keys() & other.keys())}


def measured_ridge(data: dict, fmt: str) -> float:
    """Our ridge point for a weight format, from our measured peak and copy bandwidth."""
    c = data["ceilings"]
    return ridge_point(c[PEAK_KEY[fmt]], c["copy_bandwidth_bytes_per_s"])


def measured_peaks(data: dict) -> dict[str, float]:
    """Format → the measured FLOP/s ceiling its arithmetic runs on."""
    return {fmt: data["ceilings"][key] for fmt, key in PEAK_KEY.items()}


def crossings(data: dict, kernel: str = "int4") -> dict[str, int | None]:
    """Shape name → first measured batch where the kernel is slower than BF16."""
    return {s.name: first_below(speedup(data, s.name, kernel)) for s in shapes(data)}
