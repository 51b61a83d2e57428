"""Frame-exact video export of a replay (MP4 or GIF): the same inputs give the same bytes (docs/video.md).

plan: which playback time each frame shows · draw: one frame's pixels (text: word wrap) · yuv: RGB to the
encoder's YUV · encode: ffmpeg with deterministic flags · render: all of it into a file · cli: the command line.
"""
