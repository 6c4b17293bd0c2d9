"""The complex product as XLA:CPU computes it: two fused multiply-adds.

XLA's compiled ``a * b`` of complex operands is, part by part,

* real: ``fma(a.re, b.re, -(a.im * b.im))``,
* imaginary: ``fma(a.im, b.re, a.re * b.im)``,

each inner product rounded to the dtype first and each fused multiply-add rounded once
(``tests/test_complex_mul.py``, golden from JAX 0.10.2). NumPy's complex loop rounds in
another order (on an AVX-512 host it contracts ``fma(a.re, b.im, a.im * b.re)``): about a
fifth of finite products differ in the last bits, and where an inner product overflows even the
sign of an infinity can (``(3e38 - 2.25j) * (3e38 + 3e38j)`` has imaginary part ``-inf`` in
NumPy's order, ``+inf`` in XLA's and in exact arithmetic).

Both parts are one call of :func:`~trellax._src.backend.fma.fma_f32` (complex64: the float32
products are exact in float64, one rounding and a double-rounding correction on the rare
midpoints) or :func:`~trellax._src.backend.fma.fma_f64` (complex128: error-free transformations),
on the interleaved ``(re, im)`` float view of the operands: ``a`` as it is, ``b.re`` spread over
both parts, and the addends ``(-(a.im * b.im), a.re * b.im)``. Zeros, infinities, NaN, overflow
and subnormal results are those functions' IEEE ``fusedMultiplyAdd`` values; XLA:CPU itself
flushes subnormal operands and results to zero, which trellax does not (docs/semantics.md).

With the ``compiled`` extra (Numba), once the NumPy path has run a while, the product is one
compiled loop of the same two fused multiply-adds (:mod:`.fma_compiled`): the same bits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend import fma, fma_compiled, fp_errors

_COMPLEX = (np.dtype(np.complex64), np.dtype(np.complex128))


def xla_complex_mul(x: np.ndarray, y: np.ndarray) -> Any:
    """``x * y`` of complex64 or complex128 operands of one dtype (broadcast together), rounded
    as XLA:CPU's compiled complex product."""
    x, y = np.asarray(x), np.asarray(y)
    shape = x.shape
    if shape != y.shape:
        shape = np.broadcast_shapes(shape, y.shape)
        x, y = np.broadcast_to(x, shape), np.broadcast_to(y, shape)
    x = np.ascontiguousarray(x).reshape(-1)
    y = np.ascontiguousarray(y).reshape(-1)
    if x.dtype == y.dtype and x.dtype in _PARTS:
        fast = fma_compiled.complex_mul(x, y)
        if fast is not None:
            return fast.reshape(shape)
    fma_compiled.note(x.size)
    token = fp_errors.enter()
    try:
        if x.size <= _SMALL:
            return _rows(x, y).reshape(shape)
        # in chunks that stay in cache (a dozen passes over each)
        out = np.empty(x.size, x.dtype)
        for lo in range(0, x.size, _CHUNK):
            hi = lo + _CHUNK
            _planes(x[lo:hi], y[lo:hi], out[lo:hi])
    finally:
        fp_errors.leave(token)
    return out.reshape(shape)


#: Complex elements per chunk of :func:`xla_complex_mul` (two float parts each).
_CHUNK = fma.CHUNK // 2
#: Up to this many elements the parts are taken as ``(n, 2)`` rows (fewer NumPy calls); beyond
#: as two planes (NumPy's loops run along ``n``, not along rows of two).
_SMALL = 1024


def _planes(x: np.ndarray, y: np.ndarray, out: np.ndarray) -> None:
    """The product of contiguous 1-D ``x`` and ``y`` into ``out``, on ``(2, n)`` float views."""
    part = _PARTS[x.dtype]
    xp = x.view(part).reshape(-1, 2).T  # real parts, imaginary parts
    yp = y.view(part).reshape(-1, 2).T
    addend = xp[::-1] * yp[1]  # (a.im * b.im, a.re * b.im), rounded
    np.negative(addend[0], out=addend[0])
    both: np.ndarray
    if part == np.float32:
        both = fma.fma_f32_chunk(xp, yp[0], addend)
    else:
        br = yp[0]
        both = fma.fma_f64_chunk(xp.reshape(-1), np.concatenate((br, br)), addend.reshape(-1))
    np.copyto(out.view(part).reshape(-1, 2).T, both.reshape(2, -1))


def _rows(x: np.ndarray, y: np.ndarray) -> Any:
    """The product of contiguous 1-D ``x`` and ``y``, on their ``(n, 2)`` float views."""
    part = _PARTS[x.dtype]
    xv = x.view(part).reshape(-1, 2)  # (re, im) rows
    yv = y.view(part).reshape(-1, 2)
    addend = xv[:, ::-1] * yv[:, 1:]  # (a.im * b.im, a.re * b.im), rounded
    np.negative(addend[:, 0], out=addend[:, 0])  # (a NaN's sign flips too, as XLA's fneg)
    both: np.ndarray
    if part == np.float32:
        both = fma.fma_f32_chunk(xv, yv[:, :1], addend)
    else:
        spread = np.repeat(yv[:, 0], 2)  # b.re for both parts
        both = fma.fma_f64_chunk(xv.reshape(-1), spread, addend.reshape(-1))
    return both.view(x.dtype).reshape(-1)


#: The float dtype of each complex dtype's parts.
_PARTS: dict[np.dtype[Any], np.dtype[Any]] = {
    np.dtype(np.complex64): np.dtype(np.float32),
    np.dtype(np.complex128): np.dtype(np.float64),
}


def integer_power(x: np.ndarray, n: int, three: bool) -> Any:
    """``x ** n`` (``n >= 1``) for complex64 or complex128 ``x`` by JAX's repeated squaring:
    for each set bit of ``n``, lowest first, the accumulator times the current square, with
    XLA's complex product in the operand order XLA:CPU's fused loop rounds: ``acc * base``,
    except ``base * acc`` for ``three`` (``x ** 3``, not ``x ** -3``). JAX 0.10.2's bits for
    every exponent from -20 to 20, 31 to 33 and 63 (tests/test_complex_mul.py)."""
    acc: Any = None
    base = x
    while n:
        if n & 1:
            if acc is None:
                acc = base
            else:
                acc = xla_complex_mul(base, acc) if three else xla_complex_mul(acc, base)
        n >>= 1
        if n:
            base = xla_complex_mul(base, base)
    return acc


class _Product:
    """XLA's complex product with the parts of a ufunc's interface ``backend/scan_order.py``
    calls: ``identity``, a call (with ``out=``) and ``accumulate`` (a left-to-right fold)."""

    identity = 1
    complex_product = True

    def __call__(self, a: Any, b: Any, out: np.ndarray | None = None) -> Any:
        r = xla_complex_mul(a, b)
        if out is None:
            return r
        out[...] = r
        return out

    def accumulate(self, x: np.ndarray, axis: int = -1, out: np.ndarray | None = None) -> Any:
        moved = np.moveaxis(x, axis, 0)
        res = np.empty_like(moved)
        if moved.shape[0]:
            res[0] = moved[0]
        for k in range(1, moved.shape[0]):
            res[k] = xla_complex_mul(res[k - 1], moved[k])
        result = np.moveaxis(res, 0, axis)
        if out is None:
            return result
        out[...] = result
        return out


#: The complex product for cumulative products (``scan_order``).
PRODUCT = _Product()


def product(dtype: np.dtype[Any]) -> Any:
    """The product a cumulative product of ``dtype`` folds with: :data:`PRODUCT` for complex64
    and complex128, NumPy's ``multiply`` otherwise."""
    return PRODUCT if dtype in _COMPLEX else np.multiply


#: XLA's window along one reduced axis (and the longest axes of a row-major multi-axis fold).
WINDOW = 32


def folds(shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether :func:`fold` reproduces XLA's order for a product over ``axes`` of ``shape``:
    one axis of any length, or several of at most :data:`WINDOW` elements each."""
    return len(axes) == 1 or (len(axes) > 1 and all(shape[a] <= WINDOW for a in axes))


def fold(x: np.ndarray, axes: tuple[int, ...]) -> Any:
    """The product of complex64 or complex128 ``x`` over ``axes`` (:func:`folds`) in XLA:CPU's
    order, with XLA's complex product: over one axis, left to right from the identity
    (``(1 * x[0]) * x[1] ...``) when it has at most 32 elements, else padded with ones to a
    multiple of 32 (half the padding in front), each window of 32 folded so and the window
    products reduced the same way; over several axes, one fold in row-major order. JAX 0.10.2's
    bits for single axes of 2 to 9,000 elements and a (20, 30) array reduced whole."""
    x = np.asarray(x)
    rest = [d for d in range(x.ndim) if d not in axes]
    moved = np.transpose(x, (*rest, *axes))
    kept = moved.shape[: len(rest)]
    flat = moved.reshape((*kept, int(np.prod(moved.shape[len(rest) :], dtype=np.int64))))
    if len(axes) == 1:
        while flat.shape[-1] > WINDOW:
            n = flat.shape[-1]
            pad = -n % WINDOW
            padded = np.ones((*flat.shape[:-1], n + pad), x.dtype)
            padded[..., pad // 2 : pad // 2 + n] = flat
            flat = _left_fold(padded.reshape((*flat.shape[:-1], -1, WINDOW)))
    return _left_fold(flat)


def _left_fold(x: np.ndarray) -> Any:
    """The last axis folded left to right from the identity with XLA's complex product."""
    acc = np.ones(x.shape[:-1], x.dtype)
    for k in range(x.shape[-1]):
        acc = xla_complex_mul(acc, x[..., k])
    return acc


def mul(x: np.ndarray, y: np.ndarray) -> Any:
    """The ``mul`` primitive's kernel: XLA's complex product for complex64 and complex128
    (:func:`xla_complex_mul`, the operands in XLA's order: :func:`invariant_first`), NumPy's
    ``multiply`` for every other dtype (:data:`mul.real_ufunc`, which the eager fast paths,
    compiled loops and fused regions call directly for those dtypes)."""
    if x.dtype in _COMPLEX:
        if x.shape != y.shape and invariant_first(y.shape, x.shape):
            x, y = y, x
        return xla_complex_mul(x, y)
    return np.multiply(x, y)


#: the NumPy ufunc that is ``mul`` for real dtypes
mul.real_ufunc = np.multiply  # type: ignore[attr-defined]


def invariant_first(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether XLA's complex product of operands of shapes ``a`` and ``b`` (broadcast together,
    NumPy's rules) takes the ``a`` operand first: when ``a`` is constant along the innermost
    dimension of the result that has more than one element and ``b`` is not (a 0-d operand, a
    column against a matrix). XLA's loop then holds that operand's value across the inner loop,
    and its fused multiply-adds take the operands in that order, wherever it stood in the
    program (JAX 0.10.2, eagerly and under ``jit``: ``c * x`` and ``x * c`` both round as
    ``c * x``). Elsewhere the program's order stands."""
    shape = np.broadcast_shapes(a, b)
    k = len(shape) - 1
    while k >= 0 and shape[k] == 1:
        k -= 1
    if k < 0:
        return False
    back = len(shape) - k  # the dimension's place from the end
    return _still(a, back) and not _still(b, back)


def _still(s: tuple[int, ...], back: int) -> bool:
    return len(s) < back or s[-back] == 1
