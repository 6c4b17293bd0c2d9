"""JAX 0.10.2's complex products on CPU: ``a * b`` of complex64 and complex128 operands (a grid
of signed zeros, infinities, NaN, a subnormal, an extreme and ordinary parts: every pair of the
100 values; and 2,000 random pairs of magnitudes e**-5 to e**5), eagerly, and the same
products reached other ways: under ``jit`` and ``vmap``, ``jvp``'s tangent and ``vjp``'s
cotangent products, a Python or 0-d scalar factor (eagerly, a ``jit`` literal, a ``jit``
argument), a column broadcast over a matrix, gradients through products; ``integer_pow`` (exponents -7 to 13) and the
products of ``prod`` (rows of 17 and 1,000, a whole matrix), ``cumprod`` (rows of 100 and the grid's values, both directions) and ``dot`` of
size-1 contractions. The test rebuilds the
grid (``tests/complex_mul_cases.py``); random operands and all results are stored as bits
(zlib, base64). Writes ``tests/golden/complex_mul.json`` (``tests/test_complex_mul.py``).

    python tools/gen_golden_complex_mul.py       # needs jax==0.10.2
"""

from __future__ import annotations

import base64
import json
import pathlib
import sys
import zlib
from typing import Any

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from complex_mul_cases import PARTS, POWERS, SCALARS, grid  # noqa: E402

OUT = ROOT / "tests" / "golden" / "complex_mul.json"


def _bits(a: Any) -> str:
    return base64.b64encode(zlib.compress(np.asarray(a).tobytes(), 9)).decode()


def _paths(a: Any, b: Any) -> dict[str, str]:
    """The product ``a * b`` reached every way the test checks."""
    out: dict[str, Any] = {}
    ja, jb = jnp.asarray(a), jnp.asarray(b)
    out["product"] = ja * jb
    out["jit"] = jax.jit(lambda x, y: x * y)(ja, jb)
    out["vmap"] = jax.vmap(lambda x, y: x * y)(ja, jb)
    t = jb[::-1]
    primal, tangent = jax.jvp(lambda x: x * jb, (ja,), (t,))
    out["jvp_primal"], out["jvp_tangent"] = primal, tangent
    _, pullback = jax.vjp(lambda x: x * jb, ja)
    (out["vjp"],) = pullback(t)
    out["jit_vjp"] = jax.jit(lambda x, c: jax.vjp(lambda z: z * jb, x)[1](c)[0])(ja, t)
    return {k: _bits(v) for k, v in out.items()}


def _factors(x: Any, dt: Any) -> dict[str, str]:
    """``x`` times each scalar of ``SCALARS`` every way it can be written."""
    out: dict[str, Any] = {}
    jx = jnp.asarray(x)
    for k, s in enumerate(SCALARS[dt.name]):
        c = dt.type(s)
        out[f"scalar{k}_right"] = jx * complex(c)
        out[f"scalar{k}_left"] = complex(c) * jx
        out[f"scalar{k}_array"] = jx * jnp.asarray(c)
        out[f"scalar{k}_jit_literal"] = jax.jit(lambda x, c=complex(c): x * c)(jx)
        closed = jnp.asarray(c)
        out[f"scalar{k}_jit_closed"] = jax.jit(lambda x, c=closed: c * x)(jx)
        out[f"scalar{k}_jit_argument"] = jax.jit(lambda x, s: x * s)(jx, jnp.asarray(c))
    return {k: _bits(v) for k, v in out.items()}


def _grads(z: Any, w: Any) -> dict[str, str]:
    """Gradients through products of ``z`` with ``w`` and itself."""

    def real_part(v: Any) -> Any:
        return jnp.sum(jnp.real(v * w * v))

    out = {
        "grad_real": jax.grad(real_part)(z),
        "jit_grad_real": jax.jit(jax.grad(real_part))(z),
        "grad_abs2": jax.grad(lambda v: jnp.sum(jnp.abs(v * w) ** 2))(z),
        "grad_holomorphic": jax.grad(lambda v: jnp.sum(v * w * v), holomorphic=True)(z),
    }
    return {k: _bits(v) for k, v in out.items()}


def main() -> None:
    rng = np.random.default_rng(20261129)
    more = np.random.default_rng(20261130)
    out: dict[str, Any] = {"jax_version": jax.__version__}
    for name in PARTS:
        dt = np.dtype(name)
        r = rng.standard_normal((4, 2000)) * np.exp(rng.uniform(-5, 5, (4, 2000)))
        ra, rb = (r[0] + 1j * r[1]).astype(dt), (r[2] + 1j * r[3]).astype(dt)
        ga, gb = grid(name)
        a, b = np.concatenate([ga, ra]), np.concatenate([gb, rb])
        rec: dict[str, Any] = {"a": _bits(ra), "b": _bits(rb), **_paths(a, b)}
        # scalar factors of the grid's 100 values and 500 random ones
        rec.update(_factors(np.concatenate([np.unique(ga), ra[:500]]), dt))
        rec.update(_grads(jnp.asarray(ra), jnp.asarray(rb)))  # (random pairs: no infinities)
        m, col = jnp.asarray(ra.reshape(20, 100)), jnp.asarray(rb[:20, None])
        rec["column_right"] = _bits(m * col)
        rec["column_left"] = _bits(jax.jit(lambda x, y: y * x)(m, col))
        # integer powers of 500 values of magnitude e**-1 to e (no power overflows), then the
        # grid's 100; products over rows of 17 (a left-to-right fold); a size-1 contraction
        mag = np.exp(more.uniform(-1, 1, 500))
        unit = (ra[:500] / np.abs(ra[:500]) * mag).astype(dt)
        p = jnp.asarray(np.concatenate([unit, np.unique(ga)]))
        rec["pow_base"] = _bits(p)
        for n in POWERS:
            rec[f"integer_pow{n}"] = _bits(lax.integer_pow(p, n))
            rec[f"jit_power{n}"] = _bits(jax.jit(lambda x, n=n: jnp.power(x, n))(p))
        rec["prod_rows"] = _bits(jnp.prod(p[:510].reshape(30, 17), axis=1))
        rec["prod_long"] = _bits(jnp.prod(jnp.tile(p[:500], 6).reshape(3, 1000), axis=1))
        rec["prod_all"] = _bits(jnp.prod(p[:500].reshape(20, 25)))
        for rev in (False, True):
            rows = lax.cumprod(p[:500].reshape(5, 100), axis=1, reverse=rev)
            rec[f"cumprod{int(rev)}"] = _bits(rows)
            rec[f"cumprod_grid{int(rev)}"] = _bits(lax.cumprod(p[500:], reverse=rev))
        rec["dot_outer"] = _bits(jnp.dot(p[:60, None], p[60:100][None, :]))
        out[name] = rec
    OUT.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
