"""``matplotlib.pyplot`` of the corpus stand-in: every call prints a summary line."""

from __future__ import annotations

from typing import Any

import numpy as np

from matplotlib import Recorder, rcParams

__all__ = ["Recorder", "rcParams"]

cm = Recorder("cm")


def _axes(nrows: int, ncols: int, squeeze: bool) -> Any:
    grid = np.empty((nrows, ncols), dtype=object)
    for i in range(nrows):
        for j in range(ncols):
            grid[i, j] = Recorder(f"ax[{i},{j}]")
    if squeeze and nrows == ncols == 1:
        return grid[0, 0]
    if squeeze and (nrows == 1 or ncols == 1):
        return grid.reshape(-1)
    return grid


def subplots(nrows: int = 1, ncols: int = 1, *args: Any, **kwargs: Any) -> Any:
    print(f"[plot] subplots({nrows}, {ncols})")
    return Recorder("fig"), _axes(nrows, ncols, kwargs.get("squeeze", True))


def __getattr__(name: str) -> Any:
    return Recorder(f"plt.{name}")
