"""specreplay: replay and explain recorded LLM token streams (why 4-bit and speculative decoding are faster).

The core (every module but specreplay/views/, the app layer) imports no Streamlit. The recorder is a package of
its own, `recorder` (the top-level folder recorder/). Installed, the data is `specreplay.assets` /
`specreplay.recordings` (specreplay.resources); in a checkout these are the top-level folders assets/ and
recordings/. The command is `specreplay` (specreplay.cli).
"""
