"""A promotion table measured in another library, set against trellax's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from trellax._src.report.table import Cell, Table


@dataclass(frozen=True)
class Comparison:
    """Another library's results for the cells of ``table`` (same node order)."""

    table: Table
    library: str  # "numpy 2.4.6"
    how: str  # how the library's operands were made
    cells: Mapping[tuple[int, int], Cell]
    compare_weak_type: bool  # only for libraries whose results carry a weak flag

    def differs(self, i: int, j: int) -> bool:
        """True where both sides have a result (or error) and they disagree; n/a never differs."""
        other = self.cells[(i, j)]
        if other.missing is not None:
            return False
        return not self.table.cells[(i, j)].same_as(other, compare_weak_type=self.compare_weak_type)

    def counts(self) -> tuple[int, int, int]:
        """(cells that differ, cells the library cannot compute (n/a), all cells)."""
        differ = sum(1 for i, j in self.cells if self.differs(i, j))
        missing = sum(1 for c in self.cells.values() if c.missing is not None)
        return differ, missing, len(self.cells)

    def summary(self) -> str:
        differ, missing, total = self.counts()
        na = f"; {missing} n/a (a dtype the library lacks)" if missing else ""
        weak = (
            "dtype and weak flag" if self.compare_weak_type else "dtype only; it has no weak flag"
        )
        return (
            f"{self.library} differs from trellax in {differ} of {total} cells{na} "
            f"(compared: {weak})"
        )
