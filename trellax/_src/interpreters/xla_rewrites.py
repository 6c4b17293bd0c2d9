"""Value-changing rewrites that XLA applies to every compiled program, applied to ``jit``'s:
``convert(pred) * v`` as a select (below), divisions by a constant or broadcast divisor as
products with the reciprocal (``reciprocal_divisions``, further down), and in the same pass the
algebraic simplifier's compound rewrites of divisions (``a / sqrt(b)`` as ``a * rsqrt(b)``,
``(a / b) / c`` as ``a / (b * c)`` and the rest, at the end).

XLA's algebraic simplifier turns ``convert(pred) * v`` into ``select(pred, v, 0)`` when the
converted boolean is an operand of the product itself (not broadcast first) and the product is
float16/32/64 or complex (bfloat16 and float8 products are widened to float32 before it runs,
which hides the pattern). The two differ where ``v`` is NaN, ±inf or -0.0, or complex with
either: ``False * nan`` is +0.0 after the rewrite, NaN by IEEE. So in JAX, under ``jit``,
``b.astype(jnp.float32) * v`` selects, while the same two operations run one at a time multiply.

trellax's ``jnp.multiply`` of a boolean array already binds ``select_n`` (``numpy/bool_product``),
eagerly and traced alike, as JAX's single-operation program does. This pass covers the rest:
a ``mul`` whose operand is a ``convert_element_type`` of a boolean of the product's shape, in a
program compiled by ``jit`` (its loop bodies included; gradients too, since the transpose of such
a product is one). It becomes ``select_n(pred, converted, v)``: the converted boolean is 0
exactly where the predicate is False, so no zero constant is needed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend import division
from trellax._src.core.core import ShapedArray
from trellax._src.core.jaxpr import Atom, Jaxpr, JaxprEqn, Literal, Var
from trellax._src.lax import ad_util
from trellax._src.lax._base import complex_
from trellax._src.lax.elementwise import (
    abs_p,
    div_p,
    exp_p,
    log_p,
    lt_p,
    mul,
    mul_p,
    neg,
    neg_p,
    pow_p,
    rsqrt_p,
    sqrt_p,
    sub_p,
)
from trellax._src.lax.naryop import naryop
from trellax._src.lax.select_n import select_n_p
from trellax._src.lax.shapes import broadcast_in_dim_p, convert_element_type_p

#: ``1 / c`` of a complex constant as XLA folds it (Smith's quotient; ``backend/division.py``)
complex_reciprocal_p = naryop(
    "xla_complex_reciprocal", division.xla_complex_reciprocal, [complex_], fusable=False
)
#: a complex product rounded as XLA's compiled one (``backend/division.py``)
complex_product_p = naryop(
    "xla_complex_product", division.xla_complex_product, [complex_, complex_], fusable=False
)

# (jit rewrites after differentiation, so these rules only serve a jaxpr that binds them itself)
ad_util.defjvp(complex_reciprocal_p, lambda t, ans, y: neg(mul(t, mul(ans, ans))))
ad_util.defjvp(complex_product_p, lambda t, ans, x, r: mul(t, r), lambda t, ans, x, r: mul(x, t))

_SELECTING = frozenset(
    np.dtype(name) for name in ("float16", "float32", "float64", "complex64", "complex128")
)


def select_bool_products(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` with XLA's ``convert(pred) * v -> select(pred, v, 0)`` applied (the same object
    when nothing matches)."""
    eqns = jaxpr.eqns
    if not any(e.primitive.name == "mul" for e in eqns):
        return jaxpr
    converted: dict[int, Var] = {}  # id(converted var) -> the boolean it was converted from
    out: list[JaxprEqn] = []
    changed = False
    for e in eqns:
        name = e.primitive.name
        if name == "convert_element_type":
            (x,) = e.invars
            if type(x) is Var and x.aval.dtype == np.bool_:
                converted[id(e.outvars[0])] = x
        elif name == "mul" and converted:
            new = _select(e, converted)
            if new is not None:
                out.append(new)
                changed = True
                continue
        out.append(e)
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, out) if changed else jaxpr


#: XLA's simplifier folds ``log(exp(x))`` to ``x`` at these element types (bfloat16 is widened to
#: float32 around each operation first, which hides the pattern; complex logs are kept)
_LOG_EXP = frozenset(np.dtype(name) for name in ("float16", "float32", "float64"))


def log_of_exp(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` with XLA's ``log(exp(x)) -> x`` applied (the same object when nothing matches):
    under ``jit``, JAX's ``jnp.log(jnp.exp(100.0))`` is ``100.0`` where eagerly it is ``inf``
    (JAX's FAQ shows it). The log becomes a copy of ``x``; the exp stays if anything else reads
    it (dead-code removal drops it otherwise)."""
    eqns = jaxpr.eqns
    if not any(e.primitive is log_p for e in eqns):
        return jaxpr
    exponent: dict[int, Atom] = {}  # id(exp's result) -> its operand
    out: list[JaxprEqn] = []
    changed = False
    for e in eqns:
        if e.primitive is exp_p and e.outvars[0].aval.dtype in _LOG_EXP:
            exponent[id(e.outvars[0])] = e.invars[0]
        elif e.primitive is log_p and type(e.invars[0]) is Var and id(e.invars[0]) in exponent:
            (result,) = e.outvars
            x = exponent[id(e.invars[0])]
            params = {"new_dtype": result.aval.dtype, "weak_type": result.aval.weak_type}
            out.append(_eqn(e, convert_element_type_p, [x], result, params))
            changed = True
            continue
        out.append(e)
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, out) if changed else jaxpr


def _select(e: JaxprEqn, converted: dict[int, Var]) -> JaxprEqn | None:
    (result,) = e.outvars
    aval = result.aval
    if aval.dtype not in _SELECTING:
        return None
    for i, a in enumerate(e.invars):
        pred = converted.get(id(a)) if type(a) is Var else None
        other = e.invars[1 - i]
        if (
            pred is not None
            and pred.aval.shape == aval.shape
            and a.aval.dtype == aval.dtype
            and other.aval.shape in (aval.shape, ())  # a scalar operand: XLA's is broadcast
            and other.aval.dtype == aval.dtype
        ):
            return JaxprEqn(select_n_p, [pred, a, other], [result], {}, e.source, e.api)
    return None


# -- division by a constant or broadcast divisor ---------------------------------------------------
#
# XLA's simplifier turns ``a / b`` into ``a * (1 / b)`` (float16/32/64; bfloat16 is widened first,
# complex ones only by a constant: ``_complex_constant``) when ``b`` is
#   - a constant (a literal, a closed-over array, or computed from constants only), any shape;
#   - a broadcast of a value of rank 1 or more (a row or column spread over a matrix), however
#     many users it has;
#   - a broadcast of a scalar that nothing else reads: a scalar parameter read twice (two
#     divisions, or a division and any other use, the program's outputs included) is divided.
# Measured against JAX 0.10.2 (docs/semantics.md, "Division by a constant"; test_div_rules.py). The
# reciprocal is taken at the divisor's own shape, rounded, and in float32/float64 flushed to zero
# where subnormal (``backend/division.py``). After this pass every float division of a jit
# program has a divisor of the quotient's size (a kept scalar division gets an explicit
# broadcast), so ``backend.division``'s eager rule, which looks at shapes only, never fires in
# compiled code, and the fused kernels and loop bodies see plain products and quotients.

_REWRITTEN = division.RECIPROCAL_DTYPES | {division.BFLOAT16}
_SHAPE_OPS = frozenset({"broadcast_in_dim", "convert_element_type", "reshape", "squeeze"})


def reciprocal_divisions(jaxpr: Jaxpr, carried: int | None = None) -> Jaxpr:
    """``jaxpr`` with XLA's rewrite of divisions by constant or broadcast divisors made explicit
    (the same object when it has no float division or complex product).

    ``carried`` is given for a loop body: its constants and first ``carried`` inputs are the
    loop's consts and carries, which XLA passes through the loop's state (one use more for each,
    and closed-over arrays are no constants there; ``jit(fori_loop(..., c / t))`` divides)."""
    eqns = jaxpr.eqns
    if not any(
        e.primitive.name == "div" or (e.primitive is mul_p and e.outvars[0].aval.dtype.kind == "c")
        for e in eqns
    ):
        return jaxpr
    uses: dict[int, int] = {}
    if carried is not None:
        for v in (*jaxpr.constvars, *jaxpr.invars[:carried]):
            uses[id(v)] = 1
    for e in eqns:
        for a in e.invars:
            if type(a) is Var:
                uses[id(a)] = uses.get(id(a), 0) + 1
    for a in jaxpr.outvars:
        if type(a) is Var:
            uses[id(a)] = uses.get(id(a), 0) + 1
    constant = {id(v) for v in jaxpr.constvars} if carried is None else set()
    producer: dict[int, JaxprEqn] = {}
    out: list[JaxprEqn] = []

    def emit(e: JaxprEqn, rewrite: bool = True) -> bool:
        """Appends ``e`` to ``out``, rewritten if XLA would (and ``rewrite``); whether it was.
        The divisions the compound rules make are looked at again, the reciprocals not."""
        folded = getattr(e.primitive, "elementwise", False) or e.primitive.name in _SHAPE_OPS
        if folded and e.invars and all(type(a) is Literal or id(a) in constant for a in e.invars):
            constant.update(id(v) for v in e.outvars)
        for v in e.outvars:
            producer[id(v)] = e
        if rewrite and e.primitive.name == "div":
            dtype = e.outvars[0].aval.dtype
            new = None
            if dtype in _REWRITTEN:
                new = _division(e, constant, producer, uses)
            elif dtype.kind == "c":
                new = _complex_constant(e, constant, producer)
            if new is not None:
                for n in new:
                    emit(n, False)
                return True
            if dtype in division.RECIPROCAL_DTYPES or dtype.kind == "c":
                new = _compound(e, producer)
            if new is not None:
                for n in new:
                    emit(n)
                return True
        if rewrite and e.primitive is mul_p and e.outvars[0].aval.dtype.kind == "c":
            new = _complex_scalar_factor(e, constant)
            if new is not None:
                out.extend(new)
                return True
        if not rewrite and (e.primitive is mul_p or e.primitive is complex_product_p):
            new = _constant_products(e, constant, producer)
            if new is not None:
                for n in new:
                    emit(n, False)
                return True
        out.append(e)
        return False

    changed = False
    for e in eqns:
        changed = emit(e) or changed
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, out) if changed else jaxpr


def _constant_products(
    e: JaxprEqn, constant: set[int], producer: dict[int, JaxprEqn]
) -> list[JaxprEqn] | None:
    """``(a * c1) * c2`` with constants ``c1`` and ``c2`` as ``a * (c1 * c2)``, the constant
    product folded first, as XLA's simplifier reassociates it (whatever else reads ``a * c1``;
    a product with a reciprocal that a division became included: ``(x * 0.5) / h`` is
    ``x * (0.5 * (1 / h))`` for a constant ``h``). Not for bfloat16, whose products XLA widens to
    float32 first, which hides the pattern."""
    dtype = e.outvars[0].aval.dtype
    if dtype == division.BFLOAT16 or dtype.kind not in "fc":
        return None

    def const(a: Atom) -> bool:
        return type(a) is Literal or id(a) in constant

    x, c2 = e.invars
    if const(x):
        x, c2 = c2, x
    if const(x) or not const(c2) or type(x) is not Var:
        return None
    (q,) = e.outvars
    if _is_one(c2) and x.aval.shape == q.aval.shape and x.aval.dtype == dtype:
        # XLA drops a product with the constant 1 (a complex one too, where the product would
        # turn an infinite part into NaN)
        return [_eqn(e, convert_element_type_p, [x], q, _convert_params(dtype))]
    p = producer.get(id(x))
    if p is None or (p.primitive is not mul_p and p.primitive is not complex_product_p):
        return None
    a, c1 = p.invars
    if const(a):
        a, c1 = c1, a
    if const(a) or not const(c1):
        return None
    if any(v.aval.dtype != dtype for v in (a, c1, c2)) or a.aval.shape != q.aval.shape:
        return None
    s1, s2 = tuple(c1.aval.shape), tuple(c2.aval.shape)
    if type(c1) is Literal and type(c2) is Literal and not s1 and not s2:
        with np.errstate(all="ignore"):
            value = np.multiply(np.asarray(c1.value, dtype), np.asarray(c2.value, dtype))
        return [_eqn(e, e.primitive, [a, Literal(value, c1.aval)], q)]
    if s1 != s2 and not (type(c1) is Literal and not s1) and not (type(c2) is Literal and not s2):
        return None
    k = Var(ShapedArray._fast(s1 if len(s1) >= len(s2) else s2, dtype, False))
    return [_eqn(e, mul_p, [c1, c2], k), _eqn(e, e.primitive, [a, k], q)]


def _is_one(c: Atom) -> bool:
    """Whether ``c`` is a literal 1 (complex: ``1 + 0j``, the zero of either sign)."""
    return type(c) is Literal and bool(np.all(np.asarray(c.value) == 1))


# -- the algebraic simplifier's compound rewrites of a division ----------------------------------
#
# Measured on JAX 0.10.2 (jit on CPU; the optimized HLO, then bits: docs/semantics.md, "Compound
# divisions under jit"; tests/test_div_compound.py). For float16/32/64 quotients (bfloat16's
# operations are wrapped in conversions to float32 first, which hides every pattern):
#   exp(a) / exp(b) -> exp(a - b)        a / exp(b)    -> a * exp(-b)
#   a / sqrt(b)     -> a * rsqrt(b)      a / rsqrt(b)  -> a * sqrt(b)
#   a / pow(b, c)   -> a * pow(b, -c)    a / (b / c)   -> (a * c) / b
#   (a / b) / c     -> a / (b * c)       (a / b) / (c / d) -> (a * d) / (b * c)
# complex quotients get the last four and ``a / rsqrt(b)`` (complex exp and sqrt are expanded into
# real operations before the simplifier runs). They fire whatever else reads the intermediate
# (``exp(b)`` is then computed twice). A division by a constant or a broadcast is rewritten
# first (``(a / b) / 3`` is ``(a / b) * (1/3)``), and a division the rules produce is looked at
# again (``a / (3 / b)`` becomes ``(a * b) * (1/3)``).

_EXPANDED = frozenset({"exp", "sqrt"})  # complex forms XLA expands before simplifying


def _compound(e: JaxprEqn, producer: dict[int, JaxprEqn]) -> list[JaxprEqn] | None:
    x, y = e.invars
    (q,) = e.outvars
    aval = q.aval
    if type(y) is not Var or y.aval.shape != aval.shape or y.aval.dtype != aval.dtype:
        return None
    if type(x) is Var and (x.aval.shape != aval.shape or x.aval.dtype != aval.dtype):
        return None
    complex_ = aval.dtype.kind == "c"

    def made(a: Atom) -> JaxprEqn | None:
        p = producer.get(id(a)) if type(a) is Var else None
        if p is None or (complex_ and p.primitive.name in _EXPANDED):
            return None
        for b in p.invars:  # literals, or operands of the quotient's shape (any dtype: pow's)
            if type(b) is Var and b.aval.shape != aval.shape:
                return None
        return p

    def var(like: Atom) -> Var:
        return Var(ShapedArray._fast(tuple(like.aval.shape), like.aval.dtype, False))

    py, px = made(y), made(x)
    ny = py.primitive.name if py is not None else ""
    nx = px.primitive.name if px is not None else ""
    if py is not None and ny == "exp" and nx == "exp":
        assert px is not None
        (a,), (b,) = px.invars, py.invars
        d = var(a)
        return [_eqn(e, sub_p, [a, b], d), _eqn(e, exp_p, [d], q, dict(py.params))]
    if py is not None and ny in ("exp", "sqrt", "rsqrt", "pow"):
        (b, *rest) = py.invars
        r = var(y)
        if ny == "exp":
            m = var(b)
            return [
                _eqn(e, neg_p, [b], m),
                _eqn(e, exp_p, [m], r, dict(py.params)),
                _eqn(e, mul_p, [x, r], q),
            ]
        if ny in ("sqrt", "rsqrt"):
            flip = rsqrt_p if ny == "sqrt" else sqrt_p
            return [_eqn(e, flip, [b], r, dict(py.params)), _eqn(e, mul_p, [x, r], q)]
        (c,) = rest
        m = var(c)
        return [
            _eqn(e, neg_p, [c], m),
            _eqn(e, pow_p, [b, m], r, dict(py.params)),
            _eqn(e, mul_p, [x, r], q),
        ]
    if py is not None and ny == "div" and nx == "div":
        assert px is not None
        (n1, d1), (n2, d2) = px.invars, py.invars  # (n1 / d1) / (n2 / d2)
        top, bottom = var(q), var(q)
        return [
            _eqn(e, mul_p, [n1, d2], top),
            _eqn(e, mul_p, [d1, n2], bottom),
            _eqn(e, div_p, [top, bottom], q),
        ]
    if py is not None and ny == "div":
        b, c = py.invars
        top = var(q)
        return [_eqn(e, mul_p, [x, c], top), _eqn(e, div_p, [top, b], q)]
    if px is not None and nx == "div":
        a, b = px.invars
        bottom = var(q)
        return [_eqn(e, mul_p, [b, y], bottom), _eqn(e, div_p, [a, bottom], q)]
    return None


def _complex_scalar_factor(e: JaxprEqn, constant: set[int]) -> list[JaxprEqn] | None:
    """A complex product by a 0-d constant (a literal, a closed-over scalar, a value computed
    from them) of a non-constant operand, with the constant second, as the product XLA's
    compiler emits for a constant it sees (``complex_product_p``: its order depends on the
    constant's imaginary sign); products of other operands keep ``mul``'s kernel."""

    def scalar(a: Atom) -> bool:
        return not a.aval.shape and (type(a) is Literal or id(a) in constant)

    x, c = e.invars
    if scalar(x) and not scalar(c):
        x, c = c, x
    if scalar(x) or not scalar(c) or not x.aval.shape:
        return None
    return [_eqn(e, complex_product_p, [x, c], e.outvars[0])]


def _complex_constant(
    e: JaxprEqn, constant: set[int], producer: dict[int, JaxprEqn]
) -> list[JaxprEqn] | None:
    """A complex division by a constant (a literal, a closed-over array, or a broadcast of
    one) as the product with its reciprocal, as XLA folds it under ``jit``; complex divisions
    by anything else stay XLA's complex division (eagerly too)."""
    x, y = e.invars
    (q,) = e.outvars
    if type(y) is Literal:
        r = division.xla_complex_reciprocal(np.asarray(y.value, q.aval.dtype))
        return [_eqn(e, complex_product_p, [x, Literal(r, y.aval)], q)]
    if id(y) not in constant:
        return None
    b = producer.get(id(y))
    if b is not None and b.primitive.name == "broadcast_in_dim":
        (z,) = b.invars
        if type(z) is Literal or id(z) in constant:
            y, spread = z, b
        else:
            spread = None
    else:
        spread = None
    if type(y) is Literal:  # a broadcast literal: its reciprocal is one too
        r0 = division.xla_complex_reciprocal(np.asarray(y.value, q.aval.dtype))
        return [_eqn(e, complex_product_p, [x, Literal(r0, y.aval)], q)]
    aval = ShapedArray._fast(tuple(y.aval.shape), q.aval.dtype, False)
    r = Var(aval)
    new = [_eqn(e, complex_reciprocal_p, [y], r)]
    if spread is not None and y.aval.shape:  # a 0-d reciprocal is a scalar to the compiler
        wide = Var(ShapedArray._fast(tuple(q.aval.shape), q.aval.dtype, False))
        new.append(_eqn(e, broadcast_in_dim_p, [r], wide, dict(spread.params)))
        r = wide
    new.append(_eqn(e, complex_product_p, [x, r], q))
    return new


def _division(
    e: JaxprEqn, constant: set[int], producer: dict[int, JaxprEqn], uses: dict[int, int]
) -> list[JaxprEqn] | None:
    x, y = e.invars
    (q,) = e.outvars
    if type(y) is Literal and q.aval.dtype in division.RECIPROCAL_DTYPES:
        with np.errstate(all="ignore"):  # 1 / 0 is inf, silently (as XLA's folding)
            r = division.xla_reciprocal(np.asarray(y.value, q.aval.dtype))
        return [_eqn(e, mul_p, [x, Literal(r, y.aval)], q)]
    if type(y) is Literal:
        return _times_reciprocal(e, x, y, q, None)
    if id(y) in constant:
        return _times_reciprocal(e, x, y, q, None)
    assert type(y) is Var
    if _size(y.aval.shape) != _size(q.aval.shape):  # a broadcast in XLA's program
        if y.aval.shape or uses.get(id(y)) == 1:
            return _times_reciprocal(e, x, y, q, None)
        # a scalar read elsewhere too: XLA divides; the explicit broadcast keeps it a quotient
        full = Var(ShapedArray._fast(q.aval.shape, y.aval.dtype, y.aval.weak_type))
        params = {"shape": tuple(q.aval.shape), "broadcast_dimensions": ()}
        return [_eqn(e, broadcast_in_dim_p, [y], full, params), _eqn(e, div_p, [x, full], q)]
    b = producer.get(id(y))
    if b is None or b.primitive.name != "broadcast_in_dim":
        return None
    (z,) = b.invars
    if _size(z.aval.shape) == _size(y.aval.shape):
        return None  # a reshape for XLA, not a broadcast
    if type(z) is Literal or id(z) in constant:
        return _times_reciprocal(e, x, z, q, b)
    if z.aval.shape or (uses.get(id(z)) == 1 and uses.get(id(y)) == 1):
        return _times_reciprocal(e, x, z, q, b)
    return None


def _times_reciprocal(
    e: JaxprEqn, x: Atom, y: Atom, q: Var, spread: JaxprEqn | None
) -> list[JaxprEqn]:
    """``q = x * r`` with ``r`` XLA's reciprocal of ``y`` (broadcast as ``spread`` was); for
    bfloat16 the reciprocal and the product are float32's, rounded once to bfloat16."""
    out = q.aval.dtype
    d = np.dtype(np.float32) if out == division.BFLOAT16 else out
    shape = tuple(y.aval.shape)
    one = Literal(np.ones((), d), ShapedArray._fast((), d, True))

    def var(dtype: np.dtype[Any] = d, at: tuple[int, ...] = shape) -> Var:
        return Var(ShapedArray._fast(at, dtype, False))

    new: list[JaxprEqn] = []
    if d != out:
        x, y = _widen(e, x, new), _widen(e, y, new)
    r = var()
    new.append(_eqn(e, div_p, [one, y], r))
    tiny = division.tiny(d)
    if tiny is not None:  # flush a subnormal reciprocal to a zero of its sign
        size, small, zero, flushed = var(), var(np.dtype(np.bool_)), var(), var()
        new += [
            _eqn(e, abs_p, [r], size),
            _eqn(e, lt_p, [size, Literal(np.asarray(tiny, d), one.aval)], small),
            _eqn(e, mul_p, [r, Literal(np.zeros((), d), one.aval)], zero),
            _eqn(e, select_n_p, [small, r, zero], flushed),
        ]
        r = flushed
    if spread is not None:
        wide = var(d, tuple(spread.outvars[0].aval.shape))
        new.append(_eqn(e, broadcast_in_dim_p, [r], wide, dict(spread.params)))
        r = wide
    if d == out:
        new.append(_eqn(e, mul_p, [x, r], q))
        return new
    product = var(d, tuple(q.aval.shape))
    new.append(_eqn(e, mul_p, [x, r], product))
    new.append(_eqn(e, convert_element_type_p, [product], q, _convert_params(out)))
    return new


def _convert_params(dtype: np.dtype[Any]) -> dict[str, Any]:
    return {"new_dtype": dtype, "weak_type": False}


def _widen(e: JaxprEqn, a: Atom, new: list[JaxprEqn]) -> Atom:
    """``a`` (bfloat16) as float32, appending the conversion to ``new``."""
    f32 = np.dtype(np.float32)
    if type(a) is Literal:
        return Literal(np.asarray(a.value).astype(f32), ShapedArray._fast((), f32, True))
    wide = Var(ShapedArray._fast(tuple(a.aval.shape), f32, False))
    new.append(_eqn(e, convert_element_type_p, [a], wide, _convert_params(f32)))
    return wide


def _eqn(
    e: JaxprEqn, prim: Any, invars: list[Atom], out: Var, params: dict[str, Any] | None = None
) -> JaxprEqn:
    return JaxprEqn(prim, invars, [out], params or {}, e.source, e.api)


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n
