import os

# app.py turns a page's exception into a friendly panel for visitors; the tests want the exception itself.
os.environ["SPECREPLAY_RAISE"] = "1"

pytest_plugins = ["tests.browser_fixtures", "tests.engine_fixtures"]
