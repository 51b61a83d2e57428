"""A recording as every page and command reads it: the file format (`format`) and the typed header (`header`)."""
