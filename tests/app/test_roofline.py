"""Roofline maths, the committed H200 measurement and the roofline page (the benchmark's CPU dry run: test_roofline_bench.py)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from specreplay.explain import roofline as rl
from tests.apptest_helpers import open_expander
from tests.browser_fixtures import ROOT

BATCHES = [1, 2, 4, 8, 16, 32, 64, 128, 256]


# ---------- formulas ----------

@pytest.mark.parametrize(("batch", "b_w", "expected"), [(1, 2.0, 1.0), (8, 0.5, 32.0), (64, 1.0, 128.0), (16, 2.0, 16.0)])
def test_intensity_is_two_b_over_bytes_per_weight(batch: int, b_w: float, expected: float) -> None:
    assert rl.intensity(batch, b_w) == pytest.approx(expected)


def test_exact_intensity_counts_activation_bytes_and_nears_the_approximation_at_small_batch() -> None:
    d = 4096
    assert rl.intensity_exact(1, d, d, 2.0) == pytest.approx(2 * d * d / (2 * d * d + 2 * (2 * d)))
    assert rl.intensity_exact(1, d, d, 2.0) < rl.intensity(1, 2.0)
    assert rl.intensity_exact(16, 8192, 28672, 0.5) == pytest.approx(rl.intensity(16, 0.5), rel=0.01)


def test_ridge_point_from_the_h200_datasheet() -> None:
    ridge = rl.ridge_point(990e12, 4.8e12)  # dense BF16 and HBM3e bandwidth
    assert ridge == pytest.approx(206.25)
    assert rl.ridge_batch(ridge, 2.0) == pytest.approx(206.25)
    assert rl.ridge_batch(ridge, 0.5) == pytest.approx(51.5625)


def test_roofline_time_is_the_slower_of_bytes_and_flops() -> None:
    k, n, bw, peak = 8192, 28672, 4.8e12, 990e12
    assert rl.roofline_time(1, k, n, 2.0, peak, bw) == pytest.approx((k * n * 2 + (k + n) * 2) / bw)
    assert rl.roofline_time(4096, k, n, 2.0, peak, bw) == pytest.approx(2 * 4096 * k * n / peak)


def test_ideal_int4_speedup_fades_to_one_but_never_below() -> None:
    peaks, bw = {"bf16": 990e12, "int4": 990e12, "fp8": 1980e12}, 4.8e12
    assert rl.ideal_speedup(1, 8192, 28672, "int4", peaks, bw) == pytest.approx(4.0, rel=0.01)
    assert rl.ideal_speedup(4096, 8192, 28672, "int4", peaks, bw) == pytest.approx(1.0)
    assert all(rl.ideal_speedup(b, 8192, 28672, "int4", peaks, bw) >= 1.0 for b in range(1, 5000, 7))


# ---------- the committed measurement ----------

@pytest.fixture(scope="module")
def data() -> dict:
    return rl.load_measured()


def test_measured_file_comes_from_an_h200_with_full_provenance(data: dict) -> None:
    prov = data["provenance"]
    assert prov["device"] == "cuda" and "H200" in prov["gpu"]
    for key in ("driver", "torch", "cuda", "date_utc", "command", "script_sha256", "kernels", "timing"):
        assert prov[key], key
    assert prov["skipped"] == []
    assert len(data["results"]) == len(data["shapes"]) * 3 * len(BATCHES)
    assert all(r["m_run"] == r["m"] for r in data["results"])  # no kernel needed padded rows


def test_every_kernel_passed_its_check_within_quantization_limits(data: dict) -> None:
    assert data["checks"] and all(c["ok"] for c in data["checks"])
    worst = {k: max(c["rel_err_vs_float"] for c in data["checks"] if c["kernel"] == k) for k in ("bf16", "int4", "fp8")}
    assert worst["bf16"] < 0.01 and worst["fp8"] < 0.06 and worst["int4"] < 0.15


def test_int4_crossing_batches_read_off_the_measured_file(data: dict) -> None:
    cross = rl.crossings(data, "int4")
    assert cross == {"8b_qkv": 8, "8b_o": 16, "8b_up": 8, "8b_down": 8,
                     "70b_qkv": 8, "70b_o": 8, "70b_up": 8, "70b_down": 8}
    for shape, m in cross.items():  # the raw medians agree: BF16 faster at m, int4 faster one step before
        bf16, int4 = rl.median_us(data, shape, "bf16"), rl.median_us(data, shape, "int4")
        assert int4[m] > bf16[m] and int4[m // 2] < bf16[m // 2]


def test_fp8_beats_bf16_at_every_batch_and_int4_wins_big_at_batch_one(data: dict) -> None:
    assert set(rl.crossings(data, "fp8").values()) == {None}
    assert all(rl.speedup(data, s.name, "int4")[1] > 1.5 for s in rl.shapes(data))


def test_measured_ridge_is_our_peak_over_our_bandwidth(data: dict) -> None:
    c = data["ceilings"]
    assert rl.measured_ridge(data, "int4") == rl.measured_ridge(data, "bf16") == pytest.approx(
        c["bf16_matmul_flops_per_s"] / c["copy_bandwidth_bytes_per_s"])
    assert 100 < rl.measured_ridge(data, "bf16") < 300
    assert rl.measured_ridge(data, "fp8") > rl.measured_ridge(data, "bf16")


# ---------- the page ----------

def page(lang: str = "ko", **query: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "specreplay" / "views" / "roofline.py"), default_timeout=60)
    at.query_params["lang"] = lang
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def metric(at: AppTest, label_part: str) -> str:
    return next(m.value for m in at.metric if label_part in m.label)


def test_batch_slider_changes_the_intensity_and_measured_readouts() -> None:
    at = page("en")
    assert not at.exception, at.exception
    assert metric(at, "int4 W4A16 · I(8)") == "32 FLOP/B"
    before = metric(at, "int4 W4A16 vs BF16")
    at.select_slider(key="roofline_batch").set_value(64).run()
    assert not at.exception, at.exception
    assert metric(at, "int4 W4A16 · I(64)") == "256 FLOP/B"
    assert metric(at, "BF16 · I(64)") == "64 FLOP/B"
    data = rl.load_measured()
    assert metric(at, "int4 W4A16 vs BF16") == f"{rl.speedup(data, '70b_up', 'int4')[64]:.2f}×" != before


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_embedded_page_drops_its_title_and_keeps_provenance_and_all_three_kinds(lang: str, monkeypatch) -> None:
    assert page(lang).title  # the full page has its title
    # ?embed=true never reaches AppTest's st.context, so the embedded branch is reached by patching the helper
    # (as tests/app/test_explainer_pages.py does); the browser tests load real ?embed=true URLs.
    monkeypatch.setattr("specreplay.views.ui.embedded", lambda: True)
    at = open_expander(page(lang), "roofline_provenance_open")  # the provenance, filled once opened
    assert not at.exception, at.exception
    assert not at.title  # the blog post around it has its own
    text = " ".join(m.value for m in at.markdown)
    assert "NVIDIA H200" in text and "580.159.04" in text
    badges = " ".join(m.value for m in at.caption)
    for kind in (("계산", "computed"), ("여기서 측정", "measured here"), ("인용", "quoted")):
        assert kind[lang == "en"] in badges
