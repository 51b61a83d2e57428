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
    """A session that left with an upload. Streamlit keeps it two minutes or more for a reconnect, and its widgets
    keep the whole upload's bytes; it is closed now (a visitor who comes back gets a fresh page and uploads again)."""
    if not Runtime.exists():
        return
    runtime = Runtime.instance()
    runtime.uploaded_file_mgr.remove_session_files(session_id)
    try:
        loop = runtime._get_async_objs().eventloop  # close_session must run on Streamlit's own event loop
    except (AttributeError, RuntimeError):  # a Streamlit without it: the session goes at its own time
        return

    def close() -> None:
        if not runtime.is_active_session(session_id):  # not if the visitor came back meanwhile
            runtime.close_session(session_id)
            loop.run_in_executor(None, uploads.release)  # what the session held, handed back to the OS (off the loop)

    loop.call_soon_threadsafe(close)


def parsed_upload(up: UploadedFile) -> Recording | RecordingError:
    ctx = get_script_run_ctx()
    uploads.watch_viewers(_connected, _let_go)
    return uploads.parsed(up.file_id, up.name, up.getvalue, viewer=ctx.session_id if ctx else None)
