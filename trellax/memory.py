"""``trellax.memory``: JAX's memory spaces (one host memory here)."""

import enum


class Space(enum.Enum):
    """Where an array lives; trellax's arrays are NumPy buffers in host memory."""

    Device = enum.auto()
    Host = enum.auto()
    Any = enum.auto()
