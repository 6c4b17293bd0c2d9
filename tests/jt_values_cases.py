"""The indexing cases of ``tests/test_jt_values.py`` written once for the test and for
``tools/gen_golden_jt_values.py``: an index spelled as JSON items, and the array it indexes."""

from __future__ import annotations

from typing import Any

import numpy as np


def build_index(items: list[Any]) -> tuple[Any, ...]:
    table = {"T": True, "F": False, "...": Ellipsis, ":": slice(None), ":2": slice(None, 2)}
    out: list[Any] = []
    for item in items:
        if isinstance(item, list):
            out.append(np.array(item, dtype=np.int32))
        elif item in ("aT", "aF"):
            out.append(np.array(item == "aT"))
        elif isinstance(item, int):
            out.append(item)
        else:
            out.append(table[item])
    return tuple(out)


def base() -> np.ndarray[Any, Any]:
    return np.arange(120, dtype=np.int32).reshape(2, 3, 4, 5)
