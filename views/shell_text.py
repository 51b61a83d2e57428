"""The app shell's words (Korean, English): the page titles in the navigation and the friendly error panel, read
through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    "home": ("소개", "Start here"),
    "replay": ("나란히 재생", "Side-by-side replay"),
    "acceptance": ("수용률과 드래프트 길이", "Acceptance rate & draft length"),
    "concurrency": ("동시 접속과 배수", "Concurrency vs speedup"),
    "ladder": ("bf16 → 4비트 → 드래프터", "bf16 → 4-bit → drafter"),
    "cost": ("토큰당 비용과 KV 캐시", "Cost per token & KV cache"),
    "roofline": ("왜 4비트가 큰 배치에서 느려지나", "Why 4-bit can lose at large batch"),
    "chooser": ("어떤 방식을 켤까", "Which method to use"),
    "error": ("이 페이지를 그리다 문제가 생겼습니다. 새로 고치거나 다른 선택으로 다시 해 보세요. 문제가 계속되면 주소(URL)와 "
              "함께 알려 주세요.",
              "Something went wrong drawing this page. Reload, or try another choice. If it keeps happening, "
              "tell us the page address (URL)."),
}
