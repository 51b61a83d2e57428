"""A recording as every page and command reads it: the file format (`format`), the typed header (`header`: the
machine, the recorder's settings, each `Arm` and `Prompt` with its facts computed once at load), the speculative
counters (`counts`) and the one way to get a recording from disk (`catalogue`).

Nothing outside this package reads a header's or an arm's raw JSON; the recorder, which writes them, compares
`Arm.entry` / `Prompt.entry` (the objects as written) when it resumes a file.
"""
