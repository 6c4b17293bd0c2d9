"""Products: ``matmul``, ``dot``, ``vdot``, ``inner``, ``outer`` (promote with the lattice, no
accumulation widening: ``dot(int8, int8)`` is int8, as in JAX)."""

from __future__ import annotations

from typing import Any

from trellax._src import dtypes
from trellax._src.basearray import Array
from trellax._src.lax.reductions import dot_general
from trellax._src.lax.structural import broadcast_to, reshape
from trellax._src.numpy.util import promote_args

ArrayLike = Any


def _preferred(a: Array, preferred_element_type: Any) -> Any:
    if preferred_element_type is None:
        return None
    d = dtypes.check_user_dtype(preferred_element_type, "matmul")
    return d


def matmul(
    a: ArrayLike, b: ArrayLike, *, precision: Any = None, preferred_element_type: Any = None
) -> Array:
    """Matrix product with NumPy's broadcasting of batch dimensions."""
    x, y = promote_args("matmul", a, b)
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(
            f"matmul: operands must have at least one dimension, got shapes {x.shape} and {y.shape}"
        )
    x_vec, y_vec = x.ndim == 1, y.ndim == 1
    if x_vec:
        x = reshape(x, (1, x.shape[0]))
    if y_vec:
        y = reshape(y, (y.shape[0], 1))
    if x.shape[-1] != y.shape[-2]:
        raise ValueError(
            f"matmul: contracting dimensions differ: {x.shape} @ {y.shape} "
            f"({x.shape[-1]} != {y.shape[-2]})"
        )
    batch = _broadcast_batch(x.shape[:-2], y.shape[:-2])
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
    from trellax._src.core import broadcast_shapes

    return broadcast_shapes(a, b)


def dot(
    a: ArrayLike, b: ArrayLike, *, precision: Any = None, preferred_element_type: Any = None
) -> Array:
    """NumPy's ``dot``: scalars multiply, 1-D/2-D are vector/matrix products, N-D contracts the
    last axis of ``a`` with the second-to-last of ``b``."""
    x, y = promote_args("dot", a, b)
    pref = _preferred(x, preferred_element_type)
    if x.ndim == 0 or y.ndim == 0:
        from trellax._src.numpy.ufuncs import multiply

        out = multiply(x, y)
        if pref is not None:
            from trellax._src.lax.structural import _convert

            out = _convert(out, pref, False)
        return out
    yc = 0 if y.ndim == 1 else y.ndim - 2
    if x.shape[-1] != y.shape[yc]:
        raise ValueError(f"dot: shapes {x.shape} and {y.shape} not aligned")
    return dot_general(x, y, (((x.ndim - 1,), (yc,)), ((), ())), precision, pref)


def vdot(
    a: ArrayLike, b: ArrayLike, *, precision: Any = None, preferred_element_type: Any = None
) -> Array:
    """Flattened dot product, conjugating ``a``."""
    from trellax._src.numpy.ufuncs import conjugate

    x, y = promote_args("vdot", a, b)
    x = conjugate(reshape(x, (x.size,)))
    y = reshape(y, (y.size,))
    return dot(x, y, precision=precision, preferred_element_type=preferred_element_type)


def inner(
    a: ArrayLike, b: ArrayLike, *, precision: Any = None, preferred_element_type: Any = None
) -> Array:
    x, y = promote_args("inner", a, b)
    if x.ndim == 0 or y.ndim == 0:
        return dot(x, y, precision=precision, preferred_element_type=preferred_element_type)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"inner: last dimensions differ: {x.shape} and {y.shape}")
    return dot_general(
        x,
        y,
        (((x.ndim - 1,), (y.ndim - 1,)), ((), ())),
        precision,
        _preferred(x, preferred_element_type),
    )


def outer(a: ArrayLike, b: ArrayLike, out: None = None) -> Array:
    from trellax._src.numpy.ufuncs import multiply

    x, y = promote_args("outer", a, b)
    return multiply(reshape(x, (x.size, 1)), reshape(y, (1, y.size)))
