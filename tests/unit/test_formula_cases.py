"""theory.py against the cases its browser twin (assets/explainer/formulas.js) and the exported calculator read too."""

import json
import math

from specreplay import theory
from specreplay.resources import ASSETS


def test_every_shared_case() -> None:
    cases = json.loads((ASSETS / "formula_cases.json").read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 20
    for k in cases:
        a, g, c = k["alpha"], k["gamma"], k["c"]
        assert math.isclose(theory.expected_tokens(a, g), k["expected_tokens"], rel_tol=1e-12), k
        assert math.isclose(theory.speedup(a, g, c), k["speedup"], rel_tol=1e-12), k
        assert math.isclose(theory.compute_overhead(a, g, c), k["compute"], rel_tol=1e-12), k
