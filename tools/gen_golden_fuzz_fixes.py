"""Golden data for the fixes of the differential fuzzer's open programs (``tests/test_fuzz_fixes.py``).

JAX 0.10.2 (64-bit mode on, so complex128 and float64 run too) on grids of special values and a
few programs: complex ``square`` (its own primitive), complex ``sign`` of signed zeros,
complex ``arctan2`` with non-finite parts, ``cumprod``'s derivatives with infinities and zeros,
``var``'s tangent where twice the centred value overflows, the error class of programs where two
checks apply, and complex ``power`` of random operands (with mpmath's value of each, 40 digits,
to measure accuracy). Writes ``tests/golden/fuzz_fixes.json``; arrays as ``{dtype, shape, hex}``.

    python tools/gen_golden_fuzz_fixes.py          # jax==0.10.2, mpmath
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings
from collections.abc import Callable
from typing import Any

import jax
import mpmath
import numpy as np

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))
from fuzz_fixes_cases import error_programs  # noqa: E402  (shared with the test)

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "fuzz_fixes.json"
INF, NAN = float("inf"), float("nan")


def enc(x: Any) -> dict[str, Any]:
    a = np.asarray(x)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "hex": a.tobytes().hex()}


def outcome(f: Callable[[], Any]) -> Any:
    try:
        out = f()
    except Exception as e:
        return {"error": type(e).__name__}
    if isinstance(out, tuple):
        return [enc(o) for o in out]
    return enc(out)


def grid(parts: list[float], dtype: str) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array([complex(a, b) for a in parts for b in parts], dtype=dtype)


def main() -> None:
    rng = np.random.default_rng(14)
    gold: dict[str, Any] = {}
    sq_parts = [0.0, -0.0, 1.0, -1.0, 2.5, 1e300, -1e300, 1.6e308, -7.5e307, 3e38, INF, -INF, NAN]
    for dt in ("complex64", "complex128"):
        with np.errstate(all="ignore"):
            z = np.concatenate(
                [
                    grid(sq_parts, dt),
                    (rng.normal(size=400) * 10 + 1j * rng.normal(size=400) * 10).astype(dt),
                ]
            )
        gold[f"square/{dt}"] = {"x": enc(z), "y": outcome(lambda z=z: jnp.square(z))}
        gold[f"square_jvp/{dt}"] = {
            "x": enc(z[:169]),
            "y": outcome(lambda z=z: jax.jvp(jnp.square, (z[:169],), (z[:169],))),
        }
        zs = grid([0.0, -0.0, 1.0, -2.0, INF, NAN], dt)
        gold[f"sign/{dt}"] = {"x": enc(zs), "y": outcome(lambda zs=zs: jnp.sign(zs))}
        at = [0.0, -0.0, 1.0, -2.0, 1e30, INF, -INF, NAN]
        g = grid(at, dt)
        yy, xx = np.repeat(g, len(g)), np.tile(g, len(g))
        gold[f"arctan2/{dt}"] = {
            "y": enc(yy),
            "x": enc(xx),
            "out": outcome(lambda yy=yy, xx=xx: jnp.arctan2(yy, xx)),
        }
    # cumprod: the derivatives (JVP, grad, value_and_grad) with infinities, zeros and NaN
    cases = {
        "fuzz3970": np.array([[100.0, 1.419, 3.267, INF], [19.86, -0.5, 3.4e38, 7.0]], np.float32),
        "zeros": np.array([2.0, -0.0, 3.0, 0.0, -1.5, 4.0, INF], np.float64),
        "infs": np.array([-INF, 2.0, 0.5, -0.0, INF, 3.0, NAN, 1.0, 2.0], np.float32),
        "plain": rng.uniform(0.5, 1.5, (3, 7)).astype(np.float32),
    }
    for name, x in cases.items():
        for axis in range(x.ndim):
            for rev in (False, True):

                def f(v: Any, axis: int = axis, rev: bool = rev) -> Any:
                    return jax.lax.cumprod(jnp.arcsinh(v), axis=axis, reverse=rev)

                key = f"cumprod/{name}/{axis}/{int(rev)}"
                gold[key] = {
                    "x": enc(x),
                    "jvp": outcome(lambda f=f, x=x: jax.jvp(f, (x,), (jnp.ones_like(x),))),
                    "grad": outcome(lambda f=f, x=x: jax.grad(lambda v: f(v).sum())(x)),
                    "vg": outcome(lambda f=f, x=x: jax.value_and_grad(lambda v: f(v).sum())(x)),
                }
    # var: the tangent 0 * (2 * centred) is NaN where twice the centred value overflows
    v = np.array([[9984.0, 0.5], [3.0e38, 100.0], [11.9375, -2.5]], np.float32)
    gold["var_jvp"] = {
        "x": enc(v),
        "y": outcome(lambda: jax.jvp(lambda a: jnp.var(a, axis=0), (v,), (jnp.ones_like(v),))),
    }
    # error classes where two checks apply (JAX's order)
    errs = error_programs(jax, jnp)
    gold["errors"] = {k: outcome(f) for k, f in errs.items()}
    # complex power on a grid of special parts (every pair of values)
    pw = [0.0, -0.0, 1.0, -2.0, 0.5, INF, -INF, NAN]
    for dt in ("complex64", "complex128"):
        g = grid(pw, dt)
        xx, yy = np.repeat(g, len(g)), np.tile(g, len(g))
        gold[f"power_special/{dt}"] = {
            "x": enc(xx),
            "y": enc(yy),
            "out": outcome(lambda xx=xx, yy=yy: jnp.power(xx, yy)),
        }
    # complex power: random finite operands, JAX's value and mpmath's
    mpmath.mp.dps = 40
    n = 1500
    for dt in ("complex64", "complex128"):
        x = (rng.normal(size=n) * np.exp(rng.uniform(-6, 6, n))).astype(np.float64)
        x = (x + 1j * rng.normal(size=n) * np.exp(rng.uniform(-6, 6, n))).astype(dt)
        y = (rng.normal(size=n) * 3 + 1j * rng.normal(size=n) * 3).astype(dt)
        true = [
            complex(mpmath.power(mpmath.mpc(complex(a)), mpmath.mpc(complex(b))))
            for a, b in zip(x, y, strict=True)
        ]
        gold[f"power/{dt}"] = {
            "x": enc(x),
            "y": enc(y),
            "jax": outcome(lambda x=x, y=y: jnp.power(x, y)),
            "mpmath": enc(np.array(true, np.complex128)),
        }
    OUT.write_text(json.dumps(gold, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{len(gold)} entries -> {OUT}")


if __name__ == "__main__":
    main()
