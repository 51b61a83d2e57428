"""Encoding raw frames to MP4 (H.264) or GIF with the ffmpeg that imageio-ffmpeg bundles.

The flags make the output a function of the frames alone: one encoder thread
(so the result cannot depend on how many cores there are or how busy they are),
bit-exact muxing, no metadata, no creation time, no encoder string. MP4 frames
arrive as yuv420p (converted in specreplay.video.yuv), so no scaler runs. GIFs
use a fixed palette built from the renderer's theme: no palette pass, nothing
that depends on content.
"""

from __future__ import annotations

import errno
import os
import subprocess
import tempfile
from pathlib import Path

import imageio_ffmpeg
from PIL import Image

from specreplay.output import FILE_MODE, WriteError, write_error
from specreplay.video.draw import INK_PAIRS

FORMATS = ("mp4", "gif")
GIF_FPS = (10, 20, 25, 50)  # GIF delays are whole centiseconds: only these rates are exact
AA_STEPS = 16  # anti-aliasing blend levels kept per (background, ink) pair in the GIF palette


class EncodeError(RuntimeError):
    pass


def check(fmt: str, width: int, height: int, fps: int) -> None:
    """Reject settings the encoders would silently bend (odd sizes, inexact GIF delays)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if width % 16 or height % 16:
        raise ValueError(f"{width}x{height}: width and height must be multiples of 16 (whole H.264 macroblocks)")
    if fmt == "gif" and fps not in GIF_FPS:
        raise ValueError(f"GIF at {fps} fps cannot be timed exactly (delays are in 10 ms steps): "
                         f"use {', '.join(map(str, GIF_FPS))}")
    if fmt == "mp4" and not 1 <= fps <= 120:
        raise ValueError(f"fps {fps} is outside 1..120")


def palette_image() -> Image.Image:
    """16x16 palette: every theme colour and the anti-aliasing blends between them."""
    colours: list[tuple[int, int, int]] = []
    for bg, ink in INK_PAIRS:
        for i in range(AA_STEPS):
            c = tuple(round(b + (k - b) * i / (AA_STEPS - 1)) for b, k in zip(bg, ink))
            if c not in colours:
                colours.append(c)  # type: ignore[arg-type]
    if len(colours) > 256:
        raise AssertionError(f"theme needs {len(colours)} palette colours; GIF allows 256")
    colours += [colours[0]] * (256 - len(colours))
    img = Image.new("RGB", (16, 16))
    img.putdata(colours)
    return img


INPUT_PIX_FMT = {"mp4": "yuv420p", "gif": "rgb24"}  # MP4 frames arrive converted (specreplay.video.yuv)


def frame_bytes(fmt: str, width: int, height: int) -> int:
    # rgb24: 3 bytes a pixel; yuv420p: 1 byte of Y a pixel plus 2 chroma bytes for every 4 pixels
    return width * height * 3 // (1 if INPUT_PIX_FMT[fmt] == "rgb24" else 2)


def _input_args(fmt: str, width: int, height: int, fps: int) -> list[str]:
    return ["-f", "rawvideo", "-pix_fmt", INPUT_PIX_FMT[fmt], "-s", f"{width}x{height}", "-framerate", str(fps),
            "-i", "pipe:0"]


def mp4_args(width: int, height: int, fps: int, out: str, crf: int = 20) -> list[str]:
    return [
        *_input_args("mp4", width, height, fps),
        # superfast: veryfast costs ~1.3x the CPU for about half the file size at the same quality (CRF).
        "-c:v", "libx264", "-preset", "superfast", "-crf", str(crf), "-g", str(fps * 10),
        # Colour tags go into the H.264 stream through x264: tagging them on ffmpeg's output instead inserts
        # a scaler pass that costs as much as a third of the encode.
        "-threads", "1", "-x264-params",
        "threads=1:lookahead-threads=1:sliced-threads=0:colorprim=bt709:transfer=bt709:colormatrix=bt709:range=tv",
        "-bsf:v", "filter_units=remove_types=6",  # drop SEI: x264 writes its version and options there
        "-flags", "+bitexact", "-fflags", "+bitexact", "-map_metadata", "-1", "-movflags", "+faststart",
        "-f", "mp4", out,
    ]


def gif_args(width: int, height: int, fps: int, palette: str, out: str) -> list[str]:
    return [
        *_input_args("gif", width, height, fps), "-i", palette,
        "-filter_complex", "[0:v][1:v]paletteuse=dither=none:diff_mode=rectangle",
        "-threads", "1", "-flags", "+bitexact", "-fflags", "+bitexact", "-map_metadata", "-1",
        "-loop", "0", "-f", "gif", out,
    ]


class Encoder:
    """Write frames with `write`; `close` finishes the file (written to a temporary name, renamed into place when done)."""

    def __init__(self, out: str | os.PathLike, fmt: str, width: int, height: int, fps: int):
        check(fmt, width, height, fps)
        self.out = Path(out)
        self.frame_bytes = frame_bytes(fmt, width, height)
        # a new name beside the target (never an existing file), renamed into place only when complete
        try:
            self.out.parent.mkdir(parents=True, exist_ok=True)
            fd, part = tempfile.mkstemp(prefix=f".{self.out.name}.", suffix=".part", dir=self.out.parent)
        except OSError as exc:
            raise write_error(self.out, exc) from None
        os.close(fd)
        self._part = Path(part)
        self._tmpdir = tempfile.TemporaryDirectory(prefix="specreplay-video-")
        if fmt == "gif":
            palette = str(Path(self._tmpdir.name) / "palette.png")
            palette_image().save(palette)
            args = gif_args(width, height, fps, palette, str(self._part))
        else:
            args = mp4_args(width, height, fps, str(self._part))
        self._log = open(Path(self._tmpdir.name) / "ffmpeg.log", "w+b")
        self.proc = subprocess.Popen(
            [imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-nostdin", "-loglevel", "error", "-y", *args],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=self._log)

    def write(self, frame: bytes | memoryview) -> None:
        size = memoryview(frame).nbytes
        if size != self.frame_bytes:
            raise ValueError(f"frame has {size} bytes, expected {self.frame_bytes}")
        try:
            self.proc.stdin.write(frame)  # type: ignore[union-attr]
        except BrokenPipeError:
            self.proc.wait()
            failure = self._failure("ffmpeg stopped early")
            self.abort()
            raise failure from None

    def close(self) -> Path:
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
        except BrokenPipeError:  # ffmpeg already gone: its exit status and log say why
            pass
        rc = self.proc.wait()
        try:
            if rc != 0:
                raise self._failure(f"ffmpeg failed (exit {rc})")
            os.chmod(self._part, FILE_MODE)
            os.replace(self._part, self.out)
            return self.out
        except OSError as exc:
            raise write_error(self.out, exc) from None
        finally:
            self._cleanup()

    def abort(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._cleanup()

    def _failure(self, what: str) -> Exception:
        """Why ffmpeg stopped: a full disk (or a folder it may not write) is the output's WriteError, one line that
        names the user's path; anything else is ffmpeg's own message."""
        self._log.seek(0)
        said = self._log.read().decode(errors="replace").strip()[-2000:] or "no message"
        for code in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES):
            if os.strerror(code) in said:
                return WriteError(code, os.strerror(code), str(self.out))
        return EncodeError(f"{what}: {said}")

    def _cleanup(self) -> None:
        self._part.unlink(missing_ok=True)
        self._log.close()
        self._tmpdir.cleanup()
