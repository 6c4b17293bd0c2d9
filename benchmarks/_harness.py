"""Shared timing helpers for ``make bench``.

Every benchmark measures the same operation in several libraries side by side in one process and
prints ratios, never absolute claims. Libraries that are not installed are reported as such.
"""

from __future__ import annotations

import importlib
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType


def optional_import(name: str) -> ModuleType | None:
    """Imports ``name`` or returns None when it is not installed (or fails to import)."""
    try:
        return importlib.import_module(name)
    except Exception:
        return None


def best_time(fn: Callable[[], object], *, min_time: float = 0.2, repeat: int = 5) -> float:
    """Best per-call wall time in seconds over ``repeat`` rounds of at least ``min_time`` each."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    while number * _estimate(timer, number) < min_time and number < 10**7:
        number *= 2
    return min(timer.repeat(repeat=repeat, number=number)) / number


def _estimate(timer: timeit.Timer, number: int) -> float:
    return timer.timeit(number=max(1, number // 10)) / max(1, number // 10)


@dataclass
class Row:
    case: str
    times: dict[str, float | None]


def print_table(title: str, rows: Sequence[Row], *, baseline: str = "numpy") -> None:
    """Prints per-call times and each library's ratio to ``baseline`` (lower is faster)."""
    libs: list[str] = []
    for row in rows:
        for lib in row.times:
            if lib not in libs:
                libs.append(lib)
    print(f"\n## {title}")
    head = [
        "case",
        *[f"{lib} (us)" for lib in libs],
        *[f"{lib}/{baseline}" for lib in libs if lib != baseline],
    ]
    print(" | ".join(head))
    for row in rows:
        base = row.times.get(baseline)
        cells = [row.case]
        for lib in libs:
            t = row.times.get(lib)
            cells.append("n/a" if t is None else f"{t * 1e6:.3f}")
        for lib in libs:
            if lib == baseline:
                continue
            t = row.times.get(lib)
            cells.append("n/a" if t is None or not base else f"{t / base:.2f}x")
        print(" | ".join(cells))
