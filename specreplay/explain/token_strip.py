"""A small HTML animation of simulated token streams: plain decoding vs speculative decoding.

Each chunk is one verification step (its last token is the target model's own, the rest accepted drafts).
Time is slowed so a step can be seen; the page says so. The speculative stream is drawn so that its tokens per
step equal the formula's E[τ] (expected_taus): what the reader sees race is the formula, not a seed's luck.
"""

from __future__ import annotations

import html
import math

from specreplay.palette import MARKS
from specreplay.recording.format import Event
from specreplay.replay.panes import SIM_TOKEN
from specreplay.theory import expected_tokens

_GOLDEN = (math.sqrt(5) - 1) / 2


def tau_distribution(alpha: float, gamma: int) -> list[float]:
    """P(a step yields k tokens), k = 1 … γ+1: drafts accepted one by one with probability α until the first
    rejection; every step adds the target model's own token. Its mean is E[τ] = (1 − α^(γ+1)) / (1 − α)."""
    return [alpha ** (k - 1) * (1 - alpha) for k in range(1, gamma + 1)] + [alpha ** gamma]


def expected_taus(alpha: float, gamma: int, tokens: int) -> list[int]:
    """Tokens per step for a stream of about `tokens` tokens whose mean is E[τ] (to within 0.5 ÷ steps).

    The number of steps yielding k tokens follows the distribution (largest remainders), then single steps move
    to a neighbouring k until the total is round(steps · E[τ]); the steps are put in a scattered order (ranks of
    a golden-ratio sequence) so the stream looks like a draw, not a sorted list.
    """
    e_tau = expected_tokens(alpha, gamma)
    steps = max(1, round((tokens - 1) / e_tau))
    p = tau_distribution(alpha, gamma)
    count = [math.floor(steps * q) for q in p]
    for k in sorted(range(len(p)), key=lambda k: steps * p[k] - count[k], reverse=True)[:steps - sum(count)]:
        count[k] += 1
    target = round(steps * e_tau)
    total = sum((k + 1) * n for k, n in enumerate(count))
    while total != target:
        up = total < target  # move one step from k tokens to k + 1 (or k − 1)
        movable = [k for k in range(len(p)) if count[k] and (k + 1 < len(p) if up else k > 0)]
        k = max(movable, key=lambda k: count[k] - steps * p[k])  # the count furthest above its expectation
        count[k] -= 1
        count[k + 1 if up else k - 1] += 1
        total += 1 if up else -1
    ordered = [k + 1 for k, n in enumerate(count) for _ in range(n)]
    ranks = sorted(range(steps), key=lambda i: (i * _GOLDEN) % 1)
    out = [0] * steps
    for rank, i in enumerate(ranks):
        out[i] = ordered[rank]
    return out


def stream(taus: list[int], step_s: float) -> list[Event]:
    """Events of a simulated stream: the first token at 0, then one chunk of `tau` tokens every `step_s`."""
    return [Event(0, 1, SIM_TOKEN)] + [Event(round(i * step_s * 1e6), n, SIM_TOKEN * n)
                                       for i, n in enumerate(taus, start=1)]


# The one palette (assets/palette.json): accepted draft tokens green, the big model's own token slate.
OWN, ACCEPTED, PLAIN = MARKS["token_own"], MARKS["token_accepted"], MARKS["token_plain"]


def _lane(title: str, events: list[Event], color_draft: str, color_own: str) -> str:
    spans = []
    for e in events:
        delay = e.t_us / 1e6
        boxes = "".join(f'<i style="background:{color_draft if i < e.n - 1 else color_own}"></i>' for i in range(e.n))
        spans.append(f'<span class="step" style="animation-delay:{delay:.3f}s">{boxes}</span>')
    end = events[-1].t_us / 1e6 if events else 0.0
    return (f'<div class="lane"><div class="title">{html.escape(title)} · <b>{end:.1f} s</b></div>'
            f'<div class="row">{"".join(spans)}</div></div>')


def _strip(events: list[Event], label: str, gamma: int) -> str:
    # Static: one bar per verification step, height = tokens it yielded (1 … γ+1).
    bars = "".join(f'<i title="{e.n}" style="height:{8 + 40 * e.n / (gamma + 1):.0f}px"></i>' for e in events[1:])
    return f'<div class="strip-title">{html.escape(label)}</div><div class="strip">{bars}</div>'


def token_strip_html(plain: list[Event], spec: list[Event], gamma: int, labels: dict[str, str]) -> str:
    """HTML for st.html (inline, no iframe: a slider move swaps this block instead of loading a new document):
    two animated lanes and a static per-step strip; a button replays the animation. CSS is scoped under .ts; font and
    text colour are the page's, the button drawn as the page's own buttons."""
    return f"""<div class="ts"><style>
.ts{{font:inherit;color:inherit}}
.ts .lane{{margin:6px 0}} .ts .title{{font-size:13px;margin-bottom:3px}}
.ts .row{{display:flex;flex-wrap:wrap;gap:2px;min-height:14px}}
.ts .step{{display:inline-flex;gap:1px;opacity:0;animation:ts-show .01s linear forwards}}
.ts .step i{{display:inline-block;width:9px;height:12px;border-radius:2px}}
@keyframes ts-show{{to{{opacity:1}}}}
.ts .strip{{display:flex;align-items:flex-end;gap:1px;height:50px;border-bottom:1px solid #999}}
.ts .strip i{{display:inline-block;width:5px;background:{OWN}}}
.ts .strip-title,.ts .legend{{font-size:12px;color:#555;margin-top:6px}}
.ts button{{font:inherit;font-size:14px;margin-top:8px;padding:4px 12px;color:inherit;background:transparent;
  border:1px solid rgba(49,51,63,.2);border-radius:8px;cursor:pointer}}
.ts button:hover,.ts button:focus-visible{{border-color:{OWN};color:{OWN}}}
</style>
<div class="lanes">{_lane(labels["plain"], plain, PLAIN, OWN)}{_lane(labels["spec"], spec, ACCEPTED, OWN)}</div>
<div class="legend"><span style="color:{ACCEPTED}">■</span> {html.escape(labels["accepted"])} &nbsp;
<span style="color:{OWN}">■</span> {html.escape(labels["own"])}</div>
{_strip(spec, labels["strip"], gamma)}
<button onclick="const l=this.parentElement.querySelector('.lanes');l.replaceWith(l.cloneNode(true));">{html.escape(labels["replay"])}</button>
</div>"""
