"""What a pane says of itself in the reader's language: its subtitle and its hover details. A Pane keeps its details
as data under the keys of the `pane_details` table (assets/lang/<code>.toml); the player, the video and the HTML
export say them through here, so a Korean page's hover and a simulated arm's subtitle are Korean too.

    details(pane, "ko")    # {'녹화': 'SmolLM2-135M, vLLM CPU: 기준 대 ngram k=4', '파일': 'smollm2-vllm-cpu.jsonl', ...}
"""

from __future__ import annotations

from specreplay import languages, theory
from specreplay.languages import Lang
from specreplay.replay.panes import Pane
from specreplay.replay.titles import title_for
from specreplay.words import word


def subtitle(pane: Pane, lang: Lang) -> str:
    """A recorded pane's model · engine (names); a simulated pane's parameters in words."""
    if pane.kind != "simulated":
        return pane.subtitle
    return word("sim_subtitle", lang).format(**{k: pane.details[k] for k in ("tok_s", "ttft_s", "alpha", "gamma",
                                                                               "tokens")})


def _source(pane: Pane, lang: Lang) -> str:
    """Where a simulated pane's numbers come from: an article's table, with the α we assume where it drafts."""
    if pane.details["source"] == "custom":
        return word("sim_source_custom", lang)
    quoted = word("sim_source_article_000", lang)
    alpha, gamma = float(pane.details["alpha"]), int(pane.details["gamma"])
    if not alpha or not gamma:  # no drafter: every number is the article's
        return quoted
    return f"{quoted}; " + word("sim_assumed", lang).format(alpha=alpha, block=theory.expected_tokens(alpha, gamma))


def details(pane: Pane, lang: Lang) -> dict[str, str]:
    """The hover's lines, name → value, in `lang` (a bundled recording's title in its translation)."""
    names = languages.table(lang, "pane_details")
    values = dict(pane.details)
    if "recording" in values and "file" in values:
        values["recording"] = title_for(values["file"], values["recording"], lang)
    if "source" in values:
        values["source"] = _source(pane, lang)
    return {names[k]: v for k, v in values.items()}
