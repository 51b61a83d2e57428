"""A small HTML animation of simulated token streams: plain decoding vs speculative decoding.

Input is the chunk lists of specreplay.panes.simulate_events; each chunk is one
verification step (its last token is the target model's own, the rest accepted
drafts). Time is slowed so a step can be seen; the page says so.
"""

from __future__ import annotations

import html

from specreplay.format import Event


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
    two animated lanes and a static per-step strip; a button replays the animation. CSS is scoped under .ts."""
    return f"""<div class="ts"><style>
.ts{{font-family:sans-serif;color:#222}}
.ts .lane{{margin:6px 0}} .ts .title{{font-size:13px;margin-bottom:3px}}
.ts .row{{display:flex;flex-wrap:wrap;gap:2px;min-height:14px}}
.ts .step{{display:inline-flex;gap:1px;opacity:0;animation:ts-show .01s linear forwards}}
.ts .step i{{display:inline-block;width:9px;height:12px;border-radius:2px}}
@keyframes ts-show{{to{{opacity:1}}}}
.ts .strip{{display:flex;align-items:flex-end;gap:1px;height:50px;border-bottom:1px solid #999}}
.ts .strip i{{display:inline-block;width:5px;background:#4c78a8}}
.ts .strip-title,.ts .legend{{font-size:12px;color:#555;margin-top:6px}}
.ts button{{font-size:12px;margin-top:6px}}
</style>
<div class="lanes">{_lane(labels["plain"], plain, "#f58518", "#4c78a8")}{_lane(labels["spec"], spec, "#54a24b", "#4c78a8")}</div>
<div class="legend"><span style="color:#54a24b">■</span> {html.escape(labels["accepted"])} &nbsp;
<span style="color:#4c78a8">■</span> {html.escape(labels["own"])}</div>
{_strip(spec, labels["strip"], gamma)}
<button onclick="const l=this.parentElement.querySelector('.lanes');l.replaceWith(l.cloneNode(true));">{html.escape(labels["replay"])}</button>
</div>"""
