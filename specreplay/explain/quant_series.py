"""4-bit ÷ 16-bit along concurrency from our own sweeps, as axis Series beside article 002's H200 table:
the timing-only H200 sweep (system throughput ÷ bf16, dummy weights), and the real Qwen2.5-Coder-1.5B's Q4_K_M
÷ its 16-bit copy (the same model's values in both files) from the llama.cpp CPU sweep and the vLLM H200 one."""

from __future__ import annotations

from pathlib import Path

from specreplay.explain.axis_series import Series
from specreplay.explain.derived import ratio
from specreplay.explain.sweeps import level_table
from specreplay.explain.timing_sweep import quant_curves
from specreplay.recording.format import Recording

Q4, F16, BF16 = "q4", "f16", "bf16"


def _series(key: str, label: str, points: dict[int, float | None], source: str, metric: str, family: str,
            conditions: dict[str, str]) -> Series:
    return Series(key=key, label=label, label_en=label, kind="measured", source=source, section="", unit="×",
                  axis="concurrency", points=tuple(sorted(points.items())), conditions=conditions, metric=metric,
                  family=family, short=label)


def timing_series(rec: Recording) -> list[Series]:
    """Each quantized arm of the timing-only H200 sweep: system tok/s ÷ bf16's per level."""
    where = {"engine": "vLLM", "machine": rec.machine_line, "date": rec.header.date}
    return [_series(f"timing/{c.arm}", f"{c.label} ÷ bf16 · H200", c.points, Path(rec.path).name, "throughput", "gpu",
                    where) for c in quant_curves(rec)]


def llamacpp_series(rec: Recording, name: str) -> list[Series]:
    """Q4_K_M ÷ F16 per level of the llama.cpp sweep, system throughput and median per-request decode."""
    return _q4_series(rec, name, F16, "llamacpp", "Q4_K_M ÷ F16 · llama.cpp CPU", "llama.cpp", "cpu")


def h200_series(rec: Recording, name: str) -> list[Series]:
    """Q4_K_M ÷ bf16 per level of the Qwen H200 sweep (vLLM's GGUF kernels against the dequantized bf16 copy)."""
    return _q4_series(rec, name, BF16, "qwen-h200", "Q4_K_M ÷ bf16 · Qwen 1.5B · vLLM H200", "vLLM", "gpu")


def _q4_series(rec: Recording, name: str, base: str, key: str, label: str, engine: str, family: str) -> list[Series]:
    stats = {(s.arm, s.concurrency): s for s in level_table(rec) if s.mix is None}
    levels = sorted({lv for (a, lv) in stats if a == Q4} & {lv for (a, lv) in stats if a == base})
    if not levels:
        return []
    where = {"engine": engine, "machine": rec.machine_line, "date": rec.header.date}
    out = []
    for metric in ("throughput", "decode"):
        pts: dict[int, float | None] = {}
        for lv in levels:
            a, b = stats[(Q4, lv)], stats[(base, lv)]
            x, y = (a.throughput, b.throughput) if metric == "throughput" else (a.decode_median, b.decode_median)
            pts[lv] = None if (r := ratio(x, y)) is None else round(r, 2)
        out.append(_series(f"{key}/{metric}", label, pts, name, metric, family, where))
    return out
