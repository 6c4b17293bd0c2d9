"""Ulp errors of the compiled float32 exp/tanh/logistic/erf/erfc (``backend/compiled_math.py``,
``backend/compiled_erf.py``) over every
float32 input, against the float64 result rounded to float32 and against NumPy's float32 loops;
and, with ``--jax FILE`` (written by ``--dump-jax`` under a Python with JAX), against
``jax.jit``'s results on every 61st bit pattern.

usage: python tools/check_compiled_math.py [--stride K] [--funcs exp,tanh] [--jax-dir DIR] [--fast]
       /tmp/jaxref/bin/python tools/check_compiled_math.py --dump-jax DIR [--stride 61]
Prints, per function, the largest distance in ulps and how many inputs sit at each distance
(docs/performance.md, "Transcendental functions in compiled kernels"). Single-threaded; all
2**32 inputs take a few minutes of CPU (for erf/erfc, whose reference is libm called per
element, ~2 hours: ``--fast`` takes SciPy's float64 function as the reference and libm's only
where the result is 2 ulp or more from it, ~5 minutes per function).
"""

from __future__ import annotations

import math
import os
import sys
from collections import Counter
from typing import Any

import numpy as np

#: ``erfc_e``: erfc as a kernel with its derivative computes it (``_erfcf_e``, from the exp of
#: ``-x²`` it shares), compared with the same references as ``erfc``.
FUNCS = ("exp", "tanh", "logistic", "erf", "erfc", "erfc_e", "log")
BLOCK = 1 << 24


def _ordered(y: np.ndarray) -> np.ndarray:
    """float32 values as integers in the order of the reals (ulp distance = difference)."""
    b = y.view(np.int32).astype(np.int64)
    return np.where(b < 0, -(b & 0x7FFFFFFF), b)


def ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance in float32 ulps; two NaNs are 0 apart, a NaN and a number 2**40."""
    d = np.abs(_ordered(a) - _ordered(b))
    na, nb = np.isnan(a), np.isnan(b)
    return np.where(na & nb, 0, np.where(na | nb, 1 << 40, d))


def reference(name: str, x: np.ndarray) -> np.ndarray:
    """The float64 function of the float32 input, rounded to float32; for logistic, the impl's
    float32 formula ``1 / (1 + exp(-x))`` with that exp (so, as the impl, 0 where ``exp(-x)``
    overflows)."""
    with np.errstate(all="ignore"):
        d = x.astype(np.float64)
        if name == "exp":
            return np.exp(d).astype(np.float32)
        if name == "log":
            return np.log(d).astype(np.float32)
        if name == "tanh":
            return np.tanh(d).astype(np.float32)
        if name in ("erf", "erfc", "erfc_e"):  # libm's float64 function, rounded
            f = np.frompyfunc(getattr(math, name[:4]), 1, 1)
            return np.asarray(f(d), np.float64).astype(np.float32)
        one = np.float32(1)
        return one / (one + np.exp(-d).astype(np.float32))


def numpy_f32(name: str, x: np.ndarray) -> np.ndarray:
    """The backend impl's float32 result (NumPy's loops; for erf, XLA's polynomial)."""
    if name in ("erf", "erfc", "erfc_e"):
        # Imported here: --dump-jax runs this file under a Python without trellax.
        from trellax._src.backend import numpy as backend

        return np.asarray(getattr(backend, name[:4])(x), np.float32)
    with np.errstate(all="ignore"):
        if name == "exp":
            return np.exp(x)
        if name == "log":
            return np.log(x)
        if name == "tanh":
            return np.tanh(x)
        one = np.float32(1)
        return one / (one + np.exp(-x))


def _inputs(start: int, stride: int) -> np.ndarray:
    bits = np.arange(start, min(start + BLOCK * stride, 1 << 32), stride, dtype=np.uint64)
    return bits.astype(np.uint32).view(np.float32)


def dump_jax(where: str, stride: int) -> None:
    # Imported here: this mode runs under a Python with JAX, which the checks do not need.
    import jax
    import jax.numpy as jnp

    fns = {
        "exp": jnp.exp,
        "tanh": jnp.tanh,
        "logistic": jax.nn.sigmoid,
        "erf": jax.lax.erf,
        "erfc": jax.lax.erfc,
        "erfc_e": jax.lax.erfc,
        "log": jnp.log,
    }
    os.makedirs(where, exist_ok=True)
    for name in FUNCS:
        f = jax.jit(fns[name])
        parts = [np.asarray(f(_inputs(s, stride))) for s in range(0, 1 << 32, BLOCK * stride)]
        np.save(os.path.join(where, f"{name}_{stride}.npy"), np.concatenate(parts))


def _fast_reference(name: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``reference`` for erf/erfc from SciPy's vectorized float64 function (``--fast``), with
    every input whose result is 2 ulp or more from it recomputed by libm's, as ``reference``
    does: the maxima are libm's; below 2 ulp, SciPy's rounded value (which may differ from
    libm's by one ulp where the float64 value is within ~1e-16 of a float32 rounding tie).
    For erfc, the inputs where the rounded value is a constant take it without a call:
    ``|x| < 2^-26`` gives 1 (``1 - 1.13 |x|`` is nearer 1 than the midpoint ``1 - 2^-25``),
    ``x > 10.06`` gives 0 (``erfc(10.06) < 2^-150``), ``x < -10.06`` gives 2."""
    import scipy.special  # here: the --fast mode needs SciPy, the default does not

    ref = np.empty_like(x)
    work = np.ones(x.shape, bool)
    if name != "erf":
        a = np.abs(x)
        work = (a >= F32_2M26) & (a <= 10.06)
        ref[~work] = np.where(a < F32_2M26, 1, np.where(x > 0, 0, 2))[~work]
        ref[np.isnan(x)] = np.nan
    with np.errstate(all="ignore"):
        got = getattr(scipy.special, name[:4])(x[work].astype(np.float64))
    ref[work] = got.astype(np.float32)
    far = ulps(y, ref) >= 2
    if far.any():
        ref[far] = reference(name, x[far])
    return ref


F32_2M26 = np.float32(2.0**-26)


def _count(d: np.ndarray) -> Counter[int]:
    hist = np.bincount(np.minimum(d, 99).astype(np.int64), minlength=100)
    return Counter({k: int(n) for k, n in enumerate(hist.tolist()) if n})


def main() -> None:
    args = sys.argv[1:]
    stride = int(args[args.index("--stride") + 1]) if "--stride" in args else 1
    if "--dump-jax" in args:
        dump_jax(args[args.index("--dump-jax") + 1], stride)
        return
    jax_dir = args[args.index("--jax-dir") + 1] if "--jax-dir" in args else None
    funcs = args[args.index("--funcs") + 1].split(",") if "--funcs" in args else list(FUNCS)
    fast = "--fast" in args  # erf/erfc only: SciPy's reference, no NumPy comparison
    from trellax._src.backend import compiled  # here: needs numba, which the module keeps lazy

    kernels: dict[str, Any] = {
        name: compiled.kernel(compiled.math_kernel_source(name)).load() for name in funcs
    }
    for name in funcs:
        vs_ref: Counter[int] = Counter()
        vs_np: Counter[int] = Counter()
        vs_jax: Counter[int] = Counter()
        worst = (-1, 0.0)
        jax_all = np.load(os.path.join(jax_dir, f"{name}_{stride}.npy")) if jax_dir else None
        offset = 0
        for start in range(0, 1 << 32, BLOCK * stride):
            x = _inputs(start, stride)
            y = np.empty_like(x)
            kernels[name](x.size, x, y)
            if fast and name.startswith("erf"):
                d = ulps(y, _fast_reference(name, x, y))
            else:
                d = ulps(y, reference(name, x))
                vs_np.update(_count(ulps(y, numpy_f32(name, x))))
            vs_ref.update(_count(d))
            i = int(d.argmax())
            if d[i] > worst[0]:
                worst = (int(d[i]), float(x[i]))
            if jax_all is not None:
                j = jax_all[offset : offset + x.size]
                vs_jax.update(_count(ulps(y, j)))
            offset += x.size
        for what, c in (("rounded float64", vs_ref), ("NumPy float32", vs_np), ("jax.jit", vs_jax)):
            if c:
                total = sum(c.values())
                hist = ", ".join(f"{d}: {n} ({n / total:.3%})" for d, n in sorted(c.items()))
                print(f"{name} vs {what}: max {max(c)} ulp over {total} inputs; {hist}")
        print(f"{name}: largest distance {worst[0]} ulp first at x = {worst[1]!r}", flush=True)


if __name__ == "__main__":
    main()
