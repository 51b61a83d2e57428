"""Measure the roofline ceilings and decoder-sized linear layers in BF16, int4 weight-only and FP8.

On a CUDA GPU (the committed file came from an H200):
    python3 bench/roofline.py --out assets/roofline_h200.json
In CI, without a GPU, the same code path on tiny shapes (a few seconds):
    python bench/roofline.py --cpu-dry-run

Every kernel's output is checked against a float reference before it is timed; a kernel that fails
its check is not timed. Timings are medians of CUDA-event intervals, each preceded by an L2 flush,
with activations rotated from a set of fresh random tensors, so neither weights nor inputs sit in cache.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

GROUP_SIZE = 128
INNER_K_TILES = 8
FP8 = torch.float8_e4m3fn
FP8_MAX = 448.0
BATCHES = [1, 2, 4, 8, 16, 32, 64, 128, 256]
DRY_BATCHES = [1, 4, 16]
# Relative Frobenius error allowed against the float reference of the ORIGINAL weights (quantization error
# included), and against the reference built from the kernel's own dequantized operands (kernel arithmetic only).
THRESHOLDS = {"bf16": (0.01, 0.01), "int4": (0.20, 0.02), "fp8": (0.10, 0.02)}


@dataclass(frozen=True)
class Shape:
    name: str
    model: str
    layer: str
    k: int  # d_in
    n: int  # d_out


SHAPES = [
    Shape("8b_qkv", "Llama-3.1-8B", "qkv", 4096, 6144),
    Shape("8b_o", "Llama-3.1-8B", "o", 4096, 4096),
    Shape("8b_up", "Llama-3.1-8B", "up (= gate)", 4096, 14336),
    Shape("8b_down", "Llama-3.1-8B", "down", 14336, 4096),
    Shape("70b_qkv", "Llama-3.1-70B", "qkv", 8192, 10240),
    Shape("70b_o", "Llama-3.1-70B", "o", 8192, 8192),
    Shape("70b_up", "Llama-3.1-70B", "up (= gate)", 8192, 28672),
    Shape("70b_down", "Llama-3.1-70B", "down", 28672, 8192),
]
DRY_SHAPES = [Shape("tiny_up", "tiny", "up", 256, 512), Shape("tiny_down", "tiny", "down", 512, 256)]


@dataclass
class Settings:
    device: str
    batches: list[int]
    shapes: list[Shape]
    warmup: int
    iters: int
    flush_bytes: int
    rotate: int
    peak_dim: int
    copy_bytes: int


def gpu_settings(iters: int) -> Settings:
    # 512 MB flush buffer: several times the H200's 60 MB L2.
    return Settings("cuda", BATCHES, SHAPES, warmup=10, iters=iters, flush_bytes=512 << 20, rotate=8,
                    peak_dim=8192, copy_bytes=4 << 30)


def dry_settings() -> Settings:
    return Settings("cpu", DRY_BATCHES, DRY_SHAPES, warmup=1, iters=3, flush_bytes=1 << 20, rotate=2,
                    peak_dim=256, copy_bytes=16 << 20)


# ---------- timing ----------

class Timer:
    """Median seconds of `op`, each run preceded by an L2 flush; CUDA events on a GPU, perf_counter on CPU."""

    def __init__(self, s: Settings) -> None:
        self.s = s
        self.flush_buf = torch.empty(s.flush_bytes // 4, dtype=torch.int32, device=s.device)

    def samples(self, op: Callable[[int], object]) -> list[float]:
        for i in range(self.s.warmup):
            op(i)
        if self.s.device == "cuda":
            return self._cuda(op)
        out = []
        for i in range(self.s.iters):
            self.flush_buf.zero_()
            t0 = time.perf_counter()
            op(i)
            out.append(time.perf_counter() - t0)
        return out

    def _cuda(self, op: Callable[[int], object]) -> list[float]:
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(self.s.iters)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(self.s.iters)]
        torch.cuda.synchronize()
        for i in range(self.s.iters):
            self.flush_buf.zero_()
            starts[i].record()
            op(i)
            ends[i].record()
        torch.cuda.synchronize()
        return [a.elapsed_time(b) / 1e3 for a, b in zip(starts, ends)]


def summary(samples: list[float]) -> dict[str, float]:
    q = statistics.quantiles(samples, n=10) if len(samples) >= 2 else [samples[0]] * 9
    return {"median_us": statistics.median(samples) * 1e6, "p10_us": q[0] * 1e6, "p90_us": q[-1] * 1e6,
            "iters": len(samples)}


# ---------- quantization (the layouts PyTorch's kernels expect) ----------

def quantize_int4(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Asymmetric group-wise int4 in tinygemm's convention: w ≈ (q - 8) * scale + zero, per 128-wide group.

    Returns (q as int32 [N, K] in 0..15, scales [N, G], zeros [N, G]).
    """
    n, k = w.shape
    g = w.float().reshape(n, k // GROUP_SIZE, GROUP_SIZE)
    lo, hi = g.amin(dim=2), g.amax(dim=2)
    scale = (hi - lo).clamp(min=1e-6) / 15
    zero = lo + scale * 8
    q = ((g - lo.unsqueeze(2)) / scale.unsqueeze(2)).round().clamp(0, 15).to(torch.int32)
    return q.reshape(n, k), scale.to(torch.bfloat16), zero.to(torch.bfloat16)


def dequantize_int4(q: torch.Tensor, scale: torch.Tensor, zero: torch.Tensor) -> torch.Tensor:
    n, k = q.shape
    g = (q.reshape(n, k // GROUP_SIZE, GROUP_SIZE).float() - 8) * scale.float().unsqueeze(2) + zero.float().unsqueeze(2)
    return g.reshape(n, k)


def pack_int4(q: torch.Tensor, scale: torch.Tensor, zero: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Weight and scale/zero tensors in the layout of `_weight_int4pack_mm` (CUDA) or its `_for_cpu` twin."""
    if q.is_cuda:  # the CUDA packer takes two nibbles per uint8, high nibble first
        packed = torch.ops.aten._convert_weight_to_int4pack((q[:, ::2] << 4 | q[:, 1::2]).to(torch.uint8), INNER_K_TILES)
    else:  # the CPU packer takes the unpacked int32 values
        packed = torch.ops.aten._convert_weight_to_int4pack_for_cpu(q, INNER_K_TILES)
    scales_zeros = torch.stack([scale, zero], dim=2).transpose(0, 1).contiguous()  # [G, N, 2]
    return packed, scales_zeros


def int4_mm(x: torch.Tensor, packed: torch.Tensor, scales_zeros: torch.Tensor) -> torch.Tensor:
    if x.is_cuda:
        return torch.ops.aten._weight_int4pack_mm(x, packed, GROUP_SIZE, scales_zeros)
    return torch.ops.aten._weight_int4pack_mm_for_cpu(x, packed, GROUP_SIZE, scales_zeros)


def quantize_fp8_rows(t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Row-wise e4m3: one float32 scale per row (per token for activations, per output channel for weights)."""
    scale = t.float().abs().amax(dim=1, keepdim=True).clamp(min=1e-12) / FP8_MAX
    return (t.float() / scale).clamp(-FP8_MAX, FP8_MAX).to(FP8), scale


def fp8_mm(x8: torch.Tensor, sx: torch.Tensor, w8: torch.Tensor, sw_row: torch.Tensor) -> torch.Tensor:
    # w8 is [N, K] row-major, so w8.t() is the column-major [K, N] operand cuBLASLt wants.
    return torch._scaled_mm(x8, w8.t(), scale_a=sx, scale_b=sw_row, out_dtype=torch.bfloat16, use_fast_accum=True)


# ---------- one layer shape ----------

def rel_err(y: torch.Tensor, ref: torch.Tensor) -> float:
    return ((y.float() - ref).norm() / ref.norm()).item()


def _same(x: torch.Tensor) -> torch.Tensor:
    return x


@dataclass
class Kernel:
    name: str
    make: Callable[[torch.Tensor], Callable]  # weight -> (prepared input -> y)
    reference: Callable[[torch.Tensor], Callable[[torch.Tensor], torch.Tensor]]  # weight -> exact maths of its operands
    prepare: Callable = _same  # bf16 activations -> what the kernel takes; runs outside the timed region


def bf16_kernel() -> Kernel:
    return Kernel("bf16",
                  make=lambda w: (lambda x: torch.nn.functional.linear(x, w)),
                  reference=lambda w: (lambda x: x.float() @ w.float().t()))


def int4_kernel() -> Kernel:
    def make(w: torch.Tensor) -> Callable[[torch.Tensor], torch.Tensor]:
        packed, sz = pack_int4(*quantize_int4(w))
        return lambda x: int4_mm(x, packed, sz)

    def reference(w: torch.Tensor) -> Callable[[torch.Tensor], torch.Tensor]:
        wd = dequantize_int4(*quantize_int4(w))
        return lambda x: x.float() @ wd.t()

    return Kernel("int4", make, reference)


def fp8_kernel() -> Kernel:
    # Activations are quantized in `prepare`, outside the timed region: the timing is the matmul kernel alone.
    def make(w: torch.Tensor) -> Callable[[tuple[torch.Tensor, torch.Tensor]], torch.Tensor]:
        w8, sw = quantize_fp8_rows(w)
        sw_row = sw.t().contiguous()  # [1, N]
        return lambda xq: fp8_mm(xq[0], xq[1], w8, sw_row)

    def reference(w: torch.Tensor) -> Callable[[torch.Tensor], torch.Tensor]:
        w8, sw = quantize_fp8_rows(w)
        wd = w8.float() * sw

        def ref(x: torch.Tensor) -> torch.Tensor:
            x8, sx = quantize_fp8_rows(x)
            return (x8.float() * sx) @ wd.t()
        return ref

    return Kernel("fp8", make, reference, prepare=quantize_fp8_rows)


KERNELS = [bf16_kernel(), int4_kernel(), fp8_kernel()]


def check(kernel: Kernel, w: torch.Tensor, x: torch.Tensor) -> dict:
    y = kernel.make(w)(kernel.prepare(x))
    vs_float = rel_err(y, x.float() @ w.float().t())
    vs_operands = rel_err(y, kernel.reference(w)(x))
    lim_float, lim_operands = THRESHOLDS[kernel.name]
    return {"kernel": kernel.name, "rel_err_vs_float": vs_float, "limit_vs_float": lim_float,
            "rel_err_vs_dequantized": vs_operands, "limit_vs_dequantized": lim_operands,
            "ok": vs_float <= lim_float and vs_operands <= lim_operands}


def runnable_rows(fn: Callable, kernel: Kernel, k: int, m: int, device: str) -> tuple[int, str]:
    """m itself, or m padded to a multiple of 16 where the kernel refuses m rows (the padding is then recorded)."""
    try:
        fn(kernel.prepare(torch.randn(m, k, device=device, dtype=torch.bfloat16)))
        return m, ""
    except RuntimeError as exc:
        padded = m + (-m % 16)
        fn(kernel.prepare(torch.randn(padded, k, device=device, dtype=torch.bfloat16)))
        return padded, f"padded to {padded} rows: {str(exc).splitlines()[0][:160]}"


def bench_shape(shape: Shape, kernels: list[Kernel], s: Settings, timer: Timer) -> tuple[list[dict], list[dict]]:
    """Check, then time, every kernel on one weight shape at every batch size."""
    w = torch.randn(shape.n, shape.k, device=s.device, dtype=torch.bfloat16) * 0.02
    checks, rows = [], []
    for kernel in kernels:
        result = check(kernel, w, torch.randn(16, shape.k, device=s.device, dtype=torch.bfloat16))
        checks.append({"shape": shape.name, **result})
        if not result["ok"]:
            print(f"  {shape.name} {kernel.name}: FAILED its check, not timed: {result}", flush=True)
            continue
        fn = kernel.make(w)
        for m in s.batches:
            m_run, note = runnable_rows(fn, kernel, shape.k, m, s.device)
            xs = [torch.randn(m_run, shape.k, device=s.device, dtype=torch.bfloat16) for _ in range(s.rotate)]
            args = [kernel.prepare(x) for x in xs]
            stats = summary(timer.samples(lambda i: fn(args[i % len(args)])))  # noqa: B023, F821 - called here, before the del
            rows.append({"shape": shape.name, "kernel": kernel.name, "m": m, "m_run": m_run, **stats,
                         **({"note": note} if note else {})})
        print(f"  {shape.name} {kernel.name}: ok, err {result['rel_err_vs_float']:.4f}", flush=True)
        del fn
    return checks, rows


# ---------- ceilings ----------

def ceilings(s: Settings, timer: Timer) -> dict:
    """Copy bandwidth (bytes read + written) and matmul FLOP/s on a square product, BF16 and FP8.

    A ceiling is what the chip can reach, so the roofline uses the fastest sample; the median is kept beside it
    because under sustained load the H200 hits its power cap and the median matmul rate wanders by ~10 %.
    """
    src = torch.empty(s.copy_bytes // 2, dtype=torch.bfloat16, device=s.device).normal_()
    dst = torch.empty_like(src)
    copy = timer.samples(lambda i: dst.copy_(src))  # noqa: F821 - called here, before the del
    del src, dst
    d = s.peak_dim
    a = torch.randn(d, d, device=s.device, dtype=torch.bfloat16)
    b = torch.randn(d, d, device=s.device, dtype=torch.bfloat16)
    bf16 = timer.samples(lambda i: a @ b)
    a8, b8 = a.to(FP8), b.t().contiguous().to(FP8)
    one = torch.tensor(1.0, device=s.device)
    fp8 = timer.samples(
        lambda i: torch._scaled_mm(a8, b8.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16, use_fast_accum=True))
    moved, flops = 2 * s.copy_bytes, 2 * d ** 3
    return {"copy_bandwidth_bytes_per_s": moved / min(copy), "copy_bandwidth_median_bytes_per_s": moved / statistics.median(copy),
            "bf16_matmul_flops_per_s": flops / min(bf16), "bf16_matmul_median_flops_per_s": flops / statistics.median(bf16),
            "fp8_matmul_flops_per_s": flops / min(fp8), "fp8_matmul_median_flops_per_s": flops / statistics.median(fp8),
            "copy_bytes": s.copy_bytes, "matmul_dim": d,
            "note": "fastest of the timed samples (median beside it); bandwidth counts bytes read plus bytes written; "
                    "matmuls are d×d×d on random data"}


def kernel_names(shape: Shape, kernels: list[Kernel], s: Settings) -> dict[str, dict[str, list[str]]]:
    """The device kernels each op launched at a small and a large batch (cuBLAS picks by shape)."""
    from torch.profiler import ProfilerActivity, profile

    activity = ProfilerActivity.CUDA if s.device == "cuda" else ProfilerActivity.CPU
    w = torch.randn(shape.n, shape.k, device=s.device, dtype=torch.bfloat16) * 0.02
    names: dict[str, dict[str, list[str]]] = {}
    for kernel in kernels:
        fn = kernel.make(w)
        names[kernel.name] = {}
        for m in (s.batches[0], s.batches[-1]):
            x = torch.randn(m, shape.k, device=s.device, dtype=torch.bfloat16)
            arg = kernel.prepare(x)
            fn(arg)
            with profile(activities=[activity], acc_events=True) as prof:
                fn(arg)
                if s.device == "cuda":
                    torch.cuda.synchronize()
            kind = "cuda" if s.device == "cuda" else "cpu"
            names[kernel.name][str(m)] = sorted({e.name for e in prof.events()
                                                 if e.device_type.name.lower() == kind and not e.name.startswith("cuda")})
    return names


# ---------- provenance ----------

def _cmd(args: list[str]) -> str:
    """The command's output, or "" when it is missing or fails (no git checkout on the GPU machine, say)."""
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def provenance(s: Settings, skipped: list[str]) -> dict:
    info = {"date_utc": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
            "host": socket.gethostname(), "python": platform.python_version(), "torch": torch.__version__,
            "device": s.device, "git_commit": _cmd(["git", "rev-parse", "HEAD"]) or None,
            "script_sha256": hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
            "kernels": {"bf16": "torch.nn.functional.linear (cuBLAS on a GPU)",
                        "int4": f"torch.ops.aten._weight_int4pack_mm{'' if s.device == 'cuda' else '_for_cpu'}, group size {GROUP_SIZE}, innerKTiles "
                                f"{INNER_K_TILES}, asymmetric (q-8)*scale+zero, bf16 activations (W4A16)",
                        "fp8": "torch._scaled_mm, e4m3 weights and activations, row-wise float32 scales "
                               "(per token × per output channel), use_fast_accum=True, bf16 output (W8A8); "
                               "activation quantization not timed"},
            "timing": {"warmup": s.warmup, "iters": s.iters, "statistic": "median",
                       "l2_flush_bytes_before_each_iter": s.flush_bytes, "activation_set": s.rotate,
                       "clock": "CUDA events" if s.device == "cuda" else "time.perf_counter"},
            "skipped": skipped}
    if s.device == "cuda":
        p = torch.cuda.get_device_properties(0)
        info |= {"gpu": p.name, "sm_count": p.multi_processor_count, "gpu_memory_bytes": p.total_memory,
                 "l2_cache_bytes": getattr(p, "L2_cache_size", None), "cuda": torch.version.cuda,
                 "cublas": torch._C._cuda_getCompiledVersion(),
                 "driver": _cmd(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"]) or None}
    return info


def usable_kernels(s: Settings) -> tuple[list[Kernel], list[str]]:
    """Kernels whose op exists here; the rest are named in `skipped` rather than silently dropped."""
    usable, skipped = [], []
    w = torch.randn(256, 256, device=s.device, dtype=torch.bfloat16)
    x = torch.randn(1, 256, device=s.device, dtype=torch.bfloat16)
    for kernel in KERNELS:
        try:
            kernel.make(w)(kernel.prepare(x))
            usable.append(kernel)
        except (RuntimeError, NotImplementedError) as exc:
            skipped.append(f"{kernel.name}: {str(exc).splitlines()[0][:200]}")
    return usable, skipped


def run(s: Settings, out: Path) -> dict:
    torch.manual_seed(0)
    kernels, skipped = usable_kernels(s)
    for line in skipped:
        print(f"skipped {line}", flush=True)
    timer = Timer(s)
    ceil = ceilings(s, timer)
    print(f"ceilings: {ceil}", flush=True)
    checks, rows = [], []
    for shape in s.shapes:
        c, r = bench_shape(shape, kernels, s, timer)
        checks += c
        rows += r
    data = {"provenance": provenance(s, skipped), "ceilings": ceil, "shapes": [asdict(x) for x in s.shapes],
            "checks": checks, "results": rows, "kernel_names": kernel_names(s.shapes[0], kernels, s)}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cpu-dry-run", action="store_true", help="tiny shapes on CPU: exercises the code path, no GPU")
    ap.add_argument("--out", type=Path, help="JSON to write (default: assets/roofline_h200.json on a GPU, "
                                             "a temp file for the dry run)")
    ap.add_argument("--iters", type=int, default=50, help="timed iterations per point on the GPU")
    a = ap.parse_args()
    if a.cpu_dry_run:
        s = dry_settings()
        out = a.out or Path("/tmp/roofline_dryrun.json")
    else:
        if not torch.cuda.is_available():
            sys.exit("no CUDA device: run with --cpu-dry-run to exercise the code path on CPU")
        s = gpu_settings(a.iters)
        out = a.out or Path(__file__).resolve().parent.parent / "assets" / "roofline_h200.json"
    started = time.perf_counter()
    data = run(s, out)
    bad = [c for c in data["checks"] if not c["ok"]]
    print(f"wrote {out}: {len(data['results'])} timings, {len(bad)} failed checks, "
          f"{len(data['provenance']['skipped'])} skipped kernels, {time.perf_counter() - started:.1f} s", flush=True)
    if bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
