"""A stand-in for matplotlib for the corpus (``tests/test_corpus.py`` and the golden generator
put this folder first on ``PYTHONPATH`` on both sides, so JAX's outputs and trellax's are made the
same way whether or not matplotlib is installed).

Plots are what a plotting program produces, so instead of drawing, every call prints one line
naming it, with a summary of each array argument (shape, sum of absolute values, min, max): the corpus test then
compares the plotted data with JAX's. Anything else returns a :class:`Recorder`, which accepts
any attribute, call, index or iteration.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__version__ = "0.0-corpus-stub"


def summary(x: Any) -> str:
    if isinstance(x, (str, bytes, bool, type(None))) or callable(x):
        return repr(x) if not callable(x) else "<fn>"
    if isinstance(x, (int, float)):
        return repr(x)
    if isinstance(x, Recorder):
        return "<obj>"
    try:
        a = np.asarray(x)
    except Exception:
        return f"<{type(x).__name__}>"
    if a.dtype.kind not in "biufc" or a.size == 0:
        return f"<{type(x).__name__}>"
    if a.dtype.kind == "c":
        a = np.abs(a)
    a = a.astype(np.float64)
    l1 = np.abs(a).sum()  # no cancellation: as well-conditioned as the values
    return f"array{list(a.shape)}(l1={l1:.7g}, min={a.min():.7g}, max={a.max():.7g})"


class Recorder:
    """Any plotting object: attribute access gives a method that prints its call."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Recorder(f"{self._name}.{attr}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        parts = [summary(a) for a in args] + [f"{k}={summary(v)}" for k, v in kwargs.items()]
        print(f"[plot] {self._name}({', '.join(parts)})")
        return Recorder(self._name)

    def __getitem__(self, key: Any) -> Recorder:
        return Recorder(f"{self._name}[{key!r}]")

    def __iter__(self) -> Any:
        return iter([Recorder(f"{self._name}[{i}]") for i in range(2)])

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None


def use(*args: Any, **kwargs: Any) -> None:
    return None


rcParams: dict[str, Any] = {}


def __getattr__(name: str) -> Any:
    return Recorder(f"matplotlib.{name}")
