"""Access to ``trellax.random`` (layer 8, built alongside ``trellax.nn``), resolved at call time."""

from __future__ import annotations

import importlib
from typing import Any


def random() -> Any:
    """The ``trellax.random`` module (keys, ``normal``, ``uniform``, ``split``, ``fold_in``...)."""
    return importlib.import_module("trellax.random")
