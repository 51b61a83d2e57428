"""specreplay's recorder: streams requests to OpenAI-compatible servers and writes recording format v1.

A package of its own, `recorder` (this folder, installed beside specreplay); run `specreplay record --help` or
`python -m recorder --help`.
The app never imports this package; recorder/engine/ (serving the test arms) is checkout-only dev tooling.
"""
