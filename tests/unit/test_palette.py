"""One palette: the charts' kind colours are the player's, every family has six distinct shades, baselines grey."""

import json

from specreplay import palette, theme
from specreplay.resources import ASSETS


def test_the_player_draws_kinds_in_the_charts_colours() -> None:
    own = json.loads((ASSETS / "player" / "theme.json").read_text(encoding="utf-8"))
    assert not set(palette.KINDS) & {k for mode in ("light", "dark") for k in own[mode]}  # one home: palette.json
    page_css = theme.css()
    for mode in ("light", "dark"):
        for kind, hex_ in palette.KINDS.items():
            assert theme.colours(mode)[kind] == hex_
            assert f"--{kind}: {hex_};" in page_css


def test_each_source_has_its_own_six_shades_and_baselines_are_grey() -> None:
    seen: set[str] = set()
    for shades in palette.FAMILIES.values():
        assert len(set(shades)) == 6
        assert not seen & set(shades)  # no colour shared between two sources
        seen |= set(shades)
    for grey in palette.BASELINE:
        r, g, b = (int(grey[i:i + 2], 16) for i in (1, 3, 5))
        assert max(r, g, b) - min(r, g, b) <= 24
