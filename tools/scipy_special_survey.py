"""Compares trellax's own special-function kernels with ``scipy.special``: bits and CPU time.

For every hand-written kernel with a SciPy counterpart, on a sample of operands (NaN, ±inf, ±0,
subnormals, poles, huge and tiny magnitudes, and a dense random part), in float32 and float64:
how many results differ in bits (NaN equals NaN), and the best-of-rounds thread CPU time of
each side (interleaved). ``special_samples`` is shared with ``tests/test_special_scipy.py``.

Run: ``.venv/bin/python tools/scipy_special_survey.py [--size N] [--rounds R] [names...]``
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.backend import scipy_special, special_fast

F = Callable[..., Any]
assert special_fast.TABLE is scipy_special.TABLE  # (importing special_fast fills the table)


def special_samples(dtype: Any, nargs: int, size: int, seed: int = 0) -> list[np.ndarray]:
    """``nargs`` operand arrays of ``size`` elements (each row a mix of edge and random values,
    the rows of different operands paired so that every edge meets every kind of value)."""
    rng = np.random.default_rng(seed)
    fi = np.finfo(dtype)
    edges = [np.nan, np.inf, -np.inf, 0.0, -0.0, float(fi.smallest_subnormal),
             -float(fi.smallest_subnormal), float(fi.tiny), float(fi.max), -float(fi.max),
             1.0, -1.0, 0.5, 2.0, -2.0, -3.0, 10.0, 1e-3, 1 - float(fi.eps), 1 + float(fi.eps),
             float(fi.eps)]  # fmt: skip
    lo = np.log10(float(fi.smallest_subnormal))
    hi = np.log10(float(fi.max))

    def one() -> np.ndarray:
        n = size - len(edges)
        mags = 10 ** rng.uniform(lo, hi, n // 4)
        parts = [
            np.asarray(edges),
            mags * rng.choice([-1, 1], mags.size),
            rng.uniform(-60, 60, n // 4),
            rng.uniform(0, 1, n // 4),
            np.round(rng.uniform(-30, 30, n - 3 * (n // 4)), int(rng.integers(0, 2))),
        ]
        with np.errstate(over="ignore"):
            return np.concatenate(parts).astype(dtype)

    ops = [one() for _ in range(nargs)]
    return [rng.permutation(v) if i else v for i, v in enumerate(ops)]


#: Operands that are orders (``expn``'s ``n``, ``polygamma``'s ``m``, ``bessel_j``'s ``n``): the
#: own kernels loop up to the order, so the sample keeps orders below 50 (and no infinite ones).
ORDERS = {"expn": 0, "polygamma": 0, "bessel_j": 0}


def operands(name: str, dtype: Any, nargs: int, size: int, seed: int = 0) -> list[np.ndarray]:
    """The sample of :func:`special_samples` with the orders of :data:`ORDERS` kept small."""
    args = special_samples(dtype, nargs, size, seed)
    if name in ORDERS:
        n = args[ORDERS[name]]
        big = np.isfinite(n) & (np.abs(n) > 50)
        with np.errstate(invalid="ignore"):
            small = np.where(big, np.fmod(n, 50), n)
        # an infinite order crashes the own expn (OverflowError in its series' loop bound)
        args[ORDERS[name]] = np.where(np.isinf(small), np.nan, small).astype(dtype)
    return args


def interior(name: str, dtype: Any, nargs: int, size: int, seed: int = 1) -> list[np.ndarray]:
    """Ordinary operands (finite, inside the domain) for timing: ``[0.1, 10)``, orders
    ``0..9``, betainc's ``x`` in ``(0, 1)``."""
    rng = np.random.default_rng(seed)
    args = [rng.uniform(0.1, 10, size).astype(dtype) for _ in range(nargs)]
    if name in ORDERS:
        args[ORDERS[name]] = np.floor(args[ORDERS[name]]).astype(dtype)
    if name == "betainc":
        args[2] = rng.uniform(0, 1, size).astype(dtype)
    return args


def bits_differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two results differ in bits (NaNs of any payload equal)."""
    a, b = np.asarray(a), np.asarray(b)
    same = (a.view(f"u{a.itemsize}") == b.view(f"u{b.itemsize}")) | (np.isnan(a) & np.isnan(b))
    out: np.ndarray = ~same
    return out


def cpu_time(fn: F, args: list[np.ndarray]) -> float:
    start = time.thread_time()
    fn(*args)
    return time.thread_time() - start


def compare(name: str, dtype: Any, size: int, rounds: int) -> dict[str, Any]:
    entry = scipy_special.TABLE[name]
    args = operands(name, dtype, entry.nargs, size)
    with np.errstate(all="ignore"):
        own = entry.own(*args)
        fast = scipy_special.fast_value(name, *args)
    differ = bits_differ(own, fast)
    samples = [tuple(float(v[i]) for v in args) for i in np.flatnonzero(differ)[:4]]
    own_t, fast_t = [], []
    args = interior(name, dtype, entry.nargs, size)
    with np.errstate(all="ignore"):
        for _ in range(rounds):
            own_t.append(cpu_time(entry.own, args))
            fast_t.append(cpu_time(lambda *a: scipy_special.fast_value(name, *a), args))
    return {
        "name": name,
        "dtype": np.dtype(dtype).name,
        "differ": int(differ.sum()),
        "size": size,
        "own_ms": 1e3 * min(own_t),
        "scipy_ms": 1e3 * min(fast_t),
        "examples": samples,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("names", nargs="*")
    opts = parser.parse_args(argv)
    for name in opts.names or list(scipy_special.TABLE):
        for dtype in (np.float32, np.float64):
            r = compare(name, dtype, opts.size, opts.rounds)
            print(
                f"{r['name']:16s} {r['dtype']:8s} differ {r['differ']:6d}/{r['size']}  "
                f"own {r['own_ms']:9.2f} ms  scipy {r['scipy_ms']:8.2f} ms  "
                f"x{r['own_ms'] / max(r['scipy_ms'], 1e-9):7.1f}  {r['examples'][:2]}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
