"""Equations of a compiled program written as the NumPy call their kernel would make.

A kernel of ``backend/numpy.py`` decides at every call what it does from its operands' shapes
and dtypes (``dot_general`` picks its BLAS path, ``broadcast_in_dim`` builds the expanded shape,
``reduce_sum`` looks up its accumulation dtype). In a compiled program those are known when the
program is generated, so :func:`call_expr` writes the call the kernel would end up making
(``x.reshape((16, 1))``, ``matmul(a, b.T)``, ``add.reduce(x, (0,), float32)``) instead of the
kernel call: the same NumPy function on the same operands, hence the same bits, dtypes and
shapes, without the kernel's Python (0.3-3 µs an equation, which is most of the cost of a loop
body on small arrays). A rule returns None wherever the kernel would do anything else, and the
equation stays a kernel call.

Rules are keyed by the kernel (the primitive's impl), so a primitive whose kernel changes stops
matching by itself. ``tests/test_compiled_loops.py`` compares programs with and without these
rules bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.backend import numpy as kernels
from trellax._src.backend import select_bits, sum_order, threads
from trellax._src.backend.float_facts import compute_dtype
from trellax._src.core.jaxpr import JaxprEqn
from trellax._src.interpreters import outer_compiled

#: ``bind(value, prefix) -> name``: a global of the generated code holding ``value``.
Bind = Callable[[Any, str], str]
#: ``rule(eqn, args, bind) -> expression or None`` (None: keep the kernel call).
Rule = Callable[[JaxprEqn, list[str], Bind], "str | None"]

#: Outputs up to this many elements are broadcast by copying (``np.broadcast_to`` costs ~2-4 µs
#: a call, a small copy ~0.5 µs); larger ones keep the kernel's view.
_COPY_BROADCAST_MAX = 4096

RULES: dict[Any, Rule] = {}

#: Switched off by the tests that compare programs with and without the rules.
enabled = True


#: ``value_of(name)``: the value of a name bound when the program was generated (a constant
#: or literal), or None for a name computed at run time.
ValueOf = Callable[[str], Any]

#: Rules that also read the values known when the program is generated (same result types).
VALUE_RULES: dict[Any, Callable[[JaxprEqn, list[str], Bind, ValueOf], str | None]] = {}

#: ``layout(name)``: how the generated code learns that the value of ``name`` is a contiguous
#: array: ``""`` when that is known when the program is generated (a loop buffer, a fresh
#: product), the name of a flag computed once before a loop (a loop carry whose later values
#: are all known to be contiguous), or None (check ``name.flags.forc`` where it is used).
Layout = Callable[[str], "str | None"]


def call_expr(
    eqn: JaxprEqn,
    args: list[str],
    bind: Bind,
    value_of: ValueOf | None = None,
    layout: Layout | None = None,
    out: str | None = None,
) -> str | None:
    """The expression computing ``eqn``'s result from the names ``args``, or None. ``out``: a
    buffer the result is written into, only for a product :func:`gemv_out` accepts."""
    if not enabled:
        return None
    impl = eqn.primitive.impl
    if impl is kernels.dot_general:
        return _dot_general(eqn, args, bind, value_of, layout, out if gemv_out(eqn) else None)
    if value_of is not None:
        value_rule = VALUE_RULES.get(impl)
        if value_rule is not None:
            return value_rule(eqn, args, bind, value_of)
    rule = RULES.get(impl)
    if rule is None:
        return None
    return rule(eqn, args, bind)


def _reshape(eqn: JaxprEqn, args: list[str], bind: Bind) -> str | None:
    if eqn.params.get("dimensions") is not None:
        return None
    return f"{args[0]}.reshape({bind(tuple(eqn.params['new_sizes']), 's')})"


def _same_size_reshape(eqn: JaxprEqn, args: list[str], bind: Bind) -> str | None:
    # squeeze and expand_dims only drop or add axes of size 1: a reshape to the result's shape
    # gives the same view.
    return f"{args[0]}.reshape({bind(eqn.outvars[0].aval.shape, 's')})"


def _transpose(eqn: JaxprEqn, args: list[str], bind: Bind) -> str | None:
    return f"{args[0]}.transpose({bind(tuple(eqn.params['permutation']), 's')})"


def _broadcast_copy(x: Any, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    out = np.empty(shape, dtype)
    out[...] = x
    return out


def _broadcast_in_dim(eqn: JaxprEqn, args: list[str], bind: Bind) -> str | None:
    shape = tuple(eqn.params["shape"])
    dims = tuple(eqn.params["broadcast_dimensions"])
    in_aval = eqn.invars[0].aval
    out_aval = eqn.outvars[0].aval
    expanded = [1] * len(shape)
    for src, dst in enumerate(dims):
        expanded[dst] = in_aval.shape[src]
    x = args[0]
    if tuple(expanded) != tuple(in_aval.shape):
        x = f"{x}.reshape({bind(tuple(expanded), 's')})"
    size = math.prod(shape)
    if tuple(expanded) == shape:  # only size-1 axes added (equal sizes are not enough: 0 == 0)
        return x if x != args[0] else f"{x}.reshape({bind(shape, 's')})"
    if size > _COPY_BROADCAST_MAX or in_aval.dtype != out_aval.dtype:
        return None
    return f"{bind(_broadcast_copy, 'f')}({x}, {bind(shape, 's')}, {bind(out_aval.dtype, 'd')})"


#: Small matrix-vector products by ``np.dot`` (same bits as ``np.matmul``; a switch for
#: measurements and tests, read when a program is generated).
dot_gemv = True

#: Layout checks of those products settled when the program is generated where the operand is
#: known to be contiguous (a loop buffer, a fresh product; a loop carry checked once before its
#: loop): a switch for measurements and tests, read when a program is generated.
known_layout = True

#: Two independent mid-size products next to each other in a program run at once
#: (``threads.matmul_pair``): a switch, read when a program is generated.
pair_products = True


def pair_operands(eqn: JaxprEqn, expr: str, bind_env: dict[str, Any]) -> tuple[str, str] | None:
    """The two operand expressions of ``eqn``'s product when :func:`_dot_general` wrote it as
    ``threads.matmul(a, b)`` of two matrices large enough to be paired
    (``threads.pairs``), else None."""
    if not (enabled and pair_products) or eqn.primitive.name != "dot_general":
        return None
    head, sep, rest = expr.partition("(")
    if not sep or bind_env.get(head) is not threads.matmul or not rest.endswith(")"):
        return None
    parts = rest[:-1].split(", ")
    if len(parts) != 2 or not all(p.removesuffix(".T").isidentifier() for p in parts):
        return None
    (_, rc), (lb, rb) = eqn.params["dimension_numbers"]
    xa, ya = eqn.invars[0].aval, eqn.invars[1].aval
    if lb or rb or len(xa.shape) != 2 or len(ya.shape) != 2:
        return None
    work = math.prod(xa.shape) * ya.shape[1 - rc[0]]
    if not threads.pairs(work, work):
        return None
    return parts[0], parts[1]


#: Small matrix-vector products inside loop bodies written into a loop buffer (``np.dot``'s
#: ``out``, ``np.matmul``'s positional ``out``): a switch, read when a program is generated.
dot_out = True

#: Per-example outer products by the compiled kernel of ``outer_compiled.py`` (with the
#: ``compiled`` extra): a switch, read when a program is generated.
outer_compiled_on = True


def _plain(d: np.dtype[Any]) -> bool:
    """A dtype NumPy's matmul computes in itself (no float32 detour, not bool)."""
    return d.kind in "fciu" and d.num < 256 and compute_dtype(d) is d


def fresh_contiguous(eqn: JaxprEqn) -> bool:
    """Whether :func:`_dot_general`'s expression for ``eqn`` (when it gives one) makes a new
    C-contiguous array: every product but the per-example outer products (a transposed view)."""
    (_, _), (lb, rb) = eqn.params["dimension_numbers"]
    return not lb and not rb and len(eqn.outvars[0].aval.shape) <= 2


def gemv_out(eqn: JaxprEqn) -> bool:
    """Whether :func:`_dot_general` writes ``eqn``'s product into a given vector: a small
    matrix-vector product of float32/float64 operands of the result's dtype, which it computes
    by ``np.dot`` or ``np.matmul`` (a new result and one written into a contiguous ``out`` of
    the result's dtype come from the same BLAS call; tests/test_loop_layout.py)."""
    if not (enabled and dot_gemv and dot_out) or eqn.primitive.impl is not kernels.dot_general:
        return False
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    d = eqn.params["preferred_element_type"]
    xa, ya = eqn.invars[0].aval, eqn.invars[1].aval
    if lb or rb or xa.dtype is not d or ya.dtype is not d or len(eqn.outvars[0].aval.shape) != 1:
        return False
    if len(lc) != 1 or len(rc) != 1 or not _dot_is_matmul(d, xa.shape, ya.shape):
        return False
    work = math.prod(xa.shape) * (math.prod(ya.shape) // max(1, ya.shape[rc[0]]))
    return bool(work < threads.BLAS_SMALL)


def _dot_general(
    eqn: JaxprEqn,
    args: list[str],
    bind: Bind,
    value_of: ValueOf | None = None,
    layout: Layout | None = None,
    out: str | None = None,
) -> str | None:
    # The kernel's two BLAS paths, for operands already of the result's dtype.
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    d = eqn.params["preferred_element_type"]
    xa, ya = eqn.invars[0].aval, eqn.invars[1].aval
    if xa.dtype is not d or ya.dtype is not d or not _plain(d):
        return None
    if tuple(lb) == (0,) and tuple(rb) == (0,):
        return _batched_outer_expr(eqn, args, bind)
    if lb or rb or len(lc) != 1 or len(rc) != 1 or len(xa.shape) > 2 or len(ya.shape) > 2:
        return None
    if not xa.shape or not ya.shape:
        return None
    # large products go through the kernel's own matmul (BLAS held to one thread, blocks on
    # the worker pool: backend/threads.py); small ones straight to NumPy
    work = math.prod(xa.shape) * (math.prod(ya.shape) // max(1, ya.shape[rc[0]]))
    if work >= threads.BLAS_SMALL:  # the kernel's own matmul gives operands a BLAS layout
        matmul = bind(threads.matmul, "f")
        if tuple(lc) == (1,) and tuple(rc) == (0,) and len(xa.shape) == 2 == len(ya.shape):
            return f"{matmul}({args[0]}, {args[1]})"
    a = args[0] if lc[0] == len(xa.shape) - 1 else f"{args[0]}.T"
    b = args[1] if rc[0] == 0 else f"{args[1]}.T"
    if work >= threads.BLAS_SMALL:
        return f"{matmul}({a}, {b})"
    # Small products call NumPy directly when both operands are C- or Fortran-contiguous (a
    # layout BLAS takes, as the kernel's matmul would give them), else the kernel's copy first:
    # the layout of an operand known when the program is generated (a constant, such as a
    # loop's weight matrix) is checked now, not at every call; so is a loop buffer or a fresh
    # product, and a loop's constant or a carry whose every later value is one of those is
    # checked once before the loop (``layout``). ``out``: written into that buffer.
    if d.kind not in "fc":  # integers: NumPy's own loop whatever the layout
        return f"{bind(np.matmul, 'f')}({a}, {b})"
    known = [value_of(name) if value_of is not None else None for name in args]
    checks = []
    for name, k in zip(args, known):
        if isinstance(k, np.ndarray):
            if not k.flags.forc:
                checks.append("False")
            continue
        check = layout(name) if layout is not None else None
        if check is None:
            checks.append(f"{name}.flags.forc")
        elif check:
            checks.append(check)
    if out is None:
        fallback = f"{bind(threads.matmul_any_layout, 'f')}({a}, {b})"
    else:
        fallback = f"{bind(_matmul_any_layout_into, 'f')}({a}, {b}, {out})"
    if dot_gemv and _dot_is_matmul(d, xa.shape, ya.shape):
        # np.dot's matrix-vector path makes the BLAS gemv call matmul makes, ~0.5 µs sooner
        # (the gufunc's set-up)
        into = f", out={out}" if out is not None else ""
        fast = f"{bind(np.dot, 'f')}({a}, {b}{into})"
    else:
        fast = f"{bind(np.matmul, 'f')}({a}, {b}{f', {out}' if out is not None else ''})"
    if "False" in checks:
        return fallback
    return f"{fast} if {' and '.join(checks)} else {fallback}" if checks else fast


def _matmul_any_layout_into(a: Any, b: Any, out: Any) -> Any:
    """``threads.matmul_any_layout`` written into ``out`` (a loop buffer: C-contiguous, of the
    result's dtype): the same BLAS call on the same contiguous operands."""
    return np.matmul(threads.blas_layout(a), threads.blas_layout(b), out)


def _dot_is_matmul(d: np.dtype[Any], xs: tuple[int, ...], ys: tuple[int, ...]) -> bool:
    """Whether ``np.dot`` and ``np.matmul`` give the same bits for contiguous operands of these
    shapes: a float32/float64 matrix (both sides at least 2; ``np.dot`` treats a side of 1 as a
    row, column or scalar and calls another BLAS routine) and a vector of at least 2 elements.
    Then both call ``cblas_?gemv`` with the same transposition after OpenBLAS's row/column-major
    swap (tests/test_dot_gemv.py compares them over sizes, layouts and special values)."""
    if d.char not in "fd" or sorted((len(xs), len(ys))) != [1, 2]:
        return False
    return min(*xs, *ys) >= 2


def _batched_outer(x: Any, y: Any, b: int, m: int, n: int) -> Any:
    # out[i, j, k] = x[i, j] * y[i, k] computed with the batch axis innermost (long contiguous
    # inner loops instead of b * m loops of n elements), returned as a (b, m, n) view
    xt = np.ascontiguousarray(x.reshape(b, m).T)
    yt = np.ascontiguousarray(y.reshape(b, n).T)
    return np.multiply(xt[:, None, :], yt[None, :, :]).transpose(2, 0, 1)


def _batched_outer_expr(eqn: JaxprEqn, args: list[str], bind: Bind) -> str | None:
    """The kernel's per-example outer products (``vmap`` of an outer product: one batch axis in
    front, one free axis each, and one contracted axis of size 1 or none): the same products,
    x's first, in another memory order."""
    (lc, rc), _ = eqn.params["dimension_numbers"]
    xs, ys = eqn.invars[0].aval.shape, eqn.invars[1].aval.shape
    if len(xs) == 2 and len(ys) == 2 and not lc and not rc and xs[0] == ys[0]:
        b, m, n = xs[0], xs[1], ys[1]  # no contraction at all: (b, m) x (b, n)
    elif (
        len(xs) != 3
        or len(ys) != 3
        or len(lc) != 1
        or len(rc) != 1
        or lc[0] == 0
        or rc[0] == 0
        or xs[lc[0]] != 1
        or ys[rc[0]] != 1
        or xs[0] != ys[0]
    ):
        return None
    else:
        b, m, n = xs[0], xs[3 - lc[0]], ys[3 - rc[0]]
    if b < 64 or b < max(m, n):  # the batch axis must be the long one to gain
        return None
    if outer_compiled_on and outer_compiled.wanted() and b * m * n >= outer_compiled.MIN_ELEMENTS:
        # one compiled loop in the result's order once it is ready (outer_compiled.py)
        f, np_f = bind(outer_compiled.batched_outer, "f"), bind(_batched_outer, "f")
        return f"{f}({args[0]}, {args[1]}, {b}, {m}, {n}, {np_f})"
    f = bind(_batched_outer, "f")
    return f"{f}({args[0]}, {args[1]}, {b}, {m}, {n})"


def _reduce_sum(eqn: JaxprEqn, args: list[str], bind: Bind) -> str | None:
    d = eqn.invars[0].aval.dtype
    if kernels._acc_dtype(d) is not d:
        return None
    if sum_order.in_domain(eqn.invars[0].aval.shape, d, tuple(eqn.params["axes"])):
        return None  # XLA's order: the kernel's (backend/sum_order.py)
    axes = bind(tuple(eqn.params["axes"]), "s")
    return f"{bind(np.add.reduce, 'f')}({args[0]}, {axes}, {bind(d, 'd')})"


def _select_n(eqn: JaxprEqn, args: list[str], bind: Bind) -> str | None:
    if len(args) != 3 or eqn.invars[0].aval.dtype != np.bool_:
        return None
    if eqn.invars[0].aval.size >= select_bits.BITS_MIN:  # the kernel's path (select_bits.py)
        return f"{bind(select_bits.select2, 'f')}({args[0]}, {args[1]}, {args[2]})"
    return f"{bind(np.where, 'f')}({args[0]}, {args[2]}, {args[1]})"


def _select_n_known(eqn: JaxprEqn, args: list[str], bind: Bind, value_of: ValueOf) -> str | None:
    """``select_n`` whose false case is a constant of all-zero bits (relu's derivative selects
    the cotangent or zeros): the bit path without reading the zeros (same bits as the kernel)."""
    expr = _select_n(eqn, args, bind)
    if expr is None or eqn.invars[0].aval.size < select_bits.BITS_MIN:
        return expr
    known = value_of(args[1])
    if known is None or not select_bits.all_zero_bits(known):
        return expr
    return f"{bind(select_bits.select2, 'f')}({args[0]}, {args[1]}, {args[2]}, True)"


def _convert_element_type(eqn: JaxprEqn, args: list[str], bind: Bind) -> str | None:
    # convert's last line (x.astype) for the conversions that reach it directly.
    src = eqn.invars[0].aval.dtype
    new = eqn.params["new_dtype"]
    if src.kind == "c" or new == np.bool_ or src == np.bool_ or src.kind == "V" or new.kind == "V":
        return None
    if src.kind == "f" and new.kind in "iu":
        return None
    return f"{args[0]}.astype({bind(new, 'd')})"


RULES[kernels.reshape] = _reshape
RULES[kernels.squeeze] = _same_size_reshape
RULES[kernels.expand_dims] = _same_size_reshape
RULES[kernels.transpose] = _transpose
RULES[kernels.broadcast_in_dim] = _broadcast_in_dim
RULES[kernels.dot_general] = _dot_general
RULES[kernels.reduce_sum] = _reduce_sum
RULES[kernels.select_n] = _select_n
VALUE_RULES[kernels.select_n] = _select_n_known
RULES[kernels.convert_element_type] = _convert_element_type
