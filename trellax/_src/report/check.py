"""``trellax check``: do the algebraic laws of a join hold for a promotion function?

For trellax, two functions are checked over all pairs and triples: the join on the lattice (the
table of the JAX docs) and the op-level ``result_type`` (dtype and weak flag, canonicalized for
x64). For another library, its promotion measured live. A function that is commutative,
idempotent and associative is the join of a partial order; :func:`~trellax._src.dtypes.lattice.check_table`
then recovers that order's Hasse diagram.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Final

from trellax._src.config import settings as _config
from trellax._src.dtypes import dtypes as _dt
from trellax._src.dtypes.dtypes import Node, WeakType
from trellax._src.dtypes.lattice import NoJoinError, TableReport, check_table
from trellax._src.report import spec
from trellax._src.report.libraries import Library, node_of
from trellax._src.report.table import op_cell

MAX_SHOWN: Final = 5
#: The design note's example of non-associative promotion (NumPy): int8, uint8, float16.
FAMOUS: Final = ("i1", "u1", "f2")

Promote = Callable[[Node, Node], Node]


def _code(n: str | None) -> str:
    return "ERR" if n is None else n


def report(title: str, nodes: tuple[Node, ...], promote: Promote, note: str = "") -> str:
    """Checks ``promote`` over ``nodes`` and describes what was found.

    The check runs on the nodes' codes (strings): NumPy's loose dtype equality would otherwise
    take ``None`` (no result) for float64, since ``np.dtype(None)`` is float64.
    """
    by_code = {spec.code(n): n for n in nodes}
    memo: dict[tuple[str, str], str | None] = {}

    def op(a: str | None, b: str | None) -> str | None:
        if a is None or b is None:
            return None
        if (a, b) not in memo:
            try:
                memo[(a, b)] = spec.code(promote(_node(a, by_code), _node(b, by_code)))
            except Exception:
                memo[(a, b)] = None
        return memo[(a, b)]

    def promote_code(a: str, b: str) -> str:
        r = op(a, b)
        if r is None:
            raise NoJoinError((a, b))
        return r

    codes = tuple(by_code)
    result: TableReport[str] = check_table(codes, promote_code, errors=(NoJoinError,))
    k = len(codes)
    lines = [title, f"  {k} types: {' '.join(codes)}"]
    if note:
        lines += textwrap.wrap(note, 100, initial_indent="  ", subsequent_indent="    ")
    lines.append(
        f"  checked: idempotence on {k} types, commutativity on {k * k} pairs, "
        f"associativity on {k**3} triples"
    )

    def law(name: str, bad: list[object], shown: list[str]) -> None:
        if not bad:
            lines.append(f"  {name}: holds")
            return
        lines.append(f"  {name}: FAILS for {len(bad)} cases, e.g.")
        lines.extend(f"    {s}" for s in shown[:MAX_SHOWN])

    c = _code
    law(
        "commutativity",
        list(result.commutativity),
        [f"{a} + {b} = {c(ab)}  but  {b} + {a} = {c(ba)}" for a, b, ab, ba in result.commutativity],
    )
    law(
        "idempotence",
        list(result.idempotence),
        [f"{a} + {a} = {c(r)}" for a, r in result.idempotence],
    )
    triples = sorted(result.associativity, key=lambda t: t[:3] != FAMOUS)
    law(
        "associativity",
        list(triples),
        [
            f"({a} + {b}) + {z} = {c(op(a, b))} + {z} = {c(left)}  but  "
            f"{a} + ({b} + {z}) = {a} + {c(op(b, z))} = {c(right)}"
            for a, b, z, left, right in triples
        ],
    )
    if result.hasse is not None:
        lines.append("  a lattice join: yes; the recovered Hasse diagram (a -> its covers):")
        for n, ups in result.hasse.items():
            lines.append(
                f"    {spec.describe(_node(n, by_code))} -> {', '.join(ups) or '(nothing above)'}"
            )
    else:
        lines.append(f"  a lattice join: no ({result.why_not_lattice})")
    return "\n".join(lines) + "\n"


def recovered_hasse(nodes: tuple[Node, ...], promote: Promote) -> dict[str, tuple[str, ...]] | None:
    """The Hasse diagram (over codes) whose join ``promote`` is, or None if it is no join."""
    by_code = {spec.code(n): n for n in nodes}

    def promote_code(a: str, b: str) -> str:
        try:
            return spec.code(promote(by_code[a], by_code[b]))
        except (NoJoinError, _dt.TypePromotionError):
            raise NoJoinError((a, b)) from None

    return check_table(tuple(by_code), promote_code, errors=(NoJoinError,)).hasse


def _node(code: str, by_code: dict[str, Node]) -> Node:
    return by_code[code] if code in by_code else spec.parse(code)


def _canonical_nodes(st: _config.State) -> tuple[Node, ...]:
    """The table nodes a value can have under ``st`` (with x64 off, no 64-bit types)."""
    return tuple(
        n
        for n in _dt.TABLE_NODES
        if isinstance(n, WeakType) or _dt.canonicalize_dtype(n, x64=st.x64) == n
    )


def check_trellax(st: _config.State) -> str:
    """The laws for trellax's lattice join and its op-level ``result_type`` under ``st``."""
    lat = _dt.lattice(st.x64, st.mode)
    where = f"{st.mode}, {'x64' if st.x64 else 'x32'}"

    def join(a: Node, b: Node) -> Node:
        return lat.join(a, b)

    text = report(
        f"trellax: the join on the {where} lattice (trellax table --level lattice)",
        _dt.TABLE_NODES,
        join,
        "ERR = no join (no implicit promotion)" if st.mode == "strict" else "",
    )
    hasse = lat.hasse()
    codes = {spec.code(n) for n in _dt.TABLE_NODES}
    own = {spec.code(n): {spec.code(m) for m in hasse[n]} & codes for n in _dt.TABLE_NODES}
    recovered = recovered_hasse(_dt.TABLE_NODES, join)
    same = recovered is not None and all(set(recovered[c]) == own[c] for c in own)
    answer = "yes" if same else "NO"
    text += f"  the recovered diagram equals the lattice's own Hasse diagram: {answer}\n"

    def result_type(a: Node, b: Node) -> Node:
        cell = op_cell((a, b), st)
        return node_of(cell)

    nodes = _canonical_nodes(st)
    note = "a result is read back as a type: weak results as i* f* c*"
    if not st.x64:
        note += "; 64-bit types are left out (with x64 off no value has them)"
    text += "\n" + report(
        f"trellax: result_type on values ({where}; trellax table)", nodes, result_type, note
    )
    return text


def check_library(lib: Library, st: _config.State) -> str:
    """The laws for another library's live promotion."""
    with lib.configured(st):
        nodes = lib.supported(_dt.TABLE_NODES)
        note = f"measured live: {lib.how}"
        if not lib.has_weak_type:
            nodes = tuple(n for n in nodes if not isinstance(n, WeakType))
            note += (
                f"; Python scalars are left out: {lib.name}'s results are never weak, so a "
                "scalar's type cannot come out of a promotion to be fed back in"
            )
        if lib.name == "jax":
            nodes = tuple(n for n in nodes if n in _canonical_nodes(st))

        def promote(a: Node, b: Node) -> Node:
            return node_of(lib.promote(a, b))

        settings = f" ({st.mode}, {'x64' if st.x64 else 'x32'})" if lib.name == "jax" else ""
        return report(f"{lib.label}{settings}: its promotion of two values", nodes, promote, note)
