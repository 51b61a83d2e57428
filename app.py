"""specreplay in a checkout: `streamlit run app.py` (`make run`). The shell lives in specreplay/views/shell.py, which
`specreplay app` runs directly from an installed package."""

from specreplay.views.shell import run

run()
