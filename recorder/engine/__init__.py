"""The real engine for recording and tests: vLLM's CPU build serving SmolLM2, baseline and ngram arms."""
