"""Products: ``matmul``, ``dot``, ``vdot``, ``inner``, ``outer`` (promote with the lattice, no
accumulation widening: ``dot(int8, int8)`` is int8, as in JAX)."""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend import eager
from trellax._src.backend.eager import ConcreteArray
from trellax._src.core.basearray import Array
from trellax._src.core.core import broadcast_shapes
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.core.typing import ArrayLike, DType, DTypeLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax import structural as lax_structural
from trellax._src.lax._base import canonicalize_axes
from trellax._src.lax.reductions import dot_general, dot_general_p
from trellax._src.lax.sharding_rules import with_out_sharding
from trellax._src.lax.structural import _convert, broadcast_to, reshape, transpose
from trellax._src.numpy.static_args import int_axis, moved_axis
from trellax._src.numpy.ufuncs import conjugate, multiply
from trellax._src.numpy.util import promote_args_keep_shapes


def _contraction_error(x_dims: tuple[int, ...], y_dims: tuple[int, ...]) -> TypeError:
    """JAX's error (a TypeError) for contracted axes of different sizes."""
    return TypeError(
        "dot_general requires contracting dimensions to have the same shape, got "
        f"{x_dims} and {y_dims}."
    )


def _preferred(a: Array, preferred_element_type: DTypeLike | None) -> DType | None:
    if preferred_element_type is None:
        return None
    d = dtypes.check_user_dtype(preferred_element_type, "matmul")
    return d


def matmul(
    a: ArrayLike,
    b: ArrayLike,
    *,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
    out_sharding: Any = None,
) -> Array:
    """Matrix product with NumPy's broadcasting of batch dimensions."""
    if out_sharding is not None:
        check_out_sharding("numpy.matmul", out_sharding)
        return with_out_sharding(
            lambda: matmul(
                a, b, precision=precision, preferred_element_type=preferred_element_type
            ),
            out_sharding,
        )
    if type(a) is ConcreteArray and type(b) is ConcreteArray and preferred_element_type is None:
        product = eager.matmul_2d(a, b, dot_general_p)
        if product is not None:
            return product
    for i, v in enumerate((a, b)):  # before promoting, as JAX does
        nd = getattr(v, "ndim", None)
        if nd == 0 or (nd is None and type(v) in (int, float, complex, bool)):
            raise ValueError(
                f"matmul input operand {i} must have ndim at least 1, but it has ndim 0"
            )
    x, y = promote_args_keep_shapes("matmul", a, b)
    if (
        len(x.shape) == 2
        and len(y.shape) == 2
        and preferred_element_type is None
        and x.shape[1] == y.shape[0]
    ):  # the common case, without the general batching and checks below
        return dot_general_p.bind(
            x, y, dimension_numbers=eager.MATMUL_2D, preferred_element_type=x.dtype
        )
    x_vec, y_vec = x.ndim == 1, y.ndim == 1
    if x_vec or y_vec:
        # a vector operand: one contraction without batch dimensions (JAX's jaxpr)
        yc = 0 if y_vec else y.ndim - 2
        if x.shape[-1] != y.shape[yc]:
            raise _contraction_error((x.shape[-1],), (y.shape[yc],))
        vdn: Any = (((x.ndim - 1,), (yc,)), ((), ()))
        return dot_general(x, y, vdn, precision, _preferred(x, preferred_element_type))
    if x_vec:
        x = reshape(x, (1, x.shape[0]))
    if y_vec:
        y = reshape(y, (y.shape[0], 1))
    # JAX broadcasts the batch dimensions first (ValueError), then checks the contraction
    batch = _broadcast_batch(x.shape[:-2], y.shape[:-2])
    if x.shape[-1] != y.shape[-2]:
        raise _contraction_error((x.shape[-1],), (y.shape[-2],))
    if x.shape[:-2] != batch:
        x = broadcast_to(x, (*batch, *x.shape[-2:]))
    if y.shape[:-2] != batch:
        y = broadcast_to(y, (*batch, *y.shape[-2:]))
    nb = len(batch)
    dn = (((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb))))
    out = dot_general(x, y, dn, precision, _preferred(x, preferred_element_type))
    if x_vec and y_vec:
        return reshape(out, out.shape[:-2])
    if x_vec:
        return reshape(out, (*out.shape[:-2], out.shape[-1]))
    if y_vec:
        return reshape(out, out.shape[:-1])
    return out


def _broadcast_batch(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return broadcast_shapes(a, b)


def dot(
    a: ArrayLike,
    b: ArrayLike,
    *,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
    out_sharding: Any = None,
) -> Array:
    """NumPy's ``dot``: scalars multiply, 1-D/2-D are vector/matrix products, N-D contracts the
    last axis of ``a`` with the second-to-last of ``b``."""
    if out_sharding is not None:
        check_out_sharding("numpy.dot", out_sharding)
        return with_out_sharding(
            lambda: dot(a, b, precision=precision, preferred_element_type=preferred_element_type),
            out_sharding,
        )
    x, y = promote_args_keep_shapes("dot", a, b)
    pref = _preferred(x, preferred_element_type)
    if x.ndim == 0 or y.ndim == 0:
        out = multiply(x, y)
        if pref is not None:
            out = _convert(out, pref, False)
        return out
    yc = 0 if y.ndim == 1 else y.ndim - 2
    if x.shape[-1] != y.shape[yc]:
        raise _contraction_error((x.shape[-1],), (y.shape[yc],))
    return dot_general(x, y, (((x.ndim - 1,), (yc,)), ((), ())), precision, pref)


def vdot(
    a: ArrayLike,
    b: ArrayLike,
    *,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """Flattened dot product, conjugating ``a``."""

    x, y = promote_args_keep_shapes("vdot", a, b)
    x = conjugate(reshape(x, (x.size,)))
    y = reshape(y, (y.size,))
    return dot(x, y, precision=precision, preferred_element_type=preferred_element_type)


def inner(
    a: ArrayLike,
    b: ArrayLike,
    *,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    x, y = promote_args_keep_shapes("inner", a, b)
    if x.ndim == 0 or y.ndim == 0:
        return dot(x, y, precision=precision, preferred_element_type=preferred_element_type)
    if x.shape[-1] != y.shape[-1]:
        raise _contraction_error((x.shape[-1],), (y.shape[-1],))
    return dot_general(
        x,
        y,
        (((x.ndim - 1,), (y.ndim - 1,)), ((), ())),
        precision,
        _preferred(x, preferred_element_type),
    )


def outer(a: ArrayLike, b: ArrayLike, out: None = None) -> Array:
    x, y = promote_args_keep_shapes("outer", a, b)
    return multiply(reshape(x, (x.size, 1)), reshape(y, (1, y.size)))


# -- tensordot, vector/matrix products, kron, cross ------------------------------------------------


def tensordot(
    a: ArrayLike,
    b: ArrayLike,
    axes: Any = 2,
    *,
    precision: Any = None,
    preferred_element_type: Any = None,
    out_sharding: Any = None,
) -> Array:
    """Sum of products over ``axes``: an int ``N`` contracts the last ``N`` axes of ``a`` with the
    first ``N`` of ``b``; a pair ``(axes_a, axes_b)`` names them."""
    if out_sharding is not None:
        check_out_sharding("numpy.tensordot", out_sharding)
        return with_out_sharding(
            lambda: tensordot(
                a, b, axes, precision=precision, preferred_element_type=preferred_element_type
            ),
            out_sharding,
        )
    x, y = promote_args_keep_shapes("tensordot", a, b)
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = int(axes)
        if n > min(x.ndim, y.ndim):  # JAX's class and text
            raise TypeError(
                f"Number of tensordot axes (axes {n}) exceeds input ranks ({x.shape} and {y.shape})"
            )
        n = max(n, 0)  # a negative count contracts nothing (JAX and NumPy: the outer product)
        ca, cb = tuple(range(x.ndim - n, x.ndim)), tuple(range(n))
    elif isinstance(axes, (list, tuple)) and len(axes) == 2:
        aa, bb = axes
        if not all(isinstance(v, (int, np.integer, list, tuple)) for v in (aa, bb)):
            raise TypeError(  # JAX's class and words
                "tensordot requires both axes lists to be either ints, tuples or lists, got "
                f"{aa} and {bb}"
            )
        ca = (int(aa),) if isinstance(aa, (int, np.integer)) else tuple(int(i) for i in aa)
        cb = (int(bb),) if isinstance(bb, (int, np.integer)) else tuple(int(i) for i in bb)
        if len(ca) != len(cb):
            raise TypeError(
                f"tensordot requires axes lists to have equal length, got {list(ca)} and "
                f"{list(cb)}."
            )
    else:
        raise TypeError(
            "tensordot axes argument must be an int, a pair of ints, or a pair of lists/tuples "
            f"of ints; got {axes!r}."
        )
    for axes_, nd in ((ca, x.ndim), (cb, y.ndim)):
        for a_ in axes_:  # JAX canonicalizes each axis first: its ValueError (AxisError is one)
            if not -nd <= a_ < nd:
                raise np.exceptions.AxisError(a_, nd)
    try:
        return dot_general(
            x, y, ((ca, cb), ((), ())), precision, _preferred(x, preferred_element_type)
        )
    except TypeError as e:
        raise TypeError(f"tensordot: {e}") from None


def _moveaxis_last(x: Array, axis: int, fun_name: str) -> Array:
    try:
        (ax,) = canonicalize_axes(fun_name, (axis,), x.ndim)
    except ValueError as e:  # JAX indexes the shape: an IndexError (AxisError is both)
        raise np.exceptions.AxisError(str(e)) from None
    if ax == x.ndim - 1:
        return x
    return transpose(x, (*[i for i in range(x.ndim) if i != ax], ax))


def vecdot(
    x1: ArrayLike,
    x2: ArrayLike,
    /,
    *,
    axis: int = -1,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Array:
    """``sum(conj(x1) * x2, axis)`` with the other dimensions broadcast (Array API)."""

    x, y = promote_args_keep_shapes("vecdot", x1, x2)
    axis = int_axis("vecdot", axis)  # JAX indexes the shapes with it: only an integer
    if x.ndim == 0 or y.ndim == 0:
        # JAX reads the contracted axis of each: an IndexError (NumPy's AxisError is both)
        raise np.exceptions.AxisError("vecdot: operands must have at least one dimension")
    x, y = _moveaxis_last(x, axis, "vecdot"), _moveaxis_last(y, axis, "vecdot")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(
            f"vecdot: axis {axis} has size {x.shape[-1]} in x1 but {y.shape[-1]} in x2"
        )
    batch = broadcast_shapes(x.shape[:-1], y.shape[:-1])
    x = broadcast_to(conjugate(x), (*batch, x.shape[-1]))
    y = broadcast_to(y, (*batch, y.shape[-1]))
    nb = len(batch)
    dn = (((nb,), (nb,)), (tuple(range(nb)), tuple(range(nb))))
    return dot_general(x, y, dn, precision, _preferred(x, preferred_element_type))


def matvec(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Matrix-vector products ``x1 @ x2`` over broadcast batch dimensions: ``(..., m, n)`` and
    ``(..., n)`` give ``(..., m)``."""
    x, y = promote_args_keep_shapes("matvec", x1, x2)
    if x.ndim < 2 or y.ndim < 1:
        raise ValueError(
            f"matvec: x1 must be at least 2-D and x2 at least 1-D, got shapes {x.shape} and "
            f"{y.shape}"
        )
    out = matmul(x, reshape(y, (*y.shape, 1)))
    return reshape(out, out.shape[:-1])


def vecmat(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Vector-matrix products ``conj(x1) @ x2`` over broadcast batch dimensions: ``(..., n)`` and
    ``(..., n, m)`` give ``(..., m)``."""

    x, y = promote_args_keep_shapes("vecmat", x1, x2)
    if x.ndim < 1 or y.ndim < 2:
        raise ValueError(
            f"vecmat: x1 must be at least 1-D and x2 at least 2-D, got shapes {x.shape} and "
            f"{y.shape}"
        )
    out = matmul(reshape(conjugate(x), (*x.shape[:-1], 1, x.shape[-1])), y)
    return reshape(out, (*out.shape[:-2], out.shape[-1]))


def kron(a: ArrayLike, b: ArrayLike) -> Array:
    """The Kronecker product: blocks ``a[i, j] * b`` (promoted together)."""

    x, y = promote_args_keep_shapes("kron", a, b)
    nd = max(x.ndim, y.ndim)
    x = reshape(x, (1,) * (nd - x.ndim) + tuple(x.shape))
    y = reshape(y, (1,) * (nd - y.ndim) + tuple(y.shape))
    xs = tuple(s for d in x.shape for s in (d, 1))
    ys = tuple(s for d in y.shape for s in (1, d))
    out = multiply(reshape(x, xs), reshape(y, ys))
    return reshape(out, tuple(p * q for p, q in zip(x.shape, y.shape)))


def cross(
    a: ArrayLike,
    b: ArrayLike,
    axisa: int = -1,
    axisb: int = -1,
    axisc: int = -1,
    axis: int | None = None,
) -> Array:
    """Cross products of 3-vectors (2-vectors have a zero z; two 2-vectors give the z component
    only) along ``axisa``/``axisb``, the result's vectors along ``axisc`` (``axis`` sets all)."""
    x, y = promote_args_keep_shapes("cross", a, b)
    x, y = _convert(x, x.dtype, False), _convert(y, y.dtype, False)  # JAX's result is strong
    if axis is not None:
        axisa = axisb = axisc = axis
    axisa, axisb, axisc = (moved_axis("cross", a_) for a_ in (axisa, axisb, axisc))
    x, y = _moveaxis_last(x, axisa, "cross"), _moveaxis_last(y, axisb, "cross")
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3 for cross product")
    try:
        batch = broadcast_shapes(x.shape[:-1], y.shape[:-1])
    except ValueError:  # JAX multiplies the components with lax.mul: its TypeError
        raise TypeError(
            f"cross: the vectors' other dimensions {x.shape[:-1]} and {y.shape[:-1]} do not "
            "broadcast together"
        ) from None

    def comp(v: Array, i: int) -> Array:
        v = broadcast_to(v, (*batch, v.shape[-1]))
        part = lax_structural.slice(v, (0,) * len(batch) + (i,), (*batch, i + 1))
        return reshape(part, batch)

    if x.shape[-1] == 2 and y.shape[-1] == 2:
        return lax.sub(lax.mul(comp(x, 0), comp(y, 1)), lax.mul(comp(x, 1), comp(y, 0)))
    xs = [comp(x, i) for i in range(x.shape[-1])]
    ys = [comp(y, i) for i in range(y.shape[-1])]
    x0, x1_, x2_ = xs[0], xs[1], xs[2] if len(xs) == 3 else None
    y0, y1_, y2_ = ys[0], ys[1], ys[2] if len(ys) == 3 else None

    def mul(p: Array | None, q: Array | None) -> Array | None:
        return None if p is None or q is None else lax.mul(p, q)

    def sub(p: Array | None, q: Array | None) -> Array:
        if q is None:
            return p if p is not None else lax.sub(x0, x0)  # both terms vanish: zeros
        return lax.neg(q) if p is None else lax.sub(p, q)

    cx = sub(mul(x1_, y2_), mul(x2_, y1_))
    cy = sub(mul(x2_, y0), mul(x0, y2_))
    cz = sub(mul(x0, y1_), mul(x1_, y0))
    out = lax_structural.concatenate([reshape(c, (*batch, 1)) for c in (cx, cy, cz)], len(batch))

    (axc,) = canonicalize_axes("cross", (axisc,), out.ndim)
    if axc != out.ndim - 1:
        perm = list(range(out.ndim - 1))
        perm.insert(axc, out.ndim - 1)
        out = transpose(out, tuple(perm))
    return out
