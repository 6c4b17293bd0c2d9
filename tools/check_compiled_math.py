"""Ulp errors of the compiled float32 exp/tanh/logistic/erf/erfc (``backend/compiled_math.py``,
``backend/compiled_erf.py``) over every
float32 input, against the float64 result rounded to float32 and against NumPy's float32 loops;
and, with ``--jax FILE`` (written by ``--dump-jax`` under a Python with JAX), against
``jax.jit``'s results on every 61st bit pattern.

usage: python tools/check_compiled_math.py [--stride K] [--funcs exp,tanh] [--jax-dir DIR]
       /tmp/jaxref/bin/python tools/check_compiled_math.py --dump-jax DIR [--stride 61]
Prints, per function, the largest distance in ulps and how many inputs sit at each distance
(docs/performance.md, "Transcendental functions in compiled kernels"). Single-threaded; all
2**32 inputs take a few minutes of CPU.
"""

from __future__ import annotations

import math
import os
import sys
from collections import Counter
from typing import Any

import numpy as np

FUNCS = ("exp", "tanh", "logistic", "erf", "erfc", "log")
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
        if name in ("erf", "erfc"):  # libm's float64 function, rounded
            f = np.frompyfunc(getattr(math, name), 1, 1)
            return np.asarray(f(d), np.float64).astype(np.float32)
        one = np.float32(1)
        return one / (one + np.exp(-d).astype(np.float32))


def numpy_f32(name: str, x: np.ndarray) -> np.ndarray:
    """The backend impl's float32 result (NumPy's loops; for erf, XLA's polynomial)."""
    if name in ("erf", "erfc"):
        # Imported here: --dump-jax runs this file under a Python without trellax.
        from trellax._src.backend import numpy as backend

        return np.asarray(getattr(backend, name)(x), np.float32)
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
        "log": jnp.log,
    }
    os.makedirs(where, exist_ok=True)
    for name in FUNCS:
        f = jax.jit(fns[name])
        parts = [np.asarray(f(_inputs(s, stride))) for s in range(0, 1 << 32, BLOCK * stride)]
        np.save(os.path.join(where, f"{name}_{stride}.npy"), np.concatenate(parts))


def main() -> None:
    args = sys.argv[1:]
    stride = int(args[args.index("--stride") + 1]) if "--stride" in args else 1
    if "--dump-jax" in args:
        dump_jax(args[args.index("--dump-jax") + 1], stride)
        return
    jax_dir = args[args.index("--jax-dir") + 1] if "--jax-dir" in args else None
    funcs = args[args.index("--funcs") + 1].split(",") if "--funcs" in args else list(FUNCS)
    from trellax._src.backend import compiled  # here: needs numba, which the module keeps lazy

    kernels: dict[str, Any] = {
        name: compiled.kernel(compiled.math_kernel_source(name)).load() for name in funcs
    }
    for name in funcs:
        vs_ref: Counter[int] = Counter()
        vs_np: Counter[int] = Counter()
        vs_jax: Counter[int] = Counter()
        jax_all = np.load(os.path.join(jax_dir, f"{name}_{stride}.npy")) if jax_dir else None
        offset = 0
        for start in range(0, 1 << 32, BLOCK * stride):
            x = _inputs(start, stride)
            y = np.empty_like(x)
            kernels[name](x.size, x, y)
            vs_ref.update(Counter(np.minimum(ulps(y, reference(name, x)), 99).tolist()))
            vs_np.update(Counter(np.minimum(ulps(y, numpy_f32(name, x)), 99).tolist()))
            if jax_all is not None:
                j = jax_all[offset : offset + x.size]
                vs_jax.update(Counter(np.minimum(ulps(y, j), 99).tolist()))
            offset += x.size
        for what, c in (("rounded float64", vs_ref), ("NumPy float32", vs_np), ("jax.jit", vs_jax)):
            if c:
                total = sum(c.values())
                hist = ", ".join(f"{d}: {n} ({n / total:.3%})" for d, n in sorted(c.items()))
                print(f"{name} vs {what}: max {max(c)} ulp over {total} inputs; {hist}")


if __name__ == "__main__":
    main()
