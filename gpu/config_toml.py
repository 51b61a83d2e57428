"""Recorder configs written from Python definitions (gpu/ladder27.py, gpu/qwen_gpu.py, gpu/sizes.py): their TOML
text and files."""

from __future__ import annotations

import json
from pathlib import Path

CONFIGS = Path(__file__).resolve().parent.parent / "recorder/configs"


def toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML for {type(v).__name__}")


def config_text(head: list[str], cfg: dict) -> str:
    """head (comment lines), then title, timing_only when set, [record], every [[arms]] and [[prompts]] table."""
    lines = [*head, f"title = {toml_value(cfg['title'])}"]
    lines += ["timing_only = true"] if cfg.get("timing_only") else []
    lines += ["", "[record]"] + [f"{k} = {toml_value(v)}" for k, v in cfg["record"].items()]
    for table, rows in (("arms", cfg["arms"]), ("prompts", cfg["prompts"])):
        for row in rows:
            lines += ["", f"[[{table}]]"] + [f"{k} = {toml_value(v)}" for k, v in row.items()]
    return "\n".join(lines) + "\n"


def write_configs(folder: Path, texts: dict[str, str]) -> list[Path]:
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    return [folder / name for name in texts]


def timing_only_texts(head: list[str], configs: dict[str, dict], prompt: dict) -> dict[str, str]:
    """Each timing-only config's text (one prompt; the device marks the header `timing_only`)."""
    return {name: config_text(head, {**cfg, "timing_only": True, "prompts": [prompt]}) for name, cfg in configs.items()}


def main(texts: dict[str, str]) -> int:
    """`python3 -m gpu.<module>`: rewrite its configs in recorder/configs and name them."""
    for path in write_configs(CONFIGS, texts):
        print(path)
    return 0
