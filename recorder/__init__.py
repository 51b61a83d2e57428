"""specreplay's recorder: streams requests to OpenAI-compatible servers and writes recording format v1.

Installed as specreplay.recorder; run `specreplay record --help` (in a checkout also `python -m recorder --help`).
The app never imports this package; recorder/engine/ (serving the test arms) is checkout-only dev tooling.
"""
