"""The ladder as an exported chart: article 000's bf16 → 4-bit → drafter ladder (overall or one prompt) beside
ours (this CPU's llama.cpp ladder or the H200's, a drafter, a prompt), each rung's tok/s with both multipliers:
over the rung before and over the first — the ladder page's two charts side by side, with the caveats the page
shows under ours, from the one spec both draw (specreplay.charts.ladder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from specreplay.charts import ladder
from specreplay.embeds.document import Chart
from specreplay.embeds.words import Say, say
from specreplay.explain import real_ladder
from specreplay.explain.derived import ratio
from specreplay.languages import Lang, localized
from specreplay.multiplier import times
from specreplay.quoted.articles import cite
from specreplay.recording import wanted
from specreplay.recording.format import Recording

# The controls' names: the app's URL (and session state) keys, so a link's state opens the chart in it.
STATE = ("prompt", "our_machine", "our_drafter", "our_prompt")


def _article(T: Say, lang: Lang) -> tuple[dict[str, Any], list[list[str]], list[tuple[str, str]]]:
    """000's ladders by prompt id (overall first), the prompt options and the sources."""
    out, options, sources = {}, [], []
    for pid, name in ladder.prompts_000(lang).items():
        which, steps = ladder.article_ladder(pid, lang)
        out[pid] = {"title": T("headline", which=which, first=steps[0].value, last=steps[-1].value),
                    "rungs": [{"label": localized(s, "label", lang), "value": s.value, "prev": s.vs_previous,
                               "first": s.vs_first, "color": c} for s, c in zip(steps, ladder.colours(len(steps)))]}
        options.append([pid, name])
        sources.append(("quoted", f"{which} — {cite(steps[0].cell, lang)}"))  # type: ignore[arg-type]
    return out, options, sources


def _ours(T: Say, lang: Lang) -> tuple[dict[str, Any], dict[str, list[list[str]]], dict[str, list[list[str]]],
                                     list[tuple[str, str]], list[str]]:
    """Our ladders by 'machine/drafter' (prompt → rungs), the drafters per machine, the prompts per ladder, sources,
    and one line per ladder recording that is there but could not be drawn (unreadable, or no run of its arms)."""
    W = say("embeds", lang)
    names = {"draft": T("drafter_draft"), "ngram": T("drafter_ngram"), "draft_first": T("drafter_first")}
    out: dict[str, Any] = {}
    drafters: dict[str, list[list[str]]] = {}
    prompts: dict[str, list[list[str]]] = {}
    sources: list[tuple[str, str]] = []
    skipped: list[str] = []
    for machine, ladders in real_ladder.MACHINE_LADDERS.items():
        for drafter, (what, arms) in ladders.items():
            got = wanted.read(what)
            found = real_ladder.prompt_ladders(got, arms) if isinstance(got, Recording) else []
            key = f"{machine}/{drafter}"
            out[key] = {"empty": T("ours_empty" if machine == "cpu" else "ours_empty_h200"), "prompts": {}}
            if isinstance(got, str):
                skipped.append(W("skipped_read", problem=got))
            elif got is not None and not found:
                skipped.append(W("ladder_nothing", file=Path(got.path).name))
            if not found:
                continue
            assert isinstance(got, Recording)
            file = Path(got.path).name
            drafters.setdefault(machine, []).append([drafter, names[drafter]])
            prompts[key] = [[pl.prompt, pl.prompt + ("" if pl.greedy else T("sampled"))] for pl in found]
            # the page's opening prompt: the first greedy one of article 000's overall kind, code
            out[key]["first"] = next((pl.prompt for pl in found if pl.kind == "code" and pl.greedy), found[0].prompt)
            sources.append((got.kind(), f"recordings/{file} · {', '.join(arms)} · {got.machine_line} · {got.header.date}"))
            for pl in found:
                first = pl.rungs[0].rate
                rates = [r.rate for r in pl.rungs]
                title = T("ours_headline", prompt=pl.prompt, first=rates[0], last=rates[-1], product=times(pl.product)) \
                    if rates[0] and rates[-1] else pl.prompt
                out[key]["prompts"][pl.prompt] = {"title": title, "rungs": [
                    {"label": ladder.rung_name(r.arm, lang), "value": None if r.rate is None else round(r.rate, 1),
                     "prev": r.vs_previous, "first": ratio(r.rate, first), "color": c}
                    for r, c in zip(pl.rungs, ladder.colours(len(pl.rungs)))],
                    "caveats": [c.text for c in ladder.our_caveats(got, machine, arms, pl.prompt, lang)]}
    return out, drafters, prompts, sources, skipped


def chart(lang: Lang) -> Chart:
    T = say("ladder", lang)
    article, prompt_options, sources = _article(T, lang)
    ours, drafters, prompts, ours_sources, skipped = _ours(T, lang)
    machines = {"cpu": T("machine_cpu"), "h200": T("machine_h200")}
    controls: list[dict[str, Any]] = [
        {"name": "prompt", "label": T("prompt"), "kind": "select", "options": prompt_options},
        {"name": "our_machine", "label": T("ours_machine"), "kind": "select",
         "options": [[m, machines[m]] for m in real_ladder.MACHINE_LADDERS if m in drafters] or [["cpu", machines["cpu"]]]},
        {"name": "our_drafter", "label": T("ours_drafter"), "kind": "select", "depends": ["our_machine"],
         "options_by": drafters},
        {"name": "our_prompt", "label": T("ours_prompt"), "kind": "select", "depends": ["our_machine", "our_drafter"],
         "options_by": prompts}]
    defaults = {"prompt": ladder.OVERALL, "our_machine": "cpu", "our_drafter": "draft",
                "our_prompt": ours["cpu/draft"].get("first", "")}
    words = {"columns": [T("col_rung"), "tok/s", T("col_prev"), T("col_first")]}
    return Chart("ladder", T("title"), T("intro"), controls, defaults, {"article": article, "ours": ours, "words": words},
                 sources + ours_sources + [("computed", T("ratio_badge"))],
                 notes=[("quoted", f"{sources[0][1]} · {T('median3')}"), ("computed", T("ratio_badge"))],
                 skipped=skipped)
