"""Part of the corpus matplotlib stand-in."""

from typing import Any

from matplotlib import Recorder


def __getattr__(name: str) -> Any:
    return Recorder(f"colors.{name}")
