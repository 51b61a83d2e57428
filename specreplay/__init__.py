"""specreplay: replay and explain recorded LLM token streams (why 4-bit and speculative decoding are faster).

The core (every module but specreplay/views/, the app layer) imports no Streamlit. Installed, the recorder is
`specreplay.recorder` and the data `specreplay.assets` / `specreplay.recordings` (specreplay.resources); in a
checkout these are the top-level folders recorder/, assets/ and recordings/. The command is `specreplay`
(specreplay.cli).
"""
