"""Binary promotion tables, computed from the lattice (never written by hand).

Two levels, as in the reference:

* ``"op"`` (the default): what ``x + y`` gives for a strong array of dtype ``x`` and one of dtype
  ``y``, a Python scalar standing for ``i*``, ``f*``, ``c*``. With x64 off a 64-bit array cannot
  even exist, so an ``i8`` operand is already int32 (the ``i8`` row equals the ``i4`` row, as in
  JAX). A weak result is marked ``*`` (``f4*``).
* ``"lattice"``: the join of the two nodes on the promotion lattice, the table of the JAX docs
  (``i*`` is a node there, not a weak int32). ``promote_types`` returns the dtype of this join,
  reading a weak node as the 64-bit type of its kind.

>>> from trellax._src.config.settings import State
>>> t = build_table(State(False, "standard"))
>>> t.cell(_dt.int8, _dt.weak_float).label
'f4*'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from trellax._src.config import settings as _config
from trellax._src.dtypes import dtypes as _dt
from trellax._src.dtypes.dtypes import DType, Node, WeakType
from trellax._src.report import spec

Level = Literal["op", "lattice"]
LEVELS: Final[tuple[Level, ...]] = ("op", "lattice")
ERROR_LABEL: Final = "ERR"
MISSING_LABEL: Final = "n/a"


@dataclass(frozen=True)
class Cell:
    """One result: a node (a dtype, or a weak node at lattice level) and a weak flag; or the error
    the promotion raised; or ``missing`` when a library has no such dtype."""

    node: Node | None = None
    weak_type: bool = False
    error: str | None = None
    missing: str | None = None

    @property
    def label(self) -> str:
        if self.missing is not None:
            return MISSING_LABEL
        if self.node is None:
            return ERROR_LABEL
        return spec.code(self.node) + ("*" if self.weak_type else "")

    @property
    def long_label(self) -> str:
        """The label with full names, for tooltips and explanations."""
        if self.missing is not None:
            return f"n/a ({self.missing})"
        if self.node is None:
            return f"error: {self.error}"
        flag = ", weak_type=True" if self.weak_type else ""
        return f"{spec.describe(self.node)}{flag}"

    def same_as(self, other: Cell, *, compare_weak_type: bool) -> bool:
        """Whether two results agree (both errors count as agreeing; the messages may differ)."""
        if (self.node is None) != (other.node is None):
            return False
        if self.node is None:
            return True
        if not _same_node(self.node, other.node):
            return False
        return not compare_weak_type or self.weak_type == other.weak_type


def _same_node(a: Node | None, b: Node | None) -> bool:
    if isinstance(a, WeakType) or isinstance(b, WeakType):
        return a is b
    return a == b


@dataclass(frozen=True)
class Table:
    """An N×N table of :class:`Cell` over ``nodes`` (row = left operand)."""

    nodes: tuple[Node, ...]
    cells: Mapping[tuple[int, int], Cell]
    title: str
    description: str

    def cell(self, x: Node, y: Node) -> Cell:
        return self.cells[(self._index(x), self._index(y))]

    def _index(self, n: Node) -> int:
        for i, m in enumerate(self.nodes):
            if _same_node(n, m):
                return i
        raise KeyError(n)

    def labels(self) -> list[list[str]]:
        k = len(self.nodes)
        return [[self.cells[(i, j)].label for j in range(k)] for i in range(k)]


def config_name(st: _config.State) -> str:
    return f"{st.mode}, {'x64' if st.x64 else 'x32'}"


def operand(node: Node, st: _config.State) -> tuple[DType, bool]:
    """The abstract value ``(dtype, weak_type)`` an op sees for a table node under ``st``."""
    if isinstance(node, WeakType):
        return _dt.node_dtype(node, st.x64), True
    return _dt.canonicalize_dtype(node, x64=st.x64), False


def op_cell(nodes: tuple[Node, ...], st: _config.State) -> Cell:
    """The op-level result of promoting ``nodes`` together under ``st``."""
    with _config._state(st):
        try:
            out, weak = _dt.lattice_result_type(*(operand(n, st) for n in nodes))
        except _dt.TypePromotionError as e:
            return Cell(error=str(e))
    return Cell(_dt.canonicalize_dtype(out, x64=st.x64), weak)


def lattice_cell(nodes: tuple[Node, ...], st: _config.State) -> Cell:
    """The join of ``nodes`` on the lattice of ``st`` (no canonicalization, no weak flag)."""
    joined = _dt.lattice(st.x64, st.mode).try_join(*nodes)
    if joined is not None:
        return Cell(joined)
    with _config._state(st):
        try:
            _dt.promote_types(*(_promote_types_arg(n) for n in nodes[:2]))
        except _dt.TypePromotionError as e:
            return Cell(error=str(e))
    return Cell(error=f"{tuple(spec.code(n) for n in nodes)} have no common upper bound")


def _promote_types_arg(n: Node) -> DType | type:
    return n.python_type if isinstance(n, WeakType) else n


def build_table(
    st: _config.State, level: Level = "op", nodes: tuple[Node, ...] | None = None
) -> Table:
    """The binary promotion table of ``nodes`` (default: the 18 of the docs) under ``st``."""
    ns = _dt.TABLE_NODES if nodes is None else nodes
    compute = op_cell if level == "op" else lattice_cell
    cells = {(i, j): compute((x, y), st) for i, x in enumerate(ns) for j, y in enumerate(ns)}
    if level == "op":
        title = f"trellax promotion table (op level; {config_name(st)})"
        desc = (
            "Cell = dtype of x + y for x (row) and y (column): strong arrays of the dtype "
            + ("" if st.x64 else "(64-bit ones are 32-bit here, as x64 is off) ")
            + "or Python scalars for i* f* c*; * marks a weak result"
        )
    else:
        title = f"trellax promotion lattice join (lattice level; {config_name(st)})"
        desc = (
            "Cell = join of x (row) and y (column) on the lattice, as in the JAX docs' table; "
            "promote_types returns its dtype (a weak node read as its 64-bit type)"
        )
    if st.mode == "strict":
        desc += f"; {ERROR_LABEL} = no implicit promotion (TypePromotionError)"
    return Table(ns, cells, title, desc)


def is_standard(node: Node) -> bool:
    return isinstance(node, WeakType) or node in _dt.STANDARD_DTYPES


def dtype_of(node: Node) -> np.dtype[np.generic] | None:
    return None if isinstance(node, WeakType) else node
