"""Golden data: which elementwise special functions of JAX accept complex operands, and JAX's
complex ``gamma`` and ``loggamma`` (values, special points, derivatives) with mpmath's values.

Run with the reference venv (jax 0.10.2, mpmath): ``/tmp/jaxref/bin/python
tools/gen_golden_complex_special.py``. Writes tests/golden/complex_special.json:

* ``survey``: for each function of ``jax.scipy.special`` / ``jax.lax`` in UNARY and MULTI and
  each complex dtype, ``["ok", result dtype]`` or ``[error class, message]`` for a complex
  operand in every position in turn (the others real: ``operands`` lists them; the complex
  operand is ``[1.5+0.5j, -2.3+0.1j]``).
* ``values``: for complex64 and complex128, the grid ``points`` (random samples of the plane,
  points near the real axis and its poles, the zeros at 1 and 2, large arguments, signed zeros,
  infinities and NaN), JAX's ``gamma`` and ``loggamma`` there, and (complex128) mpmath's at 40
  digits (``null`` where mpmath's value is not finite or the point is a pole).
* ``derivs``: JAX's ``jvp`` of both (tangent ``1 + 2j``), ``grad(..., holomorphic=True)`` of
  ``gamma`` and its second derivative, what ``grad`` of ``loggamma`` raises, the third
  derivative of ``loggamma`` by nested ``jvp``, and mpmath's ``ψ^(n)`` (n = 1 .. 4) there.
"""

from __future__ import annotations

import json
import math
import pathlib
import warnings
from typing import Any

import jax
import jax.lax as lax
import jax.numpy as jnp
import jax.scipy.special as jss
import mpmath
import numpy as np

jax.config.update("jax_enable_x64", True)
mpmath.mp.dps = 40

#: one-operand functions (name, module)
UNARY = [
    (n, "special")
    for n in (
        "gamma",
        "loggamma",
        "gammaln",
        "digamma",
        "erf",
        "erfc",
        "erfinv",
        "erfcx",
        "expit",
        "logit",
        "i0",
        "i0e",
        "i1",
        "i1e",
        "log_ndtr",
        "ndtr",
        "ndtri",
        "spence",
        "exp1",
        "expi",
        "dawsn",
        "entr",
        "fresnel",
        "sici",
        "wofz",
        "gammasgn",
        "factorial",
    )
] + [
    (n, "lax") for n in ("lgamma", "digamma", "erf", "erfc", "erf_inv", "bessel_i0e", "bessel_i1e")
]

#: several operands: (name, module, real operands in order)
MULTI: list[tuple[str, str, list[Any]]] = [
    ("xlogy", "special", [1.5, 2.5]),
    ("xlog1py", "special", [1.5, 2.5]),
    ("owens_t", "special", [1.5, 0.5]),
    ("hyp1f1", "special", [0.5, 1.5, 0.7]),
    ("hyp2f1", "special", [0.5, 1.5, 2.5, 0.3]),
    ("zeta", "special", [2.5, 1.5]),
    ("polygamma", "special", [1, 1.5]),
    ("gammainc", "special", [1.5, 0.5]),
    ("gammaincc", "special", [1.5, 0.5]),
    ("betainc", "special", [1.5, 2.5, 0.3]),
    ("expn", "special", [2, 1.5]),
    ("kl_div", "special", [1.5, 2.5]),
    ("rel_entr", "special", [1.5, 2.5]),
    ("poch", "special", [1.5, 2.5]),
    ("beta", "special", [1.5, 2.5]),
    ("betaln", "special", [1.5, 2.5]),
    ("igamma", "lax", [1.5, 0.5]),
    ("igammac", "lax", [1.5, 0.5]),
    ("igamma_grad_a", "lax", [1.5, 0.5]),
    ("random_gamma_grad", "lax", [1.5, 0.5]),
    ("polygamma", "lax", [1.5, 0.5]),
    ("zeta", "lax", [2.5, 1.5]),
]


def enc(v: Any) -> list[Any]:
    flat = np.asarray(v).ravel()
    if flat.dtype.kind == "c":
        return [[repr(float(z.real)), repr(float(z.imag))] for z in flat]
    return [repr(float(z)) for z in flat]


def outcome(fn: Any, args: list[Any]) -> list[str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(*args)
        if isinstance(out, tuple):
            out = out[0]
        return ["ok", str(out.dtype)]
    except Exception as e:
        return [type(e).__name__, str(e)]


def survey() -> dict[str, Any]:
    mods = {"special": jss, "lax": lax}
    rec: dict[str, Any] = {}
    for dt in ("complex64", "complex128"):
        z = np.array([1.5 + 0.5j, -2.3 + 0.1j], dt)
        real_dt = "float32" if dt == "complex64" else "float64"
        for name, mod in UNARY:
            rec[f"{mod}.{name}/{dt}/0"] = outcome(getattr(mods[mod], name), [z])
        for name, mod, reals in MULTI:
            for pos in range(len(reals)):
                args: list[Any] = [np.full(2, r, real_dt) for r in reals]
                args[pos] = z
                rec[f"{mod}.{name}/{dt}/{pos}"] = outcome(getattr(mods[mod], name), args)
    return rec


def points() -> np.ndarray:
    rng = np.random.default_rng(20261128)
    r = 10 ** rng.uniform(-3, 2.3, 400)
    plane = r * np.exp(1j * rng.uniform(-np.pi, np.pi, 400))
    near_axis = rng.uniform(-40, 40, 150) + 1j * rng.uniform(-1e-3, 1e-3, 150)
    near_poles = np.array([-k + d for k in range(0, 6) for d in (1e-6, -1e-6, 1e-6j, 0.3j)])
    zeros = np.array([1 + 1e-8, 1 - 1e-8j, 2 + 1e-9j, 2 - 1e-7, 1.5 + 0.3j, 1.46 + 0.01j])
    large = np.array(
        [
            170.5 + 0j,
            171.7 + 0j,
            200 + 300j,
            -200 + 300j,
            1e5 + 1e5j,
            -171.5 + 0j,
            -1e4 + 0.5j,
            3e3 - 2e3j,
            0.5 + 500j,
        ]
    )
    special = [
        0j,
        complex(-0.0, 0.0),
        complex(0.0, -0.0),
        -1 + 0j,
        complex(-1, -0.0),
        -2.5 + 0j,
        complex(-2.5, -0.0),
        complex(-3.3, 1e-20),
        complex(-3.3, -1e-20),
        1 + 0j,
        2 + 0j,
        0.5 + 0j,
        1e-300 + 0j,
        complex(np.inf, 0),
        complex(-np.inf, 0),
        complex(0, np.inf),
        complex(np.nan, 0),
        complex(1, np.nan),
        complex(np.inf, np.inf),
    ]
    return np.concatenate([plane, near_axis, near_poles, zeros, large, np.array(special)])


def mp_value(fn: Any, z: complex) -> list[str] | None:
    if not (math.isfinite(z.real) and math.isfinite(z.imag)):
        return None
    try:
        v = complex(fn(mpmath.mpc(z.real, z.imag)))
    except (ValueError, ZeroDivisionError):
        return None
    if not (math.isfinite(v.real) and math.isfinite(v.imag)):
        return None
    return [repr(v.real), repr(v.imag)]


def main() -> None:
    out: dict[str, Any] = {"jax": jax.__version__, "survey": survey()}
    out["operands"] = {f"{mod}.{name}": reals for name, mod, reals in MULTI}
    pts = points()
    values: dict[str, Any] = {}
    for dt in ("complex64", "complex128"):
        z = pts.astype(dt)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rec = {
                "points": enc(z),
                "gamma": enc(jss.gamma(jnp.asarray(z))),
                "loggamma": enc(jss.loggamma(jnp.asarray(z))),
            }
        if dt == "complex128":
            rec["mp_gamma"] = [mp_value(mpmath.gamma, complex(v)) for v in z]
            rec["mp_loggamma"] = [mp_value(mpmath.loggamma, complex(v)) for v in z]
        values[dt] = rec
    out["values"] = values
    dz = jnp.asarray(np.array([1.5 + 0.5j, -2.3 + 0.1j, 0.3 - 4j, 7.2 + 0.0j, -0.6 - 1.1j]))
    tangent = jnp.full(dz.shape, 1 + 2j)
    derivs: dict[str, Any] = {"points": enc(dz)}
    for name in ("gamma", "loggamma"):
        f = getattr(jss, name)
        derivs[f"jvp_{name}"] = enc(jax.jvp(f, (dz,), (tangent,))[1])
    g1 = jax.grad(jss.gamma, holomorphic=True)
    derivs["grad_gamma"] = enc(jax.vmap(g1)(dz))
    derivs["grad2_gamma"] = enc(jax.vmap(jax.grad(g1, holomorphic=True))(dz))
    try:
        jax.grad(jss.loggamma, holomorphic=True)(dz[0])
        derivs["grad_loggamma_error"] = None
    except Exception as e:
        derivs["grad_loggamma_error"] = [type(e).__name__, str(e).splitlines()[0]]

    # third derivative of loggamma by nested forward mode (JAX's reverse mode raises), and
    # mpmath's ψ^(n) at the points, n = 1 .. 4
    def d1(f: Any) -> Any:
        return lambda v: jax.jvp(f, (v,), (jnp.ones_like(v),))[1]

    derivs["d3_loggamma"] = enc(d1(d1(d1(jss.loggamma)))(dz))
    derivs["mp_polygamma"] = {
        str(n): [mp_value(lambda v, n=n: mpmath.polygamma(n, v), complex(v)) for v in dz]
        for n in range(1, 5)
    }
    out["derivs"] = derivs
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden"
    (path / "complex_special.json").write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
