"""``debug.visualize_sharding``: which device holds which block of a 1-D or 2-D array, drawn
as a grid of boxes whose sizes follow the blocks' shares of the array (JAX's layout rules, as
observed: 10 lines of height per array at ``scale=1``, characters 2.5 times as wide as a line is
high, each box clamped to ``[min_width, max_width]`` and widened to fit its label).

Works from any sharding's ``devices_indices_map``, so it needs nothing above this floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_CHAR_ASPECT = 2.5  # a character cell is ~2.5 times as high as it is wide


def _start(index: slice, size: int) -> int:
    return 0 if index.start is None else int(index.start)


def _length(index: slice, size: int) -> int:
    stop = size if index.stop is None else int(index.stop)
    return stop - _start(index, size)


def _blocks(
    shape: tuple[int, ...], mapping: dict[Any, tuple[slice, ...]]
) -> tuple[list[int], list[int], dict[tuple[int, int], list[Any]]]:
    """Row starts, column starts, and the devices of each (row start, column start) block."""
    rows: set[int] = set()
    cols: set[int] = set()
    owners: dict[tuple[int, int], list[Any]] = {}
    for device, index in mapping.items():
        # a 1-D array is drawn as one row of blocks
        r = _start(index[0], shape[0]) if len(shape) == 2 else 0
        c = _start(index[1], shape[1]) if len(shape) == 2 else _start(index[0], shape[0])
        rows.add(r)
        cols.add(c)
        owners.setdefault((r, c), []).append(device)
    return sorted(rows), sorted(cols), owners


def _label(devices: Sequence[Any]) -> str:
    platform = str(getattr(devices[0], "platform", "cpu")).upper()
    return f"{platform} " + ",".join(str(d.id) for d in sorted(devices, key=lambda d: d.id))


def _centered(text: str, width: int) -> str:
    left = (width - len(text)) // 2
    return " " * left + text + " " * (width - len(text) - left)


def visualize_sharding(
    shape: Sequence[int],
    sharding: Any,
    *,
    use_color: bool = True,
    scale: float = 1.0,
    min_width: int = 9,
    max_width: int = 80,
    color_map: Any = None,
) -> None:
    """Prints the blocks of an array of ``shape`` laid out by ``sharding`` (1 or 2 dimensions),
    each labelled with the devices that hold it. Colours are never used (plain text)."""
    del use_color, color_map
    shape = tuple(int(d) for d in shape)
    if len(shape) not in (1, 2):
        raise ValueError("`visualize_sharding` only works for shapes with 1 and 2 dimensions.")
    index = sharding.devices_indices_map(shape)
    rows, cols, owners = _blocks(shape, index)
    base_height = int(10 * scale)
    base_width = int(base_height * shape[1] / shape[0]) if len(shape) == 2 and shape[0] else 0
    some = next(iter(index.values()))
    n_rows = shape[0]
    n_cols = shape[1] if len(shape) == 2 else 1
    block_rows = _length(some[0], n_rows)
    block_cols = _length(some[1], n_cols) if len(shape) == 2 else 1
    height = 1
    if len(shape) == 2 and n_rows:
        height = max(1, int(block_rows / n_rows * base_height) - 1)
    labels = {key: _label(devs) for key, devs in owners.items()}
    widths = []
    for c in cols:
        computed = int(block_cols / n_cols * base_width * _CHAR_ASPECT) if len(shape) == 2 else 0
        box = max(min_width, min(max_width, computed))
        need = max(len(labels[(r, c)]) for r in rows) + 2
        widths.append(max(box, need) - 2)
    print(_grid(rows, cols, labels, widths, height))


def _grid(
    rows: list[int],
    cols: list[int],
    labels: dict[tuple[int, int], str],
    widths: list[int],
    height: int,
) -> str:
    def rule(left: str, mid: str, right: str) -> str:
        return left + mid.join("─" * w for w in widths) + right

    lines = [rule("┌", "┬", "┐")]
    middle = (height - 1) // 2
    for i, r in enumerate(rows):
        for k in range(height):
            cells = [
                _centered(labels[(r, c)], w) if k == middle else " " * w
                for c, w in zip(cols, widths)
            ]
            lines.append("│" + "│".join(cells) + "│")
        lines.append(rule("├", "┼", "┤") if i < len(rows) - 1 else rule("└", "┴", "┘"))
    return "\n".join(lines)


def visualize_array_sharding(arr: Any, **kwargs: Any) -> None:
    """``visualize_sharding(arr.shape, arr.sharding, **kwargs)``."""
    visualize_sharding(arr.shape, arr.sharding, **kwargs)
