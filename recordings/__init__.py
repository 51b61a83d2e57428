"""Package data (specreplay.recordings): the bundled recordings (*.jsonl, docs/recorder.md).

Read through specreplay.resources.RECORDINGS.
"""
