"""Recordings imported from other benchmark tools: the header's `imported` block and what it says on screen.

An importer (specreplay/importers/) keeps what the tool measured and states what its
file lacks. The header carries
`imported = {tool, version, file, lacks: [sentences], notes: [sentences]}`; an arm whose
chunk sizes are unknown carries `counts = "chunks"`: each event is one streamed chunk
(`n` = 1), so counters and rates count chunks, never made-up tokens.
"""

from __future__ import annotations

from specreplay.recording.format import Recording
from specreplay.recording.header import Imported

PLACEHOLDER = "▪"  # one per chunk where the tool kept no per-chunk text; plainly not language


def imported_info(rec: Recording, arm_id: str | None = None) -> Imported | None:
    """The recording's `imported` block; with an arm, that arm's own block first (one source file per arm)."""
    own = rec.arm(arm_id).imported if arm_id is not None else None
    return own or rec.header.imported


def source_line(info: Imported) -> str:
    """'vllm bench serve 0.32.0 · result.json': where an imported recording came from."""
    tool = " ".join(x for x in (info.tool, info.version) if x)
    return " · ".join(x for x in (tool, info.file or "") if x)
