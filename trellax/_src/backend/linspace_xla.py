"""``linspace`` samples as JAX 0.10.2's compiled program computes them, for the computation dtypes
where trellax's float64-rounded-once samples differ from JAX's by more than a last bit.

JAX computes ``start * (1 - t) + stop * t`` with ``t = iota / div`` in the computation dtype,
and XLA's compiler rewrites it before it runs (read off the optimized HLO and the machine code):
the division becomes a product by the constant ``c = 1 / div``, ``stop * (iota * c)`` becomes
``iota * (stop * c)``, and then

* float16: every operation is rounded to float16 (``c`` too, and ``iota`` itself: 2049 is 2048);
  ``inf * 0`` at the first sample makes it NaN when ``stop * c`` overflows (``linspace(0, 1e5,
  3)`` in float16 is ``[nan, inf, inf]``, as in JAX);
* bfloat16: computed in float32 with ``c`` the float32 reciprocal of ``div`` rounded to
  bfloat16 (257 is 256) and no rewrite of the product, each operation's result rounded to
  bfloat16;
* float32 (the computation dtype of integer results up to 32 bits): ``start * (1 - iota * c)``
  rounded, then the product ``iota * (stop * c)`` added in one fused multiply-add;

with ``stop`` itself as the last sample when ``endpoint``. ``tests/test_xla16_values.py``
compares the results with JAX's bits.

float32 and float64 results (:func:`samples_f32_f64`): the optimized program computes sample ``i``
from ``om = 1 - i * c`` and ``sc = stop * c`` as ``start * om + i * sc``, and LLVM contracts it
into fused multiply-adds that depend on how XLA:CPU lays out the loop (read off the optimized IR
on a 2-core x86-64 machine with AVX2, then measured on every size up to 10**6 tried):

* ``div <= 33``: the loop is unrolled with constant ``i``: ``om`` rounded, ``fma(i, sc, start *
  om)``, except at ``i = 1`` where ``1 * sc`` is folded away and ``fma(start, om, sc)`` remains;
* up to a vector loop threshold (``div < 352`` float32, ``< 176`` float64): all constant ``i``,
  ``fma(i, sc, start * om)``;
* then a vector loop over the first multiple of 32 (float32) or 16 (float64) samples with ``om``
  itself fused (``fma(-i, c, 1)``), the rest unrolled as above;
* from 4,443 float32 or 65,534 float64 output elements the loop is split over two threads and
  every ``om`` is fused; an even ``div`` keeps the vector form ``fma(i, sc, start * om)``, an odd
  one runs a scalar loop computing ``fma(start, om, i * sc)``.

Those are 0-d ends (eagerly, and under ``jit`` with traced ends; with constant ends LLVM folds
the unrolled samples unfused, ``numpy/creation_traced.py``). Ends with more elements keep
``stop * t`` unreassociated (unless ``stop`` is 0-d), ``om`` rounded and one contraction
(:func:`array_form`). ``logspace``'s loop also calls the C library's ``pow`` per sample and
``geomspace``'s takes the ``log`` of the ends first, so LLVM lays them out at other sizes
(``_LOOPS``, ``_ENDPOINT_LOOPS``: with ``endpoint`` the kernel holds the concatenation and folds a
leading block of samples). The sizes were fitted on this 2-core host; a host with more threads
splits large loops otherwise. ``tests/test_linspace_xla.py`` compares with JAX's bits.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend import fp_errors, libm_f32, xla_f64, xla_log
from trellax._src.backend.fma import fma, fma_f32

_BF16 = np.dtype(ml_dtypes.bfloat16)


def handles(cd: np.dtype[Any], result_kind: str) -> bool:
    """Whether :func:`samples` computes linspace in the computation dtype ``cd`` for a result of
    kind ``result_kind`` (float32 only for integer results: float32 and float64 results stay
    float64 samples rounded once, docs/semantics.md)."""
    if cd == np.float32:
        return result_kind in ("i", "u")
    return cd in (np.dtype(np.float16), _BF16)


def samples(lo: Any, hi: Any, num: int, endpoint: bool, axis: int, cd: Any) -> Any:
    """JAX's ``linspace(lo, hi, num)`` samples in the computation dtype ``cd`` (see
    :func:`handles`), ``num >= 2``, along ``axis`` of the ends' broadcast shape."""
    shape = np.broadcast_shapes(np.shape(lo), np.shape(hi))
    ax = axis + len(shape) + 1 if axis < 0 else axis
    f32 = np.float32
    with fp_errors.quiet():
        start, stop = (np.expand_dims(np.broadcast_to(v, shape).astype(cd), ax) for v in (lo, hi))
        div = num - 1 if endpoint else num
        iota = np.arange(div).reshape((div,) + (1,) * (len(shape) - ax))
        if cd == _BF16:

            def r(v: Any) -> Any:
                return v.astype(_BF16).astype(f32)

            c = f32(1) / r(np.asarray(div, f32))
            i = r(iota.astype(f32))
            t = r(i * c)
            out = r(r(start.astype(f32) * r(1 - t)) + r(stop.astype(f32) * t)).astype(_BF16)
        elif cd == np.float16:
            h = np.float16
            c16 = h(1) / h(div)
            i16 = iota.astype(h)
            out = start * (h(1) - i16 * c16) + i16 * (stop * c16)
        else:
            c32 = f32(1) / f32(div)
            i32 = iota.astype(f32)
            out = fma_f32(*np.broadcast_arrays(i32, stop * c32, start * (f32(1) - i32 * c32)))
        if endpoint:
            out = np.concatenate([np.broadcast_to(out, out.shape), stop.astype(out.dtype)], ax)
    return out


#: Per program and float size: (largest ``div`` unrolled with ``i = 1`` folded, first ``div``
#: with a vector loop, its chunk, first output size split over two threads). ``logspace``'s
#: loop also calls ``pow`` per sample, so LLVM lays it out otherwise.
_LOOPS = {
    ("linspace", 4): (33, 352, 32, 4443),
    ("linspace", 8): (33, 176, 16, 65534),
    ("logspace", 4): (29, 56, 8, 4252),
    ("logspace", 8): (29, 48, 4, 65533),
}


#: ``geomspace`` runs ``logspace``'s loop with ``log``s of the ends before it and a product by
#: the sign after it, so its vector loops start at 80 (float32) and 60 (float64) intervals
#: ``logspace`` inside a user's ``jit`` with a Python ``base``: the base is a constant of the
#: loop, which LLVM then lays out as ``linspace``'s, with or without ``endpoint``
_LOOPS["logspace_jit", 4] = (29, 80, 8, 4252)
_LOOPS["logspace_jit", 8] = (29, 60, 4, 65533)
_LOOPS["geomspace", 4] = (29, 80, 8, 4252)
_LOOPS["geomspace", 8] = (29, 60, 4, 65533)
#: ``logspace``/``geomspace`` with ``endpoint``: the kernel computes the concatenation too, and
#: its loop checks its buffers for overlap; the vector path folds the first ``div // 4 * 4``
#: samples (``// 8 * 8`` from a third number of intervals) and leaves the rest to a runtime loop:
#: (largest unrolled ``div``, first ``div`` with a runtime vector loop, that third number).
_ENDPOINT_LOOPS = {
    ("logspace", 4): (24, 52, 1 << 62),
    ("logspace", 8): (27, 48, 1 << 62),
    ("geomspace", 4): (16, 80, 60),
    ("geomspace", 8): (16, 60, 1 << 62),
}

#: ``logspace`` with constant ends: the largest ``div`` whose exponents LLVM folds with every
#: operation rounded (measured; above it some samples contract, not followed).
_LOGSPACE_FOLDED = {4: 70, 8: 59}


def constants_fold(isize: int, div: int, program: str = "linspace") -> bool:
    """Whether with constant ends (``jit`` of constants) every sample is folded at compile time
    as ``start * (1 - i * c) + i * (stop * c)``, each operation rounded."""
    if program != "linspace":
        return div <= _LOGSPACE_FOLDED[isize]
    return div < _LOOPS[program, isize][1]


def splits(isize: int, out_size: int, program: str = "linspace") -> bool:
    """Whether XLA:CPU splits ``program``'s loop over two threads (then every ``i`` is a runtime
    value, even with constant ends)."""
    return out_size >= _LOOPS[program, isize][3]


def forms(
    isize: int, div: int, out_size: int, program: str = "linspace", endpoint: bool = False
) -> tuple[tuple[int, int], bool | None]:
    """The samples ``[lo, hi)`` whose ``om`` is fused (the others' rounded twice), and whether
    every sample contracts ``start * om`` rather than ``i * sc`` (None: only sample 1 does), for
    ``program`` ``"linspace"`` or ``"logspace"`` (module docstring)."""
    unrolled, vec_from, chunk, _ = _LOOPS[program, isize]
    if splits(isize, out_size, program):
        return (0, div), div % 2 == 1
    if endpoint and (program, isize) in _ENDPOINT_LOOPS:
        unrolled, vec_from, wide_from = _ENDPOINT_LOOPS[program, isize]
        if div <= unrolled:
            return (0, 0), None
        chunk = 8 if div >= wide_from else 4
        return (div // chunk * chunk if div < vec_from else 0, div), False
    if div <= unrolled:
        return (0, 0), None
    if div < vec_from:
        return (0, 0), False
    return (0, div // chunk * chunk), False


def samples_f32_f64(
    lo: Any,
    hi: Any,
    num: int,
    endpoint: bool,
    axis: int,
    cd: Any,
    program: str = "linspace",
    stop_c: Any = None,
) -> tuple[Any, Any]:
    """JAX's eager (and traced-end ``jit``) float32/float64 ``linspace(lo, hi, num)`` samples,
    ``num >= 2``, along ``axis`` of the ends' broadcast shape, as XLA:CPU computes them in
    ``program``, and the step ``(stop - start) * c`` (the division by the constant ``div`` is
    that product too). ``stop_c``: ``stop * c`` as the program computes it, for 0-d ends
    (``geomspace`` folds another constant into ``c``)."""
    dt = np.dtype(cd)
    shape = np.broadcast_shapes(np.shape(lo), np.shape(hi))
    ax = axis + len(shape) + 1 if axis < 0 else axis
    div = num - 1 if endpoint else num
    fused, first = forms(dt.itemsize, div, num * math.prod(shape), program, endpoint)
    lo_in, hi_in = lo, hi
    with fp_errors.quiet():
        lo, hi = (np.broadcast_to(v, shape).astype(dt) for v in (lo, hi))
        c = dt.type(1) / dt.type(div)
        step = (hi - lo) * c
        rows = (div,) + (1,) * len(shape)
        iota = np.arange(div, dtype=dt).reshape(rows)
        out = np.empty((num, *shape), dt)
        if math.prod(shape) > 1:
            form = array_form(np.ndim(lo_in), np.ndim(hi_in), ax == len(shape))
            out[:div] = _array_samples(lo, hi, iota, c, form)
            if endpoint:
                out[div] = hi
            return np.moveaxis(out, 0, ax), step
        om = _one_minus(dt, div, *fused).reshape(rows)
        sc = hi * c if stop_c is None else stop_c
        # sample 0: i * sc is an exact zero (or NaN) and om is 1, so no contraction changes it
        out[0] = lo * om[0] + iota[0] * sc
        if first is True:
            out[1:div] = fma(*np.broadcast_arrays(lo, om[1:], iota[1:] * sc))
        else:
            out[1:div] = fma(*np.broadcast_arrays(iota[1:], sc, lo * om[1:]))
            if first is None and div > 1:  # the unrolled loop's i = 1: 1 * sc folded
                out[1] = fma(*np.broadcast_arrays(lo, om[1], sc))
        if endpoint:
            out[div] = hi
    return np.moveaxis(out, 0, ax), step


def array_form(lo_ndim: int, hi_ndim: int, axis_last: bool) -> str:
    """The contraction of the samples between ends with more than one element (``t = i * c``,
    ``om = 1 - t`` rounded; XLA reassociates ``stop * t`` into ``i * (stop * c)`` only for a
    0-d ``stop``): ``"i_sc"`` ``fma(start, om, i * (stop * c))`` for a 0-d ``stop`` (measured
    with the sample axis last), ``"stop_t"`` ``fma(stop, t, start * om)`` for a 0-d ``start``
    or the sample axis last, else ``"start_om"`` ``fma(start, om, stop * t)``."""
    if hi_ndim == 0:
        return "i_sc"
    return "stop_t" if lo_ndim == 0 or axis_last else "start_om"


def _array_samples(lo: Any, hi: Any, iota: Any, c: Any, form: str) -> Any:
    """The first ``div`` samples between ends with more than one element (:func:`array_form`)."""
    t = iota * c
    om = t.dtype.type(1) - t
    if form == "i_sc":
        return fma(*np.broadcast_arrays(lo, om, iota * (hi * c)))
    if form == "stop_t":
        return fma(*np.broadcast_arrays(hi, t, lo * om))
    return fma(*np.broadcast_arrays(lo, om, hi * t))


@functools.lru_cache(maxsize=4)
def _one_minus(dt: np.dtype[Any], div: int, lo: int, hi: int) -> Any:
    """``1 - i * c`` for ``i`` in ``range(div)``, rounded twice, except for ``lo <= i < hi``:
    fused (``fma(-i, c, 1)``); read-only."""
    iota = np.arange(div, dtype=dt)
    c = dt.type(1) / dt.type(div)
    with fp_errors.quiet():
        om = dt.type(1) - iota * c
        lo = max(lo, 1)  # i = 0: exactly 1 either way
        if hi > lo:
            n = hi - lo
            om[lo:hi] = fma(-iota[lo:hi], np.full(n, c, dt), np.ones(n, dt))
    om.flags.writeable = False
    return om


def power(base: Any, exponents: Any, axis: int) -> Any:
    """``base ** exponents`` as XLA:CPU computes it in ``logspace``: the C library's ``powf`` or
    ``pow`` per sample, ``base`` (of the ends' broadcast shape, or less) converted to the
    exponents' dtype first and spread along the sample ``axis``."""
    dt = exponents.dtype
    ax = axis + exponents.ndim if axis < 0 else axis
    bounds = exponents.shape[:ax] + exponents.shape[ax + 1 :]
    with fp_errors.quiet():
        b = np.expand_dims(np.broadcast_to(np.asarray(base).astype(dt), bounds), ax)
    if dt == np.float32:
        return libm_f32.pow_f32(b, exponents, flush=False)
    return xla_f64.pow_f64(b, exponents)


def geomspace(lo: Any, hi: Any, num: int, endpoint: bool, cd: Any) -> Any:
    """JAX's float32/float64 ``geomspace`` of 0-d ends of one sign, nonzero and finite, ``num >=
    2``, as XLA:CPU computes its program: ``log`` of each end over its sign (XLA's float32
    ``log``, the C library's float64 one) times the constant ``log10(e)``, ``stop``'s times the
    folded constant ``log10(e) * c``, the exponents from ``logspace``'s loop, then ``sign * 10 **
    exponent`` (the C library's ``pow``); the last exponent is ``log(stop) * log10(e)``."""
    dt = np.dtype(cd)
    div = num - 1 if endpoint else num
    with fp_errors.quiet():
        sign = np.sign(np.asarray(lo, dt))
        ends = np.stack([np.asarray(lo, dt), np.asarray(hi, dt)]) / sign
        logs = xla_log.log_f32(ends) if dt == np.float32 else xla_f64.log_f64(ends)
        inv = dt.type(math.log10(math.e))
        k = inv * (dt.type(1) / dt.type(div))
        e, _ = samples_f32_f64(
            logs[0] * inv, logs[1] * inv, num, endpoint, 0, dt, "geomspace", logs[1] * k
        )
        return sign * power(np.asarray(10, dt), e, 0)
