"""Which speculative-decoding method fits a reader's situation: the articles' recommendations as rules over answers.

The rules are data (assets/quoted_chooser.csv, mostly article 004's situation → recommendation table): each names
the answers it applies to, a verdict, the methods, why (the app's own words), the article figures behind it (cells
of the tidy tables, so every figure keeps its source) and the acceptance / concurrency settings that show it.
vLLM's own low / high QPS ratings per method come from assets/quoted_vllm_methods.csv.

    fits, advice = choose({"drafter": "none", "copies": "yes", "concurrency": "low", "memory": "yes",
                           "temperature": "low"})
    [f.method.id for f in fits]  # ['ngram', 'suffix']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from specreplay import languages, theory
from specreplay.languages import localized
from specreplay.quoted import article_tables
from specreplay.quoted.asset_csv import HANGUL, DataError, read_rows

RULES_FILE = "quoted_chooser.csv"
METHODS_FILE = "quoted_vllm_methods.csv"
CAVEATS_FILE = "article_caveats.csv"
RULE_COLUMNS = ("source", "section", "section_en", "id", "when", "verdict", "methods", "situation_ko", "situation_en",
                "why_ko", "why_en", "figures", "acceptance", "concurrency")
METHOD_COLUMNS = ("source", "section", "section_en", "original", "method", "name_ko", "name_en", "low_qps", "high_qps",
                  "doc_note_ko", "doc_note_en")
CAVEAT_COLUMNS = ("source", "section", "section_en", "id", "text_ko", "text_en", "figures")

# What the reader is asked, and the answers each question takes (in display order).
QUESTIONS: dict[str, tuple[str, ...]] = {
    "drafter": ("eagle3", "mtp", "small_model", "none"),
    "copies": ("yes", "no"),
    "concurrency": ("low", "mid", "high"),
    "memory": ("yes", "no"),
    "temperature": ("low", "high"),
}
RATINGS = ("low_medium", "medium", "medium_high", "high")  # vLLM's documentation, as the article prints it
Verdict = Literal["recommend", "avoid", "measure", "setting"]
VERDICTS = ("recommend", "avoid", "measure", "setting")


@dataclass(frozen=True)
class RecordedFigure:
    """A cell of one of our bundled recordings a rule rests on: a speculative arm's measured speedup on a prompt."""

    file: str
    arm: str
    prompt: str
    value: float  # median decode tok/s of the arm ÷ its baseline's, same prompt
    temperature: float | None
    engine: str
    machine: str
    kind: Literal["measured"] = "measured"


Figure = article_tables.TableCell | article_tables.MathRow | RecordedFigure


@dataclass(frozen=True)
class Method:
    id: str  # vLLM's `method` value
    name_ko: str
    name_en: str
    low_qps: str  # one of RATINGS
    high_qps: str
    doc_note_ko: str
    doc_note_en: str
    source: str
    section: str
    section_en: str
    original: str


@dataclass(frozen=True)
class Rule:
    id: str
    source: str
    section: str
    section_en: str
    when: dict[str, frozenset[str]]
    verdict: Verdict
    methods: tuple[str, ...]
    situation_ko: str
    situation_en: str
    why_ko: str
    why_en: str
    figures: tuple[Figure, ...]
    acceptance: dict[str, float]  # alpha and gamma, or length and gamma (an acceptance length the article measured)
    concurrency: int | None
    original: str = ""

    def applies(self, answers: dict[str, str]) -> bool:
        return all(answers.get(q) in values for q, values in self.when.items())

    def alpha_gamma(self) -> tuple[float, int] | None:
        """The acceptance page's α and γ for this rule; an acceptance length becomes the α that gives it (computed)."""
        if not self.acceptance:
            return None
        gamma = int(self.acceptance["gamma"])
        alpha = self.acceptance.get("alpha")
        if alpha is None:
            alpha = theory.implied_alpha(self.acceptance["length"], gamma)
        return alpha, gamma


@dataclass(frozen=True)
class Caveat:
    id: str
    source: str
    section: str
    section_en: str
    text_ko: str
    text_en: str
    figures: tuple[Figure, ...]
    original: str = ""


@dataclass(frozen=True)
class Fit:
    """A method for the reader's answers: recommended, or advised against (an 'avoid' rule wins), and every rule why."""

    method: Method
    verdict: Literal["recommend", "avoid"]
    rules: tuple[Rule, ...]


def _fail(where: str, message: str) -> None:
    raise DataError(f"{where}: {message}")


def _english(where: str, row: dict[str, str], pairs: tuple[tuple[str, str], ...]) -> None:
    for ko, en in pairs:
        if not row[ko] or not row[en]:
            _fail(where, f"'{ko}' and '{en}' are both required")
        if HANGUL.search(row[en]):
            _fail(where, f"column '{en}' has Korean text; write it in English")


def _source(where: str, row: dict[str, str]) -> None:
    from specreplay.quoted.articles import articles

    if row["source"] not in articles():
        _fail(where, f"source '{row['source']}' is not an article in assets/articles.csv")


def _recorded(ref: str, where: str) -> tuple[Figure, ...]:
    """'recording/<file>/<arm>/<prompt>': that cell of a bundled recording (specreplay.resources.RECORDINGS)."""
    from specreplay.explain.acceptance_measured import cells_of
    from specreplay.recording import catalogue
    from specreplay.recording.format import RecordingError
    from specreplay.resources import RECORDINGS

    _, file, arm, prompt = (ref.split("/") + ["", "", ""])[:4]
    try:
        cells = cells_of(catalogue.recording(RECORDINGS / file))
    except (RecordingError, OSError) as e:
        _fail(where, f"figure '{ref}': {e}")
    found = [c for c in cells if (c.arm, c.prompt) == (arm, prompt)]
    if not found:
        _fail(where, f"figure '{ref}' names no speculative cell of recordings/{file}")
    c = found[0]
    return (RecordedFigure(file, arm, prompt, c.measured_speedup, c.temperature, c.engine, c.machine),)


def figure(ref: str, where: str = "") -> tuple[Figure, ...]:
    """The cells a reference names: 'table/key/metric' (every workload), 'table/key/metric@level',
    'gamma_compute/alpha/gamma' for a row of article 004's worked table, or 'recording/<file>/<arm>/<prompt>'
    for a cell of a bundled recording."""
    if ref.startswith("recording/"):
        return _recorded(ref, where)
    parts = ref.split("/")
    if len(parts) != 3:
        _fail(where, f"figure '{ref}' must be table/key/metric[@level]")
    table, key, metric = parts
    rows: tuple[Figure, ...]
    if table == "gamma_compute":
        rows = tuple(m for m in article_tables.speculative_math() if f"{m.alpha:g}" == key and str(m.gamma) == metric)
    else:
        metric, _, level = metric.partition("@")
        try:
            cells = article_tables.table_cells(table, metric)
        except KeyError:
            cells = []
        rows = tuple(c for c in cells if c.key == key and (not level or str(c.level) == level))
    if not rows:
        _fail(where, f"figure '{ref}' names no cell of the tidy tables")
    return rows


def _figures(where: str, text: str) -> tuple[Figure, ...]:
    return tuple(f for ref in text.split() for f in figure(ref, where))


def _settings(where: str, text: str) -> dict[str, float]:
    out = {}
    for part in text.split():
        name, _, value = part.partition("=")
        if name not in ("alpha", "gamma", "length"):
            _fail(where, f"acceptance setting '{part}' must be alpha=, gamma= or length=")
        out[name] = float(value)
    if out and ("gamma" not in out or ("alpha" in out) == ("length" in out)):
        _fail(where, "acceptance needs gamma and exactly one of alpha or length")
    return out


@lru_cache(maxsize=1)
def methods() -> dict[str, Method]:
    out = {}
    for where, row in read_rows(METHODS_FILE, METHOD_COLUMNS):
        _source(where, row)
        _english(where, row, (("section", "section_en"), ("name_ko", "name_en"), ("doc_note_ko", "doc_note_en")))
        for q in ("low_qps", "high_qps"):
            if row[q] not in RATINGS:
                _fail(where, f"{q} '{row[q]}' must be one of {', '.join(RATINGS)}")
        out[row["method"]] = Method(id=row["method"], **{k: row[k] for k in METHOD_COLUMNS if k != "method"})
    return out


@lru_cache(maxsize=1)
def rules() -> tuple[Rule, ...]:
    """Every rule of assets/quoted_chooser.csv, validated (answers, verdicts, methods, figures, settings)."""
    out = []
    for where, row in read_rows(RULES_FILE, RULE_COLUMNS):
        _source(where, row)
        _english(where, row, (("section", "section_en"), ("situation_ko", "situation_en"), ("why_ko", "why_en")))
        when: dict[str, frozenset[str]] = {}
        for part in row["when"].split():
            q, _, values = part.partition("=")
            allowed = set(values.split("|"))
            if q not in QUESTIONS or not allowed <= set(QUESTIONS[q]):
                _fail(where, f"'{part}' is not question=answer[|answer] over {QUESTIONS}")
            when[q] = frozenset(allowed)
        if not when:
            _fail(where, "a rule needs at least one question=answer in 'when'")
        if row["verdict"] not in VERDICTS:
            _fail(where, f"verdict '{row['verdict']}' must be one of {', '.join(VERDICTS)}")
        names = tuple(row["methods"].split())
        if (row["verdict"] in ("recommend", "avoid")) != bool(names):
            _fail(where, "recommend and avoid name methods; measure and setting name none")
        unknown = [m for m in names if m not in methods()]
        if unknown:
            _fail(where, f"methods {unknown} are not in assets/{METHODS_FILE}")
        out.append(Rule(id=row["id"], source=row["source"], section=row["section"], section_en=row["section_en"],
                        when=when, verdict=row["verdict"], methods=names,  # type: ignore[arg-type]
                        situation_ko=row["situation_ko"], situation_en=row["situation_en"], why_ko=row["why_ko"],
                        why_en=row["why_en"], figures=_figures(where, row["figures"]),
                        acceptance=_settings(where, row["acceptance"]),
                        concurrency=int(row["concurrency"]) if row["concurrency"] else None))
    return tuple(out)


@lru_cache(maxsize=1)
def caveats() -> dict[str, Caveat]:
    """What the articles say they did not measure or where their numbers mislead (assets/article_caveats.csv)."""
    out = {}
    for where, row in read_rows(CAVEATS_FILE, CAVEAT_COLUMNS):
        _source(where, row)
        _english(where, row, (("section", "section_en"), ("text_ko", "text_en")))
        out[row["id"]] = Caveat(id=row["id"], source=row["source"], section=row["section"], section_en=row["section_en"],
                                text_ko=row["text_ko"], text_en=row["text_en"], figures=_figures(where, row["figures"]))
    return out


_LEADING_NUMBER = re.compile(r"\s*(\d+(?:\.\d+)?)")
# Which answer a figure's workload falls under for "does the output copy the input?" (the question's own examples:
# summaries copy, chat and free writing do not); a workload named by neither stays unknown.
_COPIES = (("yes", ("copy", "summar")), ("no", ("prose", "chat", "story")))


def temperature_answer(t: float) -> str:
    """The temperature answer a measured temperature falls under: near 0 is low."""
    return "low" if t < 0.5 else "high"


def concurrency_answer(level: int) -> str:
    """The concurrency answer a number of concurrent requests (or a batch) falls under: 1–4, 8–16, 24+."""
    return "low" if level <= 4 else "mid" if level < 24 else "high"


def figure_answers(fig: Figure) -> dict[str, str]:
    """The answers a figure was measured under, as far as its conditions say (temperature, concurrency, copying).
    A recorded cell ran one request at a time; an article's "same sampling as the service" names no temperature."""
    if isinstance(fig, article_tables.MathRow):
        return {}
    out: dict[str, str] = {}
    if isinstance(fig, RecordedFigure):
        temperature: float | None = fig.temperature
        level: int | None = 1
        workload = fig.prompt
    else:
        found = _LEADING_NUMBER.match(fig.conditions["temperature"])
        temperature = float(found.group(1)) if found else None
        level = fig.level if fig.axis in ("concurrency", "batch") else None
        workload = fig.workload_en
    if temperature is not None:
        out["temperature"] = temperature_answer(temperature)
    if level:
        out["concurrency"] = concurrency_answer(level)
    for answer, words in _COPIES:
        if any(w in workload.lower() for w in words):
            out["copies"] = answer
            break
    return out


def differs(fig: Figure, answers: dict[str, str]) -> list[str]:
    """The questions whose answer the figure was not measured under: it is a comparison, not evidence for them."""
    return [q for q, a in figure_answers(fig).items() if answers.get(q) != a]


def best_measured(fits: list[Fit], answers: dict[str, str]) -> tuple[Method, RecordedFigure] | None:
    """For answers no method is recommended for: the highest speedup we recorded for a method advised against,
    among the cells measured under the reader's own answers only (none: None)."""
    cells = [(f.method, fig) for f in fits if f.verdict == "avoid" for r in f.rules for fig in r.figures
             if isinstance(fig, RecordedFigure) and not differs(fig, answers)]
    return max(cells, key=lambda mf: mf[1].value, default=None)


def choose(answers: dict[str, str]) -> tuple[list[Fit], list[Rule]]:
    """The methods that fit (recommended first, then those advised against) and the general advice (measure,
    settings) for a full set of answers."""
    for q, values in QUESTIONS.items():
        if answers.get(q) not in values:
            raise ValueError(f"answer to {q!r} must be one of {values}, got {answers.get(q)!r}")
    matched = [r for r in rules() if r.applies(answers)]
    by_method: dict[str, list[Rule]] = {}
    for r in matched:
        for m in r.methods:
            by_method.setdefault(m, []).append(r)
    fits = [Fit(method=methods()[m], verdict="avoid" if any(r.verdict == "avoid" for r in rs) else "recommend",
                rules=tuple(rs)) for m, rs in by_method.items()]
    fits.sort(key=lambda f: f.verdict != "recommend")  # stable: rule order within each verdict
    return fits, [r for r in matched if not r.methods]


# How a figure's metric reads next to its value (Korean, English); metrics not listed read as the bare value.
# The metrics a figure line names (their words: figures.metric_<name> in specreplay.languages); others go unnamed.
_METRIC = ("cost_change", "weights", "kv_pool_change", "sessions", "share", "alpha", "throughput", "acceptance_length",
           "spread", "decode_rate")


def _value(v: float, unit: str, metric: str) -> str:
    if unit == "%":
        return f"{v:+g}%" if metric.endswith("change") else f"{v:g}%"
    if unit in ("×", "share", "tokens", "sessions"):
        return f"{v:g}×" if unit == "×" else f"{v:g}"
    return f"{v:g} {unit}"


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def describe(figures: tuple[Figure, ...], lang: str) -> list[tuple[str, Figure]]:
    """One readable line per figure, a _min/_max pair joined into a range: [(text, the figure it cites)]."""
    def say(key: str, **values: object) -> str:
        return languages.text(lang, f"figures.{key}", **values)

    out: list[tuple[str, Figure]] = []
    done: set[int] = set()
    for i, f in enumerate(figures):
        if i in done:
            continue
        if isinstance(f, RecordedFigure):
            temp = "" if f.temperature is None else say("recorded_temperature", value=f.temperature)
            out.append((f"{f.prompt} · {f.arm} ({f.engine}){temp}: " + say("recorded_speedup") + f"{f.value:.2f}×", f))
            continue
        if isinstance(f, article_tables.MathRow):
            out.append((f"α {f.alpha:g} · γ {f.gamma}: " + say("math", speedup=f.speedup, compute=f.compute), f))
            continue
        base = f.metric.removesuffix("_min").removesuffix("_max")
        value = _value(f.value, f.unit, base) if f.value is not None else say("not_measured")
        if f.metric.endswith("_min"):
            pair = next(((j, g) for j, g in enumerate(figures) if j > i and isinstance(g, article_tables.TableCell)
                         and g.key == f.key and g.table == f.table and g.level == f.level
                         and g.conditions == f.conditions and g.metric == base + "_max"), None)
            if pair is not None and pair[1].value is not None:
                done.add(pair[0])
                value = f"{f.value:g}–{_value(pair[1].value, f.unit, base)}"
        label = localized(f, "series", lang)
        workload = localized(f, "workload", lang)
        temp = f.conditions["temperature"]
        level = ""
        if f.axis == "batch":
            level = say("batch", level=f.level)
        elif f.axis == "concurrency" and f.level and f.level > 1:
            level = say("concurrent", level=f.level)
        where = " · ".join(x for x in (label, "" if workload == label else workload, level,
                                       languages.text(lang, "articles.temperature", value=temp) if _number(temp) else "") if x)
        metric = say(f"metric_{base}") if base in _METRIC else ""
        out.append((f"{where}: " + (f"{metric} " if metric else "") + value, f))
    return out
