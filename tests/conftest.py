pytest_plugins = ["tests.browser_fixtures"]
