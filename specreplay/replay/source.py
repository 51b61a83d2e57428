"""Where the replay page gets recordings: the recording folders (specreplay.locations), or an upload."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from specreplay.recording.format import Recording, RecordingError, engine_name, load, load_header, loads
from specreplay.panes import TIMING_ONLY
from specreplay.locations import recording_files

MAX_UPLOAD_BYTES = 20 * 2**20  # a long single-stream recording is a few MB; this keeps a browser tab usable


def bundled_paths() -> list[Path]:
    """Every recording in the recording folders (the name is what the URL's ?recording= holds): recordings made on
    an accelerator first, timing-only ones (dummy weights) last, then by name."""
    return sorted(recording_files(), key=lambda p: (*_order(p), p.stem))


def _order(path: Path) -> tuple[bool, bool]:
    """(not on an accelerator, timing only) from the header line alone; an unreadable header sorts with CPU files."""
    try:
        header = load_header(path)
    except (OSError, RecordingError):
        return True, False
    return header.machine.accelerator is None, header.timing_only


def load_bundled(name: str) -> Recording:
    """A bundled recording by name; a last line still being written (no newline yet) is left out."""
    path = next((p for p in bundled_paths() if p.stem == name), None)
    if path is None:
        raise RecordingError(f"{name}.jsonl", 0, "", "no such bundled recording")
    return load(path, repair=True)


def load_upload(name: str, data: bytes) -> Recording:
    """Validate an uploaded file; every problem comes back as a RecordingError naming file:line and field."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise RecordingError(name, 0, "", f"the file is {len(data) / 2**20:.1f} MiB; the limit is "
                             f"{MAX_UPLOAD_BYTES // 2**20} MiB", "upload a recording with fewer runs")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordingError(name, 0, "", f"not UTF-8 text (byte {exc.start})", "is this a recording?") from None
    return loads(text, name, keep_ids=False)  # the page never reads token ids: a quarter less memory per upload


@dataclass(frozen=True)
class Provenance:
    engines: str
    models: str
    machine: str
    date: str
    note: str = ""  # "timing only — dummy weights" for a timing_only recording

    def line(self) -> str:
        return " · ".join(x for x in (self.note, self.engines, self.models, self.machine, self.date) if x)


def _unique(values: list[str]) -> str:
    return ", ".join(dict.fromkeys(v for v in values if v))


def provenance(rec: Recording) -> Provenance:
    engines = _unique([engine_name(a) for a in rec.arms])
    return Provenance(engines=engines, models=_unique([a["model"] for a in rec.arms]),
                      machine=rec.machine_line, date=rec.header.date,
                      note=TIMING_ONLY if rec.timing_only else "")
