"""Rewrites of a jaxpr before it is compiled, each giving the same bits with fewer NumPy calls.

``trellax.numpy.matmul`` of a matrix and a vector reshapes the vector to a column, multiplies, and
reshapes back (``reshape; dot_general; reshape``), and the transpose of that product adds a
``transpose``. In a loop body on small arrays each equation costs ~0.3-1 µs, so these chains are
folded into the one ``dot_general`` of the vector that computes the same product:

* matrix @ column: ``reshape x (n,)->(n, 1); dot_general W (m, n); reshape (m, 1)->(m,)`` becomes
  ``dot_general W x`` (``matmul(W, x)``), and row @ matrix (``reshape x (n,)->(1, n)`` on the
  left, ``(1, m)->(m,)`` after) ``dot_general x W`` (``matmul(x, W)``);
* column.T @ matrix: ``reshape x (n,)->(n, 1); dot_general contracting axis 0 of both with W (n, m);
  transpose (1, m)->(m, 1); reshape (m,)`` becomes ``dot_general x W`` (``matmul(x, W)``).

NumPy's ``matmul`` runs the same matrix-vector BLAS call for a vector as for a one-column matrix
(checked bit for bit on float32/float64/complex64/int32, every size up to 512, C and Fortran
layouts, in ``tests/test_compiled_loops.py``). Only chains whose intermediate values are read by
nothing else are rewritten, and only for dtypes the product computes in directly; the printed
jaxpr is unchanged (this runs in the compiler).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.backend import blas_swap
from trellax._src.backend.float_facts import compute_dtype
from trellax._src.core.core import Primitive
from trellax._src.core.jaxpr import Atom, Jaxpr, JaxprEqn, Var, eqn_kernel

_MATMUL_2D = (((1,), (0,)), ((), ()))
_ROW_TIMES = (((0,), (0,)), ((), ()))


def _uses(jaxpr: Jaxpr) -> dict[int, int]:
    count: dict[int, int] = {}
    for e in jaxpr.eqns:
        for a in e.invars:
            if type(a) is Var:
                count[id(a)] = count.get(id(a), 0) + 1
    for a in jaxpr.outvars:
        if type(a) is Var:
            count[id(a)] = count.get(id(a), 0) + 2  # an output is never folded away
    return count


def _is_column(e: JaxprEqn) -> bool:
    """``reshape`` of a vector ``(n,)`` to ``(n, 1)``."""
    if e.primitive.name != "reshape" or e.params.get("dimensions") is not None:
        return False
    shape = e.invars[0].aval.shape
    return len(shape) == 1 and tuple(e.params["new_sizes"]) == (shape[0], 1)


def _is_row(e: JaxprEqn) -> bool:
    """``reshape`` of a vector ``(n,)`` to ``(1, n)``."""
    if e.primitive.name != "reshape" or e.params.get("dimensions") is not None:
        return False
    shape = e.invars[0].aval.shape
    return len(shape) == 1 and tuple(e.params["new_sizes"]) == (1, shape[0])


def _is_flatten_to(e: JaxprEqn, n: int, row: bool = False) -> bool:
    """``reshape`` of ``(n, 1)`` (``(1, n)`` with ``row``) to ``(n,)``."""
    return (
        e.primitive.name == "reshape"
        and e.params.get("dimensions") is None
        and tuple(e.invars[0].aval.shape) == ((1, n) if row else (n, 1))
        and tuple(e.params["new_sizes"]) == (n,)
    )


def _plain_dot(e: JaxprEqn, numbers: Any) -> bool:
    if e.primitive.name != "dot_general" or e.params["dimension_numbers"] != numbers:
        return False
    out = e.params["preferred_element_type"]
    return (
        all(a.aval.dtype is out and len(a.aval.shape) == 2 for a in e.invars)
        and out.kind in "fciu"
        and out.num < 256
        and compute_dtype(out) is out
        and out != np.bool_
    )


#: Rewrites of equations of higher-floor primitives (control flow), filled by their modules:
#: ``rule(eqn, producer) -> equations replacing eqn, or None`` where ``producer(v)`` is the
#: equation of the same jaxpr defining ``v`` (None for inputs and constants). The equations a
#: rule returns are emitted in order in ``eqn``'s place; producers whose results nobody reads
#: any more are left out.
Rule = Callable[[JaxprEqn, Callable[[Atom], "JaxprEqn | None"]], "list[JaxprEqn] | None"]
rules: dict[Primitive, Rule] = {}

#: Switched off by the tests and measurements comparing programs with and without
#: :func:`_transposed_products`.
swap_products = True
#: Likewise for :func:`_identity_powers`.
identity_powers = True


def simplify(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` with the chains above folded (the same object if none)."""
    jaxpr = _transposed_products(_matrix_vector(_identity_powers(jaxpr)))
    return _by_rules(_scalar_broadcasts(jaxpr))


def _by_rules(jaxpr: Jaxpr) -> Jaxpr:
    """Applies :data:`rules`, then drops the kernel calls whose results became unread."""
    if not rules or not any(e.primitive in rules for e in jaxpr.eqns):
        return jaxpr
    producer: dict[int, JaxprEqn] = {}
    for e in jaxpr.eqns:
        for v in e.outvars:
            producer[id(v)] = e
    out: list[JaxprEqn] = []
    changed = False
    for e in jaxpr.eqns:
        rule = rules.get(e.primitive)
        new = rule(e, lambda a: producer.get(id(a)) if type(a) is Var else None) if rule else None
        if new is None:
            out.append(e)
        else:
            out.extend(new)
            changed = True
    if not changed:
        return jaxpr
    uses = _uses(Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, out))
    kept = [
        e
        for e in out
        if e.primitive.name != "broadcast_in_dim" or any(id(v) in uses for v in e.outvars)
    ]
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, kept)


def _scalar_broadcasts(jaxpr: Jaxpr) -> Jaxpr:
    """A 0-d value broadcast to a shape only to be combined, by a NumPy ufunc, with an operand of
    that shape: the ufunc broadcasts it itself (``add_any(c, broadcast_in_dim(s))`` becomes
    ``add(c, s)``, the same values without building the broadcast). lax's elementwise
    primitives take 0-d operands, so the folded equation is still well formed."""
    eqns = jaxpr.eqns
    candidates = [
        i
        for i, e in enumerate(eqns)
        if e.primitive.name == "broadcast_in_dim" and not e.invars[0].aval.shape
    ]
    if not candidates:
        return jaxpr
    uses = _uses(jaxpr)
    consumers: dict[int, list[int]] = {}
    for i, e in enumerate(eqns):
        for a in e.invars:
            if type(a) is Var and i not in consumers.setdefault(id(a), []):
                consumers[id(a)].append(i)
    replace: dict[int, JaxprEqn] = {}
    drop: set[int] = set()
    for i in candidates:
        b = eqns[i].outvars[0]
        users = consumers.get(id(b), [])
        if uses.get(id(b)) != len(users) or not users:  # an output, or read twice by one eqn
            continue
        folded = [_fold_scalar(replace.get(k, eqns[k]), b, eqns[i].invars[0]) for k in users]
        if any(f is None for f in folded):
            continue  # every reader must take the scalar, or the broadcast stays
        for k, f in zip(users, folded, strict=True):
            assert f is not None
            replace[k] = f
        drop.add(i)
    if not replace:
        return jaxpr
    out = [replace.get(i, e) for i, e in enumerate(eqns) if i not in drop]
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, out)


def _fold_scalar(e: JaxprEqn, b: Var, scalar: Any) -> JaxprEqn | None:
    """``e`` reading the 0-d ``scalar`` in place of its broadcast ``b``, when ``e`` is a binary
    NumPy ufunc whose other operand has ``b``'s shape (else None)."""
    shape = b.aval.shape
    if (
        not isinstance(eqn_kernel(e), np.ufunc)
        or not getattr(e.primitive, "elementwise", False)
        or len(e.invars) != 2
        or e.params
        or tuple(e.outvars[0].aval.shape) != tuple(shape)
    ):
        return None
    pos = 0 if e.invars[0] is b else 1
    if e.invars[1 - pos].aval.shape != shape or e.invars[pos] is not b:
        return None
    operands = list(e.invars)
    operands[pos] = scalar
    return JaxprEqn(e.primitive, operands, list(e.outvars), e.params, e.source, e.api)


def _matrix_vector(jaxpr: Jaxpr) -> Jaxpr:
    eqns = jaxpr.eqns
    if not any(e.primitive.name == "dot_general" for e in eqns):
        return jaxpr
    uses = _uses(jaxpr)
    producer: dict[int, int] = {}
    for i, e in enumerate(eqns):
        for v in e.outvars:
            producer[id(v)] = i
    consumer: dict[int, int] = {}
    for i, e in enumerate(eqns):
        for a in e.invars:
            if type(a) is Var:
                consumer[id(a)] = i
    replace: dict[int, JaxprEqn] = {}  # index of the chain's last equation -> the fold
    drop: set[int] = set()

    def single_next(v: Atom) -> int | None:
        if type(v) is not Var or uses.get(id(v)) != 1:
            return None
        return consumer.get(id(v))

    for i, e in enumerate(eqns):
        if e.primitive.name != "dot_general" or i in drop:
            continue
        numbers = e.params["dimension_numbers"]
        if _plain_dot(e, _MATMUL_2D):  # W @ column, or row @ W
            k = single_next(e.outvars[0])
            if k is None:
                continue
            lhs, rhs = e.invars
            j = producer.get(id(rhs))
            jl = producer.get(id(lhs))
            if j is not None and uses.get(id(rhs)) == 1 and _is_column(eqns[j]):
                operands = [lhs, eqns[j].invars[0]]
                n_out = lhs.aval.shape[0]
            elif jl is not None and uses.get(id(lhs)) == 1 and _is_row(eqns[jl]):
                j = jl
                operands = [eqns[j].invars[0], rhs]
                numbers = _ROW_TIMES
                n_out = rhs.aval.shape[1]
            else:
                continue
            if not _is_flatten_to(eqns[k], n_out, row=numbers == _ROW_TIMES):
                continue
            chain, last = [j, i], k
        elif _plain_dot(e, _ROW_TIMES):  # column.T @ W, transposed back to a column
            col = e.invars[0]
            j = producer.get(id(col))
            if j is None or uses.get(id(col)) != 1 or not _is_column(eqns[j]):
                continue
            t = single_next(e.outvars[0])
            if t is None or eqns[t].primitive.name != "transpose":
                continue
            if tuple(eqns[t].params["permutation"]) != (1, 0):
                continue
            k = single_next(eqns[t].outvars[0])
            m = e.invars[1].aval.shape[1]
            if k is None or not _is_flatten_to(eqns[k], m):
                continue
            operands = [eqns[j].invars[0], e.invars[1]]
            chain, last = [j, i, t], k
        else:
            continue
        if any(c in drop or c in replace for c in (*chain, last)):
            continue
        drop.update(chain)
        params = dict(e.params, dimension_numbers=numbers)
        replace[last] = JaxprEqn(
            e.primitive, operands, list(eqns[last].outvars), params, e.source, e.api
        )
    if not replace:
        return jaxpr
    out = [replace.get(i, e) for i, e in enumerate(eqns) if i not in drop]
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, out)


def _transposed_products(jaxpr: Jaxpr) -> Jaxpr:
    """``transpose((1, 0))`` of a product contracting axis 0 of two matrices (a dense layer's
    weight gradient, ``g.T @ h`` transposed) becomes the product with its operands swapped
    (``h.T @ g``): the same values made in C order, instead of a Fortran-order view that a
    fused region reading it flat would copy. Only where ``blas_swap.swap_agrees`` found that
    BLAS gives the swapped product the same bits, and only when nothing else reads the
    untransposed product."""
    eqns = jaxpr.eqns
    if not swap_products or not any(e.primitive.name == "transpose" for e in eqns):
        return jaxpr
    uses = _uses(jaxpr)
    producer: dict[int, int] = {}
    for i, e in enumerate(eqns):
        for v in e.outvars:
            producer[id(v)] = i
    replace: dict[int, JaxprEqn] = {}
    drop: set[int] = set()
    for t, e in enumerate(eqns):
        if e.primitive.name != "transpose" or tuple(e.params["permutation"]) != (1, 0):
            continue
        src = e.invars[0]
        at = producer.get(id(src)) if type(src) is Var else None
        if at is None or at in drop or uses.get(id(src)) != 1:
            continue
        d = eqns[at]
        if not _plain_dot(d, _ROW_TIMES):
            continue
        x, y = d.invars
        depth, m = x.aval.shape
        n = y.aval.shape[1]
        if not blas_swap.swap_agrees(d.params["preferred_element_type"], depth, m, n):
            continue
        drop.add(at)
        replace[t] = JaxprEqn(d.primitive, [y, x], list(e.outvars), d.params, d.source, d.api)
    if not replace:
        return jaxpr
    out = [replace.get(i, e) for i, e in enumerate(eqns) if i not in drop]
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, out)


def _identity_powers(jaxpr: Jaxpr) -> Jaxpr:
    """``integer_pow`` with ``y=1`` (optax's first moment, ``g ** 1``) dropped, its readers
    reading its operand: the kernel returns the operand itself, so the values are the same
    objects; in a fused region it was a copy pass. Kept when its result is an output of the
    jaxpr or its operand a literal."""
    eqns = jaxpr.eqns
    if not identity_powers or not any(
        e.primitive.name == "integer_pow" and e.params.get("y") == 1 for e in eqns
    ):
        return jaxpr
    outputs = {id(a) for a in jaxpr.outvars if type(a) is Var}
    alias: dict[int, Atom] = {}
    out: list[JaxprEqn] = []
    for e in eqns:
        invars = [alias.get(id(a), a) if type(a) is Var else a for a in e.invars]
        first = invars[0] if invars else None
        if (
            e.primitive.name == "integer_pow"
            and e.params.get("y") == 1
            and type(first) is Var
            and id(e.outvars[0]) not in outputs
            and first.aval.dtype == e.outvars[0].aval.dtype
            and tuple(first.aval.shape) == tuple(e.outvars[0].aval.shape)
        ):
            alias[id(e.outvars[0])] = first
            continue
        if any(a is not b for a, b in zip(invars, e.invars, strict=True)):
            e = JaxprEqn(e.primitive, invars, list(e.outvars), e.params, e.source, e.api)
        out.append(e)
    if not alias:
        return jaxpr
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, out)
