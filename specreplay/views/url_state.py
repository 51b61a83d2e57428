"""Every explainer control in the URL, so a blog can link to "α = 0.7, γ = 5" (the replay page does this too).

A page names its controls once: `Control(key, parse, default)`. Before the widgets are drawn, `restore` puts a
valid URL value into the widget's session state (a value that does not parse, or is not one of the control's
options, is ignored and the default stays); after they are drawn, `publish` writes the current values back,
leaving out values equal to the default so links stay short. A widget keyed `key` reads `?key=`.

A page whose widgets are keyed per recording (the replay page) reads a key's value with `given` and writes its
keys with `mirror`: one validation (the Control's) and one writer per key. `?speed=` is the one key the page
reads and never writes: a speed is picked inside the player's frame, which the page does not hear, so the player's
embed.js is its writer (assets/player/embed.js).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st


@dataclass(frozen=True)
class Control:
    key: str
    parse: Callable[[str], Any]  # URL text → value; raises ValueError when it is not one
    default: Any
    options: Sequence[Any] | None = None  # a choice among these only
    low: float | None = None  # a number within [low, high]
    high: float | None = None
    param: str = ""  # the URL's name for it, when not the widget key

    @property
    def name(self) -> str:
        return self.param or self.key

    def read(self, text: str) -> Any:
        """The URL text as this control's value, or ValueError."""
        value = self.parse(text)
        if self.options is not None and value not in self.options:
            raise ValueError(f"{text!r} is not an option")
        if self.low is not None and not self.low <= value <= (self.high if self.high is not None else value):
            raise ValueError(f"{text!r} is out of range")
        return value

    def text(self, value: Any) -> str:
        return f"{value:g}" if isinstance(value, float) else str(value)


def digits(text: str) -> int:
    """A whole number of at most six ASCII digits: int() alone takes '²', '3_0' and ' 3', and refuses a 5,000-digit
    string in its own words."""
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise ValueError(f"{text[:20]!r} is not a whole number")
    return int(text)


def number(key: str, default: float, low: float, high: float) -> Control:
    return Control(key, float, default, low=low, high=high)


def whole(key: str, default: int, low: int, high: int, options: Sequence[int] | None = None) -> Control:
    return Control(key, int, default, options=options, low=low, high=high)


def choice(key: str, default: str, options: Sequence[str]) -> Control:
    return Control(key, str, default, options=options)


def restore(controls: Sequence[Control]) -> None:
    """Seed each control's session state from the URL, once per URL value (a later move wins over the URL), else
    from its default: the page's widgets take their value from session state only (no value= of their own)."""
    for c in controls:
        text = st.query_params.get(c.name)
        if text is not None and st.session_state.get(f"_url_{c.key}") != text:
            st.session_state[f"_url_{c.key}"] = text
            try:
                st.session_state[c.key] = c.read(text)
            except (ValueError, TypeError):
                pass  # a hand-edited link with a bad value: keep the current value, never fail the page
        if c.key not in st.session_state:
            st.session_state[c.key] = c.default


def given(c: Control) -> tuple[Any, str | None]:
    """The URL's value for this control: (value, None); (None, the text) when it is there but not valid; (None,
    None) when it is not there."""
    text = st.query_params.get(c.name)
    if not text:
        return None, None
    try:
        return c.read(text), None
    except (ValueError, TypeError):
        return None, text


def mirror(values: Mapping[str, str | None]) -> None:
    """Write these URL values, each only where it changed; None removes the key (lang is ui.language_switch's)."""
    for name, text in values.items():
        if text is None:
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get(name) != text:
            st.query_params[name] = text


def publish(controls: Sequence[Control]) -> None:
    """Mirror the current values into the URL (defaults left out)."""
    for c in controls:
        value = st.session_state.get(c.key, c.default)
        mirror({c.name: None if value == c.default else
                (("1" if value else "0") if isinstance(value, bool) else c.text(value))})
        st.session_state[f"_url_{c.key}"] = st.query_params.get(c.name)
