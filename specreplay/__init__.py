"""specreplay: replay and explain recorded LLM token streams (why 4-bit and speculative decoding are faster).

The core (this package's own modules) imports no Streamlit. Installed, the recorder is `specreplay.recorder`, the
app layer `specreplay.views`, and the data `specreplay.assets` / `specreplay.recordings` (specreplay.resources);
in a checkout these are the top-level folders recorder/, views/, assets/ and recordings/. The command is
`specreplay` (specreplay.cli).
"""
