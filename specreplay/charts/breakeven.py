"""The break-even map of the llama.cpp drafter (specreplay.explain.panels.CPU_BREAKEVEN): per target,
the measured speedup over the target alone at set acceptance lengths × concurrency, where it passes 1.0 per level,
its caveats and its sources, built once for the concurrency page and its exported chart.

    rec, grids = recording()            # None / a problem line when the file is absent or unreadable
    v = view(rec, grids[0], "throughput", "en")
    v.rows[8], v.caveats, v.sources
    v.z, v.marked                        # the cells drawn coloured; those an engine's artefact produced (uncoloured)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from specreplay.charts import Caveat
from specreplay.embeds.words import say
from specreplay.explain import breakeven, panels
from specreplay.languages import Lang
from specreplay.multiplier import times
from specreplay.recording import wanted
from specreplay.recording.format import Recording
from specreplay.recording.kinds import Kind
from specreplay.words import arm_label, word

METRICS = ("throughput", "decode")


@dataclass(frozen=True)
class View:
    """One target and metric of the map."""

    grid: breakeven.Grid
    metric: str
    title: str
    rows: dict[int, str]  # level → where the drafter passes 1.0 along the set lengths
    caveats: tuple[Caveat, ...]
    badge: str  # the badge's line: what, which file, which machine
    sources: tuple[str, ...]  # one line per arm of the grid
    kind: Kind  # measured, or timing only (the file's arms set their acceptance)

    @property
    def z(self) -> tuple[tuple[float | None, ...], ...]:
        """The metric's cells as drawn coloured: a cell an engine's artefact produced (specreplay.explain.artefacts)
        is None here, drawn uncoloured and outlined, never one side of a crossing."""
        g = self.grid
        return tuple(tuple(None if (L, lv) in g.left_out else v for lv, v in zip(g.levels, row))
                     for L, row in zip(g.lengths, self.measured))

    @property
    def measured(self) -> tuple[tuple[float | None, ...], ...]:
        """The metric's cells as measured, the engine's artefacts included (the hover reads them)."""
        return self.grid.throughput if self.metric == "throughput" else self.grid.decode

    @property
    def marked(self) -> tuple[tuple[float, int, str, float | None], ...]:
        """(length, level, reason, ratio measured) of each cell an engine's artefact produced."""
        g = self.grid
        return tuple((L, lv, why, self.measured[g.lengths.index(L)][g.levels.index(lv)])
                     for (L, lv), why in g.left_out.items())


def recording() -> tuple[Recording | str | None, list[breakeven.Grid]]:
    """The newest break-even recording (or its one-line problem, or None when absent) and its grids with a finished
    level (a header-only file has arms and no level: nothing to draw)."""
    got = wanted.read(panels.CPU_BREAKEVEN)
    return got, [g for g in breakeven.breakeven_grids(got) if g.levels] if isinstance(got, Recording) else []


def view(rec: Recording, g: breakeven.Grid, metric: str, lang: Lang) -> View:
    T = say("concurrency", lang)
    z = g.throughput if metric == "throughput" else g.decode
    lengths = ", ".join(f"{L:g}" for L in g.lengths)
    rows = {}
    for j, lv in enumerate(g.levels):
        col = [v for i, row in enumerate(z) if (v := row[j]) is not None and (g.lengths[i], lv) not in g.left_out]
        cross = g.break_even_length(lv, metric)
        rows[lv] = (T("be_row", level=lv, a=cross[0], b=cross[1]) if cross else
                    T("be_row_always", level=lv) if col and min(col) >= 1 else
                    T("be_row_never", level=lv, lengths=lengths))
    caveats = [Caveat(T("cav_throughput"))]
    if rec.arm(g.target).f16_of_4bit:
        caveats.append(Caveat(word("f16_note", lang)))
    M = say("artefacts", lang)
    for why in dict.fromkeys(g.left_out.values()):  # the outlined cells: which, and why they are not coloured
        cells = ", ".join(f"L {L:g} · {lv}: {times(z[g.lengths.index(L)][g.levels.index(lv)])}"
                          for (L, lv), w in g.left_out.items() if w == why)
        caveats.append(Caveat(f"{M(why)} — {cells}"))
    file = Path(rec.path).name
    sources = tuple(f"{file} · {a} · L {rec.arm(a).set_acceptance} · {arm_label(rec.arm(a).label, lang)} · "
                    f"{rec.machine_line}" for a in g.arms)
    return View(g, metric, T("be_q", target=g.target), rows, tuple(caveats),
                f"{T('be_badge')} · {file} · {rec.machine_line}", sources, rec.kind())
