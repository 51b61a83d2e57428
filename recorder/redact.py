"""Credentials never reach a recording or the terminal: API keys, Bearer/Basic tokens, user:password@ in URLs.

A server may echo the request's Authorization header in an error body, and an httpx message may carry the
URL it was given; both are stored or printed only after passing through `redact`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_TOKEN = re.compile(r"\b(Bearer|Basic)(\s+)[^\s\"',;}\]]+", re.IGNORECASE)
_USERINFO = re.compile(r"(?<=//)[^/@\s\"']+@")


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """`text` with every known secret, every Bearer/Basic token and every user:password@ replaced by ***."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, "***")
    text = _TOKEN.sub(lambda m: f"{m.group(1)}{m.group(2)}***", text)
    return _USERINFO.sub("***@", text)
