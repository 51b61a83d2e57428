"""One typed field of a parsed JSON or TOML object: the single check behind the recording format's
(`file:line: field 'x': expected integer, got str`) and the recorder config's (`file: x: ...`) errors."""

from __future__ import annotations

from typing import Any

MISSING: Any = object()
_NAMES = {int: "integer", float: "number", str: "string", dict: "object", list: "array", bool: "boolean"}


class FieldError(ValueError):
    """What is wrong with the field; the caller says where (file, line, field name)."""

    def __init__(self, problem: str, missing: bool = False):
        super().__init__(problem)
        self.missing = missing


def type_name(types: type | tuple[type, ...]) -> str:
    ts = types if isinstance(types, tuple) else (types,)
    return " or ".join(_NAMES.get(t, t.__name__) for t in ts)


def typed(obj: dict, key: str, types: type | tuple[type, ...], default: Any = MISSING) -> Any:
    """obj[key] if it is one of `types` (a boolean is not a number unless bool is listed); `default` when the
    key is absent, or FieldError('missing') without one."""
    if key not in obj:
        if default is MISSING:
            raise FieldError("missing", missing=True)
        return default
    value = obj[key]
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise FieldError(f"expected {type_name(types)}, got a boolean")
    if not isinstance(value, types):
        raise FieldError(f"expected {type_name(types)}, got {'null' if value is None else type(value).__name__}")
    return value
