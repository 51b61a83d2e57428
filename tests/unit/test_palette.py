"""One palette: the charts' kind colours are the player's, six series colours every reader tells apart, baselines grey."""

import json

from specreplay import palette
from specreplay.replay import theme
from specreplay.resources import ASSETS


def test_the_player_draws_kinds_in_the_charts_colours() -> None:
    own = json.loads((ASSETS / "player" / "theme.json").read_text(encoding="utf-8"))
    assert not set(palette.KINDS) & {k for mode in ("light", "dark") for k in own[mode]}  # one home: palette.json
    page_css = theme.css()
    for mode in ("light", "dark"):
        for kind, hex_ in palette.KINDS.items():
            assert theme.colours(mode)[kind] == hex_
            assert f"--{kind}: {hex_};" in page_css


# Machado, Oliveira & Fernandes (2009), full severity, on linear RGB: how a reader with each colour-vision
# deficiency sees a colour.
VISION = {
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
DISTINCT = 15  # CIE76 ΔE: the old six shades of one orange came to 9 for a deutan reader


def _lab(hex_: str, seen: tuple) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour as a reader with `seen` vision sees it."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    rgb = [linear(int(hex_[i:i + 2], 16) / 255) for i in (1, 3, 5)]
    r, g, b = (min(1.0, max(0.0, sum(seen[k][j] * rgb[j] for j in range(3)))) for k in range(3))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_six_series_stay_distinct_for_every_reader_and_baselines_are_grey() -> None:
    assert len(set(palette.SERIES)) == 6
    for vision, seen in VISION.items():
        labs = [_lab(c, seen) for c in palette.SERIES]
        for i, a in enumerate(labs):
            for j, b in enumerate(labs[i + 1:], i + 1):
                gap = sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5
                assert gap >= DISTINCT, (vision, palette.SERIES[i], palette.SERIES[j], round(gap, 1))
    for grey in palette.BASELINE:
        r, g, b = (int(grey[i:i + 2], 16) for i in (1, 3, 5))
        assert max(r, g, b) - min(r, g, b) <= 24
