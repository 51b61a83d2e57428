"""Four arms in a video frame keep the words that tell them apart (issue #41): the words every title shares (the
model) go to the legend, a drafter is read after its base, and a title that does not fit one line takes two; the
frame stays a pure function of the panes, size, language and t."""

from __future__ import annotations

import numpy as np
import pytest

from specreplay.recording import catalogue
from specreplay.recording.format import Recording
from specreplay.replay.labels import shared_tail, titles
from specreplay.replay.panes import recorded_arm_pane
from specreplay.video.draw import FrameDrawer
from specreplay.video.plan import PRESETS
from specreplay.words import arm_label


def test_titles_drop_the_shared_model_and_read_a_drafter_after_its_base() -> None:
    shorts = ["F16 · Qwen2.5-Coder-1.5B", "Q4_K_M 4-bit · Qwen2.5-Coder-1.5B",
              "+ 0.5B draft model K=4 · F16 · Qwen2.5-Coder-1.5B", "+ 0.5B draft model K=4 · Q4_K_M 4-bit · Qwen2.5-Coder-1.5B"]
    assert titles(shorts) == ["F16", "Q4_K_M 4-bit", "F16 + 0.5B draft model K=4", "Q4_K_M 4-bit + 0.5B draft model K=4"]
    assert titles(["bf16", "fp8"]) == ["bf16", "fp8"]  # nothing shared: unchanged
    acceptance = ["acceptance 2.2 · + DFlash K=7 · bf16 … · timing only", "bf16 · timing only"]
    assert titles(acceptance) == ["acceptance 2.2 · + DFlash K=7 · bf16 …", "bf16"]  # what differs already leads


def test_the_shared_tail_is_every_last_part_all_labels_end_in_and_never_a_first_part() -> None:
    assert shared_tail(["bf16 · timing only · H200", "acceptance 2.2 · bf16 … · timing only · H200"]) == (
        ["bf16", "acceptance 2.2 · bf16 …"], "timing only · H200")
    assert shared_tail(["a", "a · x"]) == (["a", "a · x"], "")
    assert shared_tail(["x", "x"]) == (["x", "x"], "") and shared_tail(["a · x"]) == (["a · x"], "")


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("preset", ["720p", "square"])
@pytest.mark.parametrize(("name", "prompt"), [("qwen-coder-1.5b-llamacpp-cpu.jsonl", "code"),
                                             ("timing-only-27b-h200-drafter.jsonl", "story")])
def test_four_panes_keep_the_words_that_tell_their_arms_apart(lang: str, preset: str, name: str, prompt: str) -> None:
    rec = catalogue.read(name)
    assert isinstance(rec, Recording)
    panes = [recorded_arm_pane(rec, a.id, prompt) for a in rec.arms[:4]]
    width, height = PRESETS[preset]
    drawer = FrameDrawer(panes, width, height, lang)
    shown = [" ".join(drawer.title_lines(i)) for i in range(len(panes))]
    assert len(set(shown)) == len(panes), shown
    for title, drawn in zip(drawer.titles, shown):
        first_two = " ".join(title.split()[:2])  # the target and the start of what is added to it
        assert drawn.startswith(first_two), (title, drawn)
    assert drawer.legend  # the full labels, model included, under the panes
    for i, box in enumerate(drawer.lay.panes):  # every kind badge inside its pane
        assert drawer.badge_width(i) <= box.w - 2 * drawer.lay.pad
    again = FrameDrawer(panes, width, height, lang)
    t = drawer.end_us // 2
    assert np.array_equal(drawer.draw(drawer.state(t)), again.draw(again.state(t)))


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("preset", ["720p", "square"])
def test_the_legend_says_every_full_label_whole(lang: str, preset: str) -> None:
    """The longest labels bundled (a timing-only size file's shaped drafters, ~230 characters) go on in a second,
    indented legend line rather than end in '…', and the panes keep room for their text."""
    rec = catalogue.read("timing-only-sizes-7b-h200-sweep.jsonl")
    assert isinstance(rec, Recording)
    panes = [recorded_arm_pane(rec, a.id, "story") for a in rec.arms]
    drawer = FrameDrawer(panes, *PRESETS[preset], lang)
    entries: list[str] = []
    for indent, line in drawer.legend_lines:
        entries[-1:] = [f"{entries[-1]} {line}"] if indent else entries[-1:] + [line]
    assert entries == [f"{t}: {arm_label(p.label, lang)}" for t, p in zip(drawer.titles, panes)]
    assert min(b.h for b in drawer.lay.text_boxes) >= 8 * drawer.lay.line_height
