"""``trellax explain``: why some types promote to what they do, and how that depends on config.

>>> from trellax._src.config.settings import State
>>> from trellax._src.report import spec
>>> print(explain([spec.parse("i1"), spec.parse("u1")], State(False, "standard")))
... # doctest: +ELLIPSIS
explain i1 u1  (x32, standard promotion)
...
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Final

from trellax._src.config import settings as _config
from trellax._src.dtypes import dtypes as _dt
from trellax._src.dtypes.dtypes import Node, WeakType
from trellax._src.report import spec
from trellax._src.report.table import Cell, op_cell

ALL_STATES: Final = tuple(
    _config.State(x64, mode) for mode in _config.PROMOTION_MODES for x64 in (False, True)
)


def state_name(st: _config.State) -> str:
    return f"{'x64' if st.x64 else 'x32'} {st.mode}"


def _canonical(n: Node, st: _config.State) -> Node:
    return n if isinstance(n, WeakType) else _dt.canonicalize_dtype(n, x64=st.x64)


def _arrow(chain: Sequence[Node]) -> str:
    return " -> ".join(spec.describe(n) for n in chain)


def _result_line(cell: Cell, *, short: bool = False) -> str:
    if cell.node is None:
        return _short_error(cell.error or "") if short else f"error: {cell.error}"
    assert not isinstance(cell.node, WeakType)  # op-level results are dtypes
    weak = ", weak_type=True" if cell.weak_type else ""
    return f"{cell.node.name}{weak}" + ("" if short else f"  ({cell.label})")


_FAMILY = re.compile(r"To avoid unintended promotion, (.*?) do not support implicit promotion")


def _short_error(message: str) -> str:
    """A promotion error in a few words, for the table of configurations."""
    if "numpy_dtype_promotion=strict" in message:
        return "TypePromotionError (strict mode: no implicit promotion)"
    m = _FAMILY.search(message)
    if m:
        return f"TypePromotionError ({m.group(1)} do not promote implicitly)"
    return message.split(". ")[0]


def explain(nodes: Sequence[Node], st: _config.State) -> str:
    """A readable account of ``result_type`` on values of these types under ``st``."""
    nodes = tuple(nodes)
    header = (
        f"explain {' '.join(spec.code(n) for n in nodes)}  "
        f"({'x64' if st.x64 else 'x32'}, {st.mode} promotion)"
    )
    lines = [header, ""]
    lines.append("inputs: " + ", ".join(_input_text(n) for n in nodes))
    canon = tuple(_canonical(n, st) for n in nodes)
    for n, c in zip(nodes, canon):
        if c is not n and c != n:
            lines.append(
                f"  note: with x64 off a value of {spec.describe(n)} is {spec.name(c)}, so "
                f"{spec.code(n)} stands for {spec.describe(c)} here"
            )

    cell = op_cell(nodes, st)
    lines += _wrap(f"result: {_result_line(cell)}")
    lat = _dt.lattice(st.x64, st.mode)
    joined = lat.try_join(*canon)
    lattice_name = f"the {st.mode} lattice ({'x64' if st.x64 else 'x32'})"
    if joined is None:
        lines += ["", f"no join on {lattice_name}: the inputs have no common upper bound."]
        lines.append("what each input can promote to:")
        for c in _dedupe(canon):
            ups = sorted(lat.upper_bounds(c) - {c}, key=lambda m: lat.nodes.index(m))
            reach = ", ".join(spec.code(m) for m in ups) if ups else "nothing but itself"
            lines += _wrap(f"  {spec.describe(c)}: {reach}")
    else:
        lines += ["", f"join on {lattice_name}: {spec.describe(joined)}"]
        lines += _weak_note(joined, cell, canon, st)
        lines.append("chains of lattice edges from each input up to the join:")
        for chain in lat.explain(*_dedupe(canon)).chains:
            lines.append(f"  {_arrow(chain)}")

    lines += ["", "across configurations (--x64, --strict):"]
    for other in ALL_STATES:
        mark = "  <- this run" if other == st else ""
        other_cell = op_cell(nodes, other)
        result = _result_line(other_cell, short=True)
        lines.append(f"  {state_name(other):13} {other_cell.label:5} {result}{mark}")
    return "\n".join(lines) + "\n"


def _wrap(line: str) -> list[str]:
    """A long line broken at 100 columns, continued with a deeper indent."""
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    return textwrap.wrap(line, 100, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _input_text(n: Node) -> str:
    if isinstance(n, WeakType):
        return f"{n.code} (weak {n.python_type.__name__}: a Python {n.python_type.__name__})"
    return spec.describe(n)


def _weak_note(joined: Node, cell: Cell, canon: tuple[Node, ...], st: _config.State) -> list[str]:
    if cell.node is None or not isinstance(joined, WeakType):
        return []
    assert not isinstance(cell.node, WeakType)
    if all(isinstance(n, WeakType) for n in canon) or cell.weak_type:
        default = _dt.node_dtype(joined, st.x64).name
        return [
            f"  the join is the weak node {joined.code}: the result takes the default "
            f"{joined.python_type.__name__} dtype, {default}, and stays weak"
        ]
    return [f"  the join is the weak node {joined.code}; a bool result is never weak"]


def _dedupe(nodes: Sequence[Node]) -> tuple[Node, ...]:
    out: list[Node] = []
    for n in nodes:
        if not any(n is m or (not isinstance(m, WeakType) and m == n) for m in out):
            out.append(n)
    return tuple(out)
