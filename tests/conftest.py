pytest_plugins = ["tests.browser_fixtures", "tests.engine_fixtures"]
