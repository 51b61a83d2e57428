"""An uploaded recording as the pages get it: parsed once server-wide (specreplay/replay/uploads.py), held while a
session that looked at it is still connected, so a visitor's upload, parsed and as sent, leaves memory soon after the
visitor does."""

from __future__ import annotations

from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.uploaded_file_manager import UploadedFile

from specreplay.recording.format import Recording, RecordingError
from specreplay.replay import uploads


def _connected(session_id: str) -> bool:
    """Whether the session still has a browser (no runtime, as under AppTest: assume it does)."""
    return not Runtime.exists() or Runtime.instance().is_active_session(session_id)


def _let_go(session_id: str) -> None:
    """The uploaded bytes of a session that left: Streamlit keeps them with the session for a reconnect (two
    minutes, and longer until its store is next written), a whole upload per visitor; they go with the parse."""
    if Runtime.exists():
        Runtime.instance().uploaded_file_mgr.remove_session_files(session_id)


def parsed_upload(up: UploadedFile) -> Recording | RecordingError:
    ctx = get_script_run_ctx()
    uploads.watch_viewers(_connected, _let_go)
    return uploads.parsed(up.file_id, up.name, up.getvalue, viewer=ctx.session_id if ctx else None)
