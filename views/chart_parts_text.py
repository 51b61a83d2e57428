"""The words every explainer chart shares (views/chart_parts.py), Korean and English, read through
views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    "sources": ("출처", "Sources"),
    "page_sources": ("출처: ", "Sources: "),
}
