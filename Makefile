# Two entry points: `make run` (the app on the bundled recordings) and `make test` (everything, then all tests).
PY ?= python3
VENV := .venv
ENGINE_VENV := .venv-engine
# Converted weights live outside git, in the user cache.
MODELS ?= $(HOME)/.cache/specreplay/models
PORT ?= 8501

.PHONY: run test app-deps test-deps system-deps engine weights

run: app-deps
	$(VENV)/bin/streamlit run app.py --server.port $(PORT)

app-deps: $(VENV)/.app-stamp
$(VENV)/.app-stamp: pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install -q -e .
	touch $@

test-deps: $(VENV)/.test-stamp
$(VENV)/.test-stamp: pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $@ $(VENV)/.app-stamp

# Debian's chromium for the browser tests, Nanum for Hangul in videos.
system-deps:
	@if ! command -v chromium >/dev/null || ! fc-list | grep -qi nanum; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-nanum; fi

test: system-deps test-deps engine weights
	SPECREPLAY_ENGINE_PY=$(CURDIR)/$(ENGINE_VENV)/bin/python SPECREPLAY_MODELS=$(MODELS) \
	  $(VENV)/bin/python -m pytest
