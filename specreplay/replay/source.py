"""Where the replay page gets recordings: the catalogue of the recording folders (specreplay.recording.catalogue),
or an upload."""

from __future__ import annotations

from dataclasses import dataclass

from specreplay.recording import catalogue
from specreplay.recording.format import Recording, RecordingError, loads
from specreplay.recording.header import Header

MAX_UPLOAD_BYTES = 20 * 2**20  # a long single-stream recording is a few MB; this keeps a browser tab usable


def load_bundled(name: str) -> Recording:
    """A recording of the folders by name; a last line still being written (no newline yet) is left out."""
    entry = next((e for e in catalogue.entries() if e.name == name), None)
    if entry is None:
        raise RecordingError(f"{name}.jsonl", 0, "", "no such bundled recording")
    return catalogue.recording(entry.path, repair=True)


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

    def line(self) -> str:
        return " · ".join(x for x in (self.engines, self.models, self.machine, self.date) if x)


def _unique(values: list[str]) -> str:
    return ", ".join(dict.fromkeys(v for v in values if v))


def provenance(header: Header) -> Provenance:
    """What recorded it, from line 1 alone (the recording list shows it for every file without parsing any)."""
    return Provenance(engines=_unique([a.engine.line for a in header.arms]),
                      models=_unique([a.model for a in header.arms]), machine=header.machine.line,
                      date=header.date)
