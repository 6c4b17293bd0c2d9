"""``trellax.random`` as the layers use it (keys, ``normal``, ``uniform``, ``split``, ...)."""

from __future__ import annotations

from typing import Any

import trellax.random as _random_module


def random() -> Any:
    """The ``trellax.random`` module (typed ``Any``: the layers call it with JAX's signatures)."""
    return _random_module
