"""The app shell's words (Korean, English): the friendly error panel, read through views.texts.Texts (the page
titles are in views/pages.py)."""

TEXT: dict[str, tuple[str, str]] = {
    "error": ("이 페이지를 그리다 문제가 생겼습니다. 새로 고치거나 다른 선택으로 다시 해 보세요. 문제가 계속되면 주소(URL)와 "
              "함께 알려 주세요.",
              "Something went wrong drawing this page. Reload, or try another choice. If it keeps happening, "
              "tell us the page address (URL)."),
}
