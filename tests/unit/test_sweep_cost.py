"""The work a sweep-shaped file costs a page: a bounded number of passes over its lines, however many levels and
mixes it has (a file with 8,000 mixes once cost 37.6 CPU-s: one pass per level). Counted, not timed: the
recording's run and level lists count how often they are walked."""

from __future__ import annotations

import json

import pytest

from specreplay.explain import full_scale, pareto
from specreplay.explain.sweeps import level_table, pair_rows, paired_speedups
from specreplay.recording import format as fmt
from specreplay.replay.levels import default_keys, has_levels, level_keys, level_pane


class Walked(list):
    """A list that counts the passes over it."""

    walks = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        self.walks += 1
        return super().__iter__()


def sweep_text(levels: int, mixes: int) -> str:
    """Two arms (a drafter against its baseline), `mixes` mixes of one prompt, `levels` levels of one stream each."""
    arms = [{"id": "base", "label": "base", "model": "m", "engine": {"name": "vllm"}, "flags": {}},
            {"id": "spec", "label": "spec", "model": "m", "engine": {"name": "vllm"}, "baseline": "base",
             "flags": {"speculative_config": {"method": "ngram"}}}]
    header = {"type": "header", "format": "specreplay-recording", "version": 1, "title": "t", "created": "2026-12-02",
              "machine": {}, "arms": arms,
              "prompts": [{"id": "p", "kind": "chat", "text": "hi", "sampling": {"temperature": 0}}]}
    lines = [header]
    t = 0.0
    for arm in ("base", "spec"):
        for m in range(mixes):
            for c in range(1, levels + 1):
                events = [{"t": 0.1, "n": 1, "text": "a"}, {"t": 0.2, "n": 2, "text": "bc"}]
                lines.append({"type": "run", "arm": arm, "prompt": "p", "repeat": 0, "warmup": False, "concurrency": c,
                              "stream": 0, "started_wall": "x", "started_mono": t, "events": events, "ttft": 0.1,
                              "status": "ok", **({"mix": f"m{m}"} if mixes > 1 else {})})
                lines.append({"type": "level", "arm": arm, "concurrency": c, "started_mono": t, "ended_mono": t + 1,
                              **({"mix": f"m{m}"} if mixes > 1 else {})})
                t += 1
    return "".join(json.dumps(x) + "\n" for x in lines)


def walks(levels: int, mixes: int) -> tuple[int, int]:
    """(passes over the runs, passes over the level lines) of everything a page computes from a sweep."""
    rec = fmt.loads(sweep_text(levels, mixes))
    rec.runs, rec.levels = Walked(rec.runs), Walked(rec.levels)
    table = level_table(rec)
    assert len(table) == 2 * levels * mixes
    assert len(pair_rows(rec)) == len(paired_speedups(rec)) == levels * mixes
    keys = level_keys(rec)
    assert len(keys) == 2 * levels * mixes and has_levels(rec) and default_keys(rec)
    before = rec.runs.walks
    level_pane(rec, keys[-1])
    assert rec.runs.walks <= before + 2  # a shown pane: a pass or two (a page shows at most four)
    pareto.points(rec)
    full_scale.drafter_curves(rec)
    return rec.runs.walks, rec.levels.walks


@pytest.mark.parametrize("grow", ["levels", "mixes"])
def test_a_page_walks_a_sweep_a_fixed_number_of_times_however_many_levels_or_mixes(grow: str) -> None:
    small = walks(2, 1)
    big = walks(60, 1) if grow == "levels" else walks(2, 60)
    assert big == small
    assert small[0] <= 10  # a handful of passes: the tables, the level keys, a pane


def test_a_file_over_the_level_and_mix_caps_is_refused_on_one_line() -> None:
    with pytest.raises(fmt.RecordingError, match=r"field 'concurrency': a 257th concurrency level; a recording "
                                                 r"holds at most 256 — split the sweep"):
        fmt.loads(sweep_text(fmt.MAX_LEVELS + 1, 1), "many.jsonl")
    text = sweep_text(1, fmt.MAX_MIXES + 1)
    with pytest.raises(fmt.RecordingError, match=r"^many.jsonl:\d+: field 'mix': a 257th prompt mix"):
        fmt.loads(text, "many.jsonl")
    assert len(fmt.loads(sweep_text(fmt.MAX_LEVELS, 1)).levels) == 2 * fmt.MAX_LEVELS
