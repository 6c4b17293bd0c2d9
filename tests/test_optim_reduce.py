"""XLA's CPU summation order and its fused multiply-add, as ``trellax.optim`` reproduces them
(``trellax/_src/optim/reduce_order.py``, ``trellax/_src/optim/fma.py``), against JAX 0.10.2's
bits (``tests/golden/optim_reduce.json``, from ``tools/gen_golden_optim_reduce.py``: eager
``jnp.sum``, ``jnp.mean`` and ``jnp.linalg.norm`` of small float32/float16/bfloat16 arrays).

Inside the domain the module docstring states, ``ordered_sum`` and ``ordered_mean`` give JAX's
bits for every draw, eagerly and under ``trellax.jit``; ``jnp.sum``'s pairwise order does not
(the test counts its misses too, so it shows what the order changes). ``ordered_norm`` gives
jitted JAX's norm (squares fused into the sum with FMAs) for the float32 shapes of NORM_EXACT.
"""

from __future__ import annotations

import ast
import json
import pathlib
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax._src.optim.fma import fma
from trellax._src.optim.reduce_order import (
    LIBRARY_KERNEL_SIZE,
    SEQUENTIAL_LIMIT,
    ordered_mean,
    ordered_norm,
    ordered_sum,
)

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim_reduce.json").read_text())
DTYPES: dict[str, Any] = {
    "float32": np.float32,
    "float16": np.float16,
    "bfloat16": ml_dtypes.bfloat16,
}
#: reductions outside the measured domain (XLA's order not reproduced; jnp.sum's used)
OUTSIDE = {
    "float32|(2, 4, 8)|None",  # three reduced axes
    "float32|(40, 100)|None",  # two reduced axes, one over 32
    "float32|(64, 64)|None",  # 4,096 elements: XLA's vectorized library kernel
    "float32|(20, 30)|None",  # row-major, over SEQUENTIAL_LIMIT (XLA's order, not reproduced)
    "float32|(32, 32, 3)|(0, 1)",  # the same
}
#: float32 shapes whose jnp.linalg.norm ordered_norm reproduces for every draw (measured)
NORM_EXACT = {
    "(5,)", "(8,)", "(32,)", "(2, 8)", "(4, 6)", "(4, 8)", "(16, 8)", "(32, 8)", "(3, 8)",
    "(6, 4)", "(6, 8)", "(8, 1)", "(12, 8)", "(2, 16)", "(4, 16)",
    # the accumulator blocks whose lanes XLA fuses with FMAs, or whose lane count is not
    # min(rows, 8, 32 // cols): missed before reduce_order.lane_count was measured
    "(2, 3)", "(4, 4)", "(8, 3)", "(8, 4)", "(8, 8)", "(16, 2)", "(16, 4)",
    # vectors past 32 elements: rounded squares summed in windows of 32 (were NumPy's order)
    "(33,)", "(100,)", "(1000,)", "(4095,)",
    # over 32 rows: windows of 32 rows, the squares rounded (was NumPy's order)
    "(64, 8)",
}  # fmt: skip


def _case(key: str) -> tuple[np.ndarray, Any, dict[str, str], Any]:
    dname, shape, axis = key.split("|")
    case = GOLDEN["cases"][key]
    dt = DTYPES[dname]
    n = int(case["draws"])
    x = np.frombuffer(bytes.fromhex(case["x"]), dt).reshape((n, *ast.literal_eval(shape)))
    return x, ast.literal_eval(axis), case, dt


def _want(case: dict[str, str], name: str, dt: Any, n: int) -> np.ndarray:
    return np.frombuffer(bytes.fromhex(case[name]), dt).reshape(n, -1)


def _same(got: Any, want: np.ndarray) -> bool:
    a = np.asarray(got).reshape(-1)
    return a.tobytes() == want.tobytes()


INSIDE = sorted(k for k in GOLDEN["cases"] if k not in OUTSIDE)


@pytest.mark.parametrize("key", INSIDE)
def test_sum_and_mean_are_xlas(key: str) -> None:
    x, axis, case, dt = _case(key)
    sums, means = _want(case, "sum", dt, len(x)), _want(case, "mean", dt, len(x))
    jitted = trellax.jit(lambda v: (ordered_sum(v, axis), ordered_mean(v, axis)))
    for i in range(len(x)):
        v = jnp.asarray(x[i])
        assert _same(ordered_sum(v, axis), sums[i]), f"draw {i}: sum"
        assert _same(ordered_mean(v, axis), means[i]), f"draw {i}: mean"
        s, m = jitted(v)
        assert _same(s, sums[i]) and _same(m, means[i]), f"draw {i}: jitted"


def test_numpys_order_misses_xlas() -> None:
    """NumPy's pairwise order differs from XLA's in many float32 draws of the domain: the order
    is what the module changes (measured: 876 of 1,270). ``jnp.sum`` itself takes XLA's order
    for one reduced axis and for blocks of at most 32 x 32 (``backend/sum_order.py``): it
    misses 90 (row windows, batched blocks, which this module adds)."""
    missed = jnp_missed = total = 0
    for key in INSIDE:
        if not key.startswith("float32"):
            continue
        x, axis, case, dt = _case(key)
        sums = _want(case, "sum", dt, len(x))
        axes = axis if axis is None or isinstance(axis, int) else tuple(axis)
        for i in range(len(x)):
            total += 1
            missed += not _same(np.add.reduce(x[i], axis=axes, dtype=np.float32), sums[i])
            jnp_missed += not _same(jnp.sum(jnp.asarray(x[i]), axis=axis), sums[i])
    assert (missed, jnp_missed, total) == (876, 90, 1270)


def test_outside_the_domain_is_jnp_sum() -> None:
    for key in sorted(OUTSIDE):
        x, axis, _, _ = _case(key)
        v = jnp.asarray(x[0])
        assert _same(ordered_sum(v, axis), np.asarray(jnp.sum(v, axis=axis)))
    assert LIBRARY_KERNEL_SIZE == 4096 and SEQUENTIAL_LIMIT == 256


@pytest.mark.parametrize("shape", sorted(NORM_EXACT))
def test_norm_is_jitted_jaxs(shape: str) -> None:
    key = f"float32|{shape}|None"
    x, _, case, dt = _case(key)
    norms = _want(case, "norm", dt, len(x))
    for i in range(len(x)):
        v = jnp.asarray(x[i])
        assert _same(ordered_norm(v), norms[i]), f"draw {i}"
        assert _same(ordered_norm(v, keepdims=True), norms[i])


def test_norm_is_closer_than_linalg_norm() -> None:
    """Over the float32 shapes of NORM_EXACT jnp.linalg.norm (unfused) misses JAX's norm in
    many draws (measured: 106 of 993; 296 with NumPy's pairwise sums, before ``jnp.sum`` took
    XLA's order: the rest are the squares XLA fuses into the sum)."""
    missed = total = 0
    for shape in sorted(NORM_EXACT):
        x, _, case, dt = _case(f"float32|{shape}|None")
        norms = _want(case, "norm", dt, len(x))
        for i in range(len(x)):
            total += 1
            missed += not _same(jnp.linalg.norm(jnp.asarray(x[i])), norms[i])
    assert (missed, total) == (106, 993)


def _exact_fma(a: np.float32, b: np.float32, c: np.float32) -> np.float32:
    """a * b + c rounded once to float32, with rationals (ties to even)."""
    v = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    lo = np.float32(float(v))  # within an ulp; fix to the nearest float32
    cands = [np.nextafter(lo, np.float32(-np.inf)), lo, np.nextafter(lo, np.float32(np.inf))]
    dists = [abs(Fraction(float(f)) - v) for f in cands]
    best = min(dists)
    near = [f for f, d in zip(cands, dists) if d == best]
    if len(near) == 1:
        return near[0]
    return next(f for f in near if int(np.float32(f).view(np.uint32)) % 2 == 0)


def test_fma_rounds_once() -> None:
    """Random float32 triples and the double-rounding trap (the float64 sum lands on a float32
    midpoint the exact value is past): ``fma`` is the exactly rounded ``a * b + c``."""
    rng = np.random.default_rng(27)
    a = (rng.standard_normal(2000) * np.exp(rng.standard_normal(2000) * 4)).astype(np.float32)
    b = (rng.standard_normal(2000) * np.exp(rng.standard_normal(2000) * 4)).astype(np.float32)
    c = -(a.astype(np.float64) * b * (1 + rng.standard_normal(2000) * 1e-6)).astype(np.float32)
    trap = (np.float32(1 + 2**-23), np.float32(1 - 2**-24), np.float32(2**-47 + 2**-70))
    a, b, c = np.append(a, trap[0]), np.append(b, trap[1]), np.append(c, trap[2])
    got = np.asarray(fma(jnp.asarray(a), jnp.asarray(b), jnp.asarray(c)))
    want = np.array([_exact_fma(*t) for t in zip(a, b, c)], np.float32)
    assert got.tobytes() == want.tobytes()
    naive = (a.astype(np.float64) * b + c).astype(np.float32)
    assert naive[-1] != want[-1]  # the float64 detour rounds the trap twice
    assert np.asarray(trellax.jit(fma)(trap[0], trap[1], trap[2])) == want[-1]


def test_fma_derivatives() -> None:
    d = trellax.grad(lambda a, b, c: fma(a, b, c), argnums=(0, 1, 2))(2.0, 3.0, 5.0)
    assert [float(v) for v in d] == [3.0, 2.0, 1.0]


HALF_NORMS = sorted(
    k for k, c in GOLDEN["cases"].items() if "norm" in c and not k.startswith("float32")
)


@pytest.mark.parametrize("key", HALF_NORMS)
def test_half_precision_norm_is_jitted_jaxs(key: str) -> None:
    """float16 and bfloat16 norms: squares in float32 (float16's rounded), the ordered sum
    rounded to the dtype, its root (jnp.linalg.norm misses bfloat16's in 18 of 160 draws)."""
    x, _, case, dt = _case(key)
    norms = _want(case, "norm", dt, len(x))
    for i in range(len(x)):
        v = jnp.asarray(x[i])
        assert _same(ordered_norm(v), norms[i]), f"draw {i}"
        assert _same(trellax.jit(ordered_norm)(v), norms[i]), f"draw {i}: jitted"
