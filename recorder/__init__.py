"""specreplay's recorder: streams requests to OpenAI-compatible servers and writes recording format v1.

Run `python -m recorder --help`. The app never imports this package.
"""
