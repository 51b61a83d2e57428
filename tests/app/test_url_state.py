"""Every explainer page's controls round-trip through the URL (AppTest): a link's value seeds the control, a moved
control goes back into the address, a bad value is ignored and the default kept, defaults stay out of the link."""

import pytest

from tests.apptest_helpers import open_page

# page, the URL's values, how to read each back from the page (widget kind, key)
CASES = [
    ("acceptance", {"alpha": "0.7", "gamma": "7", "c": "0.3"}, {"alpha": ("slider", 0.7), "gamma": ("slider", 7),
                                                                   "c": ("slider", 0.3)}),
    ("concurrency", {"family": "quant", "source": "gpu", "level": "16"},
     {"family": ("radio", "quant"), "source": ("radio", "gpu"), "level": ("select_slider", 16)}),
    ("ladder", {"prompt": "chat", "our_machine": "h200"}, {"prompt": ("selectbox", "chat"),
                                                           "our_machine": ("radio", "h200")}),
    ("cost", {"tok_s": "158.34", "kv_dtype": "fp8", "reserved": "36"},
     {"tok_s": ("number_input", 158.34), "kv_dtype": ("selectbox", "fp8"), "reserved": ("slider", 36)}),
    ("roofline", {"roofline_batch": "64"}, {"roofline_batch": ("select_slider", 64)}),
    ("chooser", {"copies": "yes", "concurrency": "mid"}, {"ask_copies": ("radio", "yes"),
                                                           "ask_concurrency": ("radio", "mid")}),
]


def widget(at, kind: str, key: str):
    return getattr(at, kind)(key=key)


def param(at, name: str) -> str | None:
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


@pytest.mark.parametrize(("name", "query", "expect"), CASES, ids=[c[0] for c in CASES])
def test_a_link_sets_the_controls(name: str, query: dict, expect: dict) -> None:
    at = open_page(name, "en", **query)
    assert not at.exception
    for key, (kind, value) in expect.items():
        assert widget(at, kind, key).value == value, key
    for q, text in query.items():
        assert param(at, q) == text  # the page keeps what it was given in its address


@pytest.mark.parametrize(("name", "query"), [("acceptance", {"alpha": "2", "gamma": "x"}),
                                             ("concurrency", {"level": "7", "family": "nope"}),
                                             ("chooser", {"copies": "maybe"}), ("cost", {"layers": "-3"})])
def test_a_bad_value_keeps_the_default_and_leaves_the_address(name: str, query: dict) -> None:
    at = open_page(name, "en", **query)
    assert not at.exception
    for q in query:
        assert param(at, q) is None


@pytest.mark.parametrize(("name", "kind", "key", "value", "text"), [
    ("acceptance", "slider", "alpha", 0.55, "0.55"),
    ("concurrency", "select_slider", "level", 32, "32"),
    ("ladder", "selectbox", "prompt", "reasoning", "reasoning"),
    ("cost", "number_input", "answer_tokens", 1000, "1000"),
    ("roofline", "select_slider", "roofline_batch", 16, "16"),
    ("chooser", "radio", "ask_temperature", "high", "high"),
])
def test_a_moved_control_goes_into_the_address(name: str, kind: str, key: str, value, text: str) -> None:
    at = open_page(name, "en")
    widget(at, kind, key).set_value(value).run()
    assert not at.exception
    assert text in [param(at, q) for q in at.query_params]
