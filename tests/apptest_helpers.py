"""Run one page the way the app runs it: through app.py's navigation (pages use st.page_link and shared chrome)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from specreplay.views import pages
from tests.browser_fixtures import ROOT


def open_page(name: str, lang: str = "ko", timeout: float = 60, **query: str) -> AppTest:
    """AppTest of app.py switched to the page called `name` (specreplay/views/pages.py), with ?lang= and any other query
    params set."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.query_params["lang"] = lang
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    if name != pages.START.name:
        at.switch_page(str(Path(pages.page(name).file).relative_to(ROOT)))
        at.run()
    return at


def shown(markdown: str) -> str:
    """What a reader sees of Markdown that ui.plain escaped: the punctuation without its backslashes."""
    return re.sub(r"\\([!-/:-@\[-`{-~])\u2060", r"\1", markdown)


def open_expander(at: AppTest, key: str) -> AppTest:
    """Open a lazily filled expander (views.chart_parts.opened) as a reader's click does: its state, then a rerun."""
    at.session_state[key] = True
    return at.run()


# what prose_words counts: the elements a reader reads as text
PROSE = {"title", "header", "subheader", "markdown", "caption", "alert", "info", "warning", "success", "error",
         "page_link"}
MARKUP = re.compile(r":[a-z]+-badge\[|\]\([^)]*\)|\\.|\u2060")


def words(text: str) -> int:
    return len(re.findall(r"\w+", MARKUP.sub(" ", text)))


CHART_TITLE = re.compile(r'<p class="chart-title">(.*)</p>', re.S)  # views.chart_parts.plotly


def chart_title(node) -> str | None:
    """A Plotly chart's title, drawn above it as text (views.chart_parts.plotly); None for any other element."""
    found = CHART_TITLE.fullmatch(str(getattr(node, "value", ""))) if getattr(node, "type", "") == "markdown" else None
    return html.unescape(found.group(1)) if found else None


def prose_words(node) -> int:
    """Words a reader meets under one node of the AppTest tree, expanders left out (bench/page_words.py): titles,
    Markdown, captions, alerts, metric labels, page links; not tables or charts. A word is a run of letters or
    digits; badge markup and link addresses are dropped."""
    kind = getattr(node, "type", "")
    if kind == "expander":
        return 0
    children = getattr(node, "children", None)
    if children is not None:
        return sum(prose_words(c) for c in children.values())
    if kind == "metric":
        return words(str(node.label))
    if chart_title(node) is not None:  # a chart's, as Plotly's own title was: not prose
        return 0
    if kind in PROSE or type(node).__name__ in ("Info", "Warning", "Success", "Error", "Caption", "Markdown"):
        return words(str(getattr(node, "value", "") or getattr(node, "label", "")))
    return 0


def visible_texts(at: AppTest) -> list[str]:
    """Every string a reader sees on the page, expanders included: prose, alerts, metrics, widget labels and their
    options, table headers and cells, page links, Plotly titles, axes, legend names and cell texts, the live charts'
    titles and names, and the player's pane labels, subtitles, warnings and words."""
    out: list[str] = []

    def plotly_texts(spec: dict) -> None:
        layout = spec.get("layout", {})
        titled = [layout] + [v for k, v in layout.items() if k.startswith(("xaxis", "yaxis")) and isinstance(v, dict)]
        for part in titled:
            t = part.get("title")
            out.append(t.get("text", "") if isinstance(t, dict) else str(t or ""))
            out.extend(str(x) for x in part.get("ticktext", []))
        out.extend(str(a.get("text", "")) for a in layout.get("annotations", []))
        for trace in spec.get("data", []):
            if trace.get("showlegend", True) is not False and trace.get("name"):
                out.append(str(trace["name"]))
            if isinstance(trace.get("text"), list):
                out.extend(str(t) for t in trace["text"] if not isinstance(t, list))

    def live_texts(value: object, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                live_texts(v, k)
        elif isinstance(value, list):
            for v in value:
                live_texts(v, key)
        elif isinstance(value, str) and key in ("title", "name", "label", "current_label", "current_name"):
            out.append(value)

    def walk(node) -> None:
        kind = getattr(node, "type", "")
        if kind == "expander":
            out.append(str(node.label))
        children = getattr(node, "children", None)
        if children is not None:
            for child in children.values():
                walk(child)
            return
        proto = getattr(node, "proto", None)
        if kind in ("markdown", "caption", "title", "header", "subheader", "info", "warning", "error", "success"):
            out.append(node.value)
        elif kind == "metric":
            out.extend([str(node.label), str(node.value), str(node.delta or "")])
        elif kind in ("radio", "selectbox", "multiselect", "select_slider", "slider", "checkbox", "toggle",
                      "number_input", "text_input", "button"):
            out.append(str(node.label))
            out.extend(str(o) for o in getattr(node, "options", None) or ())
            out.append(str(getattr(proto, "help", "") or ""))
        elif kind in ("arrow_data_frame", "dataframe", "table"):
            frame = node.value
            out.extend(str(c) for c in frame.columns)
            out.extend(str(v) for v in frame.astype(object).where(frame.notna(), "").values.ravel())
        elif kind == "plotly_chart":
            plotly_texts(json.loads(proto.spec))
        elif kind == "bidi_component":
            try:
                live_texts(json.loads(proto.json))
            except ValueError:
                pass
        elif kind == "iframe":
            found = re.search(r'id="specreplay-payload">(.*?)</script>', proto.srcdoc or "", re.S)
            if found:
                payload = json.loads(found.group(1))
                for pane in payload.get("panes", []):
                    out.extend([pane.get("label", ""), pane.get("subtitle", ""), *pane.get("warnings", [])])
                out.extend(str(v) for v in payload.get("labels", {}).values())
        elif kind == "page_link":
            out.append(proto.label)

    walk(at._tree)
    return [t for t in out if t]
