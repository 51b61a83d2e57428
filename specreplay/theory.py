"""Formulas behind the explainer pages: speculative-decoding gain, cost per token, KV-cache budget.

Speculative decoding follows Leviathan et al. 2023 ("Fast Inference from
Transformers via Speculative Decoding"): α is the chance one draft token is
accepted, γ the draft length, c the draft/verify time ratio (ĉ, the same ratio
in compute, is taken equal to c, as article 004 does).
"""

from __future__ import annotations

GIB = 1024**3
KV_DTYPE_BYTES = {"fp32": 4.0, "bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "fp4": 0.5}


def _check_draft(alpha: float, gamma: int) -> None:
    if not 0 <= alpha <= 1:
        raise ValueError(f"acceptance rate α must be between 0 and 1, got {alpha}")
    if gamma < 1 or int(gamma) != gamma:
        raise ValueError(f"draft length γ must be a whole number ≥ 1, got {gamma}")


def _check_cost_ratio(c: float) -> None:
    if c < 0:
        raise ValueError(f"draft/verify cost ratio c must be ≥ 0, got {c}")


def expected_tokens(alpha: float, gamma: int) -> float:
    """E[τ]: tokens per verification step = (1 − α^(γ+1)) / (1 − α); γ + 1 when every draft is accepted."""
    _check_draft(alpha, gamma)
    if alpha == 1:
        return float(gamma + 1)
    return (1 - alpha ** (gamma + 1)) / (1 - alpha)


def speedup(alpha: float, gamma: int, c: float) -> float:
    """Wall-time speedup over plain decoding (theorem 3.8): E[τ] / (1 + γc)."""
    _check_cost_ratio(c)
    return expected_tokens(alpha, gamma) / (1 + gamma * c)


def implied_alpha(acceptance_length: float, gamma: int) -> float:
    """The α at which E[τ] equals a measured mean acceptance length for draft length γ (inverse of expected_tokens).

    E[τ] rises strictly from 1 (α = 0) to γ + 1 (α = 1), so bisection finds the one root; lengths at or
    outside those ends give 0 or 1.
    """
    _check_draft(0.0, gamma)
    if acceptance_length <= 1:
        return 0.0
    if acceptance_length >= gamma + 1:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(60):  # 2^-60: far below any displayed digit
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if expected_tokens(mid, gamma) < acceptance_length else (lo, mid)
    return (lo + hi) / 2


def cost_ratio_from_step(step_ratio: float, gamma: int) -> float:
    """c from measured times: a speculative step takes step_ratio plain steps = 1 + γc, so c = (step_ratio − 1) / γ.

    It lumps drafting and the extra cost of verifying γ + 1 positions at once (the formula's ideal: no extra
    cost) into one number; negative when a speculative step was measured faster than a plain one.
    """
    _check_draft(0.0, gamma)
    return (step_ratio - 1) / gamma


def compute_overhead(alpha: float, gamma: int, c: float) -> float:
    """Total compute relative to plain decoding (theorem 3.11): (1 − α)(γc + γ + 1) / (1 − α^(γ+1)).

    Every step runs γ drafts (γc) and verifies γ + 1 positions, but yields only E[τ] tokens.
    """
    _check_cost_ratio(c)
    return (gamma * c + gamma + 1) / expected_tokens(alpha, gamma)


def cost_per_million(usd_per_hour: float, tok_s: float) -> float:
    """USD per 1M output tokens = $/h × 1,000,000 / (3,600 × tok/s)."""
    if usd_per_hour < 0:
        raise ValueError(f"price per hour must be ≥ 0, got {usd_per_hour}")
    if tok_s <= 0:
        raise ValueError(f"tokens per second must be > 0, got {tok_s}")
    return usd_per_hour * 1_000_000 / (3600 * tok_s)


def seconds_per_answer(tokens: int, tok_s: float) -> float:
    """Decode time of an answer of `tokens` tokens at a steady tok/s (prefill and TTFT not included)."""
    if tokens <= 0:
        raise ValueError(f"answer length must be > 0 tokens, got {tokens}")
    if tok_s <= 0:
        raise ValueError(f"tokens per second must be > 0, got {tok_s}")
    return tokens / tok_s


def kv_bytes_per_token(layers: int, kv_heads: int, head_dim: int, bytes_per_value: float) -> float:
    """KV-cache bytes one token occupies: 2 (K and V) × layers × KV heads × head dim × bytes."""
    for name, v in (("layers", layers), ("KV heads", kv_heads), ("head dim", head_dim),
                    ("bytes per value", bytes_per_value)):
        if v <= 0:
            raise ValueError(f"{name} must be > 0, got {v}")
    return 2 * layers * kv_heads * head_dim * bytes_per_value


def tokens_fitting(budget_bytes: float, bytes_per_token: float) -> float:
    """How many tokens of KV cache fit in a memory budget."""
    if budget_bytes < 0:
        raise ValueError(f"memory budget must be ≥ 0, got {budget_bytes}")
    if bytes_per_token <= 0:
        raise ValueError(f"KV bytes per token must be > 0, got {bytes_per_token}")
    return budget_bytes / bytes_per_token


def sessions_fitting(budget_bytes: float, context_tokens: int, bytes_per_token: float,
                     reserved_fraction: float = 0.0) -> float:
    """Concurrent sessions of `context_tokens` each whose KV cache fits the budget.

    Fractional, as article 001 states 6.7. reserved_fraction is the share of the pool something
    else takes (001 measured a drafter taking about 36 %).
    """
    if context_tokens <= 0:
        raise ValueError(f"context length must be > 0 tokens, got {context_tokens}")
    if not 0 <= reserved_fraction < 1:
        raise ValueError(f"reserved share of the KV pool must be in [0, 1), got {reserved_fraction}")
    return tokens_fitting(budget_bytes * (1 - reserved_fraction), bytes_per_token) / context_tokens

