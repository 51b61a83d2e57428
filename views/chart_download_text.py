"""The "download this chart" button's words (Korean, English), read through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    "download": ("이 차트 내려받기 (HTML 파일 하나)", "Download this chart (one HTML file)"),
    "download_help": ("서버 없이 열리는 파일 하나: 블로그 글에 <iframe>으로 넣을 수 있습니다 (docs/interop.md).",
                      "One file that opens with no server: put it in a blog post with an <iframe> (docs/interop.md)."),
}
