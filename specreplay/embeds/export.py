"""`specreplay export-chart NAME`: the charts by name, the app's URL state read against each chart's controls,
and the file. The app's "download this chart" buttons call `export_chart` with the page's own state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from specreplay.embeds import acceptance, breakeven, concurrency, ladder
from specreplay.embeds.document import Chart, document
from specreplay.languages import LANGUAGES, Lang

CHARTS: dict[str, Callable[[Lang], Chart]] = {
    "acceptance": acceptance.chart, "concurrency": concurrency.chart, "ladder": ladder.chart,
    "breakeven": breakeven.chart}
STATE_KEYS: dict[str, tuple[str, ...]] = {
    "acceptance": acceptance.STATE, "concurrency": concurrency.STATE, "ladder": ladder.STATE,
    "breakeven": breakeven.STATE}
WIDTH = 900  # px: the page's largest width when no size is given


class StateError(ValueError):
    """A value of the URL state that the chart has no place for; the message names it and what it takes."""


def state_of(link: str) -> dict[str, str]:
    """The query of an app link (a whole URL, '?alpha=0.7&gamma=5' or 'alpha=0.7&gamma=5') as name → text."""
    query = urlsplit(link).query if "://" in link else link.lstrip("?")
    return dict(parse_qsl(query, keep_blank_values=True))


def _options(c: dict[str, Any], state: Mapping[str, Any]) -> list[Any]:
    if "options_by" in c:
        return [v for v, _ in c["options_by"].get("/".join(str(state[d]) for d in c["depends"]), [])]
    return [o[0] if isinstance(o, list) else o for o in c["options"]]


def _value(c: dict[str, Any], text: str, state: Mapping[str, Any]) -> Any:
    """One control's value from the link's text, or StateError saying what the control takes."""
    name = c["name"]
    if c["kind"] == "range":
        try:
            v = float(text)
        except ValueError:
            raise StateError(f"{name}={text}: not a number; give one from {c['min']:g} to {c['max']:g}") from None
        if not c["min"] <= v <= c["max"]:
            raise StateError(f"{name}={text}: out of range; give one from {c['min']:g} to {c['max']:g}")
        if c["step"] == 1:
            if v != int(v):
                raise StateError(f"{name}={text}: give a whole number from {c['min']:g} to {c['max']:g}")
            return int(v)
        return v
    options = _options(c, state)
    chosen: Any = int(text) if c["kind"] == "steps" and text.lstrip("-").isdigit() else text
    if chosen not in options:
        raise StateError(f"{name}={text}: not one of {', '.join(map(str, options))}")
    return chosen


def start_state(chart: Chart, given: Mapping[str, str]) -> dict[str, Any]:
    """The chart's opening state: the app's defaults, then the link's values for this chart's controls (names it
    does not have, such as another chart's or lang, are left alone, as the app does); a dependent choice whose
    value is gone falls back to its first option."""
    state = dict(chart.defaults)
    for c in chart.controls:  # in order: a dependent control comes after the ones it depends on
        if c["name"] in given:
            state[c["name"]] = _value(c, given[c["name"]], state)
        elif c["kind"] != "range" and state.get(c["name"]) not in (options := _options(c, state)):
            state[c["name"]] = options[0] if options else None
    return state


def parse_size(text: str) -> tuple[int, int | None]:
    """'900' (width) or '900x360' (width × each plot's height), in px."""
    width, _, height = text.lower().partition("x")
    try:
        w, h = int(width), int(height) if height else None
    except ValueError:
        raise StateError(f"--size {text}: give WIDTH or WIDTHxHEIGHT in pixels, e.g. 900 or 900x360") from None
    if not 280 <= w <= 4000 or (h is not None and not 160 <= h <= 2000):
        raise StateError(f"--size {text}: width 280–4000 and height 160–2000 pixels")
    return w, h


def chart_named(name: str, lang: Lang = LANGUAGES[0]) -> Chart:
    if name not in CHARTS:
        raise StateError(f"no chart {name!r}; choose one of {', '.join(CHARTS)}")
    return CHARTS[name](lang)


def chart_document(chart: Chart, lang: Lang = LANGUAGES[0], state: Mapping[str, str] | None = None,
                   width: int = WIDTH, height: int | None = None) -> str:
    """The chart as one HTML document, opening in `state` (an app link's values)."""
    return document(chart, start_state(chart, state or {}), lang, width, height)


def export_chart(name: str, lang: Lang = LANGUAGES[0], state: Mapping[str, str] | None = None, width: int = WIDTH,
                 height: int | None = None) -> str:
    """The chart `name` as one HTML document, opening in `state` (an app link's values)."""
    return chart_document(chart_named(name, lang), lang, state, width, height)
