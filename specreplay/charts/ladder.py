"""The bf16 → 4-bit → drafter ladder: article 000's (overall or one prompt) beside ours (this CPU's llama.cpp ladder
or the H200's, a drafter, a prompt), each rung's tok/s with both multipliers, and the caveats under ours — built
once for the ladder page and its exported chart.

    which, steps = article_ladder("code-generation", "en")      # 000's rungs
    caveats = our_caveats(rec, "h200", arms, "code", "en")       # what the page and the file say under ours
"""

from __future__ import annotations

from specreplay import languages, palette
from specreplay.charts import Caveat
from specreplay.embeds.words import say
from specreplay.engines.defects import draft_graphs_defect
from specreplay.explain.acceptance_measured import cells_of
from specreplay.languages import Lang, localized
from specreplay.quoted import article_tables
from specreplay.recording.format import Recording
from specreplay.words import word

OVERALL = "overall"
RUNGS_000 = ["original", "quantized", "drafter"]  # rows of 000's table by their stable keys (assets/articles_measured.csv)
DRAFTERS = ("draft", "ngram", "draft_first")
# 000's prompt → the kind of our prompt that opens beside it
KIND_OF_PROMPT = {"code-generation": "code", "reasoning": "reasoning", "chat": "chat", "long-prose": "long-prose"}


def prompt_id(workload_en: str) -> str:
    """A stable id for a prompt row of 000's table, from its English name: 'code generation' → 'code-generation'."""
    return workload_en.split(" (")[0].strip().lower().replace(" ", "-")


def colours(n: int) -> list[str]:
    """The ladder colours: the grey reference, then the one series palette."""
    return [palette.baseline(0)] + [palette.series(i) for i in range(n - 1)]


def rung_name(arm: str, lang: Lang) -> str:
    """A rung's name in the reader's language ('rung_q4-draft'), else the arm id (every language has the same keys)."""
    key = f"rung_{arm}"
    return say("ladder", lang)(key) if key in languages.table(languages.LANGUAGES[0], "ladder") else arm


def prompts_000(lang: Lang) -> dict[str, str]:
    """000's prompt ids (overall first) → their names."""
    names = {OVERALL: say("ladder", lang)("overall")}
    return names | {prompt_id(w["workload_en"]): localized(w, "workload", lang)
                    for w in article_tables.workloads("ladder_by_prompt")}


def article_ladder(pid: str, lang: Lang) -> tuple[str, list[article_tables.Step]]:
    """000's ladder for one prompt id (or OVERALL): the headline's name for it, and its rungs."""
    if pid == OVERALL:
        return say("ladder", lang)("overall_short"), article_tables.ladder("ladder_overall")
    w = next(w for w in article_tables.workloads("ladder_by_prompt") if prompt_id(w["workload_en"]) == pid)
    return localized(w, "workload", lang), article_tables.ladder("ladder_by_prompt", workload=w["workload"],
                                                                 series_names=RUNGS_000)


def step_times(rec: Recording, arm: str, prompt: str, lang: Lang) -> str:
    """A speculative rung's step against a plain step on one prompt, from the file (computed), or "" without
    counters: ms per engine step = tokens per step ÷ decode rate (acceptance_measured.AcceptanceCell.steps)."""
    cell = next((c for c in cells_of(rec) if c.arm == arm and c.prompt == prompt), None)
    if cell is None:
        return ""
    return say("ladder", lang)("ours_steps_h200", arm=rung_name(arm, lang), per_step=cell.tokens_per_step,
                               spec=1000 * cell.tokens_per_step / cell.spec_tps, base=rung_name(cell.baseline, lang),
                               plain=1000 / cell.base_tps)


def our_caveats(rec: Recording, machine: str, arms: tuple[str, ...], prompt: str, lang: Lang) -> tuple[Caveat, ...]:
    """Under our ladder: each rung an engine defect bent (its figures measure the defect), what was measured (the
    F16 file's note on this CPU, the H200's own setup there), and on the H200 why neither method pays."""
    T = say("ladder", lang)
    out = [Caveat(T("ours_defect", arm=rung_name(a, lang), defect=d.text(lang)),
                  T("ours_defect", arm=rung_name(a, lang), defect=d.markdown(lang)))
           for a in arms if (d := draft_graphs_defect(rec.arm(a)))]
    out.append(Caveat(T("ours_caption") + " " + (word("f16_note", lang) if machine == "cpu" else T("ours_caption_h200")),
                      kind="measured"))
    if machine != "cpu":
        steps = step_times(rec, arms[-1], prompt, lang)
        out.append(Caveat.of((steps + " " if steps else "") + T("ours_why_h200"), "computed"))
    return tuple(out)
