"""RGB frames to YUV 4:2:0 (BT.709, limited range) for the H.264 encoder, converted only where they changed.

Doing this here rather than in ffmpeg's scaler leaves the encoder's core free
for x264: most of a replay frame stands still, so converting just the repainted
regions costs a fraction of a whole-frame conversion.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from specreplay.video.draw import Box

_Y, _C = 219 / 255, 224 / 255  # limited range: Y in 16..235, Cb/Cr in 16..240
# Rows: Y, Cb, Cr as affine functions of R, G, B (BT.709 coefficients); Pillow applies it in C.
MATRIX = (
    0.2126 * _Y, 0.7152 * _Y, 0.0722 * _Y, 16,
    -0.2126 / 1.8556 * _C, -0.7152 / 1.8556 * _C, 0.5 * _C, 128,
    0.5 * _C, -0.7152 / 1.5748 * _C, -0.0722 / 1.5748 * _C, 128,
)


class Yuv420:
    """A planar yuv420p frame buffer kept in step with an RGB frame."""

    def __init__(self, width: int, height: int):
        if width % 2 or height % 2:
            raise ValueError(f"{width}x{height}: 4:2:0 needs even sizes")
        self.width, self.height = width, height
        n = width * height
        self.buffer = np.empty(n * 3 // 2, np.uint8)
        self.y = self.buffer[:n].reshape(height, width)
        self.u = self.buffer[n:n * 5 // 4].reshape(height // 2, width // 2)
        self.v = self.buffer[n * 5 // 4:].reshape(height // 2, width // 2)

    def update(self, rgb: np.ndarray, boxes: list[Box]) -> memoryview:
        """Convert the boxes of `rgb` (widened to even edges, as chroma covers 2x2 pixels); returns the frame."""
        for b in boxes:
            x0, y0 = b.x & ~1, b.y & ~1
            x1, y1 = min(self.width, (b.x + b.w + 1) & ~1), min(self.height, (b.y + b.h + 1) & ~1)
            y, cb, cr = Image.fromarray(rgb[y0:y1, x0:x1]).convert("RGB", MATRIX).split()
            self.y[y0:y1, x0:x1] = np.asarray(y)
            self.u[y0 // 2:y1 // 2, x0 // 2:x1 // 2] = np.asarray(cb.reduce(2))
            self.v[y0 // 2:y1 // 2, x0 // 2:x1 // 2] = np.asarray(cr.reduce(2))
        return self.buffer.data
