"""Real vLLM on the lent H200: the carry builder (gpu.carry, run here) and the device-side steps (gpu.device).

docs/gpu.md has the sequence of device calls and what came back.
"""
