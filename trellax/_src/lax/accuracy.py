"""``accuracy=`` of ``lax``'s transcendental functions: ``Tolerance`` and ``AccuracyMode``.

JAX lets ``exp``, ``log``, ``sin``, ... pick an implementation that meets a requested accuracy on
some backends. trellax computes each with NumPy's correctly rounded-or-close kernel, so the
option is checked and changes nothing (as on JAX's CPU backend for the default implementations).
"""

from __future__ import annotations

import enum
from typing import Any


class AccuracyMode(enum.Enum):
    """Accuracy requests for transcendental functions (``HIGHEST`` or ``DEFAULT``)."""

    HIGHEST = 1
    DEFAULT = 2


class Tolerance:
    """An accuracy tolerance for transcendental functions: ``atol``, ``rtol`` and ``ulps``."""

    def __init__(self, atol: float = 0.0, rtol: float = 0.0, ulps: int = 0) -> None:
        if atol < 0.0 or rtol < 0.0 or ulps < 0:
            raise ValueError("Tolerances must be non-negative.")
        if atol == 0.0 and rtol == 0.0 and ulps == 0:
            raise ValueError("At least one of atol, rtol, or ulps must be set.")
        self.atol = float(atol)
        self.rtol = float(rtol)
        self.ulps = int(ulps)


def check_accuracy(name: str, accuracy: Any) -> None:
    """Accepts ``None``, a :class:`Tolerance` or an :class:`AccuracyMode`; else TypeError."""
    if accuracy is None or isinstance(accuracy, Tolerance | AccuracyMode):
        return
    raise TypeError(
        f"lax.{name}: accuracy must be None, a lax.Tolerance or a lax.AccuracyMode, "
        f"got {accuracy!r}"
    )
